package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// court play --side prosecution: the person types the Prosecutor's lines, the defense's
// come from --defense-model; the transcript marks the person's turns, and check judge
// --player prosecutor on it shows the judge every turn but exactly those.
func TestCourtPlayProsecutionThenCheck(t *testing.T) {
	srv := newPlayStandIn(t, nil)
	dir := t.TempDir()
	tx := filepath.Join(dir, "game.json")
	mine := []string{"PROS-OPEN-1 The people will prove the theft.", "PROS-Q-2 Who pawned it?", "PROS-CLOSE-3 The ticket decides it."}
	stdin := mine[0] + "\n/to witness_nell " + mine[1] + "\n/rest\n" + mine[2] + "\n"
	r := arbiterIn(t, nil, stdin, srv.playArgs(filepath.Join(dir, "s.db"), "--cases", playCases, "--case", "lantern-theft",
		"--seed", "7", "--side", "prosecution", "--defense-model", "openai/defense", "--transcript", tx)...)
	if r.code != 0 {
		t.Fatalf("court play = %d; stderr %s\nstdout %s", r.code, r.stderr, r.stdout)
	}
	inOrder(t, r.stdout, "You are the prosecution.", "The prosecution has the floor: your opening statement.", "prosecution> ",
		"Prosecutor: PROS-OPEN-1", "Defense: ", "(defense, turn", "— Verdict —", "(the prosecution goal was")
	b, err := os.ReadFile(tx)
	if err != nil {
		t.Fatal(err)
	}
	var got court.Transcript
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	var players []string
	for _, turn := range got.Turns {
		if turn.Player {
			players = append(players, turn.Text)
			if turn.Role != "prosecutor" {
				t.Errorf("a player turn of the %s", turn.Role)
			}
		}
	}
	if got.Side != court.SideProsecution || len(players) != 4 || !strings.HasPrefix(players[0], "PROS-OPEN-1") {
		t.Fatalf("transcript side %q, player turns %q\n%s", got.Side, players, r.stdout)
	}
	if srv.sawText("prosecutor", "") != 0 {
		t.Errorf("the prosecutor's model was asked")
	}

	var mu sync.Mutex
	var firsts []string
	standIn := checkStandIn("")
	csrv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		if strings.Contains(req.System, "You grade transcripts") {
			mu.Lock()
			firsts = append(firsts, req.Messages[0].Text)
			mu.Unlock()
		}
		return standIn(req)
	}})
	defer csrv.Close()
	env, db := checkEnv(t, csrv)
	c := arbiter(t, env, "check", "judge", "-q", "--judge", "openai/j", "--db", db, "--format", "json", "--player", "prosecutor", "--transcripts", tx)
	if c.code != 0 {
		t.Fatalf("check judge = %d\n%s", c.code, c.stderr)
	}
	all := strings.Join(firsts, "\n")
	if len(firsts) == 0 {
		t.Fatal("the judge was never asked")
	}
	for _, p := range []string{"PROS-OPEN-1", "PROS-Q-2", "PROS-CLOSE-3"} {
		if strings.Contains(all, p) {
			t.Errorf("the player's line %s reached the judge", p)
		}
	}
	if !strings.Contains(all, "(defense, turn") || !strings.Contains(all, "I saw a figure") {
		t.Errorf("the court's turns did not reach the judge:\n%s", all)
	}
}
