package llmtest_test

import (
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// TestReasoningEffortSpec holds the stand-in's reasoning_effort values, and arbiter's
// own efforts, to the ReasoningEffort schema of OpenAI's vendored OpenAPI spec.
func TestReasoningEffortSpec(t *testing.T) {
	b, err := os.ReadFile("testdata/openai-reasoning-effort.json")
	if err != nil {
		t.Fatal(err)
	}
	var sp struct {
		Refers  bool `json:"chat_request_refers_reasoning_effort"`
		Schemas struct {
			ReasoningEffort struct {
				AnyOf []struct {
					Type string   `json:"type"`
					Enum []string `json:"enum"`
				} `json:"anyOf"`
			} `json:"ReasoningEffort"`
		} `json:"schemas"`
	}
	if err := json.Unmarshal(b, &sp); err != nil {
		t.Fatal(err)
	}
	if !sp.Refers {
		t.Fatalf("the spec's CreateChatCompletionRequest does not take reasoning_effort")
	}
	var enum []string
	for _, a := range sp.Schemas.ReasoningEffort.AnyOf {
		if a.Type == "string" {
			enum = a.Enum
		}
	}
	if !slices.Equal(enum, llmtest.OpenAIEfforts) {
		t.Errorf("stand-in efforts %q; the spec allows %q", llmtest.OpenAIEfforts, enum)
	}
	for _, e := range llm.Efforts {
		if !slices.Contains(enum, e) {
			t.Errorf("arbiter sends effort %q, which the spec does not allow", e)
		}
	}
}

func postJSON(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, b.String()
}

// TestReasoningWire checks that the stand-in reads each protocol's reasoning field and
// refuses what the provider refuses.
func TestReasoningWire(t *testing.T) {
	var got []*llmtest.Request
	s := llmtest.NewServer(llmtest.Options{Responder: func(r *llmtest.Request) llmtest.Response {
		got = append(got, r)
		return llmtest.Echo(r)
	}})
	defer s.Close()
	msgs := `"messages":[{"role":"user","content":"hi"}]`
	cases := []struct {
		name, url, body string
		status          int
		effort          string
		budget          int64
	}{
		{"openai effort", s.URL + "/v1/chat/completions", `{"model":"o4-mini",` + msgs + `,"reasoning_effort":"high"}`, 200, "high", 0},
		{"openai null effort", s.URL + "/v1/chat/completions", `{"model":"o4-mini",` + msgs + `,"reasoning_effort":null}`, 200, "", 0},
		{"openai bad effort", s.URL + "/v1/chat/completions", `{"model":"o4-mini",` + msgs + `,"reasoning_effort":"extreme"}`, 400, "", 0},
		{"anthropic thinking", s.URL + "/v1/messages", `{"model":"c","max_tokens":9216,` + msgs + `,"thinking":{"type":"enabled","budget_tokens":8192}}`, 200, "", 8192},
		{"anthropic budget above max", s.URL + "/v1/messages", `{"model":"c","max_tokens":8192,` + msgs + `,"thinking":{"type":"enabled","budget_tokens":8192}}`, 400, "", 0},
		{"anthropic small budget", s.URL + "/v1/messages", `{"model":"c","max_tokens":8192,` + msgs + `,"thinking":{"type":"enabled","budget_tokens":512}}`, 400, "", 0},
		{"gemini budget", s.URL + "/v1beta/models/g:generateContent", `{"contents":[{"parts":[{"text":"hi"}]}],"generationConfig":{"thinkingConfig":{"thinkingBudget":2048,"includeThoughts":true}}}`, 200, "", 2048},
	}
	for _, c := range cases {
		got = nil
		status, body := postJSON(t, c.url, c.body)
		if status != c.status {
			t.Errorf("%s: status %d (%s); want %d", c.name, status, body, c.status)
			continue
		}
		if status != 200 {
			continue
		}
		if len(got) != 1 {
			t.Fatalf("%s: responder saw %d requests", c.name, len(got))
		}
		r := got[0]
		var budget int64
		if r.ThinkingBudget != nil {
			budget = *r.ThinkingBudget
		}
		if r.ReasoningEffort != c.effort || budget != c.budget {
			t.Errorf("%s: read effort %q budget %d; want %q %d", c.name, r.ReasoningEffort, budget, c.effort, c.budget)
		}
	}
}
