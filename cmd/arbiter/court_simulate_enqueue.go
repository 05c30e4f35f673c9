package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/queue"
)

// courtEnqueue records the simulation's run as 'court simulate' would and queues one job
// per trial for 'arbiter worker', in one transaction, then prints the run id alone on
// stdout. With --wait it prints nothing, follows the run until its last trial is done
// and says so (wait true), so that the caller plays the simulation from the store: that
// asks nothing and writes the transcripts.
func (a *app) courtEnqueue(ctx context.Context, cmd *cobra.Command, sim *court.Simulation, retries int) (wait bool, err error) {
	run, trials, err := sim.Prepare(ctx)
	if err != nil {
		return false, err
	}
	q, err := queue.Open(ctx, sim.Session.Store)
	if err != nil {
		return false, err
	}
	caseOf := map[string]*court.Case{}
	for _, c := range sim.Cases {
		caseOf[c.ID] = c
	}
	var moves []court.Move
	if s, ok := sim.Defense.(*court.Script); ok {
		moves = s.Moves
	}
	jobs := make([]queue.WorkArgs, len(trials))
	for i, t := range trials {
		b, err := json.Marshal(caseOf[t.CaseID])
		if err != nil {
			return false, fmt.Errorf("enqueue trial %s: %w", t.TrialID, err)
		}
		qt := &court.QueuedTrial{Trial: t.TrialID, Case: b, Seed: t.Seed, Settings: sim.Settings, DefenseScript: sim.DefenseScript, Moves: moves}
		if jobs[i], err = queue.NewWork(sim.Session, court.TrialWork, t.TrialID, i, qt, qt.Models(), retries); err != nil {
			return false, err
		}
	}
	n, err := q.EnqueueWork(ctx, run, jobs)
	if err != nil {
		return false, err
	}
	if !a.quiet {
		fmt.Fprintf(a.stderr, "run %s: %d trials queued, one job each; start 'arbiter worker --db …' to play them\n", run, n)
	}
	if wait, _ = cmd.Flags().GetBool("wait"); wait {
		return true, a.follow(ctx, q, run, len(jobs), n)
	}
	fmt.Fprintln(a.stdout, run)
	return false, nil
}
