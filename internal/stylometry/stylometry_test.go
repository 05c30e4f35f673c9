package stylometry

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/arbiter-eval/arbiter/internal/report"
	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// handSet is small enough to count by hand. Token counts: "hello world" is 2 and the
// Shakespeare line 14 (both in the library's published o200k_base table);
// "supercalifragilistic" is 6 (same table); "hello — world" is hello | " —" | " world"
// = 3 and "hello world—hello world" is hello | " world" | "—" | hello | " world" = 5 (the
// pieces o200k_base's split gives, checked in TestTokenPieces).
func handSet() []seduce.Sample {
	return []seduce.Sample{
		{ID: "a1", Generator: "alpha", Style: seduce.StyleNeutral, Statement: "hello world"},
		{ID: "a2", Generator: "alpha", Style: seduce.StyleAuthority, Statement: "We know what we are, but know not what we may be."},
		{ID: "a3", Generator: "alpha", Style: seduce.StyleAuthority, Statement: "hello \u2014 world"},
		{ID: "b1", Generator: "beta", Style: seduce.StyleNeutral, Statement: "supercalifragilistic"},
		{ID: "b2", Generator: "beta", Style: seduce.StyleOmission, Statement: "hello world\u2014hello world"},
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestTokenizerPublishedCounts(t *testing.T) {
	// The library's own test table (tokenizer_test.go, TestO200kBase) publishes these ids.
	tests := []struct {
		text string
		want int
	}{
		{"hello world", 2},
		{"hello   world", 3},
		{"supercalifragilistic", 6},
		{"We know what we are, but know not what we may be.", 14},
	}
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			n, err := enc.Count(tt.text)
			if err != nil || n != tt.want {
				t.Errorf("Count(%q) = %d, %v; want %d", tt.text, n, err, tt.want)
			}
		})
	}
}

func TestTokenPieces(t *testing.T) {
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string][]string{
		"hello \u2014 world":           {"hello", " \u2014", " world"},
		"hello world\u2014hello world": {"hello", " world", "\u2014", "hello", " world"},
	}
	for text, want := range tests {
		_, pieces, err := enc.Encode(text)
		if err != nil || !slices.Equal(pieces, want) {
			t.Errorf("Encode(%q) pieces = %q, %v; want %q", text, pieces, err, want)
		}
	}
}

func TestMeasureHandBuilt(t *testing.T) {
	rep, err := Measure(handSet(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Tokenizer != "o200k_base" {
		t.Errorf("Tokenizer = %q; want o200k_base", rep.Tokenizer)
	}
	// alpha/Authority: token counts 14 and 3; alpha/All: 2, 14, 3.
	sdAuth := math.Sqrt((5.5*5.5 + 5.5*5.5) / 1)
	m := 19.0 / 3
	sdAll := math.Sqrt(((2-m)*(2-m) + (14-m)*(14-m) + (3-m)*(3-m)) / 2)
	want := []Row{
		{"alpha", "Neutral", 1, 2, 2, 0, 2, 0, 0},
		{"alpha", "Authority", 2, 17, 8.5, sdAuth, 7.5, 1, 100.0 / 17},
		{"alpha", "All", 3, 19, m, sdAll, 17.0 / 3, 1, 100.0 / 19},
		{"beta", "Neutral", 1, 6, 6, 0, 1, 0, 0},
		// hello | world—hello | world: "world—hello" is one whitespace-separated word.
		{"beta", "Omission", 1, 5, 5, 0, 3, 1, 20},
		{"beta", "All", 2, 11, 5.5, math.Sqrt(0.5), 2, 1, 100.0 / 11},
	}
	if len(rep.Rows) != len(want) {
		t.Fatalf("rows = %+v; want %+v", rep.Rows, want)
	}
	for i, w := range want {
		g := rep.Rows[i]
		if g.Generator != w.Generator || g.Style != w.Style || g.Samples != w.Samples || g.Tokens != w.Tokens || g.EmDashes != w.EmDashes ||
			!near(g.TokensMean, w.TokensMean) || !near(g.TokensSD, w.TokensSD) || !near(g.WordsMean, w.WordsMean) || !near(g.EmDashPer100Tokens, w.EmDashPer100Tokens) {
			t.Errorf("row %d = %+v; want %+v", i, g, w)
		}
	}

	// One document per generator, N = 2. alpha: hello 2, world 2, know 2, may 1 (we,
	// what, are, but, not, be are stop words); beta: hello 2, world 2,
	// supercalifragilistic 1. hello and world are in both (idf ln 2/2 = 0, not listed),
	// the rest in one (idf ln 2).
	l2 := math.Log(2)
	wantTerms := map[string][]Term{
		"alpha": {{"know", 2 * l2 / math.Sqrt(5*l2*l2)}, {"may", l2 / math.Sqrt(5*l2*l2)}},
		"beta":  {{"supercalifragilistic", 1}},
	}
	checkTerms(t, "Terms", rep.Terms, wantTerms)

	// Log-odds, prior the corpus: n = 12 (alpha 7, beta 5); a_w = hello 4, world 4, know 2,
	// may 1, supercalifragilistic 1.
	wantOdds := map[string][]LogOddsTerm{
		"alpha": {
			{"know", (math.Log(4.0/15) - math.Log(2.0/15)) / math.Sqrt(1.0/4+1.0/2)},
			{"may", (math.Log(2.0/17) - math.Log(1.0/16)) / math.Sqrt(1.0/2+1.0/1)},
			{"hello", (math.Log(6.0/13) - math.Log(6.0/11)) / math.Sqrt(1.0/6+1.0/6)},
			{"world", (math.Log(6.0/13) - math.Log(6.0/11)) / math.Sqrt(1.0/6+1.0/6)},
		},
		"beta": {
			{"supercalifragilistic", (math.Log(2.0/15) - math.Log(1.0/18)) / math.Sqrt(1.0/2+1.0/1)},
			{"hello", (math.Log(6.0/11) - math.Log(6.0/13)) / math.Sqrt(1.0/6+1.0/6)},
			{"world", (math.Log(6.0/11) - math.Log(6.0/13)) / math.Sqrt(1.0/6+1.0/6)},
		},
	}
	checkLogOdds(t, rep.LogOdds, wantOdds)

	// One document per generator x style, N = 4: hello and world are in three (idf
	// ln 4/3), the rest in one (idf ln 4).
	j3, j1 := math.Log(4.0/3), math.Log(4)
	nAuth := math.Sqrt(4*j1*j1 + j1*j1 + 2*j3*j3)
	wantPairs := map[string]map[string][]Term{
		"alpha": {
			"Neutral":   {{"hello", 1 / math.Sqrt2}, {"world", 1 / math.Sqrt2}},
			"Authority": {{"know", 2 * j1 / nAuth}, {"may", j1 / nAuth}, {"hello", j3 / nAuth}, {"world", j3 / nAuth}},
		},
		"beta": {
			"Neutral":  {{"supercalifragilistic", 1}},
			"Omission": {{"hello", 1 / math.Sqrt2}, {"world", 1 / math.Sqrt2}},
		},
	}
	if len(rep.StyleTerms) != len(wantPairs) {
		t.Errorf("StyleTerms has %d generators; want %d", len(rep.StyleTerms), len(wantPairs))
	}
	for gen, styles := range wantPairs {
		checkTerms(t, "StyleTerms["+gen+"]", rep.StyleTerms[gen], styles)
	}
}

func checkTerms(t *testing.T, what string, got, want map[string][]Term) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s = %v; want %v", what, got, want)
	}
	for k, w := range want {
		g := got[k]
		ok := len(g) == len(w)
		for i := 0; ok && i < len(w); i++ {
			ok = g[i].Term == w[i].Term && near(g[i].Score, w[i].Score)
		}
		if !ok {
			t.Errorf("%s[%s] = %v; want %v", what, k, g, w)
		}
	}
}

func TestTopTermsCut(t *testing.T) {
	rep, err := Measure(handSet(), Options{TopTerms: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Uncut, alpha has two terms and four log-odds words.
	if got := rep.Terms["alpha"]; len(got) != 1 || got[0].Term != "know" {
		t.Errorf("Terms[alpha] with TopTerms 1 = %v; want know", got)
	}
	if got := rep.LogOdds["alpha"]; len(got) != 1 || got[0].Term != "know" {
		t.Errorf("LogOdds[alpha] with TopTerms 1 = %v; want know", got)
	}
}

func TestStopWordsOption(t *testing.T) {
	rep, err := Measure(handSet(), Options{StopWords: map[string]bool{"know": true, "hello": true}})
	if err != nil {
		t.Fatal(err)
	}
	var terms []string
	for _, x := range rep.Terms["alpha"] {
		terms = append(terms, x.Term)
	}
	// With only these two stop words, "we", "what" and the rest count.
	if slices.Contains(terms, "know") || slices.Contains(terms, "hello") || !slices.Contains(terms, "what") {
		t.Errorf("Terms[alpha] = %v; want no know or hello, and what", terms)
	}
}

func TestWords(t *testing.T) {
	stop := DefaultStopWords()
	tests := []struct {
		in   string
		want []string
	}{
		{"Scientifically, the 1920s' man-made", []string{"scientifically", "man", "made"}},
		{"I don't KNOW—truly", []string{"know", "truly"}},
		{"Élan vital, ÉLAN", []string{"élan", "vital", "élan"}},
		{"42 % — ?", nil},
	}
	for _, tt := range tests {
		if got := Words(tt.in, stop); !slices.Equal(got, tt.want) {
			t.Errorf("Words(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseStopWords(t *testing.T) {
	words, err := ParseStopWords(strings.NewReader("# list\nThe\n\n  and # both\n"), "s.txt")
	if err != nil || !reflect.DeepEqual(words, map[string]bool{"the": true, "and": true}) {
		t.Errorf("ParseStopWords = %v, %v; want the, and", words, err)
	}
	_, err = ParseStopWords(strings.NewReader("the\nit's\n"), "s.txt")
	if err == nil || !strings.Contains(err.Error(), "s.txt: line 2") {
		t.Errorf("ParseStopWords(it's) error = %v; want one naming s.txt: line 2", err)
	}
	def := DefaultStopWords()
	if !def["the"] || !def["don"] || def["scientifically"] {
		t.Errorf("DefaultStopWords lacks the or don, or has scientifically")
	}
}

func FuzzParseStopWords(f *testing.F) {
	f.Add("the\n# c\nand\n")
	f.Add("it's\n")
	f.Fuzz(func(t *testing.T, in string) {
		words, err := ParseStopWords(strings.NewReader(in), "f")
		if err != nil {
			return
		}
		for w := range words {
			if w == "" || w != strings.ToLower(w) || strings.ContainsAny(w, " #'\n") {
				t.Fatalf("ParseStopWords(%q) kept %q", in, w)
			}
		}
	})
}

// TestJSONShape holds the spec's section 5 shape: these keys, these types.
func TestJSONShape(t *testing.T) {
	rep, err := Measure(handSet(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, rep, report.FormatJSON); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("json: %v\n%s", err, buf.String())
	}
	if got["tokenizer"] != "o200k_base" {
		t.Errorf("tokenizer = %v; want o200k_base", got["tokenizer"])
	}
	for _, k := range []string{"tokenizer", "rows", "terms", "log_odds"} {
		if _, ok := got[k]; !ok {
			t.Errorf("no %q in %s", k, buf.String())
		}
	}
	rows, _ := got["rows"].([]any)
	if len(rows) != 6 {
		t.Fatalf("rows = %v; want 6", got["rows"])
	}
	row := rows[1].(map[string]any)
	wantRow := map[string]any{"generator": "alpha", "style": "Authority", "samples": 2.0, "tokens": 17.0,
		"tokens_mean": 8.5, "tokens_sd": math.Sqrt(60.5), "words_mean": 7.5, "em_dashes": 1.0, "em_dash_per_100_tokens": 100.0 / 17}
	if len(row) != len(wantRow) {
		t.Errorf("row keys = %v; want exactly %v", row, wantRow)
	}
	for k, w := range wantRow {
		switch w := w.(type) {
		case string:
			if row[k] != w {
				t.Errorf("row[%q] = %v; want %q", k, row[k], w)
			}
		case float64:
			if g, ok := row[k].(float64); !ok || !near(g, w) {
				t.Errorf("row[%q] = %v; want %v", k, row[k], w)
			}
		}
	}
	if !strings.Contains(buf.String(), `"samples": 2,`) {
		t.Errorf("samples is not an integer in %s", buf.String())
	}
	terms := got["terms"].(map[string]any)
	first := terms["alpha"].([]any)[0].(map[string]any)
	if len(first) != 2 || first["term"] != "know" {
		t.Errorf("terms.alpha[0] = %v; want {term: know, score}", first)
	}
	if _, ok := first["score"].(float64); !ok {
		t.Errorf("terms.alpha[0].score = %v; want a number", first["score"])
	}
	odds, _ := got["log_odds"].(map[string]any)
	for _, gen := range []string{"alpha", "beta"} {
		list, _ := odds[gen].([]any)
		if len(list) == 0 {
			t.Fatalf("log_odds.%s = %v; want a list of words", gen, odds[gen])
		}
		w, _ := list[0].(map[string]any)
		if _, ok := w["z"].(float64); len(w) != 2 || !ok || w["term"] == nil {
			t.Errorf("log_odds.%s[0] = %v; want {term, z}", gen, w)
		}
	}
}

func TestWriteFormats(t *testing.T) {
	rep, err := Measure(handSet(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		report.FormatText:     "Authority",
		report.FormatMarkdown: "| alpha",
		report.FormatCSV:      "alpha,Authority,2,17,8.5,",
		report.FormatLaTeX:    `\toprule`,
	}
	for format, sub := range want {
		var buf bytes.Buffer
		if err := Write(&buf, rep, format); err != nil {
			t.Fatalf("Write(%s): %v", format, err)
		}
		if !strings.Contains(buf.String(), sub) || !strings.Contains(buf.String(), "Log-odds z") {
			t.Errorf("Write(%s) lacks %q or the log-odds column:\n%s", format, sub, buf.String())
		}
		// alpha's All row: TF-IDF know 0.894 beside log-odds know z 0.80.
		if !hasLine(buf.String(), "alpha", "All", "know 0.894", "know 0.80, may 0.52") {
			t.Errorf("Write(%s) has no line with alpha's TF-IDF terms beside its log-odds words:\n%s", format, buf.String())
		}
	}
	if err := Write(&bytes.Buffer{}, rep, "yaml"); err == nil {
		t.Error("Write(yaml) = nil; want an unknown-format error")
	}
}

// hasLine reports whether a line of text holds every one of subs.
func hasLine(text string, subs ...string) bool {
	for line := range strings.Lines(text) {
		ok := true
		for _, sub := range subs {
			ok = ok && strings.Contains(line, sub)
		}
		if ok {
			return true
		}
	}
	return false
}

func TestChart(t *testing.T) {
	rep, err := Measure(handSet(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := Chart(rep)
	if !slices.Equal(c.Groups, []string{"alpha", "beta"}) || !slices.Equal(c.Series, []string{"Neutral", "Authority", "Omission", "All"}) {
		t.Fatalf("Chart groups %v, series %v", c.Groups, c.Series)
	}
	// alpha Authority: 1 em-dash in 17 tokens; alpha has no Omission; beta Omission 1 in 5.
	if v := c.Values[0][1]; v == nil || !near(*v, 1.0/17) {
		t.Errorf("alpha/Authority = %v; want 1/17", v)
	}
	if c.Values[0][2] != nil {
		t.Errorf("alpha/Omission = %v; want no bar", *c.Values[0][2])
	}
	if v := c.Values[1][2]; v == nil || !near(*v, 0.2) {
		t.Errorf("beta/Omission = %v; want 0.2", v)
	}
	fig := Figure(rep)
	if fig.Name != FigureName || !bytes.Contains(fig.SVG, []byte("<svg")) || !bytes.Contains(fig.SVG, []byte(">beta<")) {
		t.Errorf("Figure = %s %.200s", fig.Name, fig.SVG)
	}
}

func TestMeasureEmpty(t *testing.T) {
	rep, err := Measure(nil, Options{})
	if err != nil || len(rep.Rows) != 0 || len(rep.Terms) != 0 {
		t.Fatalf("Measure(nil) = %+v, %v; want no rows", rep, err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, rep, report.FormatJSON); err != nil || !strings.Contains(buf.String(), `"rows": []`) {
		t.Errorf("Write(json) of nothing = %s, %v; want rows []", buf.String(), err)
	}
}

func BenchmarkMeasureReference(b *testing.B) {
	ds, err := seduce.Builtin(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Measure(ds.Samples, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(ds.Samples)), "samples/op")
}

// BenchmarkMeasureThreeGenerators measures a corpus the paper's size (5,376 samples):
// the bundled set three times over, under three generator names.
func BenchmarkMeasureThreeGenerators(b *testing.B) {
	ds, err := seduce.Builtin(nil)
	if err != nil {
		b.Fatal(err)
	}
	var corpus []seduce.Sample
	for _, gen := range []string{"claude", "gemini", "gpt"} {
		for _, s := range ds.Samples {
			s.Generator = gen
			corpus = append(corpus, s)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Measure(corpus, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(corpus)), "samples/op")
}
