package providers

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

// Settings say how OpenAll opens a list of models.
type Settings struct {
	// Env is the environment, with the config file's endpoints already applied.
	Env config.Env
	// Limits caps each remote model (0 fields: no cap), unless PerModel names it.
	Limits   llm.Limits
	PerModel map[string]config.LimitSpec
	// Retry is the retry policy of every remote model.
	Retry llm.RetryPolicy
	// BaseURL, HTTPClient and Builtins are as in Options.
	BaseURL    string
	HTTPClient *http.Client
	Builtins   map[llm.ModelName]llm.Model
	// Log receives each model's retries and failures (nil discards).
	Log *slog.Logger
}

// Set is a list of opened models, ready for runner.Session: remote models are wrapped
// for retries and limits, built-in ones are not.
type Set struct {
	// Names are the models in the order given, without repeats.
	Names []llm.ModelName
	// Models holds each model by name.
	Models map[llm.ModelName]llm.Model
	// Counters are the retry and token counts of every remote model of the set.
	Counters *llm.Counters

	local map[llm.ModelName]bool
	// variants maps each variant's label to the model it asks (reasoning.go).
	variants map[llm.ModelName]*llm.Variant
	env      config.Env
	baseURL  string
}

// OpenAll checks every model name, opens each model's provider and wraps the remote ones
// for retries and limits. Repeated names are opened once. An error names the model.
func OpenAll(names []string, s Settings) (*Set, error) {
	if s.Log == nil {
		s.Log = slog.New(slog.DiscardHandler)
	}
	set := &Set{Models: map[llm.ModelName]llm.Model{}, local: map[llm.ModelName]bool{}, Counters: new(llm.Counters),
		env: s.Env, baseURL: s.BaseURL}
	for _, raw := range names {
		name, err := llm.ParseModelName(raw)
		if err != nil {
			return nil, err
		}
		if _, dup := set.Models[name]; dup {
			continue
		}
		model, err := Open(name, s.Env, Options{BaseURL: s.BaseURL, HTTPClient: s.HTTPClient, Builtins: s.Builtins})
		if err != nil {
			return nil, err
		}
		if _, ok := s.Builtins[name]; ok {
			set.local[name] = true
		} else {
			lim := s.Limits
			if l, ok := s.PerModel[string(name)]; ok {
				lim = llm.Limits{Concurrency: l.Concurrency, RPM: l.RPM, TPM: l.TPM}
			}
			model = llm.WithRetry(llm.WithLimits(model, lim), s.Retry, set.Counters, s.Log.With("model", name))
		}
		set.Names = append(set.Names, name)
		set.Models[name] = model
	}
	return set, nil
}

// Local reports whether name is a built-in model, which runs in process.
func (s *Set) Local(name llm.ModelName) bool { return s.local[name] }

// Endpoint names, for the cache and the run id, where a remote model is asked when that
// is not its provider's own endpoint; credentials in the URL are dropped.
func (s *Set) Endpoint(name llm.ModelName) string {
	if v, ok := s.variants[name]; ok {
		return s.variantEndpoint(v)
	}
	if s.local[name] {
		return ""
	}
	return config.ScrubURL(s.endpointOf(name))
}

// endpointOf is the URL a remote model will be asked at.
func (s *Set) endpointOf(name llm.ModelName) string {
	if v, ok := s.variants[name]; ok {
		name = v.Base()
	}
	if s.baseURL != "" {
		return s.baseURL
	}
	ep, err := s.env.Endpoint(name.Provider())
	if err != nil {
		return ""
	}
	return ep.BaseURL
}

// Reachable dials each distinct endpoint of the set's remote models once, so a wrong
// base URL is one clear error instead of thousands of failed requests.
func (s *Set) Reachable(ctx context.Context) error {
	seen := map[string]bool{}
	for _, name := range s.Names {
		if s.local[name] {
			continue
		}
		raw := s.endpointOf(name)
		if raw == "" || seen[raw] {
			continue
		}
		seen[raw] = true
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return fmt.Errorf("%s: endpoint %q is not a URL", name, config.ScrubURL(raw))
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
			return fmt.Errorf("%s: cannot reach %s: %v (start the server or fix --base-url / the provider's *_BASE_URL)", name, config.ScrubURL(raw), err)
		}
		conn.Close()
	}
	return nil
}
