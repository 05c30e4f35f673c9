package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/store"
	"github.com/arbiter-eval/arbiter/internal/store/storetest"
)

// workerIn runs 'arbiter worker' in process until it exits or ctx ends.
func workerIn(ctx context.Context, env map[string]string, args ...string) result {
	var out, errb bytes.Buffer
	look := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	code := run(ctx, append([]string{"worker"}, args...), strings.NewReader(""), &out, &errb, config.Read(look))
	return result{out.String(), errb.String(), code}
}

// enqueueTrials queues a simulation of the bundled cases on pg and checks that the
// enqueue asked nothing, wrote no transcript and printed the run id alone.
func enqueueTrials(t *testing.T, s *courtStandIn, pg, out string, extra ...string) (run string, trials int) {
	t.Helper()
	enq := arbiter(t, s.env(), simulateArgs(pg, out, append(extra, "--enqueue")...)...)
	run = strings.TrimSpace(enq.stdout)
	if enq.code != 0 || !strings.HasPrefix(run, "court-") || strings.Contains(run, "\n") {
		t.Fatalf("court simulate --enqueue: exit %d, stdout %q\n%s", enq.code, enq.stdout, enq.stderr)
	}
	if s.n.Load() != 0 {
		t.Fatalf("the enqueue asked %d requests; want none", s.n.Load())
	}
	if files, _ := filepath.Glob(filepath.Join(out, "*.json")); len(files) != 0 {
		t.Fatalf("the enqueue wrote %d transcripts; want none before the workers play", len(files))
	}
	leaked, trials := enqueuedTrials(t, pg, run)
	if leaked != 0 {
		t.Fatalf("%d of %d queued trials carry the API key", leaked, trials)
	}
	return run, trials
}

// enqueuedTrials counts the trial jobs of run, and those whose arguments hold the key.
func enqueuedTrials(t *testing.T, pg, run string) (leaked, trials int) {
	t.Helper()
	err := storeOf(t, pg).Pool().QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE args::text LIKE '%sk-test-court%'), count(*)
		FROM river_job WHERE kind = 'arbiter_work' AND args->>'of' = 'court-trial' AND args->>'run' = $1`, run).Scan(&leaked, &trials)
	if err != nil {
		t.Fatal(err)
	}
	return leaked, trials
}

// storeOf opens the store at pg for the test's queries, closed when the test ends.
func storeOf(t *testing.T, pg string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), pg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// rerunWritesTranscripts runs the same simulation again without --enqueue: it must ask
// nothing and write every trial's transcript, each completed.
func rerunWritesTranscripts(t *testing.T, s *courtStandIn, pg, out string, want int, extra ...string) {
	t.Helper()
	asked := s.n.Load()
	r := arbiter(t, s.env(), simulateArgs(pg, out, extra...)...)
	if r.code != 0 || s.n.Load() != asked || !strings.Contains(r.stdout, " 0 asked") {
		t.Fatalf("rerun = %d, asked %d more: %s%s", r.code, s.n.Load()-asked, r.stdout, r.stderr)
	}
	trials := readTrials(t, out)
	if len(trials) != want {
		t.Fatalf("%d transcripts after the rerun; want %d", len(trials), want)
	}
	for id, tr := range trials {
		if !tr.Completed || tr.Outcome == nil || len(tr.Turns) == 0 {
			t.Errorf("%s: completed %v, outcome %v, %d turns; want a verdict", id, tr.Completed, tr.Outcome, len(tr.Turns))
		}
	}
}

// TestCourtSimulateEnqueuedOnTwoWorkers: the bundled cases × 2 seeds queued as one job a
// trial are played by two workers on PostgreSQL; the run ends done, no request is asked
// twice, and the same simulation run again asks nothing and writes the transcripts.
func TestCourtSimulateEnqueuedOnTwoWorkers(t *testing.T) {
	pg := storetest.PostgresDSN(t)
	s := newCourtStandIn(t, 0)
	out := filepath.Join(t.TempDir(), "trials")
	run, trials := enqueueTrials(t, s, pg, out)
	if trials != 10 {
		t.Fatalf("%d trial jobs queued; want 10 (5 cases × 2 seeds)", trials)
	}
	// A second enqueue of the same simulation before any worker came queues nothing more.
	again := arbiter(t, s.env(), simulateArgs(pg, out, "--enqueue")...)
	if strings.TrimSpace(again.stdout) != run {
		t.Fatalf("a second enqueue gave run %q; want the same %s", again.stdout, run)
	}
	if _, n := enqueuedTrials(t, pg, run); n != 10 {
		t.Fatalf("%d trial jobs after the second enqueue; want still 10", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	res := make([]result, 2)
	for i := range res {
		wg.Go(func() { res[i] = workerIn(ctx, s.env(), "--db", pg, "--exit-when-idle", "--concurrency", "3") })
	}
	wg.Wait()
	for i, r := range res {
		if r.code != 0 {
			t.Fatalf("worker %d: exit %d\n%s", i, r.code, r.stderr)
		}
	}
	if s.n.Load() == 0 {
		t.Fatal("the workers asked nothing")
	}
	if n := s.twice(); n != 0 {
		t.Errorf("%d requests were answered twice", n)
	}
	var done int
	if err := storeOf(t, pg).Pool().QueryRow(ctx, `SELECT sum(jobs_done) FROM arbiter_workers`).Scan(&done); err != nil {
		t.Fatal(err)
	}
	if done != 10 {
		t.Errorf("the workers completed %d trial jobs; want each of the 10 once", done)
	}
	runs := arbiter(t, s.env(), "runs", "--db", pg)
	if !strings.Contains(runs.stdout, run) || !strings.Contains(runs.stdout, "done") {
		t.Errorf("runs does not show %s done:\n%s%s", run, runs.stdout, runs.stderr)
	}
	rerunWritesTranscripts(t, s, pg, out, 10)
}

// TestCourtTrialResumedByAnotherWorker: a worker stopped in the middle of a trial (its
// context cancelled, or its process SIGKILLed) leaves every turn it finished in the
// store; another worker takes the trial over (at once, or once the dead one's lease
// ran out) and goes on from the next turn, so no request is answered twice.
func TestCourtTrialResumedByAnotherWorker(t *testing.T) {
	t.Run("cancelled", func(t *testing.T) {
		resumeTrial(t, func(ctx context.Context, env map[string]string, pg string) (stop func()) {
			ctxA, stopA := context.WithCancel(ctx)
			done := make(chan result, 1)
			go func() { done <- workerIn(ctxA, env, "--db", pg, "--concurrency", "1") }()
			return func() {
				stopA()
				if r := <-done; r.code != 0 {
					t.Fatalf("worker A: exit %d\n%s", r.code, r.stderr)
				}
			}
		})
	})
	t.Run("killed", func(t *testing.T) {
		if testing.Short() {
			t.Skip("waits for the killed worker's lease to run out")
		}
		bin := binary(t)
		resumeTrial(t, func(ctx context.Context, env map[string]string, pg string) (stop func()) {
			c := exec.CommandContext(ctx, bin, "worker", "--db", pg, "--concurrency", "1")
			c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
			for k, v := range env {
				c.Env = append(c.Env, k+"="+v)
			}
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			return func() {
				if err := c.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				c.Wait()
			}
		})
	})
}

// resumeTrial starts worker A with start, stops it midway through a trial, and checks
// that worker B finishes the simulation without asking any request twice.
func resumeTrial(t *testing.T, start func(ctx context.Context, env map[string]string, pg string) (stop func())) {
	pg := storetest.PostgresDSN(t)
	s := newCourtStandIn(t, 0)
	out := filepath.Join(t.TempDir(), "trials")
	run, trials := enqueueTrials(t, s, pg, out, "--seeds", "1")
	if trials != 5 {
		t.Fatalf("%d trial jobs queued; want 5", trials)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	stop := start(ctx, s.env(), pg)
	for s.n.Load() < 8 && ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	// Hold the next request unanswered, let the answered turns be stored, then stop
	// the worker with its trial half played.
	s.gate.Store(true)
	time.Sleep(300 * time.Millisecond)
	stop()
	first := s.n.Load()
	st := storeOf(t, pg)
	var kept, midway int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM results WHERE run_id = $1 AND error = ''`, run).Scan(&kept); err != nil {
		t.Fatal(err)
	}
	if kept != int(first) {
		t.Errorf("the store kept %d turns of the stopped worker; the stand-in answered %d", kept, first)
	}
	// The stopped trial: its job is not completed, yet some of its calls are stored.
	err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM river_job j WHERE kind = 'arbiter_work' AND args->>'of' = 'court-trial' AND state <> 'completed'
		AND EXISTS(SELECT 1 FROM results r WHERE r.run_id = $1 AND r.job_key LIKE (j.args->>'name') || '/%')`, run).Scan(&midway)
	if err != nil {
		t.Fatal(err)
	}
	if midway != 1 {
		t.Fatalf("%d unfinished trials have stored turns; want the 1 stopped midway (answered %d)", midway, first)
	}
	s.gate.Store(false)
	close(s.release)
	s.release = make(chan struct{})

	b := workerIn(ctx, s.env(), "--db", pg, "--exit-when-idle", "--concurrency", "2")
	if b.code != 0 {
		t.Fatalf("worker B: exit %d\n%s", b.code, b.stderr)
	}
	t.Logf("stopped after %d answered requests; %d in all", first, s.n.Load())
	if s.n.Load() <= first {
		t.Fatal("worker B asked nothing")
	}
	if n := s.twice(); n != 0 {
		t.Errorf("%d requests were answered twice: the trial was not resumed at its next turn", n)
	}
	var left int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM river_job WHERE args->>'run' = $1 AND state <> 'completed'`, run).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d trial jobs not completed after worker B", left)
	}
	rerunWritesTranscripts(t, s, pg, out, 5, "--seeds", "1")
}

// TestCourtSimulateEnqueueNeedsPostgres: --enqueue on a SQLite store is bad usage, one
// line, and neither asks nor creates the store.
func TestCourtSimulateEnqueueNeedsPostgres(t *testing.T) {
	s := newCourtStandIn(t, 0)
	dir := t.TempDir()
	db := filepath.Join(dir, "court.db")
	r := arbiter(t, s.env(), simulateArgs(db, filepath.Join(dir, "trials"), "--enqueue")...)
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

// TestCourtSimulateEnqueueWait: --enqueue --wait follows the run while a worker plays it,
// then writes every transcript from the store without asking anything itself.
func TestCourtSimulateEnqueueWait(t *testing.T) {
	pg := storetest.PostgresDSN(t)
	s := newCourtStandIn(t, 0)
	out := filepath.Join(t.TempDir(), "trials")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	wctx, stopWorker := context.WithCancel(ctx)
	done := make(chan result, 1)
	go func() { done <- workerIn(wctx, s.env(), "--db", pg, "--concurrency", "5") }()
	r := arbiter(t, s.env(), simulateArgs(pg, out, "--seeds", "1", "--enqueue", "--wait")...)
	stopWorker()
	w := <-done
	if r.code != 0 || !strings.Contains(r.stdout, "5 trials, 5 completed") {
		t.Fatalf("--enqueue --wait = %d: %s%s\nworker: %s", r.code, r.stdout, r.stderr, w.stderr)
	}
	// Every request was the worker's: the summary reads them all from the store.
	if n := s.n.Load(); n == 0 || !strings.Contains(r.stdout, " 0 asked") || s.twice() != 0 {
		t.Errorf("the worker answered %d (%d twice); summary %q; want all asked by the worker, none here", n, s.twice(), r.stdout)
	}
	if trials := readTrials(t, out); len(trials) != 5 {
		t.Errorf("%d transcripts; want 5", len(trials))
	}
}

// TestCourtTrialsHoldSharedLimits: the config's concurrency limit of each court model
// (one request in flight) holds for every call of every trial across two workers, though
// together they could play ten trials, ten requests, at once.
func TestCourtTrialsHoldSharedLimits(t *testing.T) {
	pg := storetest.PostgresDSN(t)
	roles := []string{"judge", "prosecutor", "witness", "analyzer", "defense"}
	peaks := map[string]*llmtest.Peak{}
	limits := "limits:\n"
	for _, r := range roles {
		peaks[r] = llmtest.NewPeak(func(req *llmtest.Request) llmtest.Response {
			return llmtest.Response{Text: courtScript(req)}
		}, 2*time.Millisecond)
		limits += "  openai/" + r + ": {concurrency: 1}\n"
	}
	var strays atomic.Int64
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		p := peaks[strings.TrimPrefix(req.Model, "openai/")]
		if p == nil {
			strays.Add(1)
			return llmtest.Response{Text: "no such model"}
		}
		return p.Respond(req)
	}})
	defer srv.Close()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "limits.yaml")
	if err := os.WriteFile(cfg, []byte(limits), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"OPENAI_API_KEY": "sk-test-court", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	if enq := arbiter(t, env, simulateArgs(pg, filepath.Join(dir, "trials"), "--enqueue")...); enq.code != 0 {
		t.Fatalf("enqueue: exit %d\n%s", enq.code, enq.stderr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	res := make([]result, 2)
	for i := range res {
		wg.Go(func() {
			res[i] = workerIn(ctx, env, "--db", pg, "--exit-when-idle", "--concurrency", "5", "--config", cfg)
		})
	}
	wg.Wait()
	for i, r := range res {
		if r.code != 0 {
			t.Fatalf("worker %d: exit %d\n%s", i, r.code, r.stderr)
		}
	}
	total := int64(0)
	for _, r := range roles {
		p := peaks[r]
		total += p.Answered()
		if p.Max() > 1 {
			t.Errorf("%s: peak in flight %d across workers; the config allows 1", r, p.Max())
		}
	}
	if strays.Load() != 0 {
		t.Errorf("%d requests named no role's model", strays.Load())
	}
	if total < 100 {
		t.Fatalf("the workers asked %d requests; ten trials ask many more", total)
	}
}

// TestCourtSimulateEnqueueScriptedDefense: a scripted defense travels with each trial's
// job, so the worker plays the same moves and the rerun finds every call answered.
func TestCourtSimulateEnqueueScriptedDefense(t *testing.T) {
	pg := storetest.PostgresDSN(t)
	s := newCourtStandIn(t, 0)
	dir := t.TempDir()
	out := filepath.Join(dir, "trials")
	script := filepath.Join(dir, "moves.txt")
	if err := os.WriteFile(script, []byte("The defense will show reasonable doubt.\nThe evidence against my client is thin.\nNo witness saw the act itself.\nrest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"court", "simulate", "-q", "--seeds", "1", "--db", pg, "--out", out, "--defense-script", script}, courtRoleFlags[:8]...)
	enq := arbiter(t, s.env(), append(args, "--enqueue")...)
	if enq.code != 0 || s.n.Load() != 0 {
		t.Fatalf("enqueue: exit %d, asked %d\n%s", enq.code, s.n.Load(), enq.stderr)
	}
	if w := workerIn(context.Background(), s.env(), "--db", pg, "--exit-when-idle"); w.code != 0 || s.n.Load() == 0 {
		t.Fatalf("worker: exit %d, asked %d\n%s", w.code, s.n.Load(), w.stderr)
	}
	asked := s.n.Load()
	r := arbiter(t, s.env(), args...)
	if r.code != 0 || s.n.Load() != asked || !strings.Contains(r.stdout, "5 trials, 5 completed") {
		t.Fatalf("rerun = %d, asked %d more: %s%s", r.code, s.n.Load()-asked, r.stdout, r.stderr)
	}
	if trials := readTrials(t, out); len(trials) != 5 {
		t.Errorf("%d transcripts; want 5", len(trials))
	}
}
