package queue

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
	"github.com/arbiter-eval/arbiter/internal/store/storetest"
)

const model = llm.ModelName("openai/standin")

func openQueue(t *testing.T) (*store.Store, *Queue) { return openQueueB(t) }

func openQueueB(t testing.TB) (*store.Store, *Queue) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.PostgresDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	q, err := Open(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	return st, q
}

func beginRun(t *testing.T, st *store.Store, id string) store.RunID { return beginRunB(t, st, id) }

func beginRunB(t testing.TB, st *store.Store, id string) store.RunID {
	t.Helper()
	run := store.RunID(id)
	if _, err := st.BeginRun(context.Background(), store.Run{ID: run, Kind: "seduce", Config: []byte(`{"n":"` + id + `"}`)}); err != nil {
		t.Fatal(err)
	}
	return run
}

func jobs(n int) []runner.Job {
	out := make([]runner.Job, n)
	for i := range out {
		item := fmt.Sprintf("s%03d", i)
		out[i] = runner.Job{Key: runner.JobKey(model, item, 0), Model: model, Item: item,
			Request: &llm.Request{Messages: []llm.Message{{Role: "user", Text: "sample " + item}}}}
	}
	return out
}

// standin answers through an llmtest Peak, so the test sees the requests in flight.
func standin(p *llmtest.Peak) func(llm.ModelName, int) (llm.Model, error) {
	return func(name llm.ModelName, _ int) (llm.Model, error) {
		return llm.Func{ModelName: name, Fn: func(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
			r := p.Respond(&llmtest.Request{})
			return &llm.Reply{Text: "no roll " + req.Messages[0].Text + r.Text, Finish: llm.FinishStop}, nil
		}}, nil
	}
}

func statusOf(t *testing.T, st *store.Store, run store.RunID) store.Status {
	t.Helper()
	runs, err := st.Runs(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.ID == run {
			return r.Status
		}
	}
	t.Fatalf("run %s not found", run)
	return ""
}

func work(t *testing.T, q *Queue, n int, cfg WorkerConfig) WorkStats {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var total WorkStats
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			s, err := q.Work(ctx, cfg)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			total.Done += s.Done
			total.Asked += s.Asked
			total.Cached += s.Cached
			total.Already += s.Already
			total.Failed += s.Failed
			mu.Unlock()
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatal("workers did not finish the queue in time")
	}
	return total
}

// TestThreeWorkersShareLimit: three workers finish a run, each job asked once, and a
// concurrency limit of 4 holds across them though each would take 8 at once.
func TestThreeWorkersShareLimit(t *testing.T) {
	st, q := openQueue(t)
	ctx := context.Background()
	run := beginRun(t, st, "r1")
	n, err := q.Enqueue(ctx, run, jobs(60), EnqueueOptions{})
	if err != nil || n != 60 {
		t.Fatalf("enqueue: %d, %v", n, err)
	}
	if s := statusOf(t, st, run); s != store.StatusQueued {
		t.Fatalf("status %s, want queued", s)
	}
	// Enqueueing again queues nothing new: the jobs are already waiting.
	if _, err := q.Enqueue(ctx, run, jobs(60), EnqueueOptions{}); err != nil {
		t.Fatal(err)
	}
	if p, _ := q.Pending(ctx, run); p != 60 {
		t.Fatalf("pending %d after a second enqueue, want 60", p)
	}
	peak := llmtest.NewPeak(nil, 15*time.Millisecond)
	got := work(t, q, 3, WorkerConfig{Concurrency: 8, Model: standin(peak), ExitWhenIdle: true,
		Limits: map[string]Limit{string(model): {Concurrency: 4}}})
	if got.Done != 60 || got.Asked != 60 || peak.Answered() != 60 {
		t.Fatalf("done %d asked %d answered %d, want 60 each", got.Done, got.Asked, peak.Answered())
	}
	if peak.Max() > 4 || peak.Max() < 2 {
		t.Fatalf("peak in flight %d, want 2..4 (limit 4 across workers)", peak.Max())
	}
	keys, err := st.AnsweredKeys(ctx, run)
	if err != nil || len(keys) != 60 {
		t.Fatalf("%d results, %v", len(keys), err)
	}
	if s := statusOf(t, st, run); s != store.StatusDone {
		t.Fatalf("status %s, want done", s)
	}
	ws, err := q.Workers(ctx)
	if err != nil || len(ws) != 3 {
		t.Fatalf("workers %v, %v", ws, err)
	}
	var sum int64
	for _, w := range ws {
		sum += w.JobsDone
		if w.Alive {
			t.Errorf("worker %s still alive after it exited", w.ID)
		}
	}
	if sum != 60 {
		t.Fatalf("workers table counts %d jobs, want 60", sum)
	}
}

// TestSecondRunAsksNothing: another person's run of the same requests is answered from
// the shared cache.
func TestSecondRunAsksNothing(t *testing.T) {
	st, q := openQueue(t)
	ctx := context.Background()
	peak := llmtest.NewPeak(nil, 0)
	cfg := WorkerConfig{Concurrency: 4, Model: standin(peak), ExitWhenIdle: true}
	for i, id := range []string{"alice", "bob"} {
		run := beginRun(t, st, id)
		if _, err := q.Enqueue(ctx, run, jobs(20), EnqueueOptions{}); err != nil {
			t.Fatal(err)
		}
		got := work(t, q, 1, cfg)
		if got.Done != 20 || peak.Answered() != 20 || (i == 1 && (got.Cached != 20 || got.Asked != 0)) {
			t.Fatalf("run %s: %+v, stand-in answered %d", id, got, peak.Answered())
		}
	}
}

// TestTakeOver: a job held by a worker whose heartbeat stopped goes back to the queue
// and a live worker answers it; a job answered meanwhile is completed without asking.
func TestTakeOver(t *testing.T) {
	st, q := openQueue(t)
	ctx := context.Background()
	run := beginRun(t, st, "r")
	if _, err := q.Enqueue(ctx, run, jobs(3), EnqueueOptions{}); err != nil {
		t.Fatal(err)
	}
	// A worker took every job, then died: its heartbeat is a minute old.
	if _, err := q.pool.Exec(ctx, `INSERT INTO arbiter_workers(id, host, pid, heartbeat) VALUES ('dead', 'h', 1, now() - interval '1 minute')`); err != nil {
		t.Fatal(err)
	}
	if _, err := q.pool.Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now(), attempted_by = ARRAY['dead'] WHERE kind = $1`, JobKind); err != nil {
		t.Fatal(err)
	}
	// Before dying it wrote one result.
	j := jobs(3)[0]
	if err := st.PutResult(ctx, store.ResultWrite{Result: &store.Result{RunID: run, JobKey: j.Key, Model: model, Item: j.Item,
		RequestHash: j.Request.Hash(), Reply: llm.Reply{Text: "kept"}, Source: "provider"}}); err != nil {
		t.Fatal(err)
	}
	var asked atomic.Int64
	peak := llmtest.NewPeak(func(*llmtest.Request) llmtest.Response { asked.Add(1); return llmtest.Response{} }, 0)
	got := work(t, q, 1, WorkerConfig{Model: standin(peak), ExitWhenIdle: true, Heartbeat: 50 * time.Millisecond, Lease: time.Second})
	if got.Done != 3 || got.Already != 1 || asked.Load() != 2 {
		t.Fatalf("%+v, asked %d; want 3 done, 1 already answered, 2 asked", got, asked.Load())
	}
	if s := statusOf(t, st, run); s != store.StatusDone {
		t.Fatalf("status %s, want done", s)
	}
}

// TestFailedRecorded: a request that fails after the model's retries is recorded as
// failed, completes its job, and leaves the run incomplete.
func TestFailedRecorded(t *testing.T) {
	st, q := openQueue(t)
	ctx := context.Background()
	run := beginRun(t, st, "r")
	if _, err := q.Enqueue(ctx, run, jobs(2), EnqueueOptions{Retries: 2}); err != nil {
		t.Fatal(err)
	}
	bad := func(name llm.ModelName, retries int) (llm.Model, error) {
		if retries != 2 {
			t.Errorf("model opened with %d retries, want the run's 2", retries)
		}
		return llm.Func{ModelName: name, Fn: func(context.Context, *llm.Request) (*llm.Reply, error) {
			return nil, &llm.Error{Status: 500, Message: "boom"}
		}}, nil
	}
	got := work(t, q, 1, WorkerConfig{Model: bad, ExitWhenIdle: true})
	if got.Done != 2 || got.Failed != 2 {
		t.Fatalf("%+v", got)
	}
	n := 0
	if err := st.Results(ctx, run, false, func(r *store.Result) error {
		if r.Err == "" {
			t.Errorf("%s: no error recorded", r.JobKey)
		}
		n++
		return nil
	}); err != nil || n != 2 {
		t.Fatalf("%d results, %v", n, err)
	}
	if s := statusOf(t, st, run); s != store.StatusIncomplete {
		t.Fatalf("status %s, want incomplete", s)
	}
}

// TestNotPostgres: the queue refuses a SQLite store.
func TestNotPostgres(t *testing.T) {
	st, err := store.Open(context.Background(), t.TempDir()+"/a.db")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := Open(context.Background(), st); err == nil {
		t.Fatal("a SQLite store opened a queue")
	}
}
