package court

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// A game is a trial a person plays as the defense, kept in the store after every turn:
// its state (the case, the seed, the models and the defense's moves) in the court_games
// table and its model calls as results of its own run. Loading a game replays its trial
// from those, asking no model, to exactly where it stood; a turn that was being spoken
// when the process stopped has no result and is asked again when the game goes on.

// PlayerInfo is who plays the defense, as the game shows them.
type PlayerInfo struct {
	Name   string `json:"name,omitempty"`
	Avatar string `json:"avatar,omitempty"`
}

// GameState is what the store keeps of a game, from which it is rebuilt.
type GameState struct {
	Case       *Case      `json:"case"`
	Seed       int64      `json:"seed"`
	Models     Models     `json:"models"`
	TurnBudget int        `json:"turn_budget,omitempty"`
	Player     PlayerInfo `json:"player"`
	Moves      []Move     `json:"moves"`
	// Restarts counts the failures after which the player chose to go on.
	Restarts int `json:"restarts"`
	// Side is the counsel the person plays (the defense when unset); playing the
	// prosecution, Models.Defense plays the defense.
	Side Side `json:"side,omitempty"`
	// Watch: no person plays; Models.Defense plays the defense and the trial runs to
	// its verdict by itself (a watched trial), paced by Pause, Resume, SetDelay, Skip.
	Watch bool `json:"watch,omitempty"`
	// SkipAt is the turn count a watched trial was skipped to its verdict at.
	SkipAt int `json:"skip_at,omitempty"`
	// TwoPlayers: a second person plays the other counsel (two.go); their moves are
	// in Moves with their side set.
	TwoPlayers bool `json:"two_players,omitempty"`
}

// Games makes and loads the games of one store. Session asks the models (it may be
// offline: then only finished turns can be shown).
type Games struct {
	Session *runner.Session
	// Gate, when set, is asked before every model call a game makes (not those its
	// replay reads from the store); its error fails the call, as a model's would.
	Gate func(ctx context.Context) error
	// MaxTokens bounds every reply of a game's models: DefaultGameMaxTokens when 0,
	// none when negative. MaxTokensBy overrides it per agent.
	MaxTokens   int
	MaxTokensBy map[Agent]int
	// TakeOver is how long a two-person game may stand mid-turn in the store, saved by
	// another process that lets its court speak, before this one lets it go on instead
	// (that process stopped): DefaultTakeOver when 0.
	TakeOver time.Duration
}

// DefaultTakeOver is Games.TakeOver unless set: longer than a court's turn takes, a
// model's retries included.
const DefaultTakeOver = 3 * time.Minute

// ParseMaxTokens reads max_tokens settings: "N" for every agent, "agent=N" for one
// (judge, prosecutor, witness, analyzer, summary, evaluation); none leaves the default.
func ParseMaxTokens(specs []string) (all int, by map[Agent]int, err error) {
	for _, spec := range specs {
		name, num, one := strings.Cut(spec, "=")
		if !one {
			num = name
		}
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if err != nil || n <= 0 {
			return 0, nil, fmt.Errorf("%q: want a positive number, or agent=number", spec)
		}
		if !one {
			all = n
			continue
		}
		a := Agent(strings.TrimSpace(name))
		switch a {
		case AgentJudge, AgentProsecutor, AgentWitness, AgentAnalyzer, AgentSummary, AgentEvaluation:
		default:
			return 0, nil, fmt.Errorf("%q: %s is not an agent (judge, prosecutor, witness, analyzer, summary, evaluation)", spec, a)
		}
		if by == nil {
			by = map[Agent]int{}
		}
		by[a] = n
	}
	return all, by, nil
}

// DefaultGameMaxTokens is a game's max_tokens per call unless Games says otherwise: a
// few paragraphs, which every role's turn fits.
const DefaultGameMaxTokens = 1024

// Game errors.
var (
	// ErrBusy: the court is speaking; the game takes no move until it waits again.
	ErrBusy = errors.New("court: the court is speaking")
	// ErrOver: the game has ended.
	ErrOver = errors.New("court: the game is over")
)

// New starts a game with the given id and saves it. A game's calls are keyed by its id,
// so ids must be unique in the store.
func (gs *Games) New(ctx context.Context, id string, st GameState) (*Game, error) {
	if st.Case == nil {
		return nil, errors.New("court: a game needs a case")
	}
	if _, err := gs.Session.Store.CourtGame(ctx, id); err == nil {
		return nil, fmt.Errorf("court: game %s already exists", id)
	}
	run, err := gs.Session.Begin(ctx, runner.Identity{Kind: KindCourt, Config: map[string]any{
		"game": id, "case": st.Case.ID, "seed": st.Seed, "models": st.Models}})
	if err != nil {
		return nil, err
	}
	g, err := gs.build(id, run, st)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.snapLocked()
	if err := g.saveLocked(ctx); err != nil {
		return nil, err
	}
	return g, nil
}

// Load rebuilds a stored game to where it stood, asking no model; ErrNotFound (from
// store) when there is none. Call Advance to go on from there (it asks again a turn
// that was being spoken when the game was last saved).
func (gs *Games) Load(ctx context.Context, id string) (*Game, error) {
	rec, err := gs.Session.Store.CourtGame(ctx, id)
	if err != nil {
		return nil, err
	}
	var st GameState
	if err := json.Unmarshal(rec.State, &st); err != nil {
		return nil, fmt.Errorf("court: game %s: stored state: %w", id, err)
	}
	if st.Case == nil {
		return nil, fmt.Errorf("court: game %s: stored state has no case", id)
	}
	g, err := gs.build(id, rec.Run, st)
	if err != nil {
		return nil, err
	}
	g.saved, g.kept = rec.Updated, keptAs(rec)
	g.replay(ctx)
	if st.TwoPlayers {
		g.mu.Lock()
		if len(g.snap.turns) != rec.Turns {
			// The replay went past the last save: the process whose court speaks has
			// stored its calls but not yet saved the turn. The floor is not offered
			// until it has (join.go): a move made over that save would be refused.
			g.snap.awaiting, g.snap.offered = false, false
		}
		g.mu.Unlock()
	}
	return g, nil
}

// List returns every stored game, the latest played first.
func (gs *Games) List(ctx context.Context) ([]*store.CourtGame, error) {
	return gs.Session.Store.CourtGames(ctx)
}

func (gs *Games) build(id string, run store.RunID, st GameState) (*Game, error) {
	g := &Game{ID: id, Run: run, gs: gs, state: st, side: st.Side.Or(), changed: make(chan struct{})}
	g.asker = &gameAsker{rec: &Recorded{Session: gs.Session, Run: run, Label: "game " + id}, gate: gs.Gate}
	maxTokens := gs.MaxTokens
	if maxTokens == 0 {
		maxTokens = DefaultGameMaxTokens
	}
	first, second := splitMoves(st.Moves, st.TwoPlayers)
	var def Player = NewHuman(first...)
	side := st.Side
	if st.Watch {
		def, side = ModelDefense{}, SideDefense
		g.side = side
	}
	t, err := NewTrial(st.Case, st.Seed, Settings{TrialID: id, Models: st.Models, TurnBudget: st.TurnBudget, OfferRestart: !st.Watch,
		MaxTokens: max(maxTokens, 0), MaxTokensBy: gs.MaxTokensBy, Side: side, TwoPlayers: st.TwoPlayers && !st.Watch}, g.asker, def)
	if err != nil {
		return nil, err
	}
	if t.other != nil {
		t.other = NewHuman(second...)
	}
	t.SkipAt(st.SkipAt)
	g.trial = t
	return g, nil
}

// Game is one game in play. Its methods are safe for concurrent use: one goroutine
// advances it while others read it, submit moves (refused with ErrBusy while the court
// speaks) and follow its events.
type Game struct {
	ID  string
	Run store.RunID

	gs    *Games
	asker *gameAsker
	// side is the counsel the game's Player plays (the creator's, in a game of two).
	side Side

	mu      sync.Mutex
	state   GameState
	trial   *Trial
	busy    bool
	running bool
	// log holds the events since the game was made or loaded, the streamed pieces of a
	// turn only until it ends or fails (its end carries the whole turn); seq numbers
	// them.
	log     []Event
	seq     int
	changed chan struct{} // closed and replaced whenever log grows or busy changes
	// replayed counts the failures met while replaying, to tell those the player
	// already restarted after from a new one.
	offers int
	err    error
	// snap is the trial as readers see it, taken whenever the trial is not running or
	// from inside its event callback: the trial itself is touched by one goroutine only.
	snap snapshot
	// pace is a watched trial's pacing (game_watch.go).
	pace pacing
	// saved is when the store last kept the game as this process knows it (its load
	// or its own last save): the next save is kept only over it (store.SaveCourtGame).
	saved time.Time
	kept  string // keptAs of that save
}

type snapshot struct {
	phase      Phase
	turns      []Turn
	verdict    *VerdictRecord
	done       bool
	awaiting   bool
	offered    bool
	addressees []Speaker
	waiting    Side
	transcript *Transcript
	standing   Standing
	debrief    *Debrief
	// two-player games: the invited side's debrief and each side's credibility.
	debrief2 *Debrief
	creds    map[Side]int
}

// snapLocked takes the snapshot; g.mu is held and the trial is not running elsewhere.
func (g *Game) snapLocked() {
	t := g.trial
	g.snap = snapshot{phase: t.Phase(), turns: append([]Turn{}, t.Turns()...), verdict: t.Verdict(), done: t.Done(),
		awaiting: t.Awaiting(), offered: t.RestartOffered(), addressees: []Speaker{}, transcript: t.Transcript(),
		standing: t.Standing(), debrief: t.Debrief(), waiting: t.Waiting()}
	if g.snap.awaiting && g.snap.waiting != "" {
		g.snap.addressees = append(g.snap.addressees, t.floorOf(t.seatOf(g.snap.waiting)).Addressees...)
	}
	if t.TwoPlayers() {
		side := t.Side()
		g.snap.debrief2 = t.DebriefFor(side.Other())
		g.snap.creds = map[Side]int{side: t.CredibilityOf(side), side.Other(): t.CredibilityOf(side.Other())}
	}
}

// gameAsker answers a game's calls from its run while replaying (a call not recorded
// ends the replay) and through the session otherwise.
type gameAsker struct {
	rec       *Recorded
	gate      func(ctx context.Context) error
	replaying bool
	stop      context.CancelFunc
}

func (a *gameAsker) Ask(ctx context.Context, call Call, req *llm.Request) (*llm.Reply, error) {
	if !a.replaying {
		if a.gate != nil {
			if err := a.gate(ctx); err != nil {
				return nil, err
			}
		}
		return a.rec.Ask(ctx, call, req)
	}
	res, err := a.rec.Session.Store.Result(ctx, a.rec.Run, call.Key)
	switch {
	case errors.Is(err, store.ErrNotFound):
		a.stop()
		return nil, context.Canceled
	case err != nil:
		return nil, err
	case res.Err != "":
		// The call failed when the game was played: replay the same failure.
		return nil, fmt.Errorf("%s: %s", call.Model, res.Err)
	}
	reply := res.Reply
	return &reply, nil
}

// replay runs the trial on stored calls only, up to the first call not recorded or
// the defense's floor, going past the failures the player restarted after.
func (g *Game) replay(ctx context.Context) {
	g.mu.Lock()
	defer g.mu.Unlock()
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g.asker.replaying, g.asker.stop = true, cancel
	defer func() { g.asker.replaying, g.asker.stop = false, nil }()
	for {
		err := g.trial.Run(rctx, g.appendLocked)
		if errors.Is(err, ErrRestartOffered) && g.offers < g.state.Restarts {
			g.offers++
			g.trial.Restart()
			continue
		}
		g.snapLocked()
		return
	}
}

// appendLocked records an event; g.mu is held and the event comes from the trial's own
// goroutine, so the trial may be read.
func (g *Game) appendLocked(e Event) {
	g.pushLocked(e)
	if e.Kind != EventDelta {
		g.snapLocked()
	}
	g.notifyLocked()
}

// pushLocked numbers e and logs it. A turn's end or a failure drops the turn's streamed
// pieces: the end carries the whole turn, and a failed turn's text is void (a reply
// cut at the size cap would otherwise stay in memory and go to every new stream).
func (g *Game) pushLocked(e Event) {
	if e.Kind == EventEnd || e.Kind == EventError {
		keep := g.log[:0]
		for _, old := range g.log {
			if (old.Kind == EventDelta || old.Kind == EventReset || old.Kind == EventStatus) && old.Turn == e.Turn && old.Attempt == e.Attempt {
				continue
			}
			keep = append(keep, old)
		}
		clear(g.log[len(keep):])
		g.log = keep
	}
	g.seq++
	e.Seq = g.seq
	g.log = append(g.log, e)
}

func (g *Game) notifyLocked() {
	close(g.changed)
	g.changed = make(chan struct{})
}

// Advance lets the court speak until the defense has the floor, the trial waits to be
// restarted, or it is over, saving the game after every turn. It runs in the caller's
// goroutine; while it runs, Submit and Restart return ErrBusy, and so does a second
// Advance. Advance on a game that
// is waiting for the player returns at once.
func (g *Game) Advance(ctx context.Context) error {
	g.mu.Lock()
	if g.running {
		g.mu.Unlock()
		return ErrBusy
	}
	if g.snap.done || g.snap.offered || (g.snap.awaiting && !g.busy) {
		g.mu.Unlock()
		return nil
	}
	g.busy, g.running = true, true
	if g.state.TwoPlayers {
		// The court speaks live here: a hold the other person called from another
		// process is taken at the end of a line (join.go).
		g.trial.storedHold = g.takeStoredHold
	}
	g.notifyLocked()
	g.mu.Unlock()

	// The trial is advanced outside the lock so that readers see its events as they
	// come; only this goroutine touches the trial while busy.
	var saveErr error
	// The events that hand the floor back (awaiting, a failure offering the restart) are
	// logged only once the game is no longer busy, so a client that acts on them at once
	// is never refused for a court still finishing.
	var held []Event
	// A failure of the session itself (the store cannot write) stops the game with that
	// error instead of being met with a restart as a model's failure is.
	runCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	g.asker.rec.Stop = stop
	err := g.trial.Run(runCtx, func(e Event) {
		g.mu.Lock()
		if e.Kind == EventAwaiting || e.Kind == EventError {
			held = append(held, e)
		} else {
			g.appendLocked(e)
		}
		if e.Kind == EventEnd || e.Kind == EventError {
			if err := g.saveLocked(ctx); err != nil && saveErr == nil {
				saveErr = err
				if errors.Is(err, store.ErrConflict) {
					// Another process moved the game on: its court speaks, not this one.
					stop(err)
				}
			}
		}
		g.mu.Unlock()
		if e.Kind == EventEnd {
			g.waitPace(runCtx)
		}
	})
	if cause := context.Cause(runCtx); err != nil && cause != nil && ctx.Err() == nil {
		err = cause
	}
	afterRun()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.busy, g.running = false, false
	g.trial.storedHold = nil
	for _, e := range held {
		g.pushLocked(e)
	}
	g.snapLocked()
	if errors.Is(err, ErrRestartOffered) {
		g.offers++
	}
	if errors.Is(err, ErrAwaitingDefense) || errors.Is(err, ErrRestartOffered) {
		err = nil
	}
	if err == nil || errors.Is(saveErr, store.ErrConflict) {
		err = saveErr
	}
	if err == nil {
		err = g.saveLocked(ctx)
	}
	g.err = err
	g.notifyLocked()
	return err
}

// afterRun is called between the trial's Run returning and the game settling; tests
// widen that window.
var afterRun = func() {}

// Submit gives the waiting defense its move; call Advance next. It returns ErrBusy
// while the court speaks, ErrOver after the verdict, ErrNotAwaiting when a restart is
// offered instead, and an error naming what is wrong with an unusable move. A move
// accepted makes the game busy at once, so a second move is refused until the court
// waits again.
func (g *Game) Submit(m Move) error { return g.SubmitFor(g.side, m) }

// SubmitFor is Submit for one side: in a two-player game, each person's moves; it
// returns ErrNotYourFloor when the other side has the floor.
func (g *Game) SubmitFor(side Side, m Move) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.busy:
		return ErrBusy
	case g.snap.done:
		return ErrOver
	case !g.snap.awaiting:
		return ErrNotAwaiting
	}
	if err := g.trial.SubmitFor(side, m); err != nil {
		return err
	}
	g.snapLocked()
	g.busy = true
	g.notifyLocked()
	return nil
}

// ErrNoHold: a hold is called only while the court speaks in the interrogation.
var ErrNoHold = errors.New("court: \"Hold it!\" is called while the court speaks in the interrogation")

// Hold calls "Hold it!" while the court speaks: the defense takes the floor at the end
// of the current line. It returns ErrOver after the verdict and ErrNoHold when the
// court is not speaking in the interrogation (the defense has the floor, say).
func (g *Game) Hold(ctx context.Context) error { return g.HoldFor(ctx, g.side) }

// HoldFor is Hold for one side: in a two-player game, either person's. The court of a
// game of two may speak in another process (SpeakingElsewhere: the other person
// moved there); the hold is then recorded in the store, and that process takes it at
// the end of its court's current line as it takes its own (join.go).
func (g *Game) HoldFor(ctx context.Context, side Side) error {
	g.mu.Lock()
	switch {
	case g.snap.done:
		g.mu.Unlock()
		return ErrOver
	case g.snap.phase != PhaseInterrogation:
		g.mu.Unlock()
		return ErrNoHold
	}
	h := g.trial.humanOf(g.trial.seatOf(side))
	switch {
	case h == nil:
		g.mu.Unlock()
		return ErrNoHold
	case g.busy:
		h.Hold() // safe while the trial runs: an atomic flag
		g.mu.Unlock()
		return nil
	case !g.speakingElsewhereLocked():
		g.mu.Unlock()
		return ErrNoHold
	}
	g.mu.Unlock()
	return g.gs.Session.Store.RequestCourtHold(ctx, g.ID, string(side.Or()))
}

// takeStoredHold takes a hold the person playing side called from another process
// (HoldFor), for the court speaking live here (Trial.storedHold). A store that cannot
// be read gives no hold: the court goes on, and the save after its line tells the
// failure.
func (g *Game) takeStoredHold(ctx context.Context, side Side) bool {
	ok, err := g.gs.Session.Store.TakeCourtHold(ctx, g.ID, string(side.Or()))
	return err == nil && ok
}

// Restart starts a failed trial again (the failure was counted); call Advance next.
func (g *Game) Restart(ctx context.Context) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.busy:
		return ErrBusy
	case g.snap.done:
		return ErrOver
	}
	if err := g.trial.Restart(); err != nil {
		return err
	}
	g.snapLocked()
	g.state.Restarts++
	g.busy = true
	g.notifyLocked()
	return g.saveLocked(ctx)
}

// saveLocked writes the game's state and summary to the store; g.mu is held and the
// trial is not running elsewhere.
func (g *Game) saveLocked(ctx context.Context) error {
	g.state.Moves = append([]Move(nil), g.trial.Moves()...)
	g.state.SkipAt = g.trial.Skipped()
	b, err := json.Marshal(g.state)
	if err != nil {
		return err
	}
	rec := &store.CourtGame{ID: g.ID, CaseID: g.state.Case.ID, Title: g.state.Case.Title, Run: g.Run,
		Phase: string(g.trial.Phase()), Turns: len(g.trial.Turns()), State: b}
	if v := g.trial.Verdict(); v != nil {
		rec.Outcome = v.Outcome
	}
	if g.trial.Done() && g.trial.Verdict() == nil {
		rec.Outcome = "abandoned"
	}
	if !g.saved.IsZero() && keptAs(rec) == g.kept {
		// Nothing changed since the last save: writing it again would only tell another
		// process following the game (a person's terminal) that this one moved it.
		return nil
	}
	// The game's state must be kept even when the request that moved it was cancelled.
	at, err := g.gs.Session.Store.SaveCourtGame(context.WithoutCancel(ctx), rec, g.saved)
	if err != nil {
		return err
	}
	g.saved, g.kept = at, keptAs(rec)
	return nil
}

// keptAs is what of a stored game tells one save from another.
func keptAs(rec *store.CourtGame) string {
	return fmt.Sprintf("%s\x00%d\x00%s\x00%s", rec.Phase, rec.Turns, rec.Outcome, rec.State)
}

// GameView is a game as the game API's GET shows it.
type GameView struct {
	GameID          string `json:"game_id"`
	CaseID          string `json:"case_id"`
	Title           string `json:"title"`
	Phase           Phase  `json:"phase"`
	AwaitingDefense bool   `json:"awaiting_defense"`
	// Side is the counsel the person plays; AwaitingPlayer says they have the floor
	// (AwaitingDefense is that, for a defense player).
	Side           Side `json:"side"`
	AwaitingPlayer bool `json:"awaiting_player"`
	// Watch marks a watched trial (no person plays), Paused its pause and DelayMS the
	// pause it makes after every turn.
	Watch bool `json:"watch,omitempty"`
	// TwoPlayers marks a game of two people (the other counsel is invited); Floor is
	// the side whose person has the floor while the game waits for a move.
	TwoPlayers     bool       `json:"two_players,omitempty"`
	Floor          Side       `json:"floor,omitempty"`
	Paused         bool       `json:"paused,omitempty"`
	DelayMS        int        `json:"delay_ms,omitempty"`
	RestartOffered bool       `json:"restart_offered"`
	Busy           bool       `json:"busy"`
	Outcome        *string    `json:"outcome"`
	Seed           int64      `json:"seed"`
	Models         Models     `json:"models"`
	Player         PlayerInfo `json:"player"`
	Turns          []Turn     `json:"turns"`
	// Addressees are whom the defense may name in "to" now.
	Addressees []Speaker `json:"addressees"`
	Error      string    `json:"error,omitempty"`
	// Standing: the turns left, the credibility, what was exposed (ids), the witness
	// on the stand.
	Standing
	// Debrief is how the defense played: after the verdict only.
	Debrief *Debrief `json:"debrief,omitempty"`
	// Two-player games: Credibilities is each side's credibility, Debriefs each
	// side's debrief after the verdict (Debrief is the creator's).
	Credibilities map[Side]int `json:"credibilities,omitempty"`
	Debriefs      []*Debrief   `json:"debriefs,omitempty"`
}

// View is the game as it stands.
func (g *Game) View() GameView {
	g.mu.Lock()
	defer g.mu.Unlock()
	sn := g.snap
	v := GameView{GameID: g.ID, CaseID: g.state.Case.ID, Title: g.state.Case.Title, Phase: sn.phase,
		AwaitingDefense: sn.awaiting && !g.busy && !sn.done, RestartOffered: sn.offered && !g.busy && !sn.done, Busy: g.busy,
		Seed: g.state.Seed, Models: g.state.Models, Player: g.state.Player,
		Turns: append([]Turn{}, sn.turns...), Addressees: []Speaker{}, Standing: sn.standing}
	v.Exposed = slices.Clone(sn.standing.Exposed)
	v.Side, v.Watch, v.Paused, v.DelayMS = g.trial.Side(), g.state.Watch, g.pace.paused, int(g.pace.delay.Milliseconds())
	v.AwaitingPlayer = v.AwaitingDefense
	v.TwoPlayers = g.state.TwoPlayers
	if v.AwaitingPlayer {
		v.Floor = sn.waiting
	}
	if v.TwoPlayers {
		// Each person reads whether the floor is theirs from Floor.
		v.AwaitingDefense = v.AwaitingPlayer && v.Floor == SideDefense
	} else {
		v.AwaitingDefense = v.AwaitingPlayer && v.Side == SideDefense
	}
	if sn.done {
		v.Debrief = sn.debrief
		if sn.debrief2 != nil && sn.debrief != nil {
			v.Debriefs = []*Debrief{sn.debrief, sn.debrief2}
		}
	}
	if sn.creds != nil {
		v.Credibilities = maps.Clone(sn.creds)
	}
	if vr := sn.verdict; vr != nil {
		o := vr.Outcome
		v.Outcome = &o
	}
	if v.AwaitingPlayer {
		v.Addressees = append(v.Addressees, sn.addressees...)
	}
	if g.err != nil {
		v.Error = g.err.Error()
	}
	return v
}

// Case is the game's case record.
func (g *Game) Case() *Case { return g.state.Case }

// Transcript is the game's transcript as it stands (court.md section 4).
func (g *Game) Transcript() *Transcript {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.snap.transcript
}

// Events returns the game's logged events numbered after n (since it was made or
// loaded: a loaded game's log starts with its replayed turns, each a turn and an end)
// and a channel closed when there are more or the game's state changes.
func (g *Game) Events(n int) ([]Event, <-chan struct{}) {
	g.mu.Lock()
	defer g.mu.Unlock()
	i, _ := slices.BinarySearchFunc(g.log, n+1, func(e Event, seq int) int { return e.Seq - seq })
	return slices.Clone(g.log[i:]), g.changed
}

// Done reports whether the trial is over (a verdict, or abandoned).
func (g *Game) Done() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.snap.done
}
