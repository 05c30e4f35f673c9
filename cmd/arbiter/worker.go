package main

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/queue"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

func (a *app) workerCmd() *cobra.Command {
	var rf runFlags
	var exitIdle bool
	var workers int
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Answer the queued jobs of any run on a shared PostgreSQL store",
		Long: `worker takes the jobs that 'seduce run --enqueue', 'court simulate --enqueue' (one
job a trial, its turns kept as they end) and 'check judge --enqueue' (one job a transcript)
queued on a shared PostgreSQL store and answers
them with the models this machine's environment and --config give it: keys never travel
through the store. Any number of workers on any number of machines share
the queue; each result is written in the same transaction that completes its job. A
worker that dies loses only its requests in flight: another takes its jobs over within
30 seconds. The config's limits: (concurrency, rpm, tpm) hold across every worker.`,
		Example: `  arbiter worker --db postgres://arbiter@db.lab:5432/arbiter --concurrency 16
  arbiter worker --db postgres://arbiter@127.0.0.1:5432/arbiter --exit-when-idle`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if !store.IsPostgres(a.storePath(rf.db)) {
				return badInput("worker needs a shared PostgreSQL store: pass --db postgres://USER@HOST:PORT/DB or set ARBITER_DB")
			}
			if workers < 1 {
				return badInput("--concurrency %d: want at least 1", workers)
			}
			var limits map[string]queue.Limit
			if rf.configPath != "" {
				cf, _, err := config.LoadFile(rf.configPath, a.env.Look)
				if err != nil {
					return usageError{err}
				}
				limits = map[string]queue.Limit{}
				for name, l := range cf.Limits {
					limits[name] = queue.Limit{Concurrency: l.Concurrency, RPM: l.RPM, TPM: l.TPM}
				}
			}
			st, err := a.openStore(ctx, rf.db)
			if err != nil {
				return err
			}
			defer st.Close()
			q, err := queue.Open(ctx, st)
			if err != nil {
				return err
			}
			builtins := seduce.Baselines(seduce.DefaultTaxonomy())
			cfg := queue.WorkerConfig{Concurrency: workers, Limits: limits, ExitWhenIdle: exitIdle, Log: a.log,
				Model: func(name llm.ModelName, retries int) (llm.Model, error) {
					f := rf
					f.models, f.concurrency, f.replicates = []string{string(name)}, workers, 1
					if retries >= 0 {
						f.retries = retries // the run's --retries
					}
					ms, err := a.openModels(&f, builtins)
					if err != nil {
						return nil, err
					}
					return ms.Models[ms.Names[0]], nil
				},
				Readers: map[store.Kind]func(*store.Run) (func(*llm.Reply) string, error){seduce.RunKind: seduce.OpenReader},
				Work:    map[string]queue.Work{court.TrialWork: court.PlayQueued, check.JudgeWork: check.JudgeQueued}}
			start := time.Now()
			sum, err := q.Work(ctx, cfg)
			if !a.quiet {
				fmt.Fprintf(a.stderr, "worker: %d jobs done in %s (%d asked, %d failed, %d from the cache, %d answered before)\n",
					sum.Done, time.Since(start).Round(time.Millisecond), sum.Asked, sum.Failed, sum.Cached, sum.Already)
			}
			return err
		},
	}
	retry := llm.DefaultRetry()
	fs := cmd.Flags()
	fs.StringVar(&rf.db, "db", "", "the shared store, postgres://USER@HOST:PORT/DB (default $ARBITER_DB)")
	fs.IntVarP(&workers, "concurrency", "c", 8, "jobs this worker answers at once")
	fs.BoolVar(&exitIdle, "exit-when-idle", false, "exit once no job is queued or held by any worker")
	fs.StringVar(&rf.configPath, "config", "", "config file with this machine's endpoints and the per-model limits shared by all workers (YAML)")
	fs.StringVar(&rf.baseURL, "base-url", "", "endpoint for every model (an OpenAI-compatible or stand-in server)")
	fs.IntVar(&rf.retries, "retries", retry.MaxAttempts-1, "retries of a failed request for jobs whose run did not set its own")
	fs.DurationVar(&rf.timeout, "timeout", retry.Timeout, "time limit of one attempt")
	return cmd
}

// showWorkers lists, under 'arbiter runs' on a PostgreSQL store with a queued or
// running run, the jobs each such run has left in the queue and the workers seen.
func (a *app) showWorkers(ctx context.Context, st *store.Store, runs []*store.Run) error {
	if !st.Postgres() {
		return nil
	}
	var open []*store.Run
	for _, r := range runs {
		if r.Status == store.StatusQueued || r.Status == store.StatusRunning {
			open = append(open, r)
		}
	}
	if len(open) == 0 {
		return nil
	}
	// Workers does not create the queue's tables: a store no queue was opened on
	// shows nothing more and stays as it is.
	ws, err := queue.Workers(ctx, st)
	if err != nil || ws == nil {
		return err
	}
	q, err := queue.Open(ctx, st)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(a.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nRUN\tSTATUS\tJOBS QUEUED OR HELD")
	for _, r := range open {
		n, err := q.Pending(ctx, r.ID)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\n", r.ID, r.Status, n)
	}
	fmt.Fprintln(tw, "\nWORKER\tHOST\tPID\tSTARTED\tJOBS DONE\tLAST HEARTBEAT\tSTATE")
	for _, w := range ws {
		state := "gone"
		if w.Alive {
			state = "alive"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%d\t%s\t%s\n", w.ID, w.Host, w.PID, w.Started, w.JobsDone, w.Heartbeat, state)
	}
	return tw.Flush()
}

// follow shows the progress of an enqueued run across all workers until none of its
// jobs is left in the queue.
func (a *app) follow(ctx context.Context, q *queue.Queue, run store.RunID, total, queued int) error {
	p := a.progress(string(run), nil) // nil with --quiet: follow without drawing
	if p != nil {
		p.Start(total, total-queued)
		defer p.Finish()
	}
	shown := 0
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		left, err := q.Pending(ctx, run)
		if err != nil {
			return err
		}
		for ; p != nil && shown < queued-left; shown++ {
			p.Done(false)
		}
		if left == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("stopped following run %s: its jobs stay queued for the workers; 'arbiter runs' shows it", run)
		case <-t.C:
		}
	}
}
