package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/queue"
	"github.com/arbiter-eval/arbiter/internal/runner"
)

// judgeEnqueue records the judge run as 'check judge' would and queues one job per
// transcript for 'arbiter worker', in one transaction, then prints the run id alone on
// stdout. With --wait it prints nothing, follows the run until its last transcript is
// judged and says so (wait true), so that the caller judges from the store: that asks
// nothing and prints the scores.
func (a *app) judgeEnqueue(ctx context.Context, cmd *cobra.Command, e *runner.Session, cl *check.Checklist, ts []*check.Transcript,
	opt check.JudgeOptions, retries int) (wait bool, err error) {
	for _, name := range []string{"batch", "dry-run"} {
		if on, _ := cmd.Flags().GetBool(name); on {
			return false, badInput("--enqueue and --%s: give one of them (workers ask the providers directly)", name)
		}
	}
	run, judged, err := check.PrepareJudge(ctx, e, cl, ts, opt)
	if err != nil {
		return false, err
	}
	q, err := queue.Open(ctx, e.Store)
	if err != nil {
		return false, err
	}
	jobs := make([]queue.WorkArgs, len(judged))
	for i, j := range judged {
		if jobs[i], err = queue.NewWork(e, check.JudgeWork, string(j.Meta.TrialID), i, j, j.Judges, retries); err != nil {
			return false, err
		}
		jobs[i].Concurrency = 4
	}
	n, err := q.EnqueueWork(ctx, run, jobs)
	if err != nil {
		return false, err
	}
	if !a.quiet {
		fmt.Fprintf(a.stderr, "run %s: %d transcripts queued, one job each; start 'arbiter worker --db …' to judge them\n", run, n)
	}
	if wait, _ = cmd.Flags().GetBool("wait"); wait {
		return true, a.follow(ctx, q, run, len(jobs), n)
	}
	fmt.Fprintln(a.stdout, run)
	return false, nil
}
