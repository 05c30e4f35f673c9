package web

// Every seat in the courtroom (issue 32): a game played as the prosecution (its moves
// at POST /api/court/games/{id}/prosecution), and a watched trial, a model on every
// seat, started with POST /api/court/watch and paced by its owner (pause, resume,
// speed, skip). A watched trial is a game with no player: its events are logged once
// and streamed to every watcher over GET /api/court/games/{id}/events, so many
// watchers cost one set of model calls. Its creation answers a token (the owner's:
// pacing) and a watch_token (the link anyone may open to watch, read-only).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// onSide answers 409 unless the game's player plays side: a move on the other
// counsel's floor, or in a watched trial, is refused. In a game of two people
// (two_players) the request's token names its side (the creator's token the game's
// side, the invitation the other): a move for the side it does not play is 403, and a
// move of its side while the other person has the floor is 409.
func (s *Server) onSide(w http.ResponseWriter, r *http.Request, g *court.Game, side court.Side) bool {
	v := g.View()
	switch {
	case v.Watch:
		apiError(w, http.StatusConflict, "a watched trial has no player: every seat is a model")
		return false
	case v.TwoPlayers:
		mine, ok := s.tokenSide(w, r, v)
		switch {
		case !ok:
			return false
		case mine != side:
			apiError(w, http.StatusForbidden, fmt.Sprintf("your link plays the %s: the %s is the other person's", mine, side))
			return false
		case v.AwaitingPlayer && v.Floor != side:
			apiError(w, http.StatusConflict, fmt.Sprintf("the %s has the floor: wait for your turn", v.Floor))
			return false
		}
		return true
	case v.Side != side:
		apiError(w, http.StatusConflict, fmt.Sprintf("the %s is not yours in this game: you play the %s", side, v.Side))
		return false
	}
	return true
}

// tokenSide is the side the request's token plays in a two-player game: its creator's
// (the play token) or the other (the invitation); anything else is answered 403.
func (s *Server) tokenSide(w http.ResponseWriter, r *http.Request, v court.GameView) (court.Side, bool) {
	a, err := s.court.access(r.Context(), r, v.GameID)
	switch {
	case err != nil:
		s.log.Error("check a game token", "game", v.GameID, "err", err)
		apiError(w, http.StatusInternalServerError, "the game could not be read from the store; the server log has the details")
		return "", false
	case a == store.GamePlay:
		return v.Side, true
	case a == store.GameInvite:
		return v.Side.Other(), true
	}
	apiError(w, http.StatusForbidden, "a watcher's token reads the game but cannot move in it")
	return "", false
}

func (s *Server) apiProsecution(w http.ResponseWriter, r *http.Request, g *court.Game) {
	if !s.onSide(w, r, g, court.SideProsecution) {
		return
	}
	s.apiMove(w, r, g, court.SideProsecution)
}

// apiWatch starts a watched trial: POST /api/court/watch {case_id, seed, models} (models
// may name the defense's too) -> 201 {game_id, token, watch_token}.
func (s *Server) apiWatch(w http.ResponseWriter, r *http.Request) {
	if !s.needCourt(w) {
		return
	}
	var body newGameBody
	if !readJSON(w, r, &body) {
		return
	}
	s.startGame(w, r, body, true)
}

// apiPace is a pacing control of a watched trial: pause, resume, skip, or speed
// {"delay_ms": N} (the pause after every turn, at most 30 s).
func (s *Server) apiPace(control string) func(w http.ResponseWriter, r *http.Request, g *court.Game) {
	return func(w http.ResponseWriter, r *http.Request, g *court.Game) {
		var err error
		switch control {
		case "pause":
			err = g.Pause()
		case "resume":
			err = g.Resume()
		case "skip":
			err = g.Skip()
		case "speed":
			var body struct {
				DelayMS *int `json:"delay_ms"`
			}
			if !readJSON(w, r, &body) {
				return
			}
			if body.DelayMS == nil || *body.DelayMS < 0 || time.Duration(*body.DelayMS)*time.Millisecond > court.MaxWatchDelay {
				apiError(w, http.StatusBadRequest, fmt.Sprintf("delay_ms: want 0 to %d", court.MaxWatchDelay.Milliseconds()))
				return
			}
			err = g.SetDelay(time.Duration(*body.DelayMS) * time.Millisecond)
		}
		switch {
		case errors.Is(err, court.ErrNotWatched):
			apiError(w, http.StatusConflict, "only a watched trial is paused, resumed, slowed or skipped")
		case errors.Is(err, court.ErrOver):
			apiError(w, http.StatusConflict, "the trial is over")
		case err != nil:
			apiError(w, http.StatusInternalServerError, err.Error())
		default:
			v := g.View()
			writeJSON(w, http.StatusAccepted, map[string]any{"paused": v.Paused, "delay_ms": v.DelayMS})
		}
	}
}

// apiReplay replays a stored `court simulate` trial from the store, turn by turn, as
// the event stream of a game: GET /api/court/replays/{trial}?delay_ms=N (N, at most
// 30 s, waited after every turn). No model is asked. On --public it needs the owner's
// token (the store's trials are the owner's). A replay always streams from the first
// turn: its events are numbered afresh.
func (s *Server) apiReplay(w http.ResponseWriter, r *http.Request) {
	if !s.needCourt(w) {
		return
	}
	if s.court.public && !isOwner(r, s.court.owner) {
		apiError(w, http.StatusForbidden, "replaying the store's trials needs the owner's token on a public server")
		return
	}
	var delay time.Duration
	if q := r.URL.Query().Get("delay_ms"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 0 || time.Duration(n)*time.Millisecond > court.MaxWatchDelay {
			apiError(w, http.StatusBadRequest, fmt.Sprintf("delay_ms: want 0 to %d", court.MaxWatchDelay.Milliseconds()))
			return
		}
		delay = time.Duration(n) * time.Millisecond
	}
	st := s.court.games.Session.Store
	tr, err := court.FindStoredTrial(r.Context(), st, r.PathValue("trial"), func(id string) (*court.Case, error) {
		return s.findCase(r.Context(), id)
	})
	switch {
	case errors.Is(err, court.ErrNoStoredTrial):
		apiError(w, http.StatusNotFound, "no stored simulated trial "+r.PathValue("trial")+" (a trial of a model defense whose case this server knows)")
		return
	case err != nil:
		s.log.Error("find a stored trial", "trial", r.PathValue("trial"), "err", err)
		apiError(w, http.StatusInternalServerError, "the store could not be read; the server log has the details")
		return
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	ctx, stop := context.WithCancel(r.Context())
	defer stop()
	seq := 0
	tr.Replay(ctx, st, func(e court.Event) {
		if ctx.Err() != nil {
			return
		}
		seq++
		p, _ := e.Payload().(map[string]any)
		if e.Kind == court.EventTurn || e.Kind == court.EventEnd {
			p["index"] = e.Turn - 1 // as a game's stream numbers its turns
		}
		data, _ := json.Marshal(p)
		if _, err := fmt.Fprintf(w, "id: replay-%d\nevent: %s\ndata: %s\n\n", seq, e.Kind, data); err != nil {
			stop()
			return
		}
		if err := rc.Flush(); err != nil {
			stop()
			return
		}
		if e.Kind == court.EventEnd && delay > 0 {
			select {
			case <-time.After(delay):
			case <-ctx.Done():
			}
		}
	})
}
