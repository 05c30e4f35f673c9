package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// sourceStore is the source a worker reports for a job the store had answered already.
const sourceStore store.Source = "store"

// DefaultLease is how long a worker's heartbeat holds its jobs and limit slots: a
// worker silent that long is dead, and its running jobs go back to the queue.
const DefaultLease = 15 * time.Second

// DefaultHeartbeat is how often a live worker renews its lease and looks for the jobs
// of dead workers.
const DefaultHeartbeat = 3 * time.Second

// Limit caps one model across every worker; zero fields mean no cap.
type Limit struct {
	Concurrency int
	RPM, TPM    float64
}

// WorkerConfig is how a worker answers jobs.
type WorkerConfig struct {
	// Concurrency is the most jobs this worker works at once (default 8).
	Concurrency int
	// Model opens a provider model (a spec's Base, never a label) with the worker's own
	// environment and config, wrapped to retry a failed request retries times (-1: the
	// worker's default); it is called once per model and retries. The worker adds a
	// variant's parameters itself (llm.Spec.Open).
	Model func(name llm.ModelName, retries int) (llm.Model, error)
	// Limits caps models across all workers, by label.
	Limits map[string]Limit
	// Readers open, by a run's kind, the reader that turns a reply into its stored
	// outcome, from the reading the run recorded (may be nil: no outcomes). A worker
	// reads every run as the machine that began it did, whatever its own settings.
	Readers map[store.Kind]func(*store.Run) (func(*llm.Reply) string, error)
	// Work runs a queued unit of work (WorkArgs), by its Of (may be nil).
	Work map[string]Work
	// ExitWhenIdle stops the worker once no job is queued or held by any worker.
	ExitWhenIdle bool
	// Heartbeat and Lease default to DefaultHeartbeat and DefaultLease.
	Heartbeat, Lease time.Duration
	Host             string
	Log              *slog.Logger
	// OnJob, when set, hears of each job finished by this worker (for progress).
	OnJob func(source string)
}

// WorkStats counts what one worker did.
type WorkStats struct {
	// Done counts the jobs this worker completed; Asked were sent to a model, Cached
	// came from the shared cache, Already were answered before it took them.
	Done, Asked, Cached, Already, Failed int64
}

// Work runs a worker until ctx ends or, with ExitWhenIdle, the queue is empty. Jobs in
// flight when ctx ends go back to the queue unanswered.
func (q *Queue) Work(ctx context.Context, cfg WorkerConfig) (WorkStats, error) {
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 8
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = DefaultHeartbeat
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Host == "" {
		cfg.Host, _ = os.Hostname()
	}
	id := string(store.NewHolder())
	w := &asker{q: q, cfg: cfg, id: id, models: map[modelKey]llm.Model{}, readers: map[string]func(*llm.Reply) string{}}
	if _, err := q.pool.Exec(ctx, `INSERT INTO arbiter_workers(id, host, pid) VALUES ($1, $2, $3)`, id, cfg.Host, os.Getpid()); err != nil {
		return WorkStats{}, fmt.Errorf("worker: register: %w", err)
	}
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, w); err != nil {
		return WorkStats{}, fmt.Errorf("worker: %w", err)
	}
	if err := river.AddWorkerSafely(workers, &worker{asker: w}); err != nil {
		return WorkStats{}, fmt.Errorf("worker: %w", err)
	}
	client, err := river.NewClient(riverpgxv5.New(q.pool), &river.Config{
		ID:                id,
		Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cfg.Concurrency}},
		Workers:           workers,
		Logger:            quietLogger(),
		JobTimeout:        -1, // requests have their own timeouts; the lease is the heartbeat
		FetchCooldown:     5 * time.Millisecond,
		FetchPollInterval: 20 * time.Millisecond, // a freed slot is filled soon: River fetches on this tick
		MaxAttempts:       25,
	})
	if err != nil {
		return WorkStats{}, fmt.Errorf("worker: %w", err)
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	if err := client.Start(runCtx); err != nil {
		return WorkStats{}, fmt.Errorf("worker: start: %w", err)
	}
	var wg sync.WaitGroup
	wg.Go(func() { w.beat(runCtx) })
	if cfg.ExitWhenIdle {
		wg.Go(func() {
			idle := 0
			t := time.NewTicker(200 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-runCtx.Done():
					return
				case <-t.C:
				}
				n, err := q.Pending(runCtx, "")
				if err != nil {
					continue
				}
				if n == 0 {
					idle++
				} else {
					idle = 0
				}
				if idle >= 2 {
					stop()
					return
				}
			}
		})
	}
	<-runCtx.Done()
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := client.StopAndCancel(stopCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		cfg.Log.Warn("worker: stop", "err", err)
	}
	wg.Wait()
	end := context.WithoutCancel(ctx)
	q.pool.Exec(end, `UPDATE arbiter_workers SET stopped = true, heartbeat = now() WHERE id = $1`, id)
	q.pool.Exec(end, `UPDATE arbiter_slots SET holder = NULL, expires = NULL WHERE holder = $1`, id)
	return WorkStats{Done: w.done.Load(), Asked: w.asked.Load(), Cached: w.cached.Load(), Already: w.already.Load(), Failed: w.failed.Load()}, nil
}

// asker is the River worker of AskArgs.
type asker struct {
	river.WorkerDefaults[AskArgs]
	q   *Queue
	cfg WorkerConfig
	id  string

	mu      sync.Mutex
	models  map[modelKey]llm.Model
	readers map[string]func(*llm.Reply) string

	done, asked, cached, already, failed atomic.Int64
}

// beat renews the worker's lease and its limit slots, and puts back in the queue the
// running jobs of workers whose lease ran out.
func (w *asker) beat(ctx context.Context) {
	t := time.NewTicker(w.cfg.Heartbeat)
	defer t.Stop()
	for {
		w.q.pool.Exec(ctx, `UPDATE arbiter_workers SET heartbeat = now() WHERE id = $1`, w.id)
		w.q.pool.Exec(ctx, `UPDATE arbiter_slots SET expires = now() + make_interval(secs => $2) WHERE holder = $1`, w.id, w.cfg.Lease.Seconds())
		if tag, err := w.q.pool.Exec(ctx, `UPDATE river_job SET state = 'available', scheduled_at = now()
			WHERE state = 'running' AND kind = ANY($1) AND attempted_by[array_length(attempted_by, 1)] IN
			(SELECT id FROM arbiter_workers WHERE stopped OR heartbeat < now() - make_interval(secs => $2))`,
			jobKinds, w.cfg.Lease.Seconds()); err == nil && tag.RowsAffected() > 0 {
			w.cfg.Log.Info("took over the jobs of a worker that stopped renewing its lease", "jobs", tag.RowsAffected())
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

type modelKey struct {
	name    llm.ModelName
	retries int
}

// model opens spec's base model once per retries setting and wraps it as spec asks:
// the same model, label and parameters the enqueuing machine opened.
func (w *asker) model(spec llm.Spec, retries int) (llm.Model, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	k := modelKey{spec.Base, retries}
	m, ok := w.models[k]
	if !ok {
		var err error
		if m, err = w.cfg.Model(spec.Base, retries); err != nil {
			return nil, err
		}
		w.models[k] = m
	}
	return spec.Open(m)
}

// reader is the reader of run, opened once from what the run recorded; nil when its
// kind has none.
func (w *asker) reader(ctx context.Context, run string) (func(*llm.Reply) string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if r, ok := w.readers[run]; ok {
		return r, nil
	}
	r, err := w.q.st.Run(ctx, store.RunID(run))
	if err != nil {
		return nil, err
	}
	var read func(*llm.Reply) string
	if open := w.cfg.Readers[r.Kind]; open != nil {
		if read, err = open(r); err != nil {
			return nil, err
		}
	}
	w.readers[run] = read
	return read, nil
}

// specOf is the spec a job names, or its label as a plain model for jobs queued
// before specs were recorded.
func specOf(label string, specs []llm.Spec) llm.Spec {
	for _, s := range specs {
		if string(s.Label) == label {
			return s
		}
	}
	return llm.PlainSpec(llm.ModelName(label))
}

// Work answers one job: from the store when it is already answered, from the shared
// cache, or from its model under the shared limits; then writes the result and
// completes the job in one transaction.
func (w *asker) Work(ctx context.Context, job *river.Job[AskArgs]) error {
	a := job.Args
	run := store.RunID(a.Run)
	answered, err := w.q.st.AnsweredAmong(ctx, run, []string{a.Key})
	if err != nil {
		return fmt.Errorf("job %s: %w", a.Key, err)
	}
	if answered[a.Key] {
		w.already.Add(1)
		return w.complete(ctx, job, nil, sourceStore)
	}
	var req llm.Request
	if err := json.Unmarshal(a.Request, &req); err != nil {
		return river.JobCancel(fmt.Errorf("job %s: bad request: %w", a.Key, err))
	}
	name := llm.ModelName(a.Model)
	read, err := w.reader(ctx, a.Run)
	if err != nil {
		return fmt.Errorf("job %s: %w", a.Key, err)
	}
	j := &runner.Job{Key: a.Key, Model: name, Item: a.Item, Replicate: a.Replicate, Request: &req}
	ans := runner.Answering{Hash: req.Hash(), CacheKey: a.CacheKey, Read: read}
	if a.CacheKey != "" && !a.NoCache {
		if r, hit, err := w.q.st.CachedReply(ctx, a.CacheKey); err == nil && hit {
			ans.Cached = r
			w.cached.Add(1)
			return w.complete(ctx, job, &store.ResultWrite{Result: runner.Answer(ctx, run, j, ans)}, store.SourceCache)
		}
	}
	spec := llm.PlainSpec(name)
	if a.Spec != nil {
		spec = *a.Spec
	}
	if ans.Model, err = w.model(spec, a.Retries); err != nil {
		var pe *llm.ParamError
		if errors.As(err, &pe) {
			return river.JobCancel(fmt.Errorf("job %s: %w", a.Key, err))
		}
		// This worker cannot open the model (no key here): leave the job for another.
		return fmt.Errorf("job %s: %w", a.Key, err)
	}
	release, err := w.acquire(ctx, a.Model, &req)
	if err != nil {
		return err
	}
	// The slot is held until the result is committed: a worker killed after a reply
	// came but before it was kept has it in flight still, and the limit bounds those too.
	defer release()
	res := runner.Answer(ctx, run, j, ans)
	if res == nil {
		return ctx.Err() // stopped: the job goes back to the queue unanswered
	}
	w.asked.Add(1)
	if res.Err != "" {
		w.failed.Add(1)
		return w.complete(ctx, job, &store.ResultWrite{Result: res}, store.SourceProvider)
	}
	return w.complete(ctx, job, &store.ResultWrite{Result: res, CacheKey: a.CacheKey}, res.Source)
}

// complete writes rw (when set) with the store's own statements, completes the job and,
// when it was the run's last, ends the run: all in one transaction.
func (w *asker) complete(ctx context.Context, job *river.Job[AskArgs], rw *store.ResultWrite, source store.Source) error {
	// The answer is paid for: write it even if the worker is being stopped, but do not
	// wait for ever on a store that went away (the job is then asked again elsewhere).
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	tx, err := w.q.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("job %s: %w", job.Args.Key, err)
	}
	defer tx.Rollback(ctx)
	if rw != nil {
		stmts, err := w.q.st.ResultStmts(*rw)
		if err != nil {
			return err
		}
		for _, s := range stmts {
			if _, err := tx.Exec(ctx, s.Query, s.Args...); err != nil {
				return fmt.Errorf("job %s: write result: %w", job.Args.Key, err)
			}
		}
	}
	if _, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job); err != nil {
		return fmt.Errorf("job %s: complete: %w", job.Args.Key, err)
	}
	if _, err := tx.Exec(ctx, `UPDATE arbiter_workers SET jobs_done = jobs_done + 1 WHERE id = $1`, w.id); err != nil {
		return fmt.Errorf("job %s: %w", job.Args.Key, err)
	}
	if err := endIfLast(ctx, w.q.st, tx, job.Args.Run); err != nil {
		return fmt.Errorf("job %s: %w", job.Args.Key, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("job %s: commit: %w", job.Args.Key, err)
	}
	w.done.Add(1)
	if w.cfg.OnJob != nil {
		w.cfg.OnJob(string(source))
	}
	return nil
}

// endIfLast marks run done (or incomplete, when a result failed) once none of its jobs
// is left. The run's advisory lock orders the last jobs' transactions, so the one that
// commits last sees the others' completions.
func endIfLast(ctx context.Context, st *store.Store, tx pgx.Tx, run string) error {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 18))`, run); err != nil {
		return err
	}
	var left bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS(SELECT 1 FROM river_job WHERE kind = ANY($1) AND args->>'run' = $2
		AND state IN ('available', 'pending', 'running', 'retryable', 'scheduled'))`, jobKinds, run).Scan(&left); err != nil {
		return err
	}
	if left {
		return nil
	}
	end := st.EndQueuedRunStmt(store.RunID(run))
	_, err := tx.Exec(ctx, end.Query, end.Args...)
	return err
}

func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4}))
}
