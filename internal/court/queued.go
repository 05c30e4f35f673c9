package court

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// TrialWork is what a queued trial is called (queue.WorkArgs.Of).
const TrialWork = "court-trial"

// QueuedTrial is one trial of a simulation as a queue carries it to a worker: the case
// record as JSON (so a worker plays exactly the version that the run's identity hashed),
// the seed, the settings and, for a scripted defense, the script's hash and moves.
type QueuedTrial struct {
	Trial         string          `json:"trial"`
	Case          json.RawMessage `json:"case"`
	Seed          int64           `json:"seed"`
	Settings      Settings        `json:"settings"`
	DefenseScript string          `json:"defense_script,omitempty"`
	Moves         []Move          `json:"moves,omitempty"`
}

// Models are the labels the trial asks, each once.
func (q *QueuedTrial) Models() []llm.ModelName {
	m := q.Settings.Models
	return []llm.ModelName{m.Judge, m.Prosecutor, m.Witness, m.Analyzer, m.Defense}
}

// badWork is a queued unit no retry can mend.
type badWork struct{ err error }

func (e badWork) Error() string   { return e.err.Error() }
func (e badWork) Unwrap() error   { return e.err }
func (e badWork) Permanent() bool { return true }

// PlayQueued plays one queued trial (a QueuedTrial as JSON) in sess within run, through
// the same session path 'court simulate' takes: each turn is written to the store as it
// ends, so a trial another worker began resumes here at its first turn not yet
// answered. It is the court's queue.Work.
func PlayQueued(ctx context.Context, sess *runner.Session, run store.RunID, payload json.RawMessage) (runner.Tally, error) {
	var tally runner.Tally
	var q QueuedTrial
	if err := json.Unmarshal(payload, &q); err != nil {
		return tally, badWork{fmt.Errorf("queued trial: %w", err)}
	}
	cases, err := ParseCases(q.Case, "case of trial "+q.Trial+".json")
	if err != nil {
		return tally, badWork{err}
	}
	var defense Player = ModelDefense{}
	if q.Moves != nil {
		defense = &Script{Moves: q.Moves}
	}
	sim := &Simulation{Session: sess, Settings: q.Settings, Defense: defense, DefenseScript: q.DefenseScript}
	_, err = sim.PlayTrial(ctx, run, cases[0], q.Seed, &tally)
	return tally, err
}
