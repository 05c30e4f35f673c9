package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// WorkKind is the River kind of a unit of work that asks through a session, one request
// after another, each depending on the replies before it: a court trial, or a transcript
// of a checklist judge run. The queue does not know what the work is: a worker runs it
// with the Work function registered under its Of, through the session the queue builds
// for it, so its every request is kept as it comes and a unit another worker began
// resumes where it stopped.
const WorkKind = "arbiter_work"

// jobKinds are every kind of job a run may queue, for the queries that count a run's
// jobs or hand a dead worker's jobs to another.
var jobKinds = []string{JobKind, WorkKind}

// WorkArgs is one unit of work. Like AskArgs it carries no key or secret: the worker
// opens each model by its spec with its own environment and config.
type WorkArgs struct {
	Run string `json:"run"`
	// Of names what the work is (the key of WorkerConfig.Work), e.g. "court-trial".
	Of string `json:"of"`
	// Name names the unit for errors and display (a trial's or a transcript's id), and
	// Index is its place in the run.
	Name  string `json:"name"`
	Index int    `json:"index"`
	// Payload is the work's own input, as its Work function reads it.
	Payload json.RawMessage `json:"payload"`
	// Models are the labels the work asks; Specs those of them that are variants.
	Models []llm.ModelName `json:"models"`
	Specs  []llm.Spec      `json:"specs,omitempty"`
	// Endpoints scope the cache by where the run said each model is asked, as the
	// enqueuing session did; Local names models run in process (never cached).
	Endpoints map[string]string `json:"endpoints,omitempty"`
	Local     []string          `json:"local,omitempty"`
	NoCache   bool              `json:"no_cache,omitempty"`
	// Concurrency is how many requests of the unit may be in flight at once (default 1).
	Concurrency int `json:"concurrency,omitempty"`
	// Retries is the run's --retries (-1: the worker's own setting).
	Retries int `json:"retries"`
}

// Kind is River's name for the job.
func (WorkArgs) Kind() string { return WorkKind }

// Work runs one unit of work in sess within run and returns what it asked. An error
// that has a Permanent method returning true (bad input that no retry mends) cancels
// the job; any other leaves it to be tried again, its requests so far kept.
type Work func(ctx context.Context, sess *runner.Session, run store.RunID, payload json.RawMessage) (runner.Tally, error)

// NewWork is a unit of work of run asked through sess (its endpoints, local models,
// cache setting and variants) by the models named.
func NewWork(sess *runner.Session, of, name string, index int, payload any, models []llm.ModelName, retries int) (WorkArgs, error) {
	b, err := json.Marshal(payload)
	if err != nil {
		return WorkArgs{}, fmt.Errorf("enqueue %s: %w", name, err)
	}
	w := WorkArgs{Of: of, Name: name, Index: index, Payload: b, NoCache: sess.NoCache, Retries: retries,
		Endpoints: sess.Endpoints(), Specs: sess.Variants()}
	seen := map[llm.ModelName]bool{}
	for _, m := range models {
		if m == "" || seen[m] {
			continue
		}
		seen[m] = true
		w.Models = append(w.Models, m)
		if sess.Local != nil && sess.Local(m) {
			w.Local = append(w.Local, string(m))
		}
	}
	return w, nil
}

// EnqueueWork queues one job for each unit of run and marks the run queued, in one
// transaction. A unit queued and not finished is not queued twice; a finished one
// queued again is replayed from the store by its worker and asks nothing.
func (q *Queue) EnqueueWork(ctx context.Context, run store.RunID, units []WorkArgs) (int, error) {
	params := make([]river.InsertManyParams, len(units))
	for i, u := range units {
		u.Run = string(run)
		params[i] = river.InsertManyParams{Args: u, InsertOpts: unfinished}
	}
	return q.insert(ctx, run, params)
}

// worker is the River worker of WorkArgs. It shares the asker's models, limits, lease
// and counts.
type worker struct {
	river.WorkerDefaults[WorkArgs]
	*asker
}

// Work runs one unit through a session on this worker's models, each call under the
// limits shared by all workers; the job completes once the unit has ended.
func (w *worker) Work(ctx context.Context, job *river.Job[WorkArgs]) error {
	a := job.Args
	run := w.cfg.Work[a.Of]
	if run == nil {
		// Another version of arbiter queued it: a worker that knows it may take it.
		return fmt.Errorf("%s %s: this worker does not know work of kind %q", a.Of, a.Name, a.Of)
	}
	models := map[llm.ModelName]llm.Model{}
	for _, name := range a.Models {
		md, err := w.model(specOf(string(name), a.Specs), a.Retries)
		if err != nil {
			// This worker cannot open the model (no key here): leave the job for another.
			return fmt.Errorf("%s %s: %w", a.Of, a.Name, err)
		}
		models[name] = &limited{Model: md, label: string(name), w: w.asker}
	}
	sess := &runner.Session{Store: w.q.st, Models: models, Concurrency: max(a.Concurrency, 1), NoCache: a.NoCache, Log: w.cfg.Log,
		Local:    func(n llm.ModelName) bool { return slices.Contains(a.Local, string(n)) },
		Endpoint: func(n llm.ModelName) string { return a.Endpoints[string(n)] }}
	tally, err := run(ctx, sess, store.RunID(a.Run), a.Payload)
	w.asked.Add(int64(tally.Asked))
	w.failed.Add(int64(tally.Failed))
	w.cached.Add(int64(tally.Cached))
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err() // stopped: the job goes back to the queue, its requests so far kept
		}
		var p interface{ Permanent() bool }
		if errors.As(err, &p) && p.Permanent() {
			return river.JobCancel(fmt.Errorf("%s %s: %w", a.Of, a.Name, err))
		}
		return fmt.Errorf("%s %s: %w", a.Of, a.Name, err) // River tries it again
	}
	if tally.Asked == 0 && tally.Cached == 0 {
		w.already.Add(1)
	}
	return w.completeWork(ctx, job)
}

// completeWork completes a unit's job and, when it was the run's last job, ends the run,
// in one transaction. The unit's replies are in the store already.
func (w *worker) completeWork(ctx context.Context, job *river.Job[WorkArgs]) error {
	a := job.Args
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	tx, err := w.q.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("%s %s: %w", a.Of, a.Name, err)
	}
	defer tx.Rollback(ctx)
	if _, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job); err != nil {
		return fmt.Errorf("%s %s: complete: %w", a.Of, a.Name, err)
	}
	if _, err := tx.Exec(ctx, `UPDATE arbiter_workers SET jobs_done = jobs_done + 1 WHERE id = $1`, w.id); err != nil {
		return fmt.Errorf("%s %s: %w", a.Of, a.Name, err)
	}
	if err := endIfLast(ctx, w.q.st, tx, a.Run); err != nil {
		return fmt.Errorf("%s %s: %w", a.Of, a.Name, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("%s %s: commit: %w", a.Of, a.Name, err)
	}
	w.done.Add(1)
	if w.cfg.OnJob != nil {
		w.cfg.OnJob(a.Of)
	}
	return nil
}

// limited is a model whose every call waits for the shared limits of its label
// (concurrency slots, rpm and tpm buckets) across all workers, as an AskArgs job does.
type limited struct {
	llm.Model
	label string
	w     *asker
}

func (m *limited) Generate(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
	release, err := m.w.acquire(ctx, m.label, req)
	if err != nil {
		release()
		return nil, err
	}
	defer release()
	return m.Model.Generate(ctx, req)
}
