package web

// "Talk your way past the Keeper" (issue 31): a player is shown a scenario that requires
// a roll, picks a rhetorical style and writes the statement that should get them through
// without one. A Keeper model rules through the benchmark's own prompt and parser
// (seduce.Keeper), asked through the server's runner session, so every request is stored
// and cached; an automatic success is a win. A round is keeperRoundLength scenarios; the
// board counts, per Keeper model and style, how often people got through.
//
// Routes: GET /keeper (the page; keeper.js plays it), GET /api/keeper/state, POST
// /api/keeper/player (create, or change the pseudonym and consent), POST
// /api/keeper/rounds, GET /api/keeper/rounds/{id}, POST /api/keeper/rounds/{id}/attempts,
// GET /api/keeper/board.
//
// A player is a token issued when they are created, kept in the cookie arbiter_keeper
// (or shown as "Authorization: Bearer"); the store keeps its hash only. A round and its
// attempts belong to their player: anyone else gets 403. Asking the Keeper is a
// model-asking request under the server's limits (access.go: per-client rate, budget).

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// keeperRoundLength is how many scenarios a round holds.
const keeperRoundLength = 5

// Bounds of what a player writes.
const (
	maxPseudonym = 40
	maxStatement = 2000
)

// keeperCookie carries a player's token.
const keeperCookie = "arbiter_keeper"

// noKeeperHint is what the game says when it has no Keeper model.
const noKeeperHint = "The Keeper needs a model. Start the server with one (arbiter serve --keeper-model ollama/llama3.1:8b, " +
	"or with a key: OPENAI_API_KEY=… arbiter serve --keeper-model openai/gpt-4.1-mini); repeat the flag to offer several."

// keeperScenario is a scenario a round may hold: the sample that stands for it (its
// Neutral variant when it has one), whose statement is shown as the action.
type keeperScenario struct {
	s seduce.Sample
}

// keeperState is the server's side of the Keeper game.
type keeperState struct {
	keeper    *seduce.Keeper
	models    []llm.ModelName
	scenarios []keeperScenario
	bySample  map[string]int
	guard     *guardrails
}

func newKeeperState(opt Options, ds *seduce.Dataset, guard *guardrails) *keeperState {
	k := &keeperState{keeper: opt.Keeper, models: opt.KeeperModels, guard: guard, bySample: map[string]int{}}
	if opt.KeeperDataset != nil {
		ds = opt.KeeperDataset
	}
	at := map[string]int{}
	for _, s := range ds.Samples {
		if !s.RequiresRoll {
			continue
		}
		i, seen := at[s.ScenarioID]
		if !seen {
			at[s.ScenarioID] = len(k.scenarios)
			k.scenarios = append(k.scenarios, keeperScenario{s: s})
			continue
		}
		if s.Style == seduce.StyleNeutral && k.scenarios[i].s.Style != seduce.StyleNeutral {
			k.scenarios[i].s = s
		}
	}
	for i, sc := range k.scenarios {
		k.bySample[string(sc.s.ID)] = i
	}
	return k
}

// on reports whether the game can be played.
func (k *keeperState) on() bool { return k.keeper != nil && len(k.models) > 0 && len(k.scenarios) > 0 }

func (k *keeperState) hint() string {
	if len(k.scenarios) == 0 {
		return "The Keeper's dataset holds no scenario that requires a roll, so there is nothing to play."
	}
	if !k.on() {
		return noKeeperHint
	}
	return ""
}

// player is the player r's token names, or nil.
func (s *Server) keeperPlayer(ctx context.Context, r *http.Request) (*store.KeeperPlayer, error) {
	tok := ""
	if c, err := r.Cookie(keeperCookie); err == nil {
		tok = c.Value
	}
	if t, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		tok = strings.TrimSpace(t)
	}
	if tok == "" {
		return nil, nil
	}
	p, err := s.st.KeeperPlayerByToken(ctx, tokenHash(tok))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return p, err
}

// ---- views ------------------------------------------------------------------------

type keeperPlayerView struct {
	Pseudonym string `json:"pseudonym"`
	Share     bool   `json:"share"`
}

type keeperScenarioView struct {
	Number  int    `json:"number"`
	Setting string `json:"setting"`
	Skill   string `json:"skill"`
	Context string `json:"context"`
	Action  string `json:"action"`
}

type keeperAttemptView struct {
	Number    int    `json:"number"`
	Setting   string `json:"setting"`
	Skill     string `json:"skill"`
	Style     string `json:"style"`
	Statement string `json:"statement"`
	Ruling    string `json:"ruling"`
	Named     string `json:"named_skill"`
	Reason    string `json:"reason"`
	Win       bool   `json:"win"`
}

type keeperRoundView struct {
	ID       string              `json:"id"`
	Model    string              `json:"model"`
	Length   int                 `json:"length"`
	Played   int                 `json:"played"`
	Score    int                 `json:"score"`
	Done     bool                `json:"done"`
	Scenario *keeperScenarioView `json:"scenario"`
	Attempts []keeperAttemptView `json:"attempts"`
}

type keeperBoardRow struct {
	Model    string                     `json:"model"`
	Attempts int                        `json:"attempts"`
	Passed   int                        `json:"passed"`
	ByStyle  map[string]keeperBoardCell `json:"by_style"`
}

type keeperBoardCell struct {
	Attempts int `json:"attempts"`
	Passed   int `json:"passed"`
}

type keeperStateView struct {
	Player  *keeperPlayerView `json:"player"`
	Models  []string          `json:"models"`
	Styles  []string          `json:"styles"`
	Board   []keeperBoardRow  `json:"board"`
	NoModel string            `json:"no_model,omitempty"`
}

func attemptView(a *store.KeeperAttempt) keeperAttemptView {
	return keeperAttemptView{Number: a.Position + 1, Setting: a.Setting, Skill: a.Skill, Style: a.Style, Statement: a.Statement,
		Ruling: a.Ruling, Named: a.NamedSkill, Reason: a.Reason, Win: a.Ruling == string(seduce.DecisionPass)}
}

// roundView is round as its player sees it, with the scenario to play next.
func (s *Server) keeperRoundView(ctx context.Context, rd *store.KeeperRound) (keeperRoundView, error) {
	as, err := s.st.KeeperAttempts(ctx, store.KeeperFilter{RoundID: rd.ID})
	if err != nil {
		return keeperRoundView{}, err
	}
	v := keeperRoundView{ID: rd.ID, Model: rd.Model, Length: len(rd.Samples), Played: len(as), Attempts: []keeperAttemptView{}}
	for _, a := range as {
		av := attemptView(a)
		v.Attempts = append(v.Attempts, av)
		if av.Win {
			v.Score++
		}
	}
	v.Done = v.Played >= v.Length
	if !v.Done {
		if i, ok := s.keeper.bySample[rd.Samples[v.Played]]; ok {
			sc := s.keeper.scenarios[i].s
			v.Scenario = &keeperScenarioView{Number: v.Played + 1, Setting: string(sc.Setting), Skill: sc.Skill, Context: sc.Context, Action: sc.Statement}
		}
	}
	return v, nil
}

func (s *Server) keeperBoard(ctx context.Context) ([]keeperBoardRow, error) {
	ts, err := s.st.KeeperBoard(ctx)
	if err != nil {
		return nil, err
	}
	rows := []keeperBoardRow{}
	for _, t := range ts {
		if len(rows) == 0 || rows[len(rows)-1].Model != t.Model {
			rows = append(rows, keeperBoardRow{Model: t.Model, ByStyle: map[string]keeperBoardCell{}})
		}
		row := &rows[len(rows)-1]
		row.Attempts += t.Attempts
		row.Passed += t.Passed
		row.ByStyle[t.Style] = keeperBoardCell{Attempts: t.Attempts, Passed: t.Passed}
	}
	return rows, nil
}

// ---- pages and API ----------------------------------------------------------------

type keeperPageView struct {
	Title   string
	NoModel string
}

func (s *Server) keeperPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "keeper.html", keeperPageView{Title: "Talk your way past the Keeper", NoModel: s.keeper.hint()})
}

func (s *Server) apiKeeperState(w http.ResponseWriter, r *http.Request) {
	p, err := s.keeperPlayer(r.Context(), r)
	if err != nil {
		s.keeperFail(w, r, err)
		return
	}
	board, err := s.keeperBoard(r.Context())
	if err != nil {
		s.keeperFail(w, r, err)
		return
	}
	v := keeperStateView{Models: []string{}, Styles: []string{}, Board: board, NoModel: s.keeper.hint()}
	if p != nil {
		v.Player = &keeperPlayerView{Pseudonym: p.Pseudonym, Share: p.Share}
	}
	for _, m := range s.keeper.models {
		v.Models = append(v.Models, string(m))
	}
	for _, st := range seduce.Styles {
		v.Styles = append(v.Styles, string(st))
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) apiKeeperBoard(w http.ResponseWriter, r *http.Request) {
	board, err := s.keeperBoard(r.Context())
	if err != nil {
		s.keeperFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, board)
}

// keeperFail answers a store failure: 500, the detail in the log only.
func (s *Server) keeperFail(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Error("request failed", "path", r.URL.Path, "err", err)
	apiError(w, http.StatusInternalServerError, "The server could not read or write its store; its log has the details.")
}

// checkPseudonym is the problem with a pseudonym, or "".
func checkPseudonym(p string) string {
	switch {
	case p == "":
		return "Choose a pseudonym: the name your statements are known by."
	case utf8.RuneCountInString(p) > maxPseudonym:
		return "A pseudonym is at most 40 characters."
	case strings.Contains(p, "@"):
		return "A pseudonym is not an e-mail address: choose a name that does not say who you are."
	case strings.IndexFunc(p, unicode.IsControl) >= 0:
		return "A pseudonym is one line of text."
	}
	return ""
}

type keeperPlayerBody struct {
	Pseudonym string `json:"pseudonym"`
	Share     bool   `json:"share"`
}

// apiKeeperPlayer creates the caller's player (and sets the token's cookie), or, when
// the caller is one already, changes their pseudonym and consent.
func (s *Server) apiKeeperPlayer(w http.ResponseWriter, r *http.Request) {
	var body keeperPlayerBody
	if !readJSON(w, r, &body) {
		return
	}
	body.Pseudonym = strings.TrimSpace(body.Pseudonym)
	if msg := checkPseudonym(body.Pseudonym); msg != "" {
		apiError(w, http.StatusBadRequest, msg)
		return
	}
	p, err := s.keeperPlayer(r.Context(), r)
	if err != nil {
		s.keeperFail(w, r, err)
		return
	}
	if p != nil {
		if err := s.st.UpdateKeeperPlayer(r.Context(), p.ID, body.Pseudonym, body.Share); err != nil {
			s.keeperFail(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, keeperPlayerView(body))
		return
	}
	if e := s.court.guard.newGame(r); e != nil {
		refuseLimit(w, e)
		return
	}
	tok := randomID(24)
	p = &store.KeeperPlayer{ID: randomID(12), TokenHash: tokenHash(tok), Pseudonym: body.Pseudonym, Share: body.Share}
	if err := s.st.AddKeeperPlayer(r.Context(), *p); err != nil {
		s.keeperFail(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: keeperCookie, Value: tok, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil, MaxAge: 365 * 24 * 3600})
	writeJSON(w, http.StatusCreated, map[string]any{"pseudonym": p.Pseudonym, "share": p.Share, "token": tok})
}

// needKeeperPlayer answers 503 without a Keeper and 403 without a player; it returns the
// player otherwise.
func (s *Server) needKeeperPlayer(w http.ResponseWriter, r *http.Request) *store.KeeperPlayer {
	if !s.keeper.on() {
		apiError(w, http.StatusServiceUnavailable, s.keeper.hint())
		return nil
	}
	p, err := s.keeperPlayer(r.Context(), r)
	if err != nil {
		s.keeperFail(w, r, err)
		return nil
	}
	if p == nil {
		apiError(w, http.StatusForbidden, "Choose a pseudonym first: the game keeps your attempts under it.")
		return nil
	}
	return p
}

type keeperRoundBody struct {
	Model string `json:"model"`
}

func (s *Server) apiKeeperNewRound(w http.ResponseWriter, r *http.Request) {
	p := s.needKeeperPlayer(w, r)
	if p == nil {
		return
	}
	var body keeperRoundBody
	if !readJSON(w, r, &body) {
		return
	}
	model := s.keeper.models[0]
	if body.Model != "" {
		if !slices.Contains(s.keeper.models, llm.ModelName(body.Model)) {
			apiError(w, http.StatusBadRequest, "The Keeper "+body.Model+" is not offered here; choose one of the list.")
			return
		}
		model = llm.ModelName(body.Model)
	}
	n := min(keeperRoundLength, len(s.keeper.scenarios))
	rd := store.KeeperRound{ID: randomID(12), PlayerID: p.ID, Model: string(model)}
	for _, i := range rand.Perm(len(s.keeper.scenarios))[:n] {
		rd.Samples = append(rd.Samples, string(s.keeper.scenarios[i].s.ID))
	}
	if err := s.st.AddKeeperRound(r.Context(), rd); err != nil {
		s.keeperFail(w, r, err)
		return
	}
	v, err := s.keeperRoundView(r.Context(), &rd)
	if err != nil {
		s.keeperFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, v)
}

// ownRound is round id when it is p's; it answers 404 or 403 otherwise.
func (s *Server) ownRound(w http.ResponseWriter, r *http.Request, p *store.KeeperPlayer) *store.KeeperRound {
	rd, err := s.st.KeeperRound(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		apiError(w, http.StatusNotFound, "There is no such round; start one.")
		return nil
	}
	if err != nil {
		s.keeperFail(w, r, err)
		return nil
	}
	if rd.PlayerID != p.ID {
		apiError(w, http.StatusForbidden, "This round is another player's.")
		return nil
	}
	return rd
}

func (s *Server) apiKeeperRound(w http.ResponseWriter, r *http.Request) {
	p := s.needKeeperPlayer(w, r)
	if p == nil {
		return
	}
	rd := s.ownRound(w, r, p)
	if rd == nil {
		return
	}
	v, err := s.keeperRoundView(r.Context(), rd)
	if err != nil {
		s.keeperFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

type keeperAttemptBody struct {
	Style     string `json:"style"`
	Statement string `json:"statement"`
}

// apiKeeperAttempt puts the player's statement on the round's next scenario to the
// Keeper, keeps the attempt and answers the ruling with the round as it now stands.
func (s *Server) apiKeeperAttempt(w http.ResponseWriter, r *http.Request) {
	p := s.needKeeperPlayer(w, r)
	if p == nil {
		return
	}
	rd := s.ownRound(w, r, p)
	if rd == nil {
		return
	}
	var body keeperAttemptBody
	if !readJSON(w, r, &body) {
		return
	}
	body.Statement = strings.TrimSpace(body.Statement)
	switch {
	case !slices.Contains(seduce.Styles, seduce.Style(body.Style)):
		apiError(w, http.StatusBadRequest, "Pick a style: Neutral (plain), Authority, Pseudo-Logic or Omission.")
		return
	case body.Statement == "":
		apiError(w, http.StatusBadRequest, "Write what your investigator says and does.")
		return
	case utf8.RuneCountInString(body.Statement) > maxStatement:
		apiError(w, http.StatusRequestEntityTooLarge, "A statement is at most 2,000 characters.")
		return
	}
	before, err := s.keeperRoundView(r.Context(), rd)
	if err != nil {
		s.keeperFail(w, r, err)
		return
	}
	if before.Done {
		apiError(w, http.StatusConflict, "This round is over; start another.")
		return
	}
	i, ok := s.keeper.bySample[rd.Samples[before.Played]]
	if !ok {
		apiError(w, http.StatusGone, "This round's scenario is no longer offered by the server; start another round.")
		return
	}
	if e := s.court.guard.ask(r.Context(), r); e != nil {
		refuseLimit(w, e)
		return
	}
	sample := s.keeper.scenarios[i].s
	sample.Statement, sample.Style = body.Statement, seduce.Style(body.Style)
	id := randomID(12)
	ruled, err := s.keeper.keeper.Rule(r.Context(), llm.ModelName(rd.Model), sample, id)
	if err != nil {
		s.log.Error("ask the keeper", "model", rd.Model, "err", err)
		apiError(w, http.StatusBadGateway, "The Keeper did not answer; your statement is kept in the box: try again in a moment.")
		return
	}
	reason := ruled.Parsed.Reason
	if reason == "" {
		reason = cutText(ruled.Reply, 600)
	}
	a := store.KeeperAttempt{ID: id, PlayerID: p.ID, RoundID: rd.ID, Position: before.Played, Author: p.Pseudonym,
		SampleID: string(sample.ID), ScenarioID: sample.ScenarioID, Setting: string(sample.Setting), Category: string(sample.Category),
		Skill: sample.Skill, GoldSkill: sample.GoldSkill, Context: sample.Context, Statement: sample.Statement, Style: body.Style,
		Model: rd.Model, Run: ruled.Run, JobKey: ruled.Key, Reply: ruled.Reply, Ruling: string(ruled.Parsed.Decision),
		NamedSkill: ruled.Parsed.Skill, Reason: reason, Created: time.Now()}
	if err := s.st.AddKeeperAttempt(r.Context(), a); errors.Is(err, store.ErrExists) {
		apiError(w, http.StatusConflict, "This scenario was answered already (in another window?); reload the round.")
		return
	} else if err != nil {
		s.keeperFail(w, r, err)
		return
	}
	after, err := s.keeperRoundView(r.Context(), rd)
	if err != nil {
		s.keeperFail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"attempt": attemptView(&a), "round": after})
}

// cutText is s cut to at most n runes, with an ellipsis when cut.
func cutText(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
