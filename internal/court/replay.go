package court

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// A stored simulated trial is replayed from the store alone: its run (found by the
// trial id among the store's court runs) gives the models and the settings, its case is
// the one whose content the run recorded, and every call is answered from the run's
// results, so the replay emits the trial's events, turn by turn, asking no model.

// ErrNoStoredTrial: no simulated trial of that id is in the store (or its case is not
// known, or it was played by a script, which the store does not keep).
var ErrNoStoredTrial = errors.New("court: no stored simulated trial of that id")

var trialIDPattern = regexp.MustCompile(`^([a-z0-9-]{1,64})-s(-?[0-9]+)-[0-9a-f]{6}$`)

// StoredTrial is a simulated trial found in the store, ready to replay.
type StoredTrial struct {
	ID       string
	Run      store.RunID
	Case     *Case
	Seed     int64
	Settings Settings
}

// FindStoredTrial looks for the simulated trial id (TrialIDOf's form) in st's court
// runs; caseOf returns a case by id (the bundled and stored cases), which must have
// the content the run recorded.
func FindStoredTrial(ctx context.Context, st *store.Store, id string, caseOf func(id string) (*Case, error)) (*StoredTrial, error) {
	m := trialIDPattern.FindStringSubmatch(id)
	if m == nil {
		return nil, ErrNoStoredTrial
	}
	seed, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil {
		return nil, ErrNoStoredTrial
	}
	c, err := caseOf(m[1])
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, ErrNoStoredTrial
	}
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	runs, err := st.Runs(ctx, KindCourt)
	if err != nil {
		return nil, err
	}
	for _, r := range runs {
		var cfg simConfig
		if json.Unmarshal(r.Config, &cfg) != nil || cfg.Defense != "model" || cfg.Cases[c.ID] != store.Hash(b) {
			continue
		}
		if TrialIDOf(c.ID, seed, cfg.Models, "") != id {
			continue
		}
		s := Settings{TrialID: id, Models: cfg.Models, TurnBudget: cfg.TurnBudget, MaxRestarts: cfg.MaxRestarts,
			Reasks: cfg.Reasks, MaxTokens: cfg.MaxTokens}
		return &StoredTrial{ID: id, Run: r.ID, Case: c, Seed: seed, Settings: s}, nil
	}
	return nil, ErrNoStoredTrial
}

// Replay plays the stored trial again from the store's results, emitting its events;
// it stops at the first call the store lacks (a trial that was never finished) and
// returns the transcript as far as it went.
func (s *StoredTrial) Replay(ctx context.Context, st *store.Store, emit func(Event)) (*Transcript, error) {
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	ask := AskerFunc(func(_ context.Context, call Call, _ *llm.Request) (*llm.Reply, error) {
		res, err := st.Result(rctx, s.Run, call.Key)
		switch {
		case errors.Is(err, store.ErrNotFound):
			stop()
			return nil, context.Canceled
		case err != nil:
			return nil, err
		case res.Err != "":
			return nil, fmt.Errorf("%s: %s", call.Model, res.Err)
		}
		reply := res.Reply
		return &reply, nil
	})
	t, err := NewTrial(s.Case, s.Seed, s.Settings, ask, ModelDefense{})
	if err != nil {
		return nil, err
	}
	err = t.Run(rctx, emit)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return t.Transcript(), nil
}
