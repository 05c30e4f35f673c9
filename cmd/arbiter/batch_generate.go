package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// bulkConfig identifies a bulk generation's run: count cases from seeds seed to
// seed+count-1.
type bulkConfig struct {
	generateConfig
	Count int `json:"count"`
}

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
	st := sess.Store
	first := court.GenerateKey(prior, model, f.seed)
	run, err := sess.Begin(ctx, runner.Identity{Kind: court.KindCourt,
		Config: bulkConfig{generateConfig{Generate: first, Prior: prior, Model: model, Seed: f.seed}, f.count}})
	if err != nil {
		return err
	}
	var lookMu sync.Mutex
	var lookErr error
	taken := func(id string, record json.RawMessage) bool {
		c, err := st.CourtCase(ctx, id)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return false
		case err != nil:
			lookMu.Lock()
			lookErr = err
			lookMu.Unlock()
			return true
		}
		return !bytes.Equal(c.Record, record)
	}
	gather := sess.Gather(run, "generate", f.count)
	ask := &court.Recorded{Session: sess, Run: run, Gather: gather}
	gens := make([]*court.Generated, f.count)
	errs := make([]error, f.count)
	var wg sync.WaitGroup
	for i := range f.count {
		seed := f.seed + int64(i)
		wg.Go(func() {
			defer gather.Done(ctx)
			gens[i], errs[i] = court.Generate(ctx, ask, court.GenerateOptions{Prior: prior, Model: model, Seed: seed,
				Reasks: noneIfZero(f.reasks), Key: court.GenerateKey(prior, model, seed), Taken: taken})
		})
	}
	wg.Wait()
	// A failure of the session (the store, an interruption, a dry run) ends the run; a
	// case that stayed invalid is the model's, reported below.
	var runErr error
	for _, e := range errs {
		var ge *court.GenerateError
		if e != nil && !errors.As(e, &ge) {
			runErr = e
			break
		}
	}
	if runErr == nil {
		runErr = lookErr
	}
	if err := sess.Finish(ctx, run, runErr, false); err != nil {
		return err
	}
	var out bytes.Buffer
	ids := map[string]bool{}
	var invalid []string
	kept := 0
	for i, gen := range gens {
		if gen == nil {
			invalid = append(invalid, fmt.Sprintf("seed %d: %v", f.seed+int64(i), errs[i]))
			continue
		}
		if err := uniqueID(gen, ids); err != nil {
			return err
		}
		if err := st.PutCourtCase(ctx, store.CourtCase{ID: gen.Case.ID, Origin: store.CaseGenerated,
			Prior: gen.Prior, Model: string(gen.Model), Record: gen.Record}); err != nil {
			return err
		}
		var line bytes.Buffer
		if err := json.Compact(&line, gen.Record); err != nil {
			return fmt.Errorf("court generate: %w", err)
		}
		out.Write(line.Bytes())
		out.WriteByte('\n')
		kept++
	}
	if err := writeOut(f.out, a.stdout, out.Bytes()); err != nil {
		return err
	}
	if !a.quiet {
		fmt.Fprintf(a.stderr, "%d of %d cases kept in %s (run %s: %s); play them with --cases stored:ID\n",
			kept, f.count, st.Path(), run, requestsText(gather.Tally()))
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

// uniqueID gives gen a case id no earlier case of the same bulk run holds, by seed
// order, so that two cases named alike by the model are both kept, the same way on
// every rerun.
func uniqueID(gen *court.Generated, ids map[string]bool) error {
	id := gen.Case.ID
	for n := 2; ids[id]; n++ {
		id = gen.Case.ID + "-" + strconv.Itoa(n)
	}
	ids[id] = true
	if id == gen.Case.ID {
		return nil
	}
	gen.Case.ID = id
	rec, err := json.Marshal(gen.Case)
	if err != nil {
		return fmt.Errorf("court generate: %w", err)
	}
	gen.Record = rec
	return nil
}
