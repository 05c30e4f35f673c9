package check

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuiltinTranscripts(t *testing.T) {
	ts := BuiltinTranscripts()
	if len(ts) < 4 || len(ts) > 6 {
		t.Fatalf("%d bundled transcripts; want 4 to 6", len(ts))
	}
	cases := map[string]bool{}
	var withRetries, incomplete, textFormat int
	for _, tr := range ts {
		cases[tr.CaseID] = true
		// The court's case records are the one source of their descriptions.
		if tr.CaseDescription != "" || tr.CaseID == "" {
			t.Errorf("%s: case %q, description %q; want a case id and no description of its own", tr.TrialID, tr.CaseID, tr.CaseDescription)
		}
		if tr.Retries > 0 {
			withRetries++
		}
		if tr.Completed != nil && !*tr.Completed {
			incomplete++
		}
		if strings.HasSuffix(tr.Source, ".txt") {
			textFormat++
		}
		players := 0
		for _, turn := range tr.Turns {
			if turn.Player {
				players++
				if turn.Role != RoleDefense {
					t.Errorf("%s: a player turn in role %s", tr.TrialID, turn.Role)
				}
			}
		}
		if players == 0 {
			t.Errorf("%s has no player turns", tr.TrialID)
		}
	}
	if len(cases) != len(ts) || withRetries == 0 || incomplete == 0 || textFormat == 0 {
		t.Errorf("want distinct cases, some retries, an incomplete trial and a plain-text one; got %d cases, %d with retries, %d incomplete, %d text",
			len(cases), withRetries, incomplete, textFormat)
	}
	// The deliberate flaws are there.
	text := func(id TrialID) string {
		for _, tr := range ts {
			if tr.TrialID == id {
				var b strings.Builder
				for _, turn := range tr.Turns {
					b.WriteString(string(turn.Role) + ": " + turn.Text + "\n")
				}
				return b.String()
			}
		}
		return ""
	}
	for id, flaw := range map[TrialID]string{
		"t-002": "witness: And did you see the accused climb the wall",      // a witness interrogating
		"t-003": "judge: Well, I think we all know who was under that hood", // a judge opining on guilt
		"t-004": "witness: That evening I was not at the estate at all",     // a contradiction
	} {
		if !strings.Contains(text(id), flaw) {
			t.Errorf("%s lacks its flaw %q", id, flaw)
		}
	}
}

func TestParseTranscripts(t *testing.T) {
	tests := []struct {
		name   string
		format TranscriptFormat
		data   string
		want   []Transcript
	}{
		{"json object", FormatJSON, `{"trial_id": "a", "case_id": "c", "seed": 3, "retries": 1, "completed": false,
			"models": {"judge": "m/1", "witness": "m/1"}, "extra": {"ignored": true},
			"turns": [{"speaker": "Judge", "role": "Judge", "text": " Order. "}, {"speaker": "Defense", "role": "defense", "text": "Hi", "player": true}]}`,
			[]Transcript{{TrialID: "a", CaseID: "c", Seed: ptr(int64(3)), Retries: 1, Completed: ptr(false), Models: map[string]string{"judge": "m/1", "witness": "m/1"},
				Turns: []Turn{{"Judge", RoleJudge, "Order.", false}, {"Defense", RoleDefense, "Hi", true}}}}},
		{"json without trial_id takes the file name", FormatJSON, `{"turns": [{"speaker": "Judge", "role": "judge", "text": "x"}]}`,
			[]Transcript{{TrialID: "file", Turns: []Turn{{"Judge", RoleJudge, "x", false}}}}},
		{"json array", FormatJSON, `[{"trial_id": "a", "turns": [{"speaker": "J", "role": "judge", "text": "x"}]},
			{"trial_id": "b", "turns": [{"speaker": "N", "role": "narrator", "text": "y"}]}]`,
			[]Transcript{{TrialID: "a", Turns: []Turn{{"J", RoleJudge, "x", false}}}, {TrialID: "b", Turns: []Turn{{"N", RoleNarrator, "y", false}}}}},
		{"jsonl", FormatJSONL, "{\"trial_id\": \"a\", \"turns\": [{\"speaker\": \"J\", \"role\": \"judge\", \"text\": \"x\"}]}\n\n" +
			"{\"turns\": [{\"speaker\": \"S\", \"role\": \"system\", \"text\": \"y\"}]}\n",
			[]Transcript{{TrialID: "a", Turns: []Turn{{"J", RoleJudge, "x", false}}}, {TrialID: "file#3", Turns: []Turn{{"S", RoleSystem, "y", false}}}}},
		{"plain text", FormatText, "# trial_id: p1\n# case_id: c\n# model: m/2\n# retries: 2\n# completed: true\n# a comment\n" +
			"Judge: Order.\nWitness (Mara Quill): I saw it.\n  And I heard it.\nPlayer: Objection!\nDefence Attorney: Again.\nNarrator: Rain.\n",
			[]Transcript{{TrialID: "p1", CaseID: "c", Models: map[string]string{"all": "m/2"}, Retries: 2, Completed: ptr(true), Turns: []Turn{
				{"Judge", RoleJudge, "Order.", false}, {"Witness (Mara Quill)", RoleWitness, "I saw it.\nAnd I heard it.", false},
				{"Player", RoleDefense, "Objection!", true}, {"Defence Attorney", RoleDefense, "Again.", true}, {"Narrator", RoleNarrator, "Rain.", false}}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseTranscripts([]byte(tc.data), "dir/file.x", tc.format)
			if err != nil {
				t.Fatalf("ParseTranscripts: %v", err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d transcripts; want %d", len(got), len(tc.want))
			}
			for i := range got {
				g := *got[i]
				g.Source = ""
				if a, b := jsonOf(t, g), jsonOf(t, tc.want[i]); a != b {
					t.Errorf("transcript %d = %s; want %s", i, a, b)
				}
			}
		})
	}
}

func TestTranscriptErrors(t *testing.T) {
	tests := []struct {
		name   string
		format TranscriptFormat
		data   string
		want   []string
	}{
		{"syntax error names the line", FormatJSON, "{\n  \"trial_id\": \"a\",\n  \"turns\": [\n    {\"speaker\": \"J\" \"role\": \"judge\"}\n  ]\n}",
			[]string{"t.json:4: not valid JSON"}},
		{"bad role names file, line and turn", FormatJSON, "{\"turns\": [\n {\"speaker\": \"J\", \"role\": \"judge\", \"text\": \"x\"},\n {\"speaker\": \"C\", \"role\": \"clerk\", \"text\": \"y\"}\n]}",
			[]string{`t.json:3: turn 2: speaker: "C" has no role (its role "clerk" is not one of the roles and its name holds no role word): add the line "C": {role: ROLE} to a --roles file`}},
		{"missing fields", FormatJSON, "{\"turns\": [{\"speaker\": \"J\"}]}",
			[]string{"t.json:1: turn 1: role: missing", "t.json:1: turn 1: text: missing"}},
		{"wrong types", FormatJSON, `{"retries": -1, "completed": "yes", "turns": [{"speaker": "J", "role": "judge", "text": 3, "player": "no"}]}`,
			[]string{"retries: want a whole number", "completed: want true or false", "turn 1: text: want text, got a number", "turn 1: player: want true or false"}},
		{"no turns", FormatJSON, `{"trial_id": "a"}`, []string{"turns: missing"}},
		{"empty turns", FormatJSON, `{"turns": []}`, []string{"turns: empty"}},
		{"not an object", FormatJSON, `"hello"`, []string{"want a JSON object"}},
		{"two objects in a .json", FormatJSON, `{"turns": [{"speaker": "J", "role": "judge", "text": "x"}]} {}`, []string{"one transcript per .json file"}},
		{"jsonl names the line", FormatJSONL, "{\"turns\": [{\"speaker\": \"J\", \"role\": \"judge\", \"text\": \"x\"}]}\n{\"turns\": [{\"speaker\": \"J\", \"role\": \"judge\", \"text\": \"\"}]}\n",
			[]string{"t.json:2: turns: every turn is empty"}},
		{"unknown speaker", FormatText, "Judge: Order.\nUsher: All rise.\n", []string{`t.json:2: turn 2: speaker: "Usher" has no role`}},
		{"not Speaker: text", FormatText, "Judge: Order.\nall rise\n", []string{`t.json:2: turn 2: want "Speaker: text"`}},
		{"every turn empty", FormatText, "Judge:\nWitness:\n", []string{"t.json:1: turns: every turn is empty"}},
		{"bad header", FormatText, "# retries: lots\nJudge: x\n", []string{"t.json:1: retries: want a whole number"}},
		{"indented start", FormatText, "  hello\n", []string{"t.json:1: indented text before the first turn"}},
		{"indented player line", FormatText, "Judge: Order.\nWitness: I saw him.\n  Defense: He was never there.\n",
			[]string{"t.json:3: turn 2: indented line starts like a player's turn"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseTranscripts([]byte(tc.data), "t.json", tc.format)
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("ParseTranscripts = %v, %v; want a *ValidationError", got, err)
			}
			if got != nil {
				t.Errorf("a bad file gave %d transcripts; want none", len(got))
			}
			msg := err.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
		})
	}
}

func TestLoadTranscriptsRejectsBadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("good.json", `{"trial_id": "g", "turns": [{"speaker": "J", "role": "judge", "text": "x"}]}`)
	write("bad.txt", "Judge: x\nUsher: y\n")
	write("notes.md", "ignored")
	ts, err := LoadTranscripts(dir)
	if err == nil || ts != nil {
		t.Fatalf("LoadTranscripts = %d transcripts, %v; want an error and none", len(ts), err)
	}
	if want := filepath.Join(dir, "bad.txt") + ":2: turn 2: speaker"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q lacks %q", err, want)
	}
	write("bad.txt", "# trial_id: g\nJudge: x\n")
	if _, err := LoadTranscripts(dir); err == nil || !strings.Contains(err.Error(), `"g" is also the trial_id of`) {
		t.Errorf("duplicate trial ids: err = %v", err)
	}
	os.Remove(filepath.Join(dir, "bad.txt"))
	ts, err = LoadTranscripts(dir, "builtin")
	if err != nil || len(ts) != 1+len(BuiltinTranscripts()) {
		t.Errorf("LoadTranscripts(dir, builtin) = %d, %v", len(ts), err)
	}
}

func FuzzParseTranscripts(f *testing.F) {
	for _, s := range []string{
		`{"trial_id": "a", "turns": [{"speaker": "J", "role": "judge", "text": "x", "player": false}]}`,
		`[{"turns": [{"speaker": "J", "role": "judge", "text": "x"}]}]`,
		"# retries: 2\nJudge: Order.\n  more\nDefense: hi\n",
		"{\"turns\": [\n{\"speaker\": 1}]}\n{bad",
		`[{"role": "system", "content": "x"}, {"name": "human_proxy", "role": "user", "content": [{"type": "text", "text": "y"}]}, {"verdict": "z"}]`,
		"法官：开庭。\n[原告控诉]：被告未付款。\n【被告人】 我没有。\nPlayer:\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		for _, format := range []TranscriptFormat{FormatJSON, FormatJSONL, FormatText} {
			ts, err := ParseTranscripts([]byte(data), "f", format)
			if (err == nil) == (len(ts) == 0) {
				t.Fatalf("ParseTranscripts(%q, %s) = %d transcripts, %v: want transcripts or an error", data, format, len(ts), err)
			}
			var ve *ValidationError
			if err != nil && (!errors.As(err, &ve) || len(ve.Errs) == 0) {
				t.Fatalf("ParseTranscripts(%q, %s): error %v is not a non-empty *ValidationError", data, format, err)
			}
			for _, tr := range ts {
				if len(tr.Turns) == 0 || tr.TrialID == "" {
					t.Errorf("ParseTranscripts(%q, %s): transcript without turns or id", data, format)
				}
				texts := 0
				for _, turn := range tr.Turns {
					if !turn.Role.valid() || turn.Speaker == "" {
						t.Errorf("ParseTranscripts(%q, %s): invalid turn %+v accepted", data, format, turn)
					}
					if turn.Text != "" {
						texts++
					}
				}
				if texts == 0 {
					t.Errorf("ParseTranscripts(%q, %s): a transcript of empty turns accepted", data, format)
				}
				_ = Evidence(&Domain{PlayerRoles: []Role{RoleDefense}}, tr)
			}
		}
	})
}
