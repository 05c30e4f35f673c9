package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkCourtDeltaLatency: the time from the stand-in starting a streamed reply (its
// Responder is called just before the first byte is written, so this is an upper bound)
// to the first delta event of that turn read from the game's event stream, over the
// introduction's two turns of a new game per iteration. Target: under 5 ms.
func BenchmarkCourtDeltaLatency(b *testing.B) {
	r := newCourtRig(b, rigOptions{})
	r.saveLantern()
	var started atomic.Int64
	hook := func() { started.Store(time.Now().UnixNano()) }
	r.firstByte.Store(&hook)
	var total time.Duration
	var n int
	for b.Loop() {
		code, out := r.do("POST", "/api/court/games", map[string]any{"case_id": "lantern-theft", "seed": 7})
		if code != http.StatusCreated {
			b.Fatalf("POST games = %d %v", code, out)
		}
		st := r.events(out["game_id"].(string), "")
		first := false
		for {
			ev, err := st.next()
			if err != nil {
				b.Fatal(err)
			}
			if ev.name == "turn" {
				first = true
			}
			if ev.name == "delta" && first {
				total += time.Duration(time.Now().UnixNano() - started.Load())
				n++
				first = false
			}
			if ev.name == "awaiting" {
				break
			}
		}
		st.res.Body.Close()
	}
	if n > 0 {
		b.ReportMetric(float64(total.Microseconds())/float64(n)/1000, "ms/first-delta")
	}
}

// BenchmarkCourtGamePage renders GET /court/games/{id}'s page with 40 turns (the
// template and the response, without the store). Target: under 50 ms.
func BenchmarkCourtGamePage(b *testing.B) {
	r := newCourtRig(b, rigOptions{})
	view := courtGameView{GameID: "abcdefghijklmnop", Title: "The Harbour Lantern Theft", Phase: "interrogation", ResultsURL: "/"}
	roles := []string{"judge", "prosecutor", "witness", "defense"}
	for i := range 40 {
		role := roles[i%4]
		view.Turns = append(view.Turns, courtTurnView{Speaker: strings.ToUpper(role[:1]) + role[1:], Role: role, Phase: "interrogation",
			Text: fmt.Sprintf("Turn %d: %s", i, strings.Repeat("the court hears a long and careful sentence ", 12)), Player: role == "defense"})
	}
	req := httptest.NewRequest("GET", "/court/games/abcdefghijklmnop", nil)
	for b.Loop() {
		rec := httptest.NewRecorder()
		r.srv.renderCourt(rec, req, http.StatusOK, "court_game.html", view)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

// BenchmarkCourtPostToFirstDelta: the time from the defense's POST (sent) to the first
// text of the court's next turn read from the event stream (a delta, or the end that
// carries the turn when the log dropped its pieces first), against a stand-in that
// answers at once: all of it is the server's and the engine's overhead over the model's
// own latency (the HTTP round trip to the stand-in included). Target: under 50 ms.
func BenchmarkCourtPostToFirstDelta(b *testing.B) {
	r := newCourtRig(b, rigOptions{})
	r.saveLantern()
	var total time.Duration
	n := 0
	for b.Loop() {
		code, out := r.do("POST", "/api/court/games", map[string]any{"case_id": "lantern-theft", "seed": 7})
		if code != http.StatusCreated {
			b.Fatalf("POST games = %d %v", code, out)
		}
		id := out["game_id"].(string)
		st := r.events(id, "")
		st.until(b, "awaiting")
		start := time.Now()
		if code, out := r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "The defense will show reasonable doubt."}); code != http.StatusAccepted {
			b.Fatalf("POST defense = %d %v", code, out)
		}
		court := false
		for {
			ev, err := st.next()
			if err != nil {
				b.Fatal(err)
			}
			if ev.name == "turn" {
				court = !strings.Contains(ev.data, `"role":"defense"`)
			}
			// A turn that ended before the stream read its pieces comes whole in its end.
			if (ev.name == "delta" || ev.name == "end") && court {
				total += time.Since(start)
				n++
				break
			}
		}
		st.res.Body.Close()
	}
	b.ReportMetric(float64(total.Microseconds())/float64(n)/1000, "ms/post-to-first-delta")
}
