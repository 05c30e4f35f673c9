package web

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

var defenseOffer = map[string][]llm.ModelName{"defense": {"openai/defense"}}

// waitPlayer waits until the player has the floor (or the verdict).
func (r *courtRig) waitPlayer(id string) court.GameView {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		v := r.view(id)
		if !v.Busy && (v.AwaitingPlayer || v.Outcome != nil) {
			return v
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("the court never gave the floor back: %+v", v)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A game played as the prosecution through the API: the defense's lines come from the
// defense's model, a move on the defense's floor is 409, the player's turns are the
// Prosecutor's and marked the player's, and the checklist reading of the transcript
// with --player prosecutor leaves out exactly them.
func TestCourtPlayProsecution(t *testing.T) {
	r := newCourtRig(t, rigOptions{offers: defenseOffer})
	r.saveLantern()
	code, out := r.do("POST", "/api/court/games", map[string]any{"case_id": "lantern-theft", "seed": 7, "side": "jury"})
	if code != http.StatusBadRequest {
		t.Errorf("side jury = %d %v", code, out)
	}
	code, out = r.do("POST", "/api/court/games", map[string]any{"case_id": "lantern-theft", "seed": 7, "side": "prosecution"})
	if code != http.StatusCreated {
		t.Fatalf("POST games = %d %v", code, out)
	}
	id := out["game_id"].(string)
	v := r.waitPlayer(id)
	if v.Side != court.SideProsecution || v.AwaitingDefense || !v.AwaitingPlayer || v.Models.Defense != "openai/defense" {
		t.Fatalf("view %+v", v)
	}
	if code, out := r.do("POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "I speak for the defense."}); code != http.StatusConflict {
		t.Errorf("a move on the defense's floor = %d %v; want 409", code, out)
	}
	for _, step := range []struct {
		path string
		body any
	}{
		{"/prosecution", map[string]any{"text": "The people will prove she took the lantern."}},
		{"/prosecution", map[string]any{"text": "Witness, who pawned it?", "to": "Witness_nell"}},
		{"/rest", nil},
		{"/prosecution", map[string]any{"text": "The pawn ticket speaks for itself."}},
	} {
		if code, out := r.do("POST", "/api/court/games/"+id+step.path, step.body); code != http.StatusAccepted {
			t.Fatalf("POST %s = %d %v", step.path, code, out)
		}
		r.waitPlayer(id)
	}
	v = r.view(id)
	if v.Outcome == nil || v.Debrief == nil || v.Debrief.Side != court.SideProsecution {
		t.Fatalf("no prosecution verdict: %+v", v)
	}
	res, err := r.client.Get(r.base + "/api/court/games/" + id + "/transcript")
	if err != nil {
		t.Fatal(err)
	}
	raw := new(strings.Builder)
	bufio.NewReader(res.Body).WriteTo(raw)
	res.Body.Close()
	var tx court.Transcript
	if err := json.Unmarshal([]byte(raw.String()), &tx); err != nil {
		t.Fatal(err)
	}
	if tx.Side != court.SideProsecution || tx.Models["defense"] != "openai/defense" {
		t.Errorf("transcript side %q models %v", tx.Side, tx.Models)
	}
	var mine []string
	for _, tu := range tx.Turns {
		if tu.Player != (tu.Role == check.RoleProsecutor) {
			t.Errorf("turn %+v: the player's turns are the Prosecutor's", tu)
		}
		if tu.Player {
			mine = append(mine, tu.Text)
		}
		if tu.Role == check.RoleDefense && !strings.Contains(tu.Text, "(defense, turn") {
			t.Errorf("a defense line not from the defense model: %q", tu.Text)
		}
	}
	if len(mine) != 4 {
		t.Errorf("player turns %q", mine)
	}
	// The checklist reads the file as written: --player prosecutor, and the file's
	// marks, leave out exactly the player's turns.
	ts, err := check.ParseTranscriptsWith([]byte(raw.String()), "game.json", check.FormatJSON, check.ReadOptions{Player: check.RoleProsecutor})
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, tu := range ts[0].Turns {
		if tu.Player {
			left = append(left, tu.Text)
		}
	}
	if strings.Join(left, "|") != strings.Join(mine, "|") {
		t.Errorf("check leaves out %q; want %q", left, mine)
	}
}

// openWatch opens a game's event stream with a token in the URL, as a watch link does.
func (r *courtRig) openWatch(id, token string) *sseStream {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	r.t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", r.base+"/api/court/games/"+id+"/events?token="+token, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	if res.StatusCode != 200 {
		r.t.Fatalf("watch events: %d", res.StatusCode)
	}
	return &sseStream{res: res, br: bufio.NewReader(res.Body)}
}

// doAs sends a request with a token as the bearer and no cookie: another browser.
func (r *courtRig) doAs(token, method, path string, body any) int {
	r.t.Helper()
	var rd *strings.Reader
	if body == nil {
		body = map[string]any{}
	}
	b, _ := json.Marshal(body)
	rd = strings.NewReader(string(b))
	req, _ := http.NewRequest(method, r.base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", r.base)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// A watched trial: a model on every seat; two watchers with the watch link both
// receive every event, while the stand-in is asked once per turn; the owner pauses it
// (nothing more is asked) and skips to the verdict; a watcher can neither pace it nor
// move in it.
func TestCourtWatchTrial(t *testing.T) {
	var mu sync.Mutex
	byModel := map[string]int{}
	r := newCourtRig(t, rigOptions{offers: defenseOffer, latency: 30 * time.Millisecond, respond: func(req *llmtest.Request) (llmtest.Response, bool) {
		mu.Lock()
		byModel[req.Model]++
		mu.Unlock()
		return llmtest.Response{}, false
	}})
	r.saveLantern()
	code, out := r.do("POST", "/api/court/watch", map[string]any{"case_id": "lantern-theft", "seed": 7})
	if code != http.StatusCreated {
		t.Fatalf("POST watch = %d %v", code, out)
	}
	id, owner, watch := out["game_id"].(string), out["token"].(string), out["watch_token"].(string)
	if code := r.doAs(owner, "POST", "/api/court/games/"+id+"/pause", nil); code != http.StatusAccepted {
		t.Fatalf("pause = %d", code)
	}
	a, b := r.openWatch(id, watch), r.openWatch(id, watch)
	defer a.close()
	defer b.close()
	// Paused: after the turn being spoken ends, nothing more is asked.
	a.until(t, "end")
	time.Sleep(50 * time.Millisecond)
	n := r.asked.Load()
	time.Sleep(200 * time.Millisecond)
	if r.asked.Load() != n {
		t.Fatalf("a paused trial asked %d more calls", r.asked.Load()-n)
	}
	v := r.peek(id)
	if !v.Watch || !v.Paused || v.Outcome != nil {
		t.Fatalf("view %+v", v)
	}
	for _, c := range []struct {
		path string
		want int
	}{{"/pause", 403}, {"/skip", 403}, {"/defense", 403}, {"/rest", 403}} {
		if code := r.doAs(watch, "POST", "/api/court/games/"+id+c.path, map[string]any{"text": "x"}); code != c.want {
			t.Errorf("watcher POST %s = %d; want %d", c.path, code, c.want)
		}
	}
	if code := r.doAs(owner, "POST", "/api/court/games/"+id+"/defense", map[string]any{"text": "x"}); code != http.StatusConflict {
		t.Errorf("a move in a watched trial = %d; want 409", code)
	}
	if code := r.doAs(owner, "POST", "/api/court/games/"+id+"/speed", map[string]any{"delay_ms": 10}); code != http.StatusAccepted {
		t.Errorf("speed = %d", code)
	}
	if code := r.doAs(owner, "POST", "/api/court/games/"+id+"/skip", nil); code != http.StatusAccepted {
		t.Fatalf("skip = %d", code)
	}
	ea, eb := a.until(t, "verdict"), b.until(t, "verdict")
	tail := func(es []sseEvent) []string {
		var out []string
		for _, e := range es {
			if e.name != "delta" { // a stream opened mid-turn may see fewer pieces
				out = append(out, e.id+" "+e.name+" "+e.data)
			}
		}
		return out
	}
	ta, tb := tail(ea), tail(eb)
	// a read its first end before b began reading: b's events from there on are a's.
	if len(tb) < len(ta) || strings.Join(tb[len(tb)-len(ta):], "\n") != strings.Join(ta, "\n") {
		t.Errorf("the watchers saw different events:\n%v\n%v", ta, tb)
	}
	v = r.peek(id)
	if v.Outcome == nil {
		t.Fatalf("no verdict: %+v", v)
	}
	roles := map[check.Role]int{}
	for _, tu := range v.Turns {
		roles[tu.Role]++
		if tu.Phase == court.PhaseInterrogation && len(v.Turns) > 12 {
			t.Errorf("the skip did not cut the interrogation short: %d turns", len(v.Turns))
			break
		}
	}
	mu.Lock()
	defer mu.Unlock()
	// Once per turn: each counsel's and witness's model once per its turn; the judge's
	// once per its turn, plus the summary and the evaluation.
	if byModel["prosecutor"] != roles[check.RoleProsecutor] || byModel["defense"] != roles[check.RoleDefense] ||
		byModel["witness"] != roles[check.RoleWitness] || byModel["judge"] != roles[check.RoleJudge]+2 {
		t.Errorf("asked %v for turns %v", byModel, roles)
	}
}

// A stored `court simulate` trial replays over the event stream, turn by turn, from the
// store: every turn of its transcript arrives as an end event, then the verdict, and
// the stand-in is not asked again; an unknown trial is 404.
func TestCourtReplayStoredTrial(t *testing.T) {
	r := newCourtRig(t, rigOptions{})
	r.saveLantern()
	models := testModels
	models.Defense = "openai/defense"
	sim := &court.Simulation{Session: r.srv.court.games.Session, Cases: []*court.Case{lanternCase(t)}, Seeds: []int64{3},
		Settings: court.Settings{Models: models}, Defense: court.ModelDefense{}}
	res, err := sim.Run(context.Background())
	if err != nil || res.Trials[0].Transcript == nil {
		t.Fatalf("simulate: %v %+v", err, res)
	}
	want := res.Trials[0].Transcript
	before := r.asked.Load()
	res2, err := r.client.Get(r.base + "/api/court/replays/" + want.TrialID + "?delay_ms=1")
	if err != nil {
		t.Fatal(err)
	}
	defer res2.Body.Close()
	if res2.StatusCode != 200 {
		t.Fatalf("replay = %d", res2.StatusCode)
	}
	s := &sseStream{res: res2, br: bufio.NewReader(res2.Body)}
	evs := s.until(t, "verdict")
	var turns []string
	for _, e := range evs {
		if e.name == "end" {
			var p struct {
				Turn court.Turn `json:"turn"`
			}
			json.Unmarshal([]byte(e.data), &p)
			turns = append(turns, p.Turn.Text)
		}
	}
	if len(turns) != len(want.Turns) {
		t.Fatalf("replayed %d turns; the trial had %d", len(turns), len(want.Turns))
	}
	for i, tu := range want.Turns {
		if turns[i] != tu.Text {
			t.Errorf("turn %d = %q; want %q", i+1, turns[i], tu.Text)
		}
	}
	if r.asked.Load() != before {
		t.Errorf("the replay asked the stand-in %d times", r.asked.Load()-before)
	}
	if code, _ := r.do("GET", "/api/court/replays/lantern-theft-s9-abcdef", nil); code != http.StatusNotFound {
		t.Errorf("an unknown trial = %d; want 404", code)
	}
}

// simulateStored plays `court simulate` trials of the lantern case (a model defense)
// into the rig's store, one per seed, as the command does.
func (r *courtRig) simulateStored(seeds ...int64) *court.SimResult {
	r.t.Helper()
	models := testModels
	models.Defense = "openai/defense"
	sim := &court.Simulation{Session: r.srv.court.games.Session, Cases: []*court.Case{lanternCase(r.t)}, Seeds: seeds,
		Settings: court.Settings{Models: models}, Defense: court.ModelDefense{}}
	res, err := sim.Run(context.Background())
	if err != nil {
		r.t.Fatalf("simulate: %v", err)
	}
	for _, tr := range res.Trials {
		if tr.Err != nil || tr.Transcript == nil {
			r.t.Fatalf("simulate %s: %v", tr.TrialID, tr.Err)
		}
	}
	return res
}

// The stored simulated trials are listed, each with its case, models, turns and
// verdict as its replay reaches them; one is described with its public case; a replay
// from a turn on sends the turns from there; and on --public none of it is served
// without the owner's token, which the court's pages keep as a cookie once opened
// with it.
func TestCourtReplayList(t *testing.T) {
	// The court finds against the defense: a list that took every trial for won fails.
	r := newCourtRig(t, rigOptions{respond: func(req *llmtest.Request) (llmtest.Response, bool) {
		return llmtest.Response{Text: `{"outcome": "loss", "justification": "The pawn ticket decides it."}`}, strings.HasPrefix(req.System, "You decide the outcome")
	}})
	r.saveLantern()
	if code, out := r.do("GET", "/api/court/replays", nil); code != http.StatusOK || len(out["replays"].([]any)) != 0 {
		t.Fatalf("an empty store's replays = %d %v", code, out)
	}
	res := r.simulateStored(3, 4)
	code, out := r.do("GET", "/api/court/replays", nil)
	if code != http.StatusOK {
		t.Fatalf("GET replays = %d %v", code, out)
	}
	list := out["replays"].([]any)
	if len(list) != len(res.Trials) {
		t.Fatalf("listed %d trials; simulated %d: %v", len(list), len(res.Trials), list)
	}
	want := map[string]*court.Transcript{}
	for _, tr := range res.Trials {
		want[tr.TrialID] = tr.Transcript
	}
	for _, x := range list {
		e := x.(map[string]any)
		tx := want[e["trial_id"].(string)]
		if tx != nil && *tx.Outcome != court.OutcomeLoss {
			t.Fatalf("the stand-in's court found for the defense: %s", *tx.Outcome)
		}
		if tx == nil {
			t.Errorf("listed %v, not a simulated trial", e)
			continue
		}
		m := e["models"].(map[string]any)
		if e["case_id"] != "lantern-theft" || e["title"] != lanternCase(t).Title || e["turns"] != float64(len(tx.Turns)) ||
			e["completed"] != true || e["outcome"] != *tx.Outcome || m["judge"] != "openai/judge" || m["defense"] != "openai/defense" ||
			e["updated"] == "" || e["seed"] != float64(tx.Seed) {
			t.Errorf("listed %v; the trial had %d turns, outcome %s", e, len(tx.Turns), *tx.Outcome)
		}
	}

	id := res.Trials[0].TrialID
	code, info := r.do("GET", "/api/court/replays/"+id+"/info", nil)
	if code != http.StatusOK || info["trial_id"] != id {
		t.Fatalf("GET info = %d %v", code, info)
	}
	raw, _ := json.Marshal(info["case"])
	if c, _ := info["case"].(map[string]any); c == nil || c["case_id"] != "lantern-theft" || strings.Contains(string(raw), "contradictions") || strings.Contains(string(raw), `"knows"`) {
		t.Errorf("info's case is not the public case: %s", raw)
	}
	if code, _ := r.do("GET", "/api/court/replays/lantern-theft-s9-abcdef/info", nil); code != http.StatusNotFound {
		t.Errorf("info of an unknown trial = %d; want 404", code)
	}

	// From turn 3 on: the turns before are not sent, the rest and the verdict are.
	tx := want[id]
	resp, err := r.client.Get(r.base + "/api/court/replays/" + id + "?from=3")
	if err != nil {
		t.Fatal(err)
	}
	s := &sseStream{res: resp, br: bufio.NewReader(resp.Body)}
	var idx []int
	for _, e := range s.until(t, "verdict") {
		if e.name == "end" {
			var p struct {
				Index int        `json:"index"`
				Turn  court.Turn `json:"turn"`
			}
			json.Unmarshal([]byte(e.data), &p)
			if p.Turn.Text != tx.Turns[p.Index].Text {
				t.Errorf("turn %d = %q; want %q", p.Index, p.Turn.Text, tx.Turns[p.Index].Text)
			}
			idx = append(idx, p.Index)
		}
	}
	s.close()
	if len(idx) != len(tx.Turns)-3 || idx[0] != 3 {
		t.Errorf("from=3 sent the turns %v of %d", idx, len(tx.Turns))
	}
	if code, _ := r.do("GET", "/api/court/replays/"+id+"?from=-1", nil); code != http.StatusBadRequest {
		t.Errorf("from=-1 = %d; want 400", code)
	}
}

func TestCourtReplayPublic(t *testing.T) {
	const owner = "the-owners-token"
	r := newCourtRig(t, rigOptions{public: true, owner: owner})
	b, _ := os.ReadFile("testdata/lantern.json")
	if code, out := r.do("POST", "/api/court/cases?token="+owner, map[string]any{"case": json.RawMessage(b)}); code != http.StatusCreated {
		t.Fatalf("POST cases = %d %v", code, out)
	}
	id := r.simulateStored(5).Trials[0].TrialID
	for _, path := range []string{"/api/court/replays", "/api/court/replays/" + id + "/info", "/api/court/replays/" + id, "/court/replays/" + id} {
		if code, _ := r.do("GET", path, nil); code != http.StatusForbidden {
			t.Errorf("a stranger's GET %s = %d; want 403", path, code)
		}
		if code, _ := r.do("GET", path+"?token=not-it", nil); code != http.StatusForbidden {
			t.Errorf("GET %s with a wrong token = %d; want 403", path, code)
		}
	}
	if code, out := r.do("GET", "/api/court/replays?token="+owner, nil); code != http.StatusOK || len(out["replays"].([]any)) != 1 {
		t.Errorf("the owner's GET replays = %d %v", code, out)
	}
	// The owner opens the replay's page with the token: the page's own calls carry it
	// as a cookie, and no link it shows needs it.
	if code, _ := r.do("GET", "/court/replays/"+id+"?token="+owner, nil); code != http.StatusOK {
		t.Fatalf("the owner's replay page = %d", code)
	}
	if code, out := r.do("GET", "/api/court/replays/"+id+"/info", nil); code != http.StatusOK {
		t.Errorf("info with the owner's cookie = %d %v", code, out)
	}
}
