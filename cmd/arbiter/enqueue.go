package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/queue"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// registerEnqueue adds --enqueue to a command that starts a run.
func registerEnqueue(cmd *cobra.Command) {
	cmd.Flags().Bool("enqueue", false, "record the run and queue its jobs for 'arbiter worker' on a shared PostgreSQL store (--db postgres://…) instead of asking here; prints the run id")
	cmd.Flags().Bool("wait", false, "with --enqueue: follow the run across all workers until it is done, then print its report")
}

// enqueueing says whether cmd was given --enqueue, refusing it (bad usage) unless the
// store of db is PostgreSQL: a queue is shared through that store only.
func (a *app) enqueueing(cmd *cobra.Command, db string) (bool, error) {
	on, _ := cmd.Flags().GetBool("enqueue")
	if on && !store.IsPostgres(a.storePath(db)) {
		return false, badInput("--enqueue needs a shared PostgreSQL store: pass --db postgres://USER@HOST:PORT/DB or set ARBITER_DB")
	}
	return on, nil
}

// seduceEnqueue records the run of plan as Execute would and queues its jobs not yet
// answered, then prints the run id alone on stdout and returns "". With --wait it
// follows the run until every job is done and returns its id instead, for the report.
func (a *app) seduceEnqueue(ctx context.Context, cmd *cobra.Command, sess *runner.Session, plan *seduce.RunPlan, retries int) (store.RunID, error) {
	run, err := sess.Begin(ctx, plan.Identity(sess.Endpoints()))
	if err != nil {
		return "", err
	}
	q, err := queue.Open(ctx, sess.Store)
	if err != nil {
		return "", err
	}
	opt := queue.EnqueueOptions{Endpoint: sess.Endpoint, Local: sess.Local, NoCache: sess.NoCache,
		Retries: retries, Reader: string(seduce.RunKind), Spec: sess.Spec}
	jobs := plan.Jobs()
	n, err := q.Enqueue(ctx, run, jobs, opt)
	if err != nil {
		return "", err
	}
	if !a.quiet {
		fmt.Fprintf(a.stderr, "run %s: %d jobs, %d queued (the others are answered already); start 'arbiter worker --db …' to answer them\n", run, len(jobs), n)
	}
	wait, _ := cmd.Flags().GetBool("wait")
	if wait {
		if err := a.follow(ctx, q, run, len(jobs), n); err != nil {
			return "", err
		}
	}
	if plan.Pushback != nil {
		if err := a.enqueuePushback(ctx, q, sess, plan, run, opt, wait); err != nil {
			return "", err
		}
	}
	if wait {
		return run, nil
	}
	fmt.Fprintln(a.stdout, run)
	return "", nil
}
