package web

import (
	"encoding/json"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The guard is the one layer every request passes through before it reaches a route:
// pages, figures, /static/, /healthz and the JSON API under /api/ alike. Handler wraps
// the mux in it once, so a route added to that mux (the court's /api/court/... routes)
// is guarded without doing anything. In order, it
//
//   - sets the security headers every answer carries (a default Content-Security-Policy
//     that a handler may replace with a stricter one);
//   - answers 421 when the Host header is not the address the connection came to, or
//     localhost, 127.0.0.1 or [::1] with that port: a page on evil.example whose name
//     was rebound to 127.0.0.1 sends Host: evil.example, so it can read nothing;
//   - answers 403 when an Origin header is present and is not the server's own origin,
//     or when a state-changing request has no Origin but its Sec-Fetch-Site says it came
//     from another site: a foreign page can neither read the API nor act through it;
//   - answers 415 when a state-changing request under /api/ does not carry
//     Content-Type: application/json (parameters such as charset allowed): an HTML form
//     cannot send that type, so no cross-site form post reaches a handler;
//   - limits every request body to maxBodyBytes, a case record's to maxCaseBytes (413
//     when Content-Length says more; a handler reading past it gets an
//     *http.MaxBytesError and should answer 413).
//
// With Options.Public the Host check is off (the server answers to whatever name the
// network gives it), and an Origin must match the Host the request came to.
//
// The allowed address is the local address of the request's connection, which
// http.Server records for each request (http.LocalAddrContextKey): for a listener on a
// loopback address that is the listening address, port 0 resolved. A request with no
// such address (one built by hand and given straight to Handler) is refused with 421.

// maxBodyBytes bounds a request body: the API's JSON bodies are a few hundred bytes (a
// defense statement is at most 4,000 characters).
const maxBodyBytes = 64 << 10

// Limits of the http.Server. It sets no ReadTimeout or WriteTimeout: they would cut the
// court's event streams, and a read deadline that fires while a handler runs cancels its
// context.
const (
	readHeaderTimeout = 10 * time.Second
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 64 << 10
)

// pageCSP allows scripts, styles, images and fetches from the server's own files only,
// nothing inline, no plugins, no frames: text that escaped its escaping could not run.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// svgCSP is a figure's policy when opened on its own: its inline styles, nothing else.
const svgCSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"

// httpServer is the http.Server that Serve runs, with the guarded routes.
func (s *Server) httpServer() *http.Server {
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// guard wraps next in the checks above.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Content-Security-Policy", pageCSP)

		local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		if !s.public && !isOwnHost(r.Host, local, defaultPort(r)) {
			refuse(w, r, http.StatusMisdirectedRequest, "this server answers only to "+ownHosts(local)+"; Host "+strconv.Quote(r.Host)+" is refused (start it with --public to serve other names)")
			return
		}
		if origins := r.Header.Values("Origin"); len(origins) > 0 {
			if len(origins) > 1 || !s.isOwnOrigin(origins[0], r, local) {
				refuse(w, r, http.StatusForbidden, "requests from another origin are refused")
				return
			}
		} else if !safeMethod(r.Method) {
			if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
				refuse(w, r, http.StatusForbidden, "requests from another site are refused")
				return
			}
		}
		if !safeMethod(r.Method) && isAPI(r.URL.Path) && !isJSON(r.Header.Get("Content-Type")) {
			refuse(w, r, http.StatusUnsupportedMediaType, "send the request body as Content-Type: application/json")
			return
		}
		limit := int64(maxBodyBytes)
		if r.URL.Path == "/api/court/cases" {
			// A case record may be up to maxCaseBytes, in its envelope.
			limit = maxCaseBytes + 8<<10
		}
		if r.ContentLength > limit {
			refuse(w, r, http.StatusRequestEntityTooLarge, "the request body is over "+strconv.FormatInt(limit>>10, 10)+" KiB")
			return
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, limit)
		}
		next.ServeHTTP(w, r)
	})
}

// refuse answers a request the guard stops: JSON under /api/, plain text elsewhere.
func refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	w.Header().Set("Cache-Control", "no-store")
	if isAPI(r.URL.Path) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]string{"error": msg})
		return
	}
	http.Error(w, msg, status)
}

// safeMethod reports whether method only reads.
func safeMethod(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	return false
}

func isAPI(path string) bool { return strings.HasPrefix(path, "/api/") }

// isJSON reports whether a Content-Type header names JSON, with or without parameters.
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}

// defaultPort is the port a Host or Origin without one means for r's scheme.
func defaultPort(r *http.Request) string {
	if r.TLS != nil {
		return "443"
	}
	return "80"
}

// scheme is the scheme r was served over.
func scheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

// splitHost splits a Host header value (or an origin's host) into a lower-case name or
// IP and a port, the port defaulting to defPort. ok is false for a malformed value.
func splitHost(hostport, defPort string) (host, port string, ok bool) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, defPort
		if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
			host = host[1 : len(host)-1]
		} else if strings.Contains(host, ":") {
			return "", "", false
		}
	}
	if host == "" || port == "" {
		return "", "", false
	}
	return strings.ToLower(host), port, true
}

// isOwnHost reports whether hostport names the local address, or a loopback alias with
// its port.
func isOwnHost(hostport string, local net.Addr, defPort string) bool {
	if local == nil {
		return false
	}
	lhost, lport, err := net.SplitHostPort(local.String())
	if err != nil {
		return false
	}
	host, port, ok := splitHost(hostport, defPort)
	if !ok || port != lport {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.Equal(net.IPv4(127, 0, 0, 1)) || ip.Equal(net.IPv6loopback) || ip.Equal(net.ParseIP(lhost)))
}

// ownHosts names the hosts isOwnHost accepts, for the refusal message.
func ownHosts(local net.Addr) string {
	if local == nil {
		return "its listening address"
	}
	_, port, err := net.SplitHostPort(local.String())
	if err != nil {
		return local.String()
	}
	return local.String() + " (or localhost:" + port + ", 127.0.0.1:" + port + ", [::1]:" + port + ")"
}

// isOwnOrigin reports whether an Origin header names this server: its scheme and a host
// that the Host check accepts, or under Public the Host the request came to.
func (s *Server) isOwnOrigin(origin string, r *http.Request, local net.Addr) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != scheme(r) || u.Host == "" || u.User != nil || u.Opaque != "" ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	if !s.public {
		return isOwnHost(u.Host, local, defaultPort(r))
	}
	oh, op, ok1 := splitHost(u.Host, defaultPort(r))
	rh, rp, ok2 := splitHost(r.Host, defaultPort(r))
	return ok1 && ok2 && oh == rh && op == rp
}
