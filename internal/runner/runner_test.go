package runner

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store"
)

func memStore(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// countingModel answers "echo:<user text>" and fails the items in fail.
type countingModel struct {
	name  llm.ModelName
	fail  map[string]bool
	mu    sync.Mutex
	asked map[string]int
}

func (m *countingModel) Name() llm.ModelName { return m.name }

func (m *countingModel) Generate(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
	text := req.Messages[0].Text
	m.mu.Lock()
	if m.asked == nil {
		m.asked = map[string]int{}
	}
	m.asked[text]++
	m.mu.Unlock()
	if m.fail[text] {
		return nil, &llm.Error{Provider: "test", Status: 400, Message: "bad request"}
	}
	return &llm.Reply{Text: "echo:" + text, Finish: llm.FinishStop, Usage: llm.Usage{InputTokens: 5, OutputTokens: 2}}, nil
}

func jobs(models []llm.ModelName, n int) []Job {
	var out []Job
	for _, m := range models {
		for i := range n {
			item := fmt.Sprintf("item-%03d", i)
			out = append(out, Job{Key: JobKey(m, item, 0), Model: m, Item: item, Request: llm.UserText("sys", item)})
		}
	}
	return out
}

func TestRunRecordsEveryJobAndResumes(t *testing.T) {
	ctx := context.Background()
	st := memStore(t)
	a := &countingModel{name: "test/a", fail: map[string]bool{"item-003": true}}
	b := &countingModel{name: "test/b"}
	plan := Plan{Run: "seduce-x", Jobs: jobs([]llm.ModelName{a.name, b.name}, 20),
		Models: map[llm.ModelName]llm.Model{a.name: a, b.name: b}, Concurrency: 4,
		Outcome: func(j Job, r *llm.Reply) string { return "parsed:" + r.Text }}
	if _, err := st.BeginRun(ctx, store.Run{ID: plan.Run, Kind: "seduce", Config: []byte("{}"), Version: "t"}); err != nil {
		t.Fatal(err)
	}
	sum, err := Run(ctx, st, plan)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Asked != 40 || sum.Answered != 39 || sum.Failed != 1 || sum.Resumed != 0 {
		t.Fatalf("first run %+v; want 40 asked, 39 answered, 1 failed", sum)
	}
	var rows int
	st.Results(ctx, plan.Run, false, func(r *store.Result) error {
		rows++
		if r.Err == "" && r.Outcome != "parsed:echo:"+r.Item {
			t.Errorf("outcome of %s = %q", r.JobKey, r.Outcome)
		}
		return nil
	})
	if rows != 40 {
		t.Fatalf("store holds %d results; want 40", rows)
	}
	// The rerun asks only for the failed job.
	sum, err = Run(ctx, st, plan)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Resumed != 39 || sum.Asked != 1 || a.asked["item-003"] != 2 {
		t.Fatalf("rerun %+v (item-003 asked %d times); want 39 resumed, 1 asked", sum, a.asked["item-003"])
	}
	for item, n := range b.asked {
		if n != 1 {
			t.Errorf("model b asked %s %d times; want once", item, n)
		}
	}
}

func TestCacheSharedAcrossRuns(t *testing.T) {
	ctx := context.Background()
	st := memStore(t)
	m := &countingModel{name: "test/a"}
	plan := Plan{Run: "r1", Jobs: jobs([]llm.ModelName{m.name}, 10), Models: map[llm.ModelName]llm.Model{m.name: m}}
	st.BeginRun(ctx, store.Run{ID: "r1", Kind: "k", Config: []byte("1"), Version: "t"})
	st.BeginRun(ctx, store.Run{ID: "r2", Kind: "k", Config: []byte("2"), Version: "t"})
	if _, err := Run(ctx, st, plan); err != nil {
		t.Fatal(err)
	}
	plan.Run = "r2"
	sum, err := Run(ctx, st, plan)
	if err != nil || sum.Cached != 10 || sum.Asked != 0 {
		t.Fatalf("second run %+v, %v; want all 10 from the cache", sum, err)
	}
	plan.NoCache = true
	st.BeginRun(ctx, store.Run{ID: "r3", Kind: "k", Config: []byte("3"), Version: "t"})
	plan.Run = "r3"
	if sum, _ := Run(ctx, st, plan); sum.Asked != 10 {
		t.Fatalf("--no-cache run %+v; want 10 asked", sum)
	}
}

// TestIdenticalRequestsAskedOnce: jobs of one run that send the same request (a defense
// that restates a scenario's variants alike) are asked once when they are asked one
// after another; the rest come from the cache, though the feeder looked them all up in
// one query before the first was answered.
func TestIdenticalRequestsAskedOnce(t *testing.T) {
	ctx := context.Background()
	st := memStore(t)
	m := &countingModel{name: "test/a"}
	var js []Job
	for i := range 12 {
		item := fmt.Sprintf("variant-%02d", i)
		js = append(js, Job{Key: JobKey(m.name, item, 0), Model: m.name, Item: item, Request: llm.UserText("sys", fmt.Sprintf("scenario %d", i/4))})
	}
	st.BeginRun(ctx, store.Run{ID: "r", Kind: "k", Config: []byte("1"), Version: "t"})
	sum, err := Run(ctx, st, Plan{Run: "r", Jobs: js, Models: map[llm.ModelName]llm.Model{m.name: m}, Concurrency: 1})
	if err != nil || sum.Asked != 3 || sum.Cached != 9 {
		t.Fatalf("run %+v, %v; want 3 asked (one per scenario), 9 from the cache", sum, err)
	}
	for text, n := range m.asked {
		if n != 1 {
			t.Errorf("%q asked %d times; want once", text, n)
		}
	}
}

func TestInterruptLeavesNothingHalfWritten(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	st := memStore(t)
	var calls atomic.Int64
	slow := llm.Func{ModelName: "test/slow", Fn: func(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
		if calls.Add(1) == 5 {
			cancel()
		}
		select {
		case <-time.After(time.Millisecond):
			return &llm.Reply{Text: "ok"}, nil
		case <-ctx.Done():
			return nil, llm.TransportError("test", ctx.Err())
		}
	}}
	plan := Plan{Run: "r", Jobs: jobs([]llm.ModelName{slow.ModelName}, 50), Models: map[llm.ModelName]llm.Model{slow.ModelName: slow}, Concurrency: 2}
	st.BeginRun(context.Background(), store.Run{ID: "r", Kind: "k", Config: []byte("1"), Version: "t"})
	sum, err := Run(ctx, st, plan)
	if err != nil || !sum.Interrupted {
		t.Fatalf("Run = %+v, %v; want interrupted", sum, err)
	}
	stats, _ := st.RunStats(context.Background(), "r")
	if stats.Failed != 0 || stats.Answered != sum.Answered || stats.Answered >= 50 {
		t.Fatalf("after interrupt: store %+v, summary %+v; want only answers, no recorded cancellations", stats, sum)
	}
}

func TestDuplicateJobKeyIsAnError(t *testing.T) {
	st := memStore(t)
	m := &countingModel{name: "test/a"}
	js := jobs([]llm.ModelName{m.name}, 2)
	js = append(js, js[0])
	if _, err := Run(context.Background(), st, Plan{Run: "r", Jobs: js, Models: map[llm.ModelName]llm.Model{m.name: m}}); err == nil {
		t.Fatal("Run with a duplicate job key = nil error")
	}
}

// TestCacheIsScopedByEndpoint: replies from one endpoint (a stand-in, a local server)
// never answer for the same model at another.
func TestCacheIsScopedByEndpoint(t *testing.T) {
	ctx := context.Background()
	st := memStore(t)
	m := &countingModel{name: "openai/gpt-x"}
	endpoint := "http://127.0.0.1:9999/v1"
	plan := Plan{Run: "r1", Jobs: jobs([]llm.ModelName{m.name}, 5), Models: map[llm.ModelName]llm.Model{m.name: m},
		Endpoint: func(llm.ModelName) string { return endpoint }}
	st.BeginRun(ctx, store.Run{ID: "r1", Kind: "k", Config: []byte("1"), Version: "t"})
	st.BeginRun(ctx, store.Run{ID: "r2", Kind: "k", Config: []byte("2"), Version: "t"})
	st.BeginRun(ctx, store.Run{ID: "r3", Kind: "k", Config: []byte("3"), Version: "t"})
	if _, err := Run(ctx, st, plan); err != nil {
		t.Fatal(err)
	}
	plan.Run, endpoint = "r2", ""
	if sum, err := Run(ctx, st, plan); err != nil || sum.Cached != 0 || sum.Asked != 5 {
		t.Fatalf("other endpoint: %+v, %v; want nothing from the cache", sum, err)
	}
	plan.Run = "r3"
	if sum, err := Run(ctx, st, plan); err != nil || sum.Cached != 5 {
		t.Fatalf("same endpoint again: %+v, %v; want all from the cache", sum, err)
	}
}

// TestReadersRunOnFewGoroutines holds readOutcome to its promise: however many workers
// wait for outcomes at once, at most GOMAXPROCS reads run at a time, and each worker gets
// the outcome of its own reply.
func TestReadersRunOnFewGoroutines(t *testing.T) {
	var running, most atomic.Int32
	read := func(r *llm.Reply) string {
		n := running.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(time.Millisecond)
		running.Add(-1)
		return "read:" + r.Text
	}
	const workers = 64
	var wg sync.WaitGroup
	errs := make(chan string, workers)
	for i := range workers {
		wg.Go(func() {
			text := strconv.Itoa(i)
			if got := readOutcome(read, &llm.Reply{Text: text}); got != "read:"+text {
				errs <- fmt.Sprintf("worker %d got %q", i, got)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if m, procs := most.Load(), runtime.GOMAXPROCS(0); int(m) > procs {
		t.Errorf("%d reads ran at once; want at most GOMAXPROCS (%d)", m, procs)
	}
}
