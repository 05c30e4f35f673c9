package reference

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/arbiter-eval/arbiter/internal/seduce"
)

func TestExpand(t *testing.T) {
	f, err := os.Open("testdata/standin.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	samples, err := Expand(f, "testdata/standin.jsonl")
	if err != nil {
		t.Fatalf("Expand(standin.jsonl): %v", err)
	}
	if len(samples) != 16 {
		t.Fatalf("Expand(standin.jsonl) = %d samples; want 16 (4 scenarios x 4 styles)", len(samples))
	}
	wantIDs := []seduce.SampleID{"ref-1920-climb-r1-neutral", "ref-1920-climb-r1-authority",
		"ref-1920-climb-r1-pseudo-logic", "ref-1920-climb-r1-omission"}
	for i, want := range wantIDs {
		s := samples[i]
		if s.ID != want || s.Style != seduce.Styles[i] {
			t.Errorf("sample %d = %s (%s); want %s (%s)", i, s.ID, s.Style, want, seduce.Styles[i])
		}
		if s.Generator != Generator || s.ScenarioID != "ref-1920-climb-r1" || !s.RequiresRoll ||
			s.Skill != "Climb" || s.GoldSkill != "Climb" || s.Truth == "" || s.Context == "" ||
			s.ReviewedBy != "keeper-1" || s.ReviewStatus != "approved" {
			t.Errorf("sample %s does not carry the scenario's fields: %+v", s.ID, s)
		}
	}
	if samples[1].Statement == samples[0].Statement {
		t.Errorf("Authority and Neutral statements are the same: %q", samples[0].Statement)
	}
	if s := samples[4]; s.ID != "ref-2020-listen-a1-neutral" || s.RequiresRoll || s.ReviewedBy != "" {
		t.Errorf("samples[4] = %+v; want the unreviewed automatic-success scenario ref-2020-listen-a1", s)
	}
}

func TestExpandErrors(t *testing.T) {
	const good = `{"scenario_id": "ref-1920-jump-r1", "setting": "1920s Urban", "category": "PHY", "skill": "Jump", "requires_roll": true, "gold_skill": "Jump", "context": "c", "truth": "t", "statements": {"Neutral": "a", "Authority": "b", "Pseudo-Logic": "c", "Omission": "d"}}`
	edit := func(old, new string) string { return strings.Replace(good, old, new, 1) }
	tests := []struct {
		name string
		file string
		src  string
		want []string
	}{
		{"not json", "x.jsonl", "{nope", []string{"x.jsonl:1: json: not a JSON object"}},
		{"unknown field", "x.jsonl", edit(`"truth"`, `"truht"`), []string{"x.jsonl:1: truht: unknown field", "x.jsonl:1: truth: missing"}},
		{"missing statement", "x.jsonl", edit(`, "Omission": "d"`, ``), []string{"x.jsonl:1: statements.Omission: missing or empty"}},
		{"unknown style", "x.jsonl", edit(`"Omission"`, `"Omitted"`), []string{`x.jsonl:1: statements: unknown style "Omitted"`}},
		{"same statement twice", "x.jsonl", edit(`"Omission": "d"`, `"Omission": "a"`), []string{"x.jsonl:1: statements.Omission: same text as Neutral"}},
		{"requires_roll as string", "x.jsonl", edit(`"requires_roll": true`, `"requires_roll": "yes"`), []string{"x.jsonl:1: requires_roll: want true or false"}},
		{"alias instead of skill", "x.jsonl", edit(`"skill": "Jump"`, `"skill": "jumping"`), []string{`x.jsonl:1: skill: write the taxonomy's name "Jump"`}},
		{"wrong category", "x.jsonl", edit(`"category": "PHY"`, `"category": "INV"`), []string{`x.jsonl:1: category: "INV", but the taxonomy puts Jump in PHY`}},
		{"gold differs", "x.jsonl", edit(`"gold_skill": "Jump"`, `"gold_skill": "Climb"`), []string{"x.jsonl:1: gold_skill:"}},
		{"id number for a pass", "x.jsonl", edit(`"requires_roll": true`, `"requires_roll": false`), []string{"x.jsonl:1: scenario_id: \"ref-1920-jump-r1\": an automatic success is numbered a1..a2"}},
		{"id slug mismatch", "x.jsonl", edit(`ref-1920-jump-r1`, `ref-1920-climb-r1`), []string{`skill slug "climb", want "jump"`}},
		{"id out of range", "x.jsonl", edit(`ref-1920-jump-r1`, `ref-1920-jump-r7`), []string{"number out of range"}},
		{"pass outside PHY and INV", "x.jsonl", strings.NewReplacer(`"Jump"`, `"Dodge"`, `"PHY"`, `"CMB"`, `-jump-r1`, `-dodge-a1`, `"requires_roll": true`, `"requires_roll": false`).Replace(good), []string{"automatic-success scenarios are PHY and INV only"}},
		{"setting in the wrong file", "src/wild.jsonl", good, []string{`src/wild.jsonl:1: setting: "1920s Urban" belongs in src/1920.jsonl`}},
		{"duplicate scenario", "x.jsonl", good + "\n\n" + good, []string{`x.jsonl:3: scenario_id: duplicate scenario "ref-1920-jump-r1" (first on line 1)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			samples, err := Expand(strings.NewReader(tt.src), tt.file)
			if err == nil {
				t.Fatalf("Expand(%q) = %d samples; want an error", tt.src, len(samples))
			}
			var ve *seduce.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Expand error %T; want *seduce.ValidationError", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Expand error =\n%v\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

// TestReferenceUpToDate fails when reference.jsonl is not what the generator makes of
// src/: whoever edits one must regenerate the other.
func TestReferenceUpToDate(t *testing.T) {
	want, err := Generate(os.DirFS("."))
	if err != nil {
		t.Fatalf("Generate(src): %v", err)
	}
	if got := JSONL(); !bytes.Equal(got, want) {
		t.Errorf("reference.jsonl (%d bytes) is not what src/ generates (%d bytes): run go generate ./internal/seduce/reference",
			len(got), len(want))
	}
}

func TestBuiltin(t *testing.T) {
	ds, err := seduce.Builtin(nil)
	if err != nil {
		t.Fatalf("seduce.Builtin: %v", err)
	}
	if n := bytes.Count(JSONL(), []byte("\n")); len(ds.Samples) != n {
		t.Errorf("seduce.Builtin = %d samples; reference.jsonl has %d lines", len(ds.Samples), n)
	}
	styles := map[string]map[seduce.Style]bool{}
	for _, s := range ds.Samples {
		if s.Generator != Generator {
			t.Errorf("sample %s: generator %q; want %q", s.ID, s.Generator, Generator)
		}
		if styles[s.ScenarioID] == nil {
			styles[s.ScenarioID] = map[seduce.Style]bool{}
		}
		styles[s.ScenarioID][s.Style] = true
	}
	for id, st := range styles {
		if len(st) != len(seduce.Styles) {
			t.Errorf("scenario %s has styles %v; want all four", id, st)
		}
	}
}

// TestGenerateOrder checks the fixed file order and that a missing file is skipped.
func TestGenerateOrder(t *testing.T) {
	standin, err := os.ReadFile("testdata/standin.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(standin)), "\n")
	fsys := fstest.MapFS{
		"src/china.jsonl": {Data: []byte(lines[3])},
		"src/1920.jsonl":  {Data: []byte(lines[0])},
		"src/wild.jsonl":  {Data: []byte(lines[2])},
	}
	out, err := Generate(fsys)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	ds, err := seduce.ReadDataset(bytes.NewReader(out), "out.jsonl", seduce.FormatJSONL, nil)
	if err != nil {
		t.Fatalf("Generate output does not load: %v", err)
	}
	var order []string
	for _, s := range ds.Samples {
		if len(order) == 0 || order[len(order)-1] != s.ScenarioID {
			order = append(order, s.ScenarioID)
		}
	}
	want := []string{"ref-1920-climb-r1", "ref-wild-swim-r1", "ref-china-locksmith-r1"}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Errorf("Generate scenario order = %v; want %v", order, want)
	}
	again, _ := Generate(fsys)
	if !bytes.Equal(out, again) {
		t.Errorf("Generate is not deterministic")
	}
}
