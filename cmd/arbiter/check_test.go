package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

var (
	checkQuestion = regexp.MustCompile(`(?m)^Q(\d+) - (.+)$`)
	checkID       = regexp.MustCompile(`(?m)^- ([A-Za-z0-9._-]+): `)
	checkCrit     = regexp.MustCompile(`(?m)^(?:Criterion|Dimension): ([^.]+)\.`)
)

// checkStandIn plays generator, filter model and judge, telling them apart by their
// system prompts. The judge answers "no" to questions about the judge in trial t-003 and
// "yes" to the rest; the generator's replies for brokenCriterion are never valid JSON.
func checkStandIn(brokenCriterion string) llmtest.Responder {
	return func(req *llmtest.Request) llmtest.Response {
		first := req.Messages[0].Text
		switch {
		case strings.Contains(req.System, "You grade transcripts"):
			var b strings.Builder
			t003 := strings.Contains(first, "Trial t-003")
			for _, m := range checkQuestion.FindAllStringSubmatch(req.LastUser(), -1) {
				ans := "yes"
				if t003 && strings.Contains(m[2], "judge") {
					ans = "no"
				}
				fmt.Fprintf(&b, "Q%s - %s: %s (reasoning: [T2])\n", m[1], m[2], ans)
			}
			return llmtest.Response{Text: b.String()}
		case strings.Contains(req.System, "You design evaluation checklists"):
			ms := checkCrit.FindAllStringSubmatch(first, -1)
			crit := ms[len(ms)-1][1]
			if crit == brokenCriterion {
				return llmtest.Response{Text: "Here are my ideas, in prose."}
			}
			kind := "angle"
			if strings.Contains(first, "Elaborate:") {
				kind = "detail"
			}
			var qs []string
			for i := range 5 {
				// Distinct words per question, so the pre-pass keeps them all.
				h := fnv.New32a()
				fmt.Fprint(h, crit, kind, i)
				n := h.Sum32()
				qs = append(qs, fmt.Sprintf(`{"text": "Is w%[1]da w%[1]db w%[1]dc shown?", "seed": 1}`, n))
			}
			return llmtest.Response{Text: `{"questions": [` + strings.Join(qs, ", ") + `]}`}
		case strings.Contains(req.System, "You review checklists"):
			var ids []string
			for _, m := range checkID.FindAllStringSubmatch(first, -1) {
				ids = append(ids, fmt.Sprintf("%q", m[1]))
			}
			return llmtest.Response{Text: fmt.Sprintf(`{"kept": [%s], "removed": [{"id": %s, "reason": "redundancy"}]}`,
				strings.Join(ids[1:], ", "), ids[0])}
		}
		return llmtest.Response{Text: "?"}
	}
}

func checkEnv(t *testing.T, srv *llmtest.Server) (map[string]string, string) {
	db := filepath.Join(t.TempDir(), "check.db")
	return map[string]string{"OPENAI_API_KEY": "sk-test-check", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}, db
}

func TestCheckJudgeBuiltin(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Responder: checkStandIn("")})
	defer srv.Close()
	env, db := checkEnv(t, srv)
	args := []string{"check", "judge", "-q", "--judge", "openai/judge-standin", "--db", db, "--format", "json"}
	r := arbiter(t, env, args...)
	if r.code != 0 {
		t.Fatalf("check judge: exit %d\n%s", r.code, r.stderr)
	}
	got := decodeJSON(t, r.stdout)
	for _, k := range []string{"checklist", "qs", "by_dimension", "retry_rate"} {
		if _, ok := got[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if got["checklist"] != check.DefaultChecklist().Hash {
		t.Errorf("checklist = %v; want the bundled checklist's hash", got["checklist"])
	}
	if got["retry_rate"] != 3.0 {
		t.Errorf("retry_rate = %v; want 3", got["retry_rate"])
	}
	dims, _ := got["by_dimension"].(map[string]any)
	if len(dims) != 3 {
		t.Errorf("by_dimension = %v; want 3 dimensions", dims)
	}
	asked := srv.Requests()
	if asked != 25 {
		t.Errorf("first run sent %d requests; want 25", asked)
	}

	again := arbiter(t, env, args...)
	if again.code != 0 {
		t.Fatalf("rerun: exit %d\n%s", again.code, again.stderr)
	}
	if n := srv.Requests() - asked; n != 0 {
		t.Errorf("rerun sent %d requests; want none", n)
	}
	g2 := decodeJSON(t, again.stdout)
	for _, k := range []string{"checklist", "qs", "by_dimension", "retry_rate", "per_question"} {
		if a, b := jsonText(got[k]), jsonText(g2[k]); a != b {
			t.Errorf("rerun %s = %s; want %s", k, b, a)
		}
	}

	answers := filepath.Join(t.TempDir(), "answers.jsonl")
	rep := arbiter(t, env, "check", "report", "--db", db, "--format", "md", "--answers", answers)
	if rep.code != 0 {
		t.Fatalf("check report: exit %d\n%s", rep.code, rep.stderr)
	}
	b, err := os.ReadFile(answers)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 5*38 || !strings.Contains(lines[0], `"answer":"yes","reason":"[T2]"`) {
		t.Errorf("--answers wrote %d lines, first %s; want 190 with reasons", len(lines), lines[0])
	}
	for _, want := range []string{"Table 1", "Table 2: QS of Behavioral Role Fidelity by sub-dimension", "Retry Rate (R) per case",
		"ollama/phi4:14b", "Yes-rate per question"} {
		if !strings.Contains(rep.stdout, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if n := srv.Requests() - asked; n != 0 {
		t.Errorf("report sent %d requests", n)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestCheckBadInput(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Responder: checkStandIn("")})
	defer srv.Close()
	env, db := checkEnv(t, srv)
	dir := t.TempDir()
	badTranscript := filepath.Join(dir, "bad.json")
	os.WriteFile(badTranscript, []byte("{\"trial_id\": \"x\", \"turns\": [\n  {\"speaker\": \"Judge\", \"role\": \"judge\", \"text\": \"Order.\"},\n  {\"speaker\": \"Usher\", \"role\": \"usher\", \"text\": \"All rise.\"},\n  {\"speaker\": \"Witness\", \"role\": \"witness\"}\n]}\n"), 0o644)
	badChecklist := filepath.Join(dir, "checklist.yaml")
	os.WriteFile(badChecklist, []byte("domain: X\ndescription: Y\ndimensions:\n  - name: A\n    definition: d\n    questions:\n      - id: bad id\n        text: Is it?\n"), 0o644)
	openStore(t, filepath.Join(dir, "empty.db")).Close() // a store with no runs: report refuses a missing one
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"bad transcript", []string{"check", "judge", "--judge", "openai/j", "--transcripts", badTranscript},
			[]string{"arbiter: " + badTranscript + `:3: turn 2: speaker: "Usher" has no role (its role "usher" is not one of the roles`, "arbiter: " + badTranscript + ":4: turn 3: text: missing"}},
		{"bad checklist", []string{"check", "judge", "--judge", "openai/j", "--checklist", badChecklist},
			[]string{"arbiter: " + badChecklist + `:7: dimensions[1].questions[1].id: "bad id"`}},
		{"no judge", []string{"check", "judge"}, []string{"no judge model"}},
		{"bad format", []string{"check", "judge", "--judge", "openai/j", "--format", "pdf"}, []string{`--format "pdf"`}},
		{"missing transcripts", []string{"check", "judge", "--judge", "openai/j", "--transcripts", filepath.Join(dir, "none.json")}, []string{"no such file"}},
		{"bad dimensions", []string{"check", "augment", "--generator", "openai/g", "--dimensions", badChecklist}, []string{badChecklist + ":6: dimensions[1].questions: unknown field"}},
		{"no pool", []string{"check", "filter"}, []string{"give --pool"}},
		{"no judge runs", []string{"check", "report", "--db", filepath.Join(dir, "empty.db")}, []string{"no judge runs"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := arbiter(t, env, append(tc.args, "--db", db)...)
			if tc.name == "no judge runs" {
				r = arbiter(t, env, tc.args...)
			}
			if r.code != 2 {
				t.Fatalf("exit %d; want 2\n%s", r.code, r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			for _, line := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
				if !strings.HasPrefix(line, "arbiter: ") {
					t.Errorf("stderr line %q is not one clear problem line", line)
				}
			}
		})
	}
	if n := srv.Requests(); n != 0 {
		t.Errorf("bad input sent %d requests; want none", n)
	}
}

// TestCheckPipeline runs augment, filter and judge through the command line: a
// generator reply that stays malformed is reported (exit 1) while the rest of the pool is
// written, and the judge's scores record the hash of the filtered checklist.
func TestCheckPipeline(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Responder: checkStandIn("Linguistic Formalism and Orthography")})
	defer srv.Close()
	env, db := checkEnv(t, srv)
	dir := t.TempDir()
	pool, list := filepath.Join(dir, "pool.yaml"), filepath.Join(dir, "checklist.yaml")

	r := arbiter(t, env, "check", "augment", "-q", "--generator", "openai/gen", "--db", db, "--out", pool, "--repairs", "1")
	if r.code != 1 {
		t.Fatalf("augment: exit %d; want 1 for the malformed criterion\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"augment: Linguistic Formalism and Orthography (diversification): reply still unusable after 2 asks: no JSON object",
		"augment: Linguistic Formalism and Orthography (elaboration)", "2 problem(s); " + pool + " holds everything else"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("augment stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	p, err := check.LoadChecklist(pool)
	if err != nil {
		t.Fatalf("pool: %v", err)
	}
	// 15 seeds + 5 criteria × 2 strategies × 5 questions.
	if n := len(p.Items()); n != 15+50 {
		t.Errorf("pool has %d questions; want 65", n)
	}

	r = arbiter(t, env, "check", "filter", "--pool", pool, "--filter-model", "openai/filter", "--db", db, "--out", list, "--format", "json")
	if r.code != 0 {
		t.Fatalf("filter: exit %d\n%s", r.code, r.stderr)
	}
	sum := decodeJSON(t, r.stdout)
	cl, err := check.LoadChecklist(list)
	if err != nil {
		t.Fatalf("checklist: %v", err)
	}
	if sum["hash"] != cl.Hash || cl.Edited() {
		t.Errorf("summary hash %v, file hash %s (edited %v)", sum["hash"], cl.Hash, cl.Edited())
	}
	if n := len(cl.Items()); n != 65-3 || sum["removed"] != 3.0 {
		t.Errorf("checklist has %d questions, %v removed; want 62 and 3 (one per dimension)", n, sum["removed"])
	}

	r = arbiter(t, env, "check", "judge", "-q", "--judge", "openai/judge", "--checklist", list, "--db", db, "--format", "json",
		"--transcripts", "builtin", "--questions-per-request", "20")
	if r.code != 0 {
		t.Fatalf("judge: exit %d\n%s", r.code, r.stderr)
	}
	if got := decodeJSON(t, r.stdout)["checklist"]; got != cl.Hash {
		t.Errorf("scores record checklist %v; want %s", got, cl.Hash)
	}
}

func TestCheckCasesFile(t *testing.T) {
	var sawCase, sawPlayer bool
	var mu sync.Mutex
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		mu.Lock()
		defer mu.Unlock()
		sawCase = sawCase || strings.Contains(req.Messages[0].Text, "# Case description\n<record>\n\"The orchard case, from the cases file.\"")
		sawPlayer = sawPlayer || strings.Contains(req.Messages[0].Text, "SECRET-PLAYER-LINE")
		return checkStandIn("")(req)
	}})
	defer srv.Close()
	env, db := checkEnv(t, srv)
	dir := t.TempDir()
	trial := filepath.Join(dir, "trial.txt")
	os.WriteFile(trial, []byte("# case_id: orchard\nJudge: Order.\nPlayer: SECRET-PLAYER-LINE\nWitness (Ann): I saw him.\nJudge: Not guilty.\n"), 0o644)
	cases := filepath.Join(dir, "cases.yaml")
	os.WriteFile(cases, []byte("orchard: The orchard case, from the cases file.\n"), 0o644)
	r := arbiter(t, env, "check", "judge", "-q", "--judge", "openai/j", "--transcripts", trial, "--cases", cases, "--db", db, "--format", "csv")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !sawCase || sawPlayer {
		t.Errorf("case description shown %v, player line shown %v; want true and false", sawCase, sawPlayer)
	}
	if !strings.Contains(r.stdout, "trial,orchard") {
		t.Errorf("CSV report lacks the transcript row:\n%s", r.stdout)
	}
}

// TestCheckJudgeNoFollowUps shows that --follow-ups 0 asks nothing again: a question the
// judge leaves unanswered is recorded missing after the first request.
func TestCheckJudgeNoFollowUps(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		r := checkStandIn("")(req)
		var kept []string
		for _, line := range strings.SplitAfter(r.Text, "\n") {
			if !strings.HasPrefix(line, "Q1 - ") {
				kept = append(kept, line)
			}
		}
		r.Text = strings.Join(kept, "")
		return r
	}})
	defer srv.Close()
	env, db := checkEnv(t, srv)
	r := arbiter(t, env, "check", "judge", "-q", "--judge", "openai/j", "--db", db, "--format", "json", "--follow-ups", "0")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if n := srv.Requests(); n != 25 {
		t.Errorf("--follow-ups 0 sent %d requests; want 25 (no follow-ups)", n)
	}
	if got := decodeJSON(t, r.stdout)["answers"].(map[string]any)["missing"]; got != 5.0 {
		t.Errorf("missing answers = %v; want 5 (Q1 of each transcript)", got)
	}
}

// TestCheckAugmentNoRepairs shows that --repairs 0 asks a malformed reply once.
func TestCheckAugmentNoRepairs(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Responder: checkStandIn("Linguistic Formalism and Orthography")})
	defer srv.Close()
	env, db := checkEnv(t, srv)
	r := arbiter(t, env, "check", "augment", "-q", "--generator", "openai/gen", "--db", db,
		"--out", filepath.Join(t.TempDir(), "pool.yaml"), "--repairs", "0")
	if r.code != 1 {
		t.Fatalf("augment: exit %d; want 1 for the malformed criterion\n%s", r.code, r.stderr)
	}
	if want := "reply still unusable after 1 asks"; !strings.Contains(r.stderr, want) {
		t.Errorf("augment --repairs 0 stderr lacks %q:\n%s", want, r.stderr)
	}
}
