package report

import (
	"bufio"
	"encoding/csv"
	"io"
	"strconv"
)

// WriteCSV renders t as CSV for programs: rates as raw fractions, null as an empty field.
// The title and notes come first as lines starting with "#", which csv.Reader skips with
// Comment set to '#'. A column holding confidence intervals gets two more after it,
// "<name> lo" and "<name> hi".
func (t *Table) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, s := range append([]string{t.Title}, t.Notes...) {
		if s != "" {
			bw.WriteString("# " + oneLine(s) + "\n")
		}
	}
	withCI := make([]bool, len(t.Header))
	for _, row := range t.Rows {
		for c := range withCI {
			withCI[c] = withCI[c] || cell(row, c).CI != nil
		}
	}
	cw := csv.NewWriter(bw)
	header := make([]string, 0, len(t.Header))
	for c, h := range t.Header {
		header = append(header, h)
		if withCI[c] {
			header = append(header, h+" lo", h+" hi")
		}
	}
	cw.Write(header)
	for _, row := range t.Rows {
		rec := make([]string, 0, len(header))
		for c := range t.Header {
			x := cell(row, c)
			switch x.Kind {
			case KindText:
				rec = append(rec, x.Text)
			case KindInt:
				rec = append(rec, strconv.Itoa(x.Int))
			default:
				rec = append(rec, raw(x.Value))
			}
			if withCI[c] {
				if x.CI == nil {
					rec = append(rec, "", "")
				} else {
					rec = append(rec, raw(&x.CI[0]), raw(&x.CI[1]))
				}
			}
		}
		if len(rec) == 1 && rec[0] == "" {
			// csv.Writer would write a blank line, which readers skip.
			cw.Flush()
			bw.WriteString("\"\"\n")
			continue
		}
		cw.Write(rec)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}
