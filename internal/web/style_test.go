package web

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/report"
	"github.com/arbiter-eval/arbiter/internal/seduce"
)

func TestStylePageOfTheReferenceSet(t *testing.T) {
	h := newFixture(t).server(t).Handler()
	a := get(t, h, "/dataset/style")
	if a.status != 200 || !strings.HasPrefix(a.header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /dataset/style = %d %s\n%s", a.status, a.header.Get("Content-Type"), a.body)
	}
	if !strings.Contains(a.header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("style page CSP = %q", a.header.Get("Content-Security-Policy"))
	}
	// 448 samples per style, 1,792 in all; the reference set's Pseudo-Logic says "therefore".
	for _, want := range []string{`id="style"`, `id="style_terms"`, "<td>reference</td>", `<td class="num">448</td>`, `<td class="num">1792</td>`,
		"therefore", `<th scope="col">Log-odds z</th>`, `<img src="/dataset/style/style_em_dashes.svg"`, `href="/dataset/style/style_em_dashes.pdf" download="style_em_dashes.pdf">PDF</a>`, "o200k_base"} {
		if !strings.Contains(a.body, want) {
			t.Errorf("style page lacks %q", want)
		}
	}
	if n := rows(t, a.body, "style"); n != 5 {
		t.Errorf("style table has %d rows; want 4 styles + All", n)
	}
	texts := checkFigure(t, get(t, h, "/dataset/style/style_em_dashes.svg"), report.SVG, "")
	if got := strings.Join(texts, "|"); !strings.Contains(got, "|reference|") || !strings.Contains(got, "|Pseudo-Logic|") {
		t.Errorf("style figure's texts %q lack the generator and a style", got)
	}
	if d := get(t, h, "/dataset"); !strings.Contains(d.body, `<a href="/dataset/style" id="style-link">`) {
		t.Error("the dataset page does not link to the style page")
	}
}

// TestStylePageShowsLogOdds measures two generators that share "check" and "gate": each
// one's All row shows its own word first among its TF-IDF terms and, in the next cell,
// among its log-odds words.
func TestStylePageShowsLogOdds(t *testing.T) {
	var jsonl strings.Builder
	for gen, stmt := range map[string]string{"alpha": "Check the gate: crimson, crimson.", "beta": "Check the gate: azure."} {
		jsonl.WriteString(`{"id":"` + gen + `-1","generator":"` + gen + `","setting":"Wilderness","category":"PHY","skill":"Climb","scenario_id":"` + gen +
			`","context":"c","statement":"` + stmt + `","style":"Neutral","requires_roll":true,"gold_skill":"Climb"}` + "\n")
	}
	ds, err := seduce.ReadDataset(strings.NewReader(jsonl.String()), "two.jsonl", seduce.FormatJSONL, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Store: newFixture(t).st, Dataset: ds})
	if err != nil {
		t.Fatal(err)
	}
	a := get(t, s.Handler(), "/dataset/style")
	if a.status != 200 {
		t.Fatalf("GET /dataset/style = %d\n%s", a.status, a.body)
	}
	for gen, word := range map[string]string{"alpha": "crimson", "beta": "azure"} {
		row := regexp.MustCompile(`<tr><td>` + gen + `</td><td>All</td><td>` + word + ` 1\.000</td><td>` + word + ` \d+\.\d\d, `)
		if !row.MatchString(a.body) {
			t.Errorf("style page has no All row of %s with %s leading its terms and its log-odds words:\n%s", gen, word, a.body)
		}
	}
	if strings.Contains(a.body, "<td>check ") || strings.Contains(a.body, "<td>gate ") {
		t.Errorf("style page lists a word both generators use first:\n%s", a.body)
	}
}

func TestStylePageEscapesHostileText(t *testing.T) {
	stmt := strings.ReplaceAll(hostile, `"`, `\"`) + ` \u2014 </td></tr></table><script>alert(4)</script>`
	line := `{"id":"x-1","generator":"evil","setting":"Wilderness","category":"PHY","skill":"Climb","scenario_id":"x",` +
		`"context":"c","statement":"` + stmt + `","style":"Neutral","requires_roll":true,"gold_skill":"Climb"}` + "\n"
	ds, err := seduce.ReadDataset(strings.NewReader(line), hostile+".jsonl", seduce.FormatJSONL, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Store: newFixture(t).st, Dataset: ds})
	if err != nil {
		t.Fatal(err)
	}
	a := get(t, s.Handler(), "/dataset/style")
	if a.status != 200 {
		t.Fatalf("GET /dataset/style = %d\n%s", a.status, a.body)
	}
	if strings.Contains(a.body, "<script") || strings.Contains(a.body, "<img src=x") || strings.Contains(a.body, "</td></tr></table><") {
		t.Errorf("style page holds raw markup:\n%s", a.body)
	}
	// The file name is shown escaped; the statement's words are letters only.
	if !strings.Contains(a.body, hostileEscaped+".jsonl") || !strings.Contains(a.body, "<td>evil</td>") || !strings.Contains(a.body, "alert") {
		t.Errorf("style page does not show the name escaped, the generator and the term alert:\n%s", a.body)
	}
	fig := get(t, s.Handler(), "/dataset/style/style_em_dashes.svg")
	texts := checkFigure(t, fig, report.SVG, "")
	if strings.Contains(fig.body, "<script") || !slices.Contains(texts, "evil") || !slices.Contains(texts, "Neutral") {
		t.Errorf("figure shows %q; want the generator evil and the style Neutral as text\n%s", texts, fig.body)
	}
}

func TestStylePageOfAnEmptySelection(t *testing.T) {
	s, err := New(Options{Store: newFixture(t).st, Dataset: &seduce.Dataset{Name: "none.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	a := get(t, s.Handler(), "/dataset/style")
	if a.status != 200 || strings.Contains(a.body, "<img") || !strings.Contains(a.body, "none.jsonl") {
		t.Errorf("GET /dataset/style of no samples = %d; want a page without a figure\n%s", a.status, a.body)
	}
}
