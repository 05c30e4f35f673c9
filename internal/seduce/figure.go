package seduce

import (
	"fmt"

	"github.com/arbiter-eval/arbiter/internal/report"
)

// whiskers says what a figure's whiskers are, for its caption: the intervals Score's
// bootstrap drew (the same as the JSON report's fr_ci); "" when it drew none.
func whiskers(r *Results) string {
	b := r.Bootstrap
	if b == nil {
		return ""
	}
	return fmt.Sprintf("%g%% cluster-bootstrap interval of the FR, clustered by scenario (%s; %d replicates, seed %d)",
		b.Level*100, b.Cluster, b.Reps, b.Seed)
}

// sliceRow is one group's bars of a figure: the FR of each key of s, and its interval.
func sliceRow(keys []string, s Keyed[SliceFR]) ([]*float64, []*[2]float64) {
	vals, ivs := make([]*float64, len(keys)), make([]*[2]float64, len(keys))
	for i, k := range keys {
		v, _ := s.Get(k)
		vals[i], ivs[i] = v.FR, v.CI
	}
	return vals, ivs
}

// sliceChart is a figure of one slice of every model: a group of bars per model (named
// by label), a bar per key, each with its interval; then, when avg is set, the average
// over models, which has no interval.
func sliceChart(r *Results, title string, keys []string, label func(*ModelResult) string, slice func(*ModelResult) Keyed[SliceFR], avg Keyed[Average]) *report.BarChart {
	c := &report.BarChart{Title: title, YLabel: "Failure rate", Series: keys, Whiskers: whiskers(r)}
	for i := range r.Models {
		m := &r.Models[i]
		vals, ivs := sliceRow(keys, slice(m))
		c.Groups = append(c.Groups, label(m))
		c.Values = append(c.Values, vals)
		c.Intervals = append(c.Intervals, ivs)
	}
	if avg != nil {
		row := make([]*float64, len(keys))
		for s, k := range keys {
			v, _ := avg.Get(k)
			row[s] = v.Mean
		}
		c.Groups = append(c.Groups, "Average")
		c.Values = append(c.Values, row)
		c.Intervals = append(c.Intervals, nil)
	}
	if c.Whiskers != "" && avg != nil {
		c.Whiskers += "; the average over models has none"
	}
	return c
}

// figure3 is FR by target family, a bar per generator: the mean over the family's models
// of their FR on the generator's samples. A family of one model has that model's
// interval as whiskers; a mean over several models has none.
func figure3(r *Results) *report.BarChart {
	c := &report.BarChart{Title: "Figure 3: FR by target family and adversarial generator", YLabel: "Failure rate"}
	c.Series = r.GeneratorTarget.Keys()
	for _, fam := range r.Families {
		c.Groups = append(c.Groups, fam.Family)
		row := make([]*float64, len(r.GeneratorTarget))
		for g, gen := range r.GeneratorTarget {
			v, _ := gen.Value.Get(fam.Family)
			row[g] = v.Mean
		}
		c.Values = append(c.Values, row)
		var ivs []*[2]float64
		if len(fam.Models) == 1 {
			if m := r.model(fam.Models[0]); m != nil {
				_, ivs = sliceRow(c.Series, m.ByGenerator)
			}
		}
		c.Intervals = append(c.Intervals, ivs)
	}
	if w := whiskers(r); w != "" {
		c.Whiskers = w + ", for a family of one model; a family's mean over several models has none"
	}
	return c
}

// model is the result of the model named name, nil if r has none.
func (r *Results) model(name string) *ModelResult {
	for i := range r.Models {
		if r.Models[i].Model == name {
			return &r.Models[i]
		}
	}
	return nil
}

func modelName(m *ModelResult) string { return m.Model }

// charts lays out the paper's bar charts from r, in figure order: figure 3 (FR by
// target family, one bar per generator), figure 4 (FR by style per model) and figure 5
// (FR by setting per model); figures 4 and 5 end with the average over models.
func charts(r *Results) []*report.BarChart {
	return []*report.BarChart{
		figure3(r),
		sliceChart(r, "Figure 4: FR by rhetorical style", r.Average.ByStyle.Keys(), modelName,
			func(m *ModelResult) Keyed[SliceFR] { return m.ByStyle }, r.Average.ByStyle),
		sliceChart(r, "Figure 5: FR by world setting", r.Average.BySetting.Keys(), modelName,
			func(m *ModelResult) Keyed[SliceFR] { return m.BySetting }, r.Average.BySetting),
	}
}

// Figures draws the paper's figures 3, 4 and 5 from r (FR by target family with a bar
// per generator, FR by style per model, FR by setting per model, the last two ending
// with the average over models), then the figures of a defense study and of a
// reasoning comparison when r holds one.
func Figures(r *Results) []report.Figure {
	base := r
	if isStudy(r) {
		base = labelled(r)
	}
	charts := charts(base)
	out := make([]report.Figure, len(charts))
	for i, c := range charts {
		out[i] = report.NewFigure(fmt.Sprintf("figure%d", i+3), c)
	}
	if isStudy(r) {
		out = append(out, defenseFigure(r))
	}
	if f, ok := reasoningFigure(r); ok {
		out = append(out, f)
	}
	if f, ok := pushbackFigure(r); ok {
		out = append(out, f)
	}
	return out
}
