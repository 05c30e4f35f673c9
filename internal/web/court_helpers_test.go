package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/court/courttest"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/openai"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// hostileText is model or player text that would run script or template code if a page
// used it as markup.
const hostileText = `<script>alert(1)</script> <img src=x onerror=alert(1)> {{.}}`

// The scripted court is courttest's, played by the llmtest stand-in over the OpenAI wire
// format with one model per role; its prosecutor says hostileText in every statement.
func courtScript(role, system, user string) string {
	return courttest.Script{Aside: hostileText}.Reply(role, system, user)
}

var checkQuestion = regexp.MustCompile(`(?m)^Q(\d+) - (.+)$`)

var testModels = court.Models{Judge: "openai/judge", Prosecutor: "openai/prosecutor", Witness: "openai/witness", Analyzer: "openai/analyzer"}

// lanternCase is the court package's test case, with a title carrying markup.
func lanternCase(t testing.TB) *court.Case {
	t.Helper()
	cs, err := court.LoadCases("testdata/lantern.json")
	if err != nil {
		t.Fatal(err)
	}
	return cs[0]
}

// courtRig is a real Server with a court played by the stand-in.
type courtRig struct {
	t       testing.TB
	path    string // the store's file
	standIn *llmtest.Server
	st      *store.Store
	srv     *Server
	base    string
	client  *http.Client
	// firstByte, when set, is called as the stand-in starts each streamed reply.
	firstByte atomic.Pointer[func()]
	// hold, when set, makes the stand-in wait on it before answering a witness.
	hold atomic.Pointer[chan struct{}]
	// held counts the witness requests that waited on hold.
	held atomic.Int64
	// failOnce makes the next prosecutor's reply empty (a failure the player restarts).
	failOnce atomic.Bool
	asked    atomic.Int64
	stopFn   func()
}

type rigOptions struct {
	path     string
	generate GenerateCaseFunc
	noCourt  bool
	latency  time.Duration
	// realJudge leaves Options.Judge unset: the checklist judge runs on the stand-in.
	realJudge bool
	// reachable is Options.CourtReachable.
	reachable func(context.Context) error
	// limits are Options.Limits; nil turns the per-client limits off, which tests of
	// the game itself would otherwise meet.
	limits *Limits
	// offers are Options.CourtOffers.
	offers map[string][]llm.ModelName
	// public and owner are Options.Public and Options.OwnerToken.
	public bool
	owner  string
	// respond, when set, answers a request first: its Response is sent when ok.
	respond func(req *llmtest.Request) (resp llmtest.Response, ok bool)
	// ollama is the local Ollama's base URL the menu may ask (Options.OllamaURL).
	ollama string
}

// newCourtRig starts the stand-in, opens a store at opt.path (a temp file by default)
// and serves a Server over them on a loopback port.
func newCourtRig(t testing.TB, opt rigOptions) *courtRig {
	t.Helper()
	r := &courtRig{t: t, path: opt.path}
	if r.path == "" {
		r.path = filepath.Join(t.TempDir(), "court.db")
	}
	r.standIn = llmtest.NewServer(llmtest.Options{Latency: opt.latency, Responder: func(req *llmtest.Request) llmtest.Response {
		r.asked.Add(1)
		if f := r.firstByte.Load(); f != nil {
			(*f)()
		}
		if opt.respond != nil {
			if resp, ok := opt.respond(req); ok {
				return resp
			}
		}
		if req.Model == "witness" {
			if h := r.hold.Load(); h != nil {
				r.held.Add(1)
				<-*h
			}
		}
		if strings.Contains(req.System, "You grade transcripts") {
			// The checklist judge: yes to every question but those about the judge.
			var b strings.Builder
			for _, m := range checkQuestion.FindAllStringSubmatch(req.LastUser(), -1) {
				ans := "yes"
				if strings.Contains(m[2], "judge") {
					ans = "no"
				}
				fmt.Fprintf(&b, "Q%s - %s: %s (reasoning: [T2])\n", m[1], m[2], ans)
			}
			return llmtest.Response{Text: b.String()}
		}
		if req.Model == "prosecutor" && r.failOnce.CompareAndSwap(true, false) {
			return llmtest.Response{Text: ""}
		}
		first := ""
		if len(req.Messages) > 0 {
			first = req.Messages[0].Text
		}
		return llmtest.Response{Text: courtScript(req.Model, req.System, first)}
	}})
	t.Cleanup(r.standIn.Close)
	r.start(opt)
	return r
}

// start opens the store and serves a new Server on it.
func (r *courtRig) start(opt rigOptions) {
	t := r.t
	t.Helper()
	st, err := store.Open(context.Background(), r.path)
	if err != nil {
		t.Fatal(err)
	}
	r.st = st
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	t.Cleanup(hc.CloseIdleConnections)
	policy := llm.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond, Timeout: 10 * time.Second}
	models := map[llm.ModelName]llm.Model{}
	var names []string
	for _, role := range []string{"judge", "prosecutor", "witness", "analyzer", "defense"} {
		name := llm.ModelName("openai/" + role)
		m, err := openai.New(name, config.Endpoint{Provider: "openai", BaseURL: r.standIn.OpenAIBaseURL(), Key: "sk-test"}, openai.Options{HTTPClient: hc})
		if err != nil {
			t.Fatal(err)
		}
		models[name] = llm.WithRetry(m, policy, nil, nil)
		names = append(names, string(name))
	}
	o := Options{Store: st, CourtModels: testModels, CourtModelNames: names, GenerateCase: opt.generate, CourtReachable: opt.reachable,
		Judge: func(ctx context.Context, tr *court.Transcript, model llm.ModelName) (*check.Scores, error) {
			return fakeScores(tr, model), nil
		}}
	if opt.realJudge {
		o.Judge = nil
	}
	o.Limits = Limits{MaxGames: -1, ClientGames: -1, ClientRate: -1}
	if opt.limits != nil {
		o.Limits = *opt.limits
	}
	o.CourtOffers, o.Public, o.OwnerToken, o.OllamaURL = opt.offers, opt.public, opt.owner, opt.ollama
	if !opt.noCourt {
		o.Court = &court.Games{Session: &runner.Session{Store: st, Models: models, NoCache: true}}
	}
	srv, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.srv = srv
	r.base = "http://" + ln.Addr().String()
	// The client keeps cookies, as a browser does: a game's token comes back as one. A
	// restarted server keeps the client, and so its cookies.
	if r.client == nil {
		jar, _ := cookiejar.New(nil)
		r.client = &http.Client{Timeout: 30 * time.Second, Jar: jar}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(ln)
	}()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		<-done
		st.Close()
	}
	r.stopFn = stop
	t.Cleanup(func() { r.stopFn() })
}

// holdWitness makes the stand-in keep every witness's reply until release is called
// (at the latest when the test ends, so that a failed test does not hang the stand-in).
func (r *courtRig) holdWitness() (release func()) {
	hold := make(chan struct{})
	r.hold.Store(&hold)
	var once sync.Once
	release = func() {
		once.Do(func() {
			r.hold.Store(nil)
			close(hold)
		})
	}
	r.t.Cleanup(release)
	return release
}

// waitHeld waits until a witness's request is held at the stand-in: the court is in the
// middle of the witness's turn.
func (r *courtRig) waitHeld() {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for r.held.Load() == 0 {
		if time.Now().After(deadline) {
			r.t.Fatal("no witness request came to the stand-in")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// stop shuts the server down and closes its store, as a killed process leaves it.
func (r *courtRig) stop() { r.stopFn() }

// do sends a request to the server as the page does (same origin, JSON).
func (r *courtRig) do(method, path string, body any) (int, map[string]any) {
	r.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, r.base+path, rd)
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", r.base)
	}
	res, err := r.client.Do(req)
	if err != nil {
		r.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(res.Body)
	json.Unmarshal(raw, &out)
	if out == nil {
		out = map[string]any{"raw": string(raw)}
	}
	return res.StatusCode, out
}

// newGame saves the lantern case and starts a game on it.
func (r *courtRig) newGame() string {
	r.t.Helper()
	r.saveLantern()
	code, out := r.do("POST", "/api/court/games", map[string]any{"case_id": "lantern-theft", "seed": 7})
	if code != http.StatusCreated {
		r.t.Fatalf("POST games = %d %v", code, out)
	}
	return out["game_id"].(string)
}

func (r *courtRig) saveLantern() {
	r.t.Helper()
	b, _ := os.ReadFile("testdata/lantern.json")
	code, out := r.do("POST", "/api/court/cases", map[string]any{"case": json.RawMessage(b)})
	if code != http.StatusCreated {
		r.t.Fatalf("POST cases = %d %v", code, out)
	}
}

// view is GET of the game.
func (r *courtRig) view(id string) court.GameView {
	r.t.Helper()
	res, err := r.client.Get(r.base + "/api/court/games/" + id)
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	var v court.GameView
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil {
		r.t.Fatal(err)
	}
	return v
}

// peek is the game as the server holds it, read without a token (for games a browser
// made, whose token is the browser's).
func (r *courtRig) peek(id string) court.GameView {
	r.t.Helper()
	g, err := r.srv.court.game(context.Background(), id)
	if err != nil || g == nil {
		r.t.Fatalf("game %s: %v", id, err)
	}
	return g.View()
}

// waitFloor waits until the defense has the floor (or a restart is offered, or the
// verdict), and returns the view.
func (r *courtRig) waitFloor(id string) court.GameView {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		v := r.view(id)
		if !v.Busy && (v.AwaitingDefense || v.RestartOffered || v.Outcome != nil) {
			return v
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("the court never gave the floor back: %+v", v)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// playToVerdict plays a game from the defense's first floor to the verdict: opening,
// a question to a witness, rest, closing.
func (r *courtRig) playToVerdict(id string) court.GameView {
	r.t.Helper()
	r.waitFloor(id)
	for _, step := range []struct {
		path string
		body any
	}{
		{"/defense", map[string]any{"text": "The defense will show she never left the pier office."}},
		{"/defense", map[string]any{"text": "Witness, who pawned it?", "to": "Witness_nell"}},
		{"/rest", nil},
		{"/defense", map[string]any{"text": "Nobody saw her face."}},
	} {
		if code, out := r.do("POST", "/api/court/games/"+id+step.path, step.body); code != 202 {
			r.t.Fatalf("POST %s = %d %v", step.path, code, out)
		}
		r.waitFloor(id)
	}
	v := r.view(id)
	if v.Outcome == nil {
		r.t.Fatalf("no verdict after the closing: %+v", v)
	}
	return v
}

// sseEvent is one event of a stream.
type sseEvent struct {
	id, name, data string
}

// sseStream reads a game's event stream.
type sseStream struct {
	res *http.Response
	br  *bufio.Reader
}

func (r *courtRig) events(id, lastID string) *sseStream {
	r.t.Helper()
	// A stream that never brings the awaited event fails the test instead of hanging it.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	r.t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", r.base+"/api/court/games/"+id+"/events", nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	res, err := (&http.Client{Jar: r.client.Jar}).Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		r.t.Fatalf("events: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	r.t.Cleanup(func() { res.Body.Close() })
	return &sseStream{res: res, br: bufio.NewReader(res.Body)}
}

// close ends the stream from the client's side.
func (s *sseStream) close() { s.res.Body.Close() }

// next reads the next event (comments and retry lines skipped); io.EOF at the end.
func (s *sseStream) next() (sseEvent, error) {
	var ev sseEvent
	for {
		line, err := s.br.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "":
			if ev.name != "" {
				return ev, nil
			}
		case strings.HasPrefix(line, "id: "):
			ev.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			ev.name = line[7:]
		case strings.HasPrefix(line, "data: "):
			ev.data = line[6:]
		}
	}
}

// until reads events up to and including the first named one.
func (s *sseStream) until(t testing.TB, name string) []sseEvent {
	t.Helper()
	var out []sseEvent
	for {
		ev, err := s.next()
		if err != nil {
			t.Fatalf("stream ended before %s (after %d events): %v", name, len(out), err)
		}
		out = append(out, ev)
		if ev.name == name {
			return out
		}
	}
}

// fakeScores stands in for the checklist judge, which has tests of its own: it scores
// by the share of the court's turns, so a test can tell it saw the transcript.
func fakeScores(tr *court.Transcript, model llm.ModelName) *check.Scores {
	court := 0
	for _, t := range tr.Turns {
		if !t.Player {
			court++
		}
	}
	qs := float64(court) / float64(len(tr.Turns))
	fid := 0.9
	return &check.Scores{Checklist: "builtin", QS: &qs, Judges: []llm.ModelName{model},
		ByDimension: map[string]*float64{"Behavioral Role Fidelity": &fid}}
}
