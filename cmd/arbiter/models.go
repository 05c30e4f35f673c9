package main

import (
	"context"
	"net"
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
}

func (f *runFlags) register(fs *pflag.FlagSet, defaultModels []string, modelHelp string) {
	fs.StringArrayVarP(&f.models, "model", "m", defaultModels, modelHelp+" (repeatable), as provider/model")
	fs.StringVar(&f.baseURL, "base-url", "", "endpoint for every model of the command (an OpenAI-compatible or stand-in server)")
	fs.StringVar(&f.configPath, "config", "", "config file with extra endpoints, per-model limits and family overrides (YAML)")
	fs.StringVar(&f.db, "db", "", "results store (SQLite); a rerun on the same store resumes (default $ARBITER_DB or ~/.local/share/arbiter/arbiter.db)")
	fs.IntVarP(&f.concurrency, "concurrency", "c", 8, "requests in flight at once, per model")
	fs.IntVar(&f.retries, "retries", llm.DefaultRetry.MaxAttempts-1, "retries of a failed request (429, 5xx, resets, timeouts)")
	fs.DurationVar(&f.timeout, "timeout", llm.DefaultRetry.Timeout, "time limit of one attempt")
	fs.Float64Var(&f.rpm, "rpm", 0, "requests per minute per model (0: no limit)")
	fs.Float64Var(&f.tpm, "tpm", 0, "tokens per minute per model, estimated before sending (0: no limit)")
	fs.BoolVar(&f.noCache, "no-cache", false, "ask providers again even for requests answered before")
	fs.IntVar(&f.replicates, "replicates", 1, "ask each model this many times per item")
}

// models is a set of opened models ready for the runner.
type models struct {
	names    []llm.ModelName
	byName   map[llm.ModelName]llm.Model
	local    map[llm.ModelName]bool
	counters *llm.Counters
	file     *config.File
	// env is the environment with the config file's endpoints added.
	env config.Env
}

// openModels checks every model name, opens each provider and wraps it for retries and
// limits. Bad names, unknown providers and missing keys are bad input.
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
	env := a.env
	var file *config.File
	if f.configPath != "" {
		cf, eps, err := config.LoadFile(f.configPath, env.Look)
		if err != nil {
			return nil, usageError{err}
		}
		env.Apply(eps)
		file = cf
	}
	if f.baseURL != "" {
		if u, err := url.Parse(f.baseURL); err != nil || u.Scheme == "" || u.Host == "" {
			return nil, badInput("--base-url %q: want a URL such as http://127.0.0.1:8000/v1", config.ScrubURL(f.baseURL))
		}
	}
	m := &models{byName: map[llm.ModelName]llm.Model{}, local: map[llm.ModelName]bool{}, counters: new(llm.Counters), file: file, env: env}
	policy := llm.DefaultRetry
	policy.MaxAttempts, policy.Timeout = f.retries+1, f.timeout
	for _, s := range f.models {
		name, err := llm.ParseModelName(s)
		if err != nil {
			return nil, usageError{err}
		}
		if _, dup := m.byName[name]; dup {
			continue
		}
		model, err := providers.Open(name, env, providers.Options{BaseURL: f.baseURL, Builtins: builtins})
		if err != nil {
			return nil, usageError{err}
		}
		if _, ok := builtins[name]; ok {
			m.local[name] = true
		} else {
			lim := llm.Limits{RPM: f.rpm, TPM: f.tpm}
			if file != nil {
				if l, ok := file.Limits[string(name)]; ok {
					lim = llm.Limits{Concurrency: l.Concurrency, RPM: l.RPM, TPM: l.TPM}
				}
			}
			model = llm.WithRetry(llm.WithLimits(model, lim), policy, m.counters, a.log.With("model", name))
		}
		m.names = append(m.names, name)
		m.byName[name] = model
	}
	if len(m.names) == 0 {
		return nil, badInput("no model given: pass --model provider/model")
	}
	return m, nil
}

// endpointFunc names, for the cache and the run id, where each remote model is asked
// when that is not its provider's own endpoint; credentials in the URL are dropped.
func (m *models) endpointFunc(baseURL string) func(llm.ModelName) string {
	return func(name llm.ModelName) string {
		if m.local[name] {
			return ""
		}
		return config.ScrubURL(m.endpointOf(baseURL, name))
	}
}

// endpointOf is the URL a remote model will be asked at, for the reachability check.
func (m *models) endpointOf(baseURL string, name llm.ModelName) string {
	if baseURL != "" {
		return baseURL
	}
	ep, err := m.env.Endpoint(name.Provider())
	if err != nil {
		return ""
	}
	return ep.BaseURL
}

// checkReachable dials each distinct custom endpoint once before a run that will ask
// providers, so a wrong --base-url is one clear line instead of thousands of failures.
func (a *app) checkReachable(ctx context.Context, f *runFlags, m *models) error {
	seen := map[string]bool{}
	for _, name := range m.names {
		if m.local[name] {
			continue
		}
		raw := m.endpointOf(f.baseURL, name)
		if raw == "" || seen[raw] {
			continue
		}
		seen[raw] = true
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return badInput("%s: endpoint %q is not a URL", name, config.ScrubURL(raw))
		}
		host := u.Host
		if u.Port() == "" {
			if u.Scheme == "https" {
				host = net.JoinHostPort(u.Hostname(), "443")
			} else {
				host = net.JoinHostPort(u.Hostname(), "80")
			}
		}
		d := net.Dialer{Timeout: 5 * time.Second}
		conn, err := d.DialContext(ctx, "tcp", host)
		if err != nil {
			// Redacted: a proxy's base URL may carry a password.
			return badInput("%s: cannot reach %s: %v (start the server or fix --base-url / the provider's *_BASE_URL)", name, config.ScrubURL(raw), err)
		}
		conn.Close()
	}
	return nil
}

// openStore opens the results store, creating its folder.
func (a *app) openStore(ctx context.Context, path string) (*store.Store, error) {
	if path == "" {
		path = a.env.DBPath
	}
	const fix = "pass --db with the path of a writable SQLite file, or set ARBITER_DB"
	if path != ":memory:" {
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
