package queue

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// TrialKind is the River kind of one court trial of a simulation. A trial is one job:
// its turns depend on each other, so they stay in order on one worker.
const TrialKind = "arbiter_trial"

// jobKinds are every kind of job a run may queue, for the queries that count a run's
// jobs or hand a dead worker's jobs to another.
var jobKinds = []string{JobKind, TrialKind}

// TrialArgs is what a worker needs to play one trial of a court simulation. Like
// AskArgs it carries no key or secret: the worker opens each role's model by its label.
type TrialArgs struct {
	Run   string `json:"run"`
	Trial string `json:"trial"`
	// Index is the trial's place in the simulation, for ordering and display.
	Index int `json:"index"`
	// Case is the case record as JSON, so a worker plays exactly the version that the
	// run's identity hashed.
	Case     json.RawMessage `json:"case"`
	Seed     int64           `json:"seed"`
	Settings court.Settings  `json:"settings"`
	// DefenseScript is the script's hash in the run's identity and Moves its moves; both
	// empty for a model defense.
	DefenseScript string       `json:"defense_script,omitempty"`
	Moves         []court.Move `json:"moves,omitempty"`
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
func (TrialArgs) Kind() string { return TrialKind }

// EnqueueTrials queues one job for each trial of run and marks the run queued, in one
// transaction. A trial already queued and not finished is not queued twice; a finished
// one queued again is replayed from the store by its worker and asks nothing.
func (q *Queue) EnqueueTrials(ctx context.Context, run store.RunID, trials []TrialArgs) (int, error) {
	params := make([]river.InsertManyParams, len(trials))
	for i, t := range trials {
		t.Run = string(run)
		params[i] = river.InsertManyParams{Args: t, InsertOpts: unfinished}
	}
	return q.insert(ctx, run, params)
}

// trialWorker is the River worker of TrialArgs. It shares the asker's models, limits,
// lease and counts.
type trialWorker struct {
	river.WorkerDefaults[TrialArgs]
	*asker
}

// Work plays one trial through the same Recorded session path 'court simulate' takes:
// each turn is written to the store as it ends, so a trial that another worker began
// resumes here at its first turn not yet answered, and the earlier ones are read back.
// The job completes once the trial has ended.
func (w *trialWorker) Work(ctx context.Context, job *river.Job[TrialArgs]) error {
	a := job.Args
	cases, err := court.ParseCases(a.Case, "case of trial "+a.Trial+".json")
	if err != nil {
		return river.JobCancel(fmt.Errorf("trial %s: %w", a.Trial, err))
	}
	var defense court.Player = court.ModelDefense{}
	if a.Moves != nil {
		defense = &court.Script{Moves: a.Moves}
	}
	models := map[llm.ModelName]llm.Model{}
	m := a.Settings.Models
	for _, name := range []llm.ModelName{m.Judge, m.Prosecutor, m.Witness, m.Analyzer, m.Defense} {
		if name == "" || models[name] != nil {
			continue
		}
		md, err := w.model(specOf(string(name), a.Specs), a.Retries)
		if err != nil {
			// This worker cannot open the model (no key here): leave the job for another.
			return fmt.Errorf("trial %s: %w", a.Trial, err)
		}
		models[name] = &limited{Model: md, label: string(name), w: w.asker}
	}
	sess := &runner.Session{Store: w.q.st, Models: models, Concurrency: 1, NoCache: a.NoCache, Log: w.cfg.Log,
		Local:    func(n llm.ModelName) bool { return slices.Contains(a.Local, string(n)) },
		Endpoint: func(n llm.ModelName) string { return a.Endpoints[string(n)] }}
	sim := &court.Simulation{Session: sess, Settings: a.Settings, Defense: defense, DefenseScript: a.DefenseScript}
	var tally runner.Tally
	_, err = sim.PlayTrial(ctx, store.RunID(a.Run), cases[0], a.Seed, &tally)
	w.asked.Add(int64(tally.Asked))
	w.failed.Add(int64(tally.Failed))
	w.cached.Add(int64(tally.Cached))
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err() // stopped: the job goes back to the queue, its finished turns kept
		}
		return fmt.Errorf("trial %s: %w", a.Trial, err) // River tries it again; the turns so far are kept
	}
	if tally.Asked == 0 && tally.Cached == 0 {
		w.already.Add(1)
	}
	return w.completeTrial(ctx, job)
}

// completeTrial completes a played trial's job and, when it was the run's last job,
// ends the run, in one transaction. The trial's turns are in the store already.
func (w *trialWorker) completeTrial(ctx context.Context, job *river.Job[TrialArgs]) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	tx, err := w.q.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("trial %s: %w", job.Args.Trial, err)
	}
	defer tx.Rollback(ctx)
	if _, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job); err != nil {
		return fmt.Errorf("trial %s: complete: %w", job.Args.Trial, err)
	}
	if _, err := tx.Exec(ctx, `UPDATE arbiter_workers SET jobs_done = jobs_done + 1 WHERE id = $1`, w.id); err != nil {
		return fmt.Errorf("trial %s: %w", job.Args.Trial, err)
	}
	if err := endIfLast(ctx, tx, job.Args.Run); err != nil {
		return fmt.Errorf("trial %s: %w", job.Args.Trial, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("trial %s: commit: %w", job.Args.Trial, err)
	}
	w.done.Add(1)
	if w.cfg.OnJob != nil {
		w.cfg.OnJob("trial")
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
