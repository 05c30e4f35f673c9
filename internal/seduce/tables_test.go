package seduce_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/report"
	"github.com/arbiter-eval/arbiter/internal/seduce"
)

func f(v float64) *float64 { return &v }

func slicesOf(keys []string, vals ...*float64) seduce.Keyed[seduce.SliceFR] {
	out := make(seduce.Keyed[seduce.SliceFR], len(keys))
	for i, k := range keys {
		n := 0
		if vals[i] != nil {
			n = 10 + i
		}
		out[i] = seduce.KV[seduce.SliceFR]{Key: k, Value: seduce.SliceFR{N: n, FR: vals[i]}}
	}
	return out
}

func avgOf(keys []string, vals ...*float64) seduce.Keyed[seduce.Average] {
	out := make(seduce.Keyed[seduce.Average], len(keys))
	for i, k := range keys {
		out[i] = seduce.KV[seduce.Average]{Key: k, Value: mean(vals[i], 2)}
	}
	return out
}

func mean(v *float64, models int) seduce.Average {
	if v == nil {
		return seduce.Average{}
	}
	return seduce.Average{Models: models, Mean: v}
}

var (
	styles   = []string{"Neutral", "Authority", "Pseudo-Logic", "Omission"}
	settings = []string{"1920s Urban", "2020s Urban", "Wilderness", "Ancient China"}
	gens     = []string{"gpt", "gemini"}
)

// fixture is a small hand-built Results: two models, one with intervals and latency,
// one with undefined rates and a name full of characters every format must escape.
func tablesFixture() *seduce.Results {
	grid := func(v *float64) seduce.Keyed[seduce.Keyed[seduce.SliceFR]] {
		out := seduce.Keyed[seduce.Keyed[seduce.SliceFR]]{}
		for i, se := range settings {
			cell := v
			if i == 3 {
				cell = nil
			}
			out = append(out, seduce.KV[seduce.Keyed[seduce.SliceFR]]{Key: se, Value: slicesOf(styles, f(0), cell, f(0.5), nil)})
		}
		return out
	}
	gpt := seduce.ModelResult{
		Model: "openai/gpt-4.1", Family: "gpt", N: 100, Errors: 2, Evaluated: 97, Refused: 2, Unparsed: 1, FP: 12, FC: 1,
		FR: f(13.0 / 97), FPRate: f(12.0 / 80), FCRate: f(1.0 / 17), WS: f(0.05),
		ByStyle:     slicesOf(styles, f(0.0382), f(0.1023), f(0.4314), f(0.0699)),
		BySetting:   slicesOf(settings, f(0), f(0.1), f(0.2065), f(0.4583)),
		ByGenerator: slicesOf(gens, f(0.0397), f(0.2121)),
		HomeFR:      f(0.0397), AwayFR: f(0.2121),
		FRCI: &[2]float64{0.1, 0.17}, FPRateCI: &[2]float64{0.11, 0.2}, FCRateCI: &[2]float64{0, 0.18},
		BySettingStyle:       grid(f(0.25)),
		NeutralToPseudoLogic: f(0.4314 - 0.0382),
		Latency:              &seduce.Latency{N: 98, MeanMS: 812.4, MedianMS: 640, P95MS: 2210.5, TotalMS: 79615.2},
	}
	// gpt's slices carry intervals, the whiskers of figures 3, 4 and 5.
	for _, ks := range []seduce.Keyed[seduce.SliceFR]{gpt.ByStyle, gpt.BySetting, gpt.ByGenerator} {
		for i := range ks {
			if v := ks[i].Value.FR; v != nil {
				ks[i].Value.CI = &[2]float64{*v * 0.5, min(1, *v*1.5+0.02)}
			}
		}
	}
	odd := seduce.ModelResult{
		Model: `lab/r&d_50%|#1 <x> {~^\}`, Family: "lab", N: 3, Evaluated: 1, Refused: 1, Unparsed: 1, FC: 0,
		FR: f(0), FPRate: nil, FCRate: f(0), WS: nil,
		ByStyle:        slicesOf(styles, f(0), nil, nil, nil),
		BySetting:      slicesOf(settings, nil, nil, f(0), nil),
		ByGenerator:    slicesOf(gens, f(0), nil),
		AwayFR:         f(0),
		BySettingStyle: grid(nil),
	}
	return &seduce.Results{
		Models:     []seduce.ModelResult{gpt, odd},
		UnknownIDs: 3,
		Average: seduce.Averages{
			Models: []string{gpt.Model, odd.Model},
			FR:     mean(f((13.0/97)/2), 2), FPRate: mean(f(12.0/80), 1), FCRate: mean(f(1.0/34), 2), WS: mean(f(0.05), 1),
			ByStyle:              avgOf(styles, f(0.0191), f(0.1023), f(0.4314), f(0.0699)),
			BySetting:            avgOf(settings, f(0), f(0.1), f(0.10325), f(0.4583)),
			ByGenerator:          avgOf(gens, f(0.01985), f(0.2121)),
			HomeFR:               mean(f(0.0397), 1),
			AwayFR:               mean(f(0.10605), 2),
			NeutralToPseudoLogic: mean(f(0.3932), 1),
		},
		Families: []seduce.FamilyResult{
			{Family: "gpt", Averages: seduce.Averages{Models: []string{gpt.Model}, FR: mean(gpt.FR, 1), FPRate: mean(gpt.FPRate, 1),
				FCRate: mean(gpt.FCRate, 1), WS: mean(gpt.WS, 1), ByStyle: avgOf(styles, f(0.0382), f(0.1023), f(0.4314), f(0.0699)),
				ByGenerator: avgOf(gens, f(0.0397), f(0.2121)), HomeFR: mean(gpt.HomeFR, 1), AwayFR: mean(gpt.AwayFR, 1)}},
			{Family: "lab", Averages: seduce.Averages{Models: []string{odd.Model}, FR: mean(f(0), 1), FCRate: mean(f(0), 1),
				ByStyle: avgOf(styles, f(0), nil, nil, nil), ByGenerator: avgOf(gens, f(0), nil), AwayFR: mean(f(0), 1)}},
		},
		GeneratorTarget: seduce.Keyed[seduce.Keyed[seduce.Average]]{
			{Key: "gpt", Value: seduce.Keyed[seduce.Average]{{Key: "gpt", Value: mean(f(0.0397), 1)}, {Key: "lab", Value: mean(f(0), 1)}}},
			{Key: "gemini", Value: seduce.Keyed[seduce.Average]{{Key: "gpt", Value: mean(f(0.2121), 1)}, {Key: "lab", Value: seduce.Average{}}}},
		},
		Bootstrap: &seduce.BootstrapInfo{Reps: 1000, Seed: 1, Level: 0.95, Cluster: "scenario_id"},
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if updating() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test -update to accept):\n%s", path, got)
	}
}

func TestWriteReportGolden(t *testing.T) {
	ext := map[string]string{"text": "txt", "md": "md", "csv": "csv", "latex": "tex", "json": "json"}
	for _, format := range report.Formats {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := seduce.WriteReport(&buf, tablesFixture(), format); err != nil {
				t.Fatalf("seduce.WriteReport(%s) = %v; want nil", format, err)
			}
			golden(t, "seduce."+ext[format], buf.Bytes())
		})
	}
}

func TestWriteReportUnknownFormat(t *testing.T) {
	if err := seduce.WriteReport(io.Discard, tablesFixture(), "xlsx"); err == nil || !strings.Contains(err.Error(), "text, md, csv, latex, json") {
		t.Errorf("seduce.WriteReport(xlsx) = %v; want an error listing the formats", err)
	}
}

func TestReportJSONIsSpecShape(t *testing.T) {
	var buf bytes.Buffer
	if err := seduce.WriteReport(&buf, tablesFixture(), "json"); err != nil {
		t.Fatal(err)
	}
	var back seduce.Results
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatalf("json.Unmarshal(WriteReport json) = %v", err)
	}
	if got := strings.Join(strings.Fields(buf.String()), ""); !strings.HasPrefix(got, `{"models":[{"model":`) {
		t.Errorf("json output starts %.30q; want {\"models\":[{\"model\": …", got)
	}
	if len(back.Models) != 2 || back.Models[1].FPRate != nil {
		t.Errorf("round trip: %d models, second fp_rate %v; want 2 models and null", len(back.Models), back.Models[1].FPRate)
	}
}

func TestCSVReadsBack(t *testing.T) {
	var buf bytes.Buffer
	tables := seduce.Tables(tablesFixture())
	if err := tables[0].WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(&buf)
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("csv.ReadAll(table 3) = %v", err)
	}
	if got := recs[0][3:6]; strings.Join(got, ",") != "FR,FR lo,FR hi" {
		t.Errorf("table 3 CSV header[3:6] = %v; want FR, FR lo, FR hi", got)
	}
	if got := recs[2][0]; got != `lab/r&d_50%|#1 <x> {~^\}` {
		t.Errorf("table 3 CSV model = %q; want the name unchanged", got)
	}
}

func TestMarkdownEscapesPipes(t *testing.T) {
	var buf bytes.Buffer
	seduce.Tables(tablesFixture())[0].WriteMarkdown(&buf)
	for _, line := range strings.Split(buf.String(), "\n") {
		if !strings.HasPrefix(line, "| lab/") {
			continue
		}
		// 11 columns: 12 unescaped pipes.
		if n, want := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|"), 12; n != want {
			t.Errorf("markdown row has %d unescaped pipes; want %d: %s", n, want, line)
		}
	}
}

func TestFigures(t *testing.T) {
	figs := seduce.Figures(tablesFixture())
	if len(figs) != 3 {
		t.Fatalf("Figures = %d figures; want figures 3, 4 and 5", len(figs))
	}
	for _, fig := range figs {
		t.Run(fig.Name, func(t *testing.T) {
			// Well-formed XML, so every model name was escaped.
			dec := xml.NewDecoder(bytes.NewReader(fig.SVG))
			for {
				_, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("SVG %s is not well-formed XML: %v", fig.Name, err)
				}
			}
			golden(t, fig.Name+".svg", fig.SVG)
		})
	}
}

func TestTablesRenderAsHTML(t *testing.T) {
	for _, tab := range seduce.Tables(tablesFixture()) {
		var buf bytes.Buffer
		if err := tab.WriteHTML(&buf); err != nil {
			t.Errorf("WriteHTML(%s) = %v", tab.Name, err)
		}
		if rows := strings.Count(buf.String(), "<tr>"); rows != len(tab.Rows)+1 {
			t.Errorf("WriteHTML(%s) has %d rows; want %d", tab.Name, rows, len(tab.Rows)+1)
		}
	}
}
