package court

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// Simulation runs every case with every seed as a trial with no person in it: the
// defense is a model (ModelDefense) or a script. All trials are calls of one run of
// Session, keyed by their call keys, so a simulation stopped at any point (a kill, a
// power cut) and started again with the same inputs asks only the calls the store lacks:
// a finished trial is replayed from the store and asks nothing.
//
// Trials run in parallel, Concurrency at a time; inside a trial the turns are asked in
// order (each depends on the ones before). A trial therefore has at most one request in
// flight, and Concurrency is also the number of requests in flight.
type Simulation struct {
	Session *runner.Session
	Cases   []*Case
	// Seeds are the trials' seeds; every case is tried with each.
	Seeds []int64
	// Settings apply to every trial; TrialID is ignored (see TrialIDOf) and
	// Settings.Models names every role's model.
	Settings Settings
	// Defense plays the defense of every trial: ModelDefense (Settings.Models.Defense
	// set) or a *Script. It is shared by concurrent trials, so it must not keep state
	// between moves (neither does).
	Defense Player
	// DefenseScript identifies a scripted defense in the run's identity (its file's
	// hash, say); empty for a model defense.
	DefenseScript string
	// Concurrency is how many trials run at once; default 4.
	Concurrency int
	// Progress, when set, is told how the simulation stands after every turn, restart
	// and trial; calls never overlap.
	Progress func(SimProgress)
	// TrialDone, when set, sees every trial that ended, completed or not, as it ends
	// (to write its transcript file); calls never overlap. An error it returns makes the
	// trial's result an error.
	TrialDone func(*Transcript) error
}

// SimProgress is how far a simulation has come.
type SimProgress struct {
	// Trials is how many trials the simulation has; Done how many have ended (with a
	// verdict, abandoned, or by an error), Errors how many of those by an error.
	Trials, Done, Errors int
	// Turns counts the turns spoken so far (replayed ones included), Restarts the
	// failures that started a trial again.
	Turns, Restarts int
	Elapsed         time.Duration
	// ETA is the time left at the rate so far; 0 until a trial has ended.
	ETA time.Duration
}

// TrialResult is how one trial of a simulation ended.
type TrialResult struct {
	TrialID string
	CaseID  string
	Seed    int64
	// Transcript is the trial's, nil when Err is set.
	Transcript *Transcript
	// Err is why the trial could not finish: the store failed, the run was interrupted,
	// or the defense made a move that cannot be played. A trial abandoned after its
	// restarts is not an error: its transcript says completed false.
	Err error
}

// SimResult is a simulation's outcome.
type SimResult struct {
	Run    store.RunID
	Trials []TrialResult
	// Tally counts the requests of every trial: asked, from the store, from the cache.
	Tally runner.Tally
}

// Completed counts the trials that reached a verdict.
func (r *SimResult) Completed() int {
	return r.count(func(t *Transcript) bool { return t.Completed })
}

// Wins counts the verdicts that met the defense goal; Losses the others.
func (r *SimResult) Wins() int {
	return r.count(func(t *Transcript) bool { return t.Outcome != nil && *t.Outcome == OutcomeWin })
}

// Losses counts the verdicts that did not meet the defense goal.
func (r *SimResult) Losses() int {
	return r.count(func(t *Transcript) bool { return t.Outcome != nil && *t.Outcome == OutcomeLoss })
}

// Retries sums every trial's restarts.
func (r *SimResult) Retries() int {
	n := 0
	for _, t := range r.Trials {
		if t.Transcript != nil {
			n += t.Transcript.Retries
		}
	}
	return n
}

// Errors lists the trials that could not finish.
func (r *SimResult) Errors() []TrialResult {
	var out []TrialResult
	for _, t := range r.Trials {
		if t.Err != nil {
			out = append(out, t)
		}
	}
	return out
}

func (r *SimResult) count(f func(*Transcript) bool) int {
	n := 0
	for _, t := range r.Trials {
		if t.Transcript != nil && f(t.Transcript) {
			n++
		}
	}
	return n
}

// TrialIDOf is the id of a simulated trial: "<case_id>-s<seed>-<tag>", tag a short hash
// of the models and the defense, so that studies of several models can share one
// transcript folder and the same flags always give the same ids.
func TrialIDOf(caseID string, seed int64, m Models, defenseScript string) string {
	b, _ := json.Marshal(struct {
		M Models `json:"m"`
		D string `json:"d,omitempty"`
	}{m, defenseScript})
	sum := sha256.Sum256(b)
	return fmt.Sprintf("%s-s%d-%s", caseID, seed, hex.EncodeToString(sum[:3]))
}

// simConfig identifies a simulation's run. Seeds and the list of cases are not in it,
// so more seeds or another case later extend the same run; each case's content is, so an
// edited case is never answered with the calls of its old version.
type simConfig struct {
	Models      Models            `json:"models"`
	Defense     string            `json:"defense"`
	TurnBudget  int               `json:"turn_budget"`
	MaxRestarts int               `json:"max_restarts"`
	Reasks      int               `json:"reasks"`
	MaxTokens   int               `json:"max_tokens,omitempty"`
	Cases       map[string]string `json:"cases"`
}

// Prepare checks the simulation, records its run as Run does (the same identity, so a
// later Run resumes it) and lists its trials without playing any: for a simulation
// whose trials are queued, each played by a worker with PlayTrial.
func (s *Simulation) Prepare(ctx context.Context) (store.RunID, []TrialResult, error) {
	run, trials, _, err := s.prepare(ctx)
	return run, trials, err
}

func (s *Simulation) prepare(ctx context.Context) (store.RunID, []TrialResult, Settings, error) {
	if s.Session == nil || s.Defense == nil {
		return "", nil, Settings{}, errors.New("simulate: a session and a defense are needed")
	}
	if len(s.Cases) == 0 || len(s.Seeds) == 0 {
		return "", nil, Settings{}, errors.New("simulate: no cases or no seeds")
	}
	settings, err := s.Settings.withDefaults(s.Cases[0], s.Seeds[0])
	if err != nil {
		return "", nil, Settings{}, err
	}
	cfg := simConfig{Models: settings.Models, Defense: "model", TurnBudget: settings.TurnBudget,
		MaxRestarts: settings.MaxRestarts, Reasks: settings.Reasks, MaxTokens: settings.MaxTokens, Cases: map[string]string{}}
	if s.DefenseScript != "" {
		cfg.Defense = "script " + s.DefenseScript
	}
	seen := map[string]bool{}
	for _, c := range s.Cases {
		if seen[c.ID] {
			return "", nil, Settings{}, fmt.Errorf("simulate: case %s given twice", c.ID)
		}
		seen[c.ID] = true
		b, err := json.Marshal(c)
		if err != nil {
			return "", nil, Settings{}, fmt.Errorf("simulate: encode case %s: %w", c.ID, err)
		}
		cfg.Cases[c.ID] = store.Hash(b)
	}
	run, err := s.Session.Begin(ctx, runner.Identity{Kind: KindCourt, Config: cfg})
	if err != nil {
		return "", nil, Settings{}, err
	}

	var trials []TrialResult
	for _, c := range s.Cases {
		for _, seed := range s.Seeds {
			trials = append(trials, TrialResult{TrialID: TrialIDOf(c.ID, seed, settings.Models, s.DefenseScript), CaseID: c.ID, Seed: seed})
		}
	}
	return run, trials, settings, nil
}

// PlayTrial plays the trial of case c with seed in run, as Run plays each of its trials:
// every call is keyed and kept in the store as it ends, so a trial played again (by
// another worker, after a crash) asks only its calls the store lacks. The simulation's
// Cases and Seeds are not read. tally may be nil.
func (s *Simulation) PlayTrial(ctx context.Context, run store.RunID, c *Case, seed int64, tally *runner.Tally) (*Transcript, error) {
	if s.Session == nil || s.Defense == nil {
		return nil, errors.New("simulate: a session and a defense are needed")
	}
	st, err := s.Settings.withDefaults(c, seed)
	if err != nil {
		return nil, err
	}
	st.TrialID = TrialIDOf(c.ID, seed, st.Models, s.DefenseScript)
	if tally == nil {
		tally = &runner.Tally{}
	}
	return s.trial(ctx, run, c, seed, st, tally, &simProgress{start: time.Now()})
}

// Run runs every trial and returns how each ended. Its error is for what stops the
// whole simulation (the run cannot begin, bad settings); a trial that could not finish
// is reported in its TrialResult.
func (s *Simulation) Run(ctx context.Context) (*SimResult, error) {
	run, trials, settings, err := s.prepare(ctx)
	if err != nil {
		return nil, err
	}
	res := &SimResult{Run: run, Trials: trials}
	caseOf := map[string]*Case{}
	for _, c := range s.Cases {
		caseOf[c.ID] = c
	}

	limit := s.Concurrency
	if limit <= 0 {
		limit = 4
	}
	p := &simProgress{report: s.Progress, start: time.Now()}
	p.st.Trials = len(res.Trials)
	var (
		mu  sync.Mutex // guards res.Tally and TrialDone calls
		wg  sync.WaitGroup
		sem = make(chan struct{}, limit)
	)
	for i := range res.Trials {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			for j := i; j < len(res.Trials); j++ {
				res.Trials[j].Err = ctx.Err()
			}
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			tr := &res.Trials[i]
			var tally runner.Tally
			st := settings
			st.TrialID = tr.TrialID
			tr.Transcript, tr.Err = s.trial(ctx, run, caseOf[tr.CaseID], tr.Seed, st, &tally, p)
			mu.Lock()
			defer mu.Unlock()
			res.Tally.Merge(tally)
			if tr.Err == nil && s.TrialDone != nil {
				if err := s.TrialDone(tr.Transcript); err != nil {
					tr.Transcript, tr.Err = nil, err
				}
			}
			p.trialDone(tr.Err != nil)
		})
	}
	wg.Wait()
	var runErr error
	if ctx.Err() != nil {
		runErr = ctx.Err()
	}
	incomplete := len(res.Errors()) > 0 || res.Completed() < len(res.Trials)
	if err := s.Session.Finish(ctx, run, runErr, incomplete); err != nil && !errors.Is(err, ctx.Err()) {
		return res, err
	}
	return res, nil
}

// trial runs one trial to its end.
func (s *Simulation) trial(ctx context.Context, run store.RunID, c *Case, seed int64, st Settings,
	tally *runner.Tally, p *simProgress) (*Transcript, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ask := &Recorded{Session: s.Session, Run: run, Tally: tally, Stop: cancel}
	t, err := NewTrial(c, seed, st, ask, s.Defense)
	if err != nil {
		return nil, fmt.Errorf("trial %s: %w", st.TrialID, err)
	}
	err = t.Run(ctx, func(e Event) {
		switch {
		case e.Kind == EventEnd:
			p.turn()
		case e.Kind == EventError && e.Restart:
			p.restart()
		}
	})
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
			err = cause
		}
		return nil, fmt.Errorf("trial %s: %w", st.TrialID, err)
	}
	return t.Transcript(), nil
}

// simProgress counts a simulation's progress for its callback.
type simProgress struct {
	mu     sync.Mutex
	report func(SimProgress)
	start  time.Time
	st     SimProgress
}

func (p *simProgress) turn()    { p.update(func(s *SimProgress) { s.Turns++ }) }
func (p *simProgress) restart() { p.update(func(s *SimProgress) { s.Restarts++ }) }
func (p *simProgress) trialDone(failed bool) {
	p.update(func(s *SimProgress) {
		s.Done++
		if failed {
			s.Errors++
		}
	})
}

func (p *simProgress) update(f func(*SimProgress)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f(&p.st)
	if p.report == nil {
		return
	}
	p.st.Elapsed = time.Since(p.start)
	p.st.ETA = 0
	if p.st.Done > 0 {
		p.st.ETA = time.Duration(float64(p.st.Elapsed) / float64(p.st.Done) * float64(p.st.Trials-p.st.Done))
	}
	p.report(p.st)
}
