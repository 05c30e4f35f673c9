package court

import (
	"context"
	"time"
)

// WaitFloor waits until side has the floor in the stored two-player game id (or the
// trial is over, or offers a restart), reading the store every `every`, and returns the
// game loaded as it then stands. The other person moves in another process on the same
// store (a server, another terminal): the one who moves lets the court speak after
// the move and saves every turn, so the game is only ever advanced by one of them.
func (gs *Games) WaitFloor(ctx context.Context, id string, side Side, every time.Duration) (*Game, error) {
	var seen time.Time
	seenTurns := -1
	for {
		rec, err := gs.Session.Store.CourtGame(ctx, id)
		if err != nil {
			return nil, err
		}
		if !rec.Updated.Equal(seen) || rec.Turns != seenTurns {
			seen, seenTurns = rec.Updated, rec.Turns
			g, err := gs.Load(ctx, id)
			if err != nil {
				return nil, err
			}
			v := g.View()
			if g.Done() || v.RestartOffered || (v.AwaitingPlayer && v.Floor == side.Or()) {
				return g, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(every):
		}
	}
}
