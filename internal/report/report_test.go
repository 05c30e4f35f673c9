package report

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
)

func f(v float64) *float64 { return &v }

func TestCellFormats(t *testing.T) {
	tests := []struct {
		name                  string
		cell                  Cell
		text, latex, csvField string
	}{
		{"percent", Pct(f(0.1234)), "12.34%", `12.34\%`, "0.1234"},
		{"null percent", Pct(nil), "—", "--", ""},
		{"interval", PctCI(f(0.5), &[2]float64{0.25, 0.75}), "50.00% [25.00, 75.00]", `50.00\% [25.00, 75.00]`, "0.5"},
		{"signed", PctDiff(f(0.3481)), "+34.81%", `+34.81\%`, "0.3481"},
		{"signed negative", PctDiff(f(-0.02)), "-2.00%", `-2.00\%`, "-0.02"},
		{"signed zero", PctDiff(f(0)), "0.00%", `0.00\%`, "0"},
		{"number", Num(f(812.44), 1), "812.4", "812.4", "812.44"},
		{"int", Int(42), "42", "42", "42"},
		{"text", Text("a_b"), "a_b", `a\_b`, "a_b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab := Table{Header: []string{"x"}, Rows: [][]Cell{{tt.cell}}}
			var text, latex, csvOut bytes.Buffer
			tab.WriteText(&text)
			tab.WriteLaTeX(&latex)
			tab.WriteCSV(&csvOut)
			if got := strings.TrimSpace(strings.Split(text.String(), "\n")[2]); got != tt.text {
				t.Errorf("text(%v) = %q; want %q", tt.cell, got, tt.text)
			}
			if !strings.Contains(latex.String(), "\\midrule\n"+tt.latex+" \\\\\n") {
				t.Errorf("latex(%v) = %q; want a row %q", tt.cell, latex.String(), tt.latex)
			}
			recs, err := csv.NewReader(&csvOut).ReadAll()
			if err != nil || len(recs) != 2 || recs[1][0] != tt.csvField {
				t.Errorf("csv(%v) = %v, %v; want field %q", tt.cell, recs, err, tt.csvField)
			}
		})
	}
}

func TestLaTeXEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{`a&b`, `a\&b`},
		{`50%`, `50\%`},
		{`x_1 #2 $3`, `x\_1 \#2 \$3`},
		{`{a}`, `\{a\}`},
		{`~^`, `\textasciitilde{}\textasciicircum{}`},
		{`\`, `\textbackslash{}`},
		{`\{`, `\textbackslash{}\{`},
		{`<a|b>`, `\textless{}a\textbar{}b\textgreater{}`},
		{"Δ a − b — c", `$\Delta$ a $-$ b --- c`},
	}
	for _, tt := range tests {
		if got := LaTeXEscape(tt.in); got != tt.want {
			t.Errorf("LaTeXEscape(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}
