// Package queue runs a study's jobs on many machines: the jobs of a run are River jobs
// in the shared PostgreSQL store, and workers anywhere take them, ask the model with
// their own keys, and write each result in the same transaction that completes its job.
// Work whose requests depend on the replies before them (a court trial turn by turn, a
// transcript of a checklist judge run with its follow-ups) is one job (WorkArgs), run by
// one worker through the Work function its caller registered: the queue is a transport
// and knows nothing of courts or checklists.
//
// Beside River's tables the queue keeps three of its own: arbiter_workers (one row a
// worker, renewed by its heartbeat: the lease that lets another worker take over the
// jobs of a dead one), arbiter_slots (leased rows capping a model's requests in flight
// across every worker) and arbiter_buckets (one token bucket row a model and limit, for
// requests and tokens per minute shared by every worker).
package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// JobKind is the River kind of one request of a run.
const JobKind = "arbiter_ask"

// AskArgs is what a worker needs to answer one job. It never carries a key or secret:
// the worker opens the model the job's Spec names (its base model, with its own
// environment and config) and sends the request with the spec's parameters, as the
// enqueuing machine would have.
type AskArgs struct {
	Run   string `json:"run"`
	Key   string `json:"key"`
	Model string `json:"model"`
	// Spec is the model as data: the label Model, the provider model it asks and its
	// parameters. Jobs queued before specs were recorded lack it: their Model is then
	// opened as a plain model.
	Spec      *llm.Spec       `json:"spec,omitempty"`
	Item      string          `json:"item"`
	Replicate int             `json:"replicate"`
	Request   json.RawMessage `json:"request"`
	// CacheKey is the reply's key in the shared cache, scoped by the endpoint the run
	// named; empty for models run in process (never cached).
	CacheKey string `json:"cache_key,omitempty"`
	NoCache  bool   `json:"no_cache,omitempty"`
	// Retries is the run's --retries: how often the worker's reliability wrapper retries
	// a failed request before it is recorded as failed (-1: the worker's own setting).
	Retries int `json:"retries"`
	// Reader names how the reply is read into its stored outcome (the run's kind).
	Reader string `json:"reader,omitempty"`
}

// Kind is River's name for the job.
func (AskArgs) Kind() string { return JobKind }

// Queue is the River queue on a PostgreSQL store.
type Queue struct {
	st     *store.Store
	pool   *pgxpool.Pool
	client *river.Client[pgx.Tx] // insert-only
}

// lockKey is the advisory lock under which the queue's schema is brought up to date.
var lockKey = func() int64 {
	h := fnv.New64a()
	h.Write([]byte("arbiter queue schema"))
	return int64(h.Sum64() >> 1)
}()

const schemaSQL = `
CREATE TABLE IF NOT EXISTS arbiter_workers (
    id         TEXT PRIMARY KEY,
    host       TEXT NOT NULL,
    pid        INTEGER NOT NULL,
    started    TIMESTAMPTZ NOT NULL DEFAULT now(),
    heartbeat  TIMESTAMPTZ NOT NULL DEFAULT now(),
    jobs_done  BIGINT NOT NULL DEFAULT 0,
    stopped    BOOLEAN NOT NULL DEFAULT false
);
CREATE TABLE IF NOT EXISTS arbiter_slots (
    model    TEXT NOT NULL,
    slot     INTEGER NOT NULL,
    holder   TEXT,
    expires  TIMESTAMPTZ,
    PRIMARY KEY (model, slot)
);
CREATE TABLE IF NOT EXISTS arbiter_buckets (
    model    TEXT NOT NULL,
    kind     TEXT NOT NULL,
    tokens   DOUBLE PRECISION NOT NULL,
    updated  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (model, kind)
);`

// Open brings River's tables and the queue's own up to date (once, however many
// machines open at the same time) and returns the queue of st, which must be a
// PostgreSQL store.
func Open(ctx context.Context, st *store.Store) (*Queue, error) {
	if !st.Postgres() {
		return nil, errors.New("the queue needs a PostgreSQL store (--db postgres://…)")
	}
	pool := st.Pool()
	if err := migrate(ctx, pool); err != nil {
		return nil, err
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{Logger: quietLogger()})
	if err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	return &Queue{st: st, pool: pool, client: client}, nil
}

func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, lockKey); err != nil {
		return fmt.Errorf("queue: lock schema: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, lockKey)
	m, err := rivermigrate.New(riverpgxv5.New(pool), &rivermigrate.Config{Logger: quietLogger()})
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("queue: migrate River's tables: %w", err)
	}
	if _, err := conn.Exec(ctx, schemaSQL); err != nil {
		return fmt.Errorf("queue: create tables: %w", err)
	}
	return nil
}

// EnqueueOptions say how the jobs of a run are asked.
type EnqueueOptions struct {
	// Endpoint scopes the cache key of a model asked at a custom endpoint (may be nil).
	Endpoint func(llm.ModelName) string
	// Local names models run in process: never cached.
	Local   func(llm.ModelName) bool
	NoCache bool
	// Retries is the run's --retries, which workers honour (-1: each worker's own).
	Retries int
	// Reader names how replies are read into outcomes (the run's kind).
	Reader string
	// Spec is each model as data (nil: plain models).
	Spec func(llm.ModelName) llm.Spec
}

// Enqueue queues one job for each of jobs not yet answered in run, and marks the run
// queued, in one transaction. It returns how many jobs it queued; a job already queued
// and not finished is not queued twice.
func (q *Queue) Enqueue(ctx context.Context, run store.RunID, jobs []runner.Job, opt EnqueueOptions) (int, error) {
	answered, err := q.st.AnsweredKeys(ctx, run)
	if err != nil {
		return 0, err
	}
	params := make([]river.InsertManyParams, 0, len(jobs))
	for _, j := range jobs {
		if answered[j.Key] {
			continue
		}
		req, err := json.Marshal(j.Request)
		if err != nil {
			return 0, fmt.Errorf("enqueue %s: %w", j.Key, err)
		}
		a := AskArgs{Run: string(run), Key: j.Key, Model: string(j.Model), Item: j.Item, Replicate: j.Replicate,
			Request: req, NoCache: opt.NoCache, Retries: opt.Retries, Reader: opt.Reader}
		if opt.Spec != nil {
			if sp := opt.Spec(j.Model); sp.IsVariant() {
				a.Spec = &sp
			}
		}
		if opt.Local == nil || !opt.Local(j.Model) {
			ep := ""
			if opt.Endpoint != nil {
				ep = opt.Endpoint(j.Model)
			}
			a.CacheKey = store.CacheKey(j.Model, ep, j.Request.Hash(), j.Replicate)
		}
		params = append(params, river.InsertManyParams{Args: a, InsertOpts: unfinished})
	}
	return q.insert(ctx, run, params)
}

// unfinished makes a job unique among the jobs not yet finished: queued again while one
// with the same arguments waits or runs, it is not inserted twice.
var unfinished = &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateRetryable, rivertype.JobStateScheduled}}}

// insert marks run queued (done when it has nothing left) and inserts its jobs, in one
// transaction; it returns how many it inserted.
func (q *Queue) insert(ctx context.Context, run store.RunID, params []river.InsertManyParams) (int, error) {
	tx, err := q.pool.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("enqueue run %s: %w", run, err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	status := store.StatusQueued
	if len(params) == 0 {
		status = store.StatusDone
	}
	mark := q.st.QueueRunStmt(run, status)
	if _, err := tx.Exec(ctx, mark.Query, mark.Args...); err != nil {
		return 0, fmt.Errorf("enqueue run %s: %w", run, err)
	}
	if len(params) > 0 {
		if _, err := q.client.InsertManyTx(ctx, tx, params); err != nil {
			return 0, fmt.Errorf("enqueue run %s: %w", run, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("enqueue run %s: %w", run, err)
	}
	return len(params), nil
}

// Pending counts the jobs of run (every run when run is "") queued or held by a worker.
func (q *Queue) Pending(ctx context.Context, run store.RunID) (int, error) {
	var n int
	err := q.pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = ANY($1)
		AND state IN ('available', 'pending', 'running', 'retryable', 'scheduled')
		AND ($2 = '' OR args->>'run' = $2)`, jobKinds, string(run)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("queue: count jobs: %w", err)
	}
	return n, nil
}

// WorkerInfo is one worker as the workers table records it.
type WorkerInfo struct {
	ID, Host  string
	PID       int
	Started   string
	Heartbeat string
	JobsDone  int64
	Alive     bool
}

// Workers lists the workers seen, most recent heartbeat first; Alive means its lease
// still holds.
func (q *Queue) Workers(ctx context.Context) ([]WorkerInfo, error) { return Workers(ctx, q.st) }

// Workers lists the workers seen on st without opening the queue: nil on a SQLite
// store or one no queue was ever opened on, empty when no worker came yet.
func Workers(ctx context.Context, st *store.Store) ([]WorkerInfo, error) {
	if !st.Postgres() {
		return nil, nil
	}
	var exists bool
	if err := st.Pool().QueryRow(ctx, `SELECT to_regclass('arbiter_workers') IS NOT NULL`).Scan(&exists); err != nil || !exists {
		return nil, err
	}
	rows, err := st.Pool().Query(ctx, `SELECT id, host, pid, to_char(started AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
		to_char(heartbeat AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), jobs_done,
		NOT stopped AND heartbeat > now() - make_interval(secs => $1)
		FROM arbiter_workers ORDER BY heartbeat DESC`, DefaultLease.Seconds())
	if err != nil {
		return nil, fmt.Errorf("queue: list workers: %w", err)
	}
	ws, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (WorkerInfo, error) {
		var w WorkerInfo
		err := r.Scan(&w.ID, &w.Host, &w.PID, &w.Started, &w.Heartbeat, &w.JobsDone, &w.Alive)
		return w, err
	})
	if err == nil && ws == nil {
		ws = []WorkerInfo{} // the queue exists, no worker has come yet
	}
	return ws, err
}
