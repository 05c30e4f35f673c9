package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// humanStore keeps Keeper-game attempts on the first roll scenarios of the reference
// set: three by a player who shares, one by a player who does not.
func humanStore(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "game.db")
	st := openStore(t, db)
	defer st.Close()
	ref, err := seduce.Builtin(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []store.KeeperPlayer{{ID: "p1", TokenHash: "h1", Pseudonym: "Ada", Share: true}, {ID: "p2", TokenHash: "h2", Pseudonym: "Bo"}} {
		if err := st.AddKeeperPlayer(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	styles := []string{"Authority", "Neutral", "Omission", "Pseudo-Logic"}
	n := 0
	for _, s := range ref.Samples {
		if !s.RequiresRoll || s.Style != seduce.StyleNeutral || n == len(styles) {
			continue
		}
		player := "p1"
		if n == 3 {
			player = "p2"
		}
		a := store.KeeperAttempt{ID: "a" + string(rune('0'+n)), PlayerID: player, RoundID: "r-" + player, Position: n, Author: "x",
			SampleID: string(s.ID), ScenarioID: s.ScenarioID, Setting: string(s.Setting), Category: string(s.Category), Skill: s.Skill,
			GoldSkill: s.GoldSkill, Context: s.Context, Statement: "Human statement " + string(rune('A'+n)) + ": trust me, I do it.",
			Style: styles[n], Model: "openai/keeper", Ruling: "roll"}
		if err := st.AddKeeperAttempt(ctx, a); err != nil {
			t.Fatal(err)
		}
		n++
	}
	return db
}

// The export holds the sharing player's attempts only, as a dataset that validates; run
// with a slice of the reference set against a stand-in, the report has human as a
// generator beside reference, and the home/away columns, figure 3 and the text report
// take a generator with no family (never home: its samples count as away).
func TestHumanExportValidatesAndRuns(t *testing.T) {
	db := humanStore(t)
	out := filepath.Join(t.TempDir(), "human.jsonl")
	if r := arbiter(t, nil, "seduce", "human", "export", "--db", db, "--out", out); r.code != 0 {
		t.Fatalf("seduce human export: exit %d\n%s", r.code, r.stderr)
	}
	body, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if len(lines) != 3 || strings.Contains(string(body), "Human statement D") {
		t.Fatalf("export = %d lines (the non-sharing player's in it: %v); want the sharing player's 3\n%s",
			len(lines), strings.Contains(string(body), "Human statement D"), body)
	}
	for _, want := range []string{`"generator":"human"`, `"author":"Ada"`, `"requires_roll":true`, `"id":"human-a0"`, `"scenario_id":"ref-`} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("first exported line lacks %s: %s", want, lines[0])
		}
	}
	if r := arbiter(t, nil, "seduce", "validate", "--dataset", out); r.code != 0 || !strings.Contains(r.stdout, "ok: 3 samples") {
		t.Fatalf("seduce validate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	srv := llmtest.NewServer(llmtest.Options{Responder: keeperReply})
	defer srv.Close()
	env := map[string]string{"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	small := smallDataset(t, 16)
	run := func(format string) result {
		r := arbiter(t, env, "seduce", "run", "-q", "--db", filepath.Join(filepath.Dir(out), "run.db"), "--dataset", small, "--dataset", out,
			"-m", "openai/gpt-standin", "--bootstrap", "0", "--format", format)
		if r.code != 0 {
			t.Fatalf("seduce run --format %s: exit %d\n%s", format, r.code, r.stderr)
		}
		return r
	}
	rep := decodeJSON(t, run("json").stdout)
	gens := map[string]bool{}
	for g, row := range rep["generator_target"].(map[string]any) {
		gens[g] = true
		if g == "human" && row.(map[string]any)["gpt"] == nil {
			t.Errorf("figure 3's human row = %v; want the gpt target's FR on human samples", row)
		}
	}
	if !gens["human"] || !gens["reference"] {
		t.Errorf("figure 3's generators = %v; want human beside reference", gens)
	}
	m := rep["models"].([]any)[0].(map[string]any)
	if m["family"] != "gpt" || m["home_fr"] != nil || m["away_fr"] == nil {
		t.Errorf("model %v: family %v, home_fr %v, away_fr %v; want gpt, null (no gpt samples), a number", m["model"], m["family"], m["home_fr"], m["away_fr"])
	}
	if text := run("text").stdout; !strings.Contains(text, "human") {
		t.Errorf("the text report does not name the human generator:\n%s", text)
	}
}
