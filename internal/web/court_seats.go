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

// Replays of the stored `court simulate` trials (the store's, so its owner's): listed at
// GET /api/court/replays, described at GET /api/court/replays/{trial}/info, streamed at
// GET /api/court/replays/{trial}, and played on the stage at /court/replays/{trial}. On
// --public each wants the owner's token (?token=, bearer, or the arbiter_owner cookie
// that opening a court page with it sets); on loopback anyone who reaches the server
// may, as anyone may read the store's runs there.

// mayReplay answers 403 on a public server to a request without the owner's token.
func (s *Server) mayReplay(w http.ResponseWriter, r *http.Request) bool {
	if s.court.public && !isOwner(r, s.court.owner) {
		apiError(w, http.StatusForbidden, "the store's trials are its owner's: on a public server, replaying or listing them needs the owner's token (printed by serve at start)")
		return false
	}
	return true
}

// replayJSON is a stored trial as the API lists it.
type replayJSON struct {
	TrialID   string            `json:"trial_id"`
	CaseID    string            `json:"case_id"`
	Title     string            `json:"title"`
	Seed      int64             `json:"seed"`
	Models    court.Models      `json:"models"`
	Turns     int               `json:"turns"`
	Completed bool              `json:"completed"`
	Outcome   *string           `json:"outcome"`
	Updated   string            `json:"updated"`
	Case      *court.PublicCase `json:"case,omitempty"`
}

func replayOf(t court.StoredTrialInfo) replayJSON {
	j := replayJSON{TrialID: t.ID, CaseID: t.CaseID, Title: t.Title, Seed: t.Seed, Models: t.Models, Turns: t.Turns,
		Completed: t.Completed, Updated: t.Updated.UTC().Format(time.RFC3339)}
	if t.Outcome != "" {
		j.Outcome = &t.Outcome
	}
	return j
}

// storedTrials lists the store's replayable trials.
func (s *Server) storedTrials(r *http.Request) ([]court.StoredTrialInfo, error) {
	return court.StoredTrials(r.Context(), s.court.games.Session.Store, func(id string) (*court.Case, error) {
		return s.findCase(r.Context(), id)
	})
}

// apiReplays lists the stored simulated trials: GET /api/court/replays -> {"replays":
// [{trial_id, case_id, title, seed, models, turns, completed, outcome, updated}]},
// newest first.
func (s *Server) apiReplays(w http.ResponseWriter, r *http.Request) {
	if !s.needCourt(w) || !s.mayReplay(w, r) {
		return
	}
	list, err := s.storedTrials(r)
	if err != nil {
		s.log.Error("list the stored trials", "err", err)
		apiError(w, http.StatusInternalServerError, "the store could not be read; the server log has the details")
		return
	}
	out := make([]replayJSON, 0, len(list))
	for _, t := range list {
		out = append(out, replayOf(t))
	}
	writeJSON(w, http.StatusOK, map[string]any{"replays": out})
}

// apiReplayInfo describes one stored trial for its stage: GET
// /api/court/replays/{trial}/info -> its listing with "case", the public case.
func (s *Server) apiReplayInfo(w http.ResponseWriter, r *http.Request) {
	if !s.needCourt(w) || !s.mayReplay(w, r) {
		return
	}
	tr, ok := s.storedTrial(w, r)
	if !ok {
		return
	}
	info, err := tr.Info(r.Context(), s.court.games.Session.Store)
	if err != nil {
		s.log.Error("replay a stored trial", "trial", tr.ID, "err", err)
		apiError(w, http.StatusInternalServerError, "the store could not be read; the server log has the details")
		return
	}
	j := replayOf(*info)
	pc := tr.Case.Public()
	j.Case = &pc
	writeJSON(w, http.StatusOK, j)
}

// storedTrial finds the request's {trial} in the store, or answers 404 or 500.
func (s *Server) storedTrial(w http.ResponseWriter, r *http.Request) (*court.StoredTrial, bool) {
	tr, err := court.FindStoredTrial(r.Context(), s.court.games.Session.Store, r.PathValue("trial"), func(id string) (*court.Case, error) {
		return s.findCase(r.Context(), id)
	})
	switch {
	case errors.Is(err, court.ErrNoStoredTrial):
		apiError(w, http.StatusNotFound, noStoredTrial(r.PathValue("trial")))
		return nil, false
	case err != nil:
		s.log.Error("find a stored trial", "trial", r.PathValue("trial"), "err", err)
		apiError(w, http.StatusInternalServerError, "the store could not be read; the server log has the details")
		return nil, false
	}
	return tr, true
}

func noStoredTrial(id string) string {
	return "no stored simulated trial " + id + " (a trial of a model defense whose case this server knows)"
}

// courtReplayPage plays a stored trial on the stage: GET /court/replays/{trial}, the
// game's page in its replay mode (court.js reads data-replay-id).
func (s *Server) courtReplayPage(w http.ResponseWriter, r *http.Request) {
	if s.court.games == nil {
		s.fail(w, r, http.StatusServiceUnavailable, noModelHint, nil)
		return
	}
	if s.court.public && !isOwner(r, s.court.owner) {
		s.fail(w, r, http.StatusForbidden, "The store's trials are its owner's: on a public server, open this replay with the owner's token (…?token=…, printed by serve at start).", nil)
		return
	}
	setOwnerCookie(w, r, s.court.owner)
	s.renderCourt(w, r, http.StatusOK, "court_game.html", courtGameView{ReplayID: r.PathValue("trial"), Phase: string(court.PhaseIntroduction), ResultsURL: "/"})
}

// apiReplay replays a stored `court simulate` trial from the store, turn by turn, as
// the event stream of a game: GET /api/court/replays/{trial}?delay_ms=N&from=I (N, at
// most 30 s, waited after every turn; I, the index of the first turn to send: the
// turns before it are replayed without a pause and not sent, so a paused page resumes,
// or skips to the verdict with delay_ms=0, where it stopped). No model is asked. Every
// turn has an "index" that goes on counting through a restart (a failed attempt's
// turns stay where they were, the next attempt's follow), and a restart's error event
// says restart false: the replay goes on by itself. A trial the store holds only part
// of ends with a stopped event {"message"} instead of a verdict. Its events are
// numbered afresh.
func (s *Server) apiReplay(w http.ResponseWriter, r *http.Request) {
	if !s.needCourt(w) || !s.mayReplay(w, r) {
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
	from := 0
	if q := r.URL.Query().Get("from"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 0 {
			apiError(w, http.StatusBadRequest, "from: want the index of a turn, 0 or more")
			return
		}
		from = n
	}
	st := s.court.games.Session.Store
	tr, ok := s.storedTrial(w, r)
	if !ok {
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
	// base is the index of the current attempt's first turn, next the index after the
	// last turn begun, at the turn the events are about: a turn's own, and after its
	// end the next one's (what comes between two turns, an exposure, the credibility,
	// belongs with the turn it leads to, so a resumed stream still sends it).
	base, next, at := 0, 0, 0
	verdict := false
	tx, err := tr.Replay(ctx, st, func(e court.Event) {
		if ctx.Err() != nil {
			return
		}
		p, _ := e.Payload().(map[string]any)
		switch e.Kind {
		case court.EventTurn, court.EventEnd:
			at = base + e.Turn - 1
			next = max(next, at+1)
			p["index"] = at // as a game's stream numbers its turns
		case court.EventError:
			if e.Restart {
				base = next
				p["restart"] = false
			}
		}
		verdict = verdict || e.Kind == court.EventVerdict
		send := at >= from || e.Kind == court.EventVerdict
		if e.Kind == court.EventEnd {
			at++
		}
		if !send {
			return
		}
		seq++
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
	if ctx.Err() != nil || verdict {
		return
	}
	// A trial the store holds only part of: say so, so that a page does not take the
	// end of the stream for a lost connection.
	msg := "The store holds no more of this trial: it stopped before its verdict."
	if err != nil {
		s.log.Error("replay a stored trial", "trial", tr.ID, "err", err)
		msg = "The replay stopped: the store could not be read; the server log has the details."
	} else if tx != nil && !tx.Completed && len(tx.Restarts) > tr.Settings.MaxRestarts && tr.Settings.MaxRestarts >= 0 {
		msg = "The trial was abandoned after its restarts, before a verdict."
	}
	data, _ := json.Marshal(map[string]any{"message": msg})
	fmt.Fprintf(w, "id: replay-%d\nevent: stopped\ndata: %s\n\n", seq+1, data)
	rc.Flush()
}
