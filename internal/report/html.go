package report

import (
	"bytes"
	"html/template"
	"io"
)

// htmlTable lays out one Table as an HTML fragment. html/template escapes every string
// it is given (titles, headers, cells and notes may carry model or dataset text), so
// nothing here is ever marked safe by hand.
var htmlTable = template.Must(template.New("table").Parse(`<figure class="table"{{with .ID}} id="{{.}}"{{end}}>
<table>
{{- with .Title}}
<caption>{{.}}</caption>
{{- end}}
<thead><tr>{{range .Header}}<th scope="col"{{if .Num}} class="num"{{end}}>{{.Text}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Rows}}
<tr>{{range .}}<td{{if .Num}} class="num"{{end}}{{if .Null}} data-null{{end}}>{{.Text}}{{with .CI}} <span class="ci">{{.}}</span>{{end}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>
{{- with .Notes}}
<figcaption>{{range .}}<p>{{.}}</p>{{end}}</figcaption>
{{- end}}
</figure>
`))

type htmlCell struct {
	Text, CI  string
	Num, Null bool
}

type htmlView struct {
	ID, Title string
	Header    []htmlCell
	Rows      [][]htmlCell
	Notes     []string
}

// WriteHTML renders t as an HTML fragment for a page: a <table> captioned with the
// title inside a <figure> whose id is t.Name (when set), numeric columns marked class="num", an
// interval in a <span class="ci"> after its rate, an undefined rate as "—", and the notes
// underneath. Every string is escaped by html/template.
func (t *Table) WriteHTML(w io.Writer) error {
	v := htmlView{ID: t.Name, Title: t.Title, Notes: t.Notes}
	num := make([]bool, len(t.Header))
	for c, h := range t.Header {
		num[c] = t.numeric(c)
		v.Header = append(v.Header, htmlCell{Text: h, Num: num[c]})
	}
	for _, row := range t.Rows {
		cells := make([]htmlCell, len(t.Header))
		for c := range cells {
			cells[c] = htmlCellOf(cell(row, c))
			cells[c].Num = num[c]
		}
		v.Rows = append(v.Rows, cells)
	}
	return htmlTable.Execute(w, v)
}

// htmlCellOf splits a cell into its value and its interval, so a page can set the
// interval apart.
func htmlCellOf(c Cell) htmlCell {
	if c.Kind == KindPercent && c.Value != nil && c.CI != nil {
		return htmlCell{Text: pct(*c.Value, c.Signed) + "%", CI: "[" + pct(c.CI[0], false) + ", " + pct(c.CI[1], false) + "]"}
	}
	if (c.Kind == KindPercent || c.Kind == KindNumber) && c.Value == nil {
		return htmlCell{Text: "—", Null: true}
	}
	return htmlCell{Text: c.human("—", "%")}
}

// HTML returns t as WriteHTML renders it, typed for embedding in an html/template page.
// The fragment is safe to embed because html/template built it and escaped all its text.
func (t *Table) HTML() (template.HTML, error) {
	var buf bytes.Buffer
	if err := t.WriteHTML(&buf); err != nil {
		return "", err
	}
	return template.HTML(buf.String()), nil
}
