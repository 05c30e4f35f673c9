package anthropic_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/anthropic"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest/conformance"
)

var _ llm.Model = (*anthropic.Model)(nil)

// fakeKey is recognisable so that a test can prove it never reaches an error message.
const fakeKey = "fake-anthropic-llmtest-KEY-5e1b8c"

// provider describes the adapter to the conformance suite: the Messages API has no seed,
// answers a blocked prompt with a refusal, and sends Retry-After in whole seconds only.
func provider() conformance.Provider {
	return conformance.Provider{
		Name: "anthropic/claude-test",
		New: func(name llm.ModelName, ep config.Endpoint, hc *http.Client) (llm.Model, error) {
			return anthropic.New(name, ep, anthropic.Options{HTTPClient: hc})
		},
		BaseURL:    func(s *llmtest.Server) string { return s.URL },
		DefaultURL: "https://api.anthropic.com/v1/messages",
		Key:        fakeKey,
		KeyVar:     "ANTHROPIC_API_KEY",
		Unset:      []string{"temperature", "top_p", "seed", "output_config", "stream"},
		Raw:        wholeMessage,
		Refused:    conformance.Outcome{Finish: llm.FinishRefusal, Refusal: "I can't help with that."},
		Blocked:    conformance.Outcome{Finish: llm.FinishRefusal},
		Finishes: []conformance.Finish{
			{Wire: "stop_sequence", Text: "yes", Want: conformance.Outcome{Finish: llm.FinishStop, Text: "yes"}},
			{Wire: "tool_use", Text: "x", Want: conformance.Outcome{Finish: llm.FinishOther, Text: "x"}},
		},
		FractionalRetryAfter: 2 * time.Second,
	}
}

func TestConformance(t *testing.T) { conformance.Run(t, provider()) }

// wholeMessage checks that Raw is the whole message, thinking block and text block, even
// when it arrived as a stream of events.
func wholeMessage(t *testing.T, raw json.RawMessage, text string) {
	var m struct {
		Type    string `json:"type"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.Type != "message" || len(m.Content) != 2 || m.Content[1].Text != text {
		t.Errorf("Raw = %s (%v); want the whole message", raw, err)
	}
}

func TestRequestMapping(t *testing.T) {
	t.Run("defaults", func(t *testing.T) {
		_, r := provider().Sent(t, llm.UserText("sys", "hello"))
		if r.MaxTokens != anthropic.DefaultMaxTokens {
			t.Errorf("max_tokens = %d; want the default %d", r.MaxTokens, anthropic.DefaultMaxTokens)
		}
		// The v2 SDK sends the key as a bearer token; older clients used x-api-key.
		if r.Header.Get("Authorization") != "Bearer "+fakeKey && r.Header.Get("x-api-key") != fakeKey {
			t.Errorf("the configured key was not sent")
		}
	})
	t.Run("long replies stream", func(t *testing.T) {
		got, r := provider().Sent(t, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "write at length"}}, MaxTokens: 64000})
		if got.Text == "" {
			t.Errorf("Generate returned no text")
		}
		if !r.Stream || r.MaxTokens != 64000 {
			t.Errorf("stream %v max_tokens %d; want a stream, since the SDK refuses long non-streaming calls", r.Stream, r.MaxTokens)
		}
	})
}
