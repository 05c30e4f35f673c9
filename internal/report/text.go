package report

import (
	"bufio"
	"io"
	"strings"
	"unicode/utf8"
)

// WriteText renders t for a terminal: the title, columns padded to line up (numbers to
// the right), a rule under the header, and the notes.
func (t *Table) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	grid := make([][]string, 0, len(t.Rows)+1)
	grid = append(grid, t.Header)
	for _, row := range t.Rows {
		line := make([]string, len(t.Header))
		for c := range line {
			line[c] = oneLine(cell(row, c).human("—", "%"))
		}
		grid = append(grid, line)
	}
	widths := make([]int, len(t.Header))
	for _, line := range grid {
		for c, s := range line {
			widths[c] = max(widths[c], utf8.RuneCountInString(s))
		}
	}
	right := make([]bool, len(t.Header))
	for c := range right {
		right[c] = t.numeric(c)
	}
	if t.Title != "" {
		bw.WriteString(t.Title + "\n\n")
	}
	for i, line := range grid {
		var sb strings.Builder
		for c, s := range line {
			if c > 0 {
				sb.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[c]-utf8.RuneCountInString(s))
			if right[c] {
				sb.WriteString(pad + s)
			} else {
				sb.WriteString(s + pad)
			}
		}
		bw.WriteString(strings.TrimRight(sb.String(), " ") + "\n")
		if i == 0 {
			for c, wd := range widths {
				if c > 0 {
					bw.WriteString("  ")
				}
				bw.WriteString(strings.Repeat("-", wd))
			}
			bw.WriteString("\n")
		}
	}
	if len(t.Notes) > 0 {
		bw.WriteString("\n")
		for _, n := range t.Notes {
			bw.WriteString(oneLine(n) + "\n")
		}
	}
	return bw.Flush()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
