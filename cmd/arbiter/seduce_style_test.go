package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// styleSet writes a two-generator dataset: one scenario each, four styles.
func styleSet(t *testing.T) string {
	t.Helper()
	return writeStyleSet(t, map[string][4]string{
		"alpha": {"I climb the wall.", "I climb the wall.", "I climb the wall.", "I climb the wall."},
		"beta": {"Biomechanically \u2014 measurably \u2014 the wall is climbable.", "Biomechanically \u2014 measurably \u2014 the wall is climbable.",
			"Biomechanically \u2014 measurably \u2014 the wall is climbable.", "Biomechanically \u2014 measurably \u2014 the wall is climbable."},
	})
}

// writeStyleSet writes a dataset with one scenario per generator whose four samples say
// the four statements (JSON-escaped), one per style.
func writeStyleSet(t *testing.T, statements map[string][4]string) string {
	t.Helper()
	var b strings.Builder
	for _, gen := range slices.Sorted(maps.Keys(statements)) {
		for i, style := range []string{"Neutral", "Authority", "Pseudo-Logic", "Omission"} {
			b.WriteString(`{"id":"` + gen + string(rune('0'+i)) + `","generator":"` + gen + `","setting":"1920s Urban","category":"PHY","skill":"Climb","scenario_id":"` + gen +
				`-s","context":"A wet brick wall.","statement":"` + statements[gen][i] + `","style":"` + style + `","requires_roll":true,"gold_skill":"Climb"}` + "\n")
		}
	}
	path := filepath.Join(t.TempDir(), "style.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSeduceStyleJSON(t *testing.T) {
	r := arbiter(t, nil, "seduce", "style", "--dataset", styleSet(t), "--format", "json")
	if r.code != 0 {
		t.Fatalf("seduce style: exit %d\n%s", r.code, r.stderr)
	}
	v := decodeJSON(t, r.stdout)
	rows, _ := v["rows"].([]any)
	if v["tokenizer"] != "o200k_base" || len(rows) != 10 {
		t.Fatalf("tokenizer %v, %d rows; want o200k_base and 2 x (4 styles + All)\n%s", v["tokenizer"], len(rows), r.stdout)
	}
	last := rows[9].(map[string]any)
	if last["generator"] != "beta" || last["style"] != "All" || last["em_dashes"] != 8.0 || last["samples"] != 4.0 {
		t.Errorf("last row = %v; want beta All with 8 em-dashes in 4 samples", last)
	}
	terms := v["terms"].(map[string]any)["beta"].([]any)
	if first := terms[0].(map[string]any)["term"]; first == "the" || first == nil {
		t.Errorf("beta's first term = %v; want a word that is not a stop word", first)
	}
}

func TestSeduceStyleTextAndFigure(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "figs")
	r := arbiter(t, nil, "seduce", "style", "--dataset", styleSet(t), "--figures", dir)
	if r.code != 0 {
		t.Fatalf("seduce style: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"Generator style", "Pseudo-Logic", "biomechanically", "o200k_base"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("text report lacks %q:\n%s", want, r.stdout)
		}
	}
	svg, err := os.ReadFile(filepath.Join(dir, "style_em_dashes.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if w, h, texts := svgDoc(t, svg); w != 504 || h != 216 || !slices.Contains(texts, "Pseudo-Logic") {
		t.Errorf("figure is %gx%gpt showing %q; want the default 504x216 with the styles in its legend", w, h, texts)
	}
}

func TestSeduceStyleBadInput(t *testing.T) {
	set := styleSet(t)
	stop := filepath.Join(t.TempDir(), "stop.txt")
	os.WriteFile(stop, []byte("the\nit's\n"), 0o644)
	tests := map[string]struct {
		args []string
		want string
	}{
		"format":     {[]string{"--dataset", set, "--format", "yaml"}, "--format"},
		"stop words": {[]string{"--dataset", set, "--stop-words", stop}, "stop.txt: line 2"},
		"no file":    {[]string{"--dataset", filepath.Join(t.TempDir(), "none.jsonl")}, "none.jsonl"},
		"top":        {[]string{"--dataset", set, "--top", "0"}, "--top"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			r := arbiter(t, nil, append([]string{"seduce", "style"}, tt.args...)...)
			if r.code != 2 || !strings.Contains(r.stderr, tt.want) || r.stdout != "" {
				t.Errorf("exit %d, stderr %q, stdout %q; want 2 naming %q and no report", r.code, r.stderr, r.stdout, tt.want)
			}
		})
	}
}

func TestSeduceStyleStopWordsFile(t *testing.T) {
	stop := filepath.Join(t.TempDir(), "stop.txt")
	os.WriteFile(stop, []byte("biomechanically\nmeasurably\nwall\nclimbable\n"), 0o644)
	r := arbiter(t, nil, "seduce", "style", "--dataset", styleSet(t), "--stop-words", stop, "--format", "csv")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	// The file replaces the built-in list: "is" counts now (beta's only term, as "the"
	// is in both), the file's words do not.
	if strings.Contains(r.stdout, "biomechanically") || !strings.Contains(r.stdout, "\nbeta,All,is 1.000,") {
		t.Errorf("terms with the stop-word file:\n%s", r.stdout)
	}
}

// TestSeduceStyleSharedWords is the case on the command line: every generator
// says "check", "gate" and "expert" equally often and "shadow" at different rates; each
// has one word of its own. None of the shared words is a term, the planted word leads
// the terms and the log-odds words in the JSON, and every other format shows the
// log-odds words beside the terms on the generator's All row.
func TestSeduceStyleSharedWords(t *testing.T) {
	set := writeStyleSet(t, map[string][4]string{
		"alpha": {"Check the gate, expert.", "Check the gate, expert: crimson.", "Check the gate, expert: crimson shadow.", "Check the gate, expert."},
		"beta":  {"Check the gate, expert.", "Check the gate, expert: azure.", "Check the gate, expert: azure shadow.", "Check the gate, expert: shadow."},
		"gamma": {"Check the gate, expert: shadow.", "Check the gate, expert: verdant.", "Check the gate, expert: verdant shadow.", "Check the gate, expert: shadow."},
	})
	r := arbiter(t, nil, "seduce", "style", "--dataset", set, "--format", "json")
	if r.code != 0 {
		t.Fatalf("seduce style: exit %d\n%s", r.code, r.stderr)
	}
	v := decodeJSON(t, r.stdout)
	terms, _ := v["terms"].(map[string]any)
	odds, _ := v["log_odds"].(map[string]any)
	planted := map[string]string{"alpha": "crimson", "beta": "azure", "gamma": "verdant"}
	leadZ := map[string]float64{}
	for gen, word := range planted {
		list, _ := terms[gen].([]any)
		for _, x := range list {
			if term := x.(map[string]any)["term"]; slices.Contains([]any{"check", "gate", "expert", "shadow"}, term) {
				t.Errorf("terms.%s = %v; lists %v, which every generator uses", gen, list, term)
			}
		}
		if len(list) == 0 || list[0].(map[string]any)["term"] != word {
			t.Errorf("terms.%s = %v; want %s first", gen, list, word)
		}
		olist, _ := odds[gen].([]any)
		if len(olist) == 0 || olist[0].(map[string]any)["term"] != word {
			t.Fatalf("log_odds.%s = %v; want %s first", gen, odds[gen], word)
		}
		leadZ[gen], _ = olist[0].(map[string]any)["z"].(float64)
	}
	for _, format := range []string{"text", "md", "csv", "latex"} {
		r := arbiter(t, nil, "seduce", "style", "--dataset", set, "--format", format)
		if r.code != 0 {
			t.Fatalf("seduce style --format %s: exit %d\n%s", format, r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, "Log-odds z") {
			t.Errorf("--format %s has no log-odds column:\n%s", format, r.stdout)
		}
		// alpha's only term is crimson (beta's and gamma's words are theirs alone too).
		tfidf, z := "crimson 1.000", fmt.Sprintf("crimson %.2f", leadZ["alpha"])
		if !slices.ContainsFunc(strings.Split(r.stdout, "\n"), func(line string) bool {
			return strings.Contains(line, "alpha") && strings.Contains(line, "All") && strings.Contains(line, tfidf) && strings.Contains(line, z)
		}) {
			t.Errorf("--format %s has no line with alpha's All row, %q and %q:\n%s", format, tfidf, z, r.stdout)
		}
	}
}
