package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// ErrJoinRefused wraps why a link does not join a two-player game.
var ErrJoinRefused = errors.New("cannot join")

// JoinSide reads an invitation link of a two-player game, "/court/games/{id}?token=T",
// a full URL with that path, or "ID T", and checks its token against st: it returns the
// game's id and the side the token plays (its creator's for the play token, the other
// for the invitation). A watch token, an unknown one or a game of one person is
// refused (ErrJoinRefused, with a sentence for the player).
func JoinSide(ctx context.Context, st *store.Store, link string) (id string, side court.Side, err error) {
	refuse := func(format string, a ...any) (string, court.Side, error) {
		return "", "", fmt.Errorf("%w: %s", ErrJoinRefused, fmt.Sprintf(format, a...))
	}
	tok := ""
	if f := strings.Fields(link); len(f) == 2 && !strings.Contains(link, "/") {
		id, tok = f[0], f[1]
	} else if u, perr := url.Parse(strings.TrimSpace(link)); perr == nil {
		rest, ok := strings.CutPrefix(u.Path, "/court/games/")
		if ok {
			id = strings.Trim(rest, "/")
		}
		tok = u.Query().Get("token")
	}
	if id == "" || tok == "" || !gameID.MatchString(id) {
		return refuse("%q is not a game's link: want /court/games/ID?token=T (or a URL with that path, or \"ID T\")", link)
	}
	a, err := st.CourtGameAccess(ctx, id, tokenHash(tok))
	switch {
	case errors.Is(err, store.ErrNotFound):
		return refuse("the link's token opens no game %s in this store (both players must use the same store: --db)", id)
	case err != nil:
		return "", "", err
	case a == store.GameWatch:
		return refuse("the link is a watcher's: it reads game %s but cannot move in it", id)
	}
	rec, err := st.CourtGame(ctx, id)
	if err != nil {
		return "", "", err
	}
	var gs court.GameState
	if err := json.Unmarshal(rec.State, &gs); err != nil {
		return "", "", fmt.Errorf("game %s: stored state: %w", id, err)
	}
	if !gs.TwoPlayers {
		return refuse("game %s is a game of one person: there is no side to join", id)
	}
	if a == store.GameInvite {
		return id, gs.Side.Or().Other(), nil
	}
	return id, gs.Side.Or(), nil
}

// TokenHash is what the store keeps of a game token (for clients that make games in
// the store themselves, as tests do).
func TokenHash(tok string) string { return tokenHash(tok) }
