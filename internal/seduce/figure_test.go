package seduce_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/arbiter-eval/arbiter/internal/report"
	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// figureByName is the figure of figs named name.
func figureByName(t *testing.T, figs []report.Figure, name string) report.Figure {
	t.Helper()
	for _, f := range figs {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no figure %s among %d", name, len(figs))
	return report.Figure{}
}

// TestWhiskersAreTheJSONIntervals scores the fixture with a bootstrap, reads one slice's
// fr_ci back from the JSON report, and finds in figure 4, drawn on a recorder, a
// vertical whisker at that bar's x running from the interval's low end to its high end.
func TestWhiskersAreTheJSONIntervals(t *testing.T) {
	samples, preds := fixture()
	res := seduce.Score(samples, preds, seduce.ScoreOptions{Canon: canon, Bootstrap: 400, Seed: 3})
	var buf bytes.Buffer
	if err := report.JSON(&buf, res); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Models []struct {
			Model   string `json:"model"`
			ByStyle map[string]struct {
				FR *float64    `json:"fr"`
				CI *[2]float64 `json:"fr_ci"`
			} `json:"by_style"`
		} `json:"models"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	const model, style = "openai/gpt-4.1", "Authority"
	var fr *float64
	var ci *[2]float64
	for _, m := range doc.Models {
		if m.Model == model {
			fr, ci = m.ByStyle[style].FR, m.ByStyle[style].CI
		}
	}
	if fr == nil || ci == nil || ci[0] >= ci[1] {
		t.Fatalf("JSON by_style %s of %s: fr %v, fr_ci %v; want a rate and an interval of some width", style, model, fr, ci)
	}

	fig := figureByName(t, seduce.Figures(res), "figure4")
	c := fig.Chart
	if !strings.Contains(fig.Caption, "95% cluster-bootstrap interval") || !strings.Contains(fig.Caption, "clustered by scenario") {
		t.Errorf("figure 4 caption %q does not say what the whiskers are", fig.Caption)
	}
	g, s := -1, -1
	for i, name := range c.Groups {
		if name == model {
			g = i
		}
	}
	for i, name := range c.Series {
		if name == style {
			s = i
		}
	}
	if g < 0 || s < 0 {
		t.Fatalf("figure 4 has no bar %s, %s: groups %v, series %v", model, style, c.Groups, c.Series)
	}

	p := c.Plot()
	rec := &recorder.Canvas{}
	dc := draw.NewCanvas(rec, report.DefaultSize.W, report.DefaultSize.H)
	p.Draw(dc)
	data := p.DataCanvas(dc)
	_, trY := p.Transforms(&data)
	near := func(a, b vg.Length) bool { return math.Abs(float64(a-b)) < 0.01 }

	// The bar: a filled polygon of the series' colour whose top is the JSON's fr. Its
	// centre is where the whisker must stand.
	var bars []vg.Length
	for _, a := range rec.Actions {
		f, ok := a.(*recorder.Fill)
		if !ok || len(f.Path) < 4 {
			continue
		}
		xs, top := vg.Length(0), f.Path[0].Pos.Y
		for _, pt := range f.Path[:4] {
			xs += pt.Pos.X
			top = max(top, pt.Pos.Y)
		}
		if near(top, trY(*fr)) {
			bars = append(bars, xs/4)
		}
	}
	found := false
	for _, a := range rec.Actions {
		st, ok := a.(*recorder.Stroke)
		if !ok || len(st.Path) != 2 {
			continue
		}
		p0, p1 := st.Path[0].Pos, st.Path[1].Pos
		if !near(p0.X, p1.X) || !near(min(p0.Y, p1.Y), trY(ci[0])) || !near(max(p0.Y, p1.Y), trY(ci[1])) {
			continue
		}
		for _, x := range bars {
			if near(x, p0.X) {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("figure 4 has no whisker from %v to %v on the bar of %s, %s (bars at the height of fr %v: %v)", ci[0], ci[1], model, style, *fr, bars)
	}
}

// TestFigureIntervals checks which bars carry whiskers: every model's slice with a rate,
// never the average over models, and in figure 3 only a family of one model.
func TestFigureIntervals(t *testing.T) {
	samples, preds := fixture()
	res := seduce.Score(samples, preds, seduce.ScoreOptions{Canon: canon, Bootstrap: 200, Seed: 1})
	figs := seduce.Figures(res)
	if len(figs) != 3 {
		t.Fatalf("Figures = %d; want figures 3, 4 and 5", len(figs))
	}
	for _, name := range []string{"figure4", "figure5"} {
		c := figureByName(t, figs, name).Chart
		last := len(c.Groups) - 1
		if c.Groups[last] != "Average" || c.Intervals[last] != nil {
			t.Errorf("%s: last group %q has intervals %v; want Average without", name, c.Groups[last], c.Intervals[last])
		}
		for g := range last {
			for s := range c.Series {
				if (c.Values[g][s] == nil) != (c.Intervals[g][s] == nil) {
					t.Errorf("%s %s %s: value %v, interval %v; want both or neither", name, c.Groups[g], c.Series[s], c.Values[g][s], c.Intervals[g][s])
				}
			}
		}
	}
	c := figureByName(t, figs, "figure3").Chart
	for g, fam := range res.Families {
		has := false
		for _, iv := range c.Intervals[g] {
			has = has || iv != nil
		}
		if want := len(fam.Models) == 1; has != want {
			t.Errorf("figure 3 family %s (%d models): whiskers %v; want %v", fam.Family, len(fam.Models), has, want)
		}
	}
	// Without a bootstrap there is nothing to draw and the caption says nothing of whiskers.
	plain := seduce.Figures(seduce.Score(samples, preds, seduce.ScoreOptions{Canon: canon}))
	for _, f := range plain {
		if strings.Contains(f.Caption, "Whiskers") {
			t.Errorf("%s without a bootstrap: caption %q", f.Name, f.Caption)
		}
	}
}

// TestSliceIntervals: every slice with a rate has an interval containing it; a slice of
// one scenario can only resample that scenario, so its interval is the rate itself.
func TestSliceIntervals(t *testing.T) {
	samples, preds := fixture()
	res := seduce.Score(samples, preds, seduce.ScoreOptions{Canon: canon, Bootstrap: 200, Seed: 5})
	for _, m := range res.Models {
		for _, kv := range append(append(m.ByStyle, m.BySetting...), m.ByGenerator...) {
			v := kv.Value
			if (v.FR == nil) != (v.CI == nil) {
				t.Errorf("%s %s: fr %v, fr_ci %v; want both or neither", m.Model, kv.Key, show(v.FR), v.CI)
				continue
			}
			if v.CI != nil && (v.CI[0] > *v.FR+1e-12 || *v.FR > v.CI[1]+1e-12) {
				t.Errorf("%s %s: fr_ci %v does not contain fr %v", m.Model, kv.Key, *v.CI, *v.FR)
			}
		}
	}
	// claude's 2020s Urban samples are scenario d alone (one of four wrong).
	for _, m := range res.Models {
		if m.Model != "anthropic/claude-sonnet-4.5" {
			continue
		}
		v, _ := m.BySetting.Get(string(seduce.Setting2020s))
		if v.CI == nil || v.CI[0] != *v.FR || v.CI[1] != *v.FR {
			t.Errorf("claude 2020s Urban (one scenario): fr %v, fr_ci %v; want the rate at both ends", show(v.FR), v.CI)
		}
	}
}
