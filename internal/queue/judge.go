package queue

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// JudgeKind is the River kind of one transcript of a checklist judge run. A transcript
// is one job: the judge's rounds and follow-ups about it depend on each other, so they
// stay on one worker.
const JudgeKind = "arbiter_judge"

func init() { jobKinds = append(jobKinds, JudgeKind) }

// JudgeArgs is what a worker needs to judge one transcript. Like AskArgs it carries no
// key or secret: the worker opens each judge model by its label.
type JudgeArgs struct {
	Run string `json:"run"`
	// Index is the transcript's place in the run, for ordering and display.
	Index int `json:"index"`
	check.JudgeJob
	// Endpoints scope the cache by where the run said each model is asked, as the
	// enqueuing session did; Local names models run in process (never cached).
	Endpoints map[string]string `json:"endpoints,omitempty"`
	Local     []string          `json:"local,omitempty"`
	NoCache   bool              `json:"no_cache,omitempty"`
	// Retries is the run's --retries (-1: the worker's own setting).
	Retries int `json:"retries"`
	// Specs are the run's models that are variants, as data: each role's label opens
	// its base model with its parameters. A label not among them is a plain model.
	Specs []llm.Spec `json:"specs,omitempty"`
}

// Kind is River's name for the job.
func (JudgeArgs) Kind() string { return JudgeKind }

// EnqueueJudge queues one job for each transcript of a judge run and marks the run
// queued, in one transaction. A transcript queued and not finished is not queued twice;
// a finished one queued again is judged from the store by its worker and asks nothing.
func (q *Queue) EnqueueJudge(ctx context.Context, run store.RunID, jobs []JudgeArgs) (int, error) {
	params := make([]river.InsertManyParams, len(jobs))
	for i, j := range jobs {
		j.Run = string(run)
		params[i] = river.InsertManyParams{Args: j, InsertOpts: unfinished}
	}
	return q.insert(ctx, run, params)
}

// judgeWorker is the River worker of JudgeArgs. It shares the asker's models, limits,
// lease and counts.
type judgeWorker struct {
	river.WorkerDefaults[JudgeArgs]
	*asker
}

// Work judges one transcript through the same session path 'check judge' takes: each
// round's replies are written to the store as they come, so a transcript another worker
// began resumes here at its first request not yet answered. The job completes once
// every round about the transcript has been asked.
func (w *judgeWorker) Work(ctx context.Context, job *river.Job[JudgeArgs]) error {
	a := job.Args
	trial := string(a.Meta.TrialID)
	models := map[llm.ModelName]llm.Model{}
	for _, name := range a.Judges {
		if models[name] != nil {
			continue
		}
		md, err := w.model(specOf(string(name), a.Specs), a.Retries)
		if err != nil {
			// This worker cannot open the model (no key here): leave the job for another.
			return fmt.Errorf("judge %s: %w", trial, err)
		}
		models[name] = &limited{Model: md, label: string(name), w: w.asker}
	}
	sess := &runner.Session{Store: w.q.st, Models: models, Concurrency: 4, NoCache: a.NoCache, Log: w.cfg.Log,
		Local:    func(n llm.ModelName) bool { return slices.Contains(a.Local, string(n)) },
		Endpoint: func(n llm.ModelName) string { return a.Endpoints[string(n)] }}
	j, err := check.JudgeTranscript(ctx, sess, store.RunID(a.Run), &a.JudgeJob)
	if j != nil {
		w.asked.Add(int64(j.Requests.Asked))
		w.failed.Add(int64(j.Requests.Failed))
		w.cached.Add(int64(j.Requests.Cached))
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err() // stopped: the job goes back to the queue, its answered requests kept
		}
		return fmt.Errorf("judge %s: %w", trial, err) // River tries it again; the replies so far are kept
	}
	if j.Requests.Asked == 0 && j.Requests.Cached == 0 {
		w.already.Add(1)
	}
	return w.completeJudge(ctx, job)
}

// completeJudge completes a judged transcript's job and, when it was the run's last
// job, ends the run, in one transaction. The replies are in the store already.
func (w *judgeWorker) completeJudge(ctx context.Context, job *river.Job[JudgeArgs]) error {
	trial := string(job.Args.Meta.TrialID)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	tx, err := w.q.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("judge %s: %w", trial, err)
	}
	defer tx.Rollback(ctx)
	if _, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job); err != nil {
		return fmt.Errorf("judge %s: complete: %w", trial, err)
	}
	if _, err := tx.Exec(ctx, `UPDATE arbiter_workers SET jobs_done = jobs_done + 1 WHERE id = $1`, w.id); err != nil {
		return fmt.Errorf("judge %s: %w", trial, err)
	}
	if err := endIfLast(ctx, tx, job.Args.Run); err != nil {
		return fmt.Errorf("judge %s: %w", trial, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("judge %s: commit: %w", trial, err)
	}
	w.done.Add(1)
	if w.cfg.OnJob != nil {
		w.cfg.OnJob("judge")
	}
	return nil
}
