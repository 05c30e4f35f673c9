package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFigureList(t *testing.T) {
	c := sample()
	c.Title = "Figure 4: FR by style & model"
	figs := []Figure{NewFigure("figure4", c)}
	dir := filepath.Join("out", "figs")
	tests := []struct {
		format  string
		formats []Format
		want    []string
		not     []string
	}{
		{FormatText, []Format{SVG, PDF}, []string{"Figures\n", filepath.Join(dir, "figure4.svg") + ", pdf: Figure 4: FR by style & model. Whiskers: 95% intervals.\n"}, nil},
		{FormatMarkdown, []Format{PDF, PNG}, []string{"### Figures", "![Figure 4: FR by style & model](out/figs/figure4.png)",
			"*Figure 4: FR by style & model. Whiskers: 95% intervals.*"}, []string{"figure4.pdf"}},
		{FormatMarkdown, []Format{PDF}, []string{"[Figure 4: FR by style & model](out/figs/figure4.pdf)"}, []string{"!["}},
		{FormatLaTeX, []Format{SVG, PNG, PDF}, []string{"\\begin{figure*}[t]", "\\includegraphics[width=\\textwidth]{out/figs/figure4.pdf}",
			"\\caption{FR by style \\& model. Whiskers: 95\\% intervals.}", "\\label{fig:figure4}", "\\end{figure*}"}, []string{"Figure 4:", "includesvg"}},
		{FormatLaTeX, []Format{SVG}, []string{"\\usepackage{svg}", "\\includesvg[width=\\textwidth]{out/figs/figure4.svg}"}, nil},
		{FormatJSON, []Format{SVG}, nil, []string{"figure4"}},
		{FormatCSV, []Format{SVG}, nil, []string{"figure4"}},
	}
	for _, tt := range tests {
		t.Run(tt.format+"/"+string(tt.formats[0]), func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteFigureList(&b, tt.format, dir, figs, tt.formats); err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.want {
				if !strings.Contains(b.String(), s) {
					t.Errorf("WriteFigureList(%s) lacks %q:\n%s", tt.format, s, b.String())
				}
			}
			for _, s := range tt.not {
				if strings.Contains(b.String(), s) {
					t.Errorf("WriteFigureList(%s) holds %q:\n%s", tt.format, s, b.String())
				}
			}
		})
	}
	var b bytes.Buffer
	WriteFigureList(&b, FormatLaTeX, "50%_done", figs, []Format{PDF})
	if strings.Contains(b.String(), "\n\\includegraphics") || !strings.Contains(b.String(), "% \\includegraphics") {
		t.Errorf("a path with %% is included:\n%s", b.String())
	}
}
