package seduce

import (
	"fmt"
	"io"
	"slices"

	"github.com/arbiter-eval/arbiter/internal/report"
)

// Tables lays out the CoC-Seduce paper's tables from r, in this order: table 3
// (rates per model, with intervals when r has them), table 4 (latency), table 6 (setting
// × style), table 7 (per setting), table 8 (per style), figure 3 as a table (generator ×
// target family), home/away per model, family averages, and the counts of what was left
// out of the rates.
func Tables(r *Results) []report.Table {
	if isStudy(r) { // a defense study: every table with the defenses side by side, then its own
		return append(Tables(labelled(r)), defenseTables(r)...)
	}
	styles, settings := r.Average.ByStyle.Keys(), r.Average.BySetting.Keys()
	return append([]report.Table{
		table3(r, styles),
		withCost(table4(r), r),
		table6(r, settings, styles),
		sliceTable(r, "table7", "Table 7: FR by world setting", settings,
			func(m *ModelResult) Keyed[SliceFR] { return m.BySetting }, r.Average.BySetting, false),
		sliceTable(r, "table8", "Table 8: FR by rhetorical style", styles,
			func(m *ModelResult) Keyed[SliceFR] { return m.ByStyle }, r.Average.ByStyle, true),
		categoryTable(r),
		skillTable(r),
		generatorTable(r),
		homeAwayTable(r),
		familyTable(r, styles),
		pairwiseTable(r),
		countsTable(r),
	}, append(reasoningTables(r), pushbackTables(r)...)...)
}

// categoryTable is FR per skill domain for each model.
func categoryTable(r *Results) report.Table {
	var keys []string
	for i := range r.Models {
		for _, k := range r.Models[i].ByCategory.Keys() {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	t := report.Table{Name: "by_category", Title: "FR by skill category", Header: append([]string{"Model"}, keys...)}
	for i := range r.Models {
		m := &r.Models[i]
		row := []report.Cell{report.Text(m.Model)}
		for _, k := range keys {
			v, _ := m.ByCategory.Get(k)
			row = append(row, report.Pct(v.FR))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// skillTable is FR per skill, one column per model: which skills seduce which models.
func skillTable(r *Results) report.Table {
	t := report.Table{Name: "by_skill", Title: "FR by skill", Header: []string{"Skill"}}
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
		row := []report.Cell{report.Text(sk)}
		for i := range r.Models {
			v, _ := r.Models[i].BySkill.Get(sk)
			row = append(row, report.Pct(v.FR))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// pairwiseTable lists the exact McNemar test of every pair of models.
func pairwiseTable(r *Results) report.Table {
	t := report.Table{Name: "pairwise", Title: "Pairwise exact McNemar tests (first replicate, samples both models ruled on)",
		Header: []string{"Model A", "Model B", "Pairs", "Only A right", "Only B right", "p"},
		Notes:  []string{"Two-sided exact binomial test on the discordant pairs; no correction for multiple comparisons."}}
	for _, p := range r.Pairwise {
		pv := p.P
		t.Rows = append(t.Rows, []report.Cell{report.Text(p.A), report.Text(p.B), report.Int(p.N), report.Int(p.AOnly), report.Int(p.BOnly), report.Num(&pv, 4)})
	}
	if len(t.Rows) == 0 {
		t.Notes = []string{"Needs at least two models."}
	}
	return t
}

// WriteReport writes r to w in format: every table of Tables for text, md, csv and
// latex; for json, r itself, whose shape is the spec's ({"models": […], …}).
func WriteReport(w io.Writer, r *Results, format string) error {
	if format == report.FormatJSON {
		return report.JSON(w, r)
	}
	return report.Write(w, format, Tables(r))
}

func ratesNote(r *Results) []string {
	notes := []string{"FR = (false passes + false checks) / evaluated replies; refused and unparsed replies are left out of every rate. A rate with nothing evaluated is undefined, not 0."}
	if b := r.Bootstrap; b != nil {
		notes = append(notes, fmt.Sprintf("Brackets: %g%% percentile interval from a cluster bootstrap over %s (%d replicates, seed %d).",
			b.Level*100, b.Cluster, b.Reps, b.Seed))
	}
	return notes
}

func table3(r *Results, styles []string) report.Table {
	t := report.Table{
		Name:   "table3",
		Title:  "Table 3: Failure rate (FR) per adjudicator",
		Header: append([]string{"Model", "Family", "n", "FR", "FP rate", "FC rate", "WS"}, styles...),
		Notes: append(ratesNote(r), "FP rate: false passes among evaluated samples that require a roll; "+
			"FC rate: false checks among those that do not; WS: wrong or missing skill among correct roll calls."),
	}
	if r.ParseModel != "" {
		t.Notes = append(t.Notes, "Some rulings were read by the parse model "+r.ParseModel+", not the rules: see the Model-parsed column of the counts table.")
	}
	for i := range r.Models {
		m := &r.Models[i]
		row := []report.Cell{report.Text(m.Model), report.Text(m.Family), report.Int(m.N), report.PctCI(m.FR, m.FRCI), report.PctCI(m.FPRate, m.FPRateCI), report.PctCI(m.FCRate, m.FCRateCI), report.Pct(m.WS)}
		for _, s := range styles {
			v, _ := m.ByStyle.Get(s)
			row = append(row, report.Pct(v.FR))
		}
		t.Rows = append(t.Rows, row)
	}
	a := &r.Average
	row := []report.Cell{report.Text("Average"), report.Text(""), report.Text(""), report.Pct(a.FR.Mean), report.Pct(a.FPRate.Mean), report.Pct(a.FCRate.Mean), report.Pct(a.WS.Mean)}
	for _, s := range styles {
		v, _ := a.ByStyle.Get(s)
		row = append(row, report.Pct(v.Mean))
	}
	t.Rows = append(t.Rows, row)
	return t
}

func table4(r *Results) report.Table {
	t := report.Table{
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
			t.Rows = append(t.Rows, []report.Cell{report.Text(m.Model), report.Int(0), report.Num(nil, 0), report.Num(nil, 0), report.Num(nil, 0), report.Num(nil, 2), report.Num(nil, 2)})
			continue
		}
		hours := l.TotalMS / 3.6e6
		var wall *float64
		if l.WallMS > 0 {
			w := l.WallMS / 3.6e6
			wall = &w
		}
		t.Rows = append(t.Rows, []report.Cell{report.Text(m.Model), report.Int(l.N), report.Num(&l.MeanMS, 0), report.Num(&l.MedianMS, 0), report.Num(&l.P95MS, 0), report.Num(&hours, 2), report.Num(wall, 2)})
	}
	addTokenColumns(&t, r)
	return t
}

func table6(r *Results, settings, styles []string) report.Table {
	t := report.Table{
		Name:   "table6",
		Title:  "Table 6: FR by world setting and rhetorical style",
		Header: append(append([]string{"Model", "Setting"}, styles...), "All styles"),
	}
	for i := range r.Models {
		m := &r.Models[i]
		for _, se := range settings {
			cells, _ := m.BySettingStyle.Get(se)
			row := []report.Cell{report.Text(m.Model), report.Text(se)}
			for _, st := range styles {
				v, _ := cells.Get(st)
				row = append(row, report.Pct(v.FR))
			}
			all, _ := m.BySetting.Get(se)
			t.Rows = append(t.Rows, append(row, report.Pct(all.FR)))
		}
	}
	return t
}

// sliceTable is a per-model table of one breakdown with an average row; withDelta adds
// the Neutral → Pseudo-Logic difference.
func sliceTable(r *Results, name, title string, keys []string,
	slices func(*ModelResult) Keyed[SliceFR], avg Keyed[Average], withDelta bool) report.Table {
	t := report.Table{Name: name, Title: title, Header: append([]string{"Model"}, keys...)}
	if withDelta {
		t.Header = append(t.Header, "Δ Pseudo-Logic − Neutral")
	}
	for i := range r.Models {
		m := &r.Models[i]
		row := []report.Cell{report.Text(m.Model)}
		for _, k := range keys {
			v, _ := slices(m).Get(k)
			row = append(row, report.Pct(v.FR))
		}
		if withDelta {
			row = append(row, report.PctDiff(m.NeutralToPseudoLogic))
		}
		t.Rows = append(t.Rows, row)
	}
	row := []report.Cell{report.Text("Average")}
	for _, k := range keys {
		v, _ := avg.Get(k)
		row = append(row, report.Pct(v.Mean))
	}
	if withDelta {
		row = append(row, report.PctDiff(r.Average.NeutralToPseudoLogic.Mean))
	}
	t.Rows = append(t.Rows, row)
	return t
}

func generatorTable(r *Results) report.Table {
	t := report.Table{
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
		row := []report.Cell{report.Text(g.Key)}
		for _, f := range r.Families {
			v, _ := g.Value.Get(f.Family)
			row = append(row, report.Pct(v.Mean))
		}
		all, _ := r.Average.ByGenerator.Get(g.Key)
		t.Rows = append(t.Rows, append(row, report.Pct(all.Mean)))
	}
	return t
}

func homeAwayTable(r *Results) report.Table {
	t := report.Table{
		Name:   "home_away",
		Title:  "Home-series bias: FR on the own family's samples (home) and on the rest (away)",
		Header: []string{"Model", "Family", "Home FR", "Away FR", "Away − Home"},
	}
	for i := range r.Models {
		m := &r.Models[i]
		t.Rows = append(t.Rows, []report.Cell{report.Text(m.Model), report.Text(m.Family), report.Pct(m.HomeFR), report.Pct(m.AwayFR), report.PctDiff(diff(m.AwayFR, m.HomeFR))})
	}
	return t
}

func familyTable(r *Results, styles []string) report.Table {
	t := report.Table{
		Name:   "families",
		Title:  "Family averages (each model weighs the same)",
		Header: append(append([]string{"Family", "Models", "FR", "FP rate", "FC rate", "WS"}, styles...), "Home FR", "Away FR"),
	}
	for _, f := range r.Families {
		row := []report.Cell{report.Text(f.Family), report.Int(len(f.Models)), report.Pct(f.FR.Mean), report.Pct(f.FPRate.Mean), report.Pct(f.FCRate.Mean), report.Pct(f.WS.Mean)}
		for _, s := range styles {
			v, _ := f.ByStyle.Get(s)
			row = append(row, report.Pct(v.Mean))
		}
		t.Rows = append(t.Rows, append(row, report.Pct(f.HomeFR.Mean), report.Pct(f.AwayFR.Mean)))
	}
	return t
}

func countsTable(r *Results) report.Table {
	t := report.Table{
		Name:   "counts",
		Title:  "Replies left out of the rates",
		Header: []string{"Model", "n", "Evaluated", "Refused", "Unparsed", "Errors"},
		Notes:  []string{"n counts replies; errors are requests that failed after their retries and are not in n."},
	}
	if r.ParseModel != "" {
		t.Header = append(t.Header, "Model-parsed")
		total := 0
		for i := range r.Models {
			if n := r.Models[i].ModelParsed; n != nil {
				total += *n
			}
		}
		t.Notes = append(t.Notes, fmt.Sprintf("%d rulings were read by the parse model %s from replies the rules left unparsed (Model-parsed); every other ruling is the rules'.",
			total, r.ParseModel))
	}
	for i := range r.Models {
		m := &r.Models[i]
		row := []report.Cell{report.Text(m.Model), report.Int(m.N), report.Int(m.Evaluated), report.Int(m.Refused), report.Int(m.Unparsed), report.Int(m.Errors)}
		if r.ParseModel != "" {
			n := 0
			if m.ModelParsed != nil {
				n = *m.ModelParsed
			}
			row = append(row, report.Int(n))
		}
		t.Rows = append(t.Rows, row)
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
