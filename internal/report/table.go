// Package report renders arbiter's results for people and for other tools. A Table (a
// title, a header, rows of typed cells and notes) renders as aligned text for a
// terminal, Markdown, CSV, LaTeX (booktabs) or JSON; a BarChart renders as a
// self-contained SVG. It only renders: the packages that own results lay out their own
// tables (seduce.Tables, check.Tables).
//
// Cells keep their values, not their text, so each format shows them its own way: a rate
// is 12.34% for people and 0.1234 in CSV and JSON, and an undefined rate is "—" in text
// and Markdown, "--" in LaTeX, empty in CSV and null in JSON.
package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Kind says what a Cell holds and so how it is shown.
type Kind int

// The cell kinds.
const (
	// KindText is a string shown as is.
	KindText Kind = iota
	// KindInt is a count.
	KindInt
	// KindPercent is a fraction shown as a percentage with two decimals.
	KindPercent
	// KindNumber is a plain number shown with Cell.Decimals decimals.
	KindNumber
)

// Cell is one entry of a Table. A percent or number cell whose Value is nil is null.
type Cell struct {
	Kind  Kind
	Text  string
	Int   int
	Value *float64
	// Decimals is how many decimals a KindNumber cell shows to people.
	Decimals int
	// Signed shows a percentage with its sign, as differences are: +34.81%.
	Signed bool
	// CI is a confidence interval shown after a percentage: 12.34% [10.01, 14.50].
	CI *[2]float64
}

// Text returns a text cell.
func Text(s string) Cell { return Cell{Kind: KindText, Text: s} }

// Int returns a count cell.
func Int(n int) Cell { return Cell{Kind: KindInt, Int: n} }

// Pct returns a percentage cell for a fraction; nil is null.
func Pct(v *float64) Cell { return Cell{Kind: KindPercent, Value: v} }

// PctCI returns a percentage cell with a confidence interval (nil for none).
func PctCI(v *float64, ci *[2]float64) Cell { return Cell{Kind: KindPercent, Value: v, CI: ci} }

// PctDiff returns a signed percentage cell for a difference of fractions.
func PctDiff(v *float64) Cell { return Cell{Kind: KindPercent, Value: v, Signed: true} }

// Num returns a number cell shown with the given decimals; nil is null.
func Num(v *float64, decimals int) Cell { return Cell{Kind: KindNumber, Value: v, Decimals: decimals} }

// Table is a titled grid of cells with notes underneath.
type Table struct {
	// Name is a short identifier such as "table3": a file stem and a LaTeX label.
	Name   string
	Title  string
	Header []string
	Rows   [][]Cell
	Notes  []string
}

// The output formats.
const (
	FormatText     = "text"
	FormatMarkdown = "md"
	FormatCSV      = "csv"
	FormatLaTeX    = "latex"
	FormatJSON     = "json"
)

// Formats lists the formats Write accepts.
var Formats = []string{FormatText, FormatMarkdown, FormatCSV, FormatLaTeX, FormatJSON}

// Write renders tables to w in format, one after another.
func Write(w io.Writer, format string, tables []Table) error {
	if format == FormatJSON {
		return writeJSON(w, tables)
	}
	var render func(*Table, io.Writer) error
	switch format {
	case FormatText:
		render = (*Table).WriteText
	case FormatMarkdown:
		render = (*Table).WriteMarkdown
	case FormatCSV:
		render = (*Table).WriteCSV
	case FormatLaTeX:
		render = (*Table).WriteLaTeX
	default:
		return unknownFormat(format)
	}
	for i := range tables {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if err := render(&tables[i], w); err != nil {
			return fmt.Errorf("write %s %s: %w", format, tables[i].Name, err)
		}
	}
	return nil
}

func unknownFormat(format string) error {
	return fmt.Errorf("unknown format %q: want one of %s", format, strings.Join(Formats, ", "))
}

// human shows a cell to people; null is what the format prints for an undefined value.
func (c Cell) human(null, percent string) string {
	switch c.Kind {
	case KindText:
		return c.Text
	case KindInt:
		return strconv.Itoa(c.Int)
	}
	if c.Value == nil {
		return null
	}
	if c.Kind == KindNumber {
		return strconv.FormatFloat(*c.Value, 'f', c.Decimals, 64)
	}
	s := pct(*c.Value, c.Signed) + percent
	if c.CI != nil {
		s += " [" + pct(c.CI[0], false) + ", " + pct(c.CI[1], false) + "]"
	}
	return s
}

func pct(v float64, signed bool) string {
	s := strconv.FormatFloat(v*100, 'f', 2, 64)
	if signed && v*100 >= 0.005 {
		s = "+" + s
	}
	if s == "-0.00" {
		s = "0.00"
	}
	return s
}

// raw shows a cell to a program: fractions unscaled at full precision, null as "".
func raw(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

// numeric reports whether a column holds numbers, so text output right-aligns it.
func (t *Table) numeric(col int) bool {
	for _, row := range t.Rows {
		if col < len(row) && row[col].Kind != KindText {
			return true
		}
	}
	return false
}

// cell returns row[col], or an empty text cell for a short row.
func cell(row []Cell, col int) Cell {
	if col < len(row) {
		return row[col]
	}
	return Text("")
}
