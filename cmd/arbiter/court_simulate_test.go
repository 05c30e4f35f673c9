package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/court/courttest"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// courtScript is courttest's scripted court of any case, tagged by the roles' system
// prompts (the case and the seed), so no two trials ever send the same request and the
// verdicts vary with the trial.
func courtScript(req *llmtest.Request) string {
	user := ""
	if len(req.Messages) > 0 {
		user = req.Messages[0].Text
	}
	return courttest.Script{Tagged: true}.Reply(req.Model, req.System, user)
}

// courtStandIn plays the court and, for 'check judge', the checklist judge; it counts
// the requests it answered by a key of their body.
type courtStandIn struct {
	srv *llmtest.Server
	mu  sync.Mutex
	by  map[string]int
	// gate, while set, holds every request unanswered (and uncounted) until released.
	gate    atomic.Bool
	release chan struct{}
	n       atomic.Int64
}

func newCourtStandIn(t *testing.T, latency time.Duration) *courtStandIn {
	s := &courtStandIn{by: map[string]int{}, release: make(chan struct{})}
	judge := checkStandIn("")
	s.srv = llmtest.NewServer(llmtest.Options{Latency: latency, Responder: func(req *llmtest.Request) llmtest.Response {
		if s.gate.Load() {
			<-s.release
			return llmtest.Response{Text: "too late"}
		}
		var r llmtest.Response
		if strings.Contains(req.System, "You grade transcripts") {
			r = judge(req)
		} else {
			r = llmtest.Response{Text: courtScript(req)}
		}
		s.mu.Lock()
		s.by[req.BodyHash]++
		s.mu.Unlock()
		s.n.Add(1)
		return r
	}})
	t.Cleanup(func() {
		if s.gate.Load() {
			close(s.release)
		}
		s.srv.Close()
	})
	return s
}

// twice lists how many request bodies were answered more than once.
func (s *courtStandIn) twice() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.by {
		if c > 1 {
			n++
		}
	}
	return n
}

func (s *courtStandIn) env() map[string]string {
	return map[string]string{"OPENAI_API_KEY": "sk-test-court", "OPENAI_BASE_URL": s.srv.OpenAIBaseURL()}
}

var courtRoleFlags = []string{"--judge-model", "openai/judge", "--prosecutor-model", "openai/prosecutor",
	"--witness-model", "openai/witness", "--analyzer-model", "openai/analyzer", "--defense-model", "openai/defense"}

func simulateArgs(db, out string, extra ...string) []string {
	args := append([]string{"court", "simulate", "-q", "--seeds", "2", "--db", db, "--out", out}, courtRoleFlags...)
	return append(args, extra...)
}

// readTrials reads every transcript of dir with court's type, checking check reads them.
func readTrials(t *testing.T, dir string) map[string]*court.Transcript {
	t.Helper()
	if _, err := check.LoadTranscripts(dir); err != nil {
		t.Fatalf("check cannot read the transcripts: %v", err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*court.Transcript{}
	for _, f := range files {
		if !strings.HasSuffix(f, ".json") {
			t.Errorf("stray file %s in --out", f)
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var tr court.Transcript
		if err := json.Unmarshal(b, &tr); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if filepath.Base(f) != tr.TrialID+".json" {
			t.Errorf("%s holds trial %s", f, tr.TrialID)
		}
		out[tr.TrialID] = &tr
	}
	return out
}

// The five bundled cases × 2 seeds, then 'check judge' on the transcripts; a rerun asks
// nothing.
func TestCourtSimulateThenCheckJudge(t *testing.T) {
	s := newCourtStandIn(t, 0)
	dir := t.TempDir()
	db, out := filepath.Join(dir, "court.db"), filepath.Join(dir, "trials")
	r := arbiter(t, s.env(), simulateArgs(db, out)...)
	if r.code != 0 {
		t.Fatalf("court simulate = %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	trials := readTrials(t, out)
	if len(trials) != 10 {
		t.Fatalf("%d transcripts; want 10", len(trials))
	}
	wins, cases := 0, map[string]int{}
	for id, tr := range trials {
		cases[tr.CaseID]++
		if !tr.Completed || tr.Outcome == nil || tr.Retries != 0 || tr.CaseDescription == "" {
			t.Errorf("%s: completed %v, outcome %v, retries %d; want a clean verdict", id, tr.Completed, tr.Outcome, tr.Retries)
			continue
		}
		if *tr.Outcome == court.OutcomeWin {
			wins++
		}
		if want := fmt.Sprintf("%s-s%d-", tr.CaseID, tr.Seed); !strings.HasPrefix(id, want) || tr.Seed < 1 || tr.Seed > 2 {
			t.Errorf("trial id %s, seed %d; want %s… and seeds 1 and 2", id, tr.Seed, want)
		}
		for _, turn := range tr.Turns {
			if turn.Player != (turn.Role == check.RoleDefense) {
				t.Errorf("%s: turn %+v: the defense's turns, and only they, are the player's", id, turn.Turn)
			}
		}
	}
	if len(cases) != 5 {
		t.Errorf("cases %v; want the five bundled", cases)
	}
	want := fmt.Sprintf("10 trials, 10 completed, %d wins, %d losses, 0 retries", wins, 10-wins)
	if !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, fmt.Sprintf("%d asked (0 failed), 0 from the store", s.n.Load())) {
		t.Errorf("summary %q; want %q and %d asked", r.stdout, want, s.n.Load())
	}
	if s.twice() != 0 {
		t.Errorf("%d requests asked twice", s.twice())
	}

	// A rerun of the finished simulation asks nothing and writes the same files; without
	// -q it reports its progress on stderr.
	asked := s.n.Load()
	loud := slices.DeleteFunc(simulateArgs(db, out), func(a string) bool { return a == "-q" })
	again := arbiter(t, s.env(), loud...)
	if again.code != 0 || s.n.Load() != asked || !strings.Contains(again.stdout, " 0 asked") {
		t.Errorf("rerun = %d, asked %d more: %s%s", again.code, s.n.Load()-asked, again.stdout, again.stderr)
	}
	if !strings.Contains(again.stderr, "simulate: 10/10 trials, ") || !strings.Contains(again.stderr, " 0 restarts, 0 errors") {
		t.Errorf("progress on stderr %q; want the trials done", again.stderr)
	}
	for id, tr := range readTrials(t, out) {
		a, _ := json.Marshal(tr)
		b, _ := json.Marshal(trials[id])
		if string(a) != string(b) {
			t.Errorf("%s differs after the rerun", id)
		}
	}

	j := arbiter(t, s.env(), "check", "judge", "-q", "--transcripts", out, "--judge", "openai/judge-standin",
		"--db", filepath.Join(dir, "check.db"), "--format", "json")
	if j.code != 0 {
		t.Fatalf("check judge = %d\n%s", j.code, j.stderr)
	}
	got := decodeJSON(t, j.stdout)
	per, _ := got["per_transcript"].([]any)
	scored := map[string]bool{}
	for _, p := range per {
		if m, ok := p.(map[string]any); ok {
			scored[fmt.Sprint(m["trial_id"])] = true
		}
	}
	for id := range trials {
		if !scored[id] {
			t.Errorf("check judge has no score of %s (scored %v)", id, scored)
		}
	}
	if len(scored) != 10 {
		t.Errorf("check judge scored %d transcripts; want 10\n%s", len(scored), j.stdout)
	}
}

// SIGKILL mid-simulation, then a rerun on the same store: every trial completes, and the
// stand-in answered no request twice and, over both runs, exactly what one
// uninterrupted simulation asks.
func TestCourtSimulateSIGKILLResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills the binary")
	}
	bin := binary(t)
	ref := newCourtStandIn(t, 0)
	dir := t.TempDir()
	if r := arbiter(t, ref.env(), simulateArgs(filepath.Join(dir, "ref.db"), filepath.Join(dir, "ref"))...); r.code != 0 {
		t.Fatalf("reference simulate = %d\n%s", r.code, r.stderr)
	}
	total := ref.n.Load()

	s := newCourtStandIn(t, 2*time.Millisecond)
	db, out := filepath.Join(dir, "court.db"), filepath.Join(dir, "trials")
	args := simulateArgs(db, out)
	env := os.Environ()
	for k, v := range s.env() {
		env = append(env, k+"="+v)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killAt := total / 3
	deadline := time.Now().Add(60 * time.Second)
	for s.n.Load() < killAt && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	// Hold every later request unanswered, give the answered ones time to be stored,
	// then kill: the rerun must ask exactly the rest.
	s.gate.Store(true)
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	first := s.n.Load()
	if first >= total {
		t.Fatalf("the simulation finished before the kill (%d of %d answered); nothing was tested", first, total)
	}
	s.gate.Store(false)
	close(s.release)
	s.release = make(chan struct{})

	rerun := exec.Command(bin, args...)
	rerun.Env = env
	b, err := rerun.CombinedOutput()
	if err != nil {
		t.Fatalf("rerun: %v\n%s", err, b)
	}
	t.Logf("killed after %d of %d answered requests; %s", first, total, strings.TrimSpace(string(b)))
	if !strings.Contains(string(b), "10 trials, 10 completed") {
		t.Errorf("rerun summary %q; want every trial completed", b)
	}
	if n := s.twice(); n != 0 {
		t.Errorf("%d requests were answered twice", n)
	}
	if got := s.n.Load(); got != total {
		t.Errorf("answered %d requests over both runs; an uninterrupted simulation asks %d", got, total)
	}
	if trials := readTrials(t, out); len(trials) != 10 {
		t.Errorf("%d transcripts after the rerun; want 10", len(trials))
	}
}

func TestCourtSimulateBadInput(t *testing.T) {
	dir := t.TempDir()
	badCase := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(badCase, []byte(`{"case_id": "x", "title": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	badScript := filepath.Join(dir, "defense.txt")
	if err := os.WriteFile(badScript, []byte("We deny it.\n@Judge\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"court", "simulate", "--model", "openai/m", "--db", filepath.Join(dir, "c.db"), "--out", filepath.Join(dir, "out")}
	env := map[string]string{"OPENAI_API_KEY": "sk-test"}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no defense", nil, "no defense"},
		{"both defenses", []string{"--defense-model", "openai/d", "--defense-script", badScript}, "give one of them"},
		{"bad cases file", []string{"--defense-model", "openai/d", "--cases", badCase}, "broken.json"},
		{"missing cases file", []string{"--defense-model", "openai/d", "--cases", filepath.Join(dir, "none.json")}, "none.json"},
		{"bad script", []string{"--defense-script", badScript}, "defense.txt:2"},
		{"no seeds", []string{"--defense-model", "openai/d", "--seeds", "0"}, "--seeds 0"},
		{"no out", []string{"--defense-model", "openai/d", "--out", ""}, "--out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := arbiter(t, env, append(append([]string{}, base...), tt.args...)...)
			if r.code != 2 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 naming %q", r.code, r.stderr, tt.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "c.db")); err == nil {
				t.Errorf("bad input made a store")
			}
		})
	}
}

// 'check judge' on the bundled transcripts shows the judge the court's description of
// each case.
func TestCheckJudgeTakesCourtDescriptions(t *testing.T) {
	var mu sync.Mutex
	var prompts []string
	judge := checkStandIn("")
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		mu.Lock()
		prompts = append(prompts, req.Messages[0].Text)
		mu.Unlock()
		return judge(req)
	}})
	defer srv.Close()
	env, db := checkEnv(t, srv)
	if r := arbiter(t, env, "check", "judge", "-q", "--judge", "openai/j", "--db", db); r.code != 0 {
		t.Fatalf("check judge = %d\n%s", r.code, r.stderr)
	}
	cs, err := court.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		desc := court.CaseDescription(c)
		found := false
		for _, p := range prompts {
			if strings.Contains(p, "case "+c.ID+".") && strings.Contains(p, desc[:80]) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("no judge prompt of case %s shows its court description %.80q", c.ID, desc)
		}
	}
}

// A trial that cannot finish (here the defense model's move is too long to play) makes
// the command exit 1 naming it; the trial is not written as a result.
func TestCourtSimulateTrialErrorExits1(t *testing.T) {
	// A scripted defense that names a witness no case has: the move cannot be played, so
	// the trials stop (an error of the run, not a restart).
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		return llmtest.Response{Text: courtScript(req)}
	}})
	defer srv.Close()
	dir := t.TempDir()
	out := filepath.Join(dir, "trials")
	script := filepath.Join(dir, "moves.txt")
	if err := os.WriteFile(script, []byte("The defense will show reasonable doubt.\n@Witness_nobody Where were you that night?\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	args := []string{"court", "simulate", "-q", "--seeds", "1", "--db", filepath.Join(dir, "c.db"), "--out", out, "--defense-script", script}
	args = append(args, courtRoleFlags[:8]...)
	r := arbiter(t, env, args...)
	if r.code != 1 || !strings.Contains(r.stderr, "5 of 5 trials could not finish") || !strings.Contains(r.stderr, "defense move 2") {
		t.Errorf("exit %d, stderr %q; want 1 naming the trials and the move", r.code, r.stderr)
	}
	if files, _ := filepath.Glob(filepath.Join(out, "*")); len(files) != 0 {
		t.Errorf("trials that could not finish were written: %v", files)
	}
}
