// Package providers owns the choice of adapter for a model name: openai/…, anthropic/…,
// google/…, ollama/…, the OpenAI-compatible endpoints of the config file, and the
// built-in baselines that callers supply. It is the one place that pairs a model name
// with its endpoint and key, so nothing else needs to know which packages exist.
package providers

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/anthropic"
	"github.com/arbiter-eval/arbiter/internal/llm/google"
	"github.com/arbiter-eval/arbiter/internal/llm/openai"
)

// Baseline is the provider name of built-in models that call no API.
const Baseline = "baseline"

// Options are what callers add to the environment when opening a model.
type Options struct {
	// BaseURL, when set, overrides every model's endpoint (the --base-url flag), e.g. to
	// point arbiter at a local server or an llmtest stand-in; no key is then required.
	// It is the server's root for Anthropic and Gemini, ollama/… adds /v1, and
	// OpenAI-compatible models use it as given (…/chat/completions is appended).
	BaseURL string
	// HTTPClient sends the requests; nil lets each adapter use its own.
	HTTPClient *http.Client
	// Builtins are the baseline models, by name (baseline/keyword, …).
	Builtins map[llm.ModelName]llm.Model
}

// Open returns the model called name, reached as env and opts say. The model is not
// wrapped: retries and limits are the caller's to add.
func Open(name llm.ModelName, env config.Env, opts Options) (llm.Model, error) {
	if _, err := llm.ParseModelName(string(name)); err != nil {
		return nil, err
	}
	provider := name.Provider()
	if provider == Baseline {
		if m, ok := opts.Builtins[name]; ok {
			return m, nil
		}
		return nil, fmt.Errorf("unknown baseline %q: known baselines are %s", name, known(opts.Builtins))
	}
	ep, err := env.Endpoint(provider)
	if err != nil {
		return nil, fmt.Errorf("unknown provider %q in %q: use openai, anthropic, google, ollama or baseline%s",
			provider, name, presets(env))
	}
	if opts.BaseURL != "" {
		ep.BaseURL = opts.BaseURL
	}
	var m llm.Model
	switch provider {
	case "openai", "ollama":
		m, err = openai.New(name, ep, openai.Options{HTTPClient: opts.HTTPClient})
	case "anthropic":
		m, err = anthropic.New(name, ep, anthropic.Options{HTTPClient: opts.HTTPClient})
	case "google":
		m, err = google.New(name, ep, google.Options{HTTPClient: opts.HTTPClient})
	default:
		// A preset from the config file: an OpenAI-compatible endpoint whose base URL is
		// always set, so the adapter would send a placeholder for a missing key. A preset
		// that names a key must have it.
		if ep.KeyVar != "" && !ep.Key.Set() && opts.BaseURL == "" {
			return nil, fmt.Errorf("%s is not set (endpoint %q of the config file needs it)", ep.KeyVar, provider)
		}
		m, err = openai.New(name, ep, openai.Options{HTTPClient: opts.HTTPClient})
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// presets lists the config file's endpoints for an error message.
func presets(env config.Env) string {
	if len(env.Presets) == 0 {
		return " (or define it as an endpoint in a config file)"
	}
	names := make([]string, 0, len(env.Presets))
	for n := range env.Presets {
		names = append(names, n)
	}
	slices.Sort(names)
	return ", or an endpoint of the config file: " + strings.Join(names, ", ")
}

func known(builtins map[llm.ModelName]llm.Model) string {
	if len(builtins) == 0 {
		return "none (this command offers no baselines)"
	}
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, string(n))
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
