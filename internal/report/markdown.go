package report

import (
	"bufio"
	"io"
	"strings"
)

// mdEscape keeps a cell inside its column and stops Markdown from reading it as markup.
var mdEscape = strings.NewReplacer("\\", "\\\\", "|", "\\|", "*", "\\*", "_", "\\_", "`", "\\`", "<", "&lt;", ">", "&gt;")

// WriteMarkdown renders t as a GitHub-flavoured Markdown table under a heading, numbers
// right-aligned, with the notes as a paragraph underneath.
func (t *Table) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	if t.Title != "" {
		bw.WriteString("### " + mdEscape.Replace(oneLine(t.Title)) + "\n\n")
	}
	row := func(cells []string) {
		bw.WriteString("|")
		for _, s := range cells {
			bw.WriteString(" " + mdEscape.Replace(oneLine(s)) + " |")
		}
		bw.WriteString("\n")
	}
	row(t.Header)
	bw.WriteString("|")
	for c := range t.Header {
		if t.numeric(c) {
			bw.WriteString(" ---: |")
		} else {
			bw.WriteString(" :--- |")
		}
	}
	bw.WriteString("\n")
	for _, r := range t.Rows {
		cells := make([]string, len(t.Header))
		for c := range cells {
			cells[c] = cell(r, c).human("—", "%")
		}
		row(cells)
	}
	if len(t.Notes) > 0 {
		bw.WriteString("\n")
		for i, n := range t.Notes {
			if i > 0 {
				bw.WriteString("  \n") // a hard line break between notes
			}
			bw.WriteString(mdEscape.Replace(oneLine(n)))
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}
