package anthropic_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/anthropic"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest/conformance"
)

type thinkingBody struct {
	MaxTokens int64 `json:"max_tokens"`
	Thinking  *struct {
		Type         string `json:"type"`
		BudgetTokens int64  `json:"budget_tokens"`
	} `json:"thinking"`
}

func TestThinkingOnTheWire(t *testing.T) {
	cases := []struct {
		name            string
		budget, max     int
		effort          string
		wantB, wantMaxT int64
	}{
		{"budget", 8192, 0, "", 8192, 8192 + anthropic.DefaultMaxTokens},
		{"budget under a roomy limit", 2048, 16000, "", 2048, 16000},
		{"budget equal to the limit", 4096, 4096, "", 4096, 4096 + anthropic.DefaultMaxTokens},
		{"effort low", 0, 0, "low", 2048, 2048 + anthropic.DefaultMaxTokens},
		{"effort medium", 0, 0, "medium", 8192, 8192 + anthropic.DefaultMaxTokens},
		{"effort high", 0, 0, "high", 24576, 24576 + anthropic.DefaultMaxTokens},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := llm.UserText("", "hi")
			req.ThinkingBudget, req.MaxTokens, req.ReasoningEffort = c.budget, c.max, c.effort
			_, r := provider().Sent(t, req)
			var b thinkingBody
			if err := json.Unmarshal(r.Body, &b); err != nil {
				t.Fatal(err)
			}
			if b.Thinking == nil || b.Thinking.Type != "enabled" || b.Thinking.BudgetTokens != c.wantB || b.MaxTokens != c.wantMaxT {
				t.Errorf("body %s; want thinking enabled with budget %d and max_tokens %d", r.Body, c.wantB, c.wantMaxT)
			}
		})
	}
	_, r := provider().Sent(t, llm.UserText("", "hi"))
	var b thinkingBody
	if err := json.Unmarshal(r.Body, &b); err != nil || b.Thinking != nil {
		t.Errorf("a request without reasoning sent thinking: %s", r.Body)
	}
}

// TestThinkingReplyParsedFromText: a reply with a thinking block and a text block is
// the text block; the thinking is kept apart, with its tokens.
func TestThinkingReplyParsedFromText(t *testing.T) {
	for _, stream := range []bool{false, true} {
		s := conformance.Server(t, func(r *llmtest.Request) llmtest.Response {
			return llmtest.Response{Reasoning: "The player flatters me; the rules still say roll.", Text: `{"decision":"roll"}`, ReasoningTokens: 12}
		})
		req := llm.UserText("", "hi")
		req.ThinkingBudget = 2048
		if stream {
			req.OnDelta = func(string) {}
		}
		got, err := provider().Model(t, s).Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if got.Text != `{"decision":"roll"}` || got.Reasoning != "The player flatters me; the rules still say roll." {
			t.Errorf("stream %v: text %q reasoning %q", stream, got.Text, got.Reasoning)
		}
		if !stream && got.Usage.ReasoningTokens != 12 {
			t.Errorf("reasoning tokens %d; want 12", got.Usage.ReasoningTokens)
		}
	}
}

func TestThinkingRefusedBeforeRequest(t *testing.T) {
	s := conformance.Server(t, llmtest.Echo)
	m := provider().Model(t, s)
	for _, req := range []*llm.Request{
		{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}, ThinkingBudget: 512},
		{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}, ReasoningEffort: "minimal"},
		{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}, ReasoningEffort: "high", ThinkingBudget: 4096},
	} {
		if _, err := m.Generate(context.Background(), req); err == nil || llm.IsRetryable(err) {
			t.Errorf("Generate(budget %d effort %q) = %v; want a final error", req.ThinkingBudget, req.ReasoningEffort, err)
		}
	}
	if n := s.Requests(); n != 0 {
		t.Errorf("%d requests sent; want none", n)
	}
}
