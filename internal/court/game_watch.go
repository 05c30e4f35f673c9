package court

import (
	"context"
	"errors"
	"time"
)

// A watched trial (GameState.Watch) has no person in it: a model plays each seat, both
// counsels too, and the trial runs to its verdict by itself, its events logged and
// streamed as a played game's are, so any number of watchers follow one set of model
// calls. Its owner paces it: Pause stops it after the turn being spoken, Resume lets it
// go on, SetDelay waits a while after every turn (the speed), and Skip sends it to
// closing statements and the verdict at its next turn.

// pacing is a game's pace; guarded by Game.mu.
type pacing struct {
	paused bool
	delay  time.Duration
}

// MaxWatchDelay bounds the pause a watched trial makes after every turn.
const MaxWatchDelay = 30 * time.Second

// ErrNotWatched: pacing is for watched trials.
var ErrNotWatched = errors.New("court: only a watched trial is paused, resumed, slowed or skipped")

// Watched says whether the game is a watched trial.
func (g *Game) Watched() bool { return g.state.Watch }

func (g *Game) paceLocked(f func(p *pacing)) error {
	if !g.state.Watch {
		return ErrNotWatched
	}
	if g.snap.done {
		return ErrOver
	}
	f(&g.pace)
	g.notifyLocked()
	return nil
}

// Pause stops a watched trial after the turn being spoken.
func (g *Game) Pause() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.paceLocked(func(p *pacing) { p.paused = true })
}

// Resume lets a paused watched trial go on.
func (g *Game) Resume() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.paceLocked(func(p *pacing) { p.paused = false })
}

// SetDelay sets the pause a watched trial makes after every turn, within 0 and
// MaxWatchDelay.
func (g *Game) SetDelay(d time.Duration) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.paceLocked(func(p *pacing) { p.delay = min(max(d, 0), MaxWatchDelay) })
}

// Skip sends a watched trial to closing statements and its verdict at its next turn of
// the interrogation, and lifts its pause and delay.
func (g *Game) Skip() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.paceLocked(func(p *pacing) {
		p.paused, p.delay = false, 0
		g.trial.Skip() // an atomic flag: safe while the trial runs
	})
}

// waitPace holds the trial's goroutine after a turn while the game is paused, and for
// its delay; a change of pace (Resume, Skip) or the end of ctx lets it go.
func (g *Game) waitPace(ctx context.Context) {
	start := time.Now()
	for {
		g.mu.Lock()
		p, changed := g.pace, g.changed
		g.mu.Unlock()
		var timer <-chan time.Time
		switch {
		case p.paused:
		case time.Since(start) >= p.delay:
			return
		default:
			t := time.NewTimer(p.delay - time.Since(start))
			defer t.Stop()
			timer = t.C
		}
		select {
		case <-ctx.Done():
			return
		case <-timer:
			return
		case <-changed:
		}
	}
}
