package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-eval/arbiter/internal/court"
)

// A game's event stream (GET /api/court/games/{id}/events) sends the game's log, as
// court.Game.Events keeps it, as Server-Sent Events. The event numbered n (court.Event's
// Seq) has the id "<boot>-<n>", where boot is random per server process: the log of a
// game loaded after a restart is rebuilt by replaying its stored turns (a turn and an end
// each), so its numbers mean something else than before. The log keeps a turn's
// streamed pieces only until the turn ends or fails, so a new stream is sent the turns
// whole, never a cut-off reply. The stream ends after the verdict; a client holds at
// most Limits.StreamsPerGame streams open per game. A Last-Event-ID from
// this process resumes after that event; one from another process (or none) starts from
// the first event of the latest attempt of the trial, and the client, which keys turns
// by their "index", replaces the turns it already shows.

// lastEventID is the Last-Event-ID header, or the last_event_id query for a client that
// cannot set headers.
func lastEventID(r *http.Request) string {
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		return v
	}
	return r.URL.Query().Get("last_event_id")
}

// resumeAt is the Seq of the last event a client with Last-Event-ID id has seen; ok
// is false when id is not one of this process's.
func (c *courtState) resumeAt(id string) (n int, ok bool) {
	// The boot may hold a "-" itself (it is base64url): the number follows the last.
	i := strings.LastIndexByte(id, '-')
	if i < 0 || id[:i] != c.boot {
		return 0, false
	}
	num := id[i+1:]
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// latestAttempt is where the latest attempt's events start in evs.
func latestAttempt(evs []court.Event) int {
	if len(evs) == 0 {
		return 0
	}
	last := evs[len(evs)-1].Attempt
	i := len(evs)
	for i > 0 && evs[i-1].Attempt == last {
		i--
	}
	return i
}

// eventData is the SSE data of e: the spec's payload, with the turn's index (0-based)
// on turn and end, and the summary and the debrief on verdict (the verdict is public:
// the debrief names the planted contradictions only now).
func eventData(g *court.Game, e court.Event) []byte {
	p, _ := e.Payload().(map[string]any)
	if p == nil {
		p = map[string]any{}
	}
	switch e.Kind {
	case court.EventTurn, court.EventEnd:
		p["index"] = e.Turn - 1
	case court.EventVerdict:
		if t := g.Transcript(); t != nil && t.Verdict != nil {
			p["summary"] = t.Verdict.Summary
			if t.Debrief != nil {
				p["debrief"] = t.Debrief
			}
		}
	}
	b, _ := json.Marshal(p)
	return b
}

func (s *Server) apiEvents(w http.ResponseWriter, r *http.Request, g *court.Game) {
	release, lerr := s.court.guard.openStream(r, g.ID)
	if lerr != nil {
		refuseLimit(w, lerr)
		return
	}
	defer release()
	rc := http.NewResponseController(w)
	n, ok := s.court.resumeAt(lastEventID(r))
	if !ok {
		all, _ := g.Events(0)
		n = 0
		if i := latestAttempt(all); i < len(all) {
			n = all[i].Seq - 1
		}
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	// A dropped stream comes back quickly: the court may be mid-sentence.
	fmt.Fprint(w, "retry: 1000\n\n")
	rc.Flush()
	beat := time.NewTicker(s.court.heartbeat)
	defer beat.Stop()
	// A game of two may be moved from another process: the stream reads the store.
	var poll <-chan time.Time
	if g.TwoPlayers() {
		t := time.NewTicker(s.court.followEvery)
		defer t.Stop()
		poll = t.C
	}
	for {
		evs, changed := g.Events(n)
		// Event by event: a stream never builds the whole log in one buffer.
		for _, e := range evs {
			n = e.Seq
			if _, err := fmt.Fprintf(w, "id: %s-%d\nevent: %s\ndata: %s\n\n", s.court.boot, n, e.Kind, eventData(g, e)); err != nil {
				return
			}
			if e.Kind == court.EventVerdict {
				// The trial is over: nothing follows the verdict.
				rc.Flush()
				return
			}
		}
		if len(evs) > 0 {
			if err := rc.Flush(); err != nil {
				return
			}
		}
		if len(evs) == 0 && g.Done() {
			return
		}
		select {
		case <-changed:
		case <-poll:
			s.court.follow(r.Context(), g)
		case <-beat.C:
			if _, err := fmt.Fprint(w, ": still here\n\n"); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.court.ctx.Done():
			return
		}
	}
}
