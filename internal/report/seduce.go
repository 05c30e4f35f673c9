package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"

	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// SeduceTables lays out the CoC-Seduce paper's tables from r, in this order: table 3
// (rates per model, with intervals when r has them), table 4 (latency), table 6 (setting
// × style), table 7 (per setting), table 8 (per style), figure 3 as a table (generator ×
// target family), home/away per model, family averages, and the counts of what was left
// out of the rates.
func SeduceTables(r *seduce.Results) []Table {
	styles, settings := r.Average.ByStyle.Keys(), r.Average.BySetting.Keys()
	return []Table{
		table3(r, styles),
		table4(r),
		table6(r, settings, styles),
		sliceTable(r, "table7", "Table 7: FR by world setting", settings,
			func(m *seduce.ModelResult) seduce.Keyed[seduce.SliceFR] { return m.BySetting }, r.Average.BySetting, false),
		sliceTable(r, "table8", "Table 8: FR by rhetorical style", styles,
			func(m *seduce.ModelResult) seduce.Keyed[seduce.SliceFR] { return m.ByStyle }, r.Average.ByStyle, true),
		categoryTable(r),
		skillTable(r),
		generatorTable(r),
		homeAwayTable(r),
		familyTable(r, styles),
		pairwiseTable(r),
		countsTable(r),
	}
}

// categoryTable is FR per skill domain for each model.
func categoryTable(r *seduce.Results) Table {
	var keys []string
	for i := range r.Models {
		for _, k := range r.Models[i].ByCategory.Keys() {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	t := Table{Name: "by_category", Title: "FR by skill category", Header: append([]string{"Model"}, keys...)}
	for i := range r.Models {
		m := &r.Models[i]
		row := []Cell{Text(m.Model)}
		for _, k := range keys {
			v, _ := m.ByCategory.Get(k)
			row = append(row, Pct(v.FR))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// skillTable is FR per skill, one column per model: which skills seduce which models.
func skillTable(r *seduce.Results) Table {
	t := Table{Name: "by_skill", Title: "FR by skill", Header: []string{"Skill"}}
	var skills []string
	for i := range r.Models {
		t.Header = append(t.Header, r.Models[i].Model)
		for _, k := range r.Models[i].BySkill.Keys() {
			if !slices.Contains(skills, k) {
				skills = append(skills, k)
			}
		}
	}
	for _, sk := range skills {
		row := []Cell{Text(sk)}
		for i := range r.Models {
			v, _ := r.Models[i].BySkill.Get(sk)
			row = append(row, Pct(v.FR))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// pairwiseTable lists the exact McNemar test of every pair of models.
func pairwiseTable(r *seduce.Results) Table {
	t := Table{Name: "pairwise", Title: "Pairwise exact McNemar tests (first replicate, samples both models ruled on)",
		Header: []string{"Model A", "Model B", "Pairs", "Only A right", "Only B right", "p"},
		Notes:  []string{"Two-sided exact binomial test on the discordant pairs; no correction for multiple comparisons."}}
	for _, p := range r.Pairwise {
		pv := p.P
		t.Rows = append(t.Rows, []Cell{Text(p.A), Text(p.B), Int(p.N), Int(p.AOnly), Int(p.BOnly), Num(&pv, 4)})
	}
	if len(t.Rows) == 0 {
		t.Notes = []string{"Needs at least two models."}
	}
	return t
}

// WriteSeduce writes r to w in format: every table of SeduceTables for text, md, csv and
// latex; for json, r itself, whose shape is the spec's ({"models": […], …}).
func WriteSeduce(w io.Writer, r *seduce.Results, format string) error {
	if format == FormatJSON {
		return encode(w, r)
	}
	for _, f := range Formats {
		if f == format {
			return Write(w, format, SeduceTables(r))
		}
	}
	return unknownFormat(format)
}

func ratesNote(r *seduce.Results) []string {
	notes := []string{"FR = (false passes + false checks) / evaluated replies; refused and unparsed replies are left out of every rate. A rate with nothing evaluated is undefined, not 0."}
	if b := r.Bootstrap; b != nil {
		notes = append(notes, fmt.Sprintf("Brackets: %g%% percentile interval from a cluster bootstrap over %s (%d replicates, seed %d).",
			b.Level*100, b.Cluster, b.Reps, b.Seed))
	}
	return notes
}

func table3(r *seduce.Results, styles []string) Table {
	t := Table{
		Name:   "table3",
		Title:  "Table 3: Failure rate (FR) per adjudicator",
		Header: append([]string{"Model", "Family", "n", "FR", "FP rate", "FC rate", "WS"}, styles...),
		Notes: append(ratesNote(r), "FP rate: false passes among evaluated samples that require a roll; "+
			"FC rate: false checks among those that do not; WS: wrong or missing skill among correct roll calls."),
	}
	for i := range r.Models {
		m := &r.Models[i]
		row := []Cell{Text(m.Model), Text(m.Family), Int(m.N), PctCI(m.FR, m.FRCI), PctCI(m.FPRate, m.FPRateCI), PctCI(m.FCRate, m.FCRateCI), Pct(m.WS)}
		for _, s := range styles {
			v, _ := m.ByStyle.Get(s)
			row = append(row, Pct(v.FR))
		}
		t.Rows = append(t.Rows, row)
	}
	a := &r.Average
	row := []Cell{Text("Average"), Text(""), Text(""), Pct(a.FR.Mean), Pct(a.FPRate.Mean), Pct(a.FCRate.Mean), Pct(a.WS.Mean)}
	for _, s := range styles {
		v, _ := a.ByStyle.Get(s)
		row = append(row, Pct(v.Mean))
	}
	t.Rows = append(t.Rows, row)
	return t
}

func table4(r *seduce.Results) Table {
	t := Table{
		Name:   "table4",
		Title:  "Table 4: Query time per adjudicator",
		Header: []string{"Model", "Replies", "Mean (ms)", "Median (ms)", "P95 (ms)", "Total (h)", "Wall-clock (h)"},
		Notes: []string{"Over the replies that recorded a latency, failed requests excluded.",
			"Wall-clock: from the model's first request to its last reply in the store (a resumed run includes the pause)."},
	}
	for i := range r.Models {
		m := &r.Models[i]
		l := m.Latency
		if l == nil {
			t.Rows = append(t.Rows, []Cell{Text(m.Model), Int(0), Num(nil, 0), Num(nil, 0), Num(nil, 0), Num(nil, 2), Num(nil, 2)})
			continue
		}
		hours := l.TotalMS / 3.6e6
		var wall *float64
		if l.WallMS > 0 {
			w := l.WallMS / 3.6e6
			wall = &w
		}
		t.Rows = append(t.Rows, []Cell{Text(m.Model), Int(l.N), Num(&l.MeanMS, 0), Num(&l.MedianMS, 0), Num(&l.P95MS, 0), Num(&hours, 2), Num(wall, 2)})
	}
	return t
}

func table6(r *seduce.Results, settings, styles []string) Table {
	t := Table{
		Name:   "table6",
		Title:  "Table 6: FR by world setting and rhetorical style",
		Header: append(append([]string{"Model", "Setting"}, styles...), "All styles"),
	}
	for i := range r.Models {
		m := &r.Models[i]
		for _, se := range settings {
			cells, _ := m.BySettingStyle.Get(se)
			row := []Cell{Text(m.Model), Text(se)}
			for _, st := range styles {
				v, _ := cells.Get(st)
				row = append(row, Pct(v.FR))
			}
			all, _ := m.BySetting.Get(se)
			t.Rows = append(t.Rows, append(row, Pct(all.FR)))
		}
	}
	return t
}

// sliceTable is a per-model table of one breakdown with an average row; withDelta adds
// the Neutral → Pseudo-Logic difference.
func sliceTable(r *seduce.Results, name, title string, keys []string,
	slices func(*seduce.ModelResult) seduce.Keyed[seduce.SliceFR], avg seduce.Keyed[seduce.Average], withDelta bool) Table {
	t := Table{Name: name, Title: title, Header: append([]string{"Model"}, keys...)}
	if withDelta {
		t.Header = append(t.Header, "Δ Pseudo-Logic − Neutral")
	}
	for i := range r.Models {
		m := &r.Models[i]
		row := []Cell{Text(m.Model)}
		for _, k := range keys {
			v, _ := slices(m).Get(k)
			row = append(row, Pct(v.FR))
		}
		if withDelta {
			row = append(row, PctDiff(m.NeutralToPseudoLogic))
		}
		t.Rows = append(t.Rows, row)
	}
	row := []Cell{Text("Average")}
	for _, k := range keys {
		v, _ := avg.Get(k)
		row = append(row, Pct(v.Mean))
	}
	if withDelta {
		row = append(row, PctDiff(r.Average.NeutralToPseudoLogic.Mean))
	}
	t.Rows = append(t.Rows, row)
	return t
}

func generatorTable(r *seduce.Results) Table {
	t := Table{
		Name:   "figure3",
		Title:  "Figure 3: FR by adversarial generator and target family",
		Header: []string{"Generator"},
		Notes:  []string{"Each cell is the mean FR of the family's models on the generator's samples; All targets averages every model."},
	}
	for _, f := range r.Families {
		t.Header = append(t.Header, f.Family)
	}
	t.Header = append(t.Header, "All targets")
	for _, g := range r.GeneratorTarget {
		row := []Cell{Text(g.Key)}
		for _, f := range r.Families {
			v, _ := g.Value.Get(f.Family)
			row = append(row, Pct(v.Mean))
		}
		all, _ := r.Average.ByGenerator.Get(g.Key)
		t.Rows = append(t.Rows, append(row, Pct(all.Mean)))
	}
	return t
}

func homeAwayTable(r *seduce.Results) Table {
	t := Table{
		Name:   "home_away",
		Title:  "Home-series bias: FR on the own family's samples (home) and on the rest (away)",
		Header: []string{"Model", "Family", "Home FR", "Away FR", "Away − Home"},
	}
	for i := range r.Models {
		m := &r.Models[i]
		t.Rows = append(t.Rows, []Cell{Text(m.Model), Text(m.Family), Pct(m.HomeFR), Pct(m.AwayFR), PctDiff(diff(m.AwayFR, m.HomeFR))})
	}
	return t
}

func familyTable(r *seduce.Results, styles []string) Table {
	t := Table{
		Name:   "families",
		Title:  "Family averages (each model weighs the same)",
		Header: append(append([]string{"Family", "Models", "FR", "FP rate", "FC rate", "WS"}, styles...), "Home FR", "Away FR"),
	}
	for _, f := range r.Families {
		row := []Cell{Text(f.Family), Int(len(f.Models)), Pct(f.FR.Mean), Pct(f.FPRate.Mean), Pct(f.FCRate.Mean), Pct(f.WS.Mean)}
		for _, s := range styles {
			v, _ := f.ByStyle.Get(s)
			row = append(row, Pct(v.Mean))
		}
		t.Rows = append(t.Rows, append(row, Pct(f.HomeFR.Mean), Pct(f.AwayFR.Mean)))
	}
	return t
}

func countsTable(r *seduce.Results) Table {
	t := Table{
		Name:   "counts",
		Title:  "Replies left out of the rates",
		Header: []string{"Model", "n", "Evaluated", "Refused", "Unparsed", "Errors"},
		Notes:  []string{"n counts replies; errors are requests that failed after their retries and are not in n."},
	}
	for i := range r.Models {
		m := &r.Models[i]
		t.Rows = append(t.Rows, []Cell{Text(m.Model), Int(m.N), Int(m.Evaluated), Int(m.Refused), Int(m.Unparsed), Int(m.Errors)})
	}
	if r.UnknownIDs > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%d predictions named ids that are not in the dataset and were ignored.", r.UnknownIDs))
	}
	return t
}

func diff(a, b *float64) *float64 {
	if a == nil || b == nil {
		return nil
	}
	d := *a - *b
	return &d
}

// Figure is a rendered chart; Name is its file stem ("figure4").
type Figure struct {
	Name  string
	Title string
	SVG   []byte
}

// seduceCharts lays out the paper's bar charts from r, in figure order: figure 3 (FR by
// target family, one bar per generator), figure 4 (FR by style per model) and figure 5
// (FR by setting per model); figures 4 and 5 end with the average over models.
func seduceCharts(r *seduce.Results) []*BarChart {
	fig3 := &BarChart{Title: "Figure 3: FR by target family and adversarial generator", YLabel: "Failure rate"}
	fig3.Series = r.GeneratorTarget.Keys()
	for _, fam := range r.Families {
		fig3.Groups = append(fig3.Groups, fam.Family)
		row := make([]*float64, len(r.GeneratorTarget))
		for g, gen := range r.GeneratorTarget {
			v, _ := gen.Value.Get(fam.Family)
			row[g] = v.Mean
		}
		fig3.Values = append(fig3.Values, row)
	}
	perModel := func(title string, avg seduce.Keyed[seduce.Average], slices func(*seduce.ModelResult) seduce.Keyed[seduce.SliceFR]) *BarChart {
		c := &BarChart{Title: title, YLabel: "Failure rate", Series: avg.Keys()}
		for i := range r.Models {
			m := &r.Models[i]
			row := make([]*float64, len(c.Series))
			for s, k := range c.Series {
				v, _ := slices(m).Get(k)
				row[s] = v.FR
			}
			c.Groups = append(c.Groups, m.Model)
			c.Values = append(c.Values, row)
		}
		row := make([]*float64, len(c.Series))
		for s := range avg {
			row[s] = avg[s].Value.Mean
		}
		c.Groups = append(c.Groups, "Average")
		c.Values = append(c.Values, row)
		return c
	}
	return []*BarChart{
		fig3,
		perModel("Figure 4: FR by rhetorical style", r.Average.ByStyle,
			func(m *seduce.ModelResult) seduce.Keyed[seduce.SliceFR] { return m.ByStyle }),
		perModel("Figure 5: FR by world setting", r.Average.BySetting,
			func(m *seduce.ModelResult) seduce.Keyed[seduce.SliceFR] { return m.BySetting }),
	}
}

// SeduceFigures renders the paper's figures 3, 4 and 5 from r as SVG bar charts:
// FR by target family with a bar per generator, FR by style per model, and FR by setting
// per model, the last two ending with the average over models.
func SeduceFigures(r *seduce.Results) []Figure {
	charts := seduceCharts(r)
	out := make([]Figure, len(charts))
	for i, c := range charts {
		var buf bytes.Buffer
		c.WriteSVG(&buf) // cannot fail: a bytes.Buffer does not
		out[i] = Figure{Name: fmt.Sprintf("figure%d", i+3), Title: c.Title, SVG: buf.Bytes()}
	}
	return out
}
