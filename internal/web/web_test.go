package web

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// hostile is model output that would run script if a page showed it unescaped.
const hostile = `<script>alert(1)</script><img src=x onerror=alert(2)>`

// hostileEscaped is hostile as html/template writes it in element content.
const hostileEscaped = `&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;`

// hostileModel is a model name that tries to break out of an attribute.
const hostileModel = `openai/"><svg onload=alert(3)>`

const (
	seduceRun store.RunID = "seduce-test0001"
	otherRun  store.RunID = "check-augment-test"
	samples               = 64
)

// fixture is a store holding a seduce run of the three baselines over the first
// samples of the reference set, plus one hostile reply, and a run of another kind.
type fixture struct {
	st       *store.Store
	ds       *seduce.Dataset
	dataPath string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "web.db"))
	if err != nil {
		t.Fatalf("store.Open = %v", err)
	}
	t.Cleanup(func() { st.Close() })
	ref, err := os.ReadFile("../seduce/reference/reference.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dataPath := filepath.Join(t.TempDir(), "first.jsonl")
	if err := os.WriteFile(dataPath, []byte(strings.Join(strings.SplitAfter(string(ref), "\n")[:samples], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	tax := seduce.DefaultTaxonomy()
	ds, err := seduce.LoadDataset(dataPath, tax)
	if err != nil || len(ds.Samples) != samples {
		t.Fatalf("LoadDataset(first %d samples) = %v; want %d samples", samples, err, samples)
	}
	prompt := seduce.DefaultPrompt(tax)
	config := fmt.Sprintf(`{"kind":"seduce","datasets":[%q],"models":["baseline/keyword"]}`, dataPath)
	if _, err := st.BeginRun(ctx, store.Run{ID: seduceRun, Kind: seduce.RunKind, Config: []byte(config),
		DatasetHash: ds.Hash, PromptText: "You are the Keeper. <b>not bold</b>", Version: "test"}); err != nil {
		t.Fatal(err)
	}
	models := seduce.Baselines(tax)
	var jobs []runner.Job
	for name := range models {
		for _, s := range ds.Samples {
			jobs = append(jobs, runner.Job{Key: runner.JobKey(name, string(s.ID), 0), Model: name, Item: string(s.ID), Request: prompt.Request(s)})
		}
	}
	outcome := func(_ runner.Job, r *llm.Reply) string {
		p := seduce.FromReply(r, tax)
		return fmt.Sprintf(`{"decision":%q,"skill":%q}`, p.Decision, p.Skill)
	}
	if _, err := runner.Run(ctx, st, runner.Plan{Run: seduceRun, Jobs: jobs, Models: models,
		Local: func(llm.ModelName) bool { return true }, Outcome: outcome}); err != nil {
		t.Fatalf("runner.Run = %v", err)
	}
	bad := &store.Result{RunID: seduceRun, JobKey: "hostile", Model: hostileModel, Item: string(ds.Samples[0].ID),
		Reply: llm.Reply{Text: hostile}, Outcome: `{"decision":"unparsed"}`, Source: "provider"}
	failed := &store.Result{RunID: seduceRun, JobKey: "failed", Model: hostileModel, Item: string(ds.Samples[1].ID),
		Err: "429 rate limited " + hostile, Source: "provider"}
	if err := st.PutResults(ctx, []*store.Result{bad, failed}, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.EndRun(ctx, seduceRun, "done"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.BeginRun(ctx, store.Run{ID: otherRun, Kind: "check-augment", Config: []byte(`{}`), Version: "test"}); err != nil {
		t.Fatal(err)
	}
	return &fixture{st: st, ds: ds, dataPath: dataPath}
}

// score scores the fixture's seduce run as the server does.
func (f *fixture) score(t *testing.T) *seduce.Results {
	t.Helper()
	runs, err := f.st.Runs(context.Background(), seduce.RunKind)
	if err != nil || len(runs) != 1 {
		t.Fatalf("Runs = %v, %v; want the fixture's seduce run", runs, err)
	}
	res, err := seduce.Rescore(context.Background(), f.st, runs[0], seduce.RescoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func (f *fixture) server(t *testing.T) *Server {
	t.Helper()
	s, err := New(Options{Store: f.st})
	if err != nil {
		t.Fatalf("New = %v", err)
	}
	return s
}

type answer struct {
	status int
	header http.Header
	body   string
}

func get(t *testing.T, h http.Handler, target string) answer {
	t.Helper()
	return do(t, h, http.MethodGet, target)
}

func do(t *testing.T, h http.Handler, method, target string) answer {
	t.Helper()
	return send(t, h, loopbackRequest(method, target, nil))
}

// testAddr is the address loopbackRequest's requests arrive at.
var testAddr = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}

// loopbackRequest is a request as http.Server hands it over when a browser on this
// machine asks http://127.0.0.1:8080 for target.
func loopbackRequest(method, target string, body io.Reader) *http.Request {
	r := httptest.NewRequest(method, target, body)
	r.Host = testAddr.String()
	return r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.Addr(testAddr)))
}

func send(t *testing.T, h http.Handler, r *http.Request) answer {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return answer{rec.Code, rec.Header(), rec.Body.String()}
}

// rows counts the body rows of the table with the given id.
func rows(t *testing.T, body, id string) int {
	t.Helper()
	i := strings.Index(body, `id="`+id+`"`)
	if i < 0 {
		return -1
	}
	rest := body[i:]
	end := strings.Index(rest, "</table>")
	tbody := rest[strings.Index(rest, "<tbody>"):end]
	return strings.Count(tbody, "<tr>")
}

func TestRoutes(t *testing.T) {
	f := newFixture(t)
	h := f.server(t).Handler()
	keyword := url.QueryEscape("baseline/keyword")
	tests := []struct {
		name, target string
		status       int
		ctype        string
		want         []string
	}{
		{"healthz", "/healthz", 200, "text/plain", []string{"ok"}},
		{"index", "/", 200, "text/html", []string{`<a href="/runs/seduce-test0001">seduce-test0001</a>`, "check-augment-test", "status-done", `<td class="num">193</td>`}},
		{"seduce run", "/runs/seduce-test0001", 200, "text/html", []string{`id="table3"`, "Table 3: Failure rate (FR) per adjudicator",
			"<td>baseline/keyword</td>", `<img src="/runs/seduce-test0001/figures/figure4.svg" alt="Figure 4: FR by rhetorical style">`,
			`href="/runs/seduce-test0001/replies"`, "You are the Keeper. &lt;b&gt;not bold&lt;/b&gt;"}},
		{"run without a report", "/runs/check-augment-test", 200, "text/html", []string{"check-augment", "0 answered"}},
		{"unknown run", "/runs/seduce-nope", 404, "text/html", []string{"404", "There is no run seduce-nope in the store"}},
		{"run id prefix is not a run", "/runs/seduce-test", 404, "text/html", []string{"There is no run"}},
		{"figure", "/runs/seduce-test0001/figures/figure4.svg", 200, "image/svg+xml", []string{"<svg", "Figure 4: FR by rhetorical style"}},
		{"unknown figure", "/runs/seduce-test0001/figures/figure9.svg", 404, "text/html", []string{"has no figure figure9.svg"}},
		{"figure without .svg", "/runs/seduce-test0001/figures/figure4", 404, "text/html", nil},
		{"figure of an unknown run", "/runs/nope/figures/figure4.svg", 404, "text/html", nil},
		{"replies", "/runs/seduce-test0001/replies", 200, "text/html", []string{"1–50 of 194", `rel="next"`}},
		{"replies of one model", "/runs/seduce-test0001/replies?model=" + keyword, 200, "text/html", []string{"1–50 of 64", "<option selected>baseline/keyword</option>"}},
		{"replies page 2", "/runs/seduce-test0001/replies?model=" + keyword + "&page=2", 200, "text/html",
			[]string{"51–64 of 64", `href="?model=baseline%2Fkeyword" rel="prev"`}},
		{"replies past the last page", "/runs/seduce-test0001/replies?page=9", 404, "text/html", []string{"past the last page"}},
		{"replies with a bad page", "/runs/seduce-test0001/replies?page=x", 400, "text/html", []string{"want a page number"}},
		{"replies of an unknown run", "/runs/nope/replies", 404, "text/html", nil},
		{"replies by decision", "/runs/seduce-test0001/replies?decision=error", 200, "text/html", []string{"1–1 of 1", "429 rate limited"}},
		{"dataset", "/dataset", 200, "text/html", []string{"1792 of 1792 samples match", "ref-1920-fighting-r1-neutral", "Sal has already raised his fists."}},
		{"dataset filtered", "/dataset?setting=Wilderness&style=Omission&requires_roll=false", 200, "text/html", []string{"16 of 1792 samples match"}},
		{"dataset with a bad requires_roll", "/dataset?requires_roll=maybe", 400, "text/html", []string{"requires_roll: want true or false"}},
		{"dataset past the last page", "/dataset?skill=Climb&page=4", 404, "text/html", nil},
		{"stylesheet", "/static/style.css", 200, "text/css", []string{"font-variant-numeric"}},
		{"unknown page", "/nowhere", 404, "text/html", []string{"There is no page at /nowhere."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := get(t, h, tt.target)
			if a.status != tt.status {
				t.Errorf("GET %s = %d; want %d\n%s", tt.target, a.status, tt.status, a.body)
			}
			if ct := a.header.Get("Content-Type"); !strings.HasPrefix(ct, tt.ctype) {
				t.Errorf("GET %s: Content-Type %q; want %s", tt.target, ct, tt.ctype)
			}
			if a.header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("GET %s: no X-Content-Type-Options: nosniff", tt.target)
			}
			if strings.HasPrefix(tt.ctype, "text/html") && !strings.Contains(a.header.Get("Content-Security-Policy"), "default-src 'none'") {
				t.Errorf("GET %s: Content-Security-Policy %q; want default-src 'none'", tt.target, a.header.Get("Content-Security-Policy"))
			}
			for _, w := range tt.want {
				if !strings.Contains(a.body, w) {
					t.Errorf("GET %s: body lacks %q", tt.target, w)
				}
			}
		})
	}
}

func TestHealthzIsExactlyOK(t *testing.T) {
	a := get(t, newFixture(t).server(t).Handler(), "/healthz")
	if a.status != 200 || a.body != "ok" {
		t.Errorf("GET /healthz = %d %q; want 200 \"ok\"", a.status, a.body)
	}
}

func TestWrongMethod(t *testing.T) {
	h := newFixture(t).server(t).Handler()
	for _, target := range []string{"/healthz", "/", "/runs/seduce-test0001"} {
		if a := do(t, h, http.MethodPost, target); a.status != http.StatusMethodNotAllowed {
			t.Errorf("POST %s = %d; want 405", target, a.status)
		}
	}
}

func TestRunPageShowsTheKeywordBaseline(t *testing.T) {
	f := newFixture(t)
	body := get(t, f.server(t).Handler(), "/runs/seduce-test0001").body
	res := f.score(t)
	var fr string
	for _, m := range res.Models {
		if m.Model == "baseline/keyword" {
			fr = fmt.Sprintf("%.2f%%", *m.FR*100)
		}
	}
	want := `<tr><td>baseline/keyword</td><td>baseline</td><td class="num">64</td><td class="num">` + fr
	if fr == "" || !strings.Contains(body, want) {
		t.Errorf("run page lacks the keyword row of table 3 %q", want)
	}
	if n := rows(t, body, "table3"); n != 5 {
		t.Errorf("table 3 has %d rows; want 5 (four models and the average)", n)
	}
}

func TestHostileTextIsEscaped(t *testing.T) {
	h := newFixture(t).server(t).Handler()
	model := url.QueryEscape(hostileModel)
	for _, target := range []string{"/", "/runs/seduce-test0001", "/runs/seduce-test0001/replies?model=" + model,
		"/runs/seduce-test0001/replies?decision=error", "/runs/" + url.PathEscape(hostile), "/dataset?skill=" + url.QueryEscape(hostile)} {
		t.Run(target, func(t *testing.T) {
			a := get(t, h, target)
			for _, raw := range []string{"<script", "<img src=x", "<svg onload", `"><svg`} {
				if strings.Contains(a.body, raw) {
					t.Errorf("GET %s: body holds raw %q", target, raw)
				}
			}
		})
	}
	a := get(t, h, "/runs/seduce-test0001/replies?model="+model)
	if !strings.Contains(a.body, "<pre>"+hostileEscaped+"</pre>") {
		t.Errorf("replies page does not show the hostile reply escaped as text; want <pre>%s</pre>", hostileEscaped)
	}
	if rows(t, a.body, "replies") != 2 {
		t.Errorf("replies of %s: %d rows; want 2", hostileModel, rows(t, a.body, "replies"))
	}
	if !strings.Contains(a.body, "<option selected>openai/&#34;&gt;&lt;svg onload=alert(3)&gt;</option>") {
		t.Errorf("the model filter does not offer the hostile model name escaped")
	}
}

func TestDatasetEscapesSampleText(t *testing.T) {
	line := `{"id":"x-1","generator":"g","setting":"Wilderness","category":"PHY","skill":"Climb","scenario_id":"x",` +
		`"context":"ctx ` + strings.ReplaceAll(hostile, `"`, `\"`) + `","statement":"I climb.","style":"Neutral",` +
		`"requires_roll":true,"gold_skill":"Climb","truth":"because </td></tr></table><script>alert(4)</script>"}` + "\n"
	ds, err := seduce.ReadDataset(strings.NewReader(line), "x.jsonl", seduce.FormatJSONL, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Store: newFixture(t).st, Dataset: ds})
	if err != nil {
		t.Fatal(err)
	}
	a := get(t, s.Handler(), "/dataset?skill=Climb")
	if strings.Contains(a.body, "<script") || strings.Contains(a.body, "<img") || strings.Contains(a.body, "</td></tr></table><") {
		t.Errorf("dataset page holds raw sample markup:\n%s", a.body)
	}
	if !strings.Contains(a.body, "ctx "+hostileEscaped) || rows(t, a.body, "samples") != 1 {
		t.Errorf("dataset page does not show the one sample's context escaped")
	}
}

func TestDatasetFilters(t *testing.T) {
	h := newFixture(t).server(t).Handler()
	tests := []struct {
		query       string
		match, rows int
	}{
		{"", 1792, 50},
		{"setting=Ancient+China", 448, 50},
		{"requires_roll=false", 256, 50},
		{"setting=Wilderness&style=Omission&requires_roll=false", 16, 16},
		{"skill=Climb&review_status=corrected", 28, 28},
		{"skill=Climb&page=3", 128, 28},
		{"style=Sarcasm", 0, -1}, // -1: no table at all
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			a := get(t, h, "/dataset?"+tt.query)
			if a.status != 200 {
				t.Fatalf("GET /dataset?%s = %d", tt.query, a.status)
			}
			if !strings.Contains(a.body, fmt.Sprintf(">%d of 1792 samples match.", tt.match)) {
				t.Errorf("GET /dataset?%s: does not say %d samples match", tt.query, tt.match)
			}
			if rows(t, a.body, "samples") != tt.rows {
				t.Errorf("GET /dataset?%s: %d rows; want %d", tt.query, rows(t, a.body, "samples"), tt.rows)
			}
		})
	}
}

func TestScorerErrorIsShownOnTheRunPage(t *testing.T) {
	f := newFixture(t)
	s := f.server(t)
	// The dataset file changes after the run: its report can no longer be trusted.
	if err := os.WriteFile(f.dataPath, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := get(t, s.Handler(), "/runs/seduce-test0001")
	if a.status != 200 || !strings.Contains(a.body, "could not be rebuilt from the store") || !strings.Contains(a.body, "first.jsonl") {
		t.Errorf("run page with a changed dataset = %d; want 200 naming the problem and the file\n%s", a.status, a.body)
	}
}

func TestChangedDatasetIsShownOnTheRunPage(t *testing.T) {
	f := newFixture(t)
	s := f.server(t)
	lines := strings.SplitAfter(string(must(os.ReadFile(f.dataPath))), "\n")
	if err := os.WriteFile(f.dataPath, []byte(strings.Join(lines[:samples-1], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	a := get(t, s.Handler(), "/runs/seduce-test0001")
	if a.status != 200 || !strings.Contains(a.body, "now hashes to") || !strings.Contains(a.body, "arbiter seduce report --dataset") {
		t.Errorf("run page with a changed dataset = %d; want 200 saying the dataset changed and how to score it\n%s", a.status, a.body)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestReportIsCachedUntilTheRunChanges(t *testing.T) {
	f := newFixture(t)
	calls := 0
	s := f.server(t)
	score := s.rescore
	s.rescore = func(ctx context.Context, st *store.Store, r *store.Run) (*seduce.Results, error) {
		calls++
		return score(ctx, st, r)
	}
	h := s.Handler()
	for _, target := range []string{"/runs/seduce-test0001", "/runs/seduce-test0001/figures/figure3.svg", "/runs/seduce-test0001/figures/figure5.svg"} {
		get(t, h, target)
	}
	if calls != 1 {
		t.Errorf("a run page and two figures scored the run %d times; want 1", calls)
	}
	more := &store.Result{RunID: seduceRun, JobKey: "more", Model: "baseline/keyword", Item: "extra", Reply: llm.Reply{Text: "roll"}}
	if err := f.st.PutResults(context.Background(), []*store.Result{more}, nil); err != nil {
		t.Fatal(err)
	}
	get(t, h, "/runs/seduce-test0001")
	if calls != 2 {
		t.Errorf("after a new result the run was scored %d times in all; want 2", calls)
	}
}

func TestServeAndShutdown(t *testing.T) {
	s := newFixture(t).server(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ln) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/healthz")
	if err != nil {
		t.Fatalf("GET /healthz: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "ok" {
		t.Errorf("GET /healthz = %d %q; want 200 ok", resp.StatusCode, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown = %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve after Shutdown = %v; want nil", err)
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/healthz"); err == nil {
		t.Errorf("GET after Shutdown succeeded; want the listener closed")
	}
}

func TestNewWithoutStore(t *testing.T) {
	if _, err := New(Options{}); err == nil {
		t.Errorf("New(Options{}) = nil error; want one")
	}
}
