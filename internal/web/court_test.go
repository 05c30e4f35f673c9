package web

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

// checkTurnEvents checks a stream's events: every id is "<boot>-<n>" with n counting up
// from after from, and each turn is turn, then deltas (none for a turn that ended before
// the stream began: the log keeps it whole), then end, whose text the deltas begin.
func checkTurnEvents(t *testing.T, evs []sseEvent, boot string, from int) {
	t.Helper()
	open := false
	var shown strings.Builder
	deltas := 0
	prev := from
	for i, ev := range evs {
		num, ok := strings.CutPrefix(ev.id, boot+"-")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || n <= prev {
			t.Errorf("event %d (%s) has id %q; want %s-<n> with n over %d", i, ev.name, ev.id, boot, prev)
		}
		prev = n
		var data map[string]any
		if err := json.Unmarshal([]byte(ev.data), &data); err != nil {
			t.Errorf("event %d (%s): data %q is not JSON: %v", i, ev.name, ev.data, err)
		}
		switch ev.name {
		case "turn":
			if open {
				t.Errorf("event %d: a turn starts inside another", i)
			}
			open = true
			shown.Reset()
			deltas = 0
			if data["speaker"] == "" || data["phase"] == "" || data["index"] == nil {
				t.Errorf("turn event %s lacks speaker, phase or index", ev.data)
			}
		case "reset":
			shown.Reset()
		case "delta":
			if !open {
				t.Errorf("event %d: a delta outside a turn", i)
			}
			shown.WriteString(data["text"].(string))
			deltas++
		case "end":
			turn, _ := data["turn"].(map[string]any)
			if turn == nil {
				t.Errorf("end event %s has no turn", ev.data)
				continue
			}
			if turn["player"] == true {
				continue // the defense's turns come as end only
			}
			if !open {
				t.Errorf("event %d: an end without a turn", i)
			}
			// A game's log drops a turn's pieces once it ends, so a stream that fell
			// behind may get only the first ones: what it got is where the turn begins,
			// and the end event carries it whole.
			text, _ := turn["text"].(string)
			if got := strings.TrimSpace(shown.String()); deltas > 0 && !strings.HasPrefix(text, got) {
				t.Errorf("deltas add up to %q; the turn says %q", got, text)
			}
			open = false
		}
	}
}

// TestCourtAPIPlaysAGame plays a game through the API: the events of every turn in
// order, the refusals of every move the court does not take (400 empty and over-long,
// 409 while the court speaks, after the verdict and for rest out of the
// interrogation), a question to a witness answered, rest, closing, the verdict, the
// transcript as a valid download, and the judge.
func TestCourtAPIPlaysAGame(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	id := r.newGame()
	if len(id) < 12 || !gameID.MatchString(id) {
		t.Errorf("game id %q is not a long URL-safe token", id)
	}
	st := r.events(id, "")
	evs := st.until(t, "awaiting")
	checkTurnEvents(t, evs, r.srv.court.boot, 0)
	var names []string
	for _, ev := range evs {
		if ev.name != "delta" {
			names = append(names, ev.name)
		}
	}
	if got := strings.Join(names, ","); got != "turn,end,turn,end,awaiting" {
		t.Errorf("introduction events (deltas left out) = %s; want the judge's and prosecutor's turns, then awaiting", got)
	}
	v := r.waitFloor(id)
	if v.Phase != court.PhaseIntroduction || len(v.Turns) != 2 {
		t.Fatalf("the floor: %s with %d turns", v.Phase, len(v.Turns))
	}

	for _, tc := range []struct {
		name string
		body map[string]any
		code int
	}{
		{"empty", map[string]any{"text": "  "}, 400},
		{"over-long", map[string]any{"text": strings.Repeat("é", court.MaxMoveText+1)}, 400},
		{"not an object", nil, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body any = tc.body
			if tc.body == nil {
				body = []int{1}
			}
			if code, out := r.do("POST", "/api/court/games/"+id+"/defense", body); code != tc.code || out["error"] == nil {
				t.Errorf("POST defense %s = %d %v; want %d with an error", tc.name, code, out, tc.code)
			}
		})
	}
	if code, _ := r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": strings.Repeat("é", court.MaxMoveText)}); code != 202 {
		// 4,000 characters of two bytes each are allowed: the limit counts runes.
		t.Fatalf("POST defense of exactly 4,000 characters = %d; want 202", code)
	}
	if code, _ := r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "Twice."}); code != 409 {
		t.Errorf("a second move while the court speaks = %d; want 409", code)
	}
	if v := r.waitFloor(id); v.Phase != court.PhaseInterrogation {
		t.Fatalf("after the opening the phase is %s", v.Phase)
	}

	// A question to a witness, held at the stand-in so the court is surely speaking.
	release := r.holdWitness()
	if code, out := r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "Witness, what did you see? " + hostileText, "to": "Witness_nell"}); code != 202 {
		t.Fatalf("POST defense to a witness = %d %v", code, out)
	}
	if code, _ := r.do("POST", "/api/court/games/"+id+"/rest", nil); code != 409 {
		t.Errorf("rest while the witness speaks = %d; want 409", code)
	}
	release()
	evs = st.until(t, "awaiting")
	sawWitness := false
	for _, ev := range evs {
		if ev.name == "end" && strings.Contains(ev.data, `"role":"witness"`) && strings.Contains(ev.data, "I saw a figure") {
			sawWitness = true
		}
	}
	if !sawWitness {
		t.Errorf("the witness did not answer on the stream: %v", evs)
	}
	r.waitFloor(id)
	if code, out := r.do("POST", "/api/court/games/"+id+"/rest", nil); code != 202 {
		t.Fatalf("POST rest = %d %v", code, out)
	}
	if v := r.waitFloor(id); v.Phase != court.PhaseClosing {
		t.Fatalf("after rest the phase is %s; want closing", v.Phase)
	}
	if code, _ := r.do("POST", "/api/court/games/"+id+"/rest", nil); code != 409 {
		t.Errorf("rest in the closing = %d; want 409", code)
	}
	if code, _ := r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "Nobody saw her face."}); code != 202 {
		t.Fatalf("closing statement refused")
	}
	evs = st.until(t, "verdict")
	last := evs[len(evs)-1]
	var verdict map[string]any
	json.Unmarshal([]byte(last.data), &verdict)
	if verdict["outcome"] != "win" || verdict["justification"] == "" || verdict["summary"] == nil {
		t.Errorf("verdict event = %s; want win with justification and summary", last.data)
	}
	v = r.waitFloor(id)
	if v.Outcome == nil || *v.Outcome != "win" {
		t.Fatalf("outcome %v; want win", v.Outcome)
	}
	if code, _ := r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "One more thing."}); code != 409 {
		t.Errorf("a move after the verdict = %d; want 409", code)
	}

	res, err := r.client.Get(r.base + "/api/court/games/" + id + "/transcript")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if cd := res.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment") || !strings.Contains(cd, id) {
		t.Errorf("transcript Content-Disposition = %q; want an attachment named for the game", cd)
	}
	ts, err := check.ParseTranscripts(raw, "game.json", check.FormatJSON)
	if err != nil {
		t.Fatalf("the transcript does not parse as check.md's: %v", err)
	}
	if len(ts[0].Turns) != len(v.Turns) || !ts[0].Turns[2].Player {
		t.Errorf("transcript has %d turns (third player %v); the game %d", len(ts[0].Turns), ts[0].Turns[2].Player, len(v.Turns))
	}

	code, out := r.do("POST", "/api/court/games/"+id+"/judge", map[string]any{"model": "openai/judge"})
	if code != 200 || out["qs"] == nil || out["by_dimension"] == nil {
		t.Errorf("POST judge = %d %v", code, out)
	}
	if code, _ := r.do("POST", "/api/court/games/"+id+"/judge", map[string]any{"model": "openai/nobody"}); code != 400 {
		t.Errorf("judge with a model the server does not know = %d; want 400", code)
	}

	code, out = r.do("GET", "/api/court/games", nil)
	games, _ := out["games"].([]any)
	if code != 200 || len(games) != 1 || games[0].(map[string]any)["outcome"] != "win" {
		t.Errorf("GET games = %d %v", code, out)
	}
}

// TestCourtAPIRefuses: the guard's refusals on the game API, unknown games and cases,
// invalid case records with every error, and case generation.
func TestCourtAPIRefuses(t *testing.T) {
	gen := func(_ context.Context, prior string, model llm.ModelName) (*court.Case, []string, error) {
		if strings.Contains(prior, "fail") {
			return nil, []string{"witnesses[1].knows: must not be empty", "evidence: " + hostileText}, nil
		}
		c := lanternCase(t)
		c.Prior = prior
		return c, nil, nil
	}
	r := newCourtRig(t, rigOptions{generate: gen})
	post := func(path, body string, h map[string]string) int {
		req, _ := http.NewRequest("POST", r.base+path, strings.NewReader(body))
		for k, v := range h {
			req.Header.Set(k, v)
		}
		res, err := r.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	asJSON := map[string]string{"Content-Type": "application/json"}
	if got := post("/api/court/games", `{"case_id":"lantern-theft"}`, map[string]string{"Content-Type": "application/json", "Origin": "http://evil.example"}); got != 403 {
		t.Errorf("foreign Origin = %d; want 403", got)
	}
	if got := post("/api/court/games", `{"case_id":"lantern-theft"}`, map[string]string{"Content-Type": "text/plain"}); got != 415 {
		t.Errorf("text/plain body = %d; want 415", got)
	}
	req, _ := http.NewRequest("GET", r.base+"/api/court/cases", nil)
	req.Host = "rebound.example:80"
	if res, err := r.client.Do(req); err != nil || res.StatusCode != 421 {
		t.Errorf("foreign Host = %v %v; want 421", res, err)
	} else {
		res.Body.Close()
	}
	if got := post("/api/court/games", `{"case_id":"no-such-case"}`, asJSON); got != 400 {
		t.Errorf("unknown case = %d; want 400", got)
	}
	if got := post("/api/court/games", `{"case_id":"museum-code","models":{"judge":"openai/unknown"}}`, asJSON); got != 400 {
		t.Errorf("unknown model = %d; want 400", got)
	}
	for _, path := range []string{"/api/court/games/nope", "/api/court/games/nope/events", "/api/court/games/nope/transcript", "/court/games/nope", "/api/court/games/..%2f..%2fetc"} {
		res, err := r.client.Get(r.base + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		// Without a token nothing is read, not even whether the game exists.
		if res.StatusCode != 403 {
			t.Errorf("GET %s = %d; want 403", path, res.StatusCode)
		}
	}
	if got := post("/api/court/games/nope/defense", `{"text":"hi"}`, asJSON); got != 403 {
		t.Errorf("defense to no game = %d; want 403", got)
	}

	// Cases: the bundled five, a bad record refused with every error, a good one stored.
	code, out := r.do("GET", "/api/court/cases", nil)
	if cs, _ := out["cases"].([]any); code != 200 || len(cs) != 5 {
		t.Fatalf("GET cases = %d with %d cases; want the 5 bundled", code, len(cs))
	}
	code, out = r.do("POST", "/api/court/cases", map[string]any{"case": map[string]any{"case_id": "x", "kind": "nonsense"}})
	if errs, _ := out["errors"].([]any); code != 400 || len(errs) < 3 {
		t.Errorf("POST an invalid case = %d %v; want 400 with every error", code, out)
	}
	r.saveLantern()
	code, out = r.do("GET", "/api/court/cases", nil)
	if cs, _ := out["cases"].([]any); code != 200 || len(cs) != 6 || cs[5].(map[string]any)["case_id"] != "lantern-theft" {
		t.Errorf("after saving, GET cases = %d with %d cases; want 6, the bundled, then the saved", code, len(cs))
	}
	rec, err := r.st.CourtCase(t.Context(), "lantern-theft")
	if err != nil || rec.Origin != "saved" {
		t.Errorf("stored case: %+v, %v; want origin saved", rec, err)
	}

	// Generation: problems are 422 with every one, a case is 200.
	code, out = r.do("POST", "/api/court/cases/generate", map[string]any{"prior": "please fail"})
	if errs, _ := out["errors"].([]any); code != 422 || len(errs) != 2 {
		t.Errorf("generate with problems = %d %v", code, out)
	}
	code, out = r.do("POST", "/api/court/cases/generate", map[string]any{"prior": "a lantern"})
	if c, _ := out["case"].(map[string]any); code != 200 || c["case_id"] != "lantern-theft" || out["draft"] == "" || c["contradictions"] != nil {
		t.Errorf("generate = %d %v; want the public case and a draft id", code, out)
	}
	code, out = r.do("GET", "/api/court/models", nil)
	if d, _ := out["defaults"].(map[string]any); code != 200 || d["witness"] != "openai/witness" || len(out["models"].([]any)) != 4 {
		t.Errorf("GET models = %d %v", code, out)
	}
}

// TestCourtEventsReplayFromLastEventID: a client that reconnects with the id of an event
// it saw gets every later event again, the same ones, from the header or the query; an
// id of another server process replays from the start of the trial's latest attempt.
func TestCourtEventsReplayFromLastEventID(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	id := r.newGame()
	first := r.events(id, "")
	first.until(t, "awaiting")
	first.close()
	// Once the turns have ended the log holds them whole: read it again from the start.
	// (Each stream is closed when read: a client holds at most four on a game.)
	second := r.events(id, "")
	all := second.until(t, "awaiting")
	second.close()
	if len(all) < 5 {
		t.Fatalf("only %d events", len(all))
	}
	k := 1
	resumed := r.events(id, all[k].id)
	again := resumed.until(t, "awaiting")
	resumed.close()
	if len(again) != len(all)-k-1 {
		t.Fatalf("resumed after %s: %d events; want %d", all[k].id, len(again), len(all)-k-1)
	}
	for i, ev := range again {
		if ev != all[k+1+i] {
			t.Errorf("replayed event %d = %+v; want %+v", i, ev, all[k+1+i])
		}
	}
	// The query parameter, for clients that cannot set headers.
	req, _ := http.NewRequest("GET", r.base+"/api/court/games/"+id+"/events?last_event_id="+all[len(all)-2].id, nil)
	res, err := r.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	st := &sseStream{res: res, br: bufio.NewReader(res.Body)}
	if ev, err := st.next(); err != nil || ev != all[len(all)-1] {
		t.Errorf("after last_event_id the first event is %+v (%v); want %+v", ev, err, all[len(all)-1])
	}
	res.Body.Close()
	// An id from another boot, or garbage, replays from the start.
	for _, old := range []string{"someoneelse-4", "junk", r.srv.court.boot + "-x"} {
		st := r.events(id, old)
		ev, err := st.next()
		st.close()
		if err != nil || ev != all[0] {
			t.Errorf("Last-Event-ID %q: first event %+v (%v); want the first of the trial", old, ev, err)
		}
	}
}

// TestCourtGameSurvivesARestart: the server is stopped while a witness is answering
// and a new one is started on the same store: the game shows every finished turn where
// it stood, the witness's turn is asked again, and the game goes on to the verdict.
func TestCourtGameSurvivesARestart(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	id := r.newGame()
	r.waitFloor(id)
	r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "The defense will show she never left the pier office."})
	r.waitFloor(id)
	release := r.holdWitness()
	if code, _ := r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "Witness, who pawned it?", "to": "Witness_nell"}); code != 202 {
		t.Fatal("question refused")
	}
	r.waitHeld()
	before := r.view(id)
	if !before.Busy {
		t.Fatalf("the court is not speaking while the witness is held: %+v", before)
	}
	r.stop()
	release()

	r.start(rigOptions{})
	after := r.view(id)
	if len(after.Turns) < len(before.Turns) {
		t.Fatalf("after the restart the game has %d turns; it had %d", len(after.Turns), len(before.Turns))
	}
	for i := range before.Turns {
		if after.Turns[i] != before.Turns[i] {
			t.Errorf("turn %d changed across the restart: %+v -> %+v", i, before.Turns[i], after.Turns[i])
		}
	}
	v := r.waitFloor(id)
	last := v.Turns[len(before.Turns)]
	if last.Role != "witness" {
		t.Errorf("the first turn after the restart is %s's; want the witness's, asked again", last.Speaker)
	}
	r.do("POST", "/api/court/games/"+id+"/rest", nil)
	r.waitFloor(id)
	r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "Nobody saw her face."})
	if v := r.waitFloor(id); v.Outcome == nil {
		t.Fatalf("the game did not reach a verdict after the restart: %+v", v)
	}
}

// TestCourtOffersARestart: a model failure stops the court with an error event that
// offers a restart; restart is refused when none is offered, and accepted when it is.
func TestCourtOffersARestart(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	r.failOnce.Store(true)
	id := r.newGame()
	evs := r.events(id, "").until(t, "error")
	var e map[string]any
	json.Unmarshal([]byte(evs[len(evs)-1].data), &e)
	if e["restart"] != true || e["message"] == "" {
		t.Errorf("error event = %s; want a restart offered with a message", evs[len(evs)-1].data)
	}
	v := r.waitFloor(id)
	if !v.RestartOffered {
		t.Fatalf("no restart offered: %+v", v)
	}
	if code, _ := r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "Hello?"}); code != 409 {
		t.Errorf("a move while a restart is offered = %d; want 409", code)
	}
	if code, _ := r.do("POST", "/api/court/games/"+id+"/restart", nil); code != 202 {
		t.Fatalf("restart = %d", code)
	}
	if v := r.waitFloor(id); !v.AwaitingDefense || len(v.Turns) != 2 {
		t.Errorf("after the restart: %+v; want the introduction again and the floor", v)
	}
	if code, _ := r.do("POST", "/api/court/games/"+id+"/restart", nil); code != 409 {
		t.Errorf("a restart with none offered = %d; want 409", code)
	}
	res, _ := r.client.Get(r.base + "/api/court/games/" + id + "/transcript")
	var tr court.Transcript
	json.NewDecoder(res.Body).Decode(&tr)
	res.Body.Close()
	if tr.Retries != 1 {
		t.Errorf("transcript retries = %d; want the restart counted", tr.Retries)
	}
}

// TestCourtWithoutAModel: with no court the menu says how to give it a model, and the
// API says the same instead of failing inside a game.
func TestCourtWithoutAModel(t *testing.T) {
	r := newCourtRig(t, rigOptions{noCourt: true})
	res, err := r.client.Get(r.base + "/court")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{`id="no-model"`, "--court-model ollama/llama3.1:8b", "OPENAI_API_KEY"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the menu lacks %q", want)
		}
	}
	if got := res.Header.Get("Content-Security-Policy"); got != courtCSP {
		t.Errorf("menu CSP = %q", got)
	}
	if code, out := r.do("POST", "/api/court/games", map[string]any{"case_id": "museum-code"}); code != 503 || !strings.Contains(out["error"].(string), "--court-model") {
		t.Errorf("POST games without a court = %d %v; want 503 with the hint", code, out)
	}
	if code, _ := r.do("POST", "/api/court/cases/generate", map[string]any{"prior": "x"}); code != 501 {
		t.Errorf("generate without a generator = %d; want 501", code)
	}
}

// TestCourtGamePage: the game page shows the turns so far before any script, model and
// player text escaped, under courtCSP with court.js its only script.
func TestCourtGamePage(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	id := r.newGame()
	r.waitFloor(id)
	r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "Player says " + hostileText})
	r.waitFloor(id)
	res, err := r.client.Get(r.base + "/court/games/" + id)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	body := string(raw)
	if res.StatusCode != 200 {
		t.Fatalf("GET game page = %d", res.StatusCode)
	}
	if got := res.Header.Get("Content-Security-Policy"); got != courtCSP {
		t.Errorf("CSP = %q", got)
	}
	if n, want := strings.Count(body, `<li class="turn `), len(r.view(id).Turns); n != want {
		t.Errorf("page has %d turns; want %d", n, want)
	}
	for _, bad := range []string{"<script>alert", "<img src=x"} {
		if strings.Contains(body, bad) {
			t.Errorf("page contains %q unescaped", bad)
		}
	}
	if strings.Count(body, "<script") != 1 || strings.Contains(body, "style=") || strings.Contains(body, " onclick") {
		t.Error("page has a script other than court.js, or an inline style or handler")
	}
	for _, want := range []string{`&lt;script&gt;alert(1)&lt;/script&gt;`, `{{.}}`, `class="turn role-defense player"`, `data-game-id="` + id + `"`} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestCourtMenuWhenNoModelAnswers: a court whose models do not answer shows the hint
// with the reason, asking the model server once for several menu loads.
func TestCourtMenuWhenNoModelAnswers(t *testing.T) {
	calls := 0
	r := newCourtRig(t, rigOptions{reachable: func(context.Context) error {
		calls++
		return errors.New("ollama at http://127.0.0.1:11434 does not answer")
	}})
	for range 3 {
		res, err := r.client.Get(r.base + "/court")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.Contains(string(body), "does not answer") || !strings.Contains(string(body), "--court-model ollama/llama3.1:8b") {
			t.Errorf("the menu lacks the reason or the hint")
		}
	}
	if calls != 1 {
		t.Errorf("the menu checked the models %d times in three loads; want once", calls)
	}
}

// FuzzResumeAt: any Last-Event-ID a client sends is either one of this process's ids,
// read back to its number, or refused; it never panics or gives a negative count.
func FuzzResumeAt(f *testing.F) {
	c := &courtState{boot: "Ab-d_fGh"}
	for _, s := range []string{"Ab-d_fGh-12", "Ab-d_fGh-", "Ab-12", "other-3", "", "-", "Ab-d_fGh--1", "Ab-d_fGh-99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		n, ok := c.resumeAt(id)
		if !ok && n != 0 || n < 0 {
			t.Fatalf("resumeAt(%q) = %d, %v", id, n, ok)
		}
		if ok && !strings.HasPrefix(id, c.boot+"-") {
			t.Fatalf("resumeAt(%q) accepted another boot's id", id)
		}
		if ok {
			if m, ok2 := c.resumeAt(c.boot + "-" + strconv.Itoa(n)); !ok2 || m != n {
				t.Fatalf("resumeAt(own id %d) = %d, %v", n, m, ok2)
			}
		}
	})
}

// TestCourtJudgeRunsTheChecklist: "judge this trial" runs check.Judge with the bundled
// checklist over the game's transcript through the court's session, and answers its
// QS and per-dimension scores; judging again asks no model (the run is resumed).
func TestCourtJudgeRunsTheChecklist(t *testing.T) {
	r := newCourtRig(t, rigOptions{realJudge: true})
	id := r.newGame()
	r.playToVerdict(id)
	asked := r.asked.Load()
	code, out := r.do("POST", "/api/court/games/"+id+"/judge", map[string]any{})
	qs, _ := out["qs"].(float64)
	dims, _ := out["by_dimension"].(map[string]any)
	if code != 200 || qs <= 0 || qs >= 1 || len(dims) != 3 {
		t.Fatalf("POST judge = %d %v; want a QS strictly between 0 and 1 and three dimensions", code, out)
	}
	if r.asked.Load() == asked {
		t.Fatal("the judge asked the stand-in nothing")
	}
	asked = r.asked.Load()
	if code, again := r.do("POST", "/api/court/games/"+id+"/judge", map[string]any{"model": "openai/judge"}); code != 200 || again["qs"] != out["qs"] {
		t.Errorf("judging again = %d %v; want the same %v", code, again, out["qs"])
	}
	if n := r.asked.Load() - asked; n != 0 {
		t.Errorf("judging again asked %d requests; want none", n)
	}
}

// TestCourtMoveRightAfterTheFloor: a move sent the moment the awaiting event arrives is
// taken (202), though the engine sends that event before its court has quite finished;
// so is a restart asked the moment the error event offers it.
func TestCourtMoveRightAfterTheFloor(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	r.saveLantern()
	for i := range 8 {
		code, out := r.do("POST", "/api/court/games", map[string]any{"case_id": "lantern-theft", "seed": i})
		if code != 201 {
			t.Fatalf("POST games = %d", code)
		}
		id := out["game_id"].(string)
		r.events(id, "").until(t, "awaiting")
		if code, out := r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "At once."}); code != 202 {
			t.Fatalf("game %d: a move right after the awaiting event = %d %v; want 202", i, code, out)
		}
		r.waitFloor(id) // no other game may take the failure below
	}
	for i := range 4 {
		r.failOnce.Store(true)
		code, out := r.do("POST", "/api/court/games", map[string]any{"case_id": "lantern-theft", "seed": 100 + i})
		if code != 201 {
			t.Fatalf("POST games = %d", code)
		}
		id := out["game_id"].(string)
		r.events(id, "").until(t, "error")
		if code, out := r.do("POST", "/api/court/games/"+id+"/restart", nil); code != 202 {
			t.Fatalf("game %d: a restart right after the error event = %d %v; want 202", i, code, out)
		}
		r.waitFloor(id)
	}
}
