package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/input"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/report"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

func init() { commandGroups = append(commandGroups, (*app).seduceCmd) }

// seduceFlags are what the benchmark's commands share.
type seduceFlags struct {
	datasets   []string
	taxonomy   string
	prompt     string
	format     string
	bootstrap  int
	seed       uint64
	figures    string
	experiment string
	configPath string
	// generation parameters, sent only when set
	temperature float64
	maxTokens   int
	genSeed     int64
}

func (a *app) seduceCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "seduce",
		Short: "The CoC-Seduce adjudication benchmark: does the Keeper call for the roll?",
		Long: `The CoC-Seduce benchmark asks a model, as a Call of Cthulhu 7th edition Keeper,
whether a player's action needs a dice roll, under four rhetorical framings (Neutral,
Authority, Pseudo-Logic, Omission), and reports failure rates (FR) by style, setting,
skill, generator and family, with cluster-bootstrap intervals.`,
	}
	cmd.AddCommand(a.seduceRunCmd(), a.seduceReportCmd(), a.seduceScoreCmd(), a.seduceParseCmd(), a.seduceValidateCmd())
	return cmd
}

func (f *seduceFlags) registerData(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&f.datasets, "dataset", []string{"builtin"}, "dataset file (JSONL or CSV) or builtin (repeatable: the files are scored together)")
	cmd.Flags().StringVar(&f.taxonomy, "taxonomy", "", "skill taxonomy file (YAML) replacing the built-in 16 skills")
}

func (f *seduceFlags) registerReport(cmd *cobra.Command) {
	if cmd.Flags().Lookup("config") == nil {
		cmd.Flags().StringVar(&f.configPath, "config", "", "config file whose families: section overrides model families (YAML)")
	}
	cmd.Flags().StringVarP(&f.format, "format", "f", "text", "report format: text, md, csv, latex or json")
	cmd.Flags().IntVar(&f.bootstrap, "bootstrap", 1000, "cluster-bootstrap replicates behind the 95% intervals (0: none)")
	cmd.Flags().Uint64Var(&f.seed, "seed", 1, "seed of the bootstrap")
	cmd.Flags().StringVar(&f.figures, "figures", "", "also write the SVG figures into this folder")
}

func checkFormat(format string) error {
	switch format {
	case "text", "md", "csv", "latex", "json":
		return nil
	}
	return badInput("--format %q: want text, md, csv, latex or json", format)
}

func (f *seduceFlags) loadTaxonomy() (*seduce.Taxonomy, error) {
	if f.taxonomy == "" {
		return seduce.DefaultTaxonomy(), nil
	}
	tax, err := seduce.LoadTaxonomy(f.taxonomy)
	if err != nil {
		return nil, usageError{err}
	}
	return tax, nil
}

// loadDatasets reads every named dataset and merges them; ids must stay unique.
func loadDatasets(names []string, tax *seduce.Taxonomy) (*seduce.Dataset, []string, error) {
	if len(names) == 0 {
		names = []string{"builtin"}
	}
	merged := &seduce.Dataset{}
	var hashes []string
	seen := map[seduce.SampleID]string{}
	for _, name := range names {
		var ds *seduce.Dataset
		var err error
		if name == "builtin" {
			ds, err = seduce.Builtin(tax)
		} else {
			ds, err = seduce.LoadDataset(name, tax)
		}
		if err != nil {
			return nil, nil, usageError{err}
		}
		for _, s := range ds.Samples {
			if prev, dup := seen[s.ID]; dup {
				return nil, nil, badInput("%s: id: %q is also in %s; ids must be unique across datasets", name, s.ID, prev)
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
	return merged, hashes, nil
}

// experiment is a study in one file: datasets, models, parameters, replicates.
type experiment struct {
	Name        string   `yaml:"name"`
	Datasets    []string `yaml:"datasets"`
	Models      []string `yaml:"models"`
	Replicates  int      `yaml:"replicates"`
	Concurrency int      `yaml:"concurrency"`
	Prompt      string   `yaml:"prompt"`
	Taxonomy    string   `yaml:"taxonomy"`
	Temperature *float64 `yaml:"temperature"`
	MaxTokens   int      `yaml:"max_tokens"`
	Seed        *int64   `yaml:"seed"`
	Bootstrap   *int     `yaml:"bootstrap"`
}

func loadExperiment(path string) (*experiment, error) {
	b, err := input.ReadYAMLFile(context.Background(), path)
	if err != nil {
		return nil, usageError{err}
	}
	var e experiment
	if err := input.DecodeYAML(path, b, &e, yaml.DisallowUnknownField()); err != nil {
		if _, ok := err.(*input.ValidationError); ok {
			return nil, usageError{err}
		}
		msg := strings.TrimSpace(yaml.FormatError(err, false, false))
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return nil, badInput("experiment %s: %s", path, msg)
	}
	if len(e.Models) == 0 {
		return nil, badInput("experiment %s: models: list at least one model", path)
	}
	return &e, nil
}

// runConfig is what identifies a benchmark run: the same config resumes the same run.
type runConfig struct {
	Kind        string   `json:"kind"`
	Datasets    []string `json:"datasets"`
	DatasetHash string   `json:"dataset_hash"`
	Taxonomy    string   `json:"taxonomy,omitempty"`
	PromptHash  string   `json:"prompt_hash"`
	Models      []string `json:"models"`
	Replicates  int      `json:"replicates"`
	Temperature *float64 `json:"temperature,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
	Seed        *int64   `json:"seed,omitempty"`
	// Endpoints names the models asked at a custom endpoint, so a run against a local
	// or stand-in server is never resumed against the real provider.
	Endpoints map[string]string `json:"endpoints,omitempty"`
}

func (a *app) seduceRunCmd() *cobra.Command {
	var f seduceFlags
	var rf runFlags
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run models on the benchmark and print the report",
		Long: `Run asks every model about every sample and prints the report. With no flags it runs
the bundled reference set against the built-in baseline/keyword adjudicator: no key, no
network. Results go to the store (--db); running the same command again resumes and never
asks a provider again for a reply it already has.`,
		Example: `  arbiter seduce run
  arbiter seduce run -m openai/gpt-4.1 -m anthropic/claude-sonnet-4-5 --format md
  arbiter seduce run --experiment study.yaml --db study.db`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.experiment != "" {
				e, err := loadExperiment(f.experiment)
				if err != nil {
					return err
				}
				applyExperiment(cmd, e, &f, &rf)
			}
			return a.seduceRun(cmd.Context(), cmd, &f, &rf)
		},
	}
	f.registerData(cmd)
	rf.register(cmd.Flags(), []string{"baseline/keyword"}, "model to evaluate")
	f.registerReport(cmd) // after rf: run's --config is rf's, which also names families
	cmd.Flags().StringVar(&f.prompt, "prompt", "", "system prompt file replacing the built-in adjudicator prompt ({{skills}} lists the skills)")
	cmd.Flags().StringVar(&f.experiment, "experiment", "", "experiment file (YAML) naming datasets, models, parameters and replicates")
	cmd.Flags().Float64Var(&f.temperature, "temperature", 0, "sampling temperature (default: the provider's)")
	cmd.Flags().IntVar(&f.maxTokens, "max-tokens", 0, "reply token limit (default: the provider's)")
	cmd.Flags().Int64Var(&f.genSeed, "gen-seed", 0, "sampling seed sent to providers that take one")
	return cmd
}

// applyExperiment fills flags the user did not set from the experiment file.
func applyExperiment(cmd *cobra.Command, e *experiment, f *seduceFlags, rf *runFlags) {
	set := cmd.Flags().Changed
	if !set("dataset") && len(e.Datasets) > 0 {
		f.datasets = e.Datasets
	}
	if !set("model") {
		rf.models = e.Models
	}
	if !set("replicates") && e.Replicates > 0 {
		rf.replicates = e.Replicates
	}
	if !set("concurrency") && e.Concurrency > 0 {
		rf.concurrency = e.Concurrency
	}
	if !set("prompt") && e.Prompt != "" {
		f.prompt = e.Prompt
	}
	if !set("taxonomy") && e.Taxonomy != "" {
		f.taxonomy = e.Taxonomy
	}
	if !set("bootstrap") && e.Bootstrap != nil {
		f.bootstrap = *e.Bootstrap
	}
	if !set("temperature") && e.Temperature != nil {
		f.temperature = *e.Temperature
		cmd.Flags().Set("temperature", fmt.Sprint(*e.Temperature))
	}
	if !set("max-tokens") && e.MaxTokens > 0 {
		f.maxTokens = e.MaxTokens
	}
	if !set("gen-seed") && e.Seed != nil {
		cmd.Flags().Set("gen-seed", fmt.Sprint(*e.Seed))
	}
}

func (a *app) seduceRun(ctx context.Context, cmd *cobra.Command, f *seduceFlags, rf *runFlags) error {
	if err := checkFormat(f.format); err != nil {
		return err
	}
	tax, err := f.loadTaxonomy()
	if err != nil {
		return err
	}
	ds, _, err := loadDatasets(f.datasets, tax)
	if err != nil {
		return err
	}
	prompt := seduce.DefaultPrompt(tax)
	if f.prompt != "" {
		if prompt, err = seduce.LoadPrompt(f.prompt, tax); err != nil {
			return usageError{err}
		}
	}
	ms, err := a.openModels(rf, seduce.Baselines(tax))
	if err != nil {
		return err
	}
	cfg := runConfig{Kind: "seduce", Datasets: f.datasets, DatasetHash: ds.Hash, Taxonomy: f.taxonomy,
		PromptHash: prompt.Hash, Replicates: rf.replicates}
	for _, n := range ms.names {
		cfg.Models = append(cfg.Models, string(n))
	}
	slices.Sort(cfg.Models)
	if cmd.Flags().Changed("temperature") {
		t := f.temperature
		cfg.Temperature = &t
	}
	if cmd.Flags().Changed("gen-seed") {
		s := f.genSeed
		cfg.Seed = &s
	}
	cfg.MaxTokens = f.maxTokens
	endpoint := ms.endpointFunc(rf.baseURL)
	for _, n := range ms.names {
		if ep := endpoint(n); ep != "" {
			if cfg.Endpoints == nil {
				cfg.Endpoints = map[string]string{}
			}
			cfg.Endpoints[string(n)] = ep
		}
	}
	cfgJSON, _ := json.Marshal(cfg)

	st, err := a.openStore(ctx, rf.db)
	if err != nil {
		return err
	}
	defer st.Close()
	runID := store.RunIDFor("seduce", cfgJSON)
	if _, err := st.BeginRun(ctx, store.Run{ID: runID, Kind: "seduce", Config: cfgJSON, DatasetHash: ds.Hash,
		PromptHash: prompt.Hash, PromptText: prompt.System, Version: versionString()}); err != nil {
		return err
	}

	var jobs []runner.Job
	remoteMissing := false
	answered, err := st.AnsweredKeys(ctx, runID)
	if err != nil {
		return err
	}
	for _, name := range ms.names {
		for _, s := range ds.Samples {
			for rep := range rf.replicates {
				req := prompt.Request(s)
				req.Temperature, req.Seed = cfg.Temperature, cfg.Seed
				req.MaxTokens = cfg.MaxTokens
				key := runner.JobKey(name, string(s.ID), rep)
				jobs = append(jobs, runner.Job{Key: key, Model: name, Item: string(s.ID), Replicate: rep, Request: req})
				if !ms.local[name] && !answered[key] {
					remoteMissing = true
				}
			}
		}
	}
	if remoteMissing {
		if err := a.checkReachable(ctx, rf, ms); err != nil {
			return err
		}
	}
	sum, err := runner.Run(ctx, st, runner.Plan{
		Run: runID, Jobs: jobs, Models: ms.byName, Concurrency: rf.concurrency, NoCache: rf.noCache,
		Local:    func(n llm.ModelName) bool { return ms.local[n] },
		Endpoint: endpoint,
		Outcome:  func(j runner.Job, r *llm.Reply) string { return outcomeJSON(seduce.FromReply(r, tax)) },
		Progress: a.progress("seduce", ms.counters), Counters: ms.counters, Log: a.log,
	})
	status := "done"
	switch {
	case err != nil:
		status = "failed"
	case sum.Interrupted:
		status = "interrupted"
	case sum.Failed > 0:
		status = "incomplete"
	}
	if eerr := st.EndRun(context.WithoutCancel(ctx), runID, status); eerr != nil && err == nil {
		err = eerr
	}
	if err != nil {
		return err
	}
	if sum.Interrupted {
		return fmt.Errorf("interrupted: %d of %d jobs answered so far are saved in %s; run the same command again to resume", sum.Resumed+sum.Cached+sum.Answered, sum.Jobs, st.Path())
	}
	if !a.quiet {
		fmt.Fprintf(a.stderr, "run %s: %d jobs, %d already in the store, %d from the cache, %d asked (%d answered, %d failed) in %s; store %s\n",
			runID, sum.Jobs, sum.Resumed, sum.Cached, sum.Asked, sum.Answered, sum.Failed, sum.Elapsed.Round(1e6), st.Path())
	}
	res, err := a.scoreRun(ctx, st, runID, ds, tax, f, ms.file)
	if err != nil {
		return err
	}
	if err := a.writeSeduce(res, f); err != nil {
		return err
	}
	if failed := countErrors(res); failed > 0 {
		return fmt.Errorf("%d requests still failed after retries (see the errors column); run the same command again to ask only for those", failed)
	}
	return nil
}

type outcome struct {
	Decision seduce.Decision `json:"decision"`
	Skill    string          `json:"skill,omitempty"`
	How      string          `json:"how,omitempty"`
}

func outcomeJSON(p seduce.Parsed) string {
	b, _ := json.Marshal(outcome{p.Decision, p.Skill, p.How})
	return string(b)
}

// scoreRun reads a run's results back from the store, parses every recorded reply with
// the current parser and scores them: a report never needs a provider.
func (a *app) scoreRun(ctx context.Context, st *store.Store, id store.RunID, ds *seduce.Dataset, tax *seduce.Taxonomy, f *seduceFlags, file *config.File) (*seduce.Results, error) {
	var preds []seduce.Prediction
	type span struct{ first, last time.Time }
	spans := map[string]*span{}
	err := st.Results(ctx, id, false, func(r *store.Result) error {
		if r.Source != "cache" && !r.UpdatedAt.IsZero() {
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
		p := seduce.Prediction{ID: seduce.SampleID(r.Item), Model: string(r.Model), Replicate: r.Replicate,
			LatencyMS: float64(r.Reply.Latency.Microseconds()) / 1000}
		if r.Err != "" {
			p.Err = r.Err
		} else {
			parsed := seduce.FromReply(&r.Reply, tax)
			p.Decision, p.Skill = parsed.Decision, parsed.Skill
		}
		preds = append(preds, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	res := seduce.Score(ds.Samples, preds, scoreOptions(tax, f, file))
	for i := range res.Models {
		m := &res.Models[i]
		if sp := spans[m.Model]; sp != nil && m.Latency != nil {
			m.Latency.WallMS = float64(sp.last.Sub(sp.first).Microseconds()) / 1000
		}
	}
	return res, nil
}

func scoreOptions(tax *seduce.Taxonomy, f *seduceFlags, file *config.File) seduce.ScoreOptions {
	opt := seduce.ScoreOptions{Bootstrap: f.bootstrap, Seed: f.seed,
		Canon: func(s string) string {
			if c, ok := tax.Canonical(s); ok {
				return c
			}
			return s
		}}
	if file != nil && len(file.Families) > 0 {
		opt.Family = func(m string) string {
			if fam, ok := file.Families[m]; ok {
				return fam
			}
			return seduce.ModelFamily(m)
		}
	}
	return opt
}

func countErrors(r *seduce.Results) int {
	n := 0
	for _, m := range r.Models {
		n += m.Errors
	}
	return n
}

func (a *app) writeSeduce(res *seduce.Results, f *seduceFlags) error {
	if err := report.WriteSeduce(a.stdout, res, f.format); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if f.figures == "" {
		return nil
	}
	if err := os.MkdirAll(f.figures, 0o755); err != nil {
		return fmt.Errorf("figures: %w", err)
	}
	for _, fig := range report.SeduceFigures(res) {
		path := filepath.Join(f.figures, fig.Name+".svg")
		if err := os.WriteFile(path, fig.SVG, 0o644); err != nil {
			return fmt.Errorf("figure %s: %w", path, err)
		}
	}
	return nil
}

func (a *app) seduceReportCmd() *cobra.Command {
	var f seduceFlags
	var db, run string
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Re-render a stored run's report without calling any provider",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if err := checkFormat(f.format); err != nil {
				return err
			}
			st, err := a.openStore(ctx, db)
			if err != nil {
				return err
			}
			defer st.Close()
			r, err := st.ResolveRun(ctx, "seduce", run)
			if err != nil {
				return usageError{err}
			}
			var cfg runConfig
			if err := json.Unmarshal(r.Config, &cfg); err != nil {
				return fmt.Errorf("run %s: config: %w", r.ID, err)
			}
			if !cmd.Flags().Changed("dataset") {
				f.datasets = cfg.Datasets
			}
			if !cmd.Flags().Changed("taxonomy") {
				f.taxonomy = cfg.Taxonomy
			}
			tax, err := f.loadTaxonomy()
			if err != nil {
				return err
			}
			ds, _, err := loadDatasets(f.datasets, tax)
			if err != nil {
				return err
			}
			if ds.Hash != r.DatasetHash {
				return badInput("run %s scored dataset %s (hash %.12s) but %s now hashes to %.12s: pass --dataset with the original file", r.ID, strings.Join(cfg.Datasets, "+"), r.DatasetHash, ds.Name, ds.Hash)
			}
			file, err := a.loadConfigFile(f.configPath)
			if err != nil {
				return err
			}
			res, err := a.scoreRun(ctx, st, r.ID, ds, tax, &f, file)
			if err != nil {
				return err
			}
			return a.writeSeduce(res, &f)
		},
	}
	f.registerData(cmd)
	f.registerReport(cmd)
	cmd.Flags().StringVar(&db, "db", "", "results store (default $ARBITER_DB or ~/.local/share/arbiter/arbiter.db)")
	cmd.Flags().StringVar(&run, "run", "latest", "run id (or a unique prefix) to report; see 'arbiter runs'")
	return cmd
}

func (a *app) seduceScoreCmd() *cobra.Command {
	var f seduceFlags
	var predictions []string
	cmd := &cobra.Command{
		Use:   "score",
		Short: "Score predictions made elsewhere (JSONL with decision or raw text)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(f.format); err != nil {
				return err
			}
			if len(predictions) == 0 {
				return badInput("--predictions: name a JSONL file of predictions (or - for stdin)")
			}
			tax, err := f.loadTaxonomy()
			if err != nil {
				return err
			}
			ds, _, err := loadDatasets(f.datasets, tax)
			if err != nil {
				return err
			}
			var preds []seduce.Prediction
			seen := map[predictionKey]string{}
			for _, path := range predictions {
				p, err := a.readPredictions(path, tax, seen)
				if err != nil {
					return err
				}
				preds = append(preds, p...)
			}
			file, err := a.loadConfigFile(f.configPath)
			if err != nil {
				return err
			}
			return a.writeSeduce(seduce.Score(ds.Samples, preds, scoreOptions(tax, &f, file)), &f)
		},
	}
	f.registerData(cmd)
	f.registerReport(cmd)
	cmd.Flags().StringArrayVarP(&predictions, "predictions", "p", nil, "predictions JSONL file (repeatable; - for stdin)")
	return cmd
}

// predictionKey is one model's ruling on one sample in one replicate: spec section 4's n
// counts samples, so a key may come only once.
type predictionKey struct {
	model, id string
	replicate int
}

// readPredictions reads spec section 2 lines; a line with text instead of decision is
// parsed as the runner would parse it. Any bad line rejects the whole file. seen holds
// the keys already read, with where, across every predictions file of the command.
func (a *app) readPredictions(path string, tax *seduce.Taxonomy, seen map[predictionKey]string) ([]seduce.Prediction, error) {
	var r io.Reader
	if path == "-" {
		r = a.stdin
	} else {
		fh, err := input.Open(path)
		if err != nil {
			return nil, usageError{err}
		}
		defer fh.Close()
		r = fh
	}
	var out []seduce.Prediction
	var problems input.Errors
	for l, err := range input.Lines(context.Background(), r, path) {
		if err != nil {
			return nil, usageError{err}
		}
		n, line := l.N, bytes.TrimSpace(l.Text)
		if len(line) == 0 {
			continue
		}
		var p seduce.Prediction
		if err := json.Unmarshal(line, &p); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) && te.Field != "" {
				problems.Addf(path, n, "", "%s: want %s, got a JSON %s", te.Field, jsonKind(te.Type.Kind()), te.Value)
			} else {
				problems.Addf(path, n, "", "not a JSON object: %v", err)
			}
			continue
		}
		key := predictionKey{p.Model, string(p.ID), p.Replicate}
		if first, dup := seen[key]; dup && p.ID != "" && p.Model != "" {
			problems.Addf(path, n, "", "id: %q already has a prediction from %s at %s; give repeats distinct \"replicate\" numbers", p.ID, p.Model, first)
			continue
		}
		seen[key] = fmt.Sprintf("%s:%d", path, n)
		switch {
		case p.ID == "":
			problems.Addf(path, n, "", "id: missing")
		case p.Model == "":
			problems.Addf(path, n, "", "model: missing")
		case p.Decision == "" && p.Text == "" && p.Err == "":
			problems.Addf(path, n, "", "decision: missing (give decision or text)")
		case p.Decision != "":
			switch p.Decision {
			case seduce.DecisionRoll, seduce.DecisionPass, seduce.DecisionRefused, seduce.DecisionUnparsed:
				if c, ok := tax.Canonical(p.Skill); ok {
					p.Skill = c
				}
			default:
				problems.Addf(path, n, "", "decision: %q is not roll, pass, refused or unparsed", p.Decision)
			}
		default:
			if p.Err == "" {
				parsed := seduce.ParseReply(p.Text, tax)
				p.Decision, p.Skill = parsed.Decision, parsed.Skill
			}
		}
		out = append(out, p)
	}
	if err := problems.Err(); err != nil {
		return nil, usageError{err}
	}
	return out, nil
}

// jsonKind names what a field of kind k holds, in JSON's words.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a " + k.String()
}

func (a *app) seduceParseCmd() *cobra.Command {
	var f seduceFlags
	cmd := &cobra.Command{
		Use:   "parse",
		Short: "Parse replies: stdin JSONL {id, text} to stdout JSONL {id, decision, skill}",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			tax, err := f.loadTaxonomy()
			if err != nil {
				return err
			}
			w := bufio.NewWriter(a.stdout)
			if err := seduce.ParseLines(a.stdin, "stdin", w, tax); err != nil {
				w.Flush()
				return usageError{err}
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&f.taxonomy, "taxonomy", "", "skill taxonomy file (YAML)")
	return cmd
}

func (a *app) seduceValidateCmd() *cobra.Command {
	var f seduceFlags
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Check a dataset against the contract; exit 2 listing every error",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			tax, err := f.loadTaxonomy()
			if err != nil {
				return err
			}
			ds, _, err := loadDatasets(f.datasets, tax)
			if err != nil {
				return err
			}
			roll := 0
			scenarios := map[string]bool{}
			for _, s := range ds.Samples {
				if s.RequiresRoll {
					roll++
				}
				scenarios[s.ScenarioID] = true
			}
			fmt.Fprintf(a.stdout, "%s: ok: %d samples (%d roll, %d automatic) in %d scenarios, sha256 %.12s\n",
				ds.Name, len(ds.Samples), roll, len(ds.Samples)-roll, len(scenarios), ds.Hash)
			return nil
		},
	}
	f.registerData(cmd)
	return cmd
}

// loadConfigFile reads the optional --config file of a command that asks no model.
func (a *app) loadConfigFile(path string) (*config.File, error) {
	if path == "" {
		return nil, nil
	}
	file, _, err := config.LoadFile(path, a.env.Look)
	if err != nil {
		return nil, usageError{err}
	}
	return file, nil
}
