package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/store"
	"github.com/arbiter-eval/arbiter/internal/web"
)

// --join checks the link's token against the store: a watcher's token and an unknown
// one are refused with exit 2; the invitation plays the other side than the creator's.
func TestCourtPlayJoin(t *testing.T) {
	srv := newPlayStandIn(t, nil)
	db := filepath.Join(t.TempDir(), "s.db")
	r := arbiterIn(t, nil, "/quit\n", srv.playArgs(db, "--cases", playCases, "--case", "lantern-theft", "--seed", "7")...)
	if r.code != 0 {
		t.Fatalf("court play = %d; stderr %s", r.code, r.stderr)
	}
	id := gameIDOf(t, r.stdout)
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	// The game becomes one of two people, with its tokens, as the server makes them.
	rec, err := st.CourtGame(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var state map[string]any
	if err := json.Unmarshal(rec.State, &state); err != nil {
		t.Fatal(err)
	}
	state["two_players"] = true
	rec.State, _ = json.Marshal(state)
	for _, e := range []error{st.PutCourtGame(ctx, rec),
		st.PutCourtGameToken(ctx, id, web.TokenHash("watchtok"), store.GameWatch),
		st.PutCourtGameToken(ctx, id, web.TokenHash("invitetok"), store.GameInvite)} {
		if e != nil {
			t.Fatal(e)
		}
	}
	st.Close()

	for _, link := range []string{"/court/games/" + id + "?token=watchtok", id + " nosuchtok"} {
		r := arbiterIn(t, nil, "", srv.playArgs(db, "--join", link)...)
		if r.code != 2 || !strings.Contains(r.stderr, "--join: cannot join") {
			t.Errorf("--join %s = %d, want 2 and a sentence; stderr %s", link, r.code, r.stderr)
		}
	}
	r = arbiterIn(t, nil, "/quit\n", srv.playArgs(db, "--join", "http://localhost:8080/court/games/"+id+"?token=invitetok")...)
	if r.code != 0 {
		t.Fatalf("--join with the invitation = %d; stderr %s\nstdout %s", r.code, r.stderr, r.stdout)
	}
	if !strings.Contains(r.stdout, "You are the prosecution") {
		t.Errorf("the invitation of a defense game does not play the prosecution:\n%s", r.stdout)
	}
}
