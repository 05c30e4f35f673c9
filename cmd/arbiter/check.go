package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

func (a *app) checkCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "check",
		Short: "RPA-Check: a yes/no checklist judged by an LLM over role-play transcripts",
		Long: `RPA-Check turns qualitative criteria into a frozen checklist of yes/no questions and has
an LLM judge answer them about transcripts, with the human player's turns withheld.

  augment      a generator model expands the dimensions' seed questions into a pool
  filter       drop duplicates, then a filter model keeps or removes each question
  judge        a judge model answers the checklist about transcripts; prints the scores
  transcripts  how transcripts are read: format, each speaker's role and why, player turns
  report       re-render a stored judge run without calling any model

The bundled checklist (38 questions) and sample courtroom transcripts are named
builtin, so 'arbiter check judge --judge M' works end to end.`,
	}
	cmd.AddCommand(a.checkAugmentCmd(), a.checkFilterCmd(), a.checkJudgeCmd(), a.checkTranscriptsCmd(), a.checkReportCmd())
	return cmd
}

// registerModelFlags adds the runFlags to cmd with the model flag named flag: the
// generator, the filter model or the judge.
func registerModelFlags(cmd *cobra.Command, rf *runFlags, flag, help string) {
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	rf.register(fs, nil, help)
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Name != "model" {
			cmd.Flags().AddFlag(f)
		}
	})
	cmd.Flags().StringArrayVar(&rf.models, flag, nil, help+", as provider/model")
}

// checkExec opens the store and the models of a stage.
func (a *app) checkExec(ctx context.Context, rf *runFlags) (*runner.Session, func(), error) {
	sess, _, done, err := a.session(ctx, rf, nil)
	return sess, done, err
}

// inputError makes a validation problem bad input (exit 2), one line per problem.
func inputError(err error) error {
	var ve *check.ValidationError
	if errors.As(err, &ve) || errors.Is(err, os.ErrNotExist) {
		return usageError{err}
	}
	return err
}

// noneIfZero maps a count flag's 0 to the negative value by which package check means
// none: there 0 means the default, but the flags already carry the default, so a 0
// typed on the command line means 0.
func noneIfZero(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// writeOut writes data to path, or to w for "-".
func writeOut(path string, w io.Writer, data []byte) error {
	if path == "-" || path == "" {
		_, err := w.Write(data)
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// problemsError reports a stage's unfinished pieces, one line each: the work failed
// (exit 1), though everything else was written.
func problemsError(ps []check.Problem, out string) error {
	if len(ps) == 0 {
		return nil
	}
	lines := make([]string, 0, len(ps)+1)
	for _, p := range ps {
		lines = append(lines, p.Error())
	}
	where := "the output"
	if out != "-" && out != "" {
		where = out
	}
	lines = append(lines, fmt.Sprintf("%d problem(s); %s holds everything else. Run the same command again to retry only these.", len(ps), where))
	return errors.New(strings.Join(lines, "\n"))
}

// stageSummary is what augment and filter print with --format json.
type stageSummary struct {
	Run       store.RunID     `json:"run,omitempty"`
	Out       string          `json:"out"`
	Hash      string          `json:"hash"`
	Questions int             `json:"questions"`
	Removed   int             `json:"removed,omitempty"`
	Problems  []check.Problem `json:"problems"`
	Requests  runner.Tally    `json:"requests"`
}

func (a *app) printSummary(format string, s stageSummary, text string) error {
	if format == "json" {
		if s.Problems == nil {
			s.Problems = []check.Problem{}
		}
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	if !a.quiet {
		fmt.Fprintln(a.stderr, text)
	}
	return nil
}

func summaryFormat(format, out string) error {
	switch format {
	case "text":
		return nil
	case "json":
		if out == "-" || out == "" {
			return badInput("--format json prints a summary on stdout: give --out FILE for the YAML")
		}
		return nil
	}
	return badInput("--format %q: want text or json", format)
}

func requestsText(r runner.Tally) string {
	return fmt.Sprintf("%d requests: %d already in the store, %d from the cache, %d asked (%d failed)",
		r.Jobs, r.Resumed, r.Cached, r.Asked, r.Failed)
}

func (a *app) checkAugmentCmd() *cobra.Command {
	var rf runFlags
	var dims, out, format string
	var opt check.AugmentOptions
	cmd := &cobra.Command{
		Use:   "augment",
		Short: "Expand the dimensions' seed questions into a pool of yes/no questions",
		Long: `Augment asks a generator model, for every criterion of the dimension file, to
diversify the seed questions and to elaborate them into 5 to 10 sub-questions, as JSON.
A malformed reply is asked again with its problems listed (--repairs times) and then
reported. The pool (seeds and generated questions) is written as a checklist file for
'arbiter check filter'. The run is resumable: the same command asks nothing twice.`,
		Example: `  arbiter check augment --generator openai/gpt-4.1 --out pool.yaml
  arbiter check augment --dimensions keeper.yaml --generator ollama/llama3.1:8b --out pool.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if err := summaryFormat(format, out); err != nil {
				return err
			}
			if len(rf.models) != 1 {
				return badInput("give one --generator provider/model")
			}
			d, err := check.LoadDimensions(dims)
			if err != nil {
				return inputError(err)
			}
			e, done, err := a.checkExec(ctx, &rf)
			if err != nil {
				return err
			}
			defer done()
			opt.Generator = llm.ModelName(rf.models[0])
			opt.Repairs = noneIfZero(opt.Repairs)
			res, err := check.Augment(ctx, e, d, opt)
			if err != nil {
				return err
			}
			if err := writeOut(out, a.stdout, res.Pool.Marshal()); err != nil {
				return err
			}
			n := len(res.Pool.Items())
			s := stageSummary{Run: res.Run, Out: out, Hash: res.Pool.Hash, Questions: n, Problems: res.Problems, Requests: res.Requests}
			if err := a.printSummary(format, s, fmt.Sprintf("augment: %d questions in the pool (%s); run %s; %s",
				n, out, res.Run, requestsText(res.Requests))); err != nil {
				return err
			}
			return problemsError(res.Problems, out)
		},
	}
	cmd.Flags().StringVar(&dims, "dimensions", "builtin", "dimension file (YAML) or builtin (the LLM Court dimensions)")
	cmd.Flags().StringVarP(&out, "out", "o", "-", "where to write the pool (YAML); - is stdout")
	cmd.Flags().StringVarP(&format, "format", "f", "text", "summary format: text (on stderr) or json (on stdout; needs --out)")
	cmd.Flags().IntVar(&opt.Min, "min", 5, "fewest questions per criterion and strategy")
	cmd.Flags().IntVar(&opt.Max, "max", 10, "most questions per criterion and strategy")
	cmd.Flags().IntVar(&opt.Repairs, "repairs", 2, "times a malformed reply is asked again (0: none)")
	registerModelFlags(cmd, &rf, "generator", "generator model")
	cmd.Flags().MarkHidden("replicates")
	return cmd
}

func (a *app) checkFilterCmd() *cobra.Command {
	var rf runFlags
	var pool, out, format string
	var opt check.FilterOptions
	cmd := &cobra.Command{
		Use:   "filter",
		Short: "Drop duplicate and unfit questions and write the frozen checklist",
		Long: `Filter first drops exact and near duplicates (same words after normalising, or a word
overlap of at least --overlap), then, with --filter-model, asks that model one dimension
at a time which questions to keep (dimension alignment, redundancy, style, yes/no
determinism, the player out of scope), with a reason for every removal. The checklist is
written with its content hash and every removal, ready to edit by hand and pass to
'arbiter check judge --checklist'.`,
		Example: `  arbiter check filter --pool pool.yaml --filter-model openai/gpt-4.1 --out checklist.yaml
  arbiter check filter --pool pool.yaml --out checklist.yaml   # pre-pass only`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if err := summaryFormat(format, out); err != nil {
				return err
			}
			if pool == "" {
				return badInput("give --pool FILE (the output of 'arbiter check augment')")
			}
			if opt.Overlap <= 0 || opt.Overlap > 1 {
				return badInput("--overlap %v: want a share in (0, 1]", opt.Overlap)
			}
			if len(rf.models) > 1 {
				return badInput("give at most one --filter-model")
			}
			p, err := check.LoadChecklist(pool)
			if err != nil {
				return inputError(err)
			}
			var e *runner.Session
			if len(rf.models) == 1 {
				opt.Model = llm.ModelName(rf.models[0])
				ex, done, err := a.checkExec(ctx, &rf)
				if err != nil {
					return err
				}
				defer done()
				e = ex
			}
			opt.Repairs = noneIfZero(opt.Repairs)
			res, err := check.Filter(ctx, e, p, opt)
			if err != nil {
				return err
			}
			cl := res.Checklist
			if err := writeOut(out, a.stdout, cl.Marshal()); err != nil {
				return err
			}
			n := len(cl.Items())
			s := stageSummary{Run: res.Run, Out: out, Hash: cl.Hash, Questions: n, Removed: res.Prepass + res.ByModel,
				Problems: res.Problems, Requests: res.Requests}
			text := fmt.Sprintf("filter: %d questions kept, %d removed by the pre-pass, %d by the filter model; checklist %s (%s)",
				n, res.Prepass, res.ByModel, cl.Hash[:12], out)
			if res.Run != "" {
				text += fmt.Sprintf("; run %s; %s", res.Run, requestsText(res.Requests))
			}
			if err := a.printSummary(format, s, text); err != nil {
				return err
			}
			return problemsError(res.Problems, out)
		},
	}
	cmd.Flags().StringVar(&pool, "pool", "", "question pool (YAML) from 'arbiter check augment', or any checklist file")
	cmd.Flags().StringVarP(&out, "out", "o", "-", "where to write the checklist (YAML); - is stdout")
	cmd.Flags().StringVarP(&format, "format", "f", "text", "summary format: text (on stderr) or json (on stdout; needs --out)")
	cmd.Flags().Float64Var(&opt.Overlap, "overlap", check.DefaultOverlap, "word-overlap share at which two questions are near duplicates")
	cmd.Flags().IntVar(&opt.Repairs, "repairs", 2, "times a malformed reply is asked again (0: none)")
	cmd.Flags().StringVar(&opt.Name, "name", "", "checklist name (default: from the domain)")
	registerModelFlags(cmd, &rf, "filter-model", "filter model (none: pre-pass only)")
	cmd.Flags().MarkHidden("replicates")
	return cmd
}
