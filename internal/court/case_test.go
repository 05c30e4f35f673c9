package court

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func fixture(t testing.TB) *Case {
	t.Helper()
	cs, err := LoadCases("testdata/lantern.json")
	if err != nil {
		t.Fatalf("LoadCases: %v", err)
	}
	return cs[0]
}

func TestLoadCasesFixture(t *testing.T) {
	c := fixture(t)
	if c.ID != "lantern-theft" || c.Kind != Criminal || len(c.Evidence) != 2 || len(c.Witnesses) != 2 {
		t.Fatalf("LoadCases = %+v", c)
	}
	if w, ok := c.Witness("nell"); !ok || w.CalledBy != CalledByDefense || len(w.Knows) != 2 {
		t.Errorf("Witness(nell) = %+v, %v", w, ok)
	}
	if c.Source != "testdata/lantern.json" {
		t.Errorf("Source = %q", c.Source)
	}
	// The unknown field is kept and written back.
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"setting_notes":"kept but ignored"`)) {
		t.Errorf("Marshal lost the unknown field: %s", b)
	}
	again, err := ParseCases(b, "again.json")
	if err != nil {
		t.Fatalf("ParseCases(Marshal(c)): %v", err)
	}
	if again[0].Summary != c.Summary || string(again[0].Extra["setting_notes"]) != `"kept but ignored"` {
		t.Errorf("round trip changed the case: %+v", again[0])
	}
	if err := Validate(c, "x.json"); err != nil {
		t.Errorf("Validate(fixture) = %v", err)
	}
}

// mutate loads the fixture as a generic object, applies f and re-encodes it.
func mutate(t *testing.T, f func(m map[string]any)) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/lantern.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func witness(m map[string]any, i int) map[string]any {
	return m["witnesses"].([]any)[i].(map[string]any)
}

// planted gives the fixture two valid contradictions and returns the first, to edit.
func planted(m map[string]any) map[string]any {
	m["contradictions"] = []any{
		map[string]any{"id": "C1", "witness": "tomas", "claim": "he saw Varga's face", "evidence": []any{"E1"}, "explanation": "the log shows the key back at 23:55"},
		map[string]any{"id": "C2", "witness": "nell", "claim": "the pawner was a woman", "evidence": []any{"E2"}, "explanation": "the ticket is signed by M. Orr"},
	}
	return m["contradictions"].([]any)[0].(map[string]any)
}

func TestValidateRules(t *testing.T) {
	tests := []struct {
		name string
		f    func(m map[string]any)
		want string
	}{
		{"knows empty", func(m map[string]any) { witness(m, 1)["knows"] = []any{} }, "cases/museum.json: witnesses[1].knows: must not be empty"},
		{"knows item blank", func(m map[string]any) { witness(m, 0)["knows"] = []any{"x", "  "} }, "cases/museum.json: witnesses[0].knows[1]: must not be empty"},
		{"knows not a list", func(m map[string]any) { witness(m, 0)["knows"] = "everything" }, "cases/museum.json: witnesses[0].knows: want a list, got text"},
		{"case id pattern", func(m map[string]any) { m["case_id"] = "Museum Code" }, `cases/museum.json: case_id: "Museum Code": want 1 to 64 of a-z, 0-9 and -`},
		{"case id too long", func(m map[string]any) { m["case_id"] = strings.Repeat("a", 65) }, "cases/museum.json: case_id: \"" + strings.Repeat("a", 65) + "\": want 1 to 64 of a-z, 0-9 and -"},
		{"case id missing", func(m map[string]any) { delete(m, "case_id") }, "cases/museum.json: case_id: missing"},
		{"kind", func(m map[string]any) { m["kind"] = "military" }, `cases/museum.json: kind: "military": want criminal or civil`},
		{"title blank", func(m map[string]any) { m["title"] = " " }, "cases/museum.json: title: must not be empty"},
		{"title type", func(m map[string]any) { m["title"] = 7 }, "cases/museum.json: title: want text, got a number"},
		{"defendant name", func(m map[string]any) { m["defendant"] = map[string]any{"description": "x"} }, "cases/museum.json: defendant.name: missing"},
		{"defendant type", func(m map[string]any) { m["defendant"] = "Ilse" }, "cases/museum.json: defendant: want an object, got text"},
		{"evidence empty", func(m map[string]any) { m["evidence"] = []any{} }, "cases/museum.json: evidence: must not be empty: a case needs at least one item of evidence"},
		{"evidence dup id", func(m map[string]any) { m["evidence"].([]any)[1].(map[string]any)["id"] = "E1" }, `cases/museum.json: evidence[1].id: "E1" is also the id of evidence[0]`},
		{"evidence item type", func(m map[string]any) { m["evidence"].([]any)[0] = "E1" }, "cases/museum.json: evidence[0]: want an object, got text"},
		{"no witnesses", func(m map[string]any) { m["witnesses"] = []any{} }, "cases/museum.json: witnesses: has 0 witnesses: want 1 to 8"},
		{"nine witnesses", func(m map[string]any) {
			var ws []any
			for i := range 9 {
				w := map[string]any{}
				for k, v := range witness(m, 0) {
					w[k] = v
				}
				w["id"] = "w" + string(rune('a'+i))
				ws = append(ws, w)
			}
			m["witnesses"] = ws
		}, "cases/museum.json: witnesses: has 9 witnesses: want 1 to 8"},
		{"witness id pattern", func(m map[string]any) { witness(m, 0)["id"] = "Tomas_B" }, `cases/museum.json: witnesses[0].id: "Tomas_B": want a-z, 0-9 and - only`},
		{"witness dup id", func(m map[string]any) { witness(m, 1)["id"] = "tomas" }, `cases/museum.json: witnesses[1].id: "tomas" is also the id of witnesses[0]`},
		{"called_by", func(m map[string]any) { witness(m, 1)["called_by"] = "jury" }, `cases/museum.json: witnesses[1].called_by: "jury": want prosecution, defense or court`},
		{"defense goal", func(m map[string]any) { delete(m, "defense_goal") }, "cases/museum.json: defense_goal: missing"},
		{"prior type", func(m map[string]any) { m["prior"] = []any{} }, "cases/museum.json: prior: want text, got a list"},
		{"contradictions not a list", func(m map[string]any) { m["contradictions"] = "C1" }, "cases/museum.json: contradictions: want a list, got text"},
		{"contradiction not an object", func(m map[string]any) { planted(m); m["contradictions"].([]any)[1] = "C2" }, "cases/museum.json: contradictions[1]: want an object, got text"},
		{"contradiction id missing", func(m map[string]any) { delete(planted(m), "id") }, "cases/museum.json: contradictions[0].id: missing"},
		{"contradiction dup id", func(m map[string]any) { planted(m); m["contradictions"].([]any)[1].(map[string]any)["id"] = "C1" }, `cases/museum.json: contradictions[1].id: "C1" is also the id of contradictions[0]`},
		{"contradiction witness unknown", func(m map[string]any) { planted(m)["witness"] = "mara" }, `cases/museum.json: contradictions[0].witness: "mara" is not a witness of this case`},
		{"contradiction witness missing", func(m map[string]any) { delete(planted(m), "witness") }, "cases/museum.json: contradictions[0].witness: missing"},
		{"contradiction claim blank", func(m map[string]any) { planted(m)["claim"] = " " }, "cases/museum.json: contradictions[0].claim: must not be empty"},
		{"contradiction explanation missing", func(m map[string]any) { delete(planted(m), "explanation") }, "cases/museum.json: contradictions[0].explanation: missing"},
		{"contradiction evidence missing", func(m map[string]any) { delete(planted(m), "evidence") }, "cases/museum.json: contradictions[0].evidence: missing"},
		{"contradiction evidence empty", func(m map[string]any) { planted(m)["evidence"] = []any{} }, "cases/museum.json: contradictions[0].evidence: must not be empty: name the item or items that break the claim"},
		{"contradiction evidence unknown", func(m map[string]any) { planted(m)["evidence"] = []any{"E1", "E9"} }, `cases/museum.json: contradictions[0].evidence[1]: "E9" is not an evidence id of this case`},
		{"contradiction evidence type", func(m map[string]any) { planted(m)["evidence"] = []any{1} }, "cases/museum.json: contradictions[0].evidence[0]: want an evidence id, got a number"},
		{"contradiction evidence not a list", func(m map[string]any) { planted(m)["evidence"] = "E1" }, "cases/museum.json: contradictions[0].evidence: want a list, got text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, err := ParseCases(mutate(t, tt.f), "cases/museum.json")
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("ParseCases = %v, %v; want a *ValidationError", cs, err)
			}
			if cs != nil {
				t.Errorf("ParseCases returned cases with an error")
			}
			if got := ve.Errs[0].Error(); got != tt.want || len(ve.Errs) != 1 {
				t.Errorf("ParseCases error = %q (%d errors); want %q", err, len(ve.Errs), tt.want)
			}
		})
	}
}

// TestContradictionsOptional: a hand-written case may leave contradictions out, or
// give none, and one that has them keeps them through a round trip.
func TestContradictionsOptional(t *testing.T) {
	tests := []struct {
		name string
		f    func(m map[string]any)
		want int
	}{
		{"absent", func(m map[string]any) { delete(m, "contradictions") }, 0},
		{"null", func(m map[string]any) { m["contradictions"] = nil }, 0},
		{"empty", func(m map[string]any) { m["contradictions"] = []any{} }, 0},
		{"two", func(m map[string]any) { planted(m) }, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, err := ParseCases(mutate(t, tt.f), "cases/lantern.json")
			if err != nil {
				t.Fatalf("ParseCases = %v", err)
			}
			c := cs[0]
			if len(c.Contradictions) != tt.want {
				t.Fatalf("%d contradictions; want %d", len(c.Contradictions), tt.want)
			}
			if err := Validate(c, "again.json"); err != nil {
				t.Errorf("Validate = %v", err)
			}
			b, err := json.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			again, err := ParseCases(b, "again.json")
			if err != nil || !reflect.DeepEqual(again[0].Contradictions, c.Contradictions) {
				t.Errorf("round trip = %+v, %v; want %+v", again[0].Contradictions, err, c.Contradictions)
			}
		})
	}
	t.Run("fields", func(t *testing.T) {
		cs, err := ParseCases(mutate(t, func(m map[string]any) { planted(m) }), "cases/lantern.json")
		if err != nil {
			t.Fatal(err)
		}
		want := Contradiction{ID: "C2", Witness: "nell", Claim: "the pawner was a woman", Evidence: []string{"E2"}, Explanation: "the ticket is signed by M. Orr"}
		if got := cs[0].Contradictions[1]; !reflect.DeepEqual(got, want) {
			t.Errorf("Contradictions[1] = %+v; want %+v", got, want)
		}
	})
	t.Run("jsonl line", func(t *testing.T) {
		good := string(mutate(t, func(m map[string]any) { planted(m) }))
		bad := string(mutate(t, func(m map[string]any) { m["case_id"] = "lantern-two"; planted(m)["witness"] = "mara" }))
		_, err := ParseCases([]byte(good+"\n"+bad+"\n"), "set.jsonl")
		if want := `set.jsonl:2: contradictions[0].witness: "mara" is not a witness of this case`; err == nil || err.Error() != want {
			t.Errorf("ParseCases = %v; want %q", err, want)
		}
	})
}

func TestParseCasesNotJSON(t *testing.T) {
	for _, data := range []string{"", "null", "[1]", "{", `{"case_id": "a"} {"case_id": "b"}`} {
		if _, err := ParseCases([]byte(data), "bad.json"); err == nil {
			t.Errorf("ParseCases(%q) = nil error", data)
		} else if !strings.HasPrefix(err.Error(), "bad.json: ") {
			t.Errorf("ParseCases(%q) = %q; want it to name the file", data, err)
		}
	}
}

func TestJSONLLinesAndWholeFileRejected(t *testing.T) {
	good, err := os.ReadFile("testdata/lantern.json")
	if err != nil {
		t.Fatal(err)
	}
	one := string(compact(t, good))
	second := strings.Replace(one, `"lantern-theft"`, `"lantern-two"`, 1)
	bad := strings.Replace(one, `"lantern-theft"`, `"lantern-bad"`, 1)
	bad = strings.Replace(bad, `"criminal"`, `"naval"`, 1)

	cs, err := ParseCases([]byte(one+"\n\n"+second+"\n"), "set.jsonl")
	if err != nil || len(cs) != 2 || cs[1].Source != "set.jsonl:3" {
		t.Fatalf("ParseCases(two lines) = %v, %v", cs, err)
	}
	cs, err = ParseCases([]byte(one+"\n"+bad+"\n"), "set.jsonl")
	if want := `set.jsonl:2: kind: "naval": want criminal or civil`; err == nil || err.Error() != want || cs != nil {
		t.Errorf("ParseCases(bad line 2) = %v, %v; want no cases and %q", cs, err, want)
	}
	_, err = ParseCases([]byte(one+"\n"+one+"\n"), "set.jsonl")
	if want := `set.jsonl:2: case_id: "lantern-theft" is also the case_id of set.jsonl:1: give every case its own`; err == nil || err.Error() != want {
		t.Errorf("ParseCases(duplicate) = %v; want %q", err, want)
	}
}

func compact(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestLoadCasesDirectory(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile("testdata/lantern.json")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("a.json", string(good))
	write("notes.txt", "not a case")
	write("b.jsonl", strings.Replace(string(compact(t, good)), "lantern-theft", "lantern-b", 1)+"\n")
	cs, err := LoadCases(dir)
	if err != nil || len(cs) != 2 {
		t.Fatalf("LoadCases(dir) = %v, %v", cs, err)
	}
	write("c.json", string(good))
	_, err = LoadCases(dir)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "c.json")+`: case_id: "lantern-theft" is also the case_id of `+filepath.Join(dir, "a.json")) {
		t.Errorf("LoadCases(duplicate across files) = %v", err)
	}
	if _, err := LoadCases(t.TempDir()); err == nil {
		t.Errorf("LoadCases(empty dir) = nil error")
	}
	if _, err := LoadCases(filepath.Join(dir, "notes.txt")); err == nil {
		t.Errorf("LoadCases(.txt) = nil error")
	}
}

func TestBuiltin(t *testing.T) {
	cs, err := Builtin()
	if err != nil {
		t.Fatalf("Builtin: %v", err)
	}
	if len(cs) != 5 {
		t.Errorf("%d bundled cases; want 5", len(cs))
	}
	for _, c := range cs {
		if err := Validate(c, c.Source); err != nil {
			t.Errorf("Validate(%s) = %v", c.ID, err)
		}
		// Spec section 1: each bundled case plants at least one contradiction.
		if len(c.Contradictions) == 0 {
			t.Errorf("%s plants no contradiction", c.ID)
		}
		if !strings.HasPrefix(c.Source, "builtin/") {
			t.Errorf("Source = %q", c.Source)
		}
	}
}

func FuzzParseCases(f *testing.F) {
	good, err := os.ReadFile("testdata/lantern.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, false)
	f.Add([]byte(`{"case_id":"x","witnesses":[{"knows":[]}]}`), false)
	f.Add([]byte("{}\n{\"case_id\":1}\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, jsonl bool) {
		name := "f.json"
		if jsonl {
			name = "f.jsonl"
		}
		cs, err := ParseCases(data, name)
		if err != nil {
			if cs != nil {
				t.Fatalf("ParseCases returned cases and %v", err)
			}
			if !strings.HasPrefix(err.Error(), name) {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for _, c := range cs {
			if err := Validate(c, "again.json"); err != nil {
				t.Fatalf("a parsed case does not validate: %v", err)
			}
		}
	})
}
