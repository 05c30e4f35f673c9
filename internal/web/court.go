package web

// The LLM Court game in the web UI: the game pages (GET /court, GET /court/games/{id})
// and the game API under /api/court (court.md section 6, with the extensions court.js
// documents at its top). The engine is court.Games; this file keeps the games in play in
// memory, runs each one's court in a goroutine the server owns, and answers the API. The
// event stream is in court_sse.go.

import (
	"bytes"
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
	generate  GenerateCaseFunc
	judge     JudgeFunc
	reachable func(ctx context.Context) error
	// boot tells this process's event ids from those of an earlier one (court_sse.go).
	boot      string
	heartbeat time.Duration
	log       *slog.Logger

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

// liveGame is a game in play; its fields are guarded by courtState.mu.
type liveGame struct {
	g *court.Game
	// running: a goroutine is advancing the game; again: advance once more when it
	// returns (a move came while it was finishing).
	running, again bool
}

func newCourtState(opt Options, log *slog.Logger) *courtState {
	ctx, cancel := context.WithCancel(context.Background())
	c := &courtState{games: opt.Court, models: opt.CourtModels, names: opt.CourtModelNames, generate: opt.GenerateCase,
		judge: opt.Judge, reachable: opt.CourtReachable, boot: randomID(6), heartbeat: 15 * time.Second,
		log: log, ctx: ctx, cancel: cancel, live: map[string]*liveGame{}}
	if c.judge == nil && c.games != nil {
		c.judge = c.checklistJudge
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
func (c *courtState) game(ctx context.Context, id string) (*court.Game, error) {
	if !gameID.MatchString(id) {
		return nil, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if lg, ok := c.live[id]; ok {
		return lg.g, nil
	}
	g, err := c.games.Load(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	c.live[id] = &liveGame{g: g}
	c.advanceLocked(id)
	return g, nil
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
	GameID     string
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
	s.renderCourt(w, r, http.StatusOK, "court.html", courtMenuView{ResultsURL: "/", NoModel: s.court.noModel(r.Context())})
}

func (s *Server) courtGamePage(w http.ResponseWriter, r *http.Request) {
	if s.court.games == nil {
		s.fail(w, r, http.StatusServiceUnavailable, noModelHint, nil)
		return
	}
	g, err := s.court.game(r.Context(), r.PathValue("id"))
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
	if err := dec.Decode(v); err != nil && !errors.Is(err, io.EOF) {
		apiError(w, http.StatusBadRequest, "the body is not the JSON this endpoint takes: "+err.Error())
		return false
	}
	return true
}

// withGame runs h on the game the request names: 503 without a court, 404 for none.
func (s *Server) withGame(h func(w http.ResponseWriter, r *http.Request, g *court.Game)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.court.games == nil {
			apiError(w, http.StatusServiceUnavailable, noModelHint)
			return
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

// allCases is the bundled cases and the stored ones, a stored case shadowing a bundled
// one of the same id.
func (s *Server) allCases(ctx context.Context) ([]*court.Case, error) {
	builtin, err := court.Builtin()
	if err != nil {
		return nil, err
	}
	stored, err := s.st.CourtCases(ctx)
	if err != nil {
		return nil, err
	}
	var out []*court.Case
	seen := map[string]bool{}
	for _, sc := range stored {
		cs, err := court.ParseCases(sc.Record, "stored case "+sc.ID+".json")
		if err != nil {
			s.log.Warn("stored court case does not parse", "case", sc.ID, "err", err)
			continue
		}
		out = append(out, cs[0])
		seen[cs[0].ID] = true
	}
	for _, c := range builtin {
		if !seen[c.ID] {
			out = append(out, c)
		}
	}
	return out, nil
}

func (s *Server) apiCases(w http.ResponseWriter, r *http.Request) {
	cs, err := s.allCases(r.Context())
	if err != nil {
		s.log.Error("list court cases", "err", err)
		apiError(w, http.StatusInternalServerError, "the cases could not be read; the server log has the details")
		return
	}
	if cs == nil {
		cs = []*court.Case{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"cases": cs})
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

func (s *Server) apiSaveCase(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Case  json.RawMessage `json:"case"`
		Prior string          `json:"prior"`
		Model string          `json:"model"`
	}
	if !readJSON(w, r, &body) {
		return
	}
	if len(bytes.TrimSpace(body.Case)) == 0 || string(bytes.TrimSpace(body.Case)) == "null" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"errors": []string{"case: send the case record as {\"case\": {…}}"}})
		return
	}
	cs, err := court.ParseCases(body.Case, "case")
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"errors": validationErrors(err)})
		return
	}
	c := cs[0]
	rec, err := json.Marshal(c)
	if err == nil {
		err = s.st.PutCourtCase(r.Context(), store.CourtCase{ID: c.ID, Origin: store.CaseSaved, Prior: body.Prior, Model: body.Model, Record: rec})
	}
	if err != nil {
		s.log.Error("save court case", "case", c.ID, "err", err)
		apiError(w, http.StatusInternalServerError, "the case could not be saved; the server log has the details")
		return
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
	model := llm.ModelName(body.Model)
	if model == "" {
		model = s.court.models.Judge
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
		writeJSON(w, http.StatusOK, map[string]any{"case": c})
	}
}

func (s *Server) apiModels(w http.ResponseWriter, r *http.Request) {
	m := s.court.models
	names := s.court.names
	if names == nil {
		names = []string{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": names, "defaults": map[string]string{
		"judge": string(m.Judge), "prosecutor": string(m.Prosecutor), "witness": string(m.Witness), "analyzer": string(m.Analyzer)}})
}

func (s *Server) apiListGames(w http.ResponseWriter, r *http.Request) {
	if !s.needCourt(w) {
		return
	}
	gs, err := s.court.games.List(r.Context())
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
// with no model is an error naming it.
func (c *courtState) roleModels(chosen map[string]string) (court.Models, error) {
	m := c.models
	m.Defense = ""
	for role, name := range chosen {
		if name == "" {
			continue
		}
		if len(c.names) > 0 && !containsString(c.names, name) {
			return m, fmt.Errorf("models.%s: %q is not a model this server knows (it knows %s)", role, name, strings.Join(c.names, ", "))
		}
		n := llm.ModelName(name)
		switch role {
		case "judge":
			m.Judge = n
		case "prosecutor":
			m.Prosecutor = n
		case "witness":
			m.Witness = n
		case "analyzer":
			m.Analyzer = n
		default:
			return m, fmt.Errorf("models.%s: not a role (want judge, prosecutor, witness or analyzer)", role)
		}
	}
	for _, r := range []struct {
		role string
		n    llm.ModelName
	}{{"judge", m.Judge}, {"prosecutor", m.Prosecutor}, {"witness", m.Witness}, {"analyzer", m.Analyzer}} {
		if r.n == "" {
			return m, fmt.Errorf("no model for the %s: pass models.%s, or start the server with --court-model", r.role, r.role)
		}
	}
	return m, nil
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func (s *Server) apiNewGame(w http.ResponseWriter, r *http.Request) {
	if !s.needCourt(w) {
		return
	}
	var body struct {
		CaseID string            `json:"case_id"`
		Seed   *int64            `json:"seed"`
		Models map[string]string `json:"models"`
		Player court.PlayerInfo  `json:"player"`
	}
	if !readJSON(w, r, &body) {
		return
	}
	cs, err := s.allCases(r.Context())
	if err != nil {
		s.log.Error("list court cases", "err", err)
		apiError(w, http.StatusInternalServerError, "the cases could not be read; the server log has the details")
		return
	}
	var c *court.Case
	for _, k := range cs {
		if k.ID == body.CaseID {
			c = k
		}
	}
	if c == nil {
		apiError(w, http.StatusBadRequest, fmt.Sprintf("case_id %q: no such case (GET /api/court/cases lists them)", body.CaseID))
		return
	}
	models, err := s.court.roleModels(body.Models)
	if err != nil {
		apiError(w, http.StatusBadRequest, err.Error())
		return
	}
	if utf8.RuneCountInString(body.Player.Name) > 80 || len(body.Player.Avatar) > 40 {
		apiError(w, http.StatusBadRequest, "player: the name is at most 80 characters and the avatar 40")
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
	g, err := s.court.games.New(r.Context(), id, court.GameState{Case: c, Seed: seed, Models: models, Player: body.Player})
	if err != nil {
		s.log.Error("new court game", "err", err)
		apiError(w, http.StatusInternalServerError, "the game could not be started; the server log has the details")
		return
	}
	s.court.mu.Lock()
	s.court.live[id] = &liveGame{g: g}
	s.court.advanceLocked(id)
	s.court.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]string{"game_id": id})
}

// gameJSON is the game as GET shows it: the spec's fields, the engine's extras, and
// the case record so a client needs no second request.
type gameJSON struct {
	court.GameView
	Case *court.Case `json:"case"`
}

func (s *Server) apiGame(w http.ResponseWriter, r *http.Request, g *court.Game) {
	writeJSON(w, http.StatusOK, gameJSON{GameView: g.View(), Case: g.Case()})
}

// errNoRestart: a restart was asked for a trial that did not fail.
var errNoRestart = errors.New("no restart is offered: the trial has not failed")

// moveStatus is the HTTP status of an error from Submit or Restart.
func moveStatus(err error) int {
	switch {
	case errors.Is(err, court.ErrBusy), errors.Is(err, court.ErrNotAwaiting), errors.Is(err, court.ErrOver), errors.Is(err, errNoRestart):
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

func (s *Server) apiDefense(w http.ResponseWriter, r *http.Request, g *court.Game) {
	var body struct {
		Text      string `json:"text"`
		To        string `json:"to"`
		Objection bool   `json:"objection"`
	}
	if !readJSON(w, r, &body) {
		return
	}
	text := strings.TrimSpace(body.Text)
	if text == "" {
		apiError(w, http.StatusBadRequest, "text: the statement is empty")
		return
	}
	if n := utf8.RuneCountInString(text); n > court.MaxMoveText {
		apiError(w, http.StatusBadRequest, fmt.Sprintf("text: %d characters; at most %d", n, court.MaxMoveText))
		return
	}
	m := court.Move{Kind: court.MoveSpeak, Text: body.Text, To: court.Speaker(body.To)}
	if body.Objection {
		m.Kind = court.MoveObject
	}
	if err := whenSettled(r.Context(), g, func() error { return g.Submit(m) }); err != nil {
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
	if v := g.View(); v.AwaitingDefense && v.Phase != court.PhaseInterrogation {
		apiError(w, http.StatusConflict, "the defense may rest only in the interrogation")
		return
	}
	if err := whenSettled(r.Context(), g, func() error { return g.Submit(court.Move{Kind: court.MoveRest}) }); err != nil {
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
	b, err := json.MarshalIndent(g.Transcript(), "", "  ")
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
	model := llm.ModelName(body.Model)
	if model == "" {
		model = s.court.models.Judge
	}
	if model == "" {
		apiError(w, http.StatusBadRequest, "model: no judge model; name one, or start the server with --court-judge-model")
		return
	}
	if len(s.court.names) > 0 && !containsString(s.court.names, string(model)) {
		apiError(w, http.StatusBadRequest, fmt.Sprintf("model %q: not a model this server knows (it knows %s)", model, strings.Join(s.court.names, ", ")))
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
	b, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	ts, err := check.ParseTranscripts(b, t.TrialID+".json", check.FormatJSON)
	if err != nil {
		return nil, fmt.Errorf("read the transcript back: %w", err)
	}
	j, err := check.Judge(ctx, c.games.Session, check.DefaultChecklist(), ts, check.JudgeOptions{Judges: []llm.ModelName{model}})
	if err != nil {
		return nil, err
	}
	if j.Failed > 0 {
		return nil, fmt.Errorf("%d judge requests failed after retries", j.Failed)
	}
	return check.Score(j), nil
}
