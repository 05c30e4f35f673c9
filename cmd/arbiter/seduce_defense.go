package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/input"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// defenseFlags are the defense study's flags on seduce run (seduce.md section 6).
type defenseFlags struct {
	names       []string
	guardModel  string
	guardPrompt string
	shots       string
	shotSeed    uint64
}

func (d *defenseFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringArrayVar(&d.names, "defense", nil, "run every model under this defense too: none, canonicalize, self-consistency:K or few-shot:K (repeatable; the report compares each with none)")
	fl.StringVar(&d.guardModel, "guard-model", "", "canonicalize's guard model, which restates the statement as the bare action (default: the target model itself)")
	fl.StringVar(&d.guardPrompt, "guard-prompt", "", "system prompt file replacing the built-in guard prompt of canonicalize")
	fl.StringVar(&d.shots, "shots", "builtin", "dataset few-shot:K draws its worked examples from (never from the evaluated sample's own scenario)")
	fl.Uint64Var(&d.shotSeed, "shot-seed", 1, "seed that draws few-shot's examples")
}

// apply fills the flags the user did not set from the experiment file.
func (d *defenseFlags) apply(cmd *cobra.Command, e *seduce.Experiment) {
	set := cmd.Flags().Changed
	if !set("defense") && len(e.Defenses) > 0 {
		d.names = e.Defenses
	}
	if !set("guard-model") && e.GuardModel != "" {
		d.guardModel = e.GuardModel
	}
	if !set("guard-prompt") && e.GuardPrompt != "" {
		d.guardPrompt = e.GuardPrompt
	}
	if !set("shots") && e.Shots != "" {
		d.shots = e.Shots
	}
	if !set("shot-seed") && e.ShotSeed != nil {
		d.shotSeed = *e.ShotSeed
	}
}

// build parses the --defense values, in order and without repeats; none is always
// part of the study, first, since every other defense is compared with it.
func (d *defenseFlags) build(ctx context.Context, tax *seduce.Taxonomy, temperature *float64) ([]seduce.Defense, error) {
	opt := seduce.DefenseOptions{Guard: llm.ModelName(d.guardModel), Temperature: temperature, ShotSeed: d.shotSeed}
	if d.guardPrompt != "" {
		b, err := input.ReadFile(ctx, d.guardPrompt)
		if err != nil {
			return nil, usageError{fmt.Errorf("--guard-prompt: %w", err)}
		}
		opt.GuardPrompt = string(b)
	}
	var out []seduce.Defense
	seen := map[string]bool{}
	for _, name := range append([]string{"none"}, d.names...) {
		if name == "few-shot" || len(name) > 9 && name[:9] == "few-shot:" {
			if opt.Shots == nil {
				shots, err := seduce.LoadDatasets([]string{d.shots}, tax)
				if err != nil {
					return nil, usageError{fmt.Errorf("--shots: %w", err)}
				}
				opt.Shots, opt.ShotsFrom = shots, []string{d.shots}
			}
		}
		def, err := seduce.ParseDefense(name, opt)
		if err != nil {
			return nil, usageError{fmt.Errorf("--defense: %w", err)}
		}
		if !seen[def.Name()] {
			seen[def.Name()] = true
			out = append(out, def)
		}
	}
	return out, nil
}

// seduceDefenses runs the defense study: every model under none and every defense named,
// each defense its own resumable run, and prints the report with the defenses side by
// side. plan holds the dataset and prompt; the models and generation come from the flags.
func (a *app) seduceDefenses(ctx context.Context, cmd *cobra.Command, f *seduceFlags, rf *runFlags, plan *seduce.RunPlan) error {
	var temperature *float64
	if cmd.Flags().Changed("temperature") {
		t := f.temperature
		temperature = &t
	}
	defenses, err := f.defense.build(ctx, plan.Taxonomy, temperature)
	if err != nil {
		return err
	}
	// The guard is opened with the targets but is not one of them.
	open := *rf
	guard := f.defense.guardModel
	needsGuard := slices.ContainsFunc(defenses, func(d seduce.Defense) bool { return d.Name() == "canonicalize" })
	if needsGuard && guard != "" && !slices.Contains(rf.models, guard) {
		open.models = append(slices.Clone(rf.models), guard)
	}
	sess, ms, done, err := a.session(ctx, &open, seduce.Baselines(plan.Taxonomy))
	if err != nil {
		return err
	}
	defer done()
	plan.Models = ms.Names
	if len(open.models) > len(rf.models) {
		plan.Models = ms.Names[:len(ms.Names)-1]
	}
	if needsGuard {
		for _, d := range defenses {
			if c, ok := d.(*seduce.Canonicalize); ok {
				for _, m := range plan.Models {
					if _, err := c.GuardOf(m); err != nil {
						return usageError{err}
					}
				}
			}
		}
	}
	plan.Replicates = rf.replicates
	plan.Generation = seduce.Generation{MaxTokens: f.maxTokens, Temperature: temperature}
	if cmd.Flags().Changed("gen-seed") {
		s := f.genSeed
		plan.Generation.Seed = &s
	}
	popt, err := a.parseOptions(ctx, f, *rf, sess.Store, plan.Taxonomy)
	if err != nil {
		return err
	}
	study, err := seduce.ExecuteDefenses(ctx, sess, plan, defenses)
	if err != nil {
		return err
	}
	if !a.quiet {
		t := study.Tally
		fmt.Fprintf(a.stderr, "defense study: %d defenses x %d models: %d requests, %d already in the store, %d from the cache, %d asked (%d answered, %d failed); store %s\n",
			len(defenses), len(plan.Models), t.Jobs, t.Resumed, t.Cached, t.Asked, t.Answered, t.Failed, sess.Store.Path())
	}
	opt := scoreOptions(plan.Taxonomy, f, ms.file)
	if f.format == formatInspect {
		ropt := seduce.RescoreOptions{Dataset: plan.Dataset, Taxonomy: plan.Taxonomy, Score: opt, Parse: popt}
		runs := study.Runs[1:] // each defense's run reports none beside it
		if len(runs) == 0 {
			runs = study.Runs
		}
		return a.inspectRunEnded(ctx, sess.Store, runs, f.inspectOut, ropt)
	}
	// none's entries are scored as a run without defenses scores them; none is study.Runs[0].
	base, err := seduce.ScoreRunWith(ctx, sess.Store, study.Runs[0], plan.Dataset, popt, opt)
	if err != nil {
		return err
	}
	res := study.Score(base, plan.Models, plan.Dataset.Samples, opt)
	if err := a.writeSeduce(res, f); err != nil {
		return err
	}
	if failed := countErrors(res); failed > 0 {
		return fmt.Errorf("%d rulings still failed after retries (see the errors column); run the same command again to ask only for those", failed)
	}
	return nil
}
