package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// readFixture is one of the transcripts in testdata/read, written as other tools write
// them, with the options it is read with and what spec section 1 makes of it.
type readFixture struct {
	file   string
	roles  string // a --roles file in testdata/read, or ""
	player Role   // --player, or "" for the default
	form   string
	lang   string
	// turns are "speaker=role" per turn, with "*" after the role of a player's turn.
	turns []string
	empty int
}

var readFixtures = []readFixture{
	{file: "autogen-groupchat.json", roles: "autogen-roles.yaml", form: formChat, lang: English, empty: 1, turns: []string{
		"system=system", "Judge_Agent=judge", "prosecuting_attorney=prosecutor", "human_proxy-defense_attorney=defense*",
		"human_proxy-defense_attorney=defense*", "prosecuting_attorney=prosecutor", "car owner agent=witness",
		"human_proxy-defense_attorney=defense*", "car owner agent=witness", "Judge_Agent=judge"}},
	{file: "simcourt-theft.json", form: formChat, lang: "Chinese", empty: 1, turns: []string{
		"审判长=judge", "书记员=narrator", "公诉人=prosecutor", "被告人=party", "辩护人=defense*", "证人=witness",
		"辩护人=defense*", "审判长=judge"}},
	{file: "zh-lease.txt", roles: "zh-roles.yaml", form: "plain text: " + sepFullWidth + ", " + sepBracket, lang: "Chinese", turns: []string{
		"审判长=judge", "原告控诉=party", "被告答辩=party*", "书记员 (William-Taylor)=narrator", "审判员=judge", "被告=party*",
		"人民陪审员=party", "原告代理律师=party", "审判长=judge"}},
	{file: "en-human-prosecutor.txt", player: RoleProsecutor, form: "plain text: " + sepColon, lang: English, empty: 1, turns: []string{
		"Presiding Judge=judge", "prosecuting_attorney=prosecutor*", "Defense Attorney (AI)=defense", "Presiding Judge=judge",
		"prosecuting_attorney=prosecutor*", "prosecuting_attorney=prosecutor*", "Witness (Fire Marshal Ruth Adler)=witness",
		"Defense Attorney (AI)=defense", "Witness (Fire Marshal Ruth Adler)=witness", "Bailiff=narrator", "Presiding Judge=judge"}},
}

func (f readFixture) path() string { return filepath.Join("testdata", "read", f.file) }

func (f readFixture) options(t *testing.T) ReadOptions {
	t.Helper()
	roles := ""
	if f.roles != "" {
		roles = filepath.Join("testdata", "read", f.roles)
	}
	opt, err := NewReadOptions(roles, "", string(f.player))
	if err != nil {
		t.Fatalf("NewReadOptions: %v", err)
	}
	return opt
}

func (f readFixture) read(t *testing.T) *Transcript {
	t.Helper()
	ts, _, err := LoadTranscriptsWith([]string{f.path()}, f.options(t), false)
	if err != nil {
		t.Fatalf("LoadTranscriptsWith(%s): %v", f.file, err)
	}
	if len(ts) != 1 {
		t.Fatalf("%s: %d transcripts; want 1", f.file, len(ts))
	}
	return ts[0]
}

func TestReadOtherToolsFormats(t *testing.T) {
	for _, f := range readFixtures {
		t.Run(f.file, func(t *testing.T) {
			tr := f.read(t)
			var got []string
			empty := 0
			for _, turn := range tr.Turns {
				s := turn.Speaker + "=" + string(turn.Role)
				if turn.Player {
					s += "*"
				}
				got = append(got, s)
				if turn.Text == "" {
					empty++
				}
			}
			if !slices.Equal(got, f.turns) {
				t.Errorf("turns = %q; want %q", got, f.turns)
			}
			if empty != f.empty {
				t.Errorf("%d empty turns; want %d", empty, f.empty)
			}
			if tr.reading == nil || tr.reading.form != f.form {
				t.Errorf("form = %+v; want %q", tr.reading, f.form)
			}
			if got := LanguageOf(tr); got != f.lang {
				t.Errorf("LanguageOf = %q; want %q", got, f.lang)
			}
			if tr.PlayerRole != f.player {
				t.Errorf("PlayerRole = %q; want %q", tr.PlayerRole, f.player)
			}
		})
	}
}

// TestJudgeOtherToolsFormats judges each fixture with the bundled checklist: no word of a
// player's turn reaches the judge, every other turn does, and a stand-in that answers
// some lines in Chinese ("Q1：是（理由：…）") and turns "no" on seeing a player's words
// gives scores with every question answered and none turned.
func TestJudgeOtherToolsFormats(t *testing.T) {
	for _, f := range readFixtures {
		t.Run(f.file, func(t *testing.T) {
			tr := f.read(t)
			var player, shown []string
			for _, turn := range tr.Turns {
				switch {
				case turn.Text == "":
				case turn.Player:
					player = append(player, strings.Split(turn.Text, "\n")...)
				default:
					shown = append(shown, strings.Split(turn.Text, "\n")[0])
				}
			}
			var seen bodies
			srv := standIn(t, func(req *llmtest.Request) llmtest.Response {
				seen.add(req)
				leaked := slices.ContainsFunc(player, func(p string) bool { return strings.Contains(req.Messages[0].Text, p) })
				return llmtest.Response{Text: mixedReply(req, leaked)}
			})
			j, err := Judge(context.Background(), execFor(t, srv, openStore(t, ""), "openai/j"), DefaultChecklist(),
				[]*Transcript{tr}, JudgeOptions{Judges: []llm.ModelName{"openai/j"}})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range player {
				if seen.any(p) {
					t.Errorf("a player's line reached the judge: %q", p)
				}
			}
			for _, s := range shown {
				if !seen.any(s) {
					t.Errorf("a model's line never reached the judge: %q", s)
				}
			}
			if want := strings.Count(strings.Join(f.turns, " "), "*"); j.Transcripts[0].PlayerTurns != want {
				t.Errorf("PlayerTurns = %d; want %d", j.Transcripts[0].PlayerTurns, want)
			}
			s := Score(j)
			if s.Answers.Missing != 0 || s.Answers.No != 0 || s.QS == nil || *s.QS != 1 {
				t.Errorf("answers %+v, QS %v; want every question answered yes", s.Answers, s.QS)
			}
			langLine := "The transcript is in " + f.lang + ";"
			if got := seen.any(langLine); got != (f.lang != English) {
				t.Errorf("prompt says %q = %v; want %v", langLine, got, f.lang != English)
			}
			if f.player == RoleProsecutor && !seen.any("The human player is the prosecutor") {
				t.Errorf("the prompt does not name the human prosecutor")
			}
		})
	}
}

// mixedReply answers every asked question, odd ones in Chinese with full-width
// punctuation, even ones in the spec's English form; "no" to all when no is set.
func mixedReply(req *llmtest.Request, no bool) string {
	qs := asked(req)
	var b strings.Builder
	for n := 1; n <= 200; n++ {
		if _, ok := qs[n]; !ok {
			continue
		}
		switch {
		case n%2 == 1 && no:
			fmt.Fprintf(&b, "Q%d：否（理由：见[T2]。）\n", n)
		case n%2 == 1:
			fmt.Fprintf(&b, "Q%d：是（理由：见[T2]。）\n", n)
		case no:
			fmt.Fprintf(&b, "Q%d: no\n", n)
		default:
			fmt.Fprintf(&b, "Q%d: yes\n", n)
		}
	}
	return b.String()
}

// TestJudgeSeesLeakedPlayerLine shows the check above can fail: the same transcript with
// its player flags cleared shows those lines, and the stand-in then answers "no".
func TestJudgeSeesLeakedPlayerLine(t *testing.T) {
	f := readFixtures[3] // the human prosecutor
	tr := f.read(t)
	marker := "PROSECUTION-EXAM-5580"
	srv := standIn(t, func(req *llmtest.Request) llmtest.Response {
		return llmtest.Response{Text: mixedReply(req, strings.Contains(req.Messages[0].Text, marker))}
	})
	cut := *tr
	cut.PlayerRole = ""
	cut.Turns = slices.Clone(tr.Turns)
	for i := range cut.Turns {
		cut.Turns[i].Player = false
	}
	j, err := Judge(context.Background(), execFor(t, srv, openStore(t, ""), "openai/j"), DefaultChecklist(),
		[]*Transcript{&cut}, JudgeOptions{Judges: []llm.ModelName{"openai/j"}})
	if err != nil {
		t.Fatal(err)
	}
	if s := Score(j); s.Answers.No == 0 {
		t.Errorf("answers %+v: the unmarked player line did not reach the judge", s.Answers)
	}
}

func TestRoleWords(t *testing.T) {
	tests := []struct {
		speaker string
		role    Role // "" for none
		player  bool
	}{
		{"human_proxy-defense_attorney", RoleDefense, false},
		{"prosecuting_attorney", RoleProsecutor, false},
		{"书记员 (William-Taylor)", RoleNarrator, false},
		{"原告", RoleParty, false},
		{"被告人", RoleParty, false},
		{"[原告控诉]", RoleParty, false},
		{"car owner agent", "", false},
		{"Courtney", "", false},
		{"Judge", RoleJudge, false},
		{"Presiding Judge", RoleJudge, false},
		{"Judge (State Court)", RoleJudge, false},
		{"State Court judge", RoleJudge, false},
		{"Prosecution witness", RoleWitness, false},
		{"Witness for the State", RoleWitness, false},
		{"Counsel for the defendant", RoleDefense, false},
		{"被告辩护人", RoleDefense, false},
		{"District Attorney", RoleProsecutor, false},
		{"Court clerk", RoleNarrator, false},
		{"Juror 3", RoleParty, false},
		{"Presiding juror", RoleParty, false},
		{"Expert (Dr. Lin)", RoleWitness, false},
		{"公诉人", RoleProsecutor, false},
		{"审判长", RoleJudge, false},
		{"Player", RoleDefense, true},
		{"Player (Prosecution)", RoleProsecutor, true},
		{"玩家", RoleDefense, true},
		{"System", RoleSystem, false},
	}
	var o ReadOptions
	for _, tc := range tests {
		t.Run(tc.speaker, func(t *testing.T) {
			pl, ok := o.place(tc.speaker, "")
			if ok != (tc.role != "") || pl.role != tc.role || (pl.player != nil && *pl.player) != tc.player {
				t.Errorf("place(%q) = %s, player %v, %v; want %s, player %v", tc.speaker, pl.role, pl.player, ok, tc.role, tc.player)
			}
		})
	}
}

func TestRoleWordsFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "it.yaml")
	os.WriteFile(file, []byte("roles:\n  - role: judge\n    words: [giudice]\n  - role: prosecutor\n    words: [pubblico ministero]\n"), 0o644)
	o, err := NewReadOptions("", file, "")
	if err != nil {
		t.Fatal(err)
	}
	for speaker, want := range map[string]Role{"Giudice": RoleJudge, "Pubblico Ministero": RoleProsecutor, "Witness": RoleWitness, "ministero": ""} {
		if pl, _ := o.place(speaker, ""); pl.role != want {
			t.Errorf("place(%q) = %q; want %q", speaker, pl.role, want)
		}
	}
	os.WriteFile(file, []byte("roles:\n  - role: clerk\n    words: [cancelliere]\n  - role: judge\n"), 0o644)
	_, err = NewReadOptions("", file, "")
	for _, want := range []string{file + ":2: roles[1].role: \"clerk\" is not a role", file + ":4: roles[2].words: missing"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}

func TestRoleMap(t *testing.T) {
	m, err := ParseRoleMap([]byte(`"Judge_Agent": judge
"human_proxy*": {role: defense, player: true}
"HUMAN_PROXY-witness": {role: witness}
"*agent": {role: party, player: false}
`), "roles.yaml")
	if err != nil {
		t.Fatal(err)
	}
	o := ReadOptions{Roles: m}
	tests := []struct {
		speaker, role string
		want          Role
		player        string // "" none, "true", "false"
		from          string
	}{
		{"judge_agent", "", RoleJudge, "", `--roles "Judge_Agent" (roles.yaml:1)`},
		{"human_proxy-defense_attorney", "", RoleDefense, "true", `--roles "human_proxy*" (roles.yaml:2)`},
		{"human_proxy-witness", "", RoleWitness, "", `--roles "HUMAN_PROXY-witness" (roles.yaml:3)`},
		{"car owner agent", "", RoleParty, "false", `--roles "*agent" (roles.yaml:4)`},
		{"human_proxy", "witness", RoleWitness, "true", `the turn's role "witness"`},
		{"Bailiff", "", RoleNarrator, "", `word "bailiff"`},
	}
	for _, tc := range tests {
		pl, ok := o.place(tc.speaker, tc.role)
		player := ""
		if pl.player != nil {
			player = strconv.FormatBool(*pl.player)
		}
		if !ok || pl.role != tc.want || player != tc.player || pl.roleFrom != tc.from {
			t.Errorf("place(%q, %q) = %s (%s), player %q; want %s (%s), player %q", tc.speaker, tc.role, pl.role, pl.roleFrom, player, tc.want, tc.from, tc.player)
		}
	}
	_, err = ParseRoleMap([]byte("a: {role: clerk}\n\"b[\": judge\nc: {role: judge, player: maybe}\nd: {role: judge, seat: 2}\n"), "r.yaml")
	for _, want := range []string{`r.yaml:1: "a".role: "clerk" is not a role`, `r.yaml:2: "b[": not a valid pattern`,
		`r.yaml:3: "c".player: want true or false`, `r.yaml:4: "d".seat: unknown field`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}

// TestUnplacedSpeakerOnce: a speaker nothing places is one error per file, at its first
// turn, however many turns and continuation lines it has, with the --roles line that
// would place it.
func TestUnplacedSpeakerOnce(t *testing.T) {
	dir := t.TempDir()
	text := "Judge: Order.\ncar owner agent: I parked it.\n  Then I left.\n  At seven.\nUsher: All rise.\ncar owner agent: It was gone.\n" +
		"Usher: Silence.\n  Please.\ncar owner agent: Gone.\n"
	chat := `[{"role": "user", "name": "Judge", "content": "Order."}, {"role": "assistant", "name": "car owner agent", "content": "x"},
{"role": "assistant", "name": "car owner agent", "content": "y"}]`
	jsonl := `{"trial_id": "x1", "turns": [{"speaker": "Usher", "role": "usher", "text": "All rise."}]}
{"trial_id": "x2", "turns": [{"speaker": "Judge", "role": "judge", "text": "Order."}, {"speaker": "Usher", "role": "usher", "text": "Silence."}]}
`
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte(text), 0o644)
	os.WriteFile(filepath.Join(dir, "b.json"), []byte(chat), 0o644)
	os.WriteFile(filepath.Join(dir, "c.jsonl"), []byte(jsonl), 0o644)
	for _, tc := range []struct {
		file  string
		wants map[string]string // speaker → where its one error is
	}{
		{"a.txt", map[string]string{"car owner agent": ":2: turn 2: speaker: ", "Usher": ":5: turn 3: speaker: "}},
		{"b.json", map[string]string{"car owner agent": ":1: message 2: speaker: "}},
		{"c.jsonl", map[string]string{"Usher": ":1: turn 1: speaker: "}},
	} {
		path := filepath.Join(dir, tc.file)
		ds, err := DescribeTranscripts([]string{path}, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		errs := ds[0].Errors
		if len(errs) != len(tc.wants) {
			t.Errorf("%s: %d errors; want %d:\n%s", tc.file, len(errs), len(tc.wants), strings.Join(errs, "\n"))
		}
		for speaker, where := range tc.wants {
			want := path + where + jsonQuote(speaker) + " has no role"
			n := 0
			for _, e := range errs {
				if strings.Contains(e, jsonQuote(speaker)+" has no role") {
					n++
					if !strings.HasPrefix(e, want) || !strings.Contains(e, "add the line "+jsonQuote(speaker)+": {role: ROLE} to a --roles file") {
						t.Errorf("error %q; want it to start %q and give the --roles line", e, want)
					}
				}
			}
			if n != 1 {
				t.Errorf("%s: %d errors about %q; want 1", tc.file, n, speaker)
			}
		}
	}
	// Across files: once in each.
	_, _, err := LoadTranscriptsWith([]string{dir}, ReadOptions{}, false)
	var bf *BadFilesError
	if !errors.As(err, &bf) || len(bf.Bad.Errs) != 3 {
		t.Fatalf("LoadTranscriptsWith = %v; want a *BadFilesError naming the three files", err)
	}
}

// TestFolderWithABadFile: by default the folder is refused, the bad file named once with
// its first problem; with skipBad the rest is read and the bad file listed as skipped.
func TestFolderWithABadFile(t *testing.T) {
	dir := t.TempDir()
	for _, f := range readFixtures[1:3] {
		b, err := os.ReadFile(f.path())
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f.file), b, 0o644)
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("Judge: Order.\ncar owner agent: I parked it.\nUsher: All rise.\n{oops\n"), 0o644)
	ts, skipped, err := LoadTranscriptsWith([]string{dir}, ReadOptions{}, false)
	if err == nil || ts != nil || skipped != nil {
		t.Fatalf("LoadTranscriptsWith = %d, %v, %v; want an error and nothing", len(ts), skipped, err)
	}
	msg := err.Error()
	if n := strings.Count(msg, bad); n != 1 {
		t.Errorf("the bad file is named %d times; want once:\n%s", n, msg)
	}
	for _, want := range []string{bad + `:2: turn 2: speaker: "car owner agent" has no role`, "(and 2 more problems in this file",
		"1 of 3 transcript files are bad, so nothing was judged", "--skip-bad"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Errorf("error %T is not bad input", err)
	}

	ts, skipped, err = LoadTranscriptsWith([]string{dir}, ReadOptions{}, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || len(skipped) != 1 || skipped[0].File != bad || !strings.HasPrefix(skipped[0].Error, `line 2: turn 2: speaker: "car owner agent"`) {
		t.Errorf("skip-bad = %d transcripts, skipped %+v; want 2 and the bad file", len(ts), skipped)
	}
	// Every file bad: nothing to judge, even with skipBad.
	_, _, err = LoadTranscriptsWith([]string{bad}, ReadOptions{}, true)
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), "all 1 transcript files are bad") {
		t.Errorf("only a bad file with skipBad: err = %v", err)
	}
}

func TestSkippedInEveryFormat(t *testing.T) {
	srv := standIn(t, func(req *llmtest.Request) llmtest.Response { return llmtest.Response{Text: judgeReply(req, nil)} })
	j, err := Judge(context.Background(), execFor(t, srv, openStore(t, ""), "openai/j"), DefaultChecklist(),
		BuiltinTranscripts()[:1], JudgeOptions{Judges: []llm.ModelName{"openai/j"}})
	if err != nil {
		t.Fatal(err)
	}
	s := Score(j)
	s.Skipped = []Skipped{{File: "trials/bad-7781.txt", Error: `line 2: turn 2: speaker: "Usher" has no role`}}
	for _, f := range []string{"text", "md", "csv", "latex", "json"} {
		var b strings.Builder
		if err := WriteScores(&b, s, f); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "bad-7781") {
			t.Errorf("%s output does not list the skipped file", f)
		}
	}
	var b strings.Builder
	WriteScores(&b, s, "json")
	if !strings.Contains(b.String(), `"skipped": [`) || !strings.Contains(b.String(), `"file": "trials/bad-7781.txt"`) {
		t.Errorf("JSON lacks \"skipped\": [{\"file\", \"error\"}]:\n%s", b.String())
	}
}

func TestDescribeTranscripts(t *testing.T) {
	f := readFixtures[0]
	rs, err := DescribeTranscripts([]string{f.path()}, f.options(t))
	if err != nil {
		t.Fatal(err)
	}
	tr := rs[0].Transcripts[0]
	if rs[0].Format != formChat || tr.Turns != 10 || tr.EmptyTurns != 1 || !slices.Equal(tr.PlayerTurns, []int{4, 5, 8}) {
		t.Errorf("reading = %+v / %+v", rs[0], tr)
	}
	want := []SpeakerReading{
		{"system", RoleSystem, `the turn's role "system"`, 1, 0, "--player defense (the default)"},
		{"Judge_Agent", RoleJudge, `word "judge"`, 2, 0, "--player defense (the default)"},
		{"prosecuting_attorney", RoleProsecutor, `word "prosecuting"`, 2, 0, "--player defense (the default)"},
		{"human_proxy-defense_attorney", RoleDefense, `--roles "human_proxy*" (testdata/read/autogen-roles.yaml:2)`, 3, 3, `--roles "human_proxy*" (testdata/read/autogen-roles.yaml:2)`},
		{"car owner agent", RoleWitness, `--roles "car owner agent" (testdata/read/autogen-roles.yaml:3)`, 2, 0, "--player defense (the default)"},
	}
	if !slices.Equal(tr.Speakers, want) {
		t.Errorf("speakers:\n%+v\nwant\n%+v", tr.Speakers, want)
	}
	var b strings.Builder
	if err := WriteReadings(&b, rs, "text"); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"autogen-groupchat.json: chat messages JSON", "10 turns (1 empty, never shown), English; player turns: T4, T5, T8",
		"car owner agent", `--roles "car owner agent"`} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("text reading lacks %q:\n%s", w, b.String())
		}
	}
}

func TestEvidenceLeavesOutEmptyTurns(t *testing.T) {
	tr := &Transcript{TrialID: "e", Turns: []Turn{
		{Speaker: "Judge", Role: RoleJudge, Text: "Order."},
		{Speaker: "Defense", Role: RoleDefense, Text: "", Player: true},
		{Speaker: "Witness", Role: RoleWitness, Text: ""},
		{Speaker: "Judge", Role: RoleJudge, Text: "Continue."},
	}}
	ev := Evidence(&Domain{PlayerRoles: []Role{RoleDefense}}, tr)
	if strings.Contains(ev, "[T2]") || strings.Contains(ev, "[T3]") || !strings.Contains(ev, `[T4] Judge: "Continue."`) {
		t.Errorf("evidence shows an empty turn or renumbers:\n%s", ev)
	}
}

func TestLanguageOf(t *testing.T) {
	tests := []struct{ text, want string }{
		{"The court is in session. Did you see the accused that night?", English},
		{"现在开庭。被告人，你对起诉书有无异议？ Mr Smith 没有。", "Chinese"},
		{"これより開廷します。被告人は前へ。", "Japanese"},
		{"La cour est en séance. Vous avez vu le prévenu et les témoins?", "French"},
		{"Il giudice dice che non è colpevole, per il momento.", "Italian"},
		{"", ""},
		{"12345 ...", ""},
	}
	for _, tc := range tests {
		if got := LanguageOf(&Transcript{Turns: []Turn{{Text: tc.text}}}); got != tc.want {
			t.Errorf("LanguageOf(%q) = %q; want %q", tc.text, got, tc.want)
		}
	}
}

func TestChatMessageForms(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []Turn
	}{
		{"messages under an object, with metadata", `{"trial_id": "c1", "case_id": "x", "messages": [{"role": "judge", "content": "Order."}, {"role": "user", "name": "Defense", "content": "Hi", "player": true}]}`,
			[]Turn{{"judge", RoleJudge, "Order.", false}, {"Defense", RoleDefense, "Hi", true}}},
		{"messages under turns", `{"turns": [{"role": "assistant", "name": "Prosecutor", "content": "x"}]}`,
			[]Turn{{"Prosecutor", RoleProsecutor, "x", false}}},
		{"content parts join", `[{"role": "user", "name": "Witness", "content": [{"type": "text", "text": "a"}, {"type": "image_url"}, "b"]}]`,
			[]Turn{{"Witness", RoleWitness, "a\nb", false}}},
		{"a verdict object and a tool call are left out", `[{"role": "法官", "content": "开庭"}, {"role": "assistant", "content": null, "tool_calls": []}, {"verdict": "guilty", "content_hash": 1}]`,
			[]Turn{{"法官", RoleJudge, "开庭", false}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts, err := ParseTranscripts([]byte(tc.data), "c.json", FormatJSON)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := jsonOf(t, ts[0].Turns), jsonOf(t, tc.want); a != b {
				t.Errorf("turns = %s; want %s", a, b)
			}
		})
	}
	jsonl := "{\"role\": \"user\", \"name\": \"Judge\", \"content\": \"Order.\"}\n{\"role\": \"assistant\", \"name\": \"Witness\", \"content\": \"Yes.\"}\n"
	ts, err := ParseTranscripts([]byte(jsonl), "log.jsonl", FormatJSONL)
	if err != nil || len(ts) != 1 || len(ts[0].Turns) != 2 || ts[0].TrialID != "log" {
		t.Errorf("one chat message a line: %v, %v", ts, err)
	}
}

// TestJudgeJobKeepsThePlayerRole: a transcript read with --player prosecutor, sent to a
// worker as a JSON job, is judged with the prosecutor's turns withheld and the model
// defense's shown, as Judge does.
func TestJudgeJobKeepsThePlayerRole(t *testing.T) {
	var seen bodies
	srv := standIn(t, func(req *llmtest.Request) llmtest.Response {
		seen.add(req)
		return llmtest.Response{Text: judgeReply(req, nil)}
	})
	ctx := context.Background()
	e := execFor(t, srv, openStore(t, ""), "openai/j")
	tr := readFixtures[3].read(t)
	run, jobs, err := PrepareJudge(ctx, e, DefaultChecklist(), []*Transcript{tr}, JudgeOptions{Judges: []llm.ModelName{"openai/j"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(jobs[0])
	if err != nil {
		t.Fatal(err)
	}
	var back JudgeJob
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if _, err := JudgeTranscript(ctx, e, run, &back); err != nil {
		t.Fatal(err)
	}
	if seen.any("PROSECUTION-EXAM-5580") || !seen.any("Marshal Adler, can you say who poured it?") || !seen.any("The human player is the prosecutor") {
		t.Errorf("the worker's judge saw the prosecutor's line %v, the defense's %v, the player named %v",
			seen.any("PROSECUTION-EXAM-5580"), seen.any("Marshal Adler, can you say"), seen.any("The human player is the prosecutor"))
	}
}
