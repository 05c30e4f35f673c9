package web

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/store"
)

// guarded is s's routes plus a fake JSON route, POST /api/echo, behind the guard, as the
// court's game API will be: the echo answers 200 with the body it read, or 413.
func guarded(t *testing.T, s *Server) http.Handler {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/echo", func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "too big", http.StatusRequestEntityTooLarge)
			return
		}
		w.Write(b)
	})
	mux.Handle("/", s.Handler())
	return s.guard(mux)
}

// contextWithLocal is r's context with the local address a request arrived at.
func contextWithLocal(r *http.Request, local net.Addr) context.Context {
	return context.WithValue(r.Context(), http.LocalAddrContextKey, local)
}

// apiPost is a same-origin JSON POST to the fake route.
func apiPost(body string) *http.Request {
	r := loopbackRequest(http.MethodPost, "/api/echo", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Origin", "http://127.0.0.1:8080")
	return r
}

func TestHostCheck(t *testing.T) {
	h := guarded(t, newFixture(t).server(t))
	tests := []struct {
		name, host string
		want       int
	}{
		{"listening address", "127.0.0.1:8080", 200},
		{"localhost", "localhost:8080", 200},
		{"localhost in capitals", "LocalHost:8080", 200},
		{"IPv6 loopback", "[::1]:8080", 200},
		{"IPv6 loopback written out", "[0:0:0:0:0:0:0:1]:8080", 200},
		{"foreign name", "evil.example", 421},
		{"foreign name with the port", "evil.example:8080", 421},
		{"right name, wrong port", "127.0.0.1:9090", 421},
		{"localhost, wrong port", "localhost:9090", 421},
		{"no port means 80", "localhost", 421},
		{"other loopback address", "127.0.0.2:8080", 421},
		{"subdomain of localhost", "evil.localhost:8080", 421},
		{"empty", "", 421},
		{"bare IPv6", "::1", 421},
	}
	for _, tt := range tests {
		for _, target := range []string{"/", "/healthz", "/runs/seduce-test0001", "/static/style.css", "POST /api/echo"} {
			t.Run(tt.name+" "+target, func(t *testing.T) {
				var r *http.Request
				if strings.HasPrefix(target, "POST ") {
					r = apiPost(`{"a":1}`)
					r.Header.Del("Origin")
				} else {
					r = loopbackRequest(http.MethodGet, target, nil)
				}
				r.Host = tt.host
				if a := send(t, h, r); a.status != tt.want {
					t.Errorf("%s with Host %q = %d; want %d\n%s", target, tt.host, a.status, tt.want, a.body)
				}
			})
		}
	}
}

func TestHostCheckOnIPv6Listener(t *testing.T) {
	h := guarded(t, newFixture(t).server(t))
	for host, want := range map[string]int{"[::1]:8080": 200, "127.0.0.1:8080": 200, "localhost:8080": 200, "[::1]:80": 421, "[::2]:8080": 421} {
		r := loopbackRequest(http.MethodGet, "/healthz", nil)
		r = r.WithContext(contextWithLocal(r, &net.TCPAddr{IP: net.IPv6loopback, Port: 8080}))
		r.Host = host
		if a := send(t, h, r); a.status != want {
			t.Errorf("GET /healthz on [::1]:8080 with Host %q = %d; want %d", host, a.status, want)
		}
	}
}

func TestRequestWithoutLocalAddressIsRefused(t *testing.T) {
	h := newFixture(t).server(t).Handler()
	r := loopbackRequest(http.MethodGet, "/healthz", nil)
	r = r.WithContext(contextWithLocal(r, nil))
	if a := send(t, h, r); a.status != http.StatusMisdirectedRequest {
		t.Errorf("GET /healthz with no local address = %d; want 421", a.status)
	}
}

func TestPublicAnswersAnyHost(t *testing.T) {
	f := newFixture(t)
	s, err := New(Options{Store: f.st, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	h := guarded(t, s)
	for _, target := range []string{"/", "/healthz"} {
		r := loopbackRequest(http.MethodGet, target, nil)
		r.Host = "arbiter.lan:8080"
		if a := send(t, h, r); a.status != 200 {
			t.Errorf("--public: GET %s with Host arbiter.lan:8080 = %d; want 200", target, a.status)
		}
	}
	// Under --public an Origin must match the Host the request came to.
	for origin, want := range map[string]int{
		"http://arbiter.lan:8080": 200,
		"http://ARBITER.lan:8080": 200,
		"http://127.0.0.1:8080":   403,
		"http://evil.example":     403,
		"http://arbiter.lan:9090": 403,
		"https://arbiter.lan":     403,
	} {
		r := apiPost(`{}`)
		r.Host = "arbiter.lan:8080"
		r.Header.Set("Origin", origin)
		if a := send(t, h, r); a.status != want {
			t.Errorf("--public: POST with Host arbiter.lan:8080 and Origin %s = %d; want %d", origin, a.status, want)
		}
	}
}

func TestOriginCheck(t *testing.T) {
	h := guarded(t, newFixture(t).server(t))
	tests := []struct {
		origin string
		want   int
	}{
		{"http://127.0.0.1:8080", 200},
		{"http://localhost:8080", 200},
		{"http://[::1]:8080", 200},
		{"http://evil.example", 403},
		{"http://evil.example:8080", 403},
		{"http://127.0.0.1:9090", 403},
		{"https://127.0.0.1:8080", 403},
		{"http://127.0.0.1", 403},
		{"null", 403},
		{"", 403},
		{"http://127.0.0.1:8080/path", 403},
	}
	for _, tt := range tests {
		t.Run(tt.origin, func(t *testing.T) {
			r := apiPost(`{"text":"objection"}`)
			r.Header.Set("Origin", tt.origin)
			a := send(t, h, r)
			if a.status != tt.want {
				t.Errorf("POST /api/echo with Origin %q = %d; want %d\n%s", tt.origin, a.status, tt.want, a.body)
			}
			if tt.want == 200 && a.body != `{"text":"objection"}` {
				t.Errorf("POST /api/echo with Origin %q: body %q; want the request's", tt.origin, a.body)
			}
			if tt.want == 403 && a.header.Get("Content-Type") != "application/json" {
				t.Errorf("refused API request: Content-Type %q; want application/json", a.header.Get("Content-Type"))
			}
			// A read from a foreign origin is refused too, not only a write.
			g := loopbackRequest(http.MethodGet, "/healthz", nil)
			g.Header.Set("Origin", tt.origin)
			if a := send(t, h, g); a.status != tt.want {
				t.Errorf("GET /healthz with Origin %q = %d; want %d", tt.origin, a.status, tt.want)
			}
		})
	}
}

func TestSecFetchSite(t *testing.T) {
	h := guarded(t, newFixture(t).server(t))
	for site, want := range map[string]int{"cross-site": 403, "same-site": 403, "same-origin": 200, "none": 200, "": 200} {
		r := apiPost(`{}`)
		r.Header.Del("Origin")
		if site != "" {
			r.Header.Set("Sec-Fetch-Site", site)
		}
		if a := send(t, h, r); a.status != want {
			t.Errorf("POST without Origin, Sec-Fetch-Site %q = %d; want %d", site, a.status, want)
		}
	}
	// A page navigation from another site only reads: it is answered.
	r := loopbackRequest(http.MethodGet, "/", nil)
	r.Header.Set("Sec-Fetch-Site", "cross-site")
	if a := send(t, h, r); a.status != 200 {
		t.Errorf("GET / with Sec-Fetch-Site cross-site = %d; want 200", a.status)
	}
}

func TestAPIWritesMustBeJSON(t *testing.T) {
	h := guarded(t, newFixture(t).server(t))
	for ctype, want := range map[string]int{
		"application/json":                  200,
		"application/json; charset=utf-8":   200,
		"Application/JSON":                  200,
		"":                                  415,
		"text/plain":                        415,
		"application/x-www-form-urlencoded": 415,
		"multipart/form-data; boundary=x":   415,
		"application/jsonx":                 415,
		"application/json; =":               415,
	} {
		r := apiPost(`{}`)
		if ctype == "" {
			r.Header.Del("Content-Type")
		} else {
			r.Header.Set("Content-Type", ctype)
		}
		if a := send(t, h, r); a.status != want {
			t.Errorf("POST /api/echo with Content-Type %q = %d; want %d", ctype, a.status, want)
		}
	}
	for _, method := range []string{http.MethodPut, http.MethodPatch, http.MethodDelete} {
		r := loopbackRequest(method, "/api/echo", strings.NewReader("{}"))
		if a := send(t, h, r); a.status != http.StatusUnsupportedMediaType {
			t.Errorf("%s /api/echo without Content-Type = %d; want 415", method, a.status)
		}
	}
}

func TestBodyLimit(t *testing.T) {
	h := guarded(t, newFixture(t).server(t))
	big := `"` + strings.Repeat("a", maxBodyBytes) + `"`
	if a := send(t, h, apiPost(big)); a.status != http.StatusRequestEntityTooLarge {
		t.Errorf("POST of %d bytes = %d; want 413", len(big), a.status)
	}
	// Without a Content-Length the handler's read stops at the limit.
	r := apiPost("")
	r.Body = io.NopCloser(strings.NewReader(big))
	r.ContentLength = -1
	if a := send(t, h, r); a.status != http.StatusRequestEntityTooLarge {
		t.Errorf("chunked POST of %d bytes = %d; want 413", len(big), a.status)
	}
	ok := `"` + strings.Repeat("a", maxBodyBytes-2) + `"`
	if a := send(t, h, apiPost(ok)); a.status != 200 || len(a.body) != maxBodyBytes {
		t.Errorf("POST of %d bytes = %d with %d bytes back; want 200 with all", len(ok), a.status, len(a.body))
	}
}

func TestStaticListsNoFolder(t *testing.T) {
	h := newFixture(t).server(t).Handler()
	a := get(t, h, "/static/")
	if a.status != http.StatusNotFound {
		t.Errorf("GET /static/ = %d; want 404", a.status)
	}
	if strings.Contains(a.body, `href="style.css"`) {
		t.Errorf("GET /static/ lists the folder:\n%s", a.body)
	}
	if a := get(t, h, "/static"); a.header.Get("Location") != "/static/" {
		t.Errorf("GET /static = %d to %q; want a redirect to /static/", a.status, a.header.Get("Location"))
	}
	if a := get(t, h, "/static/style.css"); a.status != 200 || !strings.HasPrefix(a.header.Get("Content-Type"), "text/css") {
		t.Errorf("GET /static/style.css = %d %q; want 200 text/css", a.status, a.header.Get("Content-Type"))
	}
	if a := get(t, h, "/static/nothing.css"); a.status != http.StatusNotFound {
		t.Errorf("GET /static/nothing.css = %d; want 404", a.status)
	}
}

func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	h := newFixture(t).server(t).Handler()
	foreign := loopbackRequest(http.MethodGet, "/", nil)
	foreign.Host = "evil.example"
	answers := map[string]answer{
		"page":       get(t, h, "/"),
		"healthz":    get(t, h, "/healthz"),
		"stylesheet": get(t, h, "/static/style.css"),
		"not found":  get(t, h, "/nowhere"),
		"figure":     get(t, h, "/runs/seduce-test0001/figures/nothing.svg"),
		"refused":    send(t, h, foreign),
	}
	for name, a := range answers {
		for header, want := range map[string]string{
			"X-Content-Type-Options": "nosniff",
			"Referrer-Policy":        "no-referrer",
			"X-Frame-Options":        "DENY",
		} {
			if got := a.header.Get(header); got != want {
				t.Errorf("%s (%d): %s %q; want %q", name, a.status, header, got, want)
			}
		}
		csp := a.header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: Content-Security-Policy %q; want default-src 'none' and frame-ancestors 'none'", name, csp)
		}
		if strings.Contains(csp, "unsafe-inline") && name != "figure" {
			t.Errorf("%s: Content-Security-Policy %q allows inline code", name, csp)
		}
	}
}

func TestServeChecksHostOnTheListeningPort(t *testing.T) {
	s := newFixture(t).server(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	t.Cleanup(func() { s.Shutdown(t.Context()) })
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for host, want := range map[string]int{
		"127.0.0.1:" + port:        200,
		"localhost:" + port:        200,
		"[::1]:" + port:            200,
		"evil.example:" + port:     421,
		"127.0.0.1:1" + port:       421,
		"evil.example":             421,
		"localhost.:" + port:       421,
		"127.0.0.1.nip.io:" + port: 421,
	} {
		req, err := http.NewRequest(http.MethodGet, "http://"+ln.Addr().String()+"/healthz", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("GET /healthz with Host %s: %v", host, err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("served on %s: GET /healthz with Host %q = %d; want %d", ln.Addr(), host, resp.StatusCode, want)
		}
	}
}

// FuzzGuard sends the guard arbitrary Host and Origin headers: it never panics, and
// what it lets through names port 8080 of this machine.
func FuzzGuard(f *testing.F) {
	for _, seed := range [][2]string{
		{"127.0.0.1:8080", "http://127.0.0.1:8080"}, {"localhost:8080", ""}, {"[::1]:8080", "null"},
		{"evil.example", "http://evil.example"}, {"[::1", "http://[::1]:8080"}, {"127.0.0.1:8080:8080", "http://%zz"},
	} {
		f.Add(seed[0], seed[1])
	}
	st, err := store.Open(context.Background(), filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	s, err := New(Options{Store: st})
	if err != nil {
		f.Fatal(err)
	}
	ok := s.guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	f.Fuzz(func(t *testing.T, host, origin string) {
		r := loopbackRequest(http.MethodGet, "/healthz", nil)
		r.Host = host
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		a := send(t, ok, r)
		switch a.status {
		case 200:
			name, port, valid := splitHost(host, "80")
			ip := net.ParseIP(name)
			if !valid || port != "8080" || (name != "localhost" && (ip == nil || !ip.IsLoopback())) {
				t.Errorf("Host %q was let through", host)
			}
		case 403, 421:
		default:
			t.Errorf("Host %q, Origin %q: status %d; want 200, 403 or 421", host, origin, a.status)
		}
	})
}
