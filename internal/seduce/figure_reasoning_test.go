package seduce

import (
	"bytes"
	"encoding/xml"
	"io"
	"slices"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/report"
)

func TestReasoningFigure(t *testing.T) {
	samples := []Sample{
		{ID: "a1", ScenarioID: "A", RequiresRoll: true, Style: StyleNeutral},
		{ID: "a2", ScenarioID: "A", RequiresRoll: false, Style: StyleAuthority},
		{ID: "b1", ScenarioID: "B", RequiresRoll: true, Style: StyleNeutral},
		{ID: "b2", ScenarioID: "B", RequiresRoll: false, Style: StyleAuthority},
	}
	var preds []Prediction
	for i, d := range []Decision{DecisionPass, DecisionPass, DecisionRoll, DecisionRoll} { // a1, b2 wrong: FR 2/4
		preds = append(preds, Prediction{ID: samples[i].ID, Model: "m", Decision: d})
	}
	for i, d := range []Decision{DecisionRoll, DecisionRoll, DecisionPass, DecisionRoll} { // a2, b1, b2 wrong: FR 3/4
		preds = append(preds, Prediction{ID: samples[i].ID, Model: "m+thinking", Decision: d})
	}
	r := Score(samples, preds, ScoreOptions{})
	if _, ok := reasoningFigure(r); ok || len(Figures(r)) != 3 {
		t.Fatalf("a run without a reasoning comparison has a reasoning figure")
	}
	r.Reasoning = CompareReasoning(samples, r, []ReasoningPair{{"m", "m+thinking"}}, 200, 1)
	figs := Figures(r)
	i := slices.IndexFunc(figs, func(f report.Figure) bool { return f.Name == "figure-reasoning" })
	if i < 0 {
		t.Fatalf("no figure-reasoning among %d figures", len(figs))
	}
	c := figs[i].Chart
	if !slices.Equal(c.Series, []string{"Standard", "Reasoning"}) || c.Groups[0] != "m+thinking · All" {
		t.Fatalf("series %q, groups %q", c.Series, c.Groups)
	}
	if v := c.Values[0]; *v[0] != 0.5 || *v[1] != 0.75 {
		t.Errorf("overall bars %v, %v; want standard 0.5 and reasoning 0.75", *v[0], *v[1])
	}
	authority := slices.Index(c.Groups, "m+thinking · Authority")
	if authority < 0 || *c.Values[authority][0] != 0.5 || *c.Values[authority][1] != 1 {
		t.Errorf("Authority bars missing or wrong: groups %q", c.Groups)
	}
	dec := xml.NewDecoder(bytes.NewReader(figs[i].SVG))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("figure-reasoning SVG: %v", err)
		}
	}
}
