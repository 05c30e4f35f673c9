package web

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/court"
)

// The browser's "Hold it!" while the court speaks in the terminal of the other person
// (court play --join, another process on the store) is accepted, not refused as a hold
// with no court speaking, and the terminal's court honours it: the defense has the
// floor at the end of the witness's line, and the hold is a stored move of the game.
func TestCourtTwoPlayersHoldWhileTerminalSpeaks(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	r.saveLantern()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	id, _, g := r.twoToInterrogation(ctx, t)
	if code, _ := r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"hold": true}); code != http.StatusConflict {
		t.Errorf("a hold on the prosecution's floor = %d; want 409", code)
	}
	// The terminal asks the witness, whose answer is held: its court speaks.
	release := r.holdWitness()
	if err := g.SubmitFor(court.SideProsecution, court.Move{Kind: court.MoveSpeak, Text: "Where were you at eleven?", To: court.WitnessSpeaker("tomas")}); err != nil {
		t.Fatal(err)
	}
	advanced := make(chan error, 1)
	go func() { advanced <- g.Advance(ctx) }()
	r.waitHeld()
	if code, out := r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"hold": true}); code != http.StatusAccepted {
		t.Fatalf("the browser's hold while the terminal's court speaks = %d %v; want 202", code, out)
	}
	release()
	if err := <-advanced; err != nil {
		t.Fatal(err)
	}
	tv := g.View()
	last := tv.Turns[len(tv.Turns)-1]
	if !tv.AwaitingPlayer || tv.Floor != court.SideDefense || last.Role != "witness" {
		t.Fatalf("the terminal's court after the witness's line: floor %q, last turn %s; want the defense holding", tv.Floor, last.Speaker)
	}
	v := r.waitFloorOf(id, court.SideDefense)
	if len(v.Turns) != len(tv.Turns) {
		t.Errorf("the page shows %d turns; the terminal's court spoke %d", len(v.Turns), len(tv.Turns))
	}
	rec, err := r.st.CourtGame(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var st court.GameState
	if err := json.Unmarshal(rec.State, &st); err != nil {
		t.Fatal(err)
	}
	holds := 0
	for _, m := range st.Moves {
		if m.Kind == court.MoveHold {
			holds++
		}
	}
	if holds != 1 {
		t.Errorf("the stored game has %d holds; want 1: %+v", holds, st.Moves)
	}
	// The defense moves on the floor its hold gave it.
	if code, out := r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "Hold it: you said the fog hid every face."}); code != http.StatusAccepted {
		t.Fatalf("the defense's move after its hold = %d %v", code, out)
	}
}
