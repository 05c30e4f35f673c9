package seduce

import (
	"math"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// TestCompareReasoningHandExample checks the comparison on five samples whose rates
// were counted by hand (see the comments).
func TestCompareReasoningHandExample(t *testing.T) {
	samples := []Sample{
		{ID: "a1", ScenarioID: "A", RequiresRoll: true, Style: StyleNeutral},
		{ID: "a2", ScenarioID: "A", RequiresRoll: false, Style: StyleAuthority},
		{ID: "b1", ScenarioID: "B", RequiresRoll: true, Style: StyleNeutral},
		{ID: "b2", ScenarioID: "B", RequiresRoll: false, Style: StyleAuthority},
		{ID: "c1", ScenarioID: "C", RequiresRoll: true, Style: StyleOmission},
	}
	rule := func(model string, ds ...Decision) []Prediction {
		var out []Prediction
		for i, d := range ds {
			out = append(out, Prediction{ID: samples[i].ID, Model: model, Decision: d})
		}
		return out
	}
	var preds []Prediction
	// Standard: a1 wrong (a false pass), b2 wrong (a false check): FR 2/4.
	preds = append(preds, rule("m", DecisionPass, DecisionPass, DecisionRoll, DecisionRoll, DecisionRoll)...)
	// Reasoning: a2, b1, b2 wrong: FR 3/4; c1 refused, so it is not a pair.
	preds = append(preds, rule("m+thinking", DecisionRoll, DecisionRoll, DecisionPass, DecisionRoll, DecisionRefused)...)
	// A second pair that agrees everywhere: delta 0.
	preds = append(preds, rule("n", DecisionRoll, DecisionPass, DecisionRoll, DecisionPass, DecisionRoll)...)
	preds = append(preds, rule("n-high", DecisionRoll, DecisionPass, DecisionRoll, DecisionPass, DecisionRoll)...)
	r := Score(samples, preds, ScoreOptions{})
	st := CompareReasoning(samples, r, []ReasoningPair{{"m", "m+thinking"}, {"n", "n-high"}, {"m", "absent"}}, 2000, 7)
	if len(st.Pairs) != 2 {
		t.Fatalf("%d pairs; want 2 (a pair naming an absent model is skipped)", len(st.Pairs))
	}
	c := st.Pairs[0]
	near := func(name string, got *float64, want float64) {
		t.Helper()
		if got == nil || math.Abs(*got-want) > 1e-12 {
			t.Errorf("%s = %v; want %v", name, got, want)
		}
	}
	if c.FR.N != 4 || c.FPRate.N != 2 || c.FCRate.N != 2 {
		t.Errorf("pairs %d / %d / %d; want 4 / 2 / 2", c.FR.N, c.FPRate.N, c.FCRate.N)
	}
	near("FR standard", c.FR.Standard, 0.5)
	near("FR reasoning", c.FR.Reasoning, 0.75)
	near("FR delta", c.FR.Delta, 0.25)
	near("FP delta", c.FPRate.Delta, 0)
	near("FC standard", c.FCRate.Standard, 0.5)
	near("FC delta", c.FCRate.Delta, 0.5)
	neutral, _ := c.ByStyle.Get(string(StyleNeutral))
	authority, _ := c.ByStyle.Get(string(StyleAuthority))
	omission, _ := c.ByStyle.Get(string(StyleOmission))
	near("Neutral delta", neutral.Delta, 0)
	near("Authority delta", authority.Delta, 0.5)
	if omission.N != 0 || omission.Delta != nil {
		t.Errorf("Omission = %+v; want no pairs and no delta", omission)
	}
	// Fixed: a1. Broken: a2, b1. Exact two-sided McNemar on (1, 2) is 1.
	if c.FixedByReasoning != 1 || c.BrokenByReasoning != 2 || math.Abs(c.McNemarP-1) > 1e-12 {
		t.Errorf("fixed %d broken %d p %v; want 1, 2, 1", c.FixedByReasoning, c.BrokenByReasoning, c.McNemarP)
	}
	// Scenario A alone gives a delta of 0, B alone 0.5: every resample lies between.
	ci := c.FR.DeltaCI
	if ci == nil || ci[0] < 0 || ci[1] > 0.5 || ci[0] >= ci[1] || ci[0] > 0.25 || ci[1] < 0.25 {
		t.Errorf("FR delta CI %v; want an interval inside [0, 0.5] around 0.25", ci)
	}
	near("mean delta", st.MeanDelta, 0.125)
	if m := st.MeanDeltaCI; m == nil || m[0] < 0 || m[1] > 0.25 {
		t.Errorf("mean delta CI %v; want inside [0, 0.25]", m)
	}
	again := CompareReasoning(samples, r, []ReasoningPair{{"m", "m+thinking"}, {"n", "n-high"}}, 2000, 7)
	if *again.Pairs[0].FR.DeltaCI != *ci {
		t.Errorf("the same seed gave %v, then %v", ci, again.Pairs[0].FR.DeltaCI)
	}
	if CompareReasoning(samples, r, nil, 10, 1) != nil {
		t.Errorf("a study without pairs has a comparison")
	}
}

func TestModelEntryYAML(t *testing.T) {
	var e struct {
		Models []ModelEntry `yaml:"models"`
	}
	src := "models:\n  - openai/gpt-4.1\n  - {model: anthropic/claude-sonnet-4-5, label: sonnet-thinking, thinking_budget: 8192}\n  - {model: openai/o4-mini, reasoning_effort: high, temperature: 1, max_tokens: 4000}\n"
	if err := yaml.Unmarshal([]byte(src), &e); err != nil {
		t.Fatal(err)
	}
	if len(e.Models) != 3 {
		t.Fatalf("%d entries", len(e.Models))
	}
	if e.Models[0].Name() != "openai/gpt-4.1" || e.Models[1].Name() != "sonnet-thinking" || e.Models[1].Params.ThinkingBudget != 8192 {
		t.Errorf("entries %+v", e.Models)
	}
	if got := e.Models[2].Name(); got != "openai/o4-mini+reasoning-high+t-1+max-4000" {
		t.Errorf("default label %s", got)
	}
	for _, bad := range []string{
		"models:\n  - {model: openai/o4-mini, thinking_budget: 4096}\n",
		"models:\n  - {label: x}\n",
		"models:\n  - {model: baseline/keyword, reasoning_effort: low}\n",
	} {
		if err := yaml.Unmarshal([]byte(bad), &e); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

func TestExperimentRefusesLabelTwice(t *testing.T) {
	es := []ModelEntry{{Model: "openai/o4-mini", Params: llmParams("high")}, {Model: "openai/o4-mini", Params: llmParams("high")}}
	if err := checkEntries("x.yaml", es); err == nil || !strings.Contains(err.Error(), "models[1]") {
		t.Errorf("checkEntries = %v; want models[1] named", err)
	}
}

func llmParams(effort string) llm.Params { return llm.Params{ReasoningEffort: effort} }
