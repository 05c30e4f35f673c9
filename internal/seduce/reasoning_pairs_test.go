package seduce

import (
	"slices"
	"testing"
)

func TestParseVariantEndpoint(t *testing.T) {
	tests := []struct {
		in     string
		ok     bool
		base   string
		budget int
		effort string
	}{
		{`anthropic/x {"thinking_budget":8192}`, true, "anthropic/x", 8192, ""},
		{`openai/o4 {"reasoning_effort":"high"} at http://127.0.0.1:9/v1`, true, "openai/o4", 0, "high"},
		{`anthropic/x {}`, true, "anthropic/x", 0, ""},
		{"http://127.0.0.1:9/v1", false, "", 0, ""},
		{`anthropic/x {"thinking_budget":8192} trailing`, false, "", 0, ""},
		{`anthropic/x {"unknown":1}`, false, "", 0, ""},
		{`nope {"thinking_budget":1}`, false, "", 0, ""},
	}
	for _, tt := range tests {
		v, ok := ParseVariantEndpoint(tt.in)
		if ok != tt.ok || string(v.Base) != tt.base || v.Params.ThinkingBudget != tt.budget || v.Params.ReasoningEffort != tt.effort {
			t.Errorf("ParseVariantEndpoint(%q) = %+v, %v; want base %q budget %d effort %q, %v", tt.in, v, ok, tt.base, tt.budget, tt.effort, tt.ok)
		}
	}
}

// TestReasoningPairsOf: a variant that reasons pairs with its base only when the base
// is in the study as itself; a variant with only a temperature is no pair; the order
// is sorted whatever the models' order.
func TestReasoningPairsOf(t *testing.T) {
	cfg := &RunConfig{Models: []string{"z/m+reasoning-high", "z/m", "a/b", "a/b-think", "a/b-warm", "c/d-think"},
		Endpoints: map[string]string{
			"z/m+reasoning-high": `z/m {"reasoning_effort":"high"}`,
			"a/b-think":          `a/b {"thinking_budget":2048} at http://h/v1`,
			"a/b-warm":           `a/b {"temperature":1}`,
			"c/d-think":          `c/d {"thinking_budget":2048}`, // c/d is not in the study
			"a/b":                "http://h/v1",
		}}
	got := ReasoningPairsOf(cfg.Models, cfg.Variants())
	want := []ReasoningPair{{"a/b", "a/b-think"}, {"z/m", "z/m+reasoning-high"}}
	if !slices.Equal(got, want) {
		t.Errorf("ReasoningPairsOf = %v; want %v", got, want)
	}
}
