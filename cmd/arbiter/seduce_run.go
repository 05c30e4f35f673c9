package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

func (a *app) seduceRunCmd() *cobra.Command {
	var f seduceFlags
	var rf runFlags
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run models on the benchmark and print the report",
		Long: `Run asks every model about every sample and prints the report. With no flags it runs
the bundled reference set against the built-in baseline/keyword adjudicator: no key, no
network. Results go to the store (--db); running the same command again resumes and never
asks a provider again for a reply it already has.

--lexicon FILE and --parse-model M read the replies as 'seduce parse' does: the run records
its lexicon files, which 'seduce report' reads again; the parse model is asked only about
the replies the rules leave unparsed, stored like any request, and the report counts the
rulings it made (a Model-parsed column and a note; model_parsed in JSON).

--format inspect --out DIR writes the run, when it ends, as Inspect eval logs in DIR (one
per model and defense; see 'arbiter seduce report') instead of printing a report.`,
		Example: `  arbiter seduce run
  arbiter seduce run -m openai/gpt-4.1 -m anthropic/claude-sonnet-4-5 --format md
  arbiter seduce run --experiment study.yaml --db study.db`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.experiment != "" {
				e, err := seduce.LoadExperiment(f.experiment)
				if err != nil {
					return usageError{err}
				}
				applyExperiment(cmd, e, &f, &rf)
				f.defense.apply(cmd, e)
				if !cmd.Flags().Changed("pushback") && e.Pushback {
					f.pushback = true
				}
			}
			enq, err := a.enqueueing(cmd, rf.db)
			if err != nil {
				return err
			}
			if enq && len(f.defense.names) > 0 {
				// Refused rather than run here: a flag must not be dropped in silence.
				return badInput("--defense is not queued: the defense study asks here (its canonicalize defense asks the guard model before each target); leave out --enqueue, or use --batch")
			}
			return a.seduceRun(cmd.Context(), cmd, &f, &rf)
		},
	}
	f.registerData(cmd)
	rf.register(cmd.Flags(), []string{"baseline/keyword"}, "model to evaluate")
	a.registerBatch(cmd, &rf)
	f.registerReport(cmd) // after rf: run's --config is rf's, which also names families
	f.registerParse(cmd)
	registerInspect(cmd, &f.inspectOut)
	cmd.Flags().StringVar(&f.prompt, "prompt", "", "system prompt file replacing the built-in adjudicator prompt ({{skills}} lists the skills)")
	cmd.Flags().StringVar(&f.experiment, "experiment", "", "experiment file (YAML) naming datasets, models, parameters and replicates")
	cmd.Flags().Float64Var(&f.temperature, "temperature", 0, "sampling temperature (default: the provider's)")
	cmd.Flags().IntVar(&f.maxTokens, "max-tokens", 0, "reply token limit (default: the provider's)")
	cmd.Flags().Int64Var(&f.genSeed, "gen-seed", 0, "sampling seed sent to providers that take one")
	f.defense.register(cmd)
	registerPushback(cmd, &f.pushback)
	registerEnqueue(cmd)
	return cmd
}

// applyExperiment fills flags the user did not set from the experiment file.
func applyExperiment(cmd *cobra.Command, e *seduce.Experiment, f *seduceFlags, rf *runFlags) {
	set := cmd.Flags().Changed
	if !set("dataset") && len(e.Datasets) > 0 {
		f.datasets = e.Datasets
	}
	if !set("model") {
		setModelEntries(rf, modelEntries(e.Models))
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
	if err := checkReportFormat(f.format, f.inspectOut); err != nil {
		return err
	}
	tax, err := f.loadTaxonomy()
	if err != nil {
		return err
	}
	ds, err := loadDatasets(f.datasets, tax)
	if err != nil {
		return err
	}
	prompt := seduce.DefaultPrompt(tax)
	if f.prompt != "" {
		if prompt, err = seduce.LoadPrompt(f.prompt, tax); err != nil {
			return usageError{err}
		}
	}
	lex, err := f.loadLexicon()
	if err != nil {
		return err
	}
	var lines *seduce.PushbackLines
	if f.pushback {
		lines = seduce.DefaultPushbackLines()
	}
	if len(f.defense.names) > 0 {
		return a.seduceDefenses(ctx, cmd, f, rf, &seduce.RunPlan{Datasets: f.datasets, Dataset: ds, TaxonomyPath: f.taxonomy,
			Taxonomy: tax, Prompt: prompt, LexiconPaths: f.lexicons, Lexicon: lex, Pushback: lines})
	}
	sess, ms, done, err := a.session(ctx, rf, seduce.Baselines(tax))
	if err != nil {
		return err
	}
	defer done()
	popt, err := a.parseOptions(ctx, f, *rf, sess.Store, tax)
	if err != nil {
		return err
	}
	plan := &seduce.RunPlan{Datasets: f.datasets, Dataset: ds, TaxonomyPath: f.taxonomy, Taxonomy: tax, Prompt: prompt,
		Models: ms.Names, Replicates: rf.replicates, Generation: seduce.Generation{MaxTokens: f.maxTokens},
		LexiconPaths: f.lexicons, Lexicon: lex, Pushback: lines}
	if cmd.Flags().Changed("temperature") {
		t := f.temperature
		plan.Generation.Temperature = &t
	}
	if cmd.Flags().Changed("gen-seed") {
		s := f.genSeed
		plan.Generation.Seed = &s
	}
	var runID store.RunID
	var sum runner.Summary
	enq, _ := cmd.Flags().GetBool("enqueue")
	if enq {
		if runID, err = a.seduceEnqueue(ctx, cmd, sess, plan, rf.retries); err != nil || runID == "" {
			return err
		}
	} else if runID, sum, err = seduce.Execute(ctx, sess, plan); err != nil {
		return err
	}
	st := sess.Store
	if !a.quiet && !enq {
		fmt.Fprintf(a.stderr, "run %s: %d jobs, %d already in the store, %d from the cache, %d asked (%d answered, %d failed) in %s; store %s\n",
			runID, sum.Jobs, sum.Resumed, sum.Cached, sum.Asked, sum.Answered, sum.Failed, sum.Elapsed.Round(1e6), st.Path())
	}
	if f.format == formatInspect {
		ropt := seduce.RescoreOptions{Dataset: ds, Taxonomy: tax, Score: scoreOptions(tax, f, ms.file), Parse: popt}
		return a.inspectRunEnded(ctx, st, []store.RunID{runID}, f.inspectOut, ropt)
	}
	res, err := seduce.ScoreRunWith(ctx, st, runID, ds, popt, scoreOptions(tax, f, ms.file))
	if err != nil {
		return err
	}
	res.Reasoning = seduce.CompareReasoning(ds.Samples, res, reasoningPairs(ms.Set), f.bootstrap, f.seed)
	if err := addSeduceCosts(ctx, st, runID, res, rf.configPath, ms.file, ms.Local); err != nil {
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
