package seduce

import (
	"github.com/arbiter-eval/arbiter/internal/report"
)

// isStudy says r is a defense study's results: its entries carry a defense.
func isStudy(r *Results) bool {
	for i := range r.Models {
		if r.Models[i].Defense != "" {
			return true
		}
	}
	return false
}

// labelled is r for the benchmark's own tables: each entry named "model [defense]" for a
// defense other than none, so that every table shows the defenses side by side.
func labelled(r *Results) *Results {
	cp := *r
	cp.Defenses = nil
	cp.Models = make([]ModelResult, len(r.Models))
	for i, m := range r.Models {
		m.Model = defenseLabel(&m)
		m.Defense = ""
		cp.Models[i] = m
	}
	return &cp
}

func defenseLabel(m *ModelResult) string {
	if m.Defense == "" || m.Defense == "none" {
		return m.Model
	}
	return m.Model + " [" + m.Defense + "]"
}

// defenseTables are the study's own tables: rates and cost per model × defense, and the
// paired comparison of each defense with none.
func defenseTables(r *Results) []report.Table {
	styles := r.Average.ByStyle.Keys()
	rates := report.Table{
		Name:   "defenses",
		Title:  "Defenses: failure rate and cost per model and defense",
		Header: append(append([]string{"Model", "Defense", "n", "FR", "FP rate", "FC rate"}, styles...), "Requests/sample", "Tokens/sample"),
		Notes: append(ratesNote(r), "A defense should blunt Authority and Pseudo-Logic, which argue; Omission hides a risk instead, "+
			"which the context still states, so a defense can only help it by making the Keeper read the context. "+
			"A guard that drops a fact the context needs shows up as a higher FC rate, not only in FR.",
			"In the benchmark's tables above, averages, families and pairwise tests are over the none entries only."),
	}
	for i := range r.Models {
		m := &r.Models[i]
		row := []report.Cell{report.Text(m.Model), report.Text(m.Defense), report.Int(m.N), report.PctCI(m.FR, m.FRCI),
			report.PctCI(m.FPRate, m.FPRateCI), report.PctCI(m.FCRate, m.FCRateCI)}
		for _, s := range styles {
			v, _ := m.ByStyle.Get(s)
			row = append(row, report.Pct(v.FR))
		}
		row = append(row, report.Num(m.RequestsPerSample, 2), report.Num(m.TokensPerSample, 0))
		rates.Rows = append(rates.Rows, row)
	}
	paired := report.Table{
		Name:   "defenses_paired",
		Title:  "Defenses against none, paired on the samples both ruled on",
		Header: []string{"Model", "Defense", "Pairs", "FR", "FR none", "Delta", "Fixed", "Broken", "McNemar p", "Omission FR change"},
		Notes: []string{"Delta = FR under the defense minus FR under none on the same pairs; brackets: 95% percentile interval " +
			"from a bootstrap over scenarios. Fixed: pairs none got wrong and the defense right; Broken: the reverse; " +
			"McNemar p: exact two-sided test on Fixed against Broken."},
	}
	for _, c := range r.Defenses {
		p := c.McNemarP
		paired.Rows = append(paired.Rows, []report.Cell{report.Text(c.Model), report.Text(c.Defense), report.Int(c.Pairs),
			report.Pct(c.FR), report.Pct(c.FRNone), deltaCell(c.Delta, c.DeltaCI), report.Int(c.FixedByDefense),
			report.Int(c.BrokenByDefense), report.Num(&p, 4), report.PctDiff(omissionChange(r, c.Model, c.Defense))})
	}
	return []report.Table{rates, paired}
}

func deltaCell(v *float64, ci *[2]float64) report.Cell {
	c := report.PctCI(v, ci)
	c.Signed = true
	return c
}

// omissionChange is the Omission FR under defense minus under none for model.
func omissionChange(r *Results, model, defense string) *float64 {
	var with, without *float64
	for i := range r.Models {
		m := &r.Models[i]
		if m.Model != model {
			continue
		}
		v, _ := m.ByStyle.Get(string(StyleOmission))
		switch m.Defense {
		case defense:
			with = v.FR
		case "none":
			without = v.FR
		}
	}
	return diff(with, without)
}

// defenseFigure is FR by style, one group per model and defense, with intervals.
func defenseFigure(r *Results) report.Figure {
	c := sliceChart(r, "FR by rhetorical style per defense", r.Average.ByStyle.Keys(),
		func(m *ModelResult) string { return m.Model + " · " + m.Defense },
		func(m *ModelResult) Keyed[SliceFR] { return m.ByStyle }, nil)
	return report.NewFigure("figure-defenses", c)
}
