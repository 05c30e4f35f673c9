package court

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// A two-player game waits for whichever person has the floor, refuses the other side
// (ErrNotYourFloor), and loaded from the store stands where it stood, each person's
// moves given back to them, asking no model.
func TestGameTwoPlayersLoaded(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	var asked atomic.Int64
	gs := openGames(t, path, counted(fakeModels(nil), &asked))
	g, err := gs.New(ctx, "two", GameState{Case: fixture(t), Seed: 7, Models: gameModels(), TwoPlayers: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, side := range []Side{SideProsecution, SideDefense} {
		if err := g.Advance(ctx); err != nil {
			t.Fatal(err)
		}
		v := g.View()
		if !v.AwaitingPlayer || v.Floor != side || !v.TwoPlayers {
			t.Fatalf("move %d: floor %q awaiting %v; want the %s's", i, v.Floor, v.AwaitingPlayer, side)
		}
		if err := g.SubmitFor(side.Other(), Move{Kind: MoveSpeak, Text: "Out of turn."}); !errors.Is(err, ErrNotYourFloor) {
			t.Errorf("the %s out of turn: %v; want ErrNotYourFloor", side.Other(), err)
		}
		if err := g.SubmitFor(side, Move{Kind: MoveSpeak, Text: "The " + string(side) + " opens."}); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Advance(ctx); err != nil {
		t.Fatal(err)
	}
	want := g.View()
	for _, tu := range want.Turns {
		if tu.Player != (tu.Role == "defense" || tu.Role == "prosecutor") {
			t.Errorf("turn %+v: the counsels' turns are the players'", tu)
		}
	}
	before := asked.Load()
	g2, err := openGames(t, path, counted(fakeModels(nil), &asked)).Load(ctx, "two")
	if err != nil {
		t.Fatal(err)
	}
	got := g2.View()
	if asked.Load() != before || len(got.Turns) != len(want.Turns) || got.Floor != want.Floor || !got.TwoPlayers {
		t.Errorf("loaded: %d turns floor %q (asked %d more); want %d turns floor %q", len(got.Turns), got.Floor, asked.Load()-before, len(want.Turns), want.Floor)
	}
}
