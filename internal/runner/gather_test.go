package runner

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// TestGatheringAsksInRounds: five callers ask at once; two of them ask again. The first
// asks of all five are one round, the two re-asks the next, every caller gets its own
// reply, and a rerun on the same store asks nothing.
func TestGatheringAsksInRounds(t *testing.T) {
	ctx := context.Background()
	st := memStore(t)
	var sent atomic.Int64
	model := llm.Func{ModelName: "test/m", Fn: func(_ context.Context, req *llm.Request) (*llm.Reply, error) {
		sent.Add(1)
		return &llm.Reply{Text: "re: " + req.Messages[0].Text, Finish: llm.FinishStop}, nil
	}}
	sess := &Session{Store: st, Models: map[llm.ModelName]llm.Model{"test/m": model}, Concurrency: 4}
	run, err := sess.Begin(ctx, Identity{Kind: "test", Config: "gather"})
	if err != nil {
		t.Fatal(err)
	}
	play := func() (Tally, map[string]string) {
		g := sess.Gather(run, "gen", 5)
		var mu sync.Mutex
		got := map[string]string{}
		var wg sync.WaitGroup
		for i := range 5 {
			wg.Go(func() {
				defer g.Done(ctx)
				tries := 1
				if i%2 == 1 {
					tries = 2 // callers 1 and 3 ask again, as a re-ask after an invalid reply
				}
				for r := range tries {
					text := fmt.Sprintf("caller %d try %d", i, r)
					res, err := g.Ask(ctx, Job{Key: text, Model: "test/m", Item: text, Request: llm.UserText("", text)})
					if err != nil || res == nil {
						t.Errorf("%s: %v, %v", text, res, err)
						return
					}
					mu.Lock()
					got[text] = res.Reply.Text
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		return g.Tally(), got
	}
	tally, got := play()
	if tally.Rounds != 2 || tally.Jobs != 7 || tally.Asked != 7 || sent.Load() != 7 {
		t.Errorf("tally %+v, %d sent; want 2 rounds of 5 and 2 jobs, all asked", tally, sent.Load())
	}
	for k, v := range got {
		if v != "re: "+k {
			t.Errorf("%s got %q; want its own reply", k, v)
		}
	}
	if len(got) != 7 {
		t.Errorf("%d replies; want 7", len(got))
	}
	tally, _ = play()
	if sent.Load() != 7 || tally.Resumed != 7 {
		t.Errorf("rerun: %d sent in all, tally %+v; want nothing more asked", sent.Load(), tally)
	}
}
