package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// styleSet writes a two-generator dataset: one scenario each, four styles.
func styleSet(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, gen := range []string{"alpha", "beta"} {
		for i, style := range []string{"Neutral", "Authority", "Pseudo-Logic", "Omission"} {
			stmt := "I climb the wall."
			if gen == "beta" {
				stmt = "Biomechanically \u2014 measurably \u2014 the wall is climbable."
			}
			b.WriteString(`{"id":"` + gen + string(rune('0'+i)) + `","generator":"` + gen + `","setting":"1920s Urban","category":"PHY","skill":"Climb","scenario_id":"` + gen +
				`-s","context":"A wet brick wall.","statement":"` + stmt + `","style":"` + style + `","requires_roll":true,"gold_skill":"Climb"}` + "\n")
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
	// The file replaces the built-in list: "the" counts now, the file's words do not.
	if strings.Contains(r.stdout, "biomechanically") || !strings.Contains(r.stdout, "the ") {
		t.Errorf("terms with the stop-word file:\n%s", r.stdout)
	}
}
