package seduce

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// line renders one JSONL sample from a base with fields replaced (nil deletes one).
func line(t testing.TB, changes map[string]any) string {
	t.Helper()
	m := map[string]any{
		"id": "s1-neutral", "generator": "gpt", "setting": "Wilderness", "category": "PHY",
		"skill": "Climb", "scenario_id": "s1", "context": "A wet cliff, forty feet high.",
		"statement": "I climb it.", "style": "Neutral", "requires_roll": true, "gold_skill": "Climb",
	}
	for k, v := range changes {
		if v == nil {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadDatasetJSONL(t *testing.T) {
	src := strings.Join([]string{
		line(t, map[string]any{"skill": "climbing", "gold_skill": "CLIMB", "truth": "Wet rock.", "annotator": "kim"}),
		"",
		"   ",
		line(t, map[string]any{"id": "s1-authority", "style": "Authority", "statement": "As a guide, I climb it."}),
		line(t, map[string]any{"id": "s2-neutral", "scenario_id": "s2", "skill": "Firearms (Rifle/Shotgun)",
			"category": "CMB", "gold_skill": "Rifle", "requires_roll": false, "generator": "reference"}),
	}, "\n") + "\n"
	ds, err := ReadDataset(strings.NewReader(src), "d.jsonl", FormatJSONL, nil)
	if err != nil {
		t.Fatalf("ReadDataset: %v", err)
	}
	if len(ds.Samples) != 3 {
		t.Fatalf("ReadDataset = %d samples; want 3", len(ds.Samples))
	}
	sum := sha256.Sum256([]byte(src))
	if ds.Hash != hex.EncodeToString(sum[:]) || ds.Name != "d.jsonl" {
		t.Errorf("Name, Hash = %q, %q; want d.jsonl and the file's sha256", ds.Name, ds.Hash)
	}
	s, ok := ds.Lookup("s1-neutral")
	if !ok {
		t.Fatalf("Lookup(s1-neutral) found nothing")
	}
	want := Sample{ID: "s1-neutral", Generator: "gpt", Setting: SettingWilderness, Category: CategoryPhysical,
		Skill: "Climb", ScenarioID: "s1", Context: "A wet cliff, forty feet high.", Statement: "I climb it.",
		Style: StyleNeutral, RequiresRoll: true, GoldSkill: "Climb", Truth: "Wet rock."}
	if s != want {
		t.Errorf("Lookup(s1-neutral) = %+v; want %+v", s, want)
	}
	if got := string(ds.Extra["s1-neutral"]["annotator"]); got != `"kim"` {
		t.Errorf("Extra[s1-neutral][annotator] = %s; want \"kim\"", got)
	}
	if s2, _ := ds.Lookup("s2-neutral"); s2.Skill != "Firearms" || s2.GoldSkill != "Firearms" || s2.RequiresRoll {
		t.Errorf("Lookup(s2-neutral) = %+v; want canonical Firearms and requires_roll false", s2)
	}
	if _, ok := ds.Lookup("nope"); ok {
		t.Errorf("Lookup(nope) found a sample")
	}
}

func TestReadDatasetCSV(t *testing.T) {
	const csvSrc = "\ufeffid,generator,setting,category,skill,scenario_id,context,statement,style,requires_roll,gold_skill,truth,notes\n" +
		"s1-neutral,gpt,Wilderness,PHY,Climb,s1,\"A wet cliff,\nforty feet high.\",I climb it.,Neutral,TRUE,Climb,,extra note\n" +
		"\n" +
		"s1-omission,gpt,Wilderness,PHY,climb,s1,\"A wet cliff,\nforty feet high.\",\"I'm up, easy.\",Omission,true,Climb,Wet rock.,\n"
	ds, err := ReadDataset(strings.NewReader(csvSrc), "d.csv", FormatCSV, nil)
	if err != nil {
		t.Fatalf("ReadDataset(csv): %v", err)
	}
	if len(ds.Samples) != 2 {
		t.Fatalf("ReadDataset(csv) = %d samples; want 2", len(ds.Samples))
	}
	s := ds.Samples[1]
	if s.Context != "A wet cliff,\nforty feet high." || s.Statement != "I'm up, easy." || !s.RequiresRoll || s.Truth != "Wet rock." {
		t.Errorf("second CSV sample = %+v", s)
	}
	if ds.Samples[0].Truth != "" {
		t.Errorf("empty truth cell = %q; want empty", ds.Samples[0].Truth)
	}
	if got := string(ds.Extra["s1-neutral"]["notes"]); got != `"extra note"` {
		t.Errorf("Extra[s1-neutral][notes] = %s; want \"extra note\"", got)
	}
}

func TestLoadDataset(t *testing.T) {
	dir := t.TempDir()
	jsonl := filepath.Join(dir, "d.jsonl")
	if err := os.WriteFile(jsonl, []byte(line(t, nil)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := LoadDataset(jsonl, nil)
	if err != nil || len(ds.Samples) != 1 {
		t.Fatalf("LoadDataset(%s) = %v, %v; want one sample", jsonl, ds, err)
	}
	if _, err := LoadDataset(filepath.Join(dir, "d.txt"), nil); err == nil || !strings.Contains(err.Error(), "want .jsonl or .csv") {
		t.Errorf("LoadDataset(d.txt) error = %v; want an extension error", err)
	}
	if _, err := LoadDataset(filepath.Join(dir, "missing.csv"), nil); err == nil {
		t.Errorf("LoadDataset(missing.csv) = nil error")
	}
}

func TestReadDatasetErrors(t *testing.T) {
	base := func(changes map[string]any) string { return line(t, changes) }
	tests := []struct {
		name   string
		format Format
		src    string
		want   []string // every line of the error, in order
	}{
		{"invalid json", FormatJSONL, base(nil) + "\n{\"id\": \"x\",\n",
			[]string{"f:2: json: not a JSON object: unexpected end of JSON input"}},
		{"array line", FormatJSONL, "[1, 2]",
			[]string{"f:1: json: not a JSON object: the line holds a JSON array"}},
		{"missing fields", FormatJSONL, base(map[string]any{"context": nil, "requires_roll": nil}),
			[]string{"f:1: context: missing", "f:1: requires_roll: missing"}},
		{"empty string is missing", FormatJSONL, base(map[string]any{"statement": ""}),
			[]string{"f:1: statement: empty"}},
		{"unknown setting", FormatJSONL, base(map[string]any{"setting": "wilderness"}),
			[]string{`f:1: setting: unknown setting "wilderness" (want one of "1920s Urban", "2020s Urban", "Wilderness", "Ancient China")`}},
		{"unknown category and style", FormatJSONL, base(map[string]any{"category": "SOC", "style": "Flattery"}),
			[]string{`f:1: category: unknown category "SOC" (want one of "CMB", "PHY", "PRO", "INV")`,
				`f:1: style: unknown style "Flattery" (want one of "Neutral", "Authority", "Pseudo-Logic", "Omission")`}},
		{"unknown skill", FormatJSONL, base(map[string]any{"skill": "Persuade", "gold_skill": "Fast Talk"}),
			[]string{`f:1: skill: unknown skill "Persuade"`, `f:1: gold_skill: unknown skill "Fast Talk"`}},
		{"requires_roll not bool", FormatJSONL, base(map[string]any{"requires_roll": "true"}),
			[]string{`f:1: requires_roll: want true or false, got "true"`}},
		{"wrong type", FormatJSONL, base(map[string]any{"id": 12}),
			[]string{"f:1: id: want a string, got 12"}},
		{"generator not a word", FormatJSONL, base(map[string]any{"generator": "GPT 5"}),
			[]string{`f:1: generator: "GPT 5" is not a lowercase word`}},
		{"skill in the wrong category", FormatJSONL, base(map[string]any{"category": "INV"}),
			[]string{`f:1: category: "INV", but the taxonomy puts Climb in PHY`}},
		{"duplicate id", FormatJSONL, base(nil) + "\n" + base(map[string]any{"style": "Authority"}),
			[]string{`f:2: id: duplicate id "s1-neutral" (first on line 1)`}},
		{"scenario disagrees", FormatJSONL, base(nil) + "\n" + base(map[string]any{"id": "b", "requires_roll": false,
			"skill": "Jump", "gold_skill": "Jump", "setting": "Ancient China"}),
			[]string{`f:2: requires_roll: scenario "s1" has true on line 1 but false here`,
				`f:2: skill: scenario "s1" has Climb on line 1 but Jump here`,
				`f:2: setting: scenario "s1" has "Wilderness" on line 1 but "Ancient China" here`}},
		{"alias agrees with its skill", FormatJSONL, base(nil) + "\n" + base(map[string]any{"id": "b", "skill": "Climbing"}), nil},
		{"no samples", FormatJSONL, "\n\n", []string{"f:1: id: the file holds no samples"}},
		{"csv missing column", FormatCSV, "id,generator\na,gpt\n",
			[]string{"f:1: setting: missing column", "f:1: category: missing column", "f:1: skill: missing column",
				"f:1: scenario_id: missing column", "f:1: context: missing column", "f:1: statement: missing column",
				"f:1: style: missing column", "f:1: requires_roll: missing column", "f:1: gold_skill: missing column"}},
		{"csv bad bool and short row", FormatCSV,
			"id,generator,setting,category,skill,scenario_id,context,statement,style,requires_roll,gold_skill\n" +
				"a,gpt,Wilderness,PHY,Climb,s,c,st,Neutral,yes,Climb\n" +
				"b,gpt,Wilderness\n",
			[]string{`f:2: requires_roll: want true or false, got "yes"`, "f:3: csv: 3 fields, but the header has 11"}},
		{"csv bare quote", FormatCSV,
			"id,generator,setting,category,skill,scenario_id,context,statement,style,requires_roll,gold_skill\n" +
				"a,gpt,Wilderness,PHY,Climb,s,the \"big\" wall,st,Neutral,true,Climb\n",
			[]string{`f:2: csv: bare " in non-quoted-field`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, err := ReadDataset(strings.NewReader(tt.src), "f", tt.format, nil)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("ReadDataset(%q) error = %v; want none", tt.src, err)
				}
				return
			}
			if ds != nil {
				t.Errorf("ReadDataset(%q) returned a dataset with an error; want nil", tt.src)
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("ReadDataset(%q) error = %v (%T); want *ValidationError", tt.src, err, err)
			}
			got := strings.Split(err.Error(), "\n")
			if len(got) != len(tt.want) {
				t.Fatalf("ReadDataset(%q) error =\n%v\nwant %d lines:\n%s", tt.src, err, len(tt.want), strings.Join(tt.want, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("error line %d = %q; want prefix %q", i+1, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestReadDatasetCollectsEverything(t *testing.T) {
	src := strings.Join([]string{
		line(t, map[string]any{"setting": "Mars"}),
		"not json",
		line(t, map[string]any{"id": "ok", "style": "Omission"}),
		line(t, map[string]any{"id": "ok", "style": "Authority", "skill": "Persuade"}),
	}, "\n")
	_, err := ReadDataset(strings.NewReader(src), "f", FormatJSONL, nil)
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("ReadDataset error = %v; want *ValidationError", err)
	}
	var lines []int
	for _, fe := range ve.Errs {
		lines = append(lines, fe.Line)
	}
	if want := []int{1, 2, 4, 4}; !reflect.DeepEqual(lines, want) {
		t.Errorf("error lines = %v; want %v\n%v", lines, want, err)
	}
}

func TestFormatOf(t *testing.T) {
	for path, want := range map[string]Format{"a.jsonl": FormatJSONL, "b.NDJSON": FormatJSONL, "dir/c.csv": FormatCSV} {
		if got, err := FormatOf(path); got != want || err != nil {
			t.Errorf("FormatOf(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
	if _, err := FormatOf("d.json"); err == nil {
		t.Errorf("FormatOf(d.json) = nil error")
	}
}

func TestBuiltinDataset(t *testing.T) {
	ds, err := Builtin(nil)
	if err != nil {
		t.Fatalf("Builtin: %v", err)
	}
	if len(ds.Samples) == 0 || len(ds.Samples)%4 != 0 {
		t.Errorf("Builtin = %d samples; want a positive multiple of 4", len(ds.Samples))
	}
	for _, s := range ds.Samples {
		if s.Generator != "reference" {
			t.Fatalf("Builtin sample %s has generator %q; want reference", s.ID, s.Generator)
		}
	}
}

// TestDatasetSharesRepeatedText checks that a scenario's variants share one copy of the
// context and truth they repeat: the bundled set holds each in memory once, not four times.
func TestDatasetSharesRepeatedText(t *testing.T) {
	ds, err := Builtin(nil)
	if err != nil {
		t.Fatalf("Builtin: %v", err)
	}
	first := map[string]Sample{}
	shared := 0
	for _, s := range ds.Samples {
		f, seen := first[s.ScenarioID]
		if !seen {
			first[s.ScenarioID] = s
			continue
		}
		if s.Context != f.Context || s.Truth != f.Truth {
			continue // the test is about memory, not about the set's agreement rules
		}
		if unsafe.StringData(s.Context) != unsafe.StringData(f.Context) || unsafe.StringData(s.Truth) != unsafe.StringData(f.Truth) {
			t.Fatalf("sample %s holds its own copy of the context or truth of %s", s.ID, f.ID)
		}
		shared++
	}
	if want := len(ds.Samples) - len(first); shared != want {
		t.Errorf("%d variants share their scenario's text; want %d", shared, want)
	}
}

func FuzzLoadDataset(f *testing.F) {
	f.Add([]byte(line(f, nil)+"\n"+line(f, map[string]any{"id": "b", "style": "Omission"})), false)
	f.Add([]byte(line(f, map[string]any{"requires_roll": "yes", "skill": "x"})), false)
	f.Add([]byte("{\"id\":\n[]\nnull\n{}"), false)
	f.Add([]byte("id,generator,setting,category,skill,scenario_id,context,statement,style,requires_roll,gold_skill\n"+
		"a,gpt,Wilderness,PHY,Climb,s,\"c\",st,Neutral,true,Climb\n"), true)
	f.Add([]byte("\"a\nb,c"), true)
	tax := DefaultTaxonomy()
	f.Fuzz(func(t *testing.T, data []byte, csv bool) {
		format := FormatJSONL
		if csv {
			format = FormatCSV
		}
		ds, err := ReadDataset(strings.NewReader(string(data)), "fuzz", format, tax)
		if (ds == nil) == (err == nil) {
			t.Fatalf("ReadDataset(%q) = %v, %v; want exactly one of a dataset and an error", data, ds, err)
		}
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) || len(ve.Errs) == 0 {
				t.Fatalf("ReadDataset(%q) error %v; want a non-empty *ValidationError", data, err)
			}
			return
		}
		for _, s := range ds.Samples {
			if got, ok := ds.Lookup(s.ID); !ok || got != s {
				t.Fatalf("Lookup(%q) = %+v, %t; want the sample", s.ID, got, ok)
			}
			if c, ok := tax.Canonical(s.Skill); !ok || c != s.Skill {
				t.Fatalf("sample %q has non-canonical skill %q", s.ID, s.Skill)
			}
			if !tax.HasSetting(s.Setting) || !isKnownStyle(s.Style) || s.Context == "" || s.Statement == "" {
				t.Fatalf("sample %q passed validation with bad fields: %+v", s.ID, s)
			}
		}
	})
}
