package seduce

import "github.com/arbiter-eval/arbiter/internal/report"

// frWhiskers says what figure-fr's whiskers are, for its caption.
const frWhiskers = "95% percentile intervals of a bootstrap that resamples scenarios (all samples of one scenario together)"

// frChart is the overall FR of each model (each model and defense in a study), one bar
// a model, with the cluster-bootstrap interval of the JSON report's fr_ci as whiskers.
func frChart(r *Results) *report.BarChart {
	c := &report.BarChart{Title: "FR per model", YLabel: "Failure rate", Series: []string{"FR"}}
	for i := range r.Models {
		m := &r.Models[i]
		name := m.Model
		if m.Defense != "" {
			name += " · " + m.Defense
		}
		c.Groups = append(c.Groups, name)
		c.Values = append(c.Values, []*float64{m.FR})
		c.Intervals = append(c.Intervals, []*[2]float64{m.FRCI})
		if m.FRCI != nil {
			c.Whiskers = frWhiskers
		}
	}
	return c
}

// frFigure draws frChart(r) as "figure-fr".
func frFigure(r *Results) report.Figure { return report.NewFigure("figure-fr", frChart(r)) }
