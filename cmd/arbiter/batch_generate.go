package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

// courtGenerateBulk writes f.count cases for one prior, seeds f.seed onwards, asking
// the first request of every case in one round and each round of re-asks after it. The
// valid cases are kept in the store and written as JSONL, one record a line; cases
// that stay invalid are reported and the command fails (exit 1) after keeping the rest.
func (a *app) courtGenerateBulk(ctx context.Context, f *generateFlags, prior string, model llm.ModelName) error {
	sess, ms, done, err := a.session(ctx, &f.run, nil)
	if err != nil {
		return err
	}
	defer done()
	model = ms.Label(model) // a variant under --reasoning-effort or --thinking-budget
	res, err := court.RunGenerate(ctx, sess, court.GenerateRun{Prior: prior, Model: model, Seed: f.seed, Count: f.count,
		Reasks: noneIfZero(f.reasks), Keep: true})
	if err != nil {
		return err
	}
	st := sess.Store
	run := res.Run
	var out bytes.Buffer
	var invalid []string
	for i, gen := range res.Cases {
		if gen == nil {
			invalid = append(invalid, fmt.Sprintf("seed %d: %v", f.seed+int64(i), res.Errs[i]))
			continue
		}
		var line bytes.Buffer
		if err := json.Compact(&line, gen.Record); err != nil {
			return fmt.Errorf("court generate: %w", err)
		}
		out.Write(line.Bytes())
		out.WriteByte('\n')
	}
	if err := writeOut(f.out, a.stdout, out.Bytes()); err != nil {
		return err
	}
	if !a.quiet {
		fmt.Fprintf(a.stderr, "%d of %d cases kept in %s (run %s: %s); play them with --cases stored:ID\n",
			res.Kept(), f.count, st.Path(), run, requestsText(res.Tally))
	}
	if err := a.printRunCost(ctx, st, run, f.run.configPath); err != nil {
		return err
	}
	if len(invalid) > 0 {
		for _, line := range invalid {
			fmt.Fprintln(a.stderr, line)
		}
		return fmt.Errorf("%d of %d cases stayed invalid and were not kept; the valid ones were", len(invalid), f.count)
	}
	return nil
}
