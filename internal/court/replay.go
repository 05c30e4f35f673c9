package court

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

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
	return s.replay(ctx, func(ctx context.Context, key string) (*store.Result, error) {
		return st.Result(ctx, s.Run, key)
	}, emit)
}

// replay plays the trial with every call answered by result (store.ErrNotFound for a
// call the store lacks).
func (s *StoredTrial) replay(ctx context.Context, result func(ctx context.Context, key string) (*store.Result, error), emit func(Event)) (*Transcript, error) {
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	ask := AskerFunc(func(_ context.Context, call Call, _ *llm.Request) (*llm.Reply, error) {
		res, err := result(rctx, call.Key)
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

// StoredTrialInfo describes a stored simulated trial for a list to choose from.
type StoredTrialInfo struct {
	ID     string
	Run    store.RunID
	CaseID string
	Title  string
	Seed   int64
	Models Models
	// Turns counts the turns of the trial's last attempt; Completed says whether it
	// reached a verdict, and Outcome is the verdict's ("win" or "loss": the defense's
	// goal met or not), empty without one.
	Turns     int
	Completed bool
	Outcome   string
	// Updated is when the trial's latest call was stored.
	Updated time.Time
}

// Info replays the trial from the store, asking no model, to describe it as
// StoredTrials does.
func (s *StoredTrial) Info(ctx context.Context, st *store.Store) (*StoredTrialInfo, error) {
	var updated time.Time
	tx, err := s.replay(ctx, func(ctx context.Context, key string) (*store.Result, error) {
		res, err := st.Result(ctx, s.Run, key)
		if err == nil && res.UpdatedAt.After(updated) {
			updated = res.UpdatedAt
		}
		return res, err
	}, nil)
	if err != nil {
		return nil, err
	}
	info := s.info(tx, updated)
	return &info, nil
}

// info describes the trial as its replay tx went; updated is its latest call's time.
func (s *StoredTrial) info(tx *Transcript, updated time.Time) StoredTrialInfo {
	info := StoredTrialInfo{ID: s.ID, Run: s.Run, CaseID: s.Case.ID, Title: s.Case.Title, Seed: s.Seed,
		Models: s.Settings.Models, Turns: len(tx.Turns), Completed: tx.Completed, Updated: updated}
	if tx.Verdict != nil {
		info.Outcome = tx.Verdict.Outcome
	}
	return info
}

// StoredTrials lists the simulated trials of st that can be replayed (a model defense's,
// on a case caseOf knows with the content the run recorded), newest first, as far as
// each went: every trial is replayed from its results, read once, run by run, so the
// outcome is the one a replay reaches. A case caseOf does not know is left out.
func StoredTrials(ctx context.Context, st *store.Store, caseOf func(id string) (*Case, error)) ([]StoredTrialInfo, error) {
	runs, err := st.Runs(ctx, KindCourt)
	if err != nil {
		return nil, err
	}
	var out []StoredTrialInfo
	for _, r := range runs {
		var cfg simConfig
		if json.Unmarshal(r.Config, &cfg) != nil || cfg.Defense != "model" {
			continue
		}
		trials, err := runTrials(ctx, st, r.ID, cfg, caseOf)
		if err != nil {
			return nil, err
		}
		if len(trials) == 0 {
			continue
		}
		// A run's results come in job-key order, and a trial's keys all begin with its
		// id and a slash: each trial's results are read together, then replayed from
		// memory (no query while the results are being read).
		var (
			cur     string
			results map[string]*store.Result
			updated time.Time
		)
		flush := func() {
			tr := trials[cur]
			if tr == nil {
				return
			}
			tx, err := tr.replay(ctx, func(_ context.Context, key string) (*store.Result, error) {
				if res, ok := results[key]; ok {
					return res, nil
				}
				return nil, store.ErrNotFound
			}, nil)
			if err != nil {
				return // a trial its own results cannot replay is not offered
			}
			out = append(out, tr.info(tx, updated))
		}
		err = st.Results(ctx, r.ID, false, func(res *store.Result) error {
			id, _, ok := strings.Cut(res.JobKey, "/")
			if !ok {
				return nil
			}
			if id != cur {
				flush()
				cur, results, updated = id, map[string]*store.Result{}, time.Time{}
			}
			if trials[id] == nil {
				return nil
			}
			results[res.JobKey] = res
			if res.UpdatedAt.After(updated) {
				updated = res.UpdatedAt
			}
			return ctx.Err()
		})
		if err != nil {
			return nil, fmt.Errorf("list the stored trials of run %s: %w", r.ID, err)
		}
		flush()
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Updated.Equal(out[j].Updated) {
			return out[i].Updated.After(out[j].Updated)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// runTrials finds the trials of run, by the ids its answered calls begin with, that can
// be replayed: ids of TrialIDOf's form for the run's models, on a case caseOf gives with
// the content the run recorded.
func runTrials(ctx context.Context, st *store.Store, run store.RunID, cfg simConfig, caseOf func(id string) (*Case, error)) (map[string]*StoredTrial, error) {
	keys, err := st.AnsweredKeys(ctx, run)
	if err != nil {
		return nil, err
	}
	out := map[string]*StoredTrial{}
	checked := map[string]bool{}
	cases := map[string]*Case{}
	for k := range keys {
		id, _, ok := strings.Cut(k, "/")
		if !ok || checked[id] {
			continue
		}
		checked[id] = true
		m := trialIDPattern.FindStringSubmatch(id)
		if m == nil || cfg.Cases[m[1]] == "" {
			continue
		}
		seed, err := strconv.ParseInt(m[2], 10, 64)
		if err != nil || TrialIDOf(m[1], seed, cfg.Models, "") != id {
			continue
		}
		c, seen := cases[m[1]]
		if !seen {
			if c, err = caseOf(m[1]); err != nil {
				return nil, err
			}
			if c != nil {
				if b, err := json.Marshal(c); err != nil || cfg.Cases[c.ID] != store.Hash(b) {
					c = nil
				}
			}
			cases[m[1]] = c
		}
		if c == nil {
			continue
		}
		out[id] = &StoredTrial{ID: id, Run: run, Case: c, Seed: seed, Settings: Settings{TrialID: id, Models: cfg.Models,
			TurnBudget: cfg.TurnBudget, MaxRestarts: cfg.MaxRestarts, Reasks: cfg.Reasks, MaxTokens: cfg.MaxTokens}}
	}
	return out, nil
}
