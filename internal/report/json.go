package report

import (
	"encoding/json"
	"io"
)

// jsonTable is a Table as JSON: cells become strings, numbers (raw fractions for rates)
// or null, and a cell with an interval becomes {"value": x, "ci": [lo, hi]}.
type jsonTable struct {
	Name   string   `json:"name"`
	Title  string   `json:"title"`
	Header []string `json:"header"`
	Rows   [][]any  `json:"rows"`
	Notes  []string `json:"notes,omitempty"`
}

type jsonCI struct {
	Value *float64    `json:"value"`
	CI    *[2]float64 `json:"ci"`
}

func (t *Table) jsonValue() jsonTable {
	jt := jsonTable{Name: t.Name, Title: t.Title, Header: t.Header, Rows: make([][]any, len(t.Rows)), Notes: t.Notes}
	for i, row := range t.Rows {
		out := make([]any, len(t.Header))
		for c := range out {
			x := cell(row, c)
			switch {
			case x.Kind == KindText:
				out[c] = x.Text
			case x.Kind == KindInt:
				out[c] = x.Int
			case x.CI != nil:
				out[c] = jsonCI{x.Value, x.CI}
			default:
				out[c] = x.Value
			}
		}
		jt.Rows[i] = out
	}
	return jt
}

func writeJSON(w io.Writer, tables []Table) error {
	out := make([]jsonTable, len(tables))
	for i := range tables {
		out[i] = tables[i].jsonValue()
	}
	return JSON(w, out)
}

// JSON writes v as indented JSON, as every JSON report is written.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
