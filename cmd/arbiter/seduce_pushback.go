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

// pushbackHelp is --pushback's help and how a queued run gets its second round.
const pushbackHelp = `ask every reply that ruled roll once more, in the same conversation: the player argues back in the sample's style (its pushback field, else a built-in line) and the Keeper rules again (seduce.md section 7; the report adds cave rate and FR after pushback). ` +
	`With --enqueue the second round is queued once the first is answered: by --wait, or by running the same command again`

func registerPushback(cmd *cobra.Command, on *bool) {
	cmd.Flags().BoolVar(on, "pushback", false, pushbackHelp)
}

// enqueuePushback queues the second round of a queued pushback run once its first round
// is answered (a run still answering it is told to come back, unless wait, in which
// case the first round has just been followed to its end). With wait it follows the
// second round too.
func (a *app) enqueuePushback(ctx context.Context, q *queue.Queue, sess *runner.Session, plan *seduce.RunPlan, run store.RunID,
	opt queue.EnqueueOptions, wait bool) error {
	pending, err := q.Pending(ctx, run)
	if err != nil {
		return err
	}
	if pending > 0 {
		if !a.quiet {
			fmt.Fprintf(a.stderr, "run %s: the pushback round is built from the first round's replies: once the workers have answered them, run the same command again (or pass --wait) to queue it\n", run)
		}
		return nil
	}
	jobs, err := plan.PushbackJobs(ctx, sess.Store, run)
	if err != nil {
		return err
	}
	n, err := q.Enqueue(ctx, run, jobs, opt)
	if err != nil {
		return err
	}
	if !a.quiet {
		fmt.Fprintf(a.stderr, "run %s: pushback round: %d jobs (one per roll ruling), %d queued\n", run, len(jobs), n)
	}
	if wait {
		return a.follow(ctx, q, run, len(jobs), n)
	}
	return nil
}
