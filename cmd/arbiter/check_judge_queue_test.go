package main

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/store/storetest"
)

// judgeQueueStandIn is checkStandIn's judge, except that a first request leaves its last
// question unanswered, so every transcript needs a follow-up round on its worker. It
// counts the requests and those answered twice.
type judgeQueueStandIn struct {
	srv *llmtest.Server
	n   atomic.Int64
	mu  sync.Mutex
	by  map[string]int
	// gate, while set, holds every request unanswered (and uncounted) until release.
	gate    atomic.Bool
	release chan struct{}
}

func newJudgeQueueStandIn(t *testing.T) *judgeQueueStandIn {
	s := &judgeQueueStandIn{by: map[string]int{}, release: make(chan struct{})}
	judge := checkStandIn("")
	s.srv = llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		if s.gate.Load() {
			<-s.release
			return llmtest.Response{Text: "too late"}
		}
		r := judge(req)
		if len(req.Messages) == 1 {
			lines := strings.Split(strings.TrimSpace(r.Text), "\n")
			r.Text = strings.Join(lines[:len(lines)-1], "\n")
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

func (s *judgeQueueStandIn) twice() int {
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

func (s *judgeQueueStandIn) env() map[string]string {
	return map[string]string{"OPENAI_API_KEY": "sk-test-judge-queue", "OPENAI_BASE_URL": s.srv.OpenAIBaseURL()}
}

func judgeArgs(db string, extra ...string) []string {
	return append([]string{"check", "judge", "-q", "--judge", "openai/judge-standin", "--db", db, "--format", "json"}, extra...)
}

// directScores judges the bundled transcripts on a SQLite store of its own, with a
// stand-in of its own, and returns the printed scores and the requests it sent.
func directScores(t *testing.T) (string, int64) {
	t.Helper()
	s := newJudgeQueueStandIn(t)
	r := arbiter(t, s.env(), judgeArgs(filepath.Join(t.TempDir(), "direct.db"))...)
	if r.code != 0 || r.stdout == "" {
		t.Fatalf("direct check judge: exit %d\n%s", r.code, r.stderr)
	}
	return r.stdout, s.n.Load()
}

// sameScores checks that got, printed from the store after the workers judged, holds
// the scores of want, a direct run's, and that it asked nothing: only the run's id and
// its request counts may differ.
func sameScores(t *testing.T, what, got, want string) {
	t.Helper()
	g, w := decodeJSON(t, got), decodeJSON(t, want)
	req, _ := g["requests"].(map[string]any)
	if req["asked"] != 0.0 || req["resumed"] != req["jobs"] || req["jobs"] == 0.0 {
		t.Errorf("%s: requests %v; want every one resumed from the store, none asked", what, req)
	}
	for _, m := range []map[string]any{g, w} {
		delete(m, "run")
		delete(m, "requests")
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: scores differ from a direct run's:\n got %s\nwant %s", what, got, want)
	}
}

// judgeJobs counts the judge jobs of run, and those whose arguments hold the key.
func judgeJobs(t *testing.T, pg, run string) (leaked, jobs int) {
	t.Helper()
	err := storeOf(t, pg).Pool().QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE args::text LIKE '%sk-test-judge-queue%'), count(*)
		FROM river_job WHERE kind = 'arbiter_work' AND args->>'of' = 'check-judge' AND args->>'run' = $1`, run).Scan(&leaked, &jobs)
	if err != nil {
		t.Fatal(err)
	}
	return leaked, jobs
}

// TestCheckJudgeEnqueuedOnTwoWorkers: the bundled transcripts queued one job each are
// judged by two workers on PostgreSQL, follow-ups included; no request is answered
// twice, every job is done once, and the same command run again asks nothing and prints
// the scores a direct run prints.
func TestCheckJudgeEnqueuedOnTwoWorkers(t *testing.T) {
	want, direct := directScores(t)
	pg := storetest.PostgresDSN(t)
	s := newJudgeQueueStandIn(t)
	enq := arbiter(t, s.env(), judgeArgs(pg, "--enqueue")...)
	run := strings.TrimSpace(enq.stdout)
	if enq.code != 0 || !strings.HasPrefix(run, "check-judge-") || strings.Contains(run, "\n") {
		t.Fatalf("check judge --enqueue: exit %d, stdout %q\n%s", enq.code, enq.stdout, enq.stderr)
	}
	if s.n.Load() != 0 {
		t.Fatalf("the enqueue asked %d requests; want none", s.n.Load())
	}
	leaked, jobs := judgeJobs(t, pg, run)
	if leaked != 0 || jobs != 5 {
		t.Fatalf("%d judge jobs queued, %d carrying the key; want 5 (one per bundled transcript), none", jobs, leaked)
	}
	again := arbiter(t, s.env(), judgeArgs(pg, "--enqueue")...)
	if strings.TrimSpace(again.stdout) != run {
		t.Fatalf("a second enqueue gave run %q; want the same %s", again.stdout, run)
	}
	if _, n := judgeJobs(t, pg, run); n != jobs {
		t.Fatalf("%d judge jobs after the second enqueue; want still %d", n, jobs)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	res := make([]result, 2)
	for i := range res {
		wg.Go(func() { res[i] = workerIn(ctx, s.env(), "--db", pg, "--exit-when-idle", "--concurrency", "2") })
	}
	wg.Wait()
	for i, r := range res {
		if r.code != 0 {
			t.Fatalf("worker %d: exit %d\n%s", i, r.code, r.stderr)
		}
	}
	if got := s.n.Load(); got != direct {
		t.Errorf("the workers sent %d requests; want the %d of a direct run", got, direct)
	}
	if n := s.twice(); n != 0 {
		t.Errorf("%d requests were answered twice", n)
	}
	var done int
	if err := storeOf(t, pg).Pool().QueryRow(ctx, `SELECT sum(jobs_done) FROM arbiter_workers`).Scan(&done); err != nil {
		t.Fatal(err)
	}
	if done != jobs {
		t.Errorf("the workers completed %d judge jobs; want each of the %d once", done, jobs)
	}
	runs := arbiter(t, s.env(), "runs", "--db", pg)
	if !strings.Contains(runs.stdout, run) || !strings.Contains(runs.stdout, "done") {
		t.Errorf("runs does not show %s done:\n%s%s", run, runs.stdout, runs.stderr)
	}
	asked := s.n.Load()
	r := arbiter(t, s.env(), judgeArgs(pg)...)
	if r.code != 0 || s.n.Load() != asked {
		t.Fatalf("rerun: exit %d, asked %d more\n%s", r.code, s.n.Load()-asked, r.stderr)
	}
	sameScores(t, "the rerun", r.stdout, want)
}

// TestCheckJudgeEnqueueWait: --enqueue --wait follows the run while a worker judges it,
// then prints the scores from the store without asking anything itself.
func TestCheckJudgeEnqueueWait(t *testing.T) {
	want, _ := directScores(t)
	pg := storetest.PostgresDSN(t)
	s := newJudgeQueueStandIn(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	var w result
	var asked int64
	waited := make(chan result, 1)
	go func() { waited <- arbiter(t, s.env(), judgeArgs(pg, "--enqueue", "--wait")...) }()
	// The worker starts once the jobs are queued, so that it does not go idle first.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		var n int
		st := storeOf(t, pg)
		if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'arbiter_work' AND args->>'of' = 'check-judge'`).Scan(&n); err == nil && n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no judge job was queued")
		}
	}
	wg.Go(func() { w = workerIn(ctx, s.env(), "--db", pg, "--exit-when-idle"); asked = s.n.Load() })
	wg.Wait()
	if w.code != 0 {
		t.Fatalf("worker: exit %d\n%s", w.code, w.stderr)
	}
	r := <-waited
	if r.code != 0 {
		t.Fatalf("--enqueue --wait: exit %d\n%s", r.code, r.stderr)
	}
	sameScores(t, "--enqueue --wait", r.stdout, want)
	if s.n.Load() != asked {
		t.Errorf("--wait asked %d requests itself", s.n.Load()-asked)
	}
}

// TestCheckJudgeEnqueueNeedsPostgres: --enqueue on a SQLite store is bad usage, one
// line, and neither asks nor creates the store.
func TestCheckJudgeEnqueueNeedsPostgres(t *testing.T) {
	s := newJudgeQueueStandIn(t)
	dir := t.TempDir()
	r := arbiter(t, s.env(), judgeArgs(filepath.Join(dir, "check.db"), "--enqueue")...)
	if r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.Contains(r.stderr, "PostgreSQL") {
		t.Fatalf("exit %d, stderr %q; want 2 and one line naming PostgreSQL", r.code, r.stderr)
	}
	if s.n.Load() != 0 {
		t.Errorf("asked %d requests", s.n.Load())
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Errorf("left %v", files)
	}
}

// TestCheckJudgeResumedByAnotherWorker: a worker stopped in the middle of a transcript
// leaves the replies it got in the store; another worker takes the transcript over and
// asks only the rest, so no request is answered twice and the scores are a direct run's.
func TestCheckJudgeResumedByAnotherWorker(t *testing.T) {
	want, direct := directScores(t)
	pg := storetest.PostgresDSN(t)
	s := newJudgeQueueStandIn(t)
	enq := arbiter(t, s.env(), judgeArgs(pg, "--enqueue")...)
	run := strings.TrimSpace(enq.stdout)
	if enq.code != 0 {
		t.Fatalf("check judge --enqueue: exit %d\n%s", enq.code, enq.stderr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	ctxA, stopA := context.WithCancel(ctx)
	done := make(chan result, 1)
	go func() { done <- workerIn(ctxA, s.env(), "--db", pg, "--concurrency", "1") }()
	for s.n.Load() < 3 && ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	// Hold the next requests unanswered, let the answered ones be stored, then stop the
	// worker with its transcript half judged.
	s.gate.Store(true)
	time.Sleep(300 * time.Millisecond)
	stopA()
	if r := <-done; r.code != 0 {
		t.Fatalf("worker A: exit %d\n%s", r.code, r.stderr)
	}
	first := s.n.Load()
	st := storeOf(t, pg)
	var kept, finished int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM results WHERE run_id = $1 AND error = ''`, run).Scan(&kept); err != nil {
		t.Fatal(err)
	}
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'arbiter_work' AND args->>'of' = 'check-judge' AND args->>'run' = $1 AND state = 'completed'`, run).Scan(&finished); err != nil {
		t.Fatal(err)
	}
	if kept != int(first) || finished == 5 {
		t.Fatalf("the store kept %d replies of the %d answered, %d of 5 jobs completed; want all kept and a job left", kept, first, finished)
	}
	s.gate.Store(false)
	close(s.release)
	s.release = make(chan struct{})
	b := workerIn(ctx, s.env(), "--db", pg, "--exit-when-idle", "--concurrency", "2")
	if b.code != 0 {
		t.Fatalf("worker B: exit %d\n%s", b.code, b.stderr)
	}
	t.Logf("stopped after %d answered requests; %d in all", first, s.n.Load())
	if n := s.twice(); n != 0 {
		t.Errorf("%d requests were answered twice: the transcript was not resumed", n)
	}
	if s.n.Load() != direct {
		t.Errorf("%d requests answered in all; want the %d of a direct run", s.n.Load(), direct)
	}
	asked := s.n.Load()
	r := arbiter(t, s.env(), judgeArgs(pg)...)
	if r.code != 0 || s.n.Load() != asked {
		t.Fatalf("rerun: exit %d, asked %d more\n%s", r.code, s.n.Load()-asked, r.stderr)
	}
	sameScores(t, "the rerun", r.stdout, want)
}
