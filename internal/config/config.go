// Package config owns every read of the environment and of the user's config file.
// Nothing else in arbiter calls os.Getenv: values are read here once, in main, and
// passed down. API keys are held as Secret so that logging or printing one shows
// "REDACTED" instead of the key.
package config

import (
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
)

// Secret is an API key. Its printed and logged forms never show the value.
type Secret string

// String implements fmt.Stringer.
func (Secret) String() string { return "REDACTED" }

// GoString implements fmt.GoStringer so %#v hides the key too.
func (Secret) GoString() string { return `"REDACTED"` }

// LogValue implements slog.LogValuer.
func (Secret) LogValue() slog.Value { return slog.StringValue("REDACTED") }

// MarshalText hides the key from encoders that would otherwise print it.
func (Secret) MarshalText() ([]byte, error) { return []byte("REDACTED"), nil }

// Reveal returns the key itself, for handing to an SDK. Call it nowhere else.
func (s Secret) Reveal() string { return string(s) }

// Set reports whether a key is present.
func (s Secret) Set() bool { return s != "" }

// Endpoint is where one provider is reached and with what key.
type Endpoint struct {
	// Provider is the protocol spoken: openai, anthropic, google or ollama.
	Provider string
	BaseURL  string
	Key      Secret
	// KeyVar names the environment variable the key came from, for error messages.
	KeyVar string
}

// Env is everything arbiter reads from the environment.
type Env struct {
	OpenAI    Endpoint
	Anthropic Endpoint
	Google    Endpoint
	Ollama    Endpoint
	// Presets are named OpenAI-compatible endpoints from the config file, e.g. deepseek.
	Presets map[string]Endpoint
	// DBPath is the default results store.
	DBPath string
	// GOGCSet says the user tuned the garbage collector with GOGC themselves.
	GOGCSet bool
	// Look reads further variables a config file names (key_env).
	Look Lookup
}

// Lookup is os.LookupEnv's shape, so tests can pass a map.
type Lookup func(string) (string, bool)

// FromEnviron reads the process environment.
func FromEnviron() Env { return Read(os.LookupEnv) }

// Read builds an Env from a lookup function.
func Read(look Lookup) Env {
	get := func(k string) string {
		v, _ := look(k)
		return strings.TrimSpace(v)
	}
	e := Env{
		OpenAI:    Endpoint{Provider: "openai", BaseURL: get("OPENAI_BASE_URL"), Key: Secret(get("OPENAI_API_KEY")), KeyVar: "OPENAI_API_KEY"},
		Anthropic: Endpoint{Provider: "anthropic", BaseURL: get("ANTHROPIC_BASE_URL"), Key: Secret(get("ANTHROPIC_API_KEY")), KeyVar: "ANTHROPIC_API_KEY"},
		Google:    Endpoint{Provider: "google", BaseURL: get("GEMINI_BASE_URL"), Key: Secret(get("GEMINI_API_KEY")), KeyVar: "GEMINI_API_KEY"},
		Ollama:    Endpoint{Provider: "ollama", BaseURL: ollamaURL(get("OLLAMA_HOST"))},
		Presets:   map[string]Endpoint{},
		DBPath:    DefaultDBPath(look),
		Look:      look,
	}
	_, e.GOGCSet = look("GOGC")
	if !e.Google.Key.Set() {
		e.Google.Key, e.Google.KeyVar = Secret(get("GOOGLE_API_KEY")), "GOOGLE_API_KEY"
		if !e.Google.Key.Set() {
			e.Google.KeyVar = "GEMINI_API_KEY"
		}
	}
	return e
}

// ollamaURL reads OLLAMA_HOST as Ollama itself does: it is usually a bare host[:port]
// such as 0.0.0.0:11434 (the form `ollama serve` documents), meaning http and, without a
// port, 11434. Every user of the endpoint then gets a URL.
func ollamaURL(v string) string {
	if v == "" {
		return "http://127.0.0.1:11434"
	}
	if strings.Contains(v, "://") {
		return v
	}
	hostport, path, _ := strings.Cut(v, "/")
	if _, _, err := net.SplitHostPort(hostport); err != nil {
		hostport = net.JoinHostPort(strings.Trim(hostport, "[]"), "11434")
	}
	if path != "" {
		path = "/" + path
	}
	return "http://" + hostport + path
}

// Endpoint returns the endpoint for a provider name, including presets.
func (e Env) Endpoint(provider string) (Endpoint, error) {
	switch provider {
	case "openai":
		return e.OpenAI, nil
	case "anthropic":
		return e.Anthropic, nil
	case "google":
		return e.Google, nil
	case "ollama":
		return e.Ollama, nil
	}
	if p, ok := e.Presets[provider]; ok {
		return p, nil
	}
	return Endpoint{}, fmt.Errorf("unknown provider %q: use openai, anthropic, google, ollama or baseline (or define it in a config file)", provider)
}

// PlaceholderKey is sent to local servers that want no key but whose SDK insists on one.
const PlaceholderKey = "arbiter-no-key"

// APIKey returns the key to hand an SDK for an endpoint reached at base (the resolved
// base URL, "" for the provider's own). A local server (base set) may go without a key
// and gets PlaceholderKey; the provider's own endpoint needs one, and the error names the
// variable to set (defaultVar when the endpoint does not say).
func (ep Endpoint) APIKey(base, defaultVar string) (string, error) {
	if key := ep.Key.Reveal(); key != "" {
		return key, nil
	}
	if base != "" {
		return PlaceholderKey, nil
	}
	keyVar := ep.KeyVar
	if keyVar == "" {
		keyVar = defaultVar
	}
	return "", fmt.Errorf("%s is not set (or pass --base-url for a local server)", keyVar)
}
