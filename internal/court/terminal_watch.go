package court

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/arbiter-eval/arbiter/internal/store"
)

// Following a trial in the terminal (arbiter court watch ID): a game being played (by
// the browser or another terminal, on the same store) is read from the store every
// interval and its new turns printed as they are saved, until its verdict; a stored
// simulated trial is replayed from the store turn by turn. Neither asks a model.

// follower prints turns, with a heading at each new phase.
type follower struct {
	out   io.Writer
	phase Phase
}

func (f *follower) turn(t Turn) {
	if t.Phase != f.phase {
		f.phase = t.Phase
		fmt.Fprintf(f.out, "\n— %s —\n", phaseTitles[t.Phase])
	}
	who := Clean(t.Speaker)
	if t.Player {
		who += " (player)"
	}
	fmt.Fprintf(f.out, "%s: %s\n", who, Clean(t.Text))
}

func (f *follower) verdict(k Kind, side Side, v *VerdictRecord) {
	if v == nil {
		fmt.Fprintln(f.out, "\nThe trial ended without a verdict.")
		return
	}
	defense := v.Outcome
	if side == SideProsecution {
		defense = map[string]string{OutcomeWin: OutcomeLoss, OutcomeLoss: OutcomeWin}[defense]
	}
	fmt.Fprintf(f.out, "\nVERDICT: %s (the %s's outcome: %s)\nThe court's reasons: %s\n", verdictWord(k, defense), side, v.Outcome, Clean(v.Justification))
}

// FollowGame prints the stored game id's turns and then each new one as it is saved,
// reading the store every interval, until the verdict or ctx ends.
func FollowGame(ctx context.Context, gs *Games, id string, out io.Writer, every time.Duration) error {
	f := &follower{out: out}
	shown := 0
	for {
		g, err := gs.Load(ctx, id)
		if err != nil {
			return err
		}
		v := g.View()
		if len(v.Turns) < shown {
			fmt.Fprintln(out, "\n— The trial starts again —")
			shown, f.phase = 0, ""
		}
		for _, t := range v.Turns[shown:] {
			f.turn(t)
		}
		shown = len(v.Turns)
		if g.Done() {
			f.verdict(g.Case().Kind, v.Side, g.Transcript().Verdict)
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
	}
}

// Follow replays a stored simulated trial, printing each turn as its end event comes,
// with every pause after each.
func (s *StoredTrial) Follow(ctx context.Context, st *store.Store, out io.Writer, every time.Duration) error {
	f := &follower{out: out}
	tx, err := s.Replay(ctx, st, func(e Event) {
		if e.Kind == EventEnd {
			f.turn(*e.Whole)
			select {
			case <-ctx.Done():
			case <-time.After(every):
			}
		}
	})
	if err != nil {
		return err
	}
	f.verdict(s.Case.Kind, SideDefense, tx.Verdict)
	return nil
}
