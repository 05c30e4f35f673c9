package main

import (
	"bufio"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

func (a *app) seduceReportCmd() *cobra.Command {
	var f seduceFlags
	var db, run, baseURL string
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Re-render a stored run's report without calling any provider",
		Long: `Report scores a stored run again from its recorded replies and prints the report.

--format inspect --out DIR writes the run as Inspect eval logs instead, one JSON log per
model (and defense) in DIR: every ruling a sample (epoch = replicate+1) with the prompt,
the reply, its usage and the parsed ruling as the score; the report's fr, fp_rate,
fc_rate and ws, with their intervals, as the metrics. 'inspect view --log-dir DIR'
browses them; 'arbiter seduce score --predictions LOG.json' reads one back.`,
		Example: `  arbiter seduce report --db study.db --format md
  arbiter seduce report --db study.db --run seduce-3f2a --format inspect --out logs/`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if err := checkReportFormat(f.format, f.inspectOut); err != nil {
				return err
			}
			st, err := a.openExistingStore(ctx, db)
			if err != nil {
				return err
			}
			defer st.Close()
			r, err := resolveRun(ctx, st, seduce.RunKind, run, "arbiter seduce run")
			if err != nil {
				return err
			}
			cfg, err := seduce.RunConfigOf(r)
			if err != nil {
				return err
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
			ds, err := loadDatasets(f.datasets, tax)
			if err != nil {
				return err
			}
			file, err := a.loadConfigFile(f.configPath)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("lexicon") && len(cfg.Lexicons) > 0 {
				f.lexicons = cfg.Lexicons
				if _, err := seduce.LoadLexicons(f.lexicons); err != nil {
					return badInput("%v: pass --lexicon with the file's new path", &seduce.LexiconsError{Run: r.ID, Lexicons: cfg.Lexicons, Err: err})
				}
			}
			popt, err := a.parseOptions(ctx, &f, parseRunFlags(db, baseURL, f.configPath), st, tax)
			if err != nil {
				return err
			}
			ropt := seduce.RescoreOptions{Dataset: ds, Taxonomy: tax, Score: scoreOptions(tax, &f, file), Parse: popt}
			var res *seduce.Results
			if f.format == formatInspect {
				_, err = a.writeSeduceInspect(ctx, st, []store.RunID{r.ID}, f.inspectOut, ropt)
			} else {
				res, err = seduce.Rescore(ctx, st, r, ropt)
			}
			var changed *seduce.DatasetChangedError
			if errors.As(err, &changed) {
				return badInput("%v: pass --dataset with the original file", err)
			}
			if err != nil || res == nil {
				return err
			}
			res.Reasoning = seduce.CompareReasoning(ds.Samples, res, storedReasoningPairs(cfg), f.bootstrap, f.seed)
			if err := addSeduceCosts(ctx, st, r.ID, res, f.configPath, file, nil); err != nil {
				return err
			}
			return a.writeSeduce(res, &f)
		},
	}
	f.registerData(cmd)
	f.registerReport(cmd)
	f.registerParse(cmd)
	registerInspect(cmd, &f.inspectOut)
	dbFlag(cmd.Flags(), &db)
	cmd.Flags().StringVar(&run, "run", "latest", "run id (or a unique prefix) to report; see 'arbiter runs'")
	cmd.Flags().StringVar(&baseURL, "base-url", "", "endpoint for --parse-model (an OpenAI-compatible or stand-in server)")
	return cmd
}

func (a *app) seduceScoreCmd() *cobra.Command {
	var f seduceFlags
	var predictions []string
	var db, baseURL string
	cmd := &cobra.Command{
		Use:   "score",
		Short: "Score predictions made elsewhere (JSONL with decision or raw text, or an Inspect log)",
		Long: `Score reads predictions made elsewhere (spec section 2: JSONL lines with a decision,
or with the raw reply text, which is parsed) and prints the report.

A --predictions file that is an Inspect eval log (one JSON object with eval and samples)
is read as predictions too: the model is eval.model, the id each sample's id, the
replicate its epoch less one, and the reply its output message (or output.completion),
parsed by arbiter's parser; a sample with an error is a failed request.`,
		Example: `  arbiter seduce score --dataset data.jsonl --predictions preds.jsonl --format json
  arbiter seduce score --dataset data.jsonl --predictions logs/coc-seduce_run_model.json`,
		Args: cobra.NoArgs,
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
			ds, err := loadDatasets(f.datasets, tax)
			if err != nil {
				return err
			}
			lex, err := f.loadLexicon()
			if err != nil {
				return err
			}
			var preds []seduce.Prediction
			seen := map[seduce.PredictionKey]string{}
			for _, path := range predictions {
				p, err := a.readPredictions(path, seduce.ParseOptions{Taxonomy: tax, Lexicon: lex}, seen)
				if err != nil {
					return err
				}
				preds = append(preds, p...)
			}
			file, err := a.loadConfigFile(f.configPath)
			if err != nil {
				return err
			}
			if f.parseModel != "" {
				st, err := a.openStore(cmd.Context(), db)
				if err != nil {
					return err
				}
				defer st.Close()
				popt, err := a.parseOptions(cmd.Context(), &f, parseRunFlags(db, baseURL, f.configPath), st, tax)
				if err != nil {
					return err
				}
				if err := seduce.SecondReading(preds, popt.Second); err != nil {
					return err
				}
			}
			return a.writeSeduce(seduce.Score(ds.Samples, preds, scoreOptions(tax, &f, file)), &f)
		},
	}
	f.registerData(cmd)
	f.registerReport(cmd)
	cmd.Flags().StringArrayVarP(&predictions, "predictions", "p", nil, "predictions JSONL file (repeatable; - for stdin)")
	f.registerParse(cmd)
	cmd.Flags().StringVar(&db, "db", "", "results store for --parse-model's requests (default $ARBITER_DB or ~/.local/share/arbiter/arbiter.db)")
	cmd.Flags().StringVar(&baseURL, "base-url", "", "endpoint for --parse-model (an OpenAI-compatible or stand-in server)")
	return cmd
}

func (a *app) seduceParseCmd() *cobra.Command {
	var f seduceFlags
	var explain, unparsed bool
	var rules, lexicons []string
	var parseModel, db, baseURL string
	cmd := &cobra.Command{
		Use:   "parse",
		Short: "Parse replies: stdin JSONL {id, text} to stdout JSONL {id, decision, skill}",
		Long: `Parse replies: stdin JSONL {id, text} to stdout JSONL {id, decision, skill}, same order.

The whole reply is read (spec section 3): JSON anywhere, label lines, prose in English,
French, German, Spanish, Italian or Portuguese; rulings that disagree give "unparsed". --explain adds "rule"
(json, label, prose, prose:negated, any-part, contradiction, refusal, think-only, empty, …)
and "span" (the text that rule read) to every line. To review abstentions in bulk, --rule
keeps one rule's lines, --unparsed only the unparsed, with "text" (to label or --parse-model).

Other languages, refusals and "cannot tell" phrases are lexicon files. To add a language
or phrases, write a JSON file of the same shape as the built-in ones (internal/seduce/lexicon/fr.json):
  {"language": "it", "roll": ["fai un tiro"], "pass": ["nessun tiro"], "negation": ["non"],
   "condition": ["se"], "hedge": ["forse"], "correction": ["anzi"], "refusal": ["non posso aiutare"],
   "undetermined": ["non so dire"], "skills": {"arrampicarsi": "Climb"}}
and pass it with --lexicon FILE (repeatable); its phrases add to the built-in ones.

--parse-model provider/model asks that model to read only the replies the rules left
unparsed (under a JSON schema, stored in --db like any request, so a rerun sends
nothing); its rulings carry "parsed_by": "model", and a summary on stderr counts them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			tax, err := f.loadTaxonomy()
			if err != nil {
				return err
			}
			lex, err := seduce.LoadLexicons(lexicons)
			if err != nil {
				return usageError{err}
			}
			w := bufio.NewWriter(a.stdout)
			opt := seduce.ParseOptions{Taxonomy: tax, Lexicon: lex, Explain: explain, Rules: rules, Unparsed: unparsed}
			var secondErr error
			if parseModel != "" {
				retry := llm.DefaultRetry()
				rf := runFlags{models: []string{parseModel}, db: db, baseURL: baseURL, concurrency: 8,
					retries: retry.MaxAttempts - 1, timeout: retry.Timeout, replicates: 1}
				sess, ms, done, err := a.session(cmd.Context(), &rf, nil)
				if err != nil {
					return err
				}
				defer done()
				opt.Second = func(texts []string, parsed []seduce.Parsed) error {
					sum, err := seduce.ModelParse(cmd.Context(), sess, ms.Names[0], texts, parsed, tax)
					if err != nil {
						secondErr = err
						return err
					}
					fmt.Fprintf(a.stderr, "seduce parse: %d of %d replies unparsed by the rules; %d asked of %s (%d sent now, %d already stored), %d ruled by it (marked \"parsed_by\": \"model\")\n",
						sum.Unparsed, len(texts), sum.Sent, ms.Names[0], sum.Tally.Asked, sum.Tally.Resumed+sum.Tally.Cached, sum.Ruled)
					return nil
				}
			}
			if err := seduce.ParseLinesWith(a.stdin, "stdin", w, opt); err != nil {
				if secondErr != nil {
					return secondErr
				}
				w.Flush()
				return usageError{err}
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&f.taxonomy, "taxonomy", "", "skill taxonomy file (YAML)")
	cmd.Flags().BoolVar(&explain, "explain", false, `add "rule" and "span" (what decided, and the text it read) to every line`)
	cmd.Flags().StringArrayVar(&rules, "rule", nil, `write only the lines this rule decided (repeatable; the rules --explain names)`)
	cmd.Flags().BoolVar(&unparsed, "unparsed", false, `write only the replies left unparsed, with their "text" (JSONL to label or to read with --parse-model)`)
	cmd.Flags().StringArrayVar(&lexicons, "lexicon", nil, "extra lexicon file (JSON, same shape as the built-in ones; repeatable)")
	cmd.Flags().StringVar(&parseModel, "parse-model", "", "a model (provider/model) to read the replies the rules leave unparsed")
	cmd.Flags().StringVar(&db, "db", "", "results store for --parse-model's requests (default $ARBITER_DB or ~/.local/share/arbiter/arbiter.db)")
	cmd.Flags().StringVar(&baseURL, "base-url", "", "endpoint for --parse-model (an OpenAI-compatible or stand-in server)")
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
			ds, err := loadDatasets(f.datasets, tax)
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
