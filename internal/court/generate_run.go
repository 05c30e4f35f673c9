package court

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// GenerateConfig identifies a case generation's run: Count cases (omitted for one)
// for Prior by Model from Seed onwards, the first ask keyed Generate.
type GenerateConfig struct {
	Generate string        `json:"generate"`
	Prior    string        `json:"prior"`
	Model    llm.ModelName `json:"model"`
	Seed     int64         `json:"seed"`
	Count    int           `json:"count,omitempty"`
}

// GenerateRun says which cases one run writes.
type GenerateRun struct {
	Prior string
	Model llm.ModelName
	// Seed is the first case's seed; case i has Seed+i.
	Seed int64
	// Count is how many cases (default 1).
	Count int
	// Reasks is GenerateOptions.Reasks.
	Reasks int
	// Keep stores each valid case (store.CaseGenerated): a rerun replaces its own earlier
	// copy and never shadows another case. Without it nothing is stored and any id in
	// the store is taken (a draft the player may save later).
	Keep bool
}

// GeneratedRun is what a generation run made: per case, in seed order, the case or the
// error that kept it from being made (a *GenerateError when the model's case stayed
// invalid).
type GeneratedRun struct {
	Run   store.RunID
	Cases []*Generated
	Errs  []error
	Tally runner.Tally
}

// Kept counts the cases made.
func (r *GeneratedRun) Kept() int {
	n := 0
	for _, c := range r.Cases {
		if c != nil {
			n++
		}
	}
	return n
}

// RunGenerate is the one way cases are generated within a run of sess, for the
// command, its bulk form and the web page alike: it begins the run, writes every case
// (the first asks of all of them one round, each round of re-asks the next), records
// how the run ended and, with Keep, stores the valid cases, two cases named alike by
// the model getting distinct ids by seed order. The error is the session's (the store,
// an interruption, a dry run), or for a single case its own; a case of many that the
// model left invalid is in Errs.
func RunGenerate(ctx context.Context, sess *runner.Session, g GenerateRun) (*GeneratedRun, error) {
	if g.Count < 1 {
		g.Count = 1
	}
	key := GenerateKey(g.Prior, g.Model, g.Seed)
	cfg := GenerateConfig{Generate: key, Prior: g.Prior, Model: g.Model, Seed: g.Seed}
	if g.Count > 1 {
		cfg.Count = g.Count
	}
	run, err := sess.Begin(ctx, runner.Identity{Kind: KindCourt, Config: cfg})
	if err != nil {
		return nil, err
	}
	var lookMu sync.Mutex
	var lookErr error
	taken := func(id string, record json.RawMessage) bool {
		c, err := sess.Store.CourtCase(ctx, id)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return false
		case err != nil:
			lookMu.Lock()
			lookErr = err
			lookMu.Unlock()
			return true
		}
		return !g.Keep || !bytes.Equal(c.Record, record)
	}
	out := &GeneratedRun{Run: run, Cases: make([]*Generated, g.Count), Errs: make([]error, g.Count)}
	ask := &Recorded{Session: sess, Run: run, Label: "generate", Tally: &out.Tally}
	var gather *runner.Gathering
	if g.Count > 1 {
		gather = sess.Gather(run, "generate", g.Count)
		ask = &Recorded{Session: sess, Run: run, Gather: gather}
	}
	var wg sync.WaitGroup
	for i := range g.Count {
		seed := g.Seed + int64(i)
		wg.Go(func() {
			if gather != nil {
				defer gather.Done(ctx)
			}
			out.Cases[i], out.Errs[i] = Generate(ctx, ask, GenerateOptions{Prior: g.Prior, Model: g.Model, Seed: seed,
				Reasks: g.Reasks, Key: GenerateKey(g.Prior, g.Model, seed), Taken: taken})
		})
	}
	wg.Wait()
	if gather != nil {
		out.Tally = gather.Tally()
	}
	// A failure of the session ends the run; a case that stayed invalid is the model's.
	var runErr error
	for _, e := range out.Errs {
		var ge *GenerateError
		if e != nil && !errors.As(e, &ge) {
			runErr = e
			break
		}
	}
	if runErr == nil {
		runErr = lookErr
	}
	if runErr == nil && g.Count == 1 {
		runErr = out.Errs[0] // one case: its failure is the run's
	}
	if err := sess.Finish(ctx, run, runErr, false); err != nil {
		return out, err
	}
	if !g.Keep {
		return out, nil
	}
	ids := map[string]bool{}
	for _, c := range out.Cases {
		if c == nil {
			continue
		}
		if err := uniqueID(c, ids); err != nil {
			return out, err
		}
		if err := sess.Store.PutCourtCase(ctx, store.CourtCase{ID: c.Case.ID, Origin: store.CaseGenerated,
			Prior: c.Prior, Model: string(c.Model), Record: c.Record}); err != nil {
			return out, err
		}
	}
	return out, nil
}

// uniqueID gives gen a case id no earlier case of the same run holds, by seed order, so
// that two cases named alike by the model are both kept, the same way on every rerun.
func uniqueID(gen *Generated, ids map[string]bool) error {
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
		return fmt.Errorf("generate case: %w", err)
	}
	gen.Record = rec
	return nil
}
