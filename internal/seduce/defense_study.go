package seduce

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/stats"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// DefenseComparison is one defense against none for one model, on the samples both
// ruled on (spec section 6): FR under each, the delta with a scenario-clustered
// bootstrap interval, the exact McNemar p-value, and the defense's cost per sample.
type DefenseComparison struct {
	Model             string      `json:"model"`
	Defense           string      `json:"defense"`
	Pairs             int         `json:"pairs"`
	FR                *float64    `json:"fr"`
	FRNone            *float64    `json:"fr_none"`
	Delta             *float64    `json:"delta"`
	DeltaCI           *[2]float64 `json:"delta_ci"`
	McNemarP          float64     `json:"mcnemar_p"`
	RequestsPerSample float64     `json:"requests_per_sample"`
	TokensPerSample   float64     `json:"tokens_per_sample"`
	// FixedByDefense counts the pairs none got wrong and the defense right; BrokenByDefense
	// the reverse.
	FixedByDefense  int `json:"-"`
	BrokenByDefense int `json:"-"`
}

// DefenseStudy is what ExecuteDefenses did: a run per defense and every ruling.
type DefenseStudy struct {
	Defenses []Defense
	// Runs are the run ids, one per defense, in order.
	Runs []store.RunID
	// Rulings are by defense, then model (plan order), then replicate, then sample.
	Rulings [][][][]Ruling
	// After holds the second turns of a study with pushback, in the same shape (nil
	// where nothing was asked); nil without pushback.
	After [][][][]*Ruling
	// Tally counts what was asked, over every defense.
	Tally runner.Tally
}

// DefenseConfig is the run configuration of plan under d: none's is the plan's own, so a
// run without defenses and the none arm of a study are one run.
func DefenseConfig(p *RunPlan, d Defense, endpoints map[string]string) RunConfig {
	cfg := p.Config(endpoints)
	if d.Name() != "none" {
		cfg.Defense, cfg.DefenseIdentity = d.Name(), d.Identity()
	}
	return cfg
}

// ExecuteDefenses runs every model of the plan under every defense, each defense in its
// own run, and collects the rulings. Offline (a session with no models) it only reads
// the store, which is how a study's report is rebuilt.
func ExecuteDefenses(ctx context.Context, sess *runner.Session, p *RunPlan, defenses []Defense) (*DefenseStudy, error) {
	// none goes first: every other defense's run records it.
	defenses = slices.Clone(defenses)
	slices.SortStableFunc(defenses, func(a, b Defense) int { return cmpBool(b.Name() == "none", a.Name() == "none") })
	st := &DefenseStudy{Defenses: defenses}
	var noneRun store.RunID
	for _, d := range defenses {
		cfg := DefenseConfig(p, d, endpointsOf(sess.Endpoints(), p.Models, d))
		if d.Name() != "none" {
			cfg.DefenseSetup = setupOf(d, noneRun)
		}
		run, err := sess.Begin(ctx, runner.Identity{Kind: RunKind, Config: cfg, InputHash: p.Dataset.Hash,
			PromptHash: p.Prompt.Hash, PromptText: p.Prompt.System, EndpointsInConfig: true})
		if err != nil {
			return nil, err
		}
		a := &Asker{Session: sess, Run: run, Prompt: p.Prompt, Generation: p.Generation, Taxonomy: p.Taxonomy, Lexicon: p.Lexicon}
		byModel, err := ruleAll(ctx, a, d, p)
		var after [][][]*Ruling
		if err == nil && p.Pushback != nil {
			after, err = a.pushbackRound(ctx, p.Pushback, p.Models, p.Dataset.Samples, byModel)
		}
		failed := anyFailed(after)
		for _, reps := range byModel {
			for _, rs := range reps {
				failed = failed || slices.ContainsFunc(rs, func(r Ruling) bool { return r.Err != "" })
			}
		}
		if err := sess.Finish(ctx, run, err, failed); err != nil {
			return nil, fmt.Errorf("defense %s: %w", d.Name(), err)
		}
		st.Runs = append(st.Runs, run)
		if d.Name() == "none" {
			noneRun = run
		}
		st.Rulings = append(st.Rulings, byModel)
		if p.Pushback != nil {
			st.After = append(st.After, after)
		}
		st.Tally.Merge(a.Tally)
	}
	return st, nil
}

// endpointsOf keeps the endpoints of the models d asks: the targets and, for
// canonicalize, its guard. A session opened with a guard thus gives its none arm the
// configuration, and so the run, of a plain run of the same targets.
func endpointsOf(all map[string]string, targets []llm.ModelName, d Defense) map[string]string {
	var out map[string]string
	keep := func(n llm.ModelName) {
		if ep, ok := all[string(n)]; ok {
			if out == nil {
				out = map[string]string{}
			}
			out[string(n)] = ep
		}
	}
	for _, n := range targets {
		keep(n)
		if c, ok := d.(*Canonicalize); ok {
			if g, err := c.GuardOf(n); err == nil {
				keep(g)
			}
		}
	}
	return out
}

// ruleAll rules with every model of the plan, the models at once (each still limited
// to the session's concurrency), the replicates of one model in turn.
func ruleAll(ctx context.Context, a *Asker, d Defense, p *RunPlan) ([][][]Ruling, error) {
	reps := max(p.Replicates, 1)
	out := make([][][]Ruling, len(p.Models))
	askers := make([]Asker, len(p.Models))
	errs := make([]error, len(p.Models))
	var wg sync.WaitGroup
	for m, name := range p.Models {
		askers[m] = *a
		askers[m].Tally = runner.Tally{}
		out[m] = make([][]Ruling, reps)
		wg.Go(func() {
			for rep := range reps {
				rs, err := d.Rule(ctx, &askers[m], name, p.Dataset.Samples, rep)
				if err != nil {
					errs[m] = fmt.Errorf("defense %s: model %s: %w", d.Name(), name, err)
					return
				}
				out[m][rep] = rs
			}
		})
	}
	wg.Wait()
	for m := range askers {
		a.Tally.Merge(askers[m].Tally)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// Predictions are the study's rulings of defense i as predictions.
func (st *DefenseStudy) Predictions(i int, models []llm.ModelName, samples []Sample) []Prediction {
	var preds []Prediction
	for m, reps := range st.Rulings[i] {
		for rep, rs := range reps {
			for k, r := range rs {
				p := Prediction{ID: samples[k].ID, Model: string(models[m]), Replicate: rep, Err: r.Err}
				if r.Err == "" {
					p.Decision, p.Skill, p.Rule = r.Parsed.Decision, r.Parsed.Skill, r.Parsed.Rule
				}
				preds = append(preds, p)
			}
		}
	}
	return preds
}

// cost is the requests and tokens per sample of one model under defense i.
func (st *DefenseStudy) cost(i, m int) (requests, tokens float64) {
	n := 0
	for _, rs := range st.Rulings[i][m] {
		for _, r := range rs {
			n++
			requests += float64(r.Requests)
			tokens += float64(r.Tokens)
		}
	}
	if n == 0 {
		return 0, 0
	}
	return requests / float64(n), tokens / float64(n)
}

// Score scores the study: base is none's results as the run without defenses scores them
// (nil: scored from the rulings); every other defense adds one entry per model, marked
// with its defense, and a paired comparison with none. A study without none gets no
// comparisons.
func (st *DefenseStudy) Score(base *Results, models []llm.ModelName, samples []Sample, opt ScoreOptions) *Results {
	none := slices.IndexFunc(st.Defenses, func(d Defense) bool { return d.Name() == "none" })
	res := base
	if res == nil || none < 0 {
		first := max(none, 0)
		res = Score(samples, st.Predictions(first, models, samples), opt)
		if none < 0 {
			res.Models = res.Models[:0]
			res.Pairwise = nil
		}
	}
	defer st.scorePushback(res, models, samples, opt)
	for i := range res.Models {
		res.Models[i].Defense = "none"
		if m := slices.Index(models, llm.ModelName(res.Models[i].Model)); m >= 0 && none >= 0 {
			rq, tk := st.cost(none, m)
			res.Models[i].RequestsPerSample, res.Models[i].TokensPerSample = &rq, &tk
		}
	}
	for i, d := range st.Defenses {
		if i == none {
			continue
		}
		r := Score(samples, st.Predictions(i, models, samples), opt)
		for _, mr := range r.Models {
			mr.Defense = d.Name()
			if m := slices.Index(models, llm.ModelName(mr.Model)); m >= 0 {
				rq, tk := st.cost(i, m)
				mr.RequestsPerSample, mr.TokensPerSample = &rq, &tk
			}
			res.Models = append(res.Models, mr)
		}
		if none < 0 {
			continue
		}
		for m, name := range models {
			c := PairedComparison(samples, st.Rulings[none][m], st.Rulings[i][m], opt.Bootstrap, opt.Seed^nameHash(string(name)+"\x00"+d.Name()))
			c.Model, c.Defense = string(name), d.Name()
			c.RequestsPerSample, c.TokensPerSample = st.cost(i, m)
			res.Defenses = append(res.Defenses, c)
		}
	}
	return res
}

// PairedComparison compares a defense's rulings with none's, replicate by replicate and
// sample by sample, on the pairs where both ruled roll or pass. The interval resamples
// scenarios (the clusters of the four variants) with replacement, reps times from seed;
// reps ≤ 0 leaves it nil.
func PairedComparison(samples []Sample, none, def [][]Ruling, reps int, seed uint64) DefenseComparison {
	type cluster struct{ wrongDef, wrongNone, pairs int }
	var order []string
	byScenario := map[string]*cluster{}
	var c DefenseComparison
	var wrongDef, wrongNone int
	for rep := range min(len(none), len(def)) {
		for k, s := range samples {
			if k >= len(none[rep]) || k >= len(def[rep]) {
				break
			}
			x, y := none[rep][k], def[rep][k]
			if !evaluated(x) || !evaluated(y) {
				continue
			}
			wn, wd := wrongRuling(s, x.Parsed.Decision), wrongRuling(s, y.Parsed.Decision)
			cl := byScenario[s.ScenarioID]
			if cl == nil {
				cl = &cluster{}
				byScenario[s.ScenarioID] = cl
				order = append(order, s.ScenarioID)
			}
			cl.pairs++
			c.Pairs++
			if wn {
				cl.wrongNone++
				wrongNone++
			}
			if wd {
				cl.wrongDef++
				wrongDef++
			}
			switch {
			case wn && !wd:
				c.FixedByDefense++
			case wd && !wn:
				c.BrokenByDefense++
			}
		}
	}
	c.McNemarP = stats.McNemarExact(c.FixedByDefense, c.BrokenByDefense)
	if c.Pairs == 0 {
		return c
	}
	fr, frNone := float64(wrongDef)/float64(c.Pairs), float64(wrongNone)/float64(c.Pairs)
	delta := fr - frNone
	c.FR, c.FRNone, c.Delta = &fr, &frNone, &delta
	if reps <= 0 {
		return c
	}
	cls := make([]cluster, len(order))
	for i, id := range order {
		cls[i] = *byScenario[id]
	}
	r := rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc908))
	deltas := make([]float64, reps)
	for b := range deltas {
		var wd, wn, n int
		for range cls {
			cl := &cls[r.IntN(len(cls))]
			wd, wn, n = wd+cl.wrongDef, wn+cl.wrongNone, n+cl.pairs
		}
		deltas[b] = float64(wd-wn) / float64(n) // n > 0: every cluster has a pair
	}
	slices.Sort(deltas)
	alpha := (1 - ConfidenceLevel) / 2
	c.DeltaCI = &[2]float64{stats.Quantile(deltas, alpha), stats.Quantile(deltas, 1-alpha)}
	return c
}

func evaluated(r Ruling) bool {
	return r.Err == "" && (r.Parsed.Decision == DecisionRoll || r.Parsed.Decision == DecisionPass)
}

func wrongRuling(s Sample, d Decision) bool {
	return s.RequiresRoll && d == DecisionPass || !s.RequiresRoll && d == DecisionRoll
}

// DefenseSetup is what a defense's run records beyond its name, so that its report can
// be rebuilt from the store alone: the none run it is compared with and the defense's
// own inputs.
type DefenseSetup struct {
	NoneRun     store.RunID `json:"none_run,omitempty"`
	Guard       string      `json:"guard,omitempty"`
	GuardPrompt string      `json:"guard_prompt,omitempty"`
	Shots       []string    `json:"shots,omitempty"`
	ShotSeed    uint64      `json:"shot_seed,omitempty"`
	Temperature *float64    `json:"temperature,omitempty"`
}

func setupOf(d Defense, noneRun store.RunID) *DefenseSetup {
	s := &DefenseSetup{NoneRun: noneRun}
	switch d := d.(type) {
	case *Canonicalize:
		s.Guard, s.GuardPrompt = string(d.Guard), d.System
	case SelfConsistency:
		s.Temperature = d.Temperature
	case FewShot:
		s.Shots, s.ShotSeed = d.From, d.Seed
	}
	return s
}

// DefenseRunError is a stored defense run that cannot be reported alone.
type DefenseRunError struct {
	Run     store.RunID
	Defense string
	Why     string
}

func (e *DefenseRunError) Error() string {
	return fmt.Sprintf("run %s is the %s arm of a defense study and %s: "+
		"run the same 'arbiter seduce run --defense …' command again for the study's report (it asks nothing already stored)", e.Run, e.Defense, e.Why)
}

// RescoreDefense rebuilds the report of one defense's run and the none run it records,
// from the store alone: the defense is rebuilt from the run's configuration and asked
// offline, so it only reads what was stored.
func RescoreDefense(ctx context.Context, st *store.Store, r *store.Run, cfg *RunConfig, ds *Dataset, popt ParseOptions, so ScoreOptions) (*Results, error) {
	study, base, p, err := rebuildDefense(ctx, st, r, cfg, ds, popt, so)
	if err != nil {
		return nil, err
	}
	return study.Score(base, p.Models, ds.Samples, so), nil
}

// rebuildDefense rules a stored defense run (and the none run it records) again from
// the store alone: the study, the none run's results (nil without one) and the plan.
func rebuildDefense(ctx context.Context, st *store.Store, r *store.Run, cfg *RunConfig, ds *Dataset, popt ParseOptions, so ScoreOptions) (*DefenseStudy, *Results, *RunPlan, error) {
	setup := cfg.DefenseSetup
	if setup == nil {
		setup = &DefenseSetup{}
	}
	opt := DefenseOptions{Guard: llm.ModelName(setup.Guard), GuardPrompt: setup.GuardPrompt, Temperature: setup.Temperature,
		ShotSeed: setup.ShotSeed, ShotsFrom: setup.Shots}
	if len(setup.Shots) > 0 {
		shots, err := LoadDatasets(setup.Shots, popt.Taxonomy)
		if err != nil {
			return nil, nil, nil, &DefenseRunError{Run: r.ID, Defense: cfg.Defense, Why: "its shots set cannot be read now: " + err.Error()}
		}
		opt.Shots = shots
	}
	d, err := ParseDefense(cfg.Defense, opt)
	if err != nil {
		return nil, nil, nil, &DefenseRunError{Run: r.ID, Defense: cfg.Defense, Why: err.Error()}
	}
	var lines *PushbackLines
	if cfg.Pushback != "" {
		// Offline, a round only reads its keys: the lines' wording changes nothing.
		lines = DefaultPushbackLines()
	}
	if d.Identity() != cfg.DefenseIdentity {
		return nil, nil, nil, &DefenseRunError{Run: r.ID, Defense: cfg.Defense, Why: "its inputs (guard prompt or shots) have changed since"}
	}
	p := &RunPlan{Datasets: cfg.Datasets, Dataset: ds, Taxonomy: popt.Taxonomy, Prompt: Prompt{System: r.PromptText, Hash: r.PromptHash},
		Replicates: max(cfg.Replicates, 1), Generation: Generation{Temperature: cfg.Temperature, MaxTokens: cfg.MaxTokens, Seed: cfg.Seed},
		Lexicon: popt.Lexicon, LexiconPaths: cfg.Lexicons}
	for _, m := range cfg.Models {
		p.Models = append(p.Models, llm.ModelName(m))
	}
	offline := &runner.Session{Store: st}
	study := &DefenseStudy{}
	var base *Results
	if setup.NoneRun != "" {
		if base, err = ScoreRunWith(ctx, st, setup.NoneRun, ds, popt, so); err != nil {
			return nil, nil, nil, err
		}
		a := &Asker{Session: offline, Run: setup.NoneRun, Prompt: p.Prompt, Generation: p.Generation, Taxonomy: p.Taxonomy, Lexicon: p.Lexicon}
		rs, err := ruleAll(ctx, a, None{}, p)
		if err != nil {
			return nil, nil, nil, err
		}
		if lines != nil {
			after, err := a.pushbackRound(ctx, lines, p.Models, ds.Samples, rs)
			if err != nil {
				return nil, nil, nil, err
			}
			study.After = append(study.After, after)
		}
		study.Defenses, study.Runs, study.Rulings = append(study.Defenses, None{}), append(study.Runs, setup.NoneRun), append(study.Rulings, rs)
	}
	a := &Asker{Session: offline, Run: r.ID, Prompt: p.Prompt, Generation: p.Generation, Taxonomy: p.Taxonomy, Lexicon: p.Lexicon}
	rs, err := ruleAll(ctx, a, d, p)
	if err != nil {
		return nil, nil, nil, err
	}
	if lines != nil {
		after, err := a.pushbackRound(ctx, lines, p.Models, ds.Samples, rs)
		if err != nil {
			return nil, nil, nil, err
		}
		study.After = append(study.After, after)
	}
	study.Defenses, study.Runs, study.Rulings = append(study.Defenses, d), append(study.Runs, r.ID), append(study.Rulings, rs)
	return study, base, p, nil
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
