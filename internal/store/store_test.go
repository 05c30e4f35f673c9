package store

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestResultsRoundTrip(t *testing.T) { eachStore(t, testResultsRoundTrip) }

func testResultsRoundTrip(t *testing.T, fresh func(*testing.T) string) {
	ctx := context.Background()
	s := open(t, fresh(t))
	id := RunIDFor("seduce", []byte(`{"a":1}`))
	if resumed, err := s.BeginRun(ctx, Run{ID: id, Kind: "seduce", Config: []byte(`{"a":1}`), Version: "test"}); err != nil || resumed {
		t.Fatalf("BeginRun = %v, %v; want a new run", resumed, err)
	}
	ok := &Result{RunID: id, JobKey: "m|a|0", Model: "openai/x", Item: "a", RequestHash: "h1",
		Reply:   llm.Reply{Text: "roll", Finish: llm.FinishStop, Usage: llm.Usage{InputTokens: 10, OutputTokens: 3}, Latency: 1500 * time.Millisecond, Attempts: 2, Raw: []byte(`{"x":1}`)},
		Outcome: `{"decision":"roll"}`, Source: "provider"}
	bad := &Result{RunID: id, JobKey: "m|b|0", Model: "openai/x", Item: "b", RequestHash: "h2", Err: "openai: HTTP 500", Source: "provider"}
	key := CacheKey("openai/x", "", "h1", 0)
	if err := s.PutResults(ctx, []*Result{ok, bad}, []string{key, CacheKey("openai/x", "", "h2", 0)}); err != nil {
		t.Fatal(err)
	}
	answered, err := s.AnsweredKeys(ctx, id)
	if err != nil || len(answered) != 1 || !answered["m|a|0"] {
		t.Fatalf("AnsweredKeys = %v, %v; want only m|a|0", answered, err)
	}
	var got []*Result
	if err := s.Results(ctx, id, true, func(r *Result) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Reply.Text != "roll" || got[0].Reply.Attempts != 2 || got[0].Reply.Latency != 1500*time.Millisecond ||
		string(got[0].Reply.Raw) != `{"x":1}` || got[1].Err == "" {
		t.Fatalf("Results = %+v %+v", got[0], got[1])
	}
	if r, hit, err := s.CachedReply(ctx, key); err != nil || !hit || r.Text != "roll" {
		t.Fatalf("CachedReply = %v, %v, %v; want the reply", r, hit, err)
	}
	if _, hit, _ := s.CachedReply(ctx, CacheKey("openai/x", "", "h2", 0)); hit {
		t.Error("an error was cached")
	}
	// A later answer replaces the error.
	bad.Err, bad.Reply.Text = "", "pass"
	if err := s.PutResults(ctx, []*Result{bad}, nil); err != nil {
		t.Fatal(err)
	}
	st, err := s.RunStats(ctx, id)
	if err != nil || st.Jobs != 2 || st.Answered != 2 || st.Failed != 0 {
		t.Fatalf("RunStats = %+v, %v; want 2 answered", st, err)
	}
	if resumed, err := s.BeginRun(ctx, Run{ID: id, Kind: "seduce", Config: []byte(`{"a":1}`), Version: "test"}); err != nil || !resumed {
		t.Fatalf("BeginRun again = %v, %v; want resumed", resumed, err)
	}
}

func TestReopenKeepsData(t *testing.T) { eachStore(t, testReopenKeepsData) }

func testReopenKeepsData(t *testing.T, fresh func(*testing.T) string) {
	ctx := context.Background()
	path := fresh(t)
	s := open(t, path)
	id := RunID("seduce-1")
	if _, err := s.BeginRun(ctx, Run{ID: id, Kind: "seduce", Config: []byte(`{}`), Version: "v"}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutResults(ctx, []*Result{{RunID: id, JobKey: "k", Model: "a/b", Item: "i", RequestHash: "h"}}, nil); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2 := open(t, path)
	keys, err := s2.AnsweredKeys(ctx, id)
	if err != nil || !keys["k"] {
		t.Fatalf("after reopen AnsweredKeys = %v, %v", keys, err)
	}
	r, err := s2.ResolveRun(ctx, "seduce", "seduce")
	if err != nil || r.ID != id {
		t.Fatalf("ResolveRun(prefix) = %v, %v", r, err)
	}
	if _, err := s2.ResolveRun(ctx, "seduce", "nope"); err == nil {
		t.Error("ResolveRun(nope) = nil error")
	}
}

// TestConcurrentFirstOpen: two arbiter processes started at once on a fresh store (say a
// seduce run and a check judge on the default path) must both open it, not have one
// fail applying a migration the other just applied.
func TestConcurrentFirstOpen(t *testing.T) { eachStore(t, testConcurrentFirstOpen) }

func testConcurrentFirstOpen(t *testing.T, fresh func(*testing.T) string) {
	for round := range 5 {
		path := fresh(t)
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Go(func() {
				s, err := Open(context.Background(), path)
				if err != nil {
					errs <- err
					return
				}
				s.Close()
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("round %d: concurrent Open(%s) = %v", round, path, err)
		}
	}
}
