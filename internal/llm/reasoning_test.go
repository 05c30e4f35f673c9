package llm_test

import (
	"context"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

func TestVariantLabel(t *testing.T) {
	temp := 0.7
	cases := []struct {
		p    llm.Params
		want llm.ModelName
	}{
		{llm.Params{}, "anthropic/claude-sonnet-4-5"},
		{llm.Params{ThinkingBudget: 8192}, "anthropic/claude-sonnet-4-5+thinking-8192"},
		{llm.Params{ReasoningEffort: "high", Temperature: &temp, MaxTokens: 4000, ThinkingBudget: 0}, "anthropic/claude-sonnet-4-5+reasoning-high+t-0.7+max-4000"},
		{llm.Params{MaxTokens: 9000, ThinkingBudget: 2048}, "anthropic/claude-sonnet-4-5+thinking-2048+max-9000"},
	}
	for _, c := range cases {
		if got := c.p.Label("anthropic/claude-sonnet-4-5"); got != c.want {
			t.Errorf("Label(%+v) = %s; want %s", c.p, got, c.want)
		}
	}
}

func TestParamsCheck(t *testing.T) {
	cases := []struct {
		base  llm.ModelName
		p     llm.Params
		field string // "" when accepted
	}{
		{"openai/o4-mini", llm.Params{ReasoningEffort: "minimal"}, ""},
		{"deepseek/deepseek-reasoner", llm.Params{ReasoningEffort: "high"}, ""},
		{"openai/o4-mini", llm.Params{ThinkingBudget: 4096}, "thinking_budget"},
		{"openai/o4-mini", llm.Params{ReasoningEffort: "max"}, "reasoning_effort"},
		{"anthropic/claude-sonnet-4-5", llm.Params{ThinkingBudget: 8192}, ""},
		{"anthropic/claude-sonnet-4-5", llm.Params{ReasoningEffort: "medium"}, ""},
		{"anthropic/claude-sonnet-4-5", llm.Params{ThinkingBudget: 1000}, "thinking_budget"},
		{"anthropic/claude-sonnet-4-5", llm.Params{ReasoningEffort: "minimal"}, "reasoning_effort"},
		{"google/gemini-2.5-flash", llm.Params{ThinkingBudget: 512}, ""},
		{"google/gemini-2.5-flash", llm.Params{ThinkingBudget: 512, ReasoningEffort: "low"}, "reasoning_effort"},
		{"baseline/keyword", llm.Params{ThinkingBudget: 8192}, "thinking_budget"},
		{"baseline/keyword", llm.Params{ReasoningEffort: "low"}, "reasoning_effort"},
		{"baseline/keyword", llm.Params{MaxTokens: 10}, ""},
		{"openai/gpt-4.1", llm.Params{MaxTokens: -1}, "max_tokens"},
	}
	for _, c := range cases {
		err := c.p.Check(c.base)
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s %+v: %v; want accepted", c.base, c.p, err)
		case c.field != "" && (err == nil || !strings.Contains(err.Error(), string(c.base)) || !strings.Contains(err.Error(), c.field)):
			t.Errorf("%s %+v: %v; want an error naming the model and %s", c.base, c.p, err, c.field)
		}
	}
}

func TestVariantSetsParams(t *testing.T) {
	var seen *llm.Request
	base := llm.Func{ModelName: "anthropic/claude-x", Fn: func(_ context.Context, r *llm.Request) (*llm.Reply, error) {
		seen = r
		return &llm.Reply{Text: "ok"}, nil
	}}
	temp := 1.0
	v, err := llm.NewVariant(base, base.ModelName, "", llm.Params{ThinkingBudget: 4096, Temperature: &temp})
	if err != nil {
		t.Fatal(err)
	}
	if v.Name() != "anthropic/claude-x+thinking-4096+t-1" || v.Base() != "anthropic/claude-x" {
		t.Errorf("name %s base %s", v.Name(), v.Base())
	}
	req := llm.UserText("", "hi")
	before := req.Hash()
	if _, err := v.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if seen.ThinkingBudget != 4096 || seen.Temperature == nil || *seen.Temperature != 1 {
		t.Errorf("base got budget %d temperature %v", seen.ThinkingBudget, seen.Temperature)
	}
	if req.Hash() != before || req.ThinkingBudget != 0 {
		t.Errorf("the caller's request was changed")
	}
	if seen.Hash() == before {
		t.Errorf("a budget does not change the request's hash")
	}
	if _, err := llm.NewVariant(llm.Func{ModelName: "baseline/keyword"}, "baseline/keyword", "kw", llm.Params{ThinkingBudget: 10}); err == nil {
		t.Errorf("a baseline took a thinking budget")
	}
}
