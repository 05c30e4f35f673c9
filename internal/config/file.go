package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/arbiter-eval/arbiter/internal/input"
)

// File is the optional config file a user names with --config. Keys never live in it:
// an endpoint names the environment variable (key_env) or the file (key_file) that holds
// its key.
type File struct {
	// Endpoints are extra OpenAI-compatible providers, e.g. deepseek or qwen.
	Endpoints map[string]EndpointSpec `yaml:"endpoints"`
	// Families overrides the family of a model for home/away analysis.
	Families map[string]string `yaml:"families"`
	// Limits caps each model's requests: concurrency, rpm, tpm.
	Limits map[string]LimitSpec `yaml:"limits"`
	// Court names the LLM Court's default models (arbiter serve): model for every role,
	// and one per role over it. Flags win over the file.
	Court CourtSpec `yaml:"court"`
	// Prices overrides or adds model prices, by provider/model (see PriceSpec).
	Prices map[string]PriceSpec `yaml:"prices"`
}

// CourtSpec is the config file's court section.
type CourtSpec struct {
	Model      string `yaml:"model"`
	Judge      string `yaml:"judge"`
	Prosecutor string `yaml:"prosecutor"`
	Witness    string `yaml:"witness"`
	Analyzer   string `yaml:"analyzer"`
}

// EndpointSpec describes one named OpenAI-compatible endpoint.
type EndpointSpec struct {
	BaseURL string `yaml:"base_url"`
	KeyEnv  string `yaml:"key_env"`
	KeyFile string `yaml:"key_file"`
}

// LimitSpec is a per-model cap.
type LimitSpec struct {
	Concurrency int     `yaml:"concurrency"`
	RPM         float64 `yaml:"rpm"`
	TPM         float64 `yaml:"tpm"`
}

// LoadFile reads a config file and resolves its endpoints' keys through look. Unknown
// fields are an error, so a typo does not silently do nothing.
func LoadFile(path string, look Lookup) (*File, []Endpoint, error) {
	b, err := input.ReadYAMLFile(context.Background(), path)
	if err != nil {
		return nil, nil, err
	}
	var f File
	if err := input.DecodeYAML(path, b, &f, yaml.DisallowUnknownField()); err != nil {
		var ve *input.ValidationError
		if errors.As(err, &ve) {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("config %s: %s", path, firstLine(yaml.FormatError(err, false, false)))
	}
	var eps []Endpoint
	for name, spec := range f.Endpoints {
		switch name {
		case "openai", "anthropic", "google", "ollama", "baseline":
			return nil, nil, fmt.Errorf("config %s: endpoints.%s: that name is built in; choose another", path, name)
		}
		if spec.BaseURL == "" {
			return nil, nil, fmt.Errorf("config %s: endpoints.%s.base_url: missing", path, name)
		}
		ep := Endpoint{Provider: name, BaseURL: spec.BaseURL, KeyVar: spec.KeyEnv}
		switch {
		case spec.KeyEnv != "":
			v, _ := look(spec.KeyEnv)
			ep.Key = Secret(strings.TrimSpace(v))
		case spec.KeyFile != "":
			kp := spec.KeyFile
			if rest, ok := strings.CutPrefix(kp, "~/"); ok {
				if home, err := os.UserHomeDir(); err == nil {
					kp = filepath.Join(home, rest)
				}
			}
			kb, err := input.ReadFile(context.Background(), kp)
			if err != nil {
				return nil, nil, fmt.Errorf("config %s: endpoints.%s.key_file: %w", path, name, err)
			}
			ep.Key, ep.KeyVar = Secret(strings.TrimSpace(string(kb))), "key_file "+spec.KeyFile
		}
		eps = append(eps, ep)
	}
	return &f, eps, nil
}

// Apply adds a config file's endpoints to the environment's.
func (e *Env) Apply(eps []Endpoint) {
	if e.Presets == nil {
		e.Presets = map[string]Endpoint{}
	}
	for _, ep := range eps {
		e.Presets[ep.Provider] = ep
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// DefaultDBPath is where results live unless --db says otherwise:
// $ARBITER_DB, else $XDG_DATA_HOME/arbiter/arbiter.db, else ~/.local/share/arbiter/arbiter.db.
func DefaultDBPath(look Lookup) string {
	if v, ok := look("ARBITER_DB"); ok && v != "" {
		return v
	}
	if v, ok := look("XDG_DATA_HOME"); ok && v != "" {
		return filepath.Join(v, "arbiter", "arbiter.db")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "share", "arbiter", "arbiter.db")
	}
	return "arbiter.db"
}
