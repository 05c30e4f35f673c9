package web

// Who may do what (cli.md, Web): the server spends its owner's keys, so on --public
// anyone who reaches it is a client to bound.
//
//   - A game belongs to the client that created it. The creation answer carries a play
//     token (also set as the cookie arbiter_game_<id>) and a watch token; a request on a
//     game shows one as ?token=, as that cookie, or as "Authorization: Bearer". The store
//     keeps only their hashes (court_game_tokens). Reading a game wants either token;
//     moving in it wants the play token. Without one: 403, and the game is not loaded.
//   - Limits per client address (the connection's remote IP, never a header): game
//     creations per minute (Limits.ClientGames) and model-asking requests per minute
//     (Limits.ClientRate), counted in fixed one-minute windows; live games in all
//     (Limits.MaxGames). Each is a 429 with Retry-After and a sentence for the player.
//   - Limits.Budget stops every model call once the cost the store recorded (its
//     provider replies priced by the cost package) reaches it: 503.
//   - On --public, saving a case, and listing or replaying the store's simulated
//     trials, want the owner's token (Options.OwnerToken).

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-eval/arbiter/internal/cost"
	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// Limits bound what clients may spend of the server's models. Zero fields take the
// defaults of the contract; a negative one turns that limit off.
type Limits struct {
	// MaxGames is how many games may be live (in play, not finished) at once; default 16.
	MaxGames int
	// ClientGames is how many games one client address may create per minute; default 4.
	ClientGames int
	// ClientRate is how many model-asking requests (a new game, a move, a restart, a
	// generation, a checklist judging) one client address may send per minute; default 30.
	ClientRate int
	// StreamsPerGame is how many event streams one client address may hold open on one
	// game; default 4.
	StreamsPerGame int
	// Budget, in US dollars, stops every model call once the recorded cost reaches it;
	// 0 means no budget.
	Budget float64
	// Prices price the recorded usage for Budget; nil means cost.Default().
	Prices *cost.Prices
}

// The contract's defaults.
const (
	DefaultMaxGames       = 16
	DefaultClientGames    = 4
	DefaultClientRate     = 30
	DefaultStreamsPerGame = 4
)

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&l.MaxGames, DefaultMaxGames)
	def(&l.ClientGames, DefaultClientGames)
	def(&l.ClientRate, DefaultClientRate)
	def(&l.StreamsPerGame, DefaultStreamsPerGame)
	return l
}

// tokenHash is what the store keeps of a game token.
func tokenHash(tok string) string {
	sum := sha256.Sum256([]byte("arbiter-game:" + tok))
	return hex.EncodeToString(sum[:])
}

// gameCookie names the cookie that carries game id's token.
func gameCookie(id string) string { return "arbiter_game_" + id }

// gameToken is the token a request shows for game id: ?token=, the bearer, the cookie.
func gameToken(r *http.Request, id string) string {
	if t := r.URL.Query().Get("token"); t != "" {
		return t
	}
	if t, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return strings.TrimSpace(t)
	}
	if c, err := r.Cookie(gameCookie(id)); err == nil {
		return c.Value
	}
	return ""
}

// setGameCookie keeps tok for game id in the browser, for the page and its API calls.
func setGameCookie(w http.ResponseWriter, r *http.Request, id, tok string) {
	http.SetCookie(w, &http.Cookie{Name: gameCookie(id), Value: tok, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil, MaxAge: 30 * 24 * 3600})
}

// maxGameCookies bounds how many of a request's game cookies the game list reads.
const maxGameCookies = 64

// heldTokens are the hashes of the game tokens a request carries as cookies.
func heldTokens(r *http.Request) []string {
	var out []string
	for _, c := range r.Cookies() {
		if strings.HasPrefix(c.Name, "arbiter_game_") && c.Value != "" && len(out) < maxGameCookies {
			out = append(out, tokenHash(c.Value))
		}
	}
	if t := r.URL.Query().Get("token"); t != "" {
		out = append(out, tokenHash(t))
	}
	return out
}

// access is what a request may do in game id: store.GamePlay, store.GameWatch or "".
func (c *courtState) access(ctx context.Context, r *http.Request, id string) (string, error) {
	tok := gameToken(r, id)
	if tok == "" || !gameID.MatchString(id) {
		return "", nil
	}
	a, err := c.games.Session.Store.CourtGameAccess(ctx, id, tokenHash(tok))
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	return a, err
}

// clientOf is the client address of a request: the remote IP of its connection.
func clientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// limitError is a refusal for the player: its status, when to try again and why.
type limitError struct {
	status int
	after  time.Duration
	msg    string
}

func (e *limitError) Error() string { return e.msg }

// refuseLimit answers a limitError: 429 or 503, Retry-After in whole seconds.
func refuseLimit(w http.ResponseWriter, e *limitError) {
	secs := max(1, int((e.after+time.Second-1)/time.Second))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	apiError(w, e.status, e.msg)
}

// count is "1 noun" or "n nouns".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// inWords is a wait as a player reads it, in whole seconds rounded up, as Retry-After.
func inWords(d time.Duration) string {
	secs := max(1, int((d+time.Second-1)/time.Second))
	if secs == 1 {
		return "a second"
	}
	return strconv.Itoa(secs) + " seconds"
}

// window counts events per client address in fixed one-minute windows. Its memory is
// one counter per address seen in the current minute.
type window struct {
	mu    sync.Mutex
	start time.Time
	n     map[string]int
	now   func() time.Time
}

func newWindow(now func() time.Time) *window {
	return &window{n: map[string]int{}, now: now}
}

// take counts one event of client; it reports false, with the time left in the minute,
// when client has had limit already.
func (w *window) take(client string, limit int) (ok bool, retry time.Duration) {
	if limit < 0 {
		return true, 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	if now.Sub(w.start) >= time.Minute {
		w.start, w.n = now, map[string]int{}
	}
	if w.n[client] >= limit {
		return false, time.Minute - now.Sub(w.start)
	}
	w.n[client]++
	return true, 0
}

// guardrails are the server's limits in force: the client windows, the budget and the
// event streams held open.
type guardrails struct {
	lim          Limits
	games, asks  *window
	st           *store.Store
	mu           sync.Mutex
	spent        float64
	spentAt      time.Time
	streams      map[streamKey]int
	now          func() time.Time
	budgetMaxAge time.Duration
}

type streamKey struct{ client, game string }

func newGuardrails(lim Limits, st *store.Store) *guardrails {
	lim = lim.withDefaults()
	if lim.Prices == nil && lim.Budget > 0 {
		lim.Prices = cost.Default()
	}
	now := time.Now
	return &guardrails{lim: lim, games: newWindow(now), asks: newWindow(now), st: st, streams: map[streamKey]int{},
		now: now}
}

// ask counts a model-asking request of r's client and checks the budget.
func (g *guardrails) ask(ctx context.Context, r *http.Request) *limitError {
	if ok, after := g.asks.take(clientOf(r), g.lim.ClientRate); !ok {
		return &limitError{http.StatusTooManyRequests, after, fmt.Sprintf(
			"You are going faster than the court can follow: at most %s a minute from one player. Wait %s and try again.", count(g.lim.ClientRate, "request"), inWords(after))}
	}
	if err := g.budget(ctx); err != nil {
		return err
	}
	return nil
}

// newGame counts a game creation of r's client.
func (g *guardrails) newGame(r *http.Request) *limitError {
	if ok, after := g.games.take(clientOf(r), g.lim.ClientGames); !ok {
		return &limitError{http.StatusTooManyRequests, after, fmt.Sprintf(
			"You have opened %s in the last minute, the most one player may. Wait %s before you open another.", count(g.lim.ClientGames, "trial"), inWords(after))}
	}
	return nil
}

// full is the refusal of a new game when MaxGames are live.
func (g *guardrails) full() *limitError {
	return &limitError{http.StatusTooManyRequests, time.Minute, fmt.Sprintf(
		"The court is full: %s in session, the most it holds. Try again in a minute, or finish a trial of yours first.", count(g.lim.MaxGames, "trial"))}
}

// budget refuses once the recorded cost has reached Limits.Budget. The cost is read
// from the store at every check (budgetMaxAge 0): a call let through a moment after the
// budget was reached would be paid for, and one sum per model call is cheap beside it.
func (g *guardrails) budget(ctx context.Context) *limitError {
	if g.lim.Budget <= 0 {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.spentAt.IsZero() || g.now().Sub(g.spentAt) >= g.budgetMaxAge {
		spent, err := g.recorded(ctx)
		if err != nil {
			return &limitError{http.StatusServiceUnavailable, time.Minute, "The court cannot check what it has spent on its models, so it asks none now; try again later."}
		}
		g.spent, g.spentAt = spent, g.now()
	}
	if g.spent >= g.lim.Budget {
		return &limitError{http.StatusServiceUnavailable, time.Hour, fmt.Sprintf(
			"The court has spent its budget for models (US$%.2f of US$%.2f), so it asks them nothing more. The server's owner can raise --budget.", g.spent, g.lim.Budget)}
	}
	return nil
}

// recorded is the cost of every provider reply in the store, priced; models without a
// known price count nothing.
func (g *guardrails) recorded(ctx context.Context) (float64, error) {
	us, err := g.st.UsageByModel(ctx)
	if err != nil {
		return 0, err
	}
	sum := 0.0
	for _, u := range us {
		if p, ok := g.lim.Prices.Lookup(u.Model, false); ok {
			sum += p.Cost(cost.Usage{Input: u.InputTokens, Output: u.OutputTokens}, false)
		}
	}
	return sum, nil
}

// gate is the budget check before each model call of a game (court.Games.Gate).
func (g *guardrails) gate(ctx context.Context) error {
	if err := g.budget(ctx); err != nil {
		return err
	}
	return nil
}

// openStream counts a stream of r's client on game; the returned func closes it.
func (g *guardrails) openStream(r *http.Request, game string) (func(), *limitError) {
	k := streamKey{clientOf(r), game}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.streams[k] >= g.lim.StreamsPerGame {
		return nil, &limitError{http.StatusTooManyRequests, 5 * time.Second, fmt.Sprintf(
			"This game is already open in %s of yours, the most it may be. Close one and reload.", count(g.lim.StreamsPerGame, "window"))}
	}
	g.streams[k]++
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.streams[k]--; g.streams[k] <= 0 {
			delete(g.streams, k)
		}
	}, nil
}

// isOwner reports whether r carries the owner's token (?token=, bearer or the
// arbiter_owner cookie).
func isOwner(r *http.Request, owner string) bool {
	if owner == "" {
		return false
	}
	tok := r.URL.Query().Get("token")
	if t, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && tok == "" {
		tok = strings.TrimSpace(t)
	}
	if c, err := r.Cookie("arbiter_owner"); err == nil && tok == "" {
		tok = c.Value
	}
	return tok != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(owner)) == 1
}

// setOwnerCookie keeps the owner's token, when the request's ?token= is it, as the
// arbiter_owner cookie: the court's pages then call the API as the owner without the
// token in any link they show.
func setOwnerCookie(w http.ResponseWriter, r *http.Request, owner string) {
	tok := r.URL.Query().Get("token")
	if owner == "" || tok == "" || subtle.ConstantTimeCompare([]byte(tok), []byte(owner)) != 1 {
		return
	}
	http.SetCookie(w, &http.Cookie{Name: "arbiter_owner", Value: tok, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil, MaxAge: 30 * 24 * 3600})
}

// maxDrafts bounds the generated cases the server keeps for their players to save.
const maxDrafts = 64

// draft is a generated case kept whole until its player saves it: the player is shown
// the public case only.
type draft struct {
	c     *court.Case
	prior string
	model llm.ModelName
}

// drafts keeps the latest maxDrafts drafts by a random id.
type drafts struct {
	mu    sync.Mutex
	max   int
	order []string
	m     map[string]draft
}

func newDrafts(n int) *drafts { return &drafts{max: n, m: map[string]draft{}} }

func (d *drafts) put(v draft) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	id := randomID(12)
	if len(d.order) >= d.max {
		delete(d.m, d.order[0])
		d.order = d.order[1:]
	}
	d.order = append(d.order, id)
	d.m[id] = v
	return id
}

func (d *drafts) get(id string) (draft, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	v, ok := d.m[id]
	return v, ok
}

func (d *drafts) drop(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.m, id)
	d.order = slices.DeleteFunc(d.order, func(x string) bool { return x == id })
}

// NewOwnerToken makes the owner's token of a public server (128 random bits).
func NewOwnerToken() string { return randomID(16) }
