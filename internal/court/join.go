package court

import (
	"context"
	"time"
)

// Two people may play one game from two processes on one store: a server whose page
// one of them plays, and a terminal (court play --join) the other plays, or two
// terminals. The store is the game's one authority. The person who moves lets the
// court speak after the move, in their own process, saving every turn; the other
// process follows the store (Game.Follow, Games.WaitFloor) and never lets the court
// speak over the same turn: saves are kept by compare-and-swap on the game's last save
// (store.SaveCourtGame), so a process that tried would fail with store.ErrConflict at
// its first save and load the game again. Only a game left mid-turn for
// Games.TakeOver (its mover stopped) is let go on by another process.
//
// "Hold it!" follows the same floor rules whichever process the court speaks in: a
// person whose process follows the court (SpeakingElsewhere) has their hold recorded in
// the store (Game.HoldFor, store.RequestCourtHold), and the process whose court speaks
// takes it at the end of the court's line, where it takes a hold called in its own
// process (Trial.storedHold, set by Advance only: a replay by Load or Follow leaves it
// for the live court). A hold of a person who gets the floor anyway is void, here or
// there.

// takeOver is gs.TakeOver or its default.
func (gs *Games) takeOver() time.Duration {
	if gs.TakeOver > 0 {
		return gs.TakeOver
	}
	return DefaultTakeOver
}

// TwoPlayers says whether two people play the game.
func (g *Game) TwoPlayers() bool { return g.state.TwoPlayers }

// midCourtLocked says whether the game, as this process holds it, stands in the
// middle of the court's speech that no goroutine here is advancing: it waits for no
// person, offers no restart and is not over. g.mu is held.
func (g *Game) midCourtLocked() bool {
	return !g.running && !g.busy && !g.snap.done && !g.snap.offered && !g.snap.awaiting
}

// midCourt is midCourtLocked, taking the lock.
func (g *Game) midCourt() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.midCourtLocked()
}

// SpeakingElsewhere says whether another process is letting the court of this
// two-person game speak: the game stands mid-turn as stored, and was saved less than
// Games.TakeOver ago. Such a game is not advanced here; Follow shows its turns as they
// are saved.
func (g *Game) SpeakingElsewhere() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.speakingElsewhereLocked()
}

// speakingElsewhereLocked is SpeakingElsewhere; g.mu is held.
func (g *Game) speakingElsewhereLocked() bool {
	return g.state.TwoPlayers && g.midCourtLocked() && time.Since(g.saved) < g.gs.takeOver()
}

// Stalled says whether this two-person game stands mid-turn, as stored, with no one
// letting its court speak: no goroutine here, and no save for Games.TakeOver (the
// process that moved stopped). Advance lets it go on.
func (g *Game) Stalled() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.state.TwoPlayers && g.midCourtLocked() && time.Since(g.saved) >= g.gs.takeOver()
}

// Follow brings the game up to the store when another process saved it since this one
// last did (the other person's move, and the court's answer to it): it loads the game
// again, asking no model, and logs the events of the turns it did not have, numbered on
// from its own, so a stream of this game shows them as it shows turns spoken here. It
// does nothing while the game is advanced or takes a move here (that save will tell a
// conflict), and reports whether it loaded anything.
func (g *Game) Follow(ctx context.Context) (bool, error) {
	at, _, err := g.gs.Session.Store.CourtGameSaved(ctx, g.ID)
	if err != nil {
		return false, err
	}
	g.mu.Lock()
	// A game held mid-court is loaded again even when no save came since: the other
	// court's answers are in the store before its last save marks them (the floor it
	// gives is where replaying its calls stops).
	before, idle, mid := g.saved, !g.running && !g.busy, g.midCourtLocked()
	g.mu.Unlock()
	if (at.Equal(before) && !mid) || !idle {
		return false, nil
	}
	fresh, err := g.gs.Load(ctx, g.ID)
	if err != nil {
		return false, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.saved.Equal(before) || g.running || g.busy {
		return false, nil
	}
	fresh.mu.Lock()
	defer fresh.mu.Unlock()
	evs := newEvents(g.log, fresh.log)
	if len(evs) == 0 && at.Equal(before) {
		return false, nil
	}
	for _, e := range evs {
		g.pushLocked(e)
	}
	g.trial, g.asker, g.offers, g.saved, g.kept, g.err = fresh.trial, fresh.asker, fresh.offers, fresh.saved, fresh.kept, nil
	// The case stays g's own: Case reads it without the lock.
	g.state.Moves, g.state.Restarts, g.state.SkipAt = fresh.state.Moves, fresh.state.Restarts, fresh.state.SkipAt
	g.snap = fresh.snap
	g.notifyLocked()
	return true, nil
}

// newEvents are the events of a game's log loaded afresh (fresh: every turn replayed,
// a turn and its end each) that come after those an older log of it (old) has: those
// after as many turns' ends as old has, less the events old logged after its last end
// that fresh logs again there (the start of a turn old saw begin).
func newEvents(old, fresh []Event) []Event {
	ends, tail := 0, 0
	for i, e := range old {
		if e.Kind == EventEnd {
			ends, tail = ends+1, i+1
		}
	}
	i := 0
	for n := 0; n < ends && i < len(fresh); i++ {
		if fresh[i].Kind == EventEnd {
			n++
		}
	}
	for _, e := range old[tail:] {
		if i < len(fresh) && fresh[i].Kind == e.Kind && fresh[i].Turn == e.Turn && fresh[i].Attempt == e.Attempt && e.Kind != EventDelta {
			i++
		}
	}
	out := make([]Event, 0, len(fresh)-i)
	for _, e := range fresh[i:] {
		e.Seq = 0
		out = append(out, e)
	}
	return out
}

// WaitFloor waits until side has the floor in the stored two-player game id (or the
// trial is over, offers a restart, or stands mid-turn with no one letting its court
// speak: Stalled), reading the store every `every`, and returns the game loaded as it
// then stands. The other person moves in another process on the same store (a server,
// another terminal): the one who moves lets the court speak after the move and saves
// every turn, so the game is only ever advanced by one of them.
func (gs *Games) WaitFloor(ctx context.Context, id string, side Side, every time.Duration) (*Game, error) {
	var (
		seen time.Time
		g    *Game
	)
	seenTurns := -1
	for {
		at, turns, err := gs.Session.Store.CourtGameSaved(ctx, id)
		if err != nil {
			return nil, err
		}
		// A game mid-court is loaded again at every look: the other court's answers are
		// in the store before its last save marks them (Follow).
		if !at.Equal(seen) || turns != seenTurns || g == nil || g.midCourt() {
			seen, seenTurns = at, turns
			if g, err = gs.Load(ctx, id); err != nil {
				return nil, err
			}
			v := g.View()
			if g.Done() || v.RestartOffered || (v.AwaitingPlayer && v.Floor == side.Or()) {
				return g, nil
			}
		}
		if g.Stalled() {
			return g, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(every):
		}
	}
}
