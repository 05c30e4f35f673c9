package report

import (
	"bytes"
	"strings"
	"testing"
)

const hostile = `<script>alert(1)</script><img src=x onerror=alert(2)>`

func TestWriteHTMLEscapesEveryString(t *testing.T) {
	tab := Table{
		Name:   "t1",
		Title:  "Title " + hostile,
		Header: []string{"Model " + hostile, "FR"},
		Rows:   [][]Cell{{Text(hostile), Pct(f(0.5))}},
		Notes:  []string{"note " + hostile},
	}
	var buf bytes.Buffer
	if err := tab.WriteHTML(&buf); err != nil {
		t.Fatalf("WriteHTML = %v", err)
	}
	got := buf.String()
	for _, raw := range []string{"<script", "<img", "onerror=alert(2)>"} {
		if strings.Contains(got, raw) {
			t.Errorf("WriteHTML output holds raw %q:\n%s", raw, got)
		}
	}
	escaped := "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"
	if n := strings.Count(got, escaped); n != 4 {
		t.Errorf("WriteHTML shows the hostile text escaped %d times; want 4 (title, header, cell, note):\n%s", n, got)
	}
}

func TestWriteHTMLCells(t *testing.T) {
	tests := []struct {
		name string
		cell Cell
		want string
	}{
		{"percent", Pct(f(0.1234)), `<td class="num">12.34%</td>`},
		{"interval", PctCI(f(0.5), &[2]float64{0.25, 0.75}), `<td class="num">50.00% <span class="ci">[25.00, 75.00]</span></td>`},
		{"null percent", Pct(nil), `<td class="num" data-null>—</td>`},
		{"null interval", PctCI(nil, &[2]float64{0.25, 0.75}), `<td class="num" data-null>—</td>`},
		{"signed", PctDiff(f(0.3481)), `<td class="num">&#43;34.81%</td>`}, // html/template escapes +,
		{"number", Num(f(812.44), 1), `<td class="num">812.4</td>`},
		{"int", Int(42), `<td class="num">42</td>`},
		{"text", Text("a & b"), `<td>a &amp; b</td>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab := Table{Header: []string{"x"}, Rows: [][]Cell{{tt.cell}}}
			var buf bytes.Buffer
			if err := tab.WriteHTML(&buf); err != nil {
				t.Fatalf("WriteHTML = %v", err)
			}
			if !strings.Contains(buf.String(), tt.want) {
				t.Errorf("WriteHTML(%v) = %s; want a cell %s", tt.cell, buf.String(), tt.want)
			}
		})
	}
}

func TestWriteHTMLLayout(t *testing.T) {
	tab := Table{Name: "table3", Title: "Table 3", Header: []string{"Model", "n"},
		Rows: [][]Cell{{Text("a")}, {Text("b"), Int(2)}}}
	h, err := tab.HTML()
	if err != nil {
		t.Fatalf("HTML = %v", err)
	}
	got := string(h)
	for _, want := range []string{`<figure class="table" id="table3">`, `<caption>Table 3</caption>`,
		`<th scope="col">Model</th><th scope="col" class="num">n</th>`,
		`<tr><td>a</td><td class="num"></td></tr>`, // a short row is padded
		`<tr><td>b</td><td class="num">2</td></tr>`} {
		if !strings.Contains(got, want) {
			t.Errorf("HTML() = %s; want it to hold %s", got, want)
		}
	}
	if strings.Contains(got, "figcaption") {
		t.Errorf("HTML() of a table without notes has a figcaption: %s", got)
	}
}
