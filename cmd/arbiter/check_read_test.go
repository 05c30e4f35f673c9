package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// readFixtures is where package check keeps transcripts written as other tools write them.
var readFixtures = filepath.Join("..", "..", "internal", "check", "testdata", "read")

// fixtureDir copies fixtures into a fresh folder, with extra files name → content.
func fixtureDir(t *testing.T, names []string, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(readFixtures, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for n, s := range extra {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const badTranscriptText = "Judge: Order.\ncar owner agent: I parked it.\n  At seven.\ncar owner agent: It was gone.\n"

func TestCheckTranscriptsDescribes(t *testing.T) {
	dir := fixtureDir(t, []string{"autogen-groupchat.json", "simcourt-theft.json", "zh-lease.txt"}, nil)
	roles := filepath.Join(t.TempDir(), "roles.yaml")
	os.WriteFile(roles, []byte("\"car owner agent\": {role: witness}\n\"被告*\": {role: party, player: true}\n"), 0o644)
	r := arbiter(t, nil, "check", "transcripts", "--roles", roles, dir)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		"autogen-groupchat.json: chat messages JSON",
		"player turns: T4, T5, T8",
		`human_proxy-defense_attorney  defense     3 turns  word "defense"`,
		`car owner agent               witness     2 turns  --roles "car owner agent" (` + roles + ":1)",
		"simcourt-theft.json: chat messages JSON",
		"8 turns (1 empty, never shown), Chinese; player turns: T4, T5, T7", // "被告*" holds 被告人 too
		"zh-lease.txt: plain text: full-width colons (Speaker：text), bracketed labels ([Speaker]: text)",
		`书记员 (William-Taylor)`, `word "书记员"`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}

	r = arbiter(t, nil, "check", "transcripts", "--format", "json", "--player", "prosecutor",
		"--transcripts", filepath.Join(readFixtures, "en-human-prosecutor.txt"))
	if r.code != 0 {
		t.Fatalf("json: exit %d\n%s", r.code, r.stderr)
	}
	var got []struct {
		Format      string `json:"format"`
		Transcripts []struct {
			PlayerTurns []int  `json:"player_turns"`
			PlayerRole  string `json:"player_role"`
			Speakers    []struct {
				Speaker, Role, RoleFrom string
			} `json:"speakers"`
		} `json:"transcripts"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if len(got) != 1 || len(got[0].Transcripts) != 1 || jsonText(got[0].Transcripts[0].PlayerTurns) != "[2,5,6]" ||
		got[0].Transcripts[0].PlayerRole != "prosecutor" {
		t.Errorf("json reading = %+v; want player turns 2, 5, 6 of the prosecutor", got)
	}

	// A bad file: listed with its problems, exit 2, the good files still described.
	dir = fixtureDir(t, []string{"simcourt-theft.json"}, map[string]string{"bad.txt": badTranscriptText})
	r = arbiter(t, nil, "check", "transcripts", dir)
	if r.code != 2 || !strings.Contains(r.stdout, "simcourt-theft.json: chat messages JSON") ||
		strings.Count(r.stdout, `"car owner agent" has no role`) != 1 || !strings.Contains(r.stderr, "1 of 2 transcript files cannot be read") {
		t.Errorf("bad file: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

func TestCheckJudgeSkipBad(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Responder: checkStandIn("")})
	defer srv.Close()
	env, db := checkEnv(t, srv)
	dir := fixtureDir(t, []string{"simcourt-theft.json", "en-human-prosecutor.txt"}, map[string]string{"bad.txt": badTranscriptText})
	bad := filepath.Join(dir, "bad.txt")
	args := []string{"check", "judge", "--judge", "openai/j", "--db", db, "--transcripts", dir}

	r := arbiter(t, env, args...)
	if r.code != 2 {
		t.Fatalf("a folder with a bad file: exit %d; want 2\n%s", r.code, r.stderr)
	}
	if n := strings.Count(r.stderr, bad); n != 1 {
		t.Errorf("the bad file is named %d times; want once:\n%s", n, r.stderr)
	}
	if !strings.Contains(r.stderr, "arbiter: "+bad+`:2: turn 2: speaker: "car owner agent" has no role`) ||
		!strings.Contains(r.stderr, "1 of 3 transcript files are bad, so nothing was judged") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	if n := srv.Requests(); n != 0 {
		t.Errorf("a refused folder sent %d requests; want none", n)
	}

	r = arbiter(t, env, append(args, "--skip-bad", "--format", "json", "-q")...)
	if r.code != 0 {
		t.Fatalf("--skip-bad: exit %d\n%s", r.code, r.stderr)
	}
	got := decodeJSON(t, r.stdout)
	if got["transcripts"] != 2.0 {
		t.Errorf("transcripts = %v; want the 2 good ones", got["transcripts"])
	}
	sk, _ := got["skipped"].([]any)
	if len(sk) != 1 {
		t.Fatalf("skipped = %v; want the bad file", got["skipped"])
	}
	entry, _ := sk[0].(map[string]any)
	if entry["file"] != bad || !strings.Contains(entry["error"].(string), `"car owner agent" has no role`) {
		t.Errorf("skipped = %v", entry)
	}
	for _, format := range []string{"text", "md"} {
		r := arbiter(t, env, append(args, "--skip-bad", "--format", format)...)
		if r.code != 0 || !strings.Contains(r.stdout, "skipped (--skip-bad)") || !strings.Contains(r.stdout, bad) ||
			!strings.Contains(r.stderr, "judge: skipped "+bad) {
			t.Errorf("--format %s: exit %d; the skipped file is not listed:\n%s\n%s", format, r.code, r.stdout, r.stderr)
		}
	}
}

func TestCheckJudgeHumanProsecutor(t *testing.T) {
	var mu sync.Mutex
	var leaked, shown, named bool
	standIn := checkStandIn("")
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		mu.Lock()
		first := req.Messages[0].Text
		leaked = leaked || strings.Contains(first, "PROSECUTION-EXAM-5580")
		shown = shown || strings.Contains(first, "Marshal Adler, can you say who poured it?")
		named = named || strings.Contains(first, "The human player is the prosecutor")
		mu.Unlock()
		return standIn(req)
	}})
	defer srv.Close()
	env, db := checkEnv(t, srv)
	r := arbiter(t, env, "check", "judge", "-q", "--judge", "openai/j", "--db", db, "--format", "json", "--player", "prosecutor",
		"--transcripts", filepath.Join(readFixtures, "en-human-prosecutor.txt"))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if leaked || !shown || !named {
		t.Errorf("prosecutor's line reached the judge %v, the model defense's shown %v, the prompt names the prosecutor %v", leaked, shown, named)
	}
}

func TestCheckReadFlagsBadInput(t *testing.T) {
	dir := t.TempDir()
	badRoles := filepath.Join(dir, "roles.yaml")
	os.WriteFile(badRoles, []byte("\"car owner agent\": {role: owner}\n"), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"bad --player", []string{"--player", "lawyer"}, `--player "lawyer": want one of judge, prosecutor, witness, defense, party, narrator, system`},
		{"missing --roles", []string{"--roles", filepath.Join(dir, "none.yaml")}, "none.yaml"},
		{"bad --roles", []string{"--roles", badRoles}, badRoles + `:1: "car owner agent".role: "owner" is not a role`},
		{"bad --role-words", []string{"--role-words", badRoles}, badRoles + ":1: car owner agent: unknown field"},
	}
	for _, tc := range tests {
		for _, cmd := range []string{"judge", "transcripts"} {
			t.Run(tc.name+"/"+cmd, func(t *testing.T) {
				args := append([]string{"check", cmd}, tc.args...)
				if cmd == "judge" {
					args = append(args, "--judge", "openai/j", "--db", filepath.Join(dir, "x.db"))
				}
				r := arbiter(t, nil, args...)
				if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
					t.Errorf("exit %d; want 2 and %q:\n%s", r.code, tc.want, r.stderr)
				}
			})
		}
	}
}
