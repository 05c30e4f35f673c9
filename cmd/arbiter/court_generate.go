package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

// generateFlags are the flags of 'arbiter court generate'.
type generateFlags struct {
	run    runFlags
	prior  string
	seed   int64
	reasks int
	out    string
	count  int
}

func (a *app) courtGenerateCmd() *cobra.Command {
	var f generateFlags
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Have a model write one case record from a prior; validate it and keep it in the store",
		Long: `Have a model write one case record (../shared/spec/court.md section 1) from a prior, a few
words such as "theft case". The model answers under a JSON schema of the record where its
provider supports structured output; the reply is validated like any case file, and one
that is not valid is asked again with its problems listed (--reasks times at most). A case
that stays invalid is reported, one problem per line, and nothing is kept (exit 1).

A valid case is kept in the results store (see 'arbiter court cases'; load it with
--cases stored:ID) and printed, or written to --out. Every request and reply is stored,
so the same command run again gives the same case without asking the model; another
--seed asks for another case.

--count N writes N cases from the same prior, seeds --seed to --seed+N-1, as JSONL (one
record a line, loadable with --cases FILE.jsonl): the first request of every case goes out
in one round, so --batch sends them as one batch per provider at its batch price and
--dry-run prints what they would cost; each round of re-asks follows as its own.`,
		Example: `  arbiter court generate --prior "theft case" --model openai/gpt-4.1
  arbiter court generate --prior "a civil dispute over a boundary wall" --model ollama/qwen3:8b --seed 2 --out wall.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.courtGenerate(cmd.Context(), &f)
		},
	}
	registerModelFlags(cmd, &f.run, "model", "the model that writes the case")
	fs := cmd.Flags()
	_ = fs.MarkHidden("replicates") // one case per command; --seed asks for another
	fs.StringVar(&f.prior, "prior", "", `what kind of case to write, e.g. "theft case" (required)`)
	fs.Int64Var(&f.seed, "seed", 1, "variation number: another seed asks for another case from the same prior")
	fs.IntVar(&f.reasks, "reasks", court.DefaultReasks, "times an invalid case is asked again, with its problems")
	fs.StringVarP(&f.out, "out", "o", "-", "write the case record to this file (- for stdout)")
	fs.IntVar(&f.count, "count", 1, "write this many cases from the prior (seeds --seed onwards), as JSONL")
	a.registerBatch(cmd, &f.run)
	return cmd
}

func (a *app) courtGenerate(ctx context.Context, f *generateFlags) error {
	prior := strings.TrimSpace(f.prior)
	if prior == "" {
		return badInput(`--prior is required: say what kind of case to write, e.g. --prior "theft case"`)
	}
	if len(f.run.models) != 1 {
		return badInput("give --model once: the model that writes the case, as provider/model (got %d)", len(f.run.models))
	}
	model, err := llm.ParseModelName(f.run.models[0])
	if err != nil {
		return badInput("--model: %v", err)
	}
	if f.reasks < 0 {
		return badInput("--reasks %d: want 0 or more", f.reasks)
	}
	if f.count < 1 {
		return badInput("--count %d: want 1 or more", f.count)
	}
	if f.count > 1 {
		return a.courtGenerateBulk(ctx, f, prior, model)
	}
	sess, ms, done, err := a.session(ctx, &f.run, nil)
	if err != nil {
		return err
	}
	defer done()
	model = ms.Label(model) // a variant under --reasoning-effort or --thinking-budget

	res, err := court.RunGenerate(ctx, sess, court.GenerateRun{Prior: prior, Model: model, Seed: f.seed,
		Reasks: noneIfZero(f.reasks), Keep: true})
	if err != nil {
		return err
	}
	g := res.Cases[0]
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, g.Record, "", "  "); err != nil {
		return fmt.Errorf("court generate: %w", err)
	}
	pretty.WriteByte('\n')
	if err := writeOut(f.out, a.stdout, pretty.Bytes()); err != nil {
		return err
	}
	if !a.quiet {
		fmt.Fprintf(a.stderr, "case %s (%q, %d evidence, %d witnesses) kept in %s after %d %s; play it with --cases stored:%s\n",
			g.Case.ID, g.Case.Title, len(g.Case.Evidence), len(g.Case.Witnesses), sess.Store.Path(), g.Asks, pluralWord(g.Asks, "ask", "asks"), g.Case.ID)
	}
	return nil
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
