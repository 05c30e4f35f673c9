package report

import (
	"bufio"
	"io"
	"strings"
)

// latexEscape makes text safe in LaTeX's text mode. One pass, so a replacement's own
// backslashes and braces are not escaped again. Besides the ten special characters it
// spells out the few symbols the reports use that pdflatex's default encoding lacks.
var latexEscape = strings.NewReplacer(
	`\`, `\textbackslash{}`,
	`&`, `\&`, `%`, `\%`, `_`, `\_`, `#`, `\#`, `$`, `\$`, `{`, `\{`, `}`, `\}`,
	`~`, `\textasciitilde{}`, `^`, `\textasciicircum{}`,
	`<`, `\textless{}`, `>`, `\textgreater{}`, `|`, `\textbar{}`,
	"—", "---", "–", "--", "−", "$-$", "Δ", `$\Delta$`, "×", `$\times$`,
)

// LaTeXEscape returns s with LaTeX's special characters escaped for text mode.
func LaTeXEscape(s string) string { return latexEscape.Replace(s) }

// WriteLaTeX renders t as a table environment around a booktabs tabular (the document
// needs \usepackage{booktabs}), with the title as caption, Name as label, and the notes
// in small type under the rule.
func (t *Table) WriteLaTeX(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("\\begin{table}[htbp]\n\\centering\n")
	if t.Title != "" {
		bw.WriteString("\\caption{" + LaTeXEscape(oneLine(t.Title)) + "}\n")
	}
	if t.Name != "" {
		bw.WriteString("\\label{tab:" + LaTeXEscape(t.Name) + "}\n")
	}
	var spec strings.Builder
	for c := range t.Header {
		if t.numeric(c) {
			spec.WriteByte('r')
		} else {
			spec.WriteByte('l')
		}
	}
	bw.WriteString("\\begin{tabular}{" + spec.String() + "}\n\\toprule\n")
	row := func(cells []string) {
		for c, s := range cells {
			if c > 0 {
				bw.WriteString(" & ")
			}
			bw.WriteString(s)
		}
		bw.WriteString(" \\\\\n")
	}
	header := make([]string, len(t.Header))
	for c, h := range t.Header {
		header[c] = LaTeXEscape(oneLine(h))
	}
	row(header)
	bw.WriteString("\\midrule\n")
	for _, r := range t.Rows {
		cells := make([]string, len(t.Header))
		for c := range cells {
			x := cell(r, c)
			if x.Kind == KindText {
				cells[c] = LaTeXEscape(oneLine(x.Text))
			} else {
				cells[c] = x.human("--", `\%`)
			}
		}
		row(cells)
	}
	bw.WriteString("\\bottomrule\n\\end{tabular}\n")
	for _, n := range t.Notes {
		bw.WriteString("\\par\\smallskip{\\footnotesize " + LaTeXEscape(oneLine(n)) + "}\n")
	}
	bw.WriteString("\\end{table}\n")
	return bw.Flush()
}
