package stylometry

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/report"
)

// Tables lays out rep for people: the measures per generator × style ("style") and the
// top TF-IDF terms per generator and per generator × style beside each generator's top
// log-odds words ("style_terms").
func Tables(rep *Report) []report.Table {
	measures := report.Table{Name: "style", Title: "Generator style: statement length and em-dash use",
		Header: []string{"Generator", "Style", "Samples", "Tokens", "Tokens mean", "Tokens SD", "Words mean", "Em-dashes", "Em-dashes per 100 tokens"},
		Notes: []string{
			"Tokens are " + rep.Tokenizer + " token counts of the statements; SD is the sample standard deviation; words are whitespace-separated.",
			"Em-dashes count U+2014; their rate is 100 x em-dashes / tokens.",
		}}
	for _, r := range rep.Rows {
		measures.Rows = append(measures.Rows, []report.Cell{
			report.Text(r.Generator), report.Text(r.Style), report.Int(r.Samples), report.Int(r.Tokens),
			num(r.TokensMean, 1), num(r.TokensSD, 1), num(r.WordsMean, 1), report.Int(r.EmDashes), num(r.EmDashPer100Tokens, 2),
		})
	}
	terms := report.Table{Name: "style_terms", Title: "Generator style: top TF-IDF terms and log-odds words",
		Header: []string{"Generator", "Style", "TF-IDF terms", "Log-odds z"},
		Notes: []string{
			"Style All: one document per generator, scored against the other generators; otherwise one document per generator x style, against every such pair.",
			"Words are lowercase runs of two or more letters without stop words; TF-IDF is raw count x ln(N/df), scaled to unit length per document, so a word every document uses scores 0 and is not listed.",
			"Log-odds z (style All): z-scored log-odds ratio of the generator against all the other generators, with an informative Dirichlet prior of every word's count in the whole corpus (Monroe, Colaresi and Quinn 2008).",
		}}
	for _, gen := range generators(rep) {
		for _, r := range rep.Rows {
			if r.Generator != gen {
				continue
			}
			list, odds := rep.StyleTerms[gen][r.Style], ""
			if r.Style == AllStyles {
				list, odds = rep.Terms[gen], joinLogOdds(rep.LogOdds[gen])
			}
			terms.Rows = append(terms.Rows, []report.Cell{report.Text(gen), report.Text(r.Style), report.Text(joinTerms(list)), report.Text(odds)})
		}
	}
	return []report.Table{measures, terms}
}

// Write renders rep in format: the spec's JSON shape for json, Tables otherwise.
func Write(w io.Writer, rep *Report, format string) error {
	if format == report.FormatJSON {
		return report.JSON(w, rep)
	}
	return report.Write(w, format, Tables(rep))
}

// Chart is the em-dash rate per generator (a group) and style (a bar), the "All" bar
// last. The rate is a fraction of tokens, so the axis's percentages read as em-dashes
// per 100 tokens.
func Chart(rep *Report) *report.BarChart {
	c := &report.BarChart{Title: "Em-dashes per 100 tokens by generator and style", YLabel: "Em-dashes per 100 tokens"}
	c.Groups = generators(rep)
	for _, r := range rep.Rows {
		if !slices.Contains(c.Series, r.Style) && r.Style != AllStyles {
			c.Series = append(c.Series, r.Style)
		}
	}
	slices.SortStableFunc(c.Series, func(a, b string) int { return styleRank(a) - styleRank(b) })
	c.Series = append(c.Series, AllStyles)
	c.Values = make([][]*float64, len(c.Groups))
	for g, gen := range c.Groups {
		c.Values[g] = make([]*float64, len(c.Series))
		for _, r := range rep.Rows {
			if r.Generator != gen || r.Tokens == 0 {
				continue
			}
			v := float64(r.EmDashes) / float64(r.Tokens)
			c.Values[g][slices.Index(c.Series, r.Style)] = &v
		}
	}
	return c
}

// FigureName is the file stem of the figure.
const FigureName = "style_em_dashes"

// Figure renders Chart(rep) as SVG.
func Figure(rep *Report) report.Figure {
	return report.NewFigure(FigureName, Chart(rep))
}

// generators lists the generators of rep's rows in row order.
func generators(rep *Report) []string {
	var out []string
	for _, r := range rep.Rows {
		if !slices.Contains(out, r.Generator) {
			out = append(out, r.Generator)
		}
	}
	return out
}

func joinTerms(terms []Term) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = fmt.Sprintf("%s %.3f", t.Term, t.Score)
	}
	return strings.Join(parts, ", ")
}

func joinLogOdds(terms []LogOddsTerm) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = fmt.Sprintf("%s %.2f", t.Term, t.Z)
	}
	return strings.Join(parts, ", ")
}

func num(v float64, decimals int) report.Cell { return report.Num(&v, decimals) }
