package main

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/providers"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// runFlags are the flags of every command that asks models for replies.
type runFlags struct {
	models      []string
	baseURL     string
	configPath  string
	db          string
	concurrency int
	retries     int
	timeout     time.Duration
	rpm, tpm    float64
	noCache     bool
	replicates  int
	// reasoning holds --reasoning-effort, --thinking-budget and an experiment file's
	// model entries; batch, when the command takes them, the batch flags. Both travel
	// with the flags when a command copies them.
	reasoning reasoningFlags
	batch     *batchFlags
}

func (f *runFlags) register(fs *pflag.FlagSet, defaultModels []string, modelHelp string) {
	retry := llm.DefaultRetry()
	fs.StringArrayVarP(&f.models, "model", "m", defaultModels, modelHelp+" (repeatable), as provider/model")
	fs.StringVar(&f.baseURL, "base-url", "", "endpoint for every model of the command (an OpenAI-compatible or stand-in server)")
	fs.StringVar(&f.configPath, "config", "", "config file with extra endpoints, per-model limits and family overrides (YAML)")
	fs.StringVar(&f.db, "db", "", "results store: a SQLite file or a postgres:// URL; a rerun on the same store resumes (default $ARBITER_DB or ~/.local/share/arbiter/arbiter.db)")
	fs.IntVarP(&f.concurrency, "concurrency", "c", 8, "requests in flight at once, per model")
	fs.IntVar(&f.retries, "retries", retry.MaxAttempts-1, "retries of a failed request (429, 5xx, resets, timeouts)")
	fs.DurationVar(&f.timeout, "timeout", retry.Timeout, "time limit of one attempt")
	fs.Float64Var(&f.rpm, "rpm", 0, "requests per minute per model (0: no limit)")
	fs.Float64Var(&f.tpm, "tpm", 0, "tokens per minute per model, estimated before sending (0: no limit)")
	fs.BoolVar(&f.noCache, "no-cache", false, "ask providers again even for requests answered before")
	fs.IntVar(&f.replicates, "replicates", 1, "ask each model this many times per item")
	f.reasoning.register(fs)
}

// models is a set of opened models with the config file that named their limits.
type models struct {
	*providers.Set
	file *config.File
}

// openModels checks the run flags and opens every model of f with providers.OpenAll.
// Bad flags, bad names, unknown providers and missing keys are bad input.
func (a *app) openModels(f *runFlags, builtins map[llm.ModelName]llm.Model) (*models, error) {
	if f.concurrency < 1 {
		return nil, badInput("--concurrency %d: want at least 1", f.concurrency)
	}
	if f.replicates < 1 {
		return nil, badInput("--replicates %d: want at least 1", f.replicates)
	}
	if f.retries < 0 {
		return nil, badInput("--retries %d: want 0 or more", f.retries)
	}
	s := providers.Settings{Env: a.env, Limits: llm.Limits{RPM: f.rpm, TPM: f.tpm}, Retry: llm.DefaultRetry(),
		BaseURL: f.baseURL, Builtins: builtins, Log: a.log}
	s.Retry.MaxAttempts, s.Retry.Timeout = f.retries+1, f.timeout
	var file *config.File
	if f.configPath != "" {
		cf, eps, err := config.LoadFile(f.configPath, a.env.Look)
		if err != nil {
			return nil, usageError{err}
		}
		s.Env.Apply(eps)
		file, s.PerModel = cf, cf.Limits
	}
	if f.baseURL != "" {
		if u, err := url.Parse(f.baseURL); err != nil || u.Scheme == "" || u.Host == "" {
			return nil, badInput("--base-url %q: want a URL such as http://127.0.0.1:8000/v1", config.ScrubURL(f.baseURL))
		}
	}
	set, err := providers.OpenAll(f.models, s)
	if err != nil {
		return nil, usageError{err}
	}
	if len(set.Names) == 0 {
		return nil, badInput("no model given: pass --model provider/model")
	}
	if err := applyReasoning(set, f); err != nil {
		return nil, usageError{err}
	}
	return &models{Set: set, file: file}, nil
}

// session opens the models of f and the store, as one run session; close closes the
// store.
func (a *app) session(ctx context.Context, f *runFlags, builtins map[llm.ModelName]llm.Model) (sess *runner.Session, ms *models, close func(), err error) {
	ms, err = a.openModels(f, builtins)
	if err != nil {
		return nil, nil, nil, err
	}
	st, err := a.openStore(ctx, f.db)
	if err != nil {
		return nil, nil, nil, err
	}
	sess = a.newSession(st, ms, f)
	if err := a.applyBatch(sess, ms, f); err != nil {
		st.Close()
		return nil, nil, nil, err
	}
	return sess, ms, func() { st.Close() }, nil
}

// newSession is the run session of the opened models ms on the store st.
func (a *app) newSession(st *store.Store, ms *models, f *runFlags) *runner.Session {
	return &runner.Session{Store: st, Models: ms.Models, Concurrency: f.concurrency, NoCache: f.noCache,
		Local: ms.Local, Endpoint: ms.Endpoint, Spec: ms.Spec,
		Progress: func(label string) runner.Progress { return a.progress(label, ms.Counters) },
		Counters: ms.Counters, Log: a.log, Version: versionString(),
		Reachable: func(ctx context.Context) error {
			if err := ms.Reachable(ctx); err != nil {
				return usageError{err}
			}
			return nil
		},
	}
}

// storePath is the store a command opens: --db, else ARBITER_DB, else the default
// SQLite file. A postgres:// URL there puts the command on a shared PostgreSQL store.
func (a *app) storePath(flag string) string {
	if p := store.DSNFromEnv(flag, a.env.Look); p != "" {
		return p
	}
	return a.env.DBPath
}

// openStore opens the results store, creating its folder.
func (a *app) openStore(ctx context.Context, path string) (*store.Store, error) {
	path = a.storePath(path)
	fix := "pass --db with the path of a writable SQLite file or a postgres:// URL, or set ARBITER_DB"
	if store.IsPostgres(path) {
		fix = "check that the PostgreSQL server is up and its database exists"
	} else if path != ":memory:" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, badInput("results store %s: %v (%s)", path, err, fix)
		}
	}
	st, err := store.Open(ctx, path)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		// The path given is a folder, unwritable or not a database: bad input.
		return nil, badInput("%v (%s)", err, fix)
	}
	return st, nil
}

// openExistingStore opens the results store for commands that only read it (runs,
// report, serve): a mistyped path is refused, not made into a new empty store.
func (a *app) openExistingStore(ctx context.Context, path string) (*store.Store, error) {
	path = a.storePath(path)
	st, err := store.OpenExisting(ctx, path)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		if errors.Is(err, store.ErrNoStore) {
			return nil, badInput("%v: check --db or ARBITER_DB (a run creates the store)", err)
		}
		return nil, badInput("%v (pass --db with the path of an arbiter store, or set ARBITER_DB)", err)
	}
	return st, nil
}

// progress picks a live bar on a terminal and plain lines otherwise.
func (a *app) progress(label string, c *llm.Counters) runner.Progress {
	if a.quiet {
		return nil
	}
	if a.interactive {
		return runner.NewBar(a.stderr, label, c)
	}
	return runner.NewLines(a.stderr, label, 10*time.Second, c)
}
