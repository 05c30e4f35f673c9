package check

import "github.com/arbiter-eval/arbiter/internal/report"

// FigureName is the file stem of the Quality Score figure.
const FigureName = "figure-qs"

// Chart is the Quality Score of every model per checklist dimension (the paper's table
// 1 as bars): a group of bars per model, best first, then All; a bar per dimension,
// named in the legend. The judge draws no interval, so there are no whiskers.
func Chart(s *Scores) *report.BarChart {
	c := &report.BarChart{Title: "Quality Score per dimension", YLabel: "Quality Score (share of yes)", Series: s.dims}
	for _, m := range s.Models {
		c.Groups = append(c.Groups, m.Model)
		c.Values = append(c.Values, m.dim)
	}
	c.Groups = append(c.Groups, "All")
	c.Values = append(c.Values, s.qs)
	return c
}

// Figures draws the judge's figures: the Quality Score per dimension.
func Figures(s *Scores) []report.Figure {
	return []report.Figure{report.NewFigure(FigureName, Chart(s))}
}
