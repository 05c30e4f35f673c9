package court

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// heldWitness wraps models so that, while on, every witness reply waits for release:
// a court line being spoken.
type heldWitness struct {
	on      atomic.Bool
	started chan struct{}
	release chan struct{}
}

func (h *heldWitness) wrap(base map[llm.ModelName]llm.Model) map[llm.ModelName]llm.Model {
	h.started, h.release = make(chan struct{}, 1), make(chan struct{})
	out := map[llm.ModelName]llm.Model{}
	for name, m := range base {
		out[name] = llm.Func{ModelName: name, Fn: func(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
			if name == testModels.Witness && h.on.Load() {
				select {
				case h.started <- struct{}{}:
				default:
				}
				select {
				case <-h.release:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			return m.Generate(ctx, req)
		}}
	}
	return out
}

// "Hold it!" called in one process while the other person's process lets the court
// speak (a server and a joined terminal on one store) is recorded in the store and
// taken there at the end of the court's line, for either side: the holder has the
// floor, the hold is a move of theirs that replays, and the other process's loads of
// the game while the court spoke (replays) left the hold for the live court.
func TestJoinHoldFromOtherProcess(t *testing.T) {
	for _, holder := range []Side{SideDefense, SideProsecution} {
		t.Run(string(holder), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var asked atomic.Int64
			wit := &heldWitness{}
			a, b, ga := twoProcesses(t, wit.wrap(counted(fakeModels(nil), &asked)))
			mover := holder.Other()
			if err := ga.SubmitFor(SideDefense, Move{Kind: MoveSpeak, Text: "The defense opens."}); err != nil {
				t.Fatal(err)
			}
			// The court speaks until the mover has the floor in the interrogation.
			for {
				if err := ga.Advance(ctx); err != nil {
					t.Fatal(err)
				}
				v := ga.View()
				if v.Phase == PhaseInterrogation && v.Floor == mover {
					break
				}
				if v.Floor == "" {
					t.Fatalf("no floor for the %s: %+v", mover, v)
				}
				if err := ga.SubmitFor(v.Floor, Move{Kind: MoveSpeak, Text: "A question.", To: WitnessSpeaker("tomas")}); err != nil {
					t.Fatal(err)
				}
			}
			gb, err := b.Load(ctx, "two")
			if err != nil {
				t.Fatal(err)
			}
			if err := gb.HoldFor(ctx, holder); !errors.Is(err, ErrNoHold) {
				t.Fatalf("a hold while the %s has the floor = %v; want ErrNoHold", mover, err)
			}
			// The mover asks the witness; its answer is being spoken in the mover's process.
			if err := ga.SubmitFor(mover, Move{Kind: MoveSpeak, Text: "Where were you?", To: WitnessSpeaker("tomas")}); err != nil {
				t.Fatal(err)
			}
			wit.on.Store(true)
			advanced := make(chan error, 1)
			go func() { advanced <- ga.Advance(ctx) }()
			<-wit.started
			if _, err := gb.Follow(ctx); err != nil {
				t.Fatal(err)
			}
			if !gb.SpeakingElsewhere() {
				t.Fatal("the other process does not see the court speaking elsewhere")
			}
			if err := gb.HoldFor(ctx, holder); err != nil {
				t.Fatalf("the %s's hold from the other process = %v; want it recorded", holder, err)
			}
			// The other process reads the game again while the court speaks: its
			// replays pass court lines of the interrogation, and must not take the hold.
			for range 2 {
				if _, err := b.Load(ctx, "two"); err != nil {
					t.Fatal(err)
				}
				if _, err := gb.Follow(ctx); err != nil {
					t.Fatal(err)
				}
			}
			wit.on.Store(false)
			close(wit.release)
			if err := <-advanced; err != nil {
				t.Fatal(err)
			}
			v := ga.View()
			last := v.Turns[len(v.Turns)-1]
			if !v.AwaitingPlayer || v.Floor != holder || last.Role != "witness" {
				t.Fatalf("after the witness's line: floor %q (last turn %s: %q); want the %s holding", v.Floor, last.Speaker, last.Text, holder)
			}
			holds := 0
			evs, _ := ga.Events(0)
			for _, e := range kinds(evs, EventHold) {
				holds++
				if e.Side != holder {
					t.Errorf("hold event for %q; want the %s", e.Side, holder)
				}
			}
			if holds != 1 {
				t.Errorf("%d hold events; want 1", holds)
			}
			if again, err := a.Session.Store.TakeCourtHold(ctx, "two", string(holder)); err != nil || again {
				t.Errorf("the hold is still stored after it was taken (%v)", err)
			}
			// Loaded again (by either process), the game replays the hold, asking nothing.
			before := asked.Load()
			for name, gs := range map[string]*Games{"mover": a, "holder": b} {
				g, err := gs.Load(ctx, "two")
				if err != nil {
					t.Fatal(err)
				}
				got := g.View()
				if !got.AwaitingPlayer || got.Floor != holder || len(got.Turns) != len(v.Turns) {
					t.Errorf("loaded by the %s: %d turns, floor %q; want %d turns, the %s's floor", name, len(got.Turns), got.Floor, len(v.Turns), holder)
				}
				if h := g.trial.tallyOf(g.trial.seatOf(holder)).holds; h != 1 {
					t.Errorf("loaded by the %s: the %s's holds %d; want 1", name, holder, h)
				}
			}
			if ok, err := gb.Follow(ctx); !ok || err != nil || gb.View().Floor != holder {
				t.Errorf("the holder's process followed: %v, %v, floor %q; want the %s's floor", ok, err, gb.View().Floor, holder)
			}
			if n := asked.Load() - before; n != 0 {
				t.Errorf("loading the held game asked %d models; want none", n)
			}
			// The holder moves on their floor, in their own process.
			if err := gb.SubmitFor(holder, Move{Kind: MoveSpeak, Text: "Hold it: that is not what you said.", To: WitnessSpeaker("tomas")}); err != nil {
				t.Fatal(err)
			}
			if err := gb.Advance(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A terminal joined to a game whose court speaks in the other person's process reads
// /hold typed while it waits, and that court gives it the floor at the end of its line.
func TestJoinTerminalHoldsOtherCourt(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	wit := &heldWitness{}
	_, b, ga := twoProcesses(t, wit.wrap(fakeModels(nil)))
	if err := ga.SubmitFor(SideDefense, Move{Kind: MoveSpeak, Text: "The defense opens."}); err != nil {
		t.Fatal(err)
	}
	if err := ga.Advance(ctx); err != nil {
		t.Fatal(err)
	}
	if v := ga.View(); v.Floor != SideProsecution || v.Phase != PhaseInterrogation {
		t.Fatalf("floor %q in the %s; want the prosecution's in the interrogation", v.Floor, v.Phase)
	}
	if err := ga.SubmitFor(SideProsecution, Move{Kind: MoveSpeak, Text: "Where were you?", To: WitnessSpeaker("tomas")}); err != nil {
		t.Fatal(err)
	}
	wit.on.Store(true)
	advanced := make(chan error, 1)
	go func() { advanced <- ga.Advance(ctx) }()
	<-wit.started
	gb, err := b.Load(ctx, "two")
	if err != nil {
		t.Fatal(err)
	}
	in, typed := io.Pipe()
	defer typed.Close()
	screen := &syncBuffer{}
	played := make(chan error, 1)
	go func() {
		term := Terminal{In: in, Out: screen, Width: 1 << 20, Side: SideDefense,
			Wait: func(ctx context.Context) (*Game, error) {
				return b.WaitFloor(ctx, "two", SideDefense, 5*time.Millisecond)
			}}
		played <- term.Play(ctx, gb)
	}()
	see := func(s string) {
		t.Helper()
		for !strings.Contains(screen.String(), s) {
			if ctx.Err() != nil {
				t.Fatalf("the terminal did not show %q:\n%s", s, screen.String())
			}
			time.Sleep(time.Millisecond)
		}
	}
	see("(The court answers the other person's move.)")
	if _, err := io.WriteString(typed, "/hold\n"); err != nil {
		t.Fatal(err)
	}
	see("(Hold it! The defense takes the floor at the end of this line.)")
	wit.on.Store(false)
	close(wit.release)
	if err := <-advanced; err != nil {
		t.Fatal(err)
	}
	if v := ga.View(); v.Floor != SideDefense {
		t.Fatalf("after the witness's line: floor %q; want the defense holding\n%s", v.Floor, screen.String())
	}
	see("HOLD IT! The defense takes the floor.")
	see("The defense has the floor")
	if _, err := io.WriteString(typed, "/quit\n"); err != nil {
		t.Fatal(err)
	}
	if err := <-played; err != nil {
		t.Fatalf("the terminal: %v\n%s", err, screen.String())
	}
}
