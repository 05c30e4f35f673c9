package seduce

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/arbiter-eval/arbiter/internal/input"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// RunKind is the store's kind for benchmark runs.
const RunKind store.Kind = "seduce"

// LoadDatasets reads every named dataset ("builtin" is the bundled reference set) and
// merges them; ids must stay unique. No names means builtin.
func LoadDatasets(names []string, tax *Taxonomy) (*Dataset, error) {
	if len(names) == 0 {
		names = []string{"builtin"}
	}
	merged := &Dataset{}
	var hashes []string
	seen := map[SampleID]string{}
	for _, name := range names {
		var ds *Dataset
		var err error
		if name == "builtin" {
			ds, err = Builtin(tax)
		} else {
			ds, err = LoadDataset(name, tax)
		}
		if err != nil {
			return nil, err
		}
		for _, s := range ds.Samples {
			if prev, dup := seen[s.ID]; dup {
				return nil, fmt.Errorf("%s: id: %q is also in %s; ids must be unique across datasets", name, s.ID, prev)
			}
			seen[s.ID] = name
		}
		merged.Samples = append(merged.Samples, ds.Samples...)
		hashes = append(hashes, ds.Hash)
	}
	merged.Name = strings.Join(names, "+")
	if len(hashes) == 1 {
		merged.Hash = hashes[0]
	} else {
		merged.Hash = store.Hash([]byte(strings.Join(hashes, ",")))
	}
	return merged, nil
}

// Experiment is a study in one file: datasets, models, parameters, replicates.
type Experiment struct {
	Name        string       `yaml:"name"`
	Datasets    []string     `yaml:"datasets"`
	Models      []ModelEntry `yaml:"models"`
	Replicates  int          `yaml:"replicates"`
	Concurrency int          `yaml:"concurrency"`
	Prompt      string       `yaml:"prompt"`
	Taxonomy    string       `yaml:"taxonomy"`
	Temperature *float64     `yaml:"temperature"`
	MaxTokens   int          `yaml:"max_tokens"`
	Seed        *int64       `yaml:"seed"`
	Bootstrap   *int         `yaml:"bootstrap"`
	// Defenses, GuardModel, GuardPrompt, Shots and ShotSeed are the defense study's
	// (spec section 6), as the --defense, --guard-model, --guard-prompt, --shots and
	// --shot-seed flags.
	Defenses    []string `yaml:"defenses"`
	GuardModel  string   `yaml:"guard_model"`
	GuardPrompt string   `yaml:"guard_prompt"`
	Shots       string   `yaml:"shots"`
	ShotSeed    *uint64  `yaml:"shot_seed"`
	// Pushback asks every roll ruling once more (spec section 7), as --pushback.
	Pushback bool `yaml:"pushback"`
}

// LoadExperiment reads an experiment file; unknown fields are errors.
func LoadExperiment(path string) (*Experiment, error) {
	b, err := input.ReadYAMLFile(context.Background(), path)
	if err != nil {
		return nil, err
	}
	var e Experiment
	if err := input.DecodeYAML(path, b, &e, yaml.DisallowUnknownField()); err != nil {
		if _, ok := err.(*input.ValidationError); ok {
			return nil, err
		}
		if ee := (*EntryError)(nil); errors.As(err, &ee) {
			return nil, ee.problem(path)
		}
		return nil, fmt.Errorf("experiment %s: %s", path, input.YAMLError(err))
	}
	if len(e.Models) == 0 {
		return nil, fmt.Errorf("experiment %s: models: list at least one model", path)
	}
	if err := checkEntries(path, e.Models); err != nil {
		return nil, err
	}
	return &e, nil
}

// RunConfig is what identifies a benchmark run: the same config resumes the same run.
type RunConfig struct {
	Kind        store.Kind `json:"kind"`
	Datasets    []string   `json:"datasets"`
	DatasetHash string     `json:"dataset_hash"`
	Taxonomy    string     `json:"taxonomy,omitempty"`
	PromptHash  string     `json:"prompt_hash"`
	Models      []string   `json:"models"`
	Replicates  int        `json:"replicates"`
	Temperature *float64   `json:"temperature,omitempty"`
	MaxTokens   int        `json:"max_tokens,omitempty"`
	Seed        *int64     `json:"seed,omitempty"`
	// Endpoints names the models asked at a custom endpoint, so a run against a local
	// or stand-in server is never resumed against the real provider.
	Endpoints map[string]string `json:"endpoints,omitempty"`
	// Lexicons are the --lexicon files the replies were parsed with, so that a report of
	// the run reads them the same way.
	Lexicons []string `json:"lexicons,omitempty"`
	// Defense and DefenseIdentity name a defense study's defense other than none (spec
	// section 6): each defense is its own run, and none is the run without one.
	// DefenseSetup holds what a report needs to rebuild the defense from the store.
	Defense         string        `json:"defense,omitempty"`
	DefenseIdentity string        `json:"defense_identity,omitempty"`
	DefenseSetup    *DefenseSetup `json:"defense_setup,omitempty"`
	// Pushback is the hash of the pushback lines of a run that asks every roll ruling
	// once more (spec section 7); "" without pushback.
	Pushback string `json:"pushback,omitempty"`
}

// RunConfigOf reads a stored run's configuration.
func RunConfigOf(r *store.Run) (*RunConfig, error) {
	var cfg RunConfig
	if err := json.Unmarshal(r.Config, &cfg); err != nil {
		return nil, fmt.Errorf("run %s: config: %w", r.ID, err)
	}
	return &cfg, nil
}

// Generation is the sampling parameters sent with every request; nil and 0 leave the
// provider's default.
type Generation struct {
	Temperature *float64
	MaxTokens   int
	Seed        *int64
}

// RunPlan is one benchmark run: which models answer which samples, how often.
type RunPlan struct {
	// Datasets are the names the dataset was loaded from, as recorded in the config.
	Datasets []string
	Dataset  *Dataset
	// TaxonomyPath is the taxonomy file ("" for the built-in one); Taxonomy is it loaded.
	TaxonomyPath string
	Taxonomy     *Taxonomy
	Prompt       Prompt
	// Models are asked in this order; the config records them sorted.
	Models     []llm.ModelName
	Replicates int
	Generation Generation
	// LexiconPaths are the extra lexicon files (recorded in the config); Lexicon is them
	// loaded (nil: DefaultLexicon).
	LexiconPaths []string
	Lexicon      *Lexicon
	// Pushback, when set, asks every roll ruling once more with these lines (spec
	// section 7), as a second round of the same run.
	Pushback *PushbackLines
}

// Config is the plan's run configuration, with the endpoints the session asks at.
func (p *RunPlan) Config(endpoints map[string]string) RunConfig {
	cfg := RunConfig{Kind: RunKind, Datasets: p.Datasets, DatasetHash: p.Dataset.Hash, Taxonomy: p.TaxonomyPath,
		PromptHash: p.Prompt.Hash, Replicates: p.Replicates,
		Temperature: p.Generation.Temperature, MaxTokens: p.Generation.MaxTokens, Seed: p.Generation.Seed, Endpoints: endpoints,
		Lexicons: p.LexiconPaths}
	if p.Pushback != nil {
		cfg.Pushback = p.Pushback.Hash
	}
	for _, n := range p.Models {
		cfg.Models = append(cfg.Models, string(n))
	}
	slices.Sort(cfg.Models)
	return cfg
}

// Identity is the plan's run identity, with the endpoints the session asks at and the
// reading its replies are read with: the same whether the run is asked here, batched or
// queued.
func (p *RunPlan) Identity(endpoints map[string]string) runner.Identity {
	return runner.Identity{Kind: RunKind, Config: p.Config(endpoints), InputHash: p.Dataset.Hash,
		PromptHash: p.Prompt.Hash, PromptText: p.Prompt.System, EndpointsInConfig: true, Reader: ReaderOf(p.Taxonomy, p.Lexicon)}
}

// Jobs lists every request of the plan: each model, each sample, each replicate.
func (p *RunPlan) Jobs() []runner.Job {
	// Every model and replicate of a sample sends the same request (the runner and the
	// providers only read it), so they share one: a large run holds one rendered prompt
	// per sample, not one per job.
	reqs := make([]*llm.Request, len(p.Dataset.Samples))
	for i, s := range p.Dataset.Samples {
		req := p.Prompt.Request(s)
		req.Temperature, req.Seed = p.Generation.Temperature, p.Generation.Seed
		req.MaxTokens = p.Generation.MaxTokens
		reqs[i] = req
	}
	jobs := make([]runner.Job, 0, len(p.Models)*len(reqs)*p.Replicates)
	for _, name := range p.Models {
		for i, s := range p.Dataset.Samples {
			for rep := range p.Replicates {
				jobs = append(jobs, runner.Job{Key: runner.JobKey(name, string(s.ID), rep), Model: name, Item: string(s.ID), Replicate: rep, Request: reqs[i]})
			}
		}
	}
	return jobs
}

// Execute runs the plan in sess (begun, asked, finished) and returns the run's id and
// what was asked. An interrupted run is an error saying how many jobs were saved in the
// store and how to resume; the run is still recorded as interrupted.
func Execute(ctx context.Context, sess *runner.Session, p *RunPlan) (store.RunID, runner.Summary, error) {
	run, err := sess.Begin(ctx, p.Identity(sess.Endpoints()))
	if err != nil {
		return "", runner.Summary{}, err
	}
	read := Reading{Taxonomy: p.Taxonomy, Lexicon: p.Lexicon}.Read
	sum, err := sess.Run(ctx, run, string(RunKind), p.Jobs(), func(_ runner.Job, r *llm.Reply) string { return read(r) })
	if err == nil && !sum.Interrupted && p.Pushback != nil {
		err = executePushback(ctx, sess, run, p, &sum)
	}
	if err == nil && sum.Interrupted {
		err = fmt.Errorf("interrupted: %d of %d jobs answered so far are saved in %s; run the same command again to resume",
			sum.Resumed+sum.Cached+sum.Answered, sum.Jobs, sess.Store.Path())
	}
	return run, sum, sess.Finish(ctx, run, err, sum.Failed > 0)
}

// Outcome is the parsed ruling stored beside each reply of a benchmark run, with the
// rule that decided it and the text that rule read (Parsed.Rule, Parsed.Span).
type Outcome struct {
	Decision Decision `json:"decision"`
	Skill    string   `json:"skill,omitempty"`
	How      string   `json:"how,omitempty"`
	Rule     string   `json:"rule,omitempty"`
	Span     string   `json:"span,omitempty"`
}

// OutcomeOf is p as stored: a store.OutcomeRuling whose reading is an Outcome.
func OutcomeOf(p Parsed) string {
	return store.EncodeOutcome(store.OutcomeRuling, Outcome{p.Decision, p.Skill, p.How, p.Rule, p.Span})
}

// StoredOutcome reads the ruling stored beside a reply (tagged, or the bare object that
// older stores hold); ok is false for an outcome that is not a ruling.
func StoredOutcome(s string) (o Outcome, ok bool) {
	t, ok := store.DecodeOutcome(s)
	if !ok || t.Kind != store.OutcomeRuling {
		return Outcome{}, false
	}
	if err := json.Unmarshal(t.Reading, &o); err != nil {
		return Outcome{}, false
	}
	return o, true
}

// ScoreOptionsFor is how commands score: skills read through tax, families overridden
// by families (model to family; may be nil).
func ScoreOptionsFor(tax *Taxonomy, bootstrap int, seed uint64, families map[string]string) ScoreOptions {
	opt := ScoreOptions{Bootstrap: bootstrap, Seed: seed,
		Canon: func(s string) string {
			if c, ok := tax.Canonical(s); ok {
				return c
			}
			return s
		}}
	if len(families) > 0 {
		opt.Family = func(m string) string {
			if fam, ok := families[m]; ok {
				return fam
			}
			return ModelFamily(m)
		}
	}
	return opt
}

// ScoreRun reads a run's results back from the store, parses every recorded reply with
// the current parser and scores them: a report never needs a provider.
func ScoreRun(ctx context.Context, st *store.Store, id store.RunID, ds *Dataset, tax *Taxonomy, opt ScoreOptions) (*Results, error) {
	return ScoreRunWith(ctx, st, id, ds, ParseOptions{Taxonomy: tax}, opt)
}

// ScoreRunWith is ScoreRun reading the replies with popt: its taxonomy and lexicon, and
// its Second reader (a parse model, see ModelParse), which is given only the replies the
// rules left unparsed. Set opt.ParseModel with Second so that the report counts its
// rulings.
func ScoreRunWith(ctx context.Context, st *store.Store, id store.RunID, ds *Dataset, popt ParseOptions, opt ScoreOptions) (*Results, error) {
	tax := popt.Taxonomy
	var preds []Prediction
	type span struct{ first, last time.Time }
	spans := map[string]*span{}
	tokens := tokenTally{}
	seconds := map[pushbackKey]*store.Result{}
	err := st.Results(ctx, id, false, func(r *store.Result) error {
		if sid, ok := IsPushbackItem(r.Item); ok {
			cp := *r
			seconds[pushbackKey{string(r.Model), sid, r.Replicate}] = &cp
			return nil
		}
		if r.Source != store.SourceCache && !r.UpdatedAt.IsZero() {
			start := r.UpdatedAt.Add(-r.Reply.Latency)
			sp := spans[string(r.Model)]
			if sp == nil {
				sp = &span{start, r.UpdatedAt}
				spans[string(r.Model)] = sp
			}
			if start.Before(sp.first) {
				sp.first = start
			}
			if r.UpdatedAt.After(sp.last) {
				sp.last = r.UpdatedAt
			}
		}
		p := Prediction{ID: SampleID(r.Item), Model: string(r.Model), Replicate: r.Replicate,
			LatencyMS: float64(r.Reply.Latency.Microseconds()) / 1000}
		if r.Err != "" {
			p.Err = r.Err
		} else {
			tokens.add(p.Model, &r.Reply)
			parsed := FromReplyWith(&r.Reply, tax, popt.Lexicon)
			p.Decision, p.Skill, p.Rule, p.Text = parsed.Decision, parsed.Skill, parsed.Rule, r.Reply.Text
		}
		preds = append(preds, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if popt.Second != nil {
		if err := SecondReading(preds, popt.Second); err != nil {
			return nil, err
		}
	}
	res := Score(ds.Samples, preds, opt)
	tokens.set(res)
	if opt.Pushback {
		pb := pushbackOfPredictions(ds.Samples, preds, seconds, popt, opt)
		for i := range res.Models {
			res.Models[i].Pushback = pb[res.Models[i].Model]
		}
	}
	for i := range res.Models {
		m := &res.Models[i]
		if sp := spans[m.Model]; sp != nil && m.Latency != nil {
			m.Latency.WallMS = float64(sp.last.Sub(sp.first).Microseconds()) / 1000
		}
	}
	return res, nil
}

// SecondReading gives second the text and ruling of every prediction the rules read
// from a reply and left unparsed (ModelParse further skips the empty and reasoning-only
// ones), and takes back the rulings it replaced, marked ModelParsed. Predictions whose
// decision was given, or whose request failed, are never sent.
func SecondReading(preds []Prediction, second func(texts []string, parsed []Parsed) error) error {
	var idx []int
	var texts []string
	var parsed []Parsed
	for i := range preds {
		p := &preds[i]
		if p.Err != "" || p.Rule == "" || p.Decision != DecisionUnparsed {
			continue
		}
		idx = append(idx, i)
		texts = append(texts, p.Text)
		parsed = append(parsed, Parsed{Decision: p.Decision, Skill: p.Skill, Rule: p.Rule})
	}
	if len(idx) == 0 {
		return nil
	}
	if err := second(texts, parsed); err != nil {
		return err
	}
	for j, i := range idx {
		if q := parsed[j]; q.How == HowModel && q.Decision != DecisionUnparsed {
			p := &preds[i]
			p.Decision, p.Skill, p.Rule, p.ModelParsed = q.Decision, q.Skill, q.Rule, true
		}
	}
	return nil
}

// DatasetChangedError is a stored run whose dataset no longer hashes as it did.
type DatasetChangedError struct {
	Run      store.RunID
	Datasets []string // as the run recorded them
	Was      string   // the run's dataset hash
	Name     string   // the dataset loaded now
	Now      string   // its hash
}

func (e *DatasetChangedError) Error() string {
	return fmt.Sprintf("run %s scored dataset %s (hash %.12s) but %s now hashes to %.12s",
		e.Run, strings.Join(e.Datasets, "+"), e.Was, e.Name, e.Now)
}

// RescoreOptions say what to score a stored run against; zero values are the run's own
// dataset and taxonomy and the default bootstrap (1000 replicates, seed 1).
type RescoreOptions struct {
	Dataset  *Dataset
	Taxonomy *Taxonomy
	// Score, when it has Canon set, is used as given.
	Score ScoreOptions
	// Parse is how the replies are read. A nil Parse.Lexicon means the lexicon files the
	// run's configuration names (an error naming them if one cannot be read); Taxonomy is
	// ignored (the taxonomy above is used).
	Parse ParseOptions
}

// LexiconsError is a stored run whose lexicon files cannot be read now.
type LexiconsError struct {
	Run      store.RunID
	Lexicons []string // as the run recorded them
	Err      error
}

func (e *LexiconsError) Error() string {
	return fmt.Sprintf("run %s parsed its replies with lexicon %s, which cannot be read now: %v",
		e.Run, strings.Join(e.Lexicons, ", "), e.Err)
}

func (e *LexiconsError) Unwrap() error { return e.Err }

// Rescore scores a stored benchmark run from its recorded replies alone, against the
// datasets and taxonomy its configuration names unless opt gives others. A dataset that
// no longer hashes as the run recorded is a *DatasetChangedError.
func Rescore(ctx context.Context, st *store.Store, r *store.Run, opt RescoreOptions) (*Results, error) {
	in, err := rescoreInputs(r, opt)
	if err != nil {
		return nil, err
	}
	if in.cfg.Defense != "" {
		return RescoreDefense(ctx, st, r, in.cfg, in.ds, in.popt, in.so)
	}
	return ScoreRunWith(ctx, st, r.ID, in.ds, in.popt, in.so)
}

// rescored is what Rescore scores a stored run with.
type rescored struct {
	cfg  *RunConfig
	ds   *Dataset
	popt ParseOptions
	so   ScoreOptions
}

// rescoreInputs resolves Rescore's options against the run's own configuration.
func rescoreInputs(r *store.Run, opt RescoreOptions) (*rescored, error) {
	cfg, err := RunConfigOf(r)
	if err != nil {
		return nil, err
	}
	// The run is read as it recorded (ReadingOf): its taxonomy and lexicons as text,
	// or, for an older run, the files its configuration names.
	var reading Reading
	if opt.Taxonomy == nil || opt.Parse.Lexicon == nil {
		if reading, err = ReadingOf(r); err != nil {
			return nil, err
		}
	}
	tax := opt.Taxonomy
	if tax == nil {
		tax = reading.Taxonomy
	}
	ds := opt.Dataset
	if ds == nil {
		if ds, err = LoadDatasets(cfg.Datasets, tax); err != nil {
			return nil, err
		}
	}
	if ds.Hash != r.DatasetHash {
		return nil, &DatasetChangedError{Run: r.ID, Datasets: cfg.Datasets, Was: r.DatasetHash, Name: ds.Name, Now: ds.Hash}
	}
	so := opt.Score
	if so.Canon == nil {
		so = ScoreOptionsFor(tax, 1000, 1, nil)
	}
	so.Pushback = so.Pushback || cfg.Pushback != ""
	popt := opt.Parse
	popt.Taxonomy = tax
	if popt.Lexicon == nil {
		popt.Lexicon = reading.Lexicon
	}
	return &rescored{cfg: cfg, ds: ds, popt: popt, so: so}, nil
}
