package providers_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/anthropic"
	"github.com/arbiter-eval/arbiter/internal/llm/google"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/openai"
	"github.com/arbiter-eval/arbiter/internal/llm/providers"
)

// Recognisable fake keys, so that a test can prove none reaches an error message.
const (
	openaiKey    = "sk-llmtest-FAKE-OPENAI-0a1b2c"
	anthropicKey = "fake-anthropic-llmtest-KEY-3d4e"
	googleKey    = "AIza-llmtest-FAKE-GOOGLE-5f6a"
	deepseekKey  = "sk-llmtest-FAKE-DEEPSEEK-7b8c"
)

// env is an environment as config.Read builds it, with a deepseek preset from a config
// file; keyed decides whether the keys are set.
func env(keyed bool) config.Env {
	vars := map[string]string{}
	if keyed {
		vars = map[string]string{"OPENAI_API_KEY": openaiKey, "ANTHROPIC_API_KEY": anthropicKey, "GEMINI_API_KEY": googleKey}
	}
	e := config.Read(func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	preset := config.Endpoint{Provider: "deepseek", BaseURL: "http://127.0.0.1:1/v1", KeyVar: "DEEPSEEK_API_KEY"}
	if keyed {
		preset.Key = deepseekKey
	}
	e.Apply([]config.Endpoint{preset})
	return e
}

func baseline() llm.Model {
	return llm.Func{ModelName: "baseline/always-yes", Fn: func(context.Context, *llm.Request) (*llm.Reply, error) {
		return &llm.Reply{Text: "yes", Finish: llm.FinishStop, Attempts: 1}, nil
	}}
}

func TestOpenDispatch(t *testing.T) {
	tests := []struct {
		name         string
		model        llm.ModelName
		wantType     string
		wantProtocol llmtest.Protocol
	}{
		{"openai", "openai/gpt-test", fmt.Sprintf("%T", &openai.Model{}), llmtest.OpenAI},
		{"anthropic", "anthropic/claude-test", fmt.Sprintf("%T", &anthropic.Model{}), llmtest.Anthropic},
		{"google", "google/gemini-test", fmt.Sprintf("%T", &google.Model{}), llmtest.Gemini},
		{"ollama", "ollama/llama3.2", fmt.Sprintf("%T", &openai.Model{}), llmtest.OpenAI},
		{"config preset", "deepseek/deepseek-chat", fmt.Sprintf("%T", &openai.Model{}), llmtest.OpenAI},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var seen *llmtest.Request
			srv := llmtest.NewServer(llmtest.Options{Responder: func(r *llmtest.Request) llmtest.Response {
				seen = r
				return llmtest.Echo(r)
			}})
			defer srv.Close()
			m, err := providers.Open(tt.model, env(true), providers.Options{BaseURL: srv.URL})
			if err != nil {
				t.Fatalf("Open(%q): %v", tt.model, err)
			}
			if got := fmt.Sprintf("%T", m); got != tt.wantType {
				t.Errorf("Open(%q) is a %s; want %s", tt.model, got, tt.wantType)
			}
			if m.Name() != tt.model {
				t.Errorf("Name = %q; want %q", m.Name(), tt.model)
			}
			reply, err := m.Generate(context.Background(), llm.UserText("", "hello"))
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if reply.Text != "echo: hello" || seen.Protocol != tt.wantProtocol || seen.Model != tt.model.ID() {
				t.Errorf("Generate = %q via %s for model %q; want the echo via %s for %q",
					reply.Text, seen.Protocol, seen.Model, tt.wantProtocol, tt.model.ID())
			}
		})
	}
}

func TestOpenBaseline(t *testing.T) {
	b := baseline()
	opts := providers.Options{Builtins: map[llm.ModelName]llm.Model{"baseline/always-yes": b}}
	m, err := providers.Open("baseline/always-yes", env(false), opts)
	if err != nil || m.Name() != "baseline/always-yes" {
		t.Fatalf("Open(baseline/always-yes) = %v, %v; want the builtin", m, err)
	}
	if r, err := m.Generate(context.Background(), llm.UserText("", "x")); err != nil || r.Text != "yes" {
		t.Errorf("Generate = %v, %v; want the builtin's yes", r, err)
	}
}

func TestOpenErrors(t *testing.T) {
	builtins := map[llm.ModelName]llm.Model{"baseline/always-yes": baseline(), "baseline/keyword": baseline()}
	tests := []struct {
		name    string
		model   llm.ModelName
		env     config.Env
		opts    providers.Options
		wantErr string
	}{
		{"no slash", "gpt-4.1", env(true), providers.Options{}, "want provider/model"},
		{"unknown provider", "mistral/large", env(true), providers.Options{},
			`unknown provider "mistral" in "mistral/large": use openai, anthropic, google, ollama or baseline, or an endpoint of the config file: deepseek`},
		{"unknown baseline", "baseline/coin", env(true), providers.Options{Builtins: builtins},
			`unknown baseline "baseline/coin": known baselines are baseline/always-yes, baseline/keyword`},
		{"no baselines offered", "baseline/coin", env(true), providers.Options{}, "known baselines are none"},
		{"openai key missing", "openai/gpt-4.1", env(false), providers.Options{},
			"OPENAI_API_KEY is not set (or pass --base-url for a local server)"},
		{"anthropic key missing", "anthropic/claude-sonnet-4-5", env(false), providers.Options{},
			"ANTHROPIC_API_KEY is not set (or pass --base-url for a local server)"},
		{"google key missing", "google/gemini-2.5-flash", env(false), providers.Options{},
			"GEMINI_API_KEY is not set (or pass --base-url for a local server)"},
		{"preset key missing", "deepseek/deepseek-chat", env(false), providers.Options{},
			`DEEPSEEK_API_KEY is not set (endpoint "deepseek" of the config file needs it)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := providers.Open(tt.model, tt.env, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Open(%q) error = %v; want %q", tt.model, err, tt.wantErr)
			}
			checkNoKeys(t, err)
		})
	}
}

// TestBaseURLNeedsNoKey: --base-url points every model at a local server, which needs
// no key.
func TestBaseURLNeedsNoKey(t *testing.T) {
	s := llmtest.NewServer(llmtest.Options{})
	defer s.Close()
	for _, name := range []llm.ModelName{"openai/gpt-test", "anthropic/claude-test", "google/gemini-test", "deepseek/chat"} {
		t.Run(string(name), func(t *testing.T) {
			m, err := providers.Open(name, env(false), providers.Options{BaseURL: s.URL})
			if err != nil {
				t.Fatalf("Open(%q) with a base URL: %v", name, err)
			}
			if _, err := m.Generate(context.Background(), llm.UserText("", "hi")); err != nil {
				t.Errorf("Generate: %v", err)
			}
		})
	}
}

// TestKeysNeverInErrors drives every provider into a 401 whose message echoes the key it
// was sent.
func TestKeysNeverInErrors(t *testing.T) {
	s := llmtest.NewServer(llmtest.Options{Responder: func(*llmtest.Request) llmtest.Response {
		return llmtest.Response{Fault: llmtest.Fault{Kind: llmtest.FaultUnauthorized}}
	}})
	defer s.Close()
	for _, name := range []llm.ModelName{"openai/gpt-test", "anthropic/claude-test", "google/gemini-test", "deepseek/chat"} {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%v", name, stream), func(t *testing.T) {
				m, err := providers.Open(name, env(true), providers.Options{BaseURL: s.URL})
				if err != nil {
					t.Fatalf("Open: %v", err)
				}
				req := llm.UserText("", "hi")
				if stream {
					req.OnDelta = func(string) {}
				}
				_, err = m.Generate(context.Background(), req)
				var e *llm.Error
				if !errors.As(err, &e) || e.Status != 401 || e.Retryable {
					t.Fatalf("Generate error = %v; want a non-retryable 401 *llm.Error", err)
				}
				if !strings.Contains(e.Message, "REDACTED") {
					t.Errorf("Message = %q; want the echoed key redacted", e.Message)
				}
				checkNoKeys(t, err)
			})
		}
	}
}

func checkNoKeys(t *testing.T, err error) {
	t.Helper()
	for _, key := range []string{openaiKey, anthropicKey, googleKey, deepseekKey} {
		for _, s := range []string{fmt.Sprint(err), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
			if strings.Contains(s, key) {
				t.Errorf("error shows an API key: %s", s)
			}
		}
		for e := err; e != nil; e = errors.Unwrap(e) {
			if strings.Contains(e.Error(), key) {
				t.Errorf("wrapped error %T shows an API key: %s", e, e)
			}
		}
	}
}
