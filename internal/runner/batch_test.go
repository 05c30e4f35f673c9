package runner_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/anthropic"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/openai"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

const (
	batchGPT    = llm.ModelName("openai/gm")
	batchClaude = llm.ModelName("anthropic/claude-gm")
)

// batchModels opens both providers at the batch stand-in, as Models and as Batchers.
func batchModels(t *testing.T, url string) (map[llm.ModelName]llm.Model, map[llm.ModelName]llm.Batcher) {
	t.Helper()
	o, err := openai.New(batchGPT, config.Endpoint{Provider: "openai", BaseURL: url + "/v1", Key: "sk-test"}, openai.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := anthropic.New(batchClaude, config.Endpoint{Provider: "anthropic", BaseURL: url, Key: "sk-ant-test"}, anthropic.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return map[llm.ModelName]llm.Model{batchGPT: o, batchClaude: a},
		map[llm.ModelName]llm.Batcher{batchGPT: o, batchClaude: a}
}

// batchFixture starts a batch stand-in with bo, opens both providers at it and a store
// file of the test's own.
func batchFixture(t *testing.T, bo llmtest.BatchOptions) (*llmtest.BatchServer, map[llm.ModelName]llm.Model, map[llm.ModelName]llm.Batcher, *store.Store) {
	t.Helper()
	srv := llmtest.NewBatchServer(llmtest.Options{}, bo)
	t.Cleanup(srv.Close)
	models, batchers := batchModels(t, srv.URL)
	return srv, models, batchers, openFile(t, filepath.Join(t.TempDir(), "batch.db"))
}

// everyTwentieth fails one line in twenty the first time a batch carries it.
func everyTwentieth(req *llmtest.Request, attempt int) bool {
	var n int
	fmt.Sscanf(req.LastUser()[strings.LastIndex(req.LastUser(), "-")+1:], "%d", &n)
	return attempt == 1 && n%20 == 0
}

func batchPlan(run store.RunID, models map[llm.ModelName]llm.Model, n int) runner.Plan {
	p := planFor(run, models, n, 4)
	p.NoCache = false
	return p
}

func answeredAll(t *testing.T, st *store.Store, run store.RunID, want int) {
	t.Helper()
	stats, err := st.RunStats(context.Background(), run)
	if err != nil || stats.Answered != want {
		t.Fatalf("run %s: %+v, %v; want %d answered", run, stats, err, want)
	}
	n := 0
	st.Results(context.Background(), run, false, func(r *store.Result) error {
		if r.Err == "" && !strings.HasPrefix(r.Reply.Text, "echo: ") {
			t.Errorf("job %s: reply %q; want the stand-in's echo", r.JobKey, r.Reply.Text)
		}
		n++
		return nil
	})
	if n != want {
		t.Fatalf("run %s has %d results; want %d", run, n, want)
	}
}

// TestBatchRunBothProviders: a batch run through OpenAI Files+Batches and Anthropic
// Message Batches answers every job, submits the 5% of lines that failed once more in
// a new batch, sends no direct request, and a rerun asks nothing at all.
func TestBatchRunBothProviders(t *testing.T) {
	ctx := context.Background()
	srv, models, batchers, st := batchFixture(t, llmtest.BatchOptions{Polls: 2, FailLine: everyTwentieth})
	plan := batchPlan("seduce-batch", models, 100)
	begin(t, st, plan.Run)
	bo := runner.BatchOptions{Batchers: batchers, Poll: time.Millisecond, Retries: 2}
	sum, err := runner.RunBatch(ctx, st, plan, bo)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Answered != 200 || sum.Failed != 0 || sum.Resumed != 0 {
		t.Fatalf("summary %+v; want 200 answered", sum)
	}
	answeredAll(t, st, plan.Run, 200)
	// Two first batches, then one resubmission per provider of its 5 failed lines.
	if got := srv.BatchesCreated(); got != 4 {
		t.Errorf("%d batches created; want 4", got)
	}
	if got := srv.LinesSubmitted(); got != 210 {
		t.Errorf("%d lines submitted; want 210 (200 + 10 failed once)", got)
	}
	if got := srv.MaxLineRepeats(); got != 2 {
		t.Errorf("a line was carried by %d batches; want at most 2", got)
	}
	if got := srv.Requests(); got != 0 {
		t.Errorf("%d direct requests; want none", got)
	}
	recs, err := st.Batches(ctx, plan.Run)
	if err != nil || len(recs) != 4 {
		t.Fatalf("store holds %d batches, %v; want 4", len(recs), err)
	}
	for _, r := range recs {
		if !r.Ended {
			t.Errorf("batch %s not marked ended", r.ID)
		}
	}

	again, err := runner.RunBatch(ctx, st, plan, bo)
	if err != nil || again.Resumed != 200 || srv.BatchesCreated() != 4 {
		t.Fatalf("rerun %+v, %v, %d batches; want everything resumed and nothing submitted", again, err, srv.BatchesCreated())
	}

	// The batch replies are the cache of a direct run with the same requests.
	direct := batchPlan("seduce-direct", models, 100)
	begin(t, st, direct.Run)
	ds, err := runner.Run(ctx, st, direct)
	if err != nil || ds.Cached != 200 || srv.Requests() != 0 {
		t.Fatalf("direct run %+v, %v, %d requests; want all 200 from the cache", ds, err, srv.Requests())
	}
}

// TestBatchAnsweredFromDirectCache: a batch run of requests a direct run already asked
// takes those from the cache and batches only the rest, one batch per provider.
func TestBatchAnsweredFromDirectCache(t *testing.T) {
	ctx := context.Background()
	srv, models, batchers, st := batchFixture(t, llmtest.BatchOptions{Polls: 1})
	direct := batchPlan("seduce-direct", models, 30)
	begin(t, st, direct.Run)
	if sum, err := runner.Run(ctx, st, direct); err != nil || sum.Answered != 60 {
		t.Fatalf("direct run %+v, %v; want 60 answered", sum, err)
	}
	plan := batchPlan("seduce-batch", models, 40) // the same 30 per model, and 10 more
	begin(t, st, plan.Run)
	sum, err := runner.RunBatch(ctx, st, plan, runner.BatchOptions{Batchers: batchers, Poll: time.Millisecond, Retries: 1})
	if err != nil || sum.Cached != 60 || sum.Answered != 20 {
		t.Fatalf("batch run %+v, %v; want 60 from the cache and 20 answered", sum, err)
	}
	if got, lines := srv.BatchesCreated(), srv.LinesSubmitted(); got != 2 || lines != 20 {
		t.Errorf("%d batches of %d lines in all; want 2 carrying the 20 new requests", got, lines)
	}
	if got := srv.Requests(); got != 60 {
		t.Errorf("%d direct requests; want the direct run's 60 only", got)
	}
	answeredAll(t, st, plan.Run, 80)
}

// TestBatchExpiredIsResubmitted: an expired batch's lines go into a new batch.
func TestBatchExpiredIsResubmitted(t *testing.T) {
	ctx := context.Background()
	srv, models, batchers, st := batchFixture(t, llmtest.BatchOptions{Expire: func(n int) bool { return n <= 2 }})
	plan := batchPlan("seduce-expired", models, 30)
	begin(t, st, plan.Run)
	sum, err := runner.RunBatch(ctx, st, plan, runner.BatchOptions{Batchers: batchers, Poll: time.Millisecond, Retries: 1})
	if err != nil || sum.Answered != 60 {
		t.Fatalf("summary %+v, %v; want 60 answered", sum, err)
	}
	answeredAll(t, st, plan.Run, 60)
	if got := srv.BatchesCreated(); got != 4 {
		t.Errorf("%d batches; want 4 (two expired, two resubmitted)", got)
	}
}

// TestBatchRetriesRunOut: lines that fail every time are recorded as failed after
// Retries resubmissions, and the next run asks them again.
func TestBatchRetriesRunOut(t *testing.T) {
	ctx := context.Background()
	srv, models, batchers, st := batchFixture(t, llmtest.BatchOptions{FailLine: func(req *llmtest.Request, _ int) bool {
		return strings.HasSuffix(req.LastUser(), "-0003")
	}})
	plan := batchPlan("seduce-fail", models, 10)
	begin(t, st, plan.Run)
	bo := runner.BatchOptions{Batchers: batchers, Poll: time.Millisecond, Retries: 1}
	sum, err := runner.RunBatch(ctx, st, plan, bo)
	if err != nil || sum.Answered != 18 || sum.Failed != 2 {
		t.Fatalf("summary %+v, %v; want 18 answered, 2 failed", sum, err)
	}
	if got := srv.MaxLineRepeats(); got != 2 {
		t.Errorf("the failing lines went into %d batches; want 2 (Retries 1)", got)
	}
	r, err := st.Result(ctx, plan.Run, runner.JobKey(batchClaude, string(batchClaude)+"-item-0003", 0))
	if err != nil || !strings.Contains(r.Err, "scripted line failure") {
		t.Fatalf("failed job: %+v, %v; want the provider's error recorded", r, err)
	}
	created := srv.BatchesCreated()
	again, err := runner.RunBatch(ctx, st, plan, bo)
	if err != nil || again.Resumed != 18 || srv.BatchesCreated() != created+2 {
		t.Fatalf("rerun %+v, %v; want the 2 failed jobs asked again in one batch per provider", again, err)
	}
}

// TestBatchKilledAfterSubmit: a process SIGKILLed while its batches are open leaves
// them in the store; the rerun polls them, submits nothing new and answers every job.
func TestBatchKilledAfterSubmit(t *testing.T) {
	if os.Getenv("BATCH_HELPER_STORE") != "" {
		batchHelper(t)
		return
	}
	srv := llmtest.NewBatchServer(llmtest.Options{}, llmtest.BatchOptions{Polls: 3})
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "killed.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestBatchKilledAfterSubmit$")
	cmd.Env = append(os.Environ(), "BATCH_HELPER_STORE="+path, "BATCH_HELPER_URL="+srv.URL)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until both batches are in the store, then kill the process mid-poll.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if st, err := store.Open(context.Background(), path); err == nil {
			recs, _ := st.Batches(context.Background(), "seduce-killed")
			st.Close()
			if len(recs) == 2 {
				break
			}
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the helper recorded no batches\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if got := srv.BatchesCreated(); got != 2 {
		t.Fatalf("%d batches before the kill; want 2\n%s", got, out.String())
	}
	models, batchers := batchModels(t, srv.URL)
	st := openFile(t, path)
	sum, err := runner.RunBatch(context.Background(), st, batchPlan("seduce-killed", models, 25),
		runner.BatchOptions{Batchers: batchers, Poll: time.Millisecond, Retries: 2})
	if err != nil || sum.Answered != 50 {
		t.Fatalf("rerun %+v, %v; want all 50 answered from the open batches", sum, err)
	}
	if got := srv.BatchesCreated(); got != 2 {
		t.Errorf("%d batches after the rerun; want still 2 (nothing submitted twice)", got)
	}
	answeredAll(t, st, "seduce-killed", 50)
}

// batchHelper submits the batches and then polls slowly until it is killed.
func batchHelper(t *testing.T) {
	models, batchers := batchModels(t, os.Getenv("BATCH_HELPER_URL"))
	st := openFile(t, os.Getenv("BATCH_HELPER_STORE"))
	plan := batchPlan("seduce-killed", models, 25)
	begin(t, st, plan.Run)
	runner.RunBatch(context.Background(), st, plan, runner.BatchOptions{Batchers: batchers, Poll: time.Hour})
	t.Fatal("the helper's batch run returned; it should have been killed while polling")
}

// TestBatchProgressLines: a batch run reports its batches' states and the time waited.
func TestBatchProgressLines(t *testing.T) {
	_, models, batchers, st := batchFixture(t, llmtest.BatchOptions{Polls: 2})
	plan := batchPlan("seduce-progress", models, 5)
	begin(t, st, plan.Run)
	var out strings.Builder
	plan.Progress = runner.NewLines(&out, "seduce", 0, nil)
	if _, err := runner.RunBatch(context.Background(), st, plan, runner.BatchOptions{Batchers: batchers, Poll: time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"in_progress 0/5", "msgbatch_", "waited", "10/10 done"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, out.String())
		}
	}
}
