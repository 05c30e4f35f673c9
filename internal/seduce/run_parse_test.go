package seduce_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// TestSecondReading: only predictions the rules read from text and left unparsed reach
// the second reader; its rolls and passes replace them, marked ModelParsed, and what it
// leaves unclear stays unparsed.
func TestSecondReading(t *testing.T) {
	preds := []seduce.Prediction{
		{ID: "a", Decision: seduce.DecisionRoll, Rule: seduce.RuleLabel, Text: "Decision: roll"},
		{ID: "b", Decision: seduce.DecisionUnparsed, Rule: seduce.RuleNone, Text: "maybe Dodge"},
		{ID: "c", Decision: seduce.DecisionUnparsed, Rule: seduce.RuleNone, Text: "who knows"},
		{ID: "d", Decision: seduce.DecisionUnparsed, Text: "given, not parsed"},
		{ID: "e", Decision: seduce.DecisionUnparsed, Rule: seduce.RuleNone, Text: "failed", Err: "500"},
	}
	var sent []string
	err := seduce.SecondReading(preds, func(texts []string, parsed []seduce.Parsed) error {
		sent = append(sent, texts...)
		for i, text := range texts {
			if strings.Contains(text, "Dodge") {
				parsed[i] = seduce.Parsed{Decision: seduce.DecisionRoll, Skill: "Dodge", How: seduce.HowModel, Rule: seduce.RuleModel}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"maybe Dodge", "who knows"}; !slices.Equal(sent, want) {
		t.Errorf("SecondReading sent %q; want %q", sent, want)
	}
	for i, want := range []struct {
		d     seduce.Decision
		model bool
	}{{seduce.DecisionRoll, false}, {seduce.DecisionRoll, true}, {seduce.DecisionUnparsed, false}, {seduce.DecisionUnparsed, false}, {seduce.DecisionUnparsed, false}} {
		if p := preds[i]; p.Decision != want.d || p.ModelParsed != want.model {
			t.Errorf("prediction %s: %s, model-parsed %v; want %s, %v", p.ID, p.Decision, p.ModelParsed, want.d, want.model)
		}
	}
}

// TestReportCountsModelParsed: with a parse model every format says how many rulings
// came from it, per model; without one no format mentions it (the goldens hold that too).
func TestReportCountsModelParsed(t *testing.T) {
	samples := []seduce.Sample{
		{ID: "s1", ScenarioID: "sc1", Generator: "g", Setting: seduce.Setting2020s, Style: seduce.StyleNeutral, Skill: "Climb", RequiresRoll: true},
		{ID: "s2", ScenarioID: "sc2", Generator: "g", Setting: seduce.Setting2020s, Style: seduce.StyleNeutral, Skill: "Climb", RequiresRoll: false},
	}
	preds := []seduce.Prediction{
		{ID: "s1", Model: "x/m", Decision: seduce.DecisionRoll, Skill: "Climb", ModelParsed: true},
		{ID: "s2", Model: "x/m", Decision: seduce.DecisionPass},
	}
	for _, pm := range []string{"", "x/reader"} {
		res := seduce.Score(samples, preds, seduce.ScoreOptions{ParseModel: pm})
		for _, format := range []string{"text", "md", "csv", "latex", "json"} {
			var buf bytes.Buffer
			if err := seduce.WriteReport(&buf, res, format); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			says := strings.Contains(out, "Model-parsed") && strings.Contains(out, "1 rulings were read by the parse model x/reader")
			if format == "json" {
				says = strings.Contains(out, `"model_parsed": 1`) && strings.Contains(out, `"parse_model": "x/reader"`)
			}
			mentions := strings.Contains(out, "Model-parsed") || strings.Contains(out, "parse model") || strings.Contains(out, "model_parsed") || strings.Contains(out, "parse_model")
			switch {
			case pm != "" && !says:
				t.Errorf("WriteReport(%s) with a parse model does not count its ruling:\n%s", format, out)
			case pm == "" && mentions:
				t.Errorf("WriteReport(%s) without a parse model mentions one:\n%s", format, out)
			}
		}
	}
}
