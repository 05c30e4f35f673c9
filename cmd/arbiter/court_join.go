package main

import (
	"context"
	"errors"
	"time"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/web"
)

// joinPoll is how often a joined terminal reads the store while the other person has
// the floor.
const joinPoll = 200 * time.Millisecond

// joinGame plays the side of --join's token in its stored two-person game.
func (a *app) joinGame(ctx context.Context, f *playFlags) error {
	st, err := a.openExistingStore(ctx, f.court.run.db)
	if err != nil {
		return err
	}
	id, side, err := web.JoinSide(ctx, st, f.join)
	st.Close()
	if errors.Is(err, web.ErrJoinRefused) {
		return badInput("--join: %v", err)
	}
	if err != nil {
		return err
	}
	f.resume, f.joinSide = id, side
	return a.resumeGame(ctx, f)
}

// joinTerminal is the terminal of a joined game: its side, and the wait for the other
// person's moves through the store; the zero Terminal for any other game.
func joinTerminal(gs *court.Games, f *playFlags) court.Terminal {
	if f.joinSide == "" {
		return court.Terminal{}
	}
	id, side := f.resume, f.joinSide
	return court.Terminal{Side: side, Wait: func(ctx context.Context) (*court.Game, error) {
		return gs.WaitFloor(ctx, id, side, joinPoll)
	}}
}
