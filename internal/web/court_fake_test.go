package web

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// This file is a scripted stand-in for the court game API (court.md section 6 plus the
// extensions court.js documents), so the game's pages can be played in a browser before
// the real engine exists. It serves the court templates and static files the way the
// real server will, under the Content-Security-Policy the game pages get.

// courtCSP is the policy the game pages are served with: scripts from the server only,
// no inline script, style or handler.
const courtCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// hostileText is model output that would run script or template code if a page used it
// as markup.
const hostileText = `<script>alert(1)</script> <img src=x onerror=alert(1)> {{.}}`

// courtMenuView is what court.html takes.
type courtMenuView struct {
	ResultsURL string
}

// courtGameView is what court_game.html takes.
type courtGameView struct {
	GameID     string
	Title      string
	Phase      string
	Turns      []fakeTurn
	ResultsURL string
}

type fakeTurn struct {
	Speaker string `json:"speaker"`
	Role    string `json:"role"`
	Phase   string `json:"phase"`
	Text    string `json:"text"`
	Player  bool   `json:"player"`
}

type fakeEvent struct {
	id   int
	name string
	data string
}

type fakeGame struct {
	id       string
	caseID   string
	phase    string
	awaiting bool
	outcome  string
	verdict  map[string]string
	turns    []fakeTurn
	events   []fakeEvent
	wake     chan struct{} // closed and replaced when an event is added
	updated  time.Time
	busy     bool
}

// fakeCourt is the scripted court. Its fields after mu are guarded by mu.
type fakeCourt struct {
	pages map[string]*template.Template
	quit  chan struct{}
	step  time.Duration // pause between streamed deltas

	mu          sync.Mutex
	cases       []map[string]any
	games       map[string]*fakeGame
	nextGame    int
	nextEvent   int
	dropAfter   int      // close the first event stream after this many events (0: never)
	dropped     bool     // the one drop has happened
	lastIDs     []string // Last-Event-ID headers seen on event streams
	defenseReqs []map[string]any
	conflictFor string // a defense text answered once with 409
	failOnce    bool   // the next opening ends in an error that offers a restart
	restarts    int
}

func fakeCase(id, title string) map[string]any {
	return map[string]any{
		"case_id": id, "title": title, "kind": "criminal",
		"charge":    "Theft of the Tidewater astrolabe from the Harbour Maritime Museum",
		"defendant": map[string]any{"name": "Jonah Reyes", "description": "night-shift security guard, 34, six years at the museum"},
		"summary":   "On the night of 14 March the museum's brass astrolabe vanished from its case between the 22:00 and 02:00 patrols. The alarm log shows the east door opened once at 23:41 with Reyes's badge. Reyes says he lent the badge to a contractor that evening.",
		"evidence": []map[string]any{
			{"id": "E1", "name": "Alarm log", "description": "East door opened at 23:41 with badge 0417 (Reyes)."},
			{"id": "E2", "name": "CCTV still", "description": "A hooded figure near the east door at 23:43; the face is not visible."},
			{"id": "E3", "name": "Contractor sign-in sheet", "description": "A. Vale signed in at 18:10 and never signed out."},
		},
		"witnesses": []map[string]any{
			{"id": "mara-quill", "name": "Mara Quill", "occupation": "museum curator", "called_by": "prosecution", "personality": "precise, protective of the collection", "knows": []string{"the astrolabe was in its case at 21:30"}},
			{"id": "ade-vale", "name": "Ade Vale", "occupation": "electrical contractor", "called_by": "defense", "personality": "nervous, evasive", "knows": []string{"he worked late near the east door"}},
		},
		"defense_goal": "an acquittal on the charge of theft",
	}
}

func newFakeCourt(t *testing.T) *fakeCourt {
	t.Helper()
	pages := map[string]*template.Template{}
	for _, name := range []string{"court.html", "court_game.html"} {
		p, err := template.ParseFS(templateFiles, "templates/"+name)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		pages[name] = p
	}
	hostile := fakeCase("hostile-case", "The "+hostileText+" Affair")
	hostile["summary"] = "Summary " + hostileText
	hostile["witnesses"].([]map[string]any)[0]["name"] = "Eve " + hostileText
	return &fakeCourt{
		pages: pages,
		quit:  make(chan struct{}),
		step:  15 * time.Millisecond,
		cases: []map[string]any{fakeCase("harbour-astrolabe", "The Harbour Astrolabe"), hostile},
		games: map[string]*fakeGame{},
	}
}

func (c *fakeCourt) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /court", c.menuPage)
	mux.HandleFunc("GET /court/games/{id}", c.gamePage)
	static, _ := fs.Sub(staticFiles, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /api/court/cases", c.listCases)
	mux.HandleFunc("POST /api/court/cases", c.saveCase)
	mux.HandleFunc("POST /api/court/cases/generate", c.generate)
	mux.HandleFunc("GET /api/court/models", c.models)
	mux.HandleFunc("GET /api/court/games", c.listGames)
	mux.HandleFunc("POST /api/court/games", c.newGame)
	mux.HandleFunc("GET /api/court/games/{id}", c.getGame)
	mux.HandleFunc("GET /api/court/games/{id}/events", c.events)
	mux.HandleFunc("GET /api/court/games/{id}/transcript", c.transcript)
	mux.HandleFunc("POST /api/court/games/{id}/defense", c.defense)
	mux.HandleFunc("POST /api/court/games/{id}/rest", c.rest)
	mux.HandleFunc("POST /api/court/games/{id}/restart", c.restart)
	mux.HandleFunc("POST /api/court/games/{id}/judge", c.judge)
	return mux
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// readJSON refuses a POST that is not JSON, as the real API does.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		writeJSON(w, http.StatusUnsupportedMediaType, map[string]string{"error": "send application/json"})
		return false
	}
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "bad JSON: " + err.Error()})
		return false
	}
	return true
}

func (c *fakeCourt) render(w http.ResponseWriter, name string, data any) {
	var b strings.Builder
	if err := c.pages[name].ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", courtCSP)
	w.Write([]byte(b.String()))
}

func (c *fakeCourt) menuPage(w http.ResponseWriter, r *http.Request) {
	c.render(w, "court.html", courtMenuView{ResultsURL: "/"})
}

func (c *fakeCourt) gamePage(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	g, ok := c.games[r.PathValue("id")]
	var view courtGameView
	if ok {
		view = courtGameView{GameID: g.id, Phase: g.phase, Turns: append([]fakeTurn(nil), g.turns...), ResultsURL: "/"}
		view.Title, _ = c.caseByID(g.caseID)["title"].(string)
	}
	c.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	c.render(w, "court_game.html", view)
}

func (c *fakeCourt) caseByID(id string) map[string]any {
	for _, k := range c.cases {
		if k["case_id"] == id {
			return k
		}
	}
	return nil
}

func (c *fakeCourt) listCases(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"cases": c.cases})
}

func (c *fakeCourt) saveCase(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Case map[string]any `json:"case"`
	}
	if !readJSON(w, r, &body) {
		return
	}
	id, _ := body.Case["case_id"].(string)
	if id == "" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"errors": []string{"case_id: must not be empty"}})
		return
	}
	c.mu.Lock()
	c.cases = append(c.cases, body.Case)
	c.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]string{"case_id": id})
}

func (c *fakeCourt) generate(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Prior string `json:"prior"`
		Model string `json:"model"`
	}
	if !readJSON(w, r, &body) {
		return
	}
	if strings.Contains(body.Prior, "fail") {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"errors": []string{"witnesses[1].knows: must not be empty", "evidence: " + hostileText}})
		return
	}
	k := fakeCase("generated-lighthouse", "The Lighthouse Keeper's Ledger")
	k["charge"] = "Fraud: altering the lighthouse fuel ledger to sell oil on the side"
	k["prior"] = body.Prior
	writeJSON(w, http.StatusOK, map[string]any{"case": k})
}

func (c *fakeCourt) models(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"models":   []string{"ollama/llama3.1:8b", "ollama/gemma2:9b", "ollama/qwen3:8b"},
		"defaults": map[string]string{"judge": "ollama/llama3.1:8b", "prosecutor": "ollama/llama3.1:8b", "witness": "ollama/gemma2:9b", "analyzer": "ollama/qwen3:8b"},
	})
}

func (c *fakeCourt) listGames(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	games := []map[string]any{}
	for i := c.nextGame; i >= 1; i-- {
		g := c.games["g"+strconv.Itoa(i)]
		if g == nil {
			continue
		}
		var outcome any
		if g.outcome != "" {
			outcome = g.outcome
		}
		title, _ := c.caseByID(g.caseID)["title"].(string)
		games = append(games, map[string]any{"game_id": g.id, "case_id": g.caseID, "title": title, "phase": g.phase, "outcome": outcome, "updated": g.updated.Format(time.RFC3339)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": games})
}

func (c *fakeCourt) newGame(w http.ResponseWriter, r *http.Request) {
	var body struct {
		CaseID string            `json:"case_id"`
		Seed   *int              `json:"seed"`
		Models map[string]string `json:"models"`
	}
	if !readJSON(w, r, &body) {
		return
	}
	c.mu.Lock()
	if c.caseByID(body.CaseID) == nil {
		c.mu.Unlock()
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "no case " + body.CaseID})
		return
	}
	c.nextGame++
	g := &fakeGame{id: "g" + strconv.Itoa(c.nextGame), caseID: body.CaseID, phase: "introduction", wake: make(chan struct{}), updated: time.Now()}
	c.games[g.id] = g
	c.mu.Unlock()
	go c.opening(g)
	writeJSON(w, http.StatusCreated, map[string]string{"game_id": g.id})
}

// emit appends an event to g's log and wakes its streams. c.mu must be held.
func (c *fakeCourt) emit(g *fakeGame, name string, data any) {
	b, _ := json.Marshal(data)
	c.nextEvent++
	g.events = append(g.events, fakeEvent{id: c.nextEvent, name: name, data: string(b)})
	g.updated = time.Now()
	close(g.wake)
	g.wake = make(chan struct{})
}

func (c *fakeCourt) pause() bool {
	select {
	case <-c.quit:
		return false
	case <-time.After(c.step):
		return true
	}
}

// speak streams one model turn: turn, a delta per word, end. With retry the first
// attempt is abandoned with a reset event, as when the engine asks a model again.
func (c *fakeCourt) speak(g *fakeGame, speaker, role, text string, retry bool) bool {
	c.mu.Lock()
	idx := len(g.turns)
	c.emit(g, "turn", map[string]any{"speaker": speaker, "role": role, "phase": g.phase, "index": idx})
	c.mu.Unlock()
	if retry {
		for _, w := range []string{"Order, ", "order, ", "ORDER ORDER ORDER "} {
			if !c.pause() {
				return false
			}
			c.mu.Lock()
			c.emit(g, "delta", map[string]string{"text": w})
			c.mu.Unlock()
		}
		c.mu.Lock()
		c.emit(g, "reset", map[string]any{})
		c.mu.Unlock()
	}
	words := strings.SplitAfter(text, " ")
	for _, w := range words {
		if !c.pause() {
			return false
		}
		c.mu.Lock()
		c.emit(g, "delta", map[string]string{"text": w})
		c.mu.Unlock()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t := fakeTurn{Speaker: speaker, Role: role, Phase: g.phase, Text: text}
	g.turns = append(g.turns, t)
	c.emit(g, "end", map[string]any{"turn": t, "index": idx})
	return true
}

// floor gives the defense the floor.
func (c *fakeCourt) floor(g *fakeGame) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g.awaiting = true
	g.busy = false
	c.emit(g, "awaiting", map[string]any{})
}

func (c *fakeCourt) opening(g *fakeGame) {
	if !c.speak(g, "Judge", "judge", "This court is now in session. The defendant, Jonah Reyes, stands charged with the theft of the Tidewater astrolabe. The prosecution may open.", true) {
		return
	}
	c.mu.Lock()
	fail := c.failOnce
	c.failOnce = false
	if fail {
		c.emit(g, "error", map[string]any{"message": "The prosecutor repeated itself word for word " + hostileText, "restart": true})
	}
	c.mu.Unlock()
	if fail {
		return
	}
	if !c.speak(g, "Prosecutor", "prosecutor", "Your Honour, the alarm log places the defendant's badge at the east door minutes before the astrolabe vanished. The note found in his locker read: "+hostileText, false) {
		return
	}
	c.floor(g)
}

func (c *fakeCourt) getGame(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g, ok := c.games[r.PathValue("id")]
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no such game"})
		return
	}
	var outcome any
	if g.outcome != "" {
		outcome = g.outcome
	}
	writeJSON(w, http.StatusOK, map[string]any{"game_id": g.id, "case_id": g.caseID, "phase": g.phase, "awaiting_defense": g.awaiting, "outcome": outcome, "turns": g.turns})
}

// events streams g's log from after Last-Event-ID, then follows it. The first stream of
// the court is cut after dropAfter events, so the client must reconnect.
func (c *fakeCourt) events(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	g, ok := c.games[r.PathValue("id")]
	c.lastIDs = append(c.lastIDs, r.Header.Get("Last-Event-ID"))
	c.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	last, _ := strconv.Atoi(r.Header.Get("Last-Event-ID"))
	flusher := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprint(w, "retry: 200\n\n")
	flusher.Flush()
	sent := 0
	for {
		c.mu.Lock()
		var todo []fakeEvent
		for _, ev := range g.events {
			if ev.id > last {
				todo = append(todo, ev)
			}
		}
		wake := g.wake
		drop := c.dropAfter > 0 && !c.dropped
		c.mu.Unlock()
		for _, ev := range todo {
			fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", ev.id, ev.name, ev.data)
			last = ev.id
			sent++
			if drop && sent >= c.dropAfter {
				flusher.Flush()
				c.mu.Lock()
				c.dropped = true
				c.mu.Unlock()
				return
			}
		}
		flusher.Flush()
		select {
		case <-wake:
		case <-r.Context().Done():
			return
		case <-c.quit:
			return
		}
	}
}

func (c *fakeCourt) defense(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if !readJSON(w, r, &body) {
		return
	}
	text, _ := body["text"].(string)
	to, _ := body["to"].(string)
	objection, _ := body["objection"].(bool)
	c.mu.Lock()
	g, ok := c.games[r.PathValue("id")]
	if !ok {
		c.mu.Unlock()
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no such game"})
		return
	}
	c.defenseReqs = append(c.defenseReqs, body)
	switch {
	case c.conflictFor != "" && text == c.conflictFor:
		c.conflictFor = ""
		c.mu.Unlock()
		writeJSON(w, http.StatusConflict, map[string]string{"error": "the court is not waiting for the defense"})
		return
	case !g.awaiting:
		c.mu.Unlock()
		writeJSON(w, http.StatusConflict, map[string]string{"error": "the court is not waiting for the defense"})
		return
	case strings.TrimSpace(text) == "" || utf8.RuneCountInString(text) > 4000:
		c.mu.Unlock()
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "text must be 1 to 4,000 characters"})
		return
	}
	g.awaiting = false
	g.busy = true
	idx := len(g.turns)
	t := fakeTurn{Speaker: "Defense", Role: "defense", Phase: g.phase, Text: text, Player: true}
	g.turns = append(g.turns, t)
	c.emit(g, "end", map[string]any{"turn": t, "index": idx})
	phase := g.phase
	c.mu.Unlock()
	w.WriteHeader(http.StatusAccepted)
	go c.answer(g, phase, to, objection)
}

// answer is the court's reply to a defense turn.
func (c *fakeCourt) answer(g *fakeGame, phase, to string, objection bool) {
	switch {
	case phase == "introduction":
		c.mu.Lock()
		g.phase = "interrogation"
		c.mu.Unlock()
		if !c.speak(g, "Judge", "judge", "Thank you, counsel. We move to the examination of witnesses. The defense may proceed.", false) {
			return
		}
	case phase == "closing":
		c.mu.Lock()
		g.phase = "verdict"
		c.mu.Unlock()
		if !c.speak(g, "Judge", "judge", "Having heard both sides, the court finds that the badge alone does not prove who opened the door. The defendant is acquitted.", false) {
			return
		}
		c.mu.Lock()
		g.outcome = "win"
		g.verdict = map[string]string{"outcome": "win", "justification": "The only link between the defendant and the theft is his badge, which the contractor's unsigned exit leaves open to another hand.", "summary": "The prosecution relied on the alarm log; the defense showed that the contractor A. Vale never signed out and admitted working by the east door."}
		c.emit(g, "verdict", map[string]string{"outcome": "win", "justification": g.verdict["justification"]})
		g.busy = false
		c.mu.Unlock()
		return
	case objection:
		if !c.speak(g, "Judge", "judge", "Sustained. The prosecutor will rephrase.", false) {
			return
		}
	case strings.HasPrefix(to, "Witness_"):
		if !c.speak(g, "Witness (Ade Vale)", "witness", "I... yes, I was by the east door that night. I borrowed the guard's badge to fetch a cable, and I gave it back before midnight. I think.", false) {
			return
		}
	default:
		if !c.speak(g, "Prosecutor", "prosecutor", "The defense is fishing, Your Honour. The log is the log.", false) {
			return
		}
	}
	c.floor(g)
}

func (c *fakeCourt) rest(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	g, ok := c.games[r.PathValue("id")]
	if !ok || !g.awaiting || g.phase != "interrogation" {
		c.mu.Unlock()
		writeJSON(w, http.StatusConflict, map[string]string{"error": "the defense cannot rest now"})
		return
	}
	g.awaiting = false
	g.phase = "closing"
	c.mu.Unlock()
	w.WriteHeader(http.StatusAccepted)
	go func() {
		if c.speak(g, "Prosecutor", "prosecutor", "In closing: the defendant's badge opened the door. Nothing else did. Convict him.", false) {
			c.floor(g)
		}
	}()
}

func (c *fakeCourt) restart(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	g, ok := c.games[r.PathValue("id")]
	if !ok {
		c.mu.Unlock()
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no such game"})
		return
	}
	g.turns, g.events, g.phase, g.awaiting, g.outcome = nil, nil, "introduction", false, ""
	c.restarts++
	c.mu.Unlock()
	w.WriteHeader(http.StatusAccepted)
	go c.opening(g)
}

func (c *fakeCourt) transcript(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g, ok := c.games[r.PathValue("id")]
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no such game"})
		return
	}
	var outcome any
	if g.outcome != "" {
		outcome = g.outcome
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"trial_id": g.id, "case_id": g.caseID, "seed": 7, "retries": 0, "completed": g.outcome != "",
		"outcome": outcome, "models": map[string]string{"judge": "ollama/llama3.1:8b"},
		"turns": g.turns, "verdict": g.verdict,
	})
}

func (c *fakeCourt) judge(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if !readJSON(w, r, &body) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"qs": 0.82, "by_dimension": map[string]float64{
		"Behavioral Role Fidelity": 0.88, "Linguistic Formalism and Orthography": 1.0, "Procedural Convergence and Stability": 0.57,
	}})
}

// serveFakeCourt starts the fake on a loopback port; streams end before the server closes.
func serveFakeCourt(t *testing.T) (*fakeCourt, string) {
	t.Helper()
	c := newFakeCourt(t)
	srv := httptest.NewServer(c.handler())
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(c.quit) })
	return c, srv.URL
}

// TestCourtPagesParseWithTheSiteTemplates: the real server parses every page together
// with layout.html; the court pages must survive that and stay full pages of their own.
func TestCourtPagesParseWithTheSiteTemplates(t *testing.T) {
	pages, err := parsePages()
	if err != nil {
		t.Fatalf("parsePages: %v", err)
	}
	for _, name := range []string{"court.html", "court_game.html"} {
		p, ok := pages[name]
		if !ok {
			t.Fatalf("parsePages has no %s", name)
		}
		var b strings.Builder
		if err := p.ExecuteTemplate(&b, name, courtGameView{GameID: "g1"}); err != nil && name == "court_game.html" {
			t.Fatalf("execute %s: %v", name, err)
		}
		if name == "court.html" {
			b.Reset()
			if err := p.ExecuteTemplate(&b, name, nil); err != nil {
				t.Fatalf("execute %s with nil data: %v", name, err)
			}
		}
		if !strings.Contains(b.String(), `/static/court/court.css`) || strings.Contains(b.String(), `/static/style.css`) {
			t.Errorf("%s does not stand on its own court stylesheet", name)
		}
	}
}

// TestCourtGamePageRendersTurnsAsText: the game page shows the turns it is given, before
// any script, with model text escaped; the game id lands only in attributes and URLs.
func TestCourtGamePageRendersTurnsAsText(t *testing.T) {
	c := newFakeCourt(t)
	view := courtGameView{GameID: `g"1<x>`, Title: hostileText, Phase: "interrogation", Turns: []fakeTurn{
		{Speaker: "Judge", Role: "judge", Phase: "introduction", Text: "Order."},
		{Speaker: "Witness (" + hostileText + ")", Role: "witness", Phase: "interrogation", Text: hostileText},
		{Speaker: "Defense", Role: "defense", Phase: "interrogation", Text: "No further questions.", Player: true},
	}}
	rec := httptest.NewRecorder()
	c.render(rec, "court_game.html", view)
	body := rec.Body.String()
	if rec.Code != 200 {
		t.Fatalf("render court_game.html: %d %s", rec.Code, body)
	}
	if n := strings.Count(body, `<li class="turn `); n != 3 {
		t.Errorf("page has %d turns; want 3", n)
	}
	for _, bad := range []string{"<script>alert", "<img src=x", `g"1<x>`} {
		if strings.Contains(body, bad) {
			t.Errorf("page contains %q unescaped", bad)
		}
	}
	if strings.Count(body, "<script") != 1 {
		t.Errorf("page has %d script tags; want only court.js", strings.Count(body, "<script"))
	}
	for _, want := range []string{`&lt;script&gt;alert(1)&lt;/script&gt;`, `{{.}}`, `data-game-id="g&#34;1&lt;x&gt;"`, `class="turn role-defense player"`, `/portraits/witness.svg`, `/api/court/games/g%221%3cx%3e/transcript`} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(body, "style=") || strings.Contains(body, " onclick") {
		t.Error("page has an inline style or handler, which the CSP refuses")
	}
	if got := rec.Header().Get("Content-Security-Policy"); got != courtCSP {
		t.Errorf("CSP = %q", got)
	}
}
