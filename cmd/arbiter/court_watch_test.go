package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// court watch replays a stored simulated trial from the store (turn by turn, to its
// verdict, asking nothing), follows a finished game, and refuses an unknown id.
func TestCourtWatch(t *testing.T) {
	s := newCourtStandIn(t, 0)
	dir := t.TempDir()
	db, out := filepath.Join(dir, "court.db"), filepath.Join(dir, "trials")
	args := append([]string{"court", "simulate", "-q", "--seeds", "1", "--cases", playCases, "--db", db, "--out", out}, courtRoleFlags...)
	if r := arbiter(t, s.env(), args...); r.code != 0 {
		t.Fatalf("court simulate = %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	trials := readTrials(t, out)
	if len(trials) != 1 {
		t.Fatalf("%d trials", len(trials))
	}
	for id, tr := range trials {
		asked := s.n.Load()
		r := arbiter(t, nil, "court", "watch", id, "--db", db, "--cases", playCases, "--every", "0s")
		if r.code != 0 {
			t.Fatalf("court watch = %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		pieces := []string{"— Introduction —"}
		for _, tu := range tr.Turns {
			pieces = append(pieces, tu.Text)
		}
		inOrder(t, r.stdout, append(pieces, "VERDICT: ")...)
		if s.n.Load() != asked {
			t.Errorf("court watch asked the stand-in %d times", s.n.Load()-asked)
		}
	}
	// A game played on the same store, followed to its verdict.
	ps := newPlayStandIn(t, nil)
	stdin := "The defense opens.\n/rest\nWATCHED-CLOSING nobody saw her.\n"
	p := arbiterIn(t, nil, stdin, ps.playArgs(db, "--cases", playCases, "--case", "lantern-theft", "--seed", "7")...)
	if p.code != 0 {
		t.Fatalf("court play = %d\n%s", p.code, p.stderr)
	}
	w := arbiter(t, nil, "court", "watch", gameIDOf(t, p.stdout), "--db", db)
	if w.code != 0 {
		t.Fatalf("court watch a game = %d\n%s", w.code, w.stderr)
	}
	inOrder(t, w.stdout, "— Introduction —", "Defense (player): The defense opens.", "— Closing —", "WATCHED-CLOSING", "VERDICT: not guilty (the defense's outcome: win)")
	if r := arbiter(t, nil, "court", "watch", "lantern-theft-s9-abcdef", "--db", db, "--cases", playCases); r.code == 0 || !strings.Contains(r.stderr, "no game and no simulated trial") {
		t.Errorf("an unknown id = %d\n%s", r.code, r.stderr)
	}
}
