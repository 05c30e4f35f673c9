package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// seduceFlags are what the benchmark's commands share.
type seduceFlags struct {
	datasets   []string
	taxonomy   string
	prompt     string
	format     string
	bootstrap  int
	seed       uint64
	figures    figureFlags
	experiment string
	configPath string
	// generation parameters, sent only when set
	temperature float64
	maxTokens   int
	genSeed     int64
	// how replies are read: extra lexicon files, a model for what the rules leave unparsed
	lexicons   []string
	parseModel string
	// the defense study (seduce_defense.go)
	defense defenseFlags
	// inspectOut is the folder of --format inspect's logs (inspect.go)
	inspectOut string
	// pushback asks every roll ruling once more (seduce_pushback.go)
	pushback bool
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
	cmd.AddCommand(a.seduceStyleCmd(), a.seduceGenerateCmd(), a.seduceMergeCmd(), a.seduceReviewCmd(), a.seduceHumanCmd())
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
	reportFormatFlag(cmd.Flags(), &f.format)
	cmd.Flags().IntVar(&f.bootstrap, "bootstrap", 1000, "cluster-bootstrap replicates behind the 95% intervals (0: none)")
	cmd.Flags().Uint64Var(&f.seed, "seed", 1, "seed of the bootstrap")
	f.figures.register(cmd, "figures")
}

// registerParse adds the reply-reading flags of run, score and report.
func (f *seduceFlags) registerParse(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&f.lexicons, "lexicon", nil, "extra lexicon file the replies are parsed with (JSON, as for 'seduce parse'; repeatable)")
	cmd.Flags().StringVar(&f.parseModel, "parse-model", "", "a model (provider/model) to read the replies the rules leave unparsed; the report counts its rulings")
}

// loadLexicon reads the --lexicon files; none gives nil, the built-in lexicon.
func (f *seduceFlags) loadLexicon() (*seduce.Lexicon, error) {
	if len(f.lexicons) == 0 {
		return nil, nil
	}
	lex, err := seduce.LoadLexicons(f.lexicons)
	if err != nil {
		return nil, usageError{err}
	}
	return lex, nil
}

// parseOptions are how f reads replies: its lexicon and, with --parse-model, a second
// reader asking that model through st (stored like any request, so a rerun sends
// nothing). rf gives the endpoint, config and limits the model is opened with.
func (a *app) parseOptions(ctx context.Context, f *seduceFlags, rf runFlags, st *store.Store, tax *seduce.Taxonomy) (seduce.ParseOptions, error) {
	lex, err := f.loadLexicon()
	if err != nil {
		return seduce.ParseOptions{}, err
	}
	opt := seduce.ParseOptions{Taxonomy: tax, Lexicon: lex}
	if f.parseModel == "" {
		return opt, nil
	}
	rf.models, rf.replicates = []string{f.parseModel}, 1
	ms, err := a.openModels(&rf, nil)
	if err != nil {
		return opt, err
	}
	sess := a.newSession(st, ms, &rf)
	name := ms.Names[0]
	f.parseModel = string(name) // as the report names it
	opt.Second = func(texts []string, parsed []seduce.Parsed) error {
		sum, err := seduce.ModelParse(ctx, sess, name, texts, parsed, tax)
		if err != nil {
			return err
		}
		if !a.quiet {
			fmt.Fprintf(a.stderr, "parse model %s: %d replies unparsed by the rules, %d asked about (%d sent now, %d already stored), %d ruled by it\n",
				name, sum.Unparsed, sum.Sent, sum.Tally.Asked, sum.Tally.Resumed+sum.Tally.Cached, sum.Ruled)
		}
		return nil
	}
	return opt, nil
}

// parseRunFlags are the request flags a command without a model list (score, report)
// opens its --parse-model with.
func parseRunFlags(db, baseURL, configPath string) runFlags {
	retry := llm.DefaultRetry()
	return runFlags{db: db, baseURL: baseURL, configPath: configPath, concurrency: 8,
		retries: retry.MaxAttempts - 1, timeout: retry.Timeout, replicates: 1}
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

// loadDatasets reads and merges the named datasets; a bad file is bad input.
func loadDatasets(names []string, tax *seduce.Taxonomy) (*seduce.Dataset, error) {
	ds, err := seduce.LoadDatasets(names, tax)
	if err != nil {
		return nil, usageError{err}
	}
	return ds, nil
}

// scoreOptions are the report flags of f as seduce scores them.
func scoreOptions(tax *seduce.Taxonomy, f *seduceFlags, file *config.File) seduce.ScoreOptions {
	var families map[string]string
	if file != nil {
		families = file.Families
	}
	opt := seduce.ScoreOptionsFor(tax, f.bootstrap, f.seed, families)
	opt.ParseModel = f.parseModel
	opt.Pushback = f.pushback
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
	if err := seduce.WriteReport(a.stdout, res, f.format); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if f.figures.dir == "" {
		return nil
	}
	return f.figures.writeListed(a.stdout, f.format, seduce.Figures(res))
}
