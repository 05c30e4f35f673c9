package court

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/llm"
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

// driveTwo runs a two-player trial: next gives each side's move at its floor.
func driveTwo(t *testing.T, tr *Trial, ev *events, next map[Side]func(f *Floor) Move) {
	t.Helper()
	for range 300 {
		err := tr.Run(context.Background(), ev.add)
		if err == nil {
			return
		}
		if !errors.Is(err, ErrAwaitingDefense) {
			t.Fatalf("Run: %v", err)
		}
		side := tr.Waiting()
		f := tr.floorOf(tr.seatOf(side))
		if f.Side() != side {
			t.Fatalf("the %s's floor says %s", side, f.Side())
		}
		if err := tr.SubmitFor(side, next[side](f)); err != nil {
			t.Fatalf("SubmitFor(%s): %v", side, err)
		}
	}
	t.Fatal("the trial did not end")
}

func newTwo(t *testing.T, ask Asker, budget int) *Trial {
	t.Helper()
	tr, err := NewTrial(crossCase(t), 7, Settings{Models: testModels, Side: SideDefense, TwoPlayers: true, TurnBudget: budget}, ask, NewHuman())
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// With two people the invited prosecution presents like the creator: a miss costs the
// prosecution's credibility only, and the
// planted item of the defense-called witness exposes its contradiction for the
// prosecution; each side's debrief counts its own play.
func TestTwoPlayersSameFloorRules(t *testing.T) {
	rec := record(t, fakeModels(nil))
	tr := newTwo(t, rec, 0)
	ev := &events{}
	step := 0
	driveTwo(t, tr, ev, map[Side]func(f *Floor) Move{
		SideDefense: func(f *Floor) Move {
			return Move{Kind: MoveSpeak, Text: "The defense notes the hour, Your Honour.", To: Judge}
		},
		SideProsecution: func(f *Floor) Move {
			if f.Phase != PhaseInterrogation {
				return Move{Kind: MoveSpeak, Text: "The people will prove the charge."}
			}
			if len(f.Addressees) == 0 {
				t.Errorf("the invited prosecution has no addressees")
			}
			step++
			switch step {
			case 1:
				return Move{Kind: MoveSpeak, Text: "Witness, when was the lantern pawned?", To: WitnessSpeaker("nell")}
			case 2:
				return Move{Kind: MovePresent, Evidence: "E1"} // breaks no claim of nell's: a miss
			case 3:
				return Move{Kind: MovePresent, Evidence: "E2"} // nell is the defense's witness: C2 is the prosecution's too
			}
			return Move{Kind: MoveRest}
		},
	})
	if n := rec.count(AgentProsecutor) + rec.count(AgentDefense); n != 0 {
		t.Errorf("a counsel's model was asked %d times; people play both", n)
	}
	xs := kinds(ev.all, EventExposed)
	if len(xs) != 1 || xs[0].Exposure.Contradiction != "C2" || xs[0].Side != SideProsecution || xs[0].Exposure.Side != SideProsecution {
		t.Fatalf("exposed events %+v; want C2 by the prosecution", xs)
	}
	if got := tr.CredibilityOf(SideProsecution); got != StartCredibility-MissCost+HitGain {
		t.Errorf("prosecution credibility %d; want %d", got, StartCredibility-MissCost+HitGain)
	}
	if got := tr.CredibilityOf(SideDefense); got != StartCredibility {
		t.Errorf("defense credibility %d; want %d (the prosecution's miss is not the defense's)", got, StartCredibility)
	}
	for _, e := range kinds(ev.all, EventCredibility) {
		if e.Side != SideProsecution {
			t.Errorf("credibility event %+v; only the prosecution's moved", e)
		}
	}
	pd, dd := tr.DebriefFor(SideProsecution), tr.DebriefFor(SideDefense)
	if pd == nil || dd == nil {
		t.Fatalf("debriefs %v %v; want one per side", pd, dd)
	}
	if pd.Side != SideProsecution || pd.Found != 1 || pd.Misses != 1 || pd.Presented != 2 || pd.Credibility != 90 {
		t.Errorf("prosecution debrief %+v", pd)
	}
	if dd.Side != SideDefense || dd.Found != 0 || dd.Presented != 0 || dd.Credibility != 100 || dd.Outcome == pd.Outcome {
		t.Errorf("defense debrief %+v (prosecution's outcome %q)", dd, pd.Outcome)
	}
}

// The analyzer never gives either person the floor, yet each waits at most MaxCourtRun
// court turns for it.
func TestTwoPlayersFairFloorEach(t *testing.T) {
	stingy := fakeModels(func(role string, req *llm.Request) (string, bool) {
		if role != "analyzer" {
			return "", false
		}
		if m := routeOf.FindStringSubmatch(req.Messages[0].Text); m != nil && m[1] == "Judge" {
			return "<NextSpeaker: Witness_tomas>", true
		}
		return "<NextSpeaker: Judge>", true
	})
	tr := newTwo(t, stingy, 20)
	speak := func(f *Floor) Move { return Move{Kind: MoveSpeak, Text: "A point for the record."} }
	driveTwo(t, tr, &events{}, map[Side]func(f *Floor) Move{SideDefense: speak, SideProsecution: speak})
	checkWaits(t, tr.Transcript())
}

// checkWaits fails unless each counsel spoke in the interrogation of tx and never
// waited more than MaxCourtRun court turns in a row for the floor.
func checkWaits(t *testing.T, tx *Transcript) {
	t.Helper()
	for _, role := range []check.Role{check.RoleDefense, check.RoleProsecutor} {
		run, longest, spoke := 0, 0, 0
		for _, tu := range tx.Turns {
			switch {
			case tu.Phase != PhaseInterrogation:
			case tu.Role == role:
				run = 0
				spoke++
			case !tu.Player:
				run++
				longest = max(longest, run)
			}
		}
		if longest > MaxCourtRun || spoke == 0 {
			t.Errorf("%s: waited up to %d court turns, spoke %d times; want at most %d, and a turn", role, longest, spoke, MaxCourtRun)
		}
	}
}

// The fair floor bounds each person's wait whatever the other does with theirs: a
// presentation, a press or an objection is answered before the floor moves on, and
// that answer is a court turn the other person waits through too. The analyzer never
// gives either person the floor, and both start the interrogation having waited alike,
// so the person whose floor comes first (the creator's seat) moves while the other
// has waited as long.
func TestTwoPlayersFairFloorAnsweredMoves(t *testing.T) {
	stingy := fakeModels(func(role string, req *llm.Request) (string, bool) {
		if role != "analyzer" {
			return "", false
		}
		if m := routeOf.FindStringSubmatch(req.Messages[0].Text); m != nil && m[1] == "Judge" {
			return "<NextSpeaker: Witness_tomas>", true
		}
		return "<NextSpeaker: Judge>", true
	})
	speak := func(f *Floor) Move { return Move{Kind: MoveSpeak, Text: "A point for the record."} }
	moves := map[MoveKind]func(f *Floor) Move{
		MovePresent: func(f *Floor) Move {
			if f.Phase != PhaseInterrogation || f.Stand == "" {
				return speak(f)
			}
			return Move{Kind: MovePresent, Evidence: "E1"}
		},
		MovePress: func(f *Floor) Move {
			if f.Phase != PhaseInterrogation || f.Statements == 0 {
				return speak(f)
			}
			return Move{Kind: MovePress, Statement: f.Statements}
		},
		MoveObject: func(f *Floor) Move {
			if f.Phase != PhaseInterrogation {
				return speak(f)
			}
			return Move{Kind: MoveObject, Text: "Objection: hearsay."}
		},
	}
	for _, mover := range []Side{SideDefense, SideProsecution} {
		for _, kind := range []MoveKind{MovePresent, MovePress, MoveObject} {
			for _, creator := range []Side{mover, mover.Other()} {
				for _, hold := range []bool{false, true} {
					name := fmt.Sprintf("%s %s, %s created", mover, kind, creator)
					if hold {
						name += ", holds as the other is due"
					}
					t.Run(name, func(t *testing.T) {
						tr, err := NewTrial(crossCase(t), 7, Settings{Models: testModels, Side: creator, TwoPlayers: true, TurnBudget: 20}, stingy, NewHuman())
						if err != nil {
							t.Fatal(err)
						}
						ev := &events{}
						if hold {
							// The mover calls "Hold it!" during the court's line that makes
							// the other person's wait MaxCourtRun.
							me, other := tr.seatOf(mover), tr.seatOf(mover.Other())
							ev.hook = func(e Event) {
								if e.Kind == EventTurn && e.Phase == PhaseInterrogation && !tr.plays(Speaker(e.Speaker)) && tr.cur.run[other] == MaxCourtRun-1 {
									tr.humanOf(me).Hold()
								}
							}
						}
						driveTwo(t, tr, ev, map[Side]func(f *Floor) Move{mover: moves[kind], mover.Other(): speak})
						checkWaits(t, tr.Transcript())
					})
				}
			}
		}
	}
}
