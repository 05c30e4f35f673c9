package web

// The LLM Court game in the web UI: the game pages (GET /court, GET /court/games/{id})
// and the game API under /api/court (court.md section 6, with the extensions court.js
// documents at its top). The engine is court.Games; this file keeps the games in play in
// memory, runs each one's court in a goroutine the server owns, and answers the API. The
// event stream is in court_sse.go.

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// courtCSP is the policy the game pages are served with: scripts from the server only,
// no inline script, style or handler; data: images for the avatars court.js draws.
const courtCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// noModelHint is what the game says when it has no model to play the court with.
const noModelHint = "The court needs a model to play the judge, the prosecutor and the witnesses. " +
	"Start the server with a local model through Ollama (arbiter serve --court-model ollama/llama3.1:8b) " +
	"or with a key (OPENAI_API_KEY=… arbiter serve --court-model openai/gpt-4.1-mini)."

// GenerateCaseFunc drafts a case record from a prior with model (empty: the server's
// default). problems lists why a draft is not a valid case; err is a failure to ask.
type GenerateCaseFunc func(ctx context.Context, prior string, model llm.ModelName) (c *court.Case, problems []string, err error)

// JudgeFunc scores a game's transcript with the RPA-Check checklist judge.
type JudgeFunc func(ctx context.Context, t *court.Transcript, model llm.ModelName) (*check.Scores, error)

// gameID is the shape of the ids the server makes (and accepts in a URL).
var gameID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// courtState is the server's side of the game: the games in play, and the context their
// courts speak under, cancelled at Shutdown.
type courtState struct {
	games     *court.Games
	models    court.Models
	names     []string
	offers    map[string][]llm.ModelName
	guard     *guardrails
	owner     string
	public    bool
	drafts    *drafts
	generate  GenerateCaseFunc
	judge     JudgeFunc
	reachable func(ctx context.Context) error
	ollama    string
	// boot tells this process's event ids from those of an earlier one (court_sse.go).
	boot      string
	heartbeat time.Duration
	// followEvery is how often a stream of a game of two reads the store for the
	// other person's moves (follow).
	followEvery time.Duration
	log         *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu   sync.Mutex
	live map[string]*liveGame
	// checked and unreachable keep the last reachability check for a while, so the
	// menu does not wait on a model server at every load.
	checked     time.Time
	unreachable error
}

// liveGame is a game in play; its fields are guarded by courtState.mu. A finished game
// leaves the map (it is read from the store when asked for again), and so does one left
// idle for idleEvict when room is needed.
type liveGame struct {
	g    *court.Game
	used time.Time
	// running: a goroutine is advancing the game; again: advance once more when it
	// returns (a move came while it was finishing).
	running, again bool
}

func newCourtState(opt Options, log *slog.Logger) *courtState {
	ctx, cancel := context.WithCancel(context.Background())
	c := &courtState{games: opt.Court, models: opt.CourtModels, names: opt.CourtModelNames, offers: opt.CourtOffers,
		guard: newGuardrails(opt.Limits, opt.Store), owner: opt.OwnerToken, public: opt.Public, drafts: newDrafts(maxDrafts),
		generate: opt.GenerateCase, judge: opt.Judge, reachable: opt.CourtReachable, ollama: opt.OllamaURL, boot: randomID(6), heartbeat: 15 * time.Second,
		followEvery: 500 * time.Millisecond, log: log, ctx: ctx, cancel: cancel, live: map[string]*liveGame{}}
	if c.judge == nil && c.games != nil {
		c.judge = c.checklistJudge
	}
	if c.games != nil && c.games.Gate == nil {
		c.games.Gate = c.guard.gate
	}
	return c
}

// stop ends every court's speech and every event stream, and waits for the courts.
func (c *courtState) stop() {
	// Cancelled under mu, so that no court starts after it (advanceLocked checks).
	c.mu.Lock()
	c.cancel()
	c.mu.Unlock()
	c.wg.Wait()
}

// randomID is n random bytes, URL-safe.
func randomID(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// game returns the game in play with id, loading it from the store on first sight
// (after a restart of the server) and letting its court go on; nil when there is none.
// A game of two people is brought up to the store first (follow): the other person may
// play it from a terminal on the same store.
func (c *courtState) game(ctx context.Context, id string) (*court.Game, error) {
	if !gameID.MatchString(id) {
		return nil, nil
	}
	c.mu.Lock()
	if lg, ok := c.live[id]; ok {
		lg.used = time.Now()
		c.mu.Unlock()
		c.follow(ctx, lg.g)
		return lg.g, nil
	}
	defer c.mu.Unlock()
	g, err := c.games.Load(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if g.Done() {
		// A finished game is served from its stored turns and not kept.
		return g, nil
	}
	c.live[id] = &liveGame{g: g, used: time.Now()}
	if !g.SpeakingElsewhere() {
		// (A game of two whose court another process lets speak is followed, not spoken.)
		c.advanceLocked(id)
	}
	return g, nil
}

// follow brings a game of two people up to the store (court.Game.Follow): the moves
// the other person made from another process (court play --join), and the court's
// answers, are logged as if spoken here and stream to the page. A game left mid-turn
// there (court.Game.Stalled: that process stopped) goes on here.
func (c *courtState) follow(ctx context.Context, g *court.Game) {
	if !g.TwoPlayers() {
		return
	}
	if _, err := g.Follow(ctx); err != nil {
		if ctx.Err() == nil {
			c.log.Warn("follow a game of two in the store", "game", g.ID, "err", err)
		}
		return
	}
	if g.Stalled() {
		c.mu.Lock()
		if lg := c.live[g.ID]; lg != nil && lg.g == g {
			c.advanceLocked(g.ID)
		}
		c.mu.Unlock()
	}
}

// idleEvict is how long a game waits for its player before it may leave memory to make
// room for another (it is kept in the store, and loads again when its player returns).
const idleEvict = 10 * time.Minute

// roomLocked reports whether another game may go live, evicting idle ones if need be.
func (c *courtState) roomLocked() bool {
	if c.guard.lim.MaxGames < 0 || len(c.live) < c.guard.lim.MaxGames {
		return true
	}
	now := time.Now()
	for id, lg := range c.live {
		if !lg.running && now.Sub(lg.used) >= idleEvict {
			delete(c.live, id)
		}
	}
	return len(c.live) < c.guard.lim.MaxGames
}

// advance lets game id's court speak in the background until the defense has the floor.
func (c *courtState) advance(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.advanceLocked(id)
}

func (c *courtState) advanceLocked(id string) {
	lg := c.live[id]
	if lg.running {
		lg.again = true
		return
	}
	if c.ctx.Err() != nil {
		return
	}
	lg.running = true
	c.wg.Go(func() {
		for {
			err := lg.g.Advance(c.ctx)
			c.mu.Lock()
			if !lg.again || c.ctx.Err() != nil {
				lg.running = false
				lg.used = time.Now()
				if lg.g.Done() && c.live[id] == lg {
					// Over: its streams still hold it; new requests read the store.
					delete(c.live, id)
				}
				c.mu.Unlock()
				// A failure stays with the game too (its view's "error").
				if err != nil && c.ctx.Err() == nil {
					c.log.Warn("court game stopped", "game", id, "err", err)
				}
				return
			}
			lg.again = false
			c.mu.Unlock()
		}
	})
}

// ---- pages ------------------------------------------------------------------------

type courtMenuView struct {
	ResultsURL string
	// NoModel, when set, says why the game cannot be played and how to fix it.
	NoModel string
}

type courtGameView struct {
	GameID string
	// ReplayID, instead of GameID, plays the stored simulated trial of that id.
	ReplayID   string
	Title      string
	Phase      string
	Turns      []courtTurnView
	ResultsURL string
	NoModel    string
}

type courtTurnView struct {
	Speaker, Role, Phase, Text string
	Player                     bool
}

// renderCourt sends a game page, a full page of its own, under courtCSP.
func (s *Server) renderCourt(w http.ResponseWriter, r *http.Request, status int, page string, data any) {
	var buf bytes.Buffer
	if err := s.pages[page].ExecuteTemplate(&buf, page, data); err != nil {
		s.log.Error("render page", "page", page, "path", r.URL.Path, "err", err)
		http.Error(w, "internal error: the page could not be rendered", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", courtCSP)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// noModel says why the game cannot be played now, or "".
func (c *courtState) noModel(ctx context.Context) string {
	if c.games == nil || len(c.names) == 0 && c.models.Judge == "" {
		return noModelHint
	}
	if c.reachable == nil {
		return ""
	}
	c.mu.Lock()
	fresh := time.Since(c.checked) < 30*time.Second
	err := c.unreachable
	c.mu.Unlock()
	if !fresh {
		rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		err = c.reachable(rctx)
		cancel()
		c.mu.Lock()
		c.checked, c.unreachable = time.Now(), err
		c.mu.Unlock()
	}
	if err != nil {
		return "No model answers: " + err.Error() + ". " + noModelHint
	}
	return ""
}

func (s *Server) courtMenu(w http.ResponseWriter, r *http.Request) {
	setOwnerCookie(w, r, s.court.owner)
	s.renderCourt(w, r, http.StatusOK, "court.html", courtMenuView{ResultsURL: "/", NoModel: s.court.noModel(r.Context())})
}

func (s *Server) courtGamePage(w http.ResponseWriter, r *http.Request) {
	if s.court.games == nil {
		s.fail(w, r, http.StatusServiceUnavailable, noModelHint, nil)
		return
	}
	id := r.PathValue("id")
	a, err := s.court.access(r.Context(), r, id)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "", err)
		return
	}
	if a == "" {
		s.fail(w, r, http.StatusForbidden, "This game is not yours: open it from the browser that started it, or with the link its player shared (…?token=…).", nil)
		return
	}
	if tok := r.URL.Query().Get("token"); tok != "" {
		setGameCookie(w, r, id, tok)
	}
	g, err := s.court.game(r.Context(), id)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "", err)
		return
	}
	if g == nil {
		s.fail(w, r, http.StatusNotFound, "There is no game "+r.PathValue("id")+": start one from the menu at /court.", nil)
		return
	}
	v := g.View()
	view := courtGameView{GameID: v.GameID, Title: v.Title, Phase: string(v.Phase), ResultsURL: "/"}
	for _, t := range v.Turns {
		view.Turns = append(view.Turns, courtTurnView{Speaker: t.Speaker, Role: string(t.Role), Phase: string(t.Phase), Text: t.Text, Player: t.Player})
	}
	s.renderCourt(w, r, http.StatusOK, "court_game.html", view)
}

// ---- API --------------------------------------------------------------------------

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func apiError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// readJSON decodes a request body into v, answering 400 when it is not JSON of that
// shape (the guard has checked the Content-Type and capped the size).
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(r.Body)
	// An empty body stands for {}: rest and restart need no fields.
	err := dec.Decode(v)
	if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
		apiError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is over %d KiB", mbe.Limit>>10))
		return false
	}
	if err != nil && !errors.Is(err, io.EOF) {
		apiError(w, http.StatusBadRequest, "the body is not the JSON this endpoint takes: "+err.Error())
		return false
	}
	return true
}

// withGame runs h on the game the request names: 503 without a court, 403 without a
// token that gives the access need (store.GamePlay or store.GameWatch; a play token
// also reads), 404 for none. A request without the token loads nothing.
func (s *Server) withGame(need string, h func(w http.ResponseWriter, r *http.Request, g *court.Game)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.court.games == nil {
			apiError(w, http.StatusServiceUnavailable, noModelHint)
			return
		}
		a, err := s.court.access(r.Context(), r, r.PathValue("id"))
		if err != nil {
			s.log.Error("check a game token", "game", r.PathValue("id"), "err", err)
			apiError(w, http.StatusInternalServerError, "the game could not be read from the store; the server log has the details")
			return
		}
		switch {
		case a == "":
			apiError(w, http.StatusForbidden, "this game is not yours: send its token (the game's cookie, ?token= or Authorization: Bearer)")
			return
		case need == store.GamePlay && a != store.GamePlay && a != store.GameInvite:
			apiError(w, http.StatusForbidden, "a watcher's token reads the game but cannot move in it")
			return
		}
		if need == store.GamePlay {
			// Every move asks the models: it counts against the client's rate.
			if lerr := s.court.guard.ask(r.Context(), r); lerr != nil {
				refuseLimit(w, lerr)
				return
			}
		}
		g, err := s.court.game(r.Context(), r.PathValue("id"))
		if err != nil {
			s.log.Error("load game", "game", r.PathValue("id"), "err", err)
			apiError(w, http.StatusInternalServerError, "the game could not be read from the store; the server log has the details")
			return
		}
		if g == nil {
			apiError(w, http.StatusNotFound, "no game "+r.PathValue("id"))
			return
		}
		h(w, r, g)
	}
}

// needCourt answers 503 when the server has no court.
func (s *Server) needCourt(w http.ResponseWriter) bool {
	if s.court.games == nil {
		apiError(w, http.StatusServiceUnavailable, noModelHint)
		return false
	}
	return true
}

// findCase is the case id: a bundled one, or one stored; nil when there is none.
func (s *Server) findCase(ctx context.Context, id string) (*court.Case, error) {
	builtin, err := court.Builtin()
	if err != nil {
		return nil, err
	}
	for _, c := range builtin {
		if c.ID == id {
			return c, nil
		}
	}
	sc, err := s.st.CourtCase(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	cs, err := court.ParseCases(sc.Record, "stored case "+sc.ID+".json")
	if err != nil {
		return nil, fmt.Errorf("stored case %s: %w", id, err)
	}
	return cs[0], nil
}

// casesPage is how many stored cases one GET /api/court/cases answers with: with at most
// maxCaseBytes each, the answer stays a few MiB whatever others stored.
const casesPage = 8

// apiCases lists the public cases: the bundled ones on the first page, then the stored
// ones newest first, casesPage at a time from ?offset=; "next" is the offset of the
// next page, or null.
func (s *Server) apiCases(w http.ResponseWriter, r *http.Request) {
	offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	offset = max(offset, 0)
	out := []court.PublicCase{}
	if offset == 0 {
		builtin, err := court.Builtin()
		if err != nil {
			s.log.Error("list court cases", "err", err)
			apiError(w, http.StatusInternalServerError, "the cases could not be read; the server log has the details")
			return
		}
		for _, c := range builtin {
			out = append(out, c.Public())
		}
	}
	ids, total, err := s.st.CourtCaseIDs(r.Context(), offset, casesPage)
	if err != nil {
		s.log.Error("list court cases", "err", err)
		apiError(w, http.StatusInternalServerError, "the cases could not be read; the server log has the details")
		return
	}
	for _, id := range ids {
		c, err := s.findCase(r.Context(), id)
		if err != nil || c == nil || c.ID != id {
			// A stored case under a bundled id (kept from before cases were create-only)
			// is not listed: the bundled one is the case of that id.
			continue
		}
		out = append(out, c.Public())
	}
	var next any
	if offset+casesPage < total {
		next = offset + casesPage
	}
	writeJSON(w, http.StatusOK, map[string]any{"cases": out, "stored": total, "next": next})
}

// validationErrors lists err's problems, one string each.
func validationErrors(err error) []string {
	var ve *court.ValidationError
	if errors.As(err, &ve) {
		out := make([]string, 0, len(ve.Errs))
		for _, fe := range ve.Errs {
			out = append(out, fe.Error())
		}
		if ve.More > 0 {
			out = append(out, fmt.Sprintf("… and %d more", ve.More))
		}
		return out
	}
	return []string{err.Error()}
}

// maxCaseBytes is the largest case record the server stores.
const maxCaseBytes = 256 << 10

func (s *Server) apiSaveCase(w http.ResponseWriter, r *http.Request) {
	if s.court.public && !isOwner(r, s.court.owner) {
		apiError(w, http.StatusForbidden, "saving cases on this server needs its owner's token (printed by arbiter serve at start)")
		return
	}
	var body struct {
		Case  json.RawMessage `json:"case"`
		Draft string          `json:"draft"`
		Prior string          `json:"prior"`
		Model string          `json:"model"`
	}
	if !readJSON(w, r, &body) {
		return
	}
	rec := store.CourtCase{Origin: store.CaseSaved, Prior: body.Prior, Model: body.Model}
	var c *court.Case
	switch {
	case body.Draft != "":
		d, ok := s.court.drafts.get(body.Draft)
		if !ok {
			writeJSON(w, http.StatusNotFound, map[string]any{"errors": []string{"draft: this drafted case is no longer kept; generate it again"}})
			return
		}
		c, rec.Origin, rec.Prior, rec.Model = d.c, store.CaseGenerated, d.prior, string(d.model)
	case len(body.Case) > maxCaseBytes:
		writeJSON(w, http.StatusRequestEntityTooLarge, map[string]any{"errors": []string{fmt.Sprintf("case: the record is over %d KiB", maxCaseBytes>>10)}})
		return
	case len(bytes.TrimSpace(body.Case)) == 0 || string(bytes.TrimSpace(body.Case)) == "null":
		writeJSON(w, http.StatusBadRequest, map[string]any{"errors": []string{"case: send the case record as {\"case\": {…}}"}})
		return
	default:
		cs, err := court.ParseCases(body.Case, "case")
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]any{"errors": validationErrors(err)})
			return
		}
		c = cs[0]
	}
	if existing, err := s.findCase(r.Context(), c.ID); err != nil || existing != nil {
		if err != nil {
			s.log.Error("save court case", "case", c.ID, "err", err)
			apiError(w, http.StatusInternalServerError, "the case could not be saved; the server log has the details")
			return
		}
		writeJSON(w, http.StatusConflict, map[string]any{"errors": []string{fmt.Sprintf("case_id: %q is taken; give the case another id", c.ID)}})
		return
	}
	b, err := json.Marshal(c)
	if err == nil {
		rec.ID, rec.Record = c.ID, b
		err = s.st.AddCourtCase(r.Context(), rec)
	}
	if errors.Is(err, store.ErrExists) {
		writeJSON(w, http.StatusConflict, map[string]any{"errors": []string{fmt.Sprintf("case_id: %q is taken; give the case another id", c.ID)}})
		return
	}
	if err != nil {
		s.log.Error("save court case", "case", c.ID, "err", err)
		apiError(w, http.StatusInternalServerError, "the case could not be saved; the server log has the details")
		return
	}
	if body.Draft != "" {
		s.court.drafts.drop(body.Draft)
	}
	writeJSON(w, http.StatusCreated, map[string]string{"case_id": c.ID})
}

func (s *Server) apiGenerateCase(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Prior string `json:"prior"`
		Model string `json:"model"`
	}
	if !readJSON(w, r, &body) {
		return
	}
	if s.court.generate == nil {
		writeJSON(w, http.StatusNotImplemented, map[string]any{"errors": []string{"case generation needs a model: " + noModelHint}})
		return
	}
	if strings.TrimSpace(body.Prior) == "" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"errors": []string{"prior: say what the case should be about"}})
		return
	}
	if n := utf8.RuneCountInString(body.Prior); n > court.MaxMoveText {
		writeJSON(w, http.StatusBadRequest, map[string]any{"errors": []string{fmt.Sprintf("prior: %d characters; at most %d", n, court.MaxMoveText)}})
		return
	}
	model, err := s.court.offered("judge", body.Model)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"errors": []string{"model: " + err.Error()}})
		return
	}
	if lerr := s.court.guard.ask(r.Context(), r); lerr != nil {
		refuseLimit(w, lerr)
		return
	}
	c, problems, err := s.court.generate(r.Context(), body.Prior, model)
	switch {
	case err != nil:
		s.log.Warn("generate a court case", "err", err)
		writeJSON(w, http.StatusBadGateway, map[string]any{"errors": []string{"the model could not draft a case: " + err.Error()}})
	case len(problems) > 0 || c == nil:
		if len(problems) == 0 {
			problems = []string{"the model gave no case"}
		}
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"errors": problems})
	default:
		// The player sees the public case; the server keeps the record to save.
		id := s.court.drafts.put(draft{c: c, prior: body.Prior, model: model})
		writeJSON(w, http.StatusOK, map[string]any{"case": c.Public(), "draft": id})
	}
}

var courtRoles = []string{"judge", "prosecutor", "witness", "analyzer"}

// offersOf are the models a player may pick for role: its offers, or its default.
func (c *courtState) offersOf(role string) []llm.ModelName {
	if o := c.offers[role]; len(o) > 0 {
		return o
	}
	var def llm.ModelName
	switch role {
	case "judge":
		def = c.models.Judge
	case "prosecutor":
		def = c.models.Prosecutor
	case "witness":
		def = c.models.Witness
	case "analyzer":
		def = c.models.Analyzer
	case "defense":
		// The model defense of a prosecution game or a watched trial: the server's
		// defense model, else its court model (the prosecutor's).
		def = cmp.Or(c.models.Defense, c.models.Prosecutor)
	}
	if def == "" {
		return nil
	}
	return []llm.ModelName{def}
}

// offered is the model a request names for role ("": the role's default), when the
// owner offered it for that role.
func (c *courtState) offered(role, name string) (llm.ModelName, error) {
	offers := c.offersOf(role)
	if name == "" {
		if len(offers) == 0 {
			return "", fmt.Errorf("no model for the %s: start the server with --court-model", role)
		}
		return offers[0], nil
	}
	if !slices.Contains(offers, llm.ModelName(name)) {
		names := make([]string, len(offers))
		for i, o := range offers {
			names[i] = string(o)
		}
		return "", fmt.Errorf("%q is not offered for the %s on this server (it offers %s)", name, role, strings.Join(names, ", "))
	}
	return llm.ModelName(name), nil
}

func (s *Server) apiModels(w http.ResponseWriter, r *http.Request) {
	offers := map[string][]llm.ModelName{}
	defaults := map[string]string{}
	var all []string
	// The defense is offered too: the model counsel of a prosecution game or a watched
	// trial.
	for _, role := range append(slices.Clone(courtRoles), "defense") {
		o := s.court.offersOf(role)
		offers[role] = append([]llm.ModelName{}, o...)
		if len(o) > 0 {
			defaults[role] = string(o[0])
		}
		for _, m := range o {
			if !slices.Contains(all, string(m)) {
				all = append(all, string(m))
			}
		}
	}
	if all == nil {
		all = []string{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": all, "offers": offers, "defaults": defaults})
}

// apiListGames lists the games whose tokens the caller holds (as cookies or ?token=).
func (s *Server) apiListGames(w http.ResponseWriter, r *http.Request) {
	if !s.needCourt(w) {
		return
	}
	gs, err := s.st.CourtGamesOf(r.Context(), heldTokens(r))
	if err != nil {
		s.log.Error("list court games", "err", err)
		apiError(w, http.StatusInternalServerError, "the games could not be read; the server log has the details")
		return
	}
	out := []map[string]any{}
	for _, g := range gs {
		var outcome any
		if g.Outcome != "" {
			outcome = g.Outcome
		}
		out = append(out, map[string]any{"game_id": g.ID, "case_id": g.CaseID, "title": g.Title, "phase": g.Phase,
			"outcome": outcome, "turns": g.Turns, "updated": g.Updated.UTC().Format(time.RFC3339)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": out})
}

// roleModels fills the roles a new game names from the server's defaults; a role left
// with no model, or named a model not offered for it, is an error naming it.
func (c *courtState) roleModels(chosen map[string]string, defense bool) (court.Models, error) {
	var m court.Models
	for role := range chosen {
		if !slices.Contains(courtRoles, role) && (!defense || role != "defense") {
			return m, fmt.Errorf("models.%s: not a role (want judge, prosecutor, witness or analyzer%s)", role, map[bool]string{true: " or defense"}[defense])
		}
	}
	if defense {
		n, err := c.offered("defense", chosen["defense"])
		if err != nil {
			return m, fmt.Errorf("models.defense: %w", err)
		}
		m.Defense = n
	}
	for _, r := range []struct {
		role string
		dst  *llm.ModelName
	}{{"judge", &m.Judge}, {"prosecutor", &m.Prosecutor}, {"witness", &m.Witness}, {"analyzer", &m.Analyzer}} {
		n, err := c.offered(r.role, chosen[r.role])
		if err != nil {
			return m, fmt.Errorf("models.%s: %w", r.role, err)
		}
		*r.dst = n
	}
	return m, nil
}

// newGameBody is what POST /api/court/games (and POST /api/court/watch) take.
type newGameBody struct {
	CaseID string            `json:"case_id"`
	Seed   *int64            `json:"seed"`
	Models map[string]string `json:"models"`
	Player court.PlayerInfo  `json:"player"`
	// Side is the counsel the player plays: defense (the default) or prosecution.
	Side string `json:"side"`
	// TwoPlayers: the other counsel is a second person, invited by a token.
	TwoPlayers bool `json:"two_players"`
}

func (s *Server) apiNewGame(w http.ResponseWriter, r *http.Request) {
	if !s.needCourt(w) {
		return
	}
	var body newGameBody
	if !readJSON(w, r, &body) {
		return
	}
	s.startGame(w, r, body, false)
}

// startGame starts a game, or with watch a watched trial (court_seats.go).
func (s *Server) startGame(w http.ResponseWriter, r *http.Request, body newGameBody, watch bool) {
	side, err := court.ParseSide(body.Side)
	if err != nil || (watch && body.Side != "") {
		apiError(w, http.StatusBadRequest, "side: want defense or prosecution (a watched trial has no side)")
		return
	}
	if body.TwoPlayers && watch {
		apiError(w, http.StatusBadRequest, "two_players: a watched trial has no player")
		return
	}
	models, err := s.court.roleModels(body.Models, watch || (side == court.SideProsecution && !body.TwoPlayers))
	if err != nil {
		apiError(w, http.StatusBadRequest, err.Error())
		return
	}
	if utf8.RuneCountInString(body.Player.Name) > 80 || len(body.Player.Avatar) > 40 {
		apiError(w, http.StatusBadRequest, "player: the name is at most 80 characters and the avatar 40")
		return
	}
	if lerr := s.court.guard.newGame(r); lerr != nil {
		refuseLimit(w, lerr)
		return
	}
	if lerr := s.court.guard.ask(r.Context(), r); lerr != nil {
		refuseLimit(w, lerr)
		return
	}
	c, err := s.findCase(r.Context(), body.CaseID)
	if err != nil {
		s.log.Error("find a court case", "case", body.CaseID, "err", err)
		apiError(w, http.StatusInternalServerError, "the case could not be read; the server log has the details")
		return
	}
	if c == nil {
		apiError(w, http.StatusBadRequest, fmt.Sprintf("case_id %q: no such case (GET /api/court/cases lists them)", body.CaseID))
		return
	}
	s.court.mu.Lock()
	room := s.court.roomLocked()
	s.court.mu.Unlock()
	if !room {
		refuseLimit(w, s.court.guard.full())
		return
	}
	seed := int64(0)
	if body.Seed != nil {
		seed = *body.Seed
	} else {
		n, _ := rand.Int(rand.Reader, big.NewInt(1_000_000))
		seed = n.Int64()
	}
	id := randomID(12)
	play, watchTok, invite := randomID(16), randomID(16), ""
	toks := []struct{ tok, access string }{{play, store.GamePlay}, {watchTok, store.GameWatch}}
	if body.TwoPlayers {
		invite = randomID(16)
		toks = append(toks, struct{ tok, access string }{invite, store.GameInvite})
	}
	for _, t := range toks {
		if err := s.st.PutCourtGameToken(r.Context(), id, tokenHash(t.tok), t.access); err != nil {
			s.log.Error("new court game", "err", err)
			apiError(w, http.StatusInternalServerError, "the game could not be started; the server log has the details")
			return
		}
	}
	g, err := s.court.games.New(r.Context(), id, court.GameState{Case: c, Seed: seed, Models: models, Player: body.Player, Side: side, Watch: watch, TwoPlayers: body.TwoPlayers})
	if err != nil {
		s.log.Error("new court game", "err", err)
		apiError(w, http.StatusInternalServerError, "the game could not be started; the server log has the details")
		return
	}
	s.court.mu.Lock()
	if !s.court.roomLocked() {
		// Others took the room while this game was being made: it stays stored, unplayed.
		s.court.mu.Unlock()
		refuseLimit(w, s.court.guard.full())
		return
	}
	s.court.live[id] = &liveGame{g: g, used: time.Now()}
	s.court.advanceLocked(id)
	s.court.mu.Unlock()
	setGameCookie(w, r, id, play)
	out := map[string]string{"game_id": id, "token": play, "watch_token": watchTok}
	if invite != "" {
		out["invite_token"], out["invite_side"] = invite, string(side.Other())
		out["invite_url"] = "/court/games/" + id + "?token=" + invite
	}
	writeJSON(w, http.StatusCreated, out)
}

// gameJSON is the game as GET shows it: the spec's fields, the engine's extras, and
// the public case so a client needs no second request.
type gameJSON struct {
	court.GameView
	Case court.PublicCase `json:"case"`
}

func (s *Server) apiGame(w http.ResponseWriter, r *http.Request, g *court.Game) {
	writeJSON(w, http.StatusOK, gameJSON{GameView: g.View(), Case: g.Case().Public()})
}

// errNoRestart: a restart was asked for a trial that did not fail.
var errNoRestart = errors.New("no restart is offered: the trial has not failed")

// moveStatus is the HTTP status of an error from Submit or Restart.
func moveStatus(err error) int {
	switch {
	case errors.Is(err, court.ErrBusy), errors.Is(err, court.ErrNotAwaiting), errors.Is(err, court.ErrOver), errors.Is(err, errNoRestart),
		errors.Is(err, court.ErrNotYourFloor):
		return http.StatusConflict
	}
	return http.StatusBadRequest
}

// moveMessage words a refused move for the player.
func moveMessage(err error) string {
	switch {
	case errors.Is(err, court.ErrBusy):
		return "the court is speaking: wait until the defense has the floor"
	case errors.Is(err, court.ErrNotAwaiting):
		return "the court is not waiting for the defense"
	case errors.Is(err, court.ErrOver):
		return "the trial is over"
	}
	return err.Error()
}

// defenseBody is a defense move as POST /api/court/games/{id}/defense takes it: court.md
// section 6's text, to and present, and this server's extras: kind (one of the
// engine's move kinds: speak, object, present, press, hold; derived from the other
// fields when absent), objection (kind object), press (a statement's number, kind
// press) and hold ("Hold it!" while the court speaks, kind hold: no text).
type defenseBody struct {
	Kind      string `json:"kind"`
	Text      string `json:"text"`
	To        string `json:"to"`
	Present   string `json:"present"`
	Press     int    `json:"press"`
	Objection bool   `json:"objection"`
	Hold      bool   `json:"hold"`
}

// move is the engine's move for the body, or a 400 message.
func (b defenseBody) move(c *court.Case) (court.Move, string) {
	kind := court.MoveKind(b.Kind)
	switch {
	case kind != "":
	case b.Hold:
		kind = court.MoveHold
	case b.Present != "":
		kind = court.MovePresent
	case b.Press != 0:
		kind = court.MovePress
	case b.Objection:
		kind = court.MoveObject
	default:
		kind = court.MoveSpeak
	}
	m := court.Move{Kind: kind, Text: b.Text, To: court.Speaker(b.To), Evidence: b.Present, Statement: b.Press}
	switch kind {
	case court.MoveHold:
		return m, ""
	case court.MoveSpeak, court.MoveObject, court.MovePress:
	case court.MovePresent:
		if _, ok := c.Item(b.Present); !ok {
			ids := make([]string, len(c.Evidence))
			for i, e := range c.Evidence {
				ids[i] = e.ID
			}
			return m, fmt.Sprintf("present: %q is not an item of the court record (%s)", b.Present, strings.Join(ids, ", "))
		}
	default:
		return m, fmt.Sprintf("kind: %q is not a move (want speak, object, present, press or hold)", b.Kind)
	}
	text := strings.TrimSpace(b.Text)
	if text == "" && kind != court.MovePress {
		return m, "text: the statement is empty"
	}
	if n := utf8.RuneCountInString(text); n > court.MaxMoveText {
		return m, fmt.Sprintf("text: %d characters; at most %d", n, court.MaxMoveText)
	}
	return m, ""
}

func (s *Server) apiDefense(w http.ResponseWriter, r *http.Request, g *court.Game) {
	if !s.onSide(w, r, g, court.SideDefense) {
		return
	}
	s.apiMove(w, r, g, court.SideDefense)
}

// apiMove is the player's move, on the floor of the side they play.
func (s *Server) apiMove(w http.ResponseWriter, r *http.Request, g *court.Game, side court.Side) {
	var body defenseBody
	if !readJSON(w, r, &body) {
		return
	}
	m, bad := body.move(g.Case())
	if bad != "" {
		apiError(w, http.StatusBadRequest, bad)
		return
	}
	if m.Kind == court.MoveHold {
		if err := g.HoldFor(r.Context(), side); err != nil {
			msg := "\"Hold it!\" is called while the court speaks in the interrogation"
			if errors.Is(err, court.ErrOver) {
				msg = moveMessage(err)
			}
			apiError(w, http.StatusConflict, msg)
			return
		}
		writeJSON(w, http.StatusAccepted, map[string]any{})
		return
	}
	if err := whenSettled(r.Context(), g, func() error { return g.SubmitFor(side, m) }); err != nil {
		apiError(w, moveStatus(err), moveMessage(err))
		return
	}
	s.court.advance(g.ID)
	writeJSON(w, http.StatusAccepted, map[string]any{})
}

// settleWait bounds how long a move waits for a court that has given the floor to
// finish its turn's bookkeeping.
const settleWait = 5 * time.Second

// whenSettled runs move, and once more each time the game changes while it is refused
// with ErrBusy though the court has already given the defense the floor (or offered a
// restart): the engine sends that event before its Advance returns, and a quick client
// must not be told to wait for a floor it was just given.
func whenSettled(ctx context.Context, g *court.Game, move func() error) error {
	timeout := time.NewTimer(settleWait)
	defer timeout.Stop()
	for {
		err := move()
		if !errors.Is(err, court.ErrBusy) {
			return err
		}
		all, changed := g.Events(0)
		if len(all) == 0 {
			return err
		}
		last := all[len(all)-1]
		if last.Kind != court.EventAwaiting && !(last.Kind == court.EventError && last.Restart) {
			return err
		}
		select {
		case <-changed:
		case <-timeout.C:
			return err
		case <-ctx.Done():
			return err
		}
	}
}

func (s *Server) apiRest(w http.ResponseWriter, r *http.Request, g *court.Game) {
	side := g.View().Side
	if v := g.View(); v.TwoPlayers {
		mine, ok := s.tokenSide(w, r, v)
		if !ok || !s.onSide(w, r, g, mine) {
			return
		}
		side = mine
	}
	if v := g.View(); v.Watch {
		apiError(w, http.StatusConflict, "a watched trial has no player to rest")
		return
	} else if v.AwaitingPlayer && v.Phase != court.PhaseInterrogation {
		apiError(w, http.StatusConflict, fmt.Sprintf("the %s may rest only in the interrogation", v.Side))
		return
	}
	if err := whenSettled(r.Context(), g, func() error { return g.SubmitFor(side, court.Move{Kind: court.MoveRest}) }); err != nil {
		apiError(w, moveStatus(err), moveMessage(err))
		return
	}
	s.court.advance(g.ID)
	writeJSON(w, http.StatusAccepted, map[string]any{})
}

func (s *Server) apiRestart(w http.ResponseWriter, r *http.Request, g *court.Game) {
	restart := func() error {
		if v := g.View(); !v.RestartOffered {
			if v.Busy {
				return court.ErrBusy
			}
			return errNoRestart
		}
		return g.Restart(r.Context())
	}
	if err := whenSettled(r.Context(), g, restart); err != nil {
		apiError(w, moveStatus(err), moveMessage(err))
		return
	}
	s.court.advance(g.ID)
	writeJSON(w, http.StatusAccepted, map[string]any{})
}

func (s *Server) apiTranscript(w http.ResponseWriter, r *http.Request, g *court.Game) {
	t := g.Transcript()
	if !g.Done() {
		// Before the verdict the player sees the public case only (court.md section 6).
		t = t.Public(g.Case())
	}
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		apiError(w, http.StatusInternalServerError, "the transcript could not be written")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Disposition", `attachment; filename="llm-court-`+g.ID+`.json"`)
	w.Write(append(b, '\n'))
}

func (s *Server) apiJudge(w http.ResponseWriter, r *http.Request, g *court.Game) {
	var body struct {
		Model string `json:"model"`
	}
	if !readJSON(w, r, &body) {
		return
	}
	model, err := s.court.offered("judge", body.Model)
	if err != nil {
		apiError(w, http.StatusBadRequest, "model: "+err.Error())
		return
	}
	t := g.Transcript()
	if len(t.Turns) == 0 {
		apiError(w, http.StatusConflict, "the trial has no turns to judge yet")
		return
	}
	sc, err := s.court.judge(r.Context(), t, model)
	if err != nil {
		s.log.Warn("judge a court game", "game", g.ID, "err", err)
		apiError(w, http.StatusBadGateway, "the checklist judge failed: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"qs": sc.QS, "by_dimension": sc.ByDimension, "checklist": sc.Checklist, "judges": sc.Judges})
}

// checklistJudge runs check.Judge with the bundled checklist over one transcript,
// through the court's session (so its calls are stored and a second ask is cached).
func (c *courtState) checklistJudge(ctx context.Context, t *court.Transcript, model llm.ModelName) (*check.Scores, error) {
	j, err := check.Judge(ctx, c.games.Session, check.DefaultChecklist(), []*check.Transcript{t.ForCheck()}, check.JudgeOptions{Judges: []llm.ModelName{model}})
	if err != nil {
		return nil, err
	}
	if j.Failed > 0 {
		return nil, fmt.Errorf("%d judge requests failed after retries", j.Failed)
	}
	return check.Score(j), nil
}
