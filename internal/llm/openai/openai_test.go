package openai_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest/conformance"
	"github.com/arbiter-eval/arbiter/internal/llm/openai"
)

var _ llm.Model = (*openai.Model)(nil)

// fakeKey is recognisable so that a test can prove it never reaches an error message.
const fakeKey = "sk-llmtest-FAKE-KEY-7d3f9a2b1c"

// provider describes the adapter to the conformance suite: Chat Completions has its own
// content_filter finish and carries Retry-After in milliseconds too.
func provider() conformance.Provider {
	return conformance.Provider{
		Name: "openai/gpt-test",
		New: func(name llm.ModelName, ep config.Endpoint, hc *http.Client) (llm.Model, error) {
			return openai.New(name, ep, openai.Options{HTTPClient: hc})
		},
		BaseURL:    (*llmtest.Server).OpenAIBaseURL,
		DefaultURL: "https://api.openai.com/v1/chat/completions",
		Key:        fakeKey,
		KeyVar:     "OPENAI_API_KEY",
		Endpoints: []conformance.Endpoint{
			{Name: "missing preset key", Endpoint: config.Endpoint{Provider: "deepseek", KeyVar: "DEEPSEEK_API_KEY"},
				WantErr: "DEEPSEEK_API_KEY is not set (or pass --base-url for a local server)"},
			{Name: "ollama without key", Endpoint: config.Endpoint{Provider: "ollama", BaseURL: "127.0.0.1:11434"}},
		},
		Unset:   []string{"temperature", "top_p", "seed", "max_completion_tokens", "max_tokens", "response_format", "stream"},
		Seed:    true,
		Refused: conformance.Outcome{Finish: llm.FinishRefusal, Refusal: "I can't help with that."},
		Blocked: conformance.Outcome{Finish: llm.FinishContentFilter},
		Finishes: []conformance.Finish{
			{Wire: "tool_calls", Text: "x", Want: conformance.Outcome{Finish: llm.FinishOther, Text: "x"}},
		},
		FractionalRetryAfter: 1500 * time.Millisecond,
	}
}

func TestConformance(t *testing.T) { conformance.Run(t, provider()) }

func newModel(t testing.TB, s *llmtest.Server) llm.Model { return provider().Model(t, s) }

func TestRequestMapping(t *testing.T) {
	t.Run("key as bearer token", func(t *testing.T) {
		_, r := provider().Sent(t, llm.UserText("sys", "hello"))
		if got := r.Header.Get("Authorization"); got != "Bearer "+fakeKey {
			t.Errorf("Authorization header not the configured key")
		}
	})
	t.Run("max_completion_tokens", func(t *testing.T) {
		_, r := provider().Sent(t, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "q"}}, MaxTokens: 64})
		if !strings.Contains(string(r.Body), `"max_completion_tokens":64`) {
			t.Errorf("body %s; want max_completion_tokens", r.Body)
		}
	})
	t.Run("stream asks for usage", func(t *testing.T) {
		req := llm.UserText("You are terse.", "Is the claim supported?")
		req.OnDelta = func(string) {}
		_, r := provider().Sent(t, req)
		if !r.Stream || !r.IncludeUsage {
			t.Errorf("stream %v include_usage %v; want both", r.Stream, r.IncludeUsage)
		}
	})
}

func TestOllama(t *testing.T) {
	var seen *llmtest.Request
	s := conformance.Server(t, func(r *llmtest.Request) llmtest.Response {
		seen = r
		return llmtest.Response{Text: "hi", Reasoning: "thinking"}
	})
	m, err := openai.New("ollama/llama3.2", config.Endpoint{Provider: "ollama", BaseURL: s.URL}, openai.Options{})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	got, err := m.Generate(context.Background(), llm.UserText("", "hello"))
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if got.Text != "hi" || got.Reasoning != "thinking" || seen.Model != "llama3.2" {
		t.Errorf("Generate = %+v, server saw model %q; want hi/thinking from llama3.2", got, seen.Model)
	}
	if m.Name() != "ollama/llama3.2" {
		t.Errorf("Name = %q", m.Name())
	}
}
