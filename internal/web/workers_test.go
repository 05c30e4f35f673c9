package web

import (
	"context"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/queue"
	"github.com/arbiter-eval/arbiter/internal/store"
	"github.com/arbiter-eval/arbiter/internal/store/storetest"
)

// TestRunsPageShowsQueueAndWorkers: on a PostgreSQL store the runs page shows a queued
// run's status and the workers table; a SQLite store shows no workers table.
func TestRunsPageShowsQueueAndWorkers(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.PostgresDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := queue.Open(ctx, st); err != nil {
		t.Fatal(err)
	}
	if _, err := st.BeginRun(ctx, store.Run{ID: "seduce-queued1", Kind: "seduce", Config: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	if err := st.EndRun(ctx, "seduce-queued1", store.StatusQueued); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `INSERT INTO arbiter_workers(id, host, pid, jobs_done) VALUES ('w-1', 'gpu-box-7', 4242, 17)`); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	a := get(t, s.Handler(), "/")
	if a.status != 200 || rows(t, a.body, "workers") != 1 || !strings.Contains(a.body, "gpu-box-7") ||
		!strings.Contains(a.body, "status-queued") || !strings.Contains(a.body, "alive") {
		t.Fatalf("status %d, workers rows %d\n%s", a.status, rows(t, a.body, "workers"), a.body)
	}
	f := newFixture(t)
	if b := get(t, f.server(t).Handler(), "/"); rows(t, b.body, "workers") != -1 {
		t.Fatal("a SQLite store shows a workers table")
	}
}
