package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/store"
	"github.com/arbiter-eval/arbiter/internal/store/storetest"
)

// TestWorkersAcrossProcesses: a run of the bundled set enqueued on PostgreSQL is
// answered by three worker processes, one SIGKILLed midway. The report has every
// sample, the stand-in answered at most the jobs plus the killed worker's requests in
// flight, the config's concurrency: 4 held across the workers, and a second person's
// enqueue of the same run asks nothing.
func TestWorkersAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the bundled set on three processes")
	}
	pg := storetest.PostgresDSN(t)
	bin := binary(t)
	peak := llmtest.NewPeak(keeperReply, 3*time.Millisecond)
	srv := llmtest.NewServer(llmtest.Options{Responder: peak.Respond})
	defer srv.Close()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "limits.yaml")
	if err := os.WriteFile(cfg, []byte("limits:\n  openai/gpt-standin: {concurrency: 4}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"OPENAI_API_KEY": "sk-test-queue", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	runArgs := []string{"seduce", "run", "-m", "openai/gpt-standin", "--db", pg, "--format", "json", "--bootstrap", "0"}
	enq := arbiter(t, env, append(runArgs, "--enqueue")...)
	runID := strings.TrimSpace(enq.stdout)
	if enq.code != 0 || !strings.HasPrefix(runID, "seduce-") || strings.Contains(runID, "\n") {
		t.Fatalf("enqueue: exit %d, stdout %q\n%s", enq.code, enq.stdout, enq.stderr)
	}
	if srv.Requests() != 0 {
		t.Fatalf("enqueue asked %d requests; want none", srv.Requests())
	}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := func() *exec.Cmd {
		c := exec.CommandContext(ctx, bin, "worker", "-v", "--db", pg, "--exit-when-idle", "--concurrency", "8", "--config", cfg)
		c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "OPENAI_API_KEY=sk-test-queue", "OPENAI_BASE_URL=" + srv.OpenAIBaseURL()}
		c.Stderr = &strings.Builder{}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	workers := []*exec.Cmd{start(), start(), start()}
	st, err := store.Open(ctx, pg)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var leaked, queued int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FILTER (WHERE args::text LIKE '%sk-test-queue%'), count(*) FROM river_job`).Scan(&leaked, &queued); err != nil {
		t.Fatal(err)
	}
	if leaked != 0 || queued != 1792 {
		t.Fatalf("%d of %d queued jobs carry the API key; want 0 of 1792", leaked, queued)
	}
	for {
		keys, err := st.AnsweredKeys(ctx, store.RunID(runID))
		if err != nil {
			t.Fatal(err)
		}
		if len(keys) >= 300 {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("no progress")
		}
		time.Sleep(20 * time.Millisecond)
	}
	mid := arbiter(t, env, "runs", "--db", pg)
	if !strings.Contains(mid.stdout, "queued") || strings.Count(mid.stdout, "alive") != 3 {
		t.Errorf("runs midway does not show the queued run and three live workers:\n%s%s", mid.stdout, mid.stderr)
	}
	before := srv.Requests()
	if err := workers[0].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	workers[0].Wait()
	for i, w := range workers[1:] {
		if err := w.Wait(); err != nil {
			t.Fatalf("worker %d: %v\n%s", i+1, err, w.Stderr)
		}
	}
	if before >= 1792 {
		t.Fatalf("the run was over (%d asked) before the kill", before)
	}
	if got := srv.Requests(); got < 1792 || got > 1792+4 {
		t.Errorf("the stand-in answered %d requests (%+v); want 1792 jobs plus at most the 4 in flight of the killed worker\n%s\n%s",
			got, srv.Stats(), workers[1].Stderr, workers[2].Stderr)
	}
	if peak.Max() > 4 {
		t.Errorf("peak in flight %d across workers; the config allows 4", peak.Max())
	}
	rep := arbiter(t, env, "seduce", "report", "--db", pg, "--run", runID, "--format", "json", "--bootstrap", "0")
	if rep.code != 0 {
		t.Fatalf("report: exit %d\n%s", rep.code, rep.stderr)
	}
	models := decodeJSON(t, rep.stdout)["models"].([]any)
	if n := models[0].(map[string]any)["n"]; n != float64(1792) {
		t.Fatalf("report n = %v, want every one of 1792 samples", n)
	}
	runs := arbiter(t, env, "runs", "--db", pg)
	if !strings.Contains(runs.stdout, runID) || !strings.Contains(runs.stdout, "done") {
		t.Errorf("runs does not show %s done:\n%s", runID, runs.stdout)
	}
	// A second person enqueues the same run: nothing is queued, nothing asked.
	asked := srv.Requests()
	again := arbiter(t, map[string]string{"OPENAI_API_KEY": "sk-other", "OPENAI_BASE_URL": srv.OpenAIBaseURL(), "ARBITER_DB": pg},
		"seduce", "run", "-m", "openai/gpt-standin", "--enqueue")
	if again.code != 0 || !strings.Contains(again.stderr, "0 queued") {
		t.Fatalf("second enqueue: exit %d\n%s", again.code, again.stderr)
	}
	if w := start(); w.Wait() != nil || srv.Requests() != asked {
		t.Errorf("the second person's run asked %d requests; want 0", srv.Requests()-asked)
	}
}

// TestEnqueueNeedsPostgres: --enqueue on a SQLite store is bad usage and creates no file.
func TestEnqueueNeedsPostgres(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	r := arbiter(t, nil, "seduce", "run", "--db", db, "--enqueue")
	if r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.Contains(r.stderr, "PostgreSQL") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("the refused command created the store")
	}
	if w := arbiter(t, nil, "worker", "--db", db); w.code != 2 {
		t.Errorf("worker on SQLite: exit %d", w.code)
	}
}

// TestEnqueueWait: --enqueue --wait follows the run while a worker answers it, then
// prints the same report a plain run prints.
func TestEnqueueWait(t *testing.T) {
	pg := storetest.PostgresDSN(t)
	bin := binary(t)
	srv := llmtest.NewServer(llmtest.Options{Responder: keeperReply})
	defer srv.Close()
	data := smallDataset(t, 40)
	env := map[string]string{"OPENAI_API_KEY": "sk-test-wait", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	w := exec.Command(bin, "worker", "--db", pg)
	w.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "OPENAI_API_KEY=sk-test-wait", "OPENAI_BASE_URL=" + srv.OpenAIBaseURL()}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { w.Process.Signal(syscall.SIGTERM); w.Wait() }()
	args := []string{"seduce", "run", "-m", "openai/gpt-standin", "--dataset", data, "--db", pg, "--format", "json", "--bootstrap", "0"}
	waited := arbiter(t, env, append(args, "--enqueue", "--wait")...)
	if waited.code != 0 || srv.Requests() != 40 {
		t.Fatalf("--enqueue --wait: exit %d, %d asked\n%s", waited.code, srv.Requests(), waited.stderr)
	}
	plain := arbiter(t, env, args...)
	if plain.code != 0 || plain.stdout != waited.stdout || srv.Requests() != 40 {
		t.Fatalf("the plain rerun (exit %d, %d asked) differs from the waited report", plain.code, srv.Requests())
	}
}

// TestRunsShowsQueueBeforeWorkers: a run enqueued before any worker came shows its
// jobs left under 'arbiter runs'.
func TestRunsShowsQueueBeforeWorkers(t *testing.T) {
	pg := storetest.PostgresDSN(t)
	env := map[string]string{"ARBITER_DB": pg}
	enq := arbiter(t, env, "seduce", "run", "--dataset", smallDataset(t, 5), "--enqueue")
	if enq.code != 0 {
		t.Fatalf("enqueue: exit %d\n%s", enq.code, enq.stderr)
	}
	runs := arbiter(t, env, "runs")
	if runs.code != 0 || !strings.Contains(runs.stdout, "JOBS QUEUED OR HELD") || !strings.Contains(runs.stdout, "queued  5") {
		t.Fatalf("runs: exit %d\n%s%s", runs.code, runs.stdout, runs.stderr)
	}
}
