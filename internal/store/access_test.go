package store

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// Game tokens open only their own game, with their own access; the list of a caller's
// games holds only the games its tokens open.
func TestCourtGameTokens(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ctx := context.Background()
		s := open(t, fresh(t))
		for _, id := range []string{"g1", "g2"} {
			if err := s.PutCourtGame(ctx, &CourtGame{ID: id, CaseID: "c", State: []byte(`{}`)}); err != nil {
				t.Fatal(err)
			}
		}
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(s.PutCourtGameToken(ctx, "g1", "h-play", GamePlay))
		must(s.PutCourtGameToken(ctx, "g1", "h-watch", GameWatch))
		must(s.PutCourtGameToken(ctx, "g2", "h-other", GamePlay))
		if a, err := s.CourtGameAccess(ctx, "g1", "h-watch"); err != nil || a != GameWatch {
			t.Errorf("CourtGameAccess(g1, watch) = %q, %v; want watch", a, err)
		}
		if _, err := s.CourtGameAccess(ctx, "g1", "h-other"); !errors.Is(err, ErrNotFound) {
			t.Errorf("CourtGameAccess(g1, another game's token) = %v; want ErrNotFound", err)
		}
		gs, err := s.CourtGamesOf(ctx, []string{"h-play", "h-watch", "nothing"})
		if err != nil || len(gs) != 1 || gs[0].ID != "g1" {
			t.Errorf("CourtGamesOf(g1's tokens) = %v, %v; want g1 alone", gs, err)
		}
	})
}

// A stored case is never replaced by another with its id; the list pages.
func TestAddCourtCaseCreatesOnly(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ctx := context.Background()
		s := open(t, fresh(t))
		if err := s.AddCourtCase(ctx, CourtCase{ID: "a", Origin: CaseSaved, Record: []byte(`{"v":1}`)}); err != nil {
			t.Fatal(err)
		}
		if err := s.AddCourtCase(ctx, CourtCase{ID: "a", Origin: CaseSaved, Record: []byte(`{"v":2}`)}); !errors.Is(err, ErrExists) {
			t.Fatalf("AddCourtCase(a again) = %v; want ErrExists", err)
		}
		c, err := s.CourtCase(ctx, "a")
		if err != nil || string(c.Record) != `{"v":1}` {
			t.Fatalf("case a = %v, %v; want the first record kept", c, err)
		}
		if err := s.AddCourtCase(ctx, CourtCase{ID: "b", Origin: CaseSaved, Record: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
		ids, total, err := s.CourtCaseIDs(ctx, 1, 1)
		if err != nil || total != 2 || len(ids) != 1 {
			t.Errorf("CourtCaseIDs(1, 1) = %v, %d, %v; want one id of two", ids, total, err)
		}
	})
}

// Usage adds up provider replies only, per model, over every run.
func TestUsageByModel(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ctx := context.Background()
		s := open(t, fresh(t))
		beginRun(t, s, "r1")
		beginRun(t, s, "r2")
		put := func(run RunID, key string, src Source, in, out int64, failed string) {
			r := &Result{RunID: run, JobKey: key, Model: "openai/m", Item: "i", RequestHash: "h", Source: src, Err: failed,
				Reply: llm.Reply{Usage: llm.Usage{InputTokens: in, OutputTokens: out}}}
			if err := s.PutResults(ctx, []*Result{r}, nil); err != nil {
				t.Fatal(err)
			}
		}
		put("r1", "a", SourceProvider, 10, 5, "")
		put("r2", "a", SourceProvider, 1, 2, "")
		put("r2", "b", SourceCache, 100, 100, "")
		put("r2", "c", SourceProvider, 100, 100, "boom")
		us, err := s.UsageByModel(ctx)
		if err != nil || len(us) != 1 || us[0].InputTokens != 11 || us[0].OutputTokens != 7 {
			t.Errorf("UsageByModel = %+v, %v; want openai/m 11 in, 7 out", us, err)
		}
	})
}

// A hold recorded for a side of a game is taken once, by one of two stores taking it at
// once; called twice before it is taken it is still one; each side and game has its own.
func TestCourtHoldsTakenOnce(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ctx := context.Background()
		loc := fresh(t)
		a, b := open(t, loc), open(t, loc)
		take := func(s *Store, id, side string) bool {
			t.Helper()
			ok, err := s.TakeCourtHold(ctx, id, side)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if take(a, "g1", "defense") {
			t.Fatal("TakeCourtHold with none recorded = true")
		}
		for range 2 {
			if err := b.RequestCourtHold(ctx, "g1", "defense"); err != nil {
				t.Fatal(err)
			}
		}
		if take(a, "g1", "prosecution") || take(a, "g2", "defense") {
			t.Error("a hold was taken for another side or game")
		}
		if !take(a, "g1", "defense") {
			t.Fatal("the recorded hold was not taken")
		}
		if take(b, "g1", "defense") {
			t.Error("a hold called twice was taken twice")
		}
		for round := range 10 {
			if err := b.RequestCourtHold(ctx, "g1", "prosecution"); err != nil {
				t.Fatal(err)
			}
			var n atomic.Int64
			var wg sync.WaitGroup
			for _, s := range []*Store{a, b, a, b} {
				wg.Go(func() {
					if ok, err := s.TakeCourtHold(ctx, "g1", "prosecution"); err != nil {
						t.Error(err)
					} else if ok {
						n.Add(1)
					}
				})
			}
			wg.Wait()
			if n.Load() != 1 {
				t.Fatalf("round %d: the hold was taken %d times by four takers at once; want once", round, n.Load())
			}
		}
	})
}
