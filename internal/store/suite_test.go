package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store/storetest"
)

// eachStore runs test once against a SQLite store and once against a PostgreSQL one
// (skipped without ARBITER_TEST_POSTGRES, failed without it under
// ARBITER_REQUIRE_POSTGRES=1). fresh returns the location of a new, empty store each
// time it is called; opening it twice gives two Stores on one database.
func eachStore(t *testing.T, test func(t *testing.T, fresh func(*testing.T) string)) {
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		n := 0
		test(t, func(t *testing.T) string {
			n++
			return filepath.Join(t.TempDir(), fmt.Sprintf("s%d.db", n))
		})
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		storetest.PostgresDSN(t) // skip or fail at once when there is no server
		test(t, func(t *testing.T) string { return storetest.PostgresDSN(t) })
	})
}

func beginRun(t *testing.T, s *Store, id RunID) {
	t.Helper()
	if _, err := s.BeginRun(context.Background(), Run{ID: id, Kind: "seduce", Config: []byte(`{}`), Version: "t"}); err != nil {
		t.Fatal(err)
	}
}

// Two writers racing on one job key, each from its own Store (two machines), leave one
// row: the key is the primary key and the write an upsert.
func TestConcurrentWritersKeepOneRow(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ctx := context.Background()
		dsn := fresh(t)
		a, b := open(t, dsn), open(t, dsn)
		beginRun(t, a, "r")
		var wg sync.WaitGroup
		errs := make(chan error, 40)
		for i := range 20 {
			for _, s := range []*Store{a, b} {
				wg.Go(func() {
					r := &Result{RunID: "r", JobKey: "same", Model: "a/b", Item: "i", RequestHash: "h", Reply: llm.Reply{Text: fmt.Sprint(i)}}
					other := &Result{RunID: "r", JobKey: fmt.Sprintf("k%02d", i), Model: "a/b", Item: "i", RequestHash: "h"}
					errs <- s.PutResults(ctx, []*Result{other, r}, []string{"c" + fmt.Sprint(i), "shared"})
				})
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("concurrent PutResults = %v", err)
			}
		}
		var n int
		if err := a.db.QueryRowContext(ctx, `SELECT count(*) FROM results WHERE run_id = ? AND job_key = ?`, "r", "same").Scan(&n); err != nil || n != 1 {
			t.Fatalf("rows of job same = %d, %v; want 1", n, err)
		}
		if st, err := b.RunStats(ctx, "r"); err != nil || st.Jobs != 21 || st.Answered != 21 {
			t.Fatalf("RunStats = %+v, %v; want 21 answered jobs", st, err)
		}
	})
}

// A reply cached through one Store answers for another on the same database: the cache
// is the team's, not the machine's.
func TestCacheSharedAcrossStores(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ctx := context.Background()
		dsn := fresh(t)
		a, b := open(t, dsn), open(t, dsn)
		beginRun(t, a, "first")
		key := CacheKey("openai/x", "", "h", 0)
		if _, hit, err := b.CachedReply(ctx, key); err != nil || hit {
			t.Fatalf("CachedReply before = %v, %v; want a miss", hit, err)
		}
		r := &Result{RunID: "first", JobKey: "j", Model: "openai/x", Item: "i", RequestHash: "h",
			Reply: llm.Reply{Text: "paid once", Usage: llm.Usage{InputTokens: 7}, Raw: []byte(`{"id":1}`)}}
		if err := a.PutResults(ctx, []*Result{r}, []string{key}); err != nil {
			t.Fatal(err)
		}
		got, hit, err := b.CachedReply(ctx, key)
		if err != nil || !hit || got.Text != "paid once" || got.Usage.InputTokens != 7 || string(got.Raw) != `{"id":1}` {
			t.Fatalf("CachedReply on the second store = %+v, %v, %v; want the first store's reply", got, hit, err)
		}
	})
}

// CachedReplies answers a batch of keys in one query: exactly the keys with a reply, each
// with its own reply, as CachedReply would give it.
func TestCachedRepliesBatch(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ctx := context.Background()
		s := open(t, fresh(t))
		beginRun(t, s, "r")
		var results []*Result
		var keys []string
		for i := range 5 {
			k := fmt.Sprintf("j%d", i)
			results = append(results, &Result{RunID: "r", JobKey: k, Model: "openai/x", Item: k, RequestHash: "h" + k,
				Reply: llm.Reply{Text: "t" + k, Usage: llm.Usage{InputTokens: int64(i)}}})
			keys = append(keys, CacheKey("openai/x", "", "h"+k, 0))
		}
		if err := s.PutResults(ctx, results, keys); err != nil {
			t.Fatal(err)
		}
		ask := []string{keys[4], CacheKey("openai/x", "", "missing", 0), keys[0], keys[2]}
		got, err := s.CachedReplies(ctx, ask)
		if err != nil || len(got) != 3 {
			t.Fatalf("CachedReplies = %d replies, %v; want 3", len(got), err)
		}
		for _, i := range []int{0, 2, 4} {
			r := got[keys[i]]
			if r == nil || r.Text != fmt.Sprintf("tj%d", i) || r.Usage.InputTokens != int64(i) {
				t.Errorf("CachedReplies[%s] = %+v; want the reply of j%d", keys[i], r, i)
			}
		}
		if _, err := s.db.ExecContext(ctx, `UPDATE cache SET reply = ? WHERE key = ?`, []byte("{not json"), keys[2]); err != nil {
			t.Fatal(err)
		}
		if got, err := s.CachedReplies(ctx, ask); err != nil || len(got) != 2 || got[keys[2]] != nil {
			t.Errorf("CachedReplies with a broken entry = %d replies, %v; want the other 2, the broken one a miss", len(got), err)
		}
		// More keys than one query takes: the hits at either end and in the middle of
		// 1,200 keys are all found.
		var many []string
		for i := range 1200 {
			many = append(many, CacheKey("openai/x", "", fmt.Sprintf("absent-%d", i), 0))
		}
		many[0], many[600], many[1199] = keys[0], keys[1], keys[3]
		if got, err := s.CachedReplies(ctx, many); err != nil || len(got) != 3 || got[keys[1]] == nil {
			t.Errorf("CachedReplies over 1,200 keys = %d replies, %v; want 3", len(got), err)
		}
		if none, err := s.CachedReplies(ctx, nil); err != nil || len(none) != 0 {
			t.Errorf("CachedReplies(nil) = %v, %v; want an empty map", none, err)
		}
	})
}

// ResultStmts are what PutResult runs: run in a transaction of the caller's own, they
// write the result, its cache entry and release the claim exactly as PutResult does.
func TestResultStmtsMatchPutResult(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ctx := context.Background()
		s := open(t, fresh(t))
		beginRun(t, s, "r")
		h := Holder("host:1:w")
		if _, err := s.Claim(ctx, "r", h, []string{"a", "b"}, time.Now(), time.Minute); err != nil {
			t.Fatal(err)
		}
		mk := func(k string) ResultWrite {
			return ResultWrite{Result: &Result{RunID: "r", JobKey: k, Model: "m/x", Item: k, RequestHash: "h" + k, Reply: llm.Reply{Text: "t" + k}},
				CacheKey: "c" + k, Holder: h}
		}
		if err := s.PutResult(ctx, mk("a")); err != nil {
			t.Fatal(err)
		}
		stmts, err := s.ResultStmts(mk("b"))
		if err != nil || len(stmts) != 3 {
			t.Fatalf("ResultStmts = %d statements, %v; want 3 (result, cache, release)", len(stmts), err)
		}
		for _, st := range stmts {
			if strings.Contains(st.Query, "?") == s.Postgres() {
				t.Errorf("statement %q is not in the store's dialect", st.Query)
			}
		}
		tx, err := s.db.DB.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range stmts {
			if _, err := tx.ExecContext(ctx, st.Query, st.Args...); err != nil {
				t.Fatalf("exec %q: %v", st.Query, err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"a", "b"} {
			r, err := s.Result(ctx, "r", k)
			if err != nil || r.Reply.Text != "t"+k {
				t.Errorf("Result(%s) = %+v, %v", k, r, err)
			}
			if c, hit, err := s.CachedReply(ctx, "c"+k); err != nil || !hit || c.Text != "t"+k {
				t.Errorf("CachedReply(c%s) = %v, %v, %v", k, c, hit, err)
			}
		}
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM claims WHERE run_id = 'r'`).Scan(&n); err != nil || n != 0 {
			t.Errorf("claims left = %d, %v; want both released", n, err)
		}
	})
}

func TestRunsListedAndEnded(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ctx := context.Background()
		s := open(t, fresh(t))
		beginRun(t, s, "seduce-1")
		time.Sleep(2 * time.Millisecond) // started_at orders the list
		if _, err := s.BeginRun(ctx, Run{ID: "check-1", Kind: "check-judge", Config: []byte(`{"b":2}`), Version: "t", PromptText: "p"}); err != nil {
			t.Fatal(err)
		}
		if err := s.EndRun(ctx, "seduce-1", StatusDone); err != nil {
			t.Fatal(err)
		}
		all, err := s.Runs(ctx, "")
		if err != nil || len(all) != 2 || all[0].ID != "check-1" || all[1].Status != StatusDone || all[1].EndedAt.IsZero() {
			t.Fatalf("Runs = %v, %v; want check-1 first, seduce-1 done", all, err)
		}
		if string(all[0].Config) != `{"b":2}` || all[0].PromptText != "p" || all[0].ConfigHash != Hash([]byte(`{"b":2}`)) {
			t.Errorf("run check-1 = %+v", all[0])
		}
		one, err := s.Runs(ctx, "seduce")
		if err != nil || len(one) != 1 {
			t.Fatalf("Runs(seduce) = %v, %v", one, err)
		}
		if _, err := s.ResolveRun(ctx, "court", ""); !errors.Is(err, ErrNoRuns) {
			t.Errorf("ResolveRun(court) = %v; want ErrNoRuns", err)
		}
		if avg, n, err := s.OutputHistory(ctx, "a/b"); err != nil || n != 0 || avg != 0 {
			t.Errorf("OutputHistory of nothing = %v, %d, %v", avg, n, err)
		}
		if err := s.PutResults(ctx, []*Result{
			{RunID: "seduce-1", JobKey: "x", Model: "a/b", Item: "1", RequestHash: "h", Reply: llm.Reply{Usage: llm.Usage{OutputTokens: 10}}, Source: SourceProvider},
			{RunID: "seduce-1", JobKey: "y", Model: "a/b", Item: "2", RequestHash: "h", Reply: llm.Reply{Usage: llm.Usage{OutputTokens: 20}}, Source: SourceProvider},
			{RunID: "seduce-1", JobKey: "z", Model: "a/b", Item: "3", RequestHash: "h", Reply: llm.Reply{Usage: llm.Usage{OutputTokens: 90}}, Source: SourceCache},
		}, nil); err != nil {
			t.Fatal(err)
		}
		if avg, n, err := s.OutputHistory(ctx, "a/b"); err != nil || n != 2 || avg != 15 {
			t.Errorf("OutputHistory = %v, %d, %v; want 15 over 2 provider replies", avg, n, err)
		}
		got, err := s.AnsweredAmong(ctx, "seduce-1", []string{"x", "z", "nope"})
		if err != nil || len(got) != 2 || !got["x"] || !got["z"] {
			t.Errorf("AnsweredAmong = %v, %v", got, err)
		}
	})
}

func TestBatchesInOrder(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ctx := context.Background()
		s := open(t, fresh(t))
		for i, id := range []string{"zz", "aa", "mm"} {
			if err := s.PutBatch(ctx, Batch{Run: "r", ID: id, Model: "openai/x", Attempt: i + 1, Keys: []string{"k" + id}, Status: "submitted"}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.SetBatchStatus(ctx, "r", "aa", "ended", true); err != nil {
			t.Fatal(err)
		}
		if err := s.SetBatchStatus(ctx, "r", "mm", "in_progress", false); err != nil {
			t.Fatal(err)
		}
		bs, err := s.Batches(ctx, "r")
		if err != nil || len(bs) != 3 {
			t.Fatalf("Batches = %v, %v", bs, err)
		}
		var got []string
		for _, b := range bs {
			got = append(got, fmt.Sprintf("%s/%d/%s/%v/%v", b.ID, b.Attempt, b.Status, b.Ended, b.Keys))
		}
		want := "zz/1/submitted/false/[kzz] aa/2/ended/true/[kaa] mm/3/in_progress/false/[kmm]"
		if strings.Join(got, " ") != want {
			t.Errorf("Batches = %s; want %s", strings.Join(got, " "), want)
		}
	})
}

func TestCourtCasesAndGames(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ctx := context.Background()
		s := open(t, fresh(t))
		rec := json.RawMessage(`{"id":"c1","title":"Theft"}`)
		if err := s.PutCourtCase(ctx, CourtCase{ID: "c1", Origin: CaseGenerated, Prior: "theft", Model: "a/b", Record: rec}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutCourtCase(ctx, CourtCase{ID: "c1", Origin: CaseSaved, Record: rec}); err != nil {
			t.Fatal(err)
		}
		c, err := s.CourtCase(ctx, "c1")
		if err != nil || c.Origin != CaseSaved || string(c.Record) != string(rec) {
			t.Fatalf("CourtCase = %+v, %v; want the saved replacement", c, err)
		}
		if err := s.DeleteCourtCase(ctx, "c1"); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteCourtCase(ctx, "c1"); !errors.Is(err, ErrNotFound) {
			t.Errorf("DeleteCourtCase twice = %v; want ErrNotFound", err)
		}
		g := &CourtGame{ID: "g1", CaseID: "c1", Title: "Theft", Run: "court-1", Phase: "opening", Turns: 1, State: json.RawMessage(`{"seed":1}`)}
		if err := s.PutCourtGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		g.Phase, g.Turns, g.Outcome = "verdict", 9, "acquitted"
		if err := s.PutCourtGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		gs, err := s.CourtGames(ctx)
		if err != nil || len(gs) != 1 || gs[0].Phase != "verdict" || gs[0].Turns != 9 || gs[0].Outcome != "acquitted" || gs[0].Run != "court-1" {
			t.Fatalf("CourtGames = %+v, %v", gs, err)
		}
		if _, err := s.CourtGame(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("CourtGame(nope) = %v; want ErrNotFound", err)
		}
	})
}

func TestReviewProjectRoundTrip(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ctx := context.Background()
		s := open(t, fresh(t))
		p := ReviewProject{ID: "p1", DatasetName: "d", Format: "jsonl", Data: []byte("{\"id\":\"s1\"}\n\x00\xff"), Reviewers: []string{"ann", "bob"}, Seed: 1 << 40}
		as := []ReviewAssignment{{"s1", "ann", 1, 0}, {"s1", "bob", 2, 0}}
		if err := s.CreateReviewProject(ctx, p, as); err != nil {
			t.Fatal(err)
		}
		got, err := s.ReviewProject(ctx, "p1")
		if err != nil || string(got.Data) != string(p.Data) || got.Seed != p.Seed || len(got.Reviewers) != 2 {
			t.Fatalf("ReviewProject = %+v, %v", got, err)
		}
		d := ReviewDecision{SampleID: "s1", Reviewer: "ann", Role: RoleReview, Decision: "correct", Changes: map[string]string{"label": "roll"}}
		for i, want := range []bool{true, false} {
			if changed, err := s.PutReviewDecision(ctx, "p1", d); err != nil || changed != want {
				t.Fatalf("PutReviewDecision #%d = %v, %v; want %v", i+1, changed, err, want)
			}
		}
		if changed, err := s.DeleteReviewDecision(ctx, "p1", "s1", "ann", RoleReview); err != nil || !changed {
			t.Fatalf("DeleteReviewDecision = %v, %v", changed, err)
		}
		ev, err := s.ReviewAudit(ctx, "p1")
		if err != nil || len(ev) != 2 || ev[0].Action != "decide" || ev[1].Action != "undo" || ev[0].Seq >= ev[1].Seq || ev[1].Before.Changes["label"] != "roll" {
			t.Fatalf("ReviewAudit = %+v, %v", ev, err)
		}
		if err := s.PutReviewToken(ctx, "p1", "bob", "hash-b"); err != nil {
			t.Fatal(err)
		}
		if who, err := s.ReviewerByToken(ctx, "p1", "hash-b"); err != nil || who != "bob" {
			t.Errorf("ReviewerByToken = %q, %v", who, err)
		}
		if err := s.CreateReviewProject(ctx, ReviewProject{ID: "p2", Format: "csv", Data: []byte{}}, []ReviewAssignment{{"s", "a", 1, 0}, {"s", "b", 1, 1}}); err == nil {
			t.Error("two reviewers in one slot were stored")
		}
		if _, err := s.ReviewProject(ctx, "p2"); !errors.Is(err, ErrNotFound) {
			t.Errorf("a project whose assignments failed was kept: %v", err)
		}
	})
}

// OpenExisting refuses a location with no store, on either engine, and creates nothing.
func TestOpenExistingRefusesNoStore(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		dsn := fresh(t)
		if s, err := OpenExisting(context.Background(), dsn); !errors.Is(err, ErrNoStore) {
			if s != nil {
				s.Close()
			}
			t.Fatalf("OpenExisting(fresh) = %v; want ErrNoStore", err)
		}
		open(t, dsn).Close()
		s, err := OpenExisting(context.Background(), dsn)
		if err != nil {
			t.Fatalf("OpenExisting after Open = %v", err)
		}
		s.Close()
	})
}

// The store's tables must not collide with River's (river_job, river_leader, …), which
// share a PostgreSQL database with them.
func TestNoTableCollidesWithRiver(t *testing.T) {
	for _, dir := range []string{"migrations", "migrations/postgres"} {
		names, _ := migrations.ReadDir(dir)
		for _, n := range names {
			if n.IsDir() {
				continue
			}
			b, err := migrations.ReadFile(dir + "/" + n.Name())
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(strings.ToLower(string(b)), "table river") {
				t.Errorf("%s/%s creates a river_ table", dir, n.Name())
			}
		}
	}
	// Both engines apply the same migrations under the same names.
	sq, _ := migrations.ReadDir("migrations")
	pg, _ := migrations.ReadDir("migrations/postgres")
	var a, b []string
	for _, e := range sq {
		if !e.IsDir() {
			a = append(a, e.Name())
		}
	}
	for _, e := range pg {
		b = append(b, e.Name())
	}
	if strings.Join(a, " ") != strings.Join(b, " ") {
		t.Errorf("SQLite migrations %v, PostgreSQL migrations %v; want the same names", a, b)
	}
}

// Two machines claiming the same jobs at once never both get one: every job is claimed
// by exactly one of them.
func TestClaimsDisjointAcrossStores(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ctx := context.Background()
		dsn := fresh(t)
		stores := []*Store{open(t, dsn), open(t, dsn), open(t, dsn)}
		beginRun(t, stores[0], "r")
		var keys []string
		for i := range 300 {
			keys = append(keys, fmt.Sprintf("k%03d", i))
		}
		var mu sync.Mutex
		owner := map[string]int{}
		var wg sync.WaitGroup
		errs := make(chan error, len(stores)*4)
		for n, s := range stores {
			for part := range 4 {
				wg.Go(func() {
					// Each machine claims in its own order, in overlapping chunks.
					ks := slicesRotate(keys, (n*97+part*41)%len(keys))[:200]
					got, err := s.Claim(ctx, "r", Holder(fmt.Sprintf("host:%d:x", n)), ks, time.Now(), time.Minute)
					if err != nil {
						errs <- err
						return
					}
					mu.Lock()
					defer mu.Unlock()
					for _, c := range got {
						if c.State != Claimed {
							continue
						}
						if o, ok := owner[c.Key]; ok && o != n {
							errs <- fmt.Errorf("job %s claimed by machines %d and %d", c.Key, o, n)
						}
						owner[c.Key] = n
					}
				})
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if len(owner) != len(keys) {
			t.Errorf("%d of %d jobs claimed; want every one", len(owner), len(keys))
		}
	})
}

func slicesRotate(s []string, n int) []string {
	return append(append([]string{}, s[n:]...), s[:n]...)
}

// A PostgreSQL URL's password never reaches an error or Path.
func TestPostgresPasswordStaysOut(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := Open(ctx, "postgres://arbiter:sekrit-pw@127.0.0.1:1/nothing?sslmode=disable&connect_timeout=2")
	if err == nil {
		t.Fatal("Open of a closed port succeeded")
	}
	if strings.Contains(err.Error(), "sekrit-pw") {
		t.Errorf("error shows the password: %v", err)
	}
	if _, err := Open(ctx, "postgres://arbiter:sekrit-pw@[bad"); err == nil || strings.Contains(err.Error(), "sekrit-pw") {
		t.Errorf("Open(unreadable URL) = %v; want an error without the password", err)
	}
}

// Two processes playing one game (a server and a terminal, two Stores on one database)
// save it by compare-and-swap: of two saves made over the same read, the second is
// ErrConflict and leaves the first's game; a save over the latest stamp is kept.
func TestCourtGameSaveConflict(t *testing.T) {
	eachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ctx := context.Background()
		loc := fresh(t)
		a, b := open(t, loc), open(t, loc)
		g := &CourtGame{ID: "g1", CaseID: "c1", Run: "court-1", Phase: "introduction", Turns: 3, State: json.RawMessage(`{"by":"new"}`)}
		made, err := a.SaveCourtGame(ctx, g, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		read, turns, err := b.CourtGameSaved(ctx, "g1")
		if err != nil || !read.Equal(made) || turns != 3 {
			t.Fatalf("CourtGameSaved = %v, %d, %v; want %v, 3", read, turns, err, made)
		}
		first := *g
		first.Turns, first.State = 4, json.RawMessage(`{"by":"a"}`)
		next, err := a.SaveCourtGame(ctx, &first, made)
		if err != nil || !next.After(made) {
			t.Fatalf("the first save over %v = %v, %v", made, next, err)
		}
		second := *g
		second.Turns, second.State = 4, json.RawMessage(`{"by":"b"}`)
		if _, err := b.SaveCourtGame(ctx, &second, read); !errors.Is(err, ErrConflict) {
			t.Fatalf("the second save over the same read = %v; want ErrConflict", err)
		}
		got, err := b.CourtGame(ctx, "g1")
		if err != nil || string(got.State) != `{"by":"a"}` || !got.Updated.Equal(next) {
			t.Fatalf("stored %s at %v (%v); want the first save's, at %v", got.State, got.Updated, err, next)
		}
		second.Turns = 5
		if _, err := b.SaveCourtGame(ctx, &second, got.Updated); err != nil {
			t.Errorf("a save over the latest stamp = %v", err)
		}
		gone := *g
		gone.ID = "nope"
		if _, err := a.SaveCourtGame(ctx, &gone, next); !errors.Is(err, ErrConflict) {
			t.Errorf("a save over a game that is not stored = %v; want ErrConflict", err)
		}
	})
}
