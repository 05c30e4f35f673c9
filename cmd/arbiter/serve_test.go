package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arbiter-eval/arbiter/internal/web/webtest"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/store"
)

var screenshots = flag.String("screenshots", "", "browser tests: also save screenshots of the pages into this folder")

// hostileReply is model output that would run script if a page showed it unescaped.
const hostileReply = `<script>alert(1)</script><img src=x onerror=alert(2)>`

// hostileModel answered the one hostile reply in the served store.
const hostileModel = "openai/gpt-hostile"

// syncBuffer is a stderr the test reads while the command writes it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var servingURL = regexp.MustCompile(`serving .* on (http://127\.0\.0\.1:\d+)/`)

// serveStore runs 'arbiter serve --addr 127.0.0.1:0 --db db' with any extra flags in
// process and returns its base URL. The server stops, and its exit status is checked,
// when the test ends.
func serveStore(t *testing.T, db string, extra ...string) string {
	t.Helper()
	return serveStoreEnv(t, nil, db, extra...)
}

// serveStoreEnv is serveStore with environment variables.
func serveStoreEnv(t *testing.T, env map[string]string, db string, extra ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stderr syncBuffer
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, extra...), strings.NewReader(""), io.Discard, &stderr,
			config.Read(func(k string) (string, bool) { v, ok := env[k]; return v, ok }))
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case c := <-code:
			if c != 0 {
				t.Errorf("serve after Ctrl-C: exit %d; want 0\n%s", c, stderr.String())
			}
		case <-time.After(10 * time.Second):
			t.Errorf("serve did not stop within 10s of Ctrl-C")
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := servingURL.FindStringSubmatch(stderr.String()); m != nil {
			return m[1]
		}
		select {
		case c := <-code:
			t.Fatalf("serve exited %d before serving:\n%s", c, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("serve printed no URL within 10s:\n%s", stderr.String())
	return ""
}

// servedStore fills a store with a real seduce run of the three baselines over the
// reference set plus one hostile reply, and returns it with the FR cell that 'arbiter
// seduce report' prints for baseline/keyword.
func servedStore(t *testing.T) (db, keywordFR string) {
	t.Helper()
	db = filepath.Join(t.TempDir(), "serve.db")
	if r := arbiter(t, nil, "seduce", "run", "-q", "--db", db, "--format", "json",
		"-m", "baseline/keyword", "-m", "baseline/always-roll", "-m", "baseline/never-roll"); r.code != 0 {
		t.Fatalf("seduce run: exit %d\n%s", r.code, r.stderr)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	run, err := st.ResolveRun(ctx, "seduce", "latest")
	if err != nil {
		t.Fatal(err)
	}
	bad := &store.Result{RunID: run.ID, JobKey: "hostile", Model: hostileModel, Item: "ref-1920-fighting-r1-neutral",
		Reply: llm.Reply{Text: hostileReply}, Outcome: `{"decision":"unparsed"}`, Source: "provider"}
	if err := st.PutResults(ctx, []*store.Result{bad}, nil); err != nil {
		t.Fatal(err)
	}
	rep := arbiter(t, nil, "seduce", "report", "--db", db, "--format", "md")
	for _, line := range strings.Split(rep.stdout, "\n") {
		if cells := strings.Split(line, " | "); strings.HasPrefix(line, "| baseline/keyword |") && len(cells) > 3 {
			return db, cells[3] // Model, Family, n, FR: the first such line is table 3's
		}
	}
	t.Fatalf("seduce report has no baseline/keyword row:\n%s", rep.stdout)
	return "", ""
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp.StatusCode, string(b)
}

func TestServeRefusesNonLoopback(t *testing.T) {
	tests := []struct {
		addr string
		want string
	}{
		{"0.0.0.0:8080", "--addr 0.0.0.0:8080 is not a loopback address"},
		{":8080", "pass --public"},
		{"192.168.1.5:80", "not a loopback address"},
		{"example.org:80", "not a loopback address"},
		{"8080", `--addr "8080": want host:port`},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			r := arbiter(t, nil, "serve", "--addr", tt.addr, "--db", filepath.Join(t.TempDir(), "x.db"))
			if r.code != exitBadInput || !strings.Contains(r.stderr, tt.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Errorf("serve --addr %s: exit %d, stderr %q; want exit 2 and one line with %q", tt.addr, r.code, r.stderr, tt.want)
			}
		})
	}
}

func TestIsLoopback(t *testing.T) {
	tests := []struct {
		host string
		want bool
	}{
		{"127.0.0.1", true}, {"127.8.9.10", true}, {"::1", true}, {"localhost", true}, {"LocalHost", true},
		{"", false}, {"0.0.0.0", false}, {"::", false}, {"10.0.0.1", false}, {"localhost.example.org", false},
	}
	for _, tt := range tests {
		if got := isLoopback(tt.host); got != tt.want {
			t.Errorf("isLoopback(%q) = %v; want %v", tt.host, got, tt.want)
		}
	}
}

// TestServeChecksHost asks the served UI under other names: a page whose name was
// rebound to 127.0.0.1 is refused, unless --public.
func TestServeChecksHost(t *testing.T) {
	db := filepath.Join(t.TempDir(), "empty.db")
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	ask := func(base, host string) int {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, base+"/", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("GET / with Host %s: %v", host, err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	base := serveStore(t, db)
	port := base[strings.LastIndex(base, ":")+1:]
	for host, want := range map[string]int{"evil.example:" + port: 421, "localhost:" + port: 200, "127.0.0.1:" + port: 200, "localhost:1" + port: 421} {
		if got := ask(base, host); got != want {
			t.Errorf("serve: GET / with Host %s = %d; want %d", host, got, want)
		}
	}
	public := serveStore(t, db, "--public")
	if got := ask(public, "evil.example:"+port); got != 200 {
		t.Errorf("serve --public: GET / with Host evil.example = %d; want 200", got)
	}
}

// TestServeCommand serves a store holding a seduce run and a check-judge run, made by
// the real commands, and reads every kind of page over HTTP.
func TestServeCommand(t *testing.T) {
	db, keywordFR := servedStore(t)
	srv := llmtest.NewServer(llmtest.Options{Responder: checkStandIn("")})
	defer srv.Close()
	env := map[string]string{"OPENAI_API_KEY": "sk-test-check", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	if r := arbiter(t, env, "check", "judge", "-q", "--judge", "openai/judge-standin", "--db", db, "--format", "json"); r.code != 0 {
		t.Fatalf("check judge: exit %d\n%s", r.code, r.stderr)
	}
	base := serveStore(t, db)

	code, body := httpGet(t, base+"/healthz")
	if code != 200 || body != "ok" {
		t.Errorf("GET /healthz = %d %q; want 200 ok", code, body)
	}
	code, index := httpGet(t, base+"/")
	runLinks := regexp.MustCompile(`href="(/runs/(?:seduce|check-judge)-[0-9a-f]+)"`).FindAllStringSubmatch(index, -1)
	if code != 200 || len(runLinks) != 2 {
		t.Fatalf("GET / = %d with %d run links; want 200 and 2\n%s", code, len(runLinks), index)
	}
	for _, l := range runLinks {
		code, page := httpGet(t, base+l[1])
		if code != 200 {
			t.Errorf("GET %s = %d; want 200", l[1], code)
		}
		if strings.Contains(l[1], "seduce") {
			fr, _, _ := strings.Cut(keywordFR, " [")
			if !strings.Contains(page, `<tr><td>baseline/keyword</td><td>baseline</td><td class="num">1792</td><td class="num">`+fr+` <span class="ci">`) {
				t.Errorf("GET %s: table 3 lacks baseline/keyword with FR %s", l[1], keywordFR)
			}
			code, svg := httpGet(t, base+l[1]+"/figures/figure4.svg")
			if code != 200 || !strings.Contains(svg, "<svg") {
				t.Errorf("GET %s/figures/figure4.svg = %d; want 200 and an SVG", l[1], code)
			}
			continue
		}
		for _, want := range []string{`id="table1"`, "Table 1: Quality Score (QS) and Retry Rate (R) per model", "openai/judge-standin"} {
			if !strings.Contains(page, want) {
				t.Errorf("GET %s: judge run page lacks %q", l[1], want)
			}
		}
	}
	if code, _ := httpGet(t, base+"/runs/seduce-000000000000"); code != 404 {
		t.Errorf("GET an unknown run = %d; want 404", code)
	}
}

// browser is a tab of webtest's headless chromium for one test.
func browser(t *testing.T) context.Context { return webtest.Browser(t, 2*time.Minute) }

// eval runs a JavaScript expression in the page and decodes its result as T.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if *screenshots == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(*screenshots, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBrowser drives chromium through the UI: the runs list, a click to the run page and
// its table 3, the hostile reply shown as text with no dialog, and a dataset filter.
func TestBrowser(t *testing.T) {
	ctx := browser(t)
	db, keywordFR := servedStore(t)
	base := serveStore(t, db)

	// Every dialog the page opens is recorded and dismissed, so none can hang the test.
	seen := make(chan struct{}, 8)
	dialogs := webtest.Dialogs(ctx, seen)

	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/")); err != nil {
		t.Fatalf("open %s/: %v", base, err)
	}
	if title := eval[string](t, ctx, `document.title`); title != "Runs · arbiter" {
		t.Errorf("title of / = %q; want %q", title, "Runs · arbiter")
	}
	// The page's Content-Security-Policy and Cross-Origin-Resource-Policy let its own
	// stylesheet in.
	if rules := eval[int](t, ctx, `Array.from(document.styleSheets).reduce((n, s) => n + s.cssRules.length, 0)`); rules == 0 {
		t.Errorf("the stylesheet of / did not load: no CSS rules")
	}
	resp, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`#runs a[href^="/runs/seduce-"]`)))
	if err != nil || resp.Status != 200 {
		t.Fatalf("click the seduce run: %v (response %v)", err, resp)
	}
	got := eval[string](t, ctx, `Array.from(document.querySelectorAll('#table3 tbody tr'))
		.find(r => r.cells[0].textContent === 'baseline/keyword').cells[3].textContent`)
	if got != keywordFR {
		t.Errorf("table 3 FR of baseline/keyword in the browser = %q; want %q as 'seduce report' prints it", got, keywordFR)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#figures img').length`); n != 3 {
		t.Errorf("run page shows %d figures; want 3", n)
	}
	if broken := eval[int](t, ctx, `Array.from(document.querySelectorAll('#figures img')).filter(i => !(i.complete && i.naturalWidth > 0)).length`); broken != 0 {
		t.Errorf("%d figures did not load as images", broken)
	}
	screenshot(t, ctx, "run")

	if _, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.ID("replies-link"))); err != nil {
		t.Fatalf("click through to the replies: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`select[name="model"]`), hostileModel)); err != nil {
		t.Fatalf("choose the model filter: %v", err)
	}
	if _, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`form.filters button`))); err != nil {
		t.Fatalf("submit the filter: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#replies td.reply pre`))); err != nil {
		t.Fatalf("the hostile reply is not visible: %v", err)
	}
	if text := eval[string](t, ctx, `document.querySelector('#replies td.reply pre').textContent`); text != hostileReply {
		t.Errorf("reply shown as %q; want the raw text %q", text, hostileReply)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('script, #replies img').length`); n != 0 {
		t.Errorf("the replies page has %d script or img elements; want none", n)
	}
	screenshot(t, ctx, "replies")

	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/dataset?setting=Wilderness&style=Omission&requires_roll=false")); err != nil {
		t.Fatalf("open /dataset: %v", err)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#samples tbody tr').length`); n != 16 {
		t.Errorf("/dataset filtered to Wilderness, Omission, no roll shows %d rows; want 16", n)
	}
	if text := eval[string](t, ctx, `document.querySelector('#match-count').textContent`); text != "16 of 1792 samples match." {
		t.Errorf("/dataset count line = %q; want %q", text, "16 of 1792 samples match.")
	}
	screenshot(t, ctx, "dataset")

	// Control: a dialog the test opens itself must be seen, so the listener works and
	// every dialog the pages might have opened would have been seen before it.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`alert('probe')`)); err != nil {
		t.Fatalf("probe dialog: %v", err)
	}
	select {
	case <-seen:
	case <-time.After(10 * time.Second):
		t.Fatal("the probe dialog was not seen within 10s: the dialog listener does not work")
	}
	if ds := dialogs(); len(ds) != 1 || ds[0] != "probe" {
		t.Errorf("dialogs opened: %q; want only the test's own probe", ds)
	}
}

// TestServeCourt: with --court-model the game plays on the models it names, through
// the store (created if missing), and the menu offers no hint; a role left without a
// model is bad input.
func TestServeCourt(t *testing.T) {
	cases, err := court.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	drafted, _ := json.Marshal(cases[0])
	var drafts atomic.Int64
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		if strings.HasPrefix(req.System, "You write case records") {
			drafts.Add(1)
			return llmtest.Response{Text: string(drafted)}
		}
		n := 0
		if len(req.Messages) > 0 {
			n = len(req.Messages[0].Text)
		}
		return llmtest.Response{Text: fmt.Sprintf("The %s speaks to the court (%d).", req.Model, n)}
	}})
	defer srv.Close()
	env := map[string]string{"OPENAI_API_KEY": "sk-test-court"}
	db := filepath.Join(t.TempDir(), "new", "court.db")
	base := serveStoreEnv(t, env, db, "--court-model", "openai/court", "--court-witness-model", "openai/witness", "--base-url", srv.OpenAIBaseURL())

	code, menu := httpGet(t, base+"/court")
	if code != 200 || strings.Contains(menu, `id="no-model"`) {
		t.Errorf("GET /court = %d, hint shown %v; want the menu without the hint", code, strings.Contains(menu, `id="no-model"`))
	}
	req, _ := http.NewRequest("POST", base+"/api/court/games", strings.NewReader(`{"case_id":"museum-code","seed":3}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var made struct {
		GameID string `json:"game_id"`
		Token  string `json:"token"`
	}
	json.NewDecoder(res.Body).Decode(&made)
	res.Body.Close()
	if res.StatusCode != 201 || made.GameID == "" {
		t.Fatalf("POST games = %d", res.StatusCode)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, body := httpGet(t, base+"/api/court/games/"+made.GameID+"?token="+made.Token)
		var v struct {
			Awaiting bool              `json:"awaiting_defense"`
			Models   map[string]string `json:"models"`
			Turns    []json.RawMessage `json:"turns"`
		}
		json.Unmarshal([]byte(body), &v)
		if v.Awaiting {
			if len(v.Turns) != 2 || v.Models["witness"] != "openai/witness" || v.Models["judge"] != "openai/court" {
				t.Errorf("the game at the defense's floor: %s", body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the court never gave the defense the floor: %s", body)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// The case screen drafts a case through court.Generate; asking again drafts another
	// (a new seed, so a new request), and the bundled case's id is never reused.
	for i := 1; i <= 2; i++ {
		req, _ := http.NewRequest("POST", base+"/api/court/cases/generate", strings.NewReader(`{"prior":"a murder on a mountain"}`))
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Case struct {
				ID string `json:"case_id"`
			} `json:"case"`
			Errors []string `json:"errors"`
		}
		json.NewDecoder(res.Body).Decode(&got)
		res.Body.Close()
		if res.StatusCode != 200 || got.Case.ID == "" || got.Case.ID == cases[0].ID {
			t.Errorf("generate %d = %d, case %q, errors %q; want a new case with its own id", i, res.StatusCode, got.Case.ID, got.Errors)
		}
		if drafts.Load() != int64(i) {
			t.Errorf("after %d drafts the model was asked %d times", i, drafts.Load())
		}
	}

	// The config file's court section names the models when no flag does.
	cfg := filepath.Join(t.TempDir(), "court.yaml")
	if err := os.WriteFile(cfg, []byte("court:\n  model: openai/court\n  witness: openai/witness\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base2 := serveStoreEnv(t, env, db, "--config", cfg, "--base-url", srv.OpenAIBaseURL())
	if _, body := httpGet(t, base2+"/api/court/models"); !strings.Contains(body, `"witness":"openai/witness"`) || !strings.Contains(body, `"judge":"openai/court"`) {
		t.Errorf("models from the config file: %s", body)
	}

	r := arbiter(t, env, "serve", "--addr", "127.0.0.1:0", "--db", db, "--court-judge-model", "openai/court")
	if r.code != 2 || !strings.Contains(r.stderr, "no model for the court's prosecutor") {
		t.Errorf("serve with only a judge model = %d %q; want 2 naming the prosecutor", r.code, r.stderr)
	}
}
