package court

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// twoProcesses opens one store twice, as a server and a terminal each do, over models
// that count their calls; the first makes a game of two and lets its court speak to
// the defense's opening.
func twoProcesses(t *testing.T, models map[llm.ModelName]llm.Model) (a, b *Games, g *Game) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "games.db")
	a, b = openGames(t, path, models), openGames(t, path, models)
	g, err := a.New(context.Background(), "two", GameState{Case: fixture(t), Seed: 7, Models: gameModels(), TwoPlayers: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range []Side{SideProsecution, SideDefense} {
		if err := g.Advance(context.Background()); err != nil {
			t.Fatal(err)
		}
		if v := g.View(); v.Floor != side {
			t.Fatalf("floor %q; want the %s's", v.Floor, side)
		}
		if side == SideProsecution {
			if err := g.SubmitFor(side, Move{Kind: MoveSpeak, Text: "The people open."}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return a, b, g
}

// Of two processes holding one game at the same floor, the second to move after the
// first did is refused at its first save (store.ErrConflict) before its court asks
// any model, and the game it holds, followed, is the first's: every turn of it, its
// events numbered on from those it had logged.
func TestJoinStaleMoveConflicts(t *testing.T) {
	ctx := context.Background()
	var asked atomic.Int64
	_, b, ga := twoProcesses(t, counted(fakeModels(nil), &asked))
	gb, err := b.Load(ctx, "two")
	if err != nil {
		t.Fatal(err)
	}
	if err := ga.SubmitFor(SideDefense, Move{Kind: MoveSpeak, Text: "The defense opens, here."}); err != nil {
		t.Fatal(err)
	}
	if err := ga.Advance(ctx); err != nil {
		t.Fatal(err)
	}
	before := asked.Load()
	if err := gb.SubmitFor(SideDefense, Move{Kind: MoveSpeak, Text: "The defense opens, there."}); err != nil {
		t.Fatal(err)
	}
	if err := gb.Advance(ctx); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("the stale process's Advance = %v; want store.ErrConflict", err)
	}
	if n := asked.Load() - before; n != 0 {
		t.Errorf("the stale process asked %d models; want none", n)
	}
	evs, _ := gb.Events(0)
	last := evs[len(evs)-1].Seq
	if ok, err := gb.Follow(ctx); !ok || err != nil {
		t.Fatalf("Follow = %v, %v; want the first process's game", ok, err)
	}
	want, got := ga.View(), gb.View()
	if len(got.Turns) != len(want.Turns) || got.Floor != want.Floor || !got.AwaitingPlayer || got.Error != "" {
		t.Fatalf("followed: %d turns floor %q error %q; want %d turns floor %q", len(got.Turns), got.Floor, got.Error, len(want.Turns), want.Floor)
	}
	for i := range want.Turns {
		if got.Turns[i].Text != want.Turns[i].Text {
			t.Errorf("turn %d: %q; want %q", i, got.Turns[i].Text, want.Turns[i].Text)
		}
	}
	more, _ := gb.Events(last)
	ends := 0
	for i, e := range more {
		if i > 0 && e.Seq != more[i-1].Seq+1 {
			t.Errorf("event %d numbered %d after %d", i, e.Seq, more[i-1].Seq)
		}
		if e.Kind == EventEnd {
			ends++
			if e.Whole.Text != want.Turns[e.Turn-1].Text {
				t.Errorf("followed end of turn %d: %q; want %q", e.Turn, e.Whole.Text, want.Turns[e.Turn-1].Text)
			}
		}
	}
	if ends == 0 || more[len(more)-1].Kind != EventAwaiting {
		t.Errorf("followed events %+v; want the turns it lacked, then the floor", more)
	}
	if ok, _ := gb.Follow(ctx); ok {
		t.Error("Follow of a game up to the store loaded it again")
	}
	// Followed, the second process moves in turn, and its save is kept.
	v := gb.View()
	if err := gb.SubmitFor(v.Floor, Move{Kind: MoveSpeak, Text: "Now it is my floor."}); err != nil {
		t.Fatal(err)
	}
	if err := gb.Advance(ctx); err != nil {
		t.Fatalf("the followed process's Advance = %v", err)
	}
}

// A game loaded while another process's court speaks (mid-turn in the store) is
// followed, not advanced (SpeakingElsewhere); one left mid-turn for TakeOver, its
// mover gone, is Stalled and goes on where it is loaded. No model call is asked twice.
func TestJoinMidTurnFollowedOrTakenOver(t *testing.T) {
	ctx := context.Background()
	var asked atomic.Int64
	hold := make(chan struct{})
	var holding atomic.Bool
	started := make(chan struct{}, 1)
	base := counted(fakeModels(nil), &asked)
	models := map[llm.ModelName]llm.Model{}
	for name, m := range base {
		models[name] = llm.Func{ModelName: name, Fn: func(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
			if holding.Load() {
				select {
				case started <- struct{}{}:
				default:
				}
				select {
				case <-hold:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			return m.Generate(ctx, req)
		}}
	}
	a, b, ga := twoProcesses(t, models)
	if err := ga.SubmitFor(SideDefense, Move{Kind: MoveSpeak, Text: "The defense opens."}); err != nil {
		t.Fatal(err)
	}
	holding.Store(true)
	advanced := make(chan error, 1)
	go func() { advanced <- ga.Advance(ctx) }()
	<-started // the defense's turn is saved; the court's next is being asked
	gb, err := b.Load(ctx, "two")
	if err != nil {
		t.Fatal(err)
	}
	if !gb.SpeakingElsewhere() || gb.Stalled() {
		t.Fatalf("loaded mid-turn: speaking elsewhere %v, stalled %v; want followed", gb.SpeakingElsewhere(), gb.Stalled())
	}
	holding.Store(false)
	close(hold)
	if err := <-advanced; err != nil {
		t.Fatal(err)
	}
	if ok, err := gb.Follow(ctx); !ok || err != nil {
		t.Fatalf("Follow = %v, %v", ok, err)
	}
	if v := gb.View(); !v.AwaitingPlayer || gb.SpeakingElsewhere() {
		t.Fatalf("followed: awaiting %v floor %q", v.AwaitingPlayer, v.Floor)
	}

	// The mover stops mid-turn: another process that loads the game lets it go on
	// once TakeOver has passed, and only then.
	v := ga.View()
	holding.Store(true)
	hold = make(chan struct{})
	stopCtx, stop := context.WithCancel(ctx)
	if err := ga.SubmitFor(v.Floor, Move{Kind: MoveSpeak, Text: "A question, then the mover stops."}); err != nil {
		t.Fatal(err)
	}
	go func() { advanced <- ga.Advance(stopCtx) }()
	<-started
	stop()
	<-advanced
	holding.Store(false)
	c := openGames(t, a.Session.Store.Path(), models)
	c.TakeOver = time.Hour
	gc, err := c.Load(ctx, "two")
	if err != nil {
		t.Fatal(err)
	}
	if !gc.SpeakingElsewhere() || gc.Stalled() {
		t.Fatalf("loaded just after its mover stopped: speaking elsewhere %v, stalled %v", gc.SpeakingElsewhere(), gc.Stalled())
	}
	c.TakeOver = time.Nanosecond
	if !gc.Stalled() {
		t.Fatal("a game mid-turn past TakeOver is not Stalled")
	}
	if err := gc.Advance(ctx); err != nil {
		t.Fatal(err)
	}
	if v := gc.View(); !v.AwaitingPlayer {
		t.Fatalf("taken over: awaiting %v; want a floor", v.AwaitingPlayer)
	}
	results := 0
	a.Session.Store.Results(ctx, ga.Run, false, func(*store.Result) error { results++; return nil })
	if asked.Load() != int64(results) {
		t.Errorf("models asked %d times for %d calls: a turn was advanced twice", asked.Load(), results)
	}
}

// syncBuffer is a terminal's screen that a test reads while it plays.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A terminal that joins while the other process's court speaks follows that court
// instead of letting the same turn be spoken twice: it shows the turns as they are
// saved and takes its floor when it comes.
func TestJoinTerminalMidTurnFollows(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var asked, waiting atomic.Int64
	var holding atomic.Bool
	hold := make(chan struct{})
	models := map[llm.ModelName]llm.Model{}
	for name, m := range counted(fakeModels(nil), &asked) {
		models[name] = llm.Func{ModelName: name, Fn: func(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
			if holding.Load() {
				waiting.Add(1)
				select {
				case <-hold:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			return m.Generate(ctx, req)
		}}
	}
	_, b, ga := twoProcesses(t, models)
	if err := ga.SubmitFor(SideDefense, Move{Kind: MoveSpeak, Text: "The defense opens."}); err != nil {
		t.Fatal(err)
	}
	holding.Store(true)
	advanced := make(chan error, 1)
	go func() { advanced <- ga.Advance(ctx) }()
	for waiting.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	gb, err := b.Load(ctx, "two")
	if err != nil {
		t.Fatal(err)
	}
	screen := &syncBuffer{}
	played := make(chan error, 1)
	go func() {
		term := Terminal{In: strings.NewReader("The people ask their question.\n/quit\n"), Out: screen, Width: 1 << 20, Side: SideProsecution,
			Wait: func(ctx context.Context) (*Game, error) {
				return b.WaitFloor(ctx, "two", SideProsecution, 5*time.Millisecond)
			}}
		played <- term.Play(ctx, gb)
	}()
	// Either the terminal says it follows, or its own court asks a model too.
	for !strings.Contains(screen.String(), "(The court answers the other person's move.)") && waiting.Load() < 2 {
		if ctx.Err() != nil {
			t.Fatalf("the terminal did not say it follows the other court:\n%s", screen.String())
		}
		time.Sleep(time.Millisecond)
	}
	holding.Store(false)
	close(hold)
	if err := <-advanced; err != nil {
		t.Fatal(err)
	}
	// The defense, in the first process, moves whenever it has the floor.
	for done := false; !done; {
		select {
		case err := <-played:
			if err != nil {
				t.Fatalf("the terminal: %v\n%s", err, screen.String())
			}
			done = true
		case <-time.After(5 * time.Millisecond):
			if ok, _ := ga.Follow(ctx); ok || ga.View().Floor == SideDefense {
				if v := ga.View(); v.AwaitingPlayer && v.Floor == SideDefense {
					if err := ga.SubmitFor(SideDefense, Move{Kind: MoveSpeak, Text: "The defense asks again."}); err != nil {
						t.Fatal(err)
					}
					if err := ga.Advance(ctx); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	results := 0
	b.Session.Store.Results(ctx, ga.Run, false, func(*store.Result) error { results++; return nil })
	if asked.Load() != int64(results) {
		t.Errorf("models asked %d times for %d calls: the terminal's court spoke over the other's\n%s", asked.Load(), results, screen.String())
	}
	tx := ga.Transcript()
	if ok, _ := ga.Follow(ctx); ok {
		tx = ga.Transcript()
	}
	said := false
	for _, tu := range tx.Turns {
		said = said || tu.Text == "The people ask their question."
	}
	if !said {
		t.Errorf("the terminal's move is not in the game:\n%s", screen.String())
	}
}
