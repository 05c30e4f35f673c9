package court

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

func openGames(t *testing.T, path string, models map[llm.ModelName]llm.Model) *Games {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &Games{Session: &runner.Session{Store: st, Models: models, NoCache: true}}
}

func gameModels() Models {
	m := testModels
	m.Defense = ""
	return m
}

// A game played move by move, with readers polling it all along (the race detector
// watches), then loaded from the store by another Games: it stands where it stood and no
// model is asked; then it goes on to the verdict.
func TestGamePlayedAndLoaded(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	var asked atomic.Int64
	gs := openGames(t, path, counted(fakeModels(nil), &asked))
	g, err := gs.New(ctx, "g1", GameState{Case: fixture(t), Seed: 7, Models: gameModels(), Player: PlayerInfo{Name: "Ada"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gs.New(ctx, "g1", GameState{Case: fixture(t)}); err == nil {
		t.Error("a second game with the same id was made")
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for n := 0; ; {
			select {
			case <-stop:
				return
			default:
			}
			evs, ch := g.Events(n)
			n += len(evs)
			_ = g.View()
			_ = g.Transcript()
			select {
			case <-ch:
			case <-stop:
				return
			}
		}
	})
	if err := g.Advance(ctx); err != nil {
		t.Fatal(err)
	}
	v := g.View()
	if !v.AwaitingDefense || len(v.Turns) != 2 || v.Phase != PhaseIntroduction {
		t.Fatalf("after the first Advance: awaiting %v, %d turns, %s; want the defense's opening", v.AwaitingDefense, len(v.Turns), v.Phase)
	}
	if err := g.Submit(Move{Kind: MoveSpeak, Text: ""}); err == nil {
		t.Error("an empty move was accepted")
	}
	if err := g.Submit(Move{Kind: MoveSpeak, Text: "The defense will show the lantern was never taken."}); err != nil {
		t.Fatal(err)
	}
	if err := g.Submit(Move{Kind: MoveSpeak, Text: "Twice."}); !errors.Is(err, ErrBusy) {
		t.Errorf("a second move before the court spoke = %v; want ErrBusy", err)
	}
	if err := g.Advance(ctx); err != nil {
		t.Fatal(err)
	}
	v = g.View()
	if !v.AwaitingDefense || v.Phase != PhaseInterrogation || len(v.Addressees) == 0 {
		t.Fatalf("after the opening: awaiting %v in %s, addressees %v", v.AwaitingDefense, v.Phase, v.Addressees)
	}
	if err := g.Submit(Move{Kind: MoveSpeak, Text: "Witness, what did you see?", To: "Witness_nell"}); err != nil {
		t.Fatal(err)
	}
	if err := g.Advance(ctx); err != nil {
		t.Fatal(err)
	}
	before := g.View()
	beforeAsked := asked.Load()
	close(stop)
	wg.Wait()

	// Another process loads it: no model is asked and the game stands where it stood.
	var again atomic.Int64
	gs2 := openGames(t, path, counted(fakeModels(nil), &again))
	g2, err := gs2.Load(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	after := g2.View()
	a, _ := json.Marshal(before)
	b, _ := json.Marshal(after)
	if string(a) != string(b) {
		t.Errorf("the loaded game differs:\n%s\n%s", a, b)
	}
	if again.Load() != 0 {
		t.Errorf("loading asked %d requests", again.Load())
	}
	if evs, _ := g2.Events(0); len(kinds(evs, EventEnd)) != len(before.Turns) {
		t.Errorf("the loaded game's log has %d ends for %d turns", len(kinds(evs, EventEnd)), len(before.Turns))
	}
	if err := g2.Submit(Move{Kind: MoveRest}); err != nil {
		t.Fatal(err)
	}
	if err := g2.Advance(ctx); err != nil {
		t.Fatal(err)
	}
	if v = g2.View(); !v.AwaitingDefense || v.Phase != PhaseClosing {
		t.Fatalf("after resting: awaiting %v in %s; want the defense's closing", v.AwaitingDefense, v.Phase)
	}
	if err := g2.Submit(Move{Kind: MoveSpeak, Text: "Nobody saw my client take it."}); err != nil {
		t.Fatal(err)
	}
	if err := g2.Advance(ctx); err != nil {
		t.Fatal(err)
	}
	v = g2.View()
	if v.Outcome == nil || *v.Outcome != OutcomeWin || v.Phase != PhaseVerdict {
		t.Fatalf("after resting: outcome %v in %s", v.Outcome, v.Phase)
	}
	if err := g2.Submit(Move{Kind: MoveSpeak, Text: "more"}); !errors.Is(err, ErrOver) {
		t.Errorf("a move after the verdict = %v; want ErrOver", err)
	}
	list, err := gs2.List(ctx)
	if err != nil || len(list) != 1 || list[0].Outcome != OutcomeWin || list[0].Turns != len(v.Turns) {
		t.Errorf("List = %+v, %v", list, err)
	}
	if beforeAsked == 0 {
		t.Error("the first process asked nothing: the test proves nothing")
	}
}

// A turn being spoken when the process stops has no result: loading the game replays up
// to it, and Advance asks it again.
func TestGameTurnInFlightAskedAgain(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	block := make(chan struct{})
	models := counted(fakeModels(nil), new(atomic.Int64))
	prosecutor := models[testModels.Prosecutor]
	cctx, cancel := context.WithCancel(ctx)
	models[testModels.Prosecutor] = llm.Func{ModelName: testModels.Prosecutor, Fn: func(c context.Context, req *llm.Request) (*llm.Reply, error) {
		if strings.Contains(req.Messages[0].Text, "Phase: introduction") {
			close(block)
			<-c.Done()
			return nil, c.Err()
		}
		return prosecutor.Generate(c, req)
	}}
	gs := openGames(t, path, models)
	g, err := gs.New(ctx, "g2", GameState{Case: fixture(t), Seed: 3, Models: gameModels()})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() { done <- g.Advance(cctx) }()
	<-block
	if v := g.View(); !v.Busy || len(v.Turns) != 1 {
		t.Errorf("while the prosecutor speaks: busy %v, %d turns", v.Busy, len(v.Turns))
	}
	if err := g.Advance(ctx); !errors.Is(err, ErrBusy) {
		t.Errorf("a second Advance = %v; want ErrBusy", err)
	}
	cancel()
	<-done

	var again atomic.Int64
	gs2 := openGames(t, path, counted(fakeModels(nil), &again))
	g2, err := gs2.Load(ctx, "g2")
	if err != nil {
		t.Fatal(err)
	}
	if v := g2.View(); len(v.Turns) != 1 || v.AwaitingDefense {
		t.Fatalf("loaded: %d turns, awaiting %v; want the judge's turn only", len(v.Turns), v.AwaitingDefense)
	}
	if err := g2.Advance(ctx); err != nil {
		t.Fatal(err)
	}
	if v := g2.View(); len(v.Turns) != 2 || !v.AwaitingDefense || v.Turns[1].Speaker != "Prosecutor" {
		t.Fatalf("after Advance: %d turns, awaiting %v", len(v.Turns), v.AwaitingDefense)
	}
	if again.Load() != 1 {
		t.Errorf("going on asked %d requests; want the prosecutor's one", again.Load())
	}
	if tr := g2.Transcript(); tr.Retries != 0 {
		t.Errorf("an interrupted turn counted as a failure: retries %d", tr.Retries)
	}
}

// A failure stops the game and offers the restart; after Restart the trial begins
// again with the failure counted, and a loaded game replays past the restart.
func TestGameOffersRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	var once atomic.Bool
	models := counted(fakeModels(func(role string, req *llm.Request) (string, bool) {
		if role == "prosecutor" && !once.Swap(true) {
			return "", true
		}
		return "", false
	}), new(atomic.Int64))
	gs := openGames(t, path, models)
	g, err := gs.New(ctx, "g3", GameState{Case: fixture(t), Seed: 5, Models: gameModels()})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Advance(ctx); err != nil {
		t.Fatal(err)
	}
	if v := g.View(); !v.RestartOffered || v.AwaitingDefense {
		t.Fatalf("after an empty reply: restart offered %v, awaiting %v", v.RestartOffered, v.AwaitingDefense)
	}
	if err := g.Submit(Move{Kind: MoveSpeak, Text: "hello"}); !errors.Is(err, ErrNotAwaiting) {
		t.Errorf("a move while a restart is offered = %v", err)
	}
	if err := g.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if err := g.Advance(ctx); err != nil {
		t.Fatal(err)
	}
	want := g.View()
	if !want.AwaitingDefense || g.Transcript().Retries != 1 {
		t.Fatalf("after the restart: awaiting %v, retries %d", want.AwaitingDefense, g.Transcript().Retries)
	}
	g2, err := openGames(t, path, nil).Load(ctx, "g3")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(want)
	b, _ := json.Marshal(g2.View())
	if string(a) != string(b) {
		t.Errorf("the loaded game differs:\n%s\n%s", a, b)
	}
}

// A client that moves the moment it sees the floor given is never told the court is
// busy: the awaiting event is logged only once the game takes moves.
func TestGameAwaitingMeansReady(t *testing.T) {
	afterRun = func() { time.Sleep(20 * time.Millisecond) }
	defer func() { afterRun = func() {} }()
	ctx := context.Background()
	gs := openGames(t, filepath.Join(t.TempDir(), "games.db"), counted(fakeModels(nil), new(atomic.Int64)))
	g, err := gs.New(ctx, "g4", GameState{Case: fixture(t), Seed: 2, Models: gameModels()})
	if err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 3; round++ {
		evs, _ := g.Events(0)
		n := 0
		if len(evs) > 0 {
			n = evs[len(evs)-1].Seq
		}
		done := make(chan error, 1)
		go func() { done <- g.Advance(ctx) }()
		for moved := false; !moved; {
			evs, ch := g.Events(n)
			for _, e := range evs {
				n = e.Seq
				if e.Kind == EventAwaiting {
					if err := g.Submit(Move{Kind: MoveSpeak, Text: "The defense asks the court to note the fog."}); err != nil {
						t.Fatalf("round %d: a move right after the awaiting event = %v", round, err)
					}
					moved = true
				}
			}
			if !moved {
				<-ch
			}
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
