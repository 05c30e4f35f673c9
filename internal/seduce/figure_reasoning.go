package seduce

import "github.com/arbiter-eval/arbiter/internal/report"

// reasoningFigure is the reasoning vs standard comparison: for each pair, overall and
// per style, the FR of the model without reasoning beside the FR of its reasoning
// variant on the samples both ruled on. false when r compares no pair.
func reasoningFigure(r *Results) (report.Figure, bool) {
	st := r.Reasoning
	if st == nil || len(st.Pairs) == 0 {
		return report.Figure{}, false
	}
	c := &report.BarChart{Title: "FR without and with reasoning", YLabel: "Failure rate", Series: []string{"Standard", "Reasoning"}}
	add := func(name string, p PairedRate) {
		c.Groups = append(c.Groups, name)
		c.Values = append(c.Values, []*float64{p.Standard, p.Reasoning})
	}
	for _, pair := range st.Pairs {
		add(pair.Reasoning+" · All", pair.FR)
		for _, kv := range pair.ByStyle {
			add(pair.Reasoning+" · "+kv.Key, kv.Value)
		}
	}
	return report.NewFigure("figure-reasoning", c), true
}
