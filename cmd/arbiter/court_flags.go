package main

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
)

// courtFlags are the model flags of the court's commands: --model for every role, and
// one flag per role that overrides it. The run flags (--db, --base-url, --config,
// --concurrency, --retries…) come with them.
type courtFlags struct {
	run                                  runFlags
	judge, prosecutor, witness, analyzer string
	defense                              string
}

// register adds the flags to cmd; withDefense adds --defense-model too.
func (f *courtFlags) register(cmd *cobra.Command, withDefense bool) {
	registerModelFlags(cmd, &f.run, "model", "model of every role without its own flag")
	fs := cmd.Flags()
	fs.StringVar(&f.judge, "judge-model", "", "the Judge's model (also the verdict's summary and evaluation); default --model")
	fs.StringVar(&f.prosecutor, "prosecutor-model", "", "the Prosecutor's model; default --model")
	fs.StringVar(&f.witness, "witness-model", "", "the witnesses' model; default --model")
	fs.StringVar(&f.analyzer, "analyzer-model", "", "the Sentence Analyzer's model (who speaks next); default --model")
	if withDefense {
		fs.StringVar(&f.defense, "defense-model", "", "a model that plays the defense in place of a person")
	}
}

// models resolves the model of every role. A role with no model is bad input.
func (f *courtFlags) models() (court.Models, error) {
	if len(f.run.models) > 1 {
		return court.Models{}, badInput("--model given %d times: give it once, and --judge-model, --prosecutor-model, --witness-model or --analyzer-model for the roles that differ", len(f.run.models))
	}
	base := ""
	if len(f.run.models) == 1 {
		base = f.run.models[0]
	}
	pick := func(flag, v string) (llm.ModelName, error) {
		if v == "" {
			v = base
		}
		if v == "" {
			return "", badInput("no model for the %s: pass --model provider/model (or %s)", flag[:len(flag)-len("-model")], "--"+flag)
		}
		return llm.ModelName(v), nil
	}
	var m court.Models
	var err error
	if m.Judge, err = pick("judge-model", f.judge); err != nil {
		return m, err
	}
	if m.Prosecutor, err = pick("prosecutor-model", f.prosecutor); err != nil {
		return m, err
	}
	if m.Witness, err = pick("witness-model", f.witness); err != nil {
		return m, err
	}
	if m.Analyzer, err = pick("analyzer-model", f.analyzer); err != nil {
		return m, err
	}
	m.Defense = llm.ModelName(f.defense)
	return m, nil
}

// names lists every distinct model of m, for opening them.
func courtModelNames(m court.Models) []string {
	var out []string
	seen := map[llm.ModelName]bool{}
	for _, n := range []llm.ModelName{m.Judge, m.Prosecutor, m.Witness, m.Analyzer, m.Defense} {
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, string(n))
		}
	}
	return out
}

// courtSession opens the store and every role's model.
func (a *app) courtSession(ctx context.Context, f *courtFlags) (*runner.Session, court.Models, func(), error) {
	m, err := f.models()
	if err != nil {
		return nil, m, nil, err
	}
	rf := f.run
	rf.models = courtModelNames(m)
	sess, ms, done, err := a.session(ctx, &rf, nil)
	if err != nil {
		return nil, m, nil, err
	}
	// With --reasoning-effort or --thinking-budget each role's model runs as a variant.
	for _, r := range []*llm.ModelName{&m.Judge, &m.Prosecutor, &m.Witness, &m.Analyzer, &m.Defense} {
		if *r != "" {
			*r = ms.Label(*r)
		}
	}
	return sess, m, done, nil
}

// loadCourtCases reads case records: builtin, a file or folder of them, or the cases
// kept in the store at db (default $ARBITER_DB): stored for every one, stored:ID for one.
func (a *app) loadCourtCases(ctx context.Context, path, db string) ([]*court.Case, error) {
	var (
		cases []*court.Case
		err   error
	)
	if id, ok := strings.CutPrefix(path, "stored"); ok && (id == "" || id[0] == ':') {
		return a.storedCourtCases(ctx, db, strings.TrimPrefix(id, ":"))
	}
	if path == "builtin" || path == "" {
		cases, err = court.Builtin()
	} else {
		cases, err = court.LoadCases(path)
	}
	if err != nil {
		var ve *court.ValidationError
		if errors.As(err, &ve) || errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
			return nil, usageError{err}
		}
		return nil, err
	}
	return cases, nil
}

// prosecutorModel is the model the flags give the prosecutor ("" for none): the
// default of the model defense when a person plays the prosecution.
func (f *courtFlags) prosecutorModel() string {
	if f.prosecutor != "" || len(f.run.models) != 1 {
		return f.prosecutor
	}
	return f.run.models[0]
}
