package queue

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// TestSharedBuckets: two workers share one rpm bucket: at 6 a minute (one request's
// worth held) only one of two requests at once gets through before the next refill, and
// the tpm bucket (a second's worth full) is charged the request's estimated tokens.
func TestSharedBuckets(t *testing.T) {
	_, q := openQueue(t)
	req := &llm.Request{Messages: []llm.Message{{Role: "user", Text: "one two three four"}}, MaxTokens: 10}
	limits := map[string]Limit{"m": {RPM: 6, TPM: 1000}}
	a := &asker{q: q, id: "a", cfg: WorkerConfig{Limits: limits, Lease: time.Second}}
	b := &asker{q: q, id: "b", cfg: WorkerConfig{Limits: limits, Lease: time.Second}}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, w := range []*asker{a, b} {
		wg.Go(func() {
			_, errs[i] = w.acquire(ctx, "m", req)
		})
	}
	wg.Wait()
	ok, waited := 0, 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, context.DeadlineExceeded):
			waited++
		default:
			t.Fatal(err)
		}
	}
	if ok != 1 || waited != 1 {
		t.Fatalf("%d through, %d waiting; want one each (errors %v)", ok, waited, errs)
	}
	var tokens float64
	if err := q.pool.QueryRow(context.Background(), `SELECT tokens FROM arbiter_buckets WHERE model = 'm' AND kind = 'tpm'`).Scan(&tokens); err != nil {
		t.Fatal(err)
	}
	est := float64(llm.EstimateTokens(req))
	if want := max(1000.0/60, est) - est; tokens > want+0.5 || tokens < want-0.5 { // a second's worth, less this request
		t.Fatalf("tpm bucket holds %.1f, want about %.1f", tokens, want)
	}
}

// TestSlotsExpire: a slot held by a worker that stopped renewing it is taken once its
// lease runs out, and a released slot at once.
func TestSlotsExpire(t *testing.T) {
	_, q := openQueue(t)
	limits := map[string]Limit{"m": {Concurrency: 1}}
	dead := &asker{q: q, id: "dead", cfg: WorkerConfig{Limits: limits, Lease: 300 * time.Millisecond}}
	live := &asker{q: q, id: "live", cfg: WorkerConfig{Limits: limits, Lease: time.Minute}}
	ctx := context.Background()
	if _, err := dead.acquire(ctx, "m", &llm.Request{}); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if _, err := live.acquire(short, "m", &llm.Request{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("took a slot still leased: %v", err)
	}
	release, err := live.acquire(ctx, "m", &llm.Request{}) // waits for the lease to run out
	if err != nil {
		t.Fatal(err)
	}
	release()
	if _, err := dead.acquire(ctx, "m", &llm.Request{}); err != nil {
		t.Fatal(err)
	}
}
