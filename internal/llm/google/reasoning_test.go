package google_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest/conformance"
)

func TestThinkingBudgetOnTheWire(t *testing.T) {
	for _, c := range []struct {
		budget int
		effort string
		want   int64
	}{{4096, "", 4096}, {0, "low", 2048}, {0, "high", 24576}} {
		req := llm.UserText("", "hi")
		req.ThinkingBudget, req.ReasoningEffort = c.budget, c.effort
		_, r := provider().Sent(t, req)
		var b struct {
			GenerationConfig struct {
				ThinkingConfig *struct {
					ThinkingBudget  *int64 `json:"thinkingBudget"`
					IncludeThoughts bool   `json:"includeThoughts"`
				} `json:"thinkingConfig"`
			} `json:"generationConfig"`
		}
		if err := json.Unmarshal(r.Body, &b); err != nil {
			t.Fatal(err)
		}
		tc := b.GenerationConfig.ThinkingConfig
		if tc == nil || tc.ThinkingBudget == nil || *tc.ThinkingBudget != c.want || !tc.IncludeThoughts {
			t.Errorf("budget %d effort %q: body %s; want thinkingBudget %d with thoughts", c.budget, c.effort, r.Body, c.want)
		}
	}
	_, r := provider().Sent(t, llm.UserText("", "hi"))
	if r.ThinkingBudget != nil {
		t.Errorf("a request without reasoning sent a budget: %s", r.Body)
	}
}

func TestThinkingRefusedBeforeRequest(t *testing.T) {
	s := conformance.Server(t, llmtest.Echo)
	req := llm.UserText("", "hi")
	req.ReasoningEffort = "minimal"
	if _, err := provider().Model(t, s).Generate(context.Background(), req); err == nil || llm.IsRetryable(err) {
		t.Errorf("Generate(minimal) = %v; want a final error", err)
	}
	if n := s.Requests(); n != 0 {
		t.Errorf("%d requests sent; want none", n)
	}
}
