package court

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

// The outcomes of a verdict: win means the goal of the side the Player plays
// (Settings.Side, the defense by default) was met.
const (
	OutcomeWin  = "win"
	OutcomeLoss = "loss"
)

// Models names the model behind each role. Defense is set only when a model plays the
// defense. The summariser and the evaluator of the verdict pipeline are asked of the
// Judge's model.
type Models struct {
	Judge      llm.ModelName `json:"judge"`
	Prosecutor llm.ModelName `json:"prosecutor"`
	Witness    llm.ModelName `json:"witness"`
	Analyzer   llm.ModelName `json:"analyzer"`
	Defense    llm.ModelName `json:"defense,omitempty"`
}

func (m Models) of(a Agent) llm.ModelName {
	switch a {
	case AgentProsecutor:
		return m.Prosecutor
	case AgentWitness:
		return m.Witness
	case AgentAnalyzer:
		return m.Analyzer
	case AgentDefense:
		return m.Defense
	}
	return m.Judge // judge, summary, evaluation
}

// Defaults of Settings.
const (
	DefaultTurnBudget  = 40
	DefaultMaxRestarts = 3
	DefaultReasks      = 2
	// MaxMoveText is the longest defense move, in characters.
	MaxMoveText = 4000
)

// Settings configure a trial.
type Settings struct {
	// TrialID names the trial in transcripts and in every call key; default
	// "<case_id>-s<seed>". Give trials that differ in anything but case and seed (the
	// models, say) their own ids, or a store-backed Asker will mix their replies.
	TrialID string
	Models  Models
	// TurnBudget is how many turns the introduction and interrogation may take before
	// the court moves to closing; default 40, at least 3 (the introduction).
	TurnBudget int
	// MaxRestarts is how many times a failed trial starts again; 0 means 3, negative
	// means never.
	MaxRestarts int
	// Reasks is how many more times an unusable routing tag or evaluation is asked for;
	// 0 means 2, negative means none.
	Reasks int
	// MaxTokens bounds every reply when set; MaxTokensBy overrides it per agent.
	MaxTokens   int
	MaxTokensBy map[Agent]int
	// OfferRestart makes Run stop after a failure that starts the trial again, returning
	// ErrRestartOffered, until Restart is called: a player sees what went wrong and
	// chooses to go on. Simulations leave it off and restart at once.
	OfferRestart bool
	// Side is the counsel the trial's Player plays: the defense (the default) or the
	// prosecution. Playing the prosecution, the defense is the model Models.Defense
	// (which must be set); the fair floor, the credibility, the cross-examination, the
	// verdict's outcome and the debrief are the Player's side's.
	Side Side
	// TwoPlayers: the other counsel is a second person too (two.go), whose moves come
	// through SubmitFor; no model plays either counsel.
	TwoPlayers bool
}

func (s Settings) withDefaults(c *Case, seed int64) (Settings, error) {
	if s.TrialID == "" {
		s.TrialID = fmt.Sprintf("%s-s%d", c.ID, seed)
	}
	switch {
	case s.TurnBudget == 0:
		s.TurnBudget = DefaultTurnBudget
	case s.TurnBudget < len(IntroductionOrder):
		return s, fmt.Errorf("turn budget %d: want at least %d (the introduction)", s.TurnBudget, len(IntroductionOrder))
	}
	switch {
	case s.MaxRestarts == 0:
		s.MaxRestarts = DefaultMaxRestarts
	case s.MaxRestarts < 0:
		s.MaxRestarts = 0
	}
	switch {
	case s.Reasks == 0:
		s.Reasks = DefaultReasks
	case s.Reasks < 0:
		s.Reasks = 0
	}
	return s, nil
}

// Call identifies one model call of a trial. Key is stable and unique within the trial:
// "<trial>/a<attempt>/t<turn>/<agent>", with "/r<try>" for a re-ask; a trial run again
// makes the same calls under the same keys, so a store keyed by them resumes it.
type Call struct {
	Key     string
	Agent   Agent
	Model   llm.ModelName
	Attempt int
	// Turn is the 1-based turn the call is for: the one being spoken, or for the
	// analyzer the one being routed.
	Turn int
	// Try is 0 for the first ask and n for the n-th re-ask.
	Try int
}

// Asker makes a trial's model calls. A reply given back from a store or cache need not
// stream: the trial then reports its text as one delta.
type Asker interface {
	Ask(ctx context.Context, call Call, req *llm.Request) (*llm.Reply, error)
}

// AskerFunc adapts a function to an Asker.
type AskerFunc func(ctx context.Context, call Call, req *llm.Request) (*llm.Reply, error)

// Ask implements Asker.
func (f AskerFunc) Ask(ctx context.Context, call Call, req *llm.Request) (*llm.Reply, error) {
	return f(ctx, call, req)
}

// Direct is an Asker that sends every call straight to the model named for its role.
type Direct map[llm.ModelName]llm.Model

// Ask implements Asker.
func (d Direct) Ask(ctx context.Context, call Call, req *llm.Request) (*llm.Reply, error) {
	m, ok := d[call.Model]
	if !ok {
		return nil, fmt.Errorf("no model %q for the %s", call.Model, call.Agent)
	}
	return m.Generate(ctx, req)
}

// Turn is one turn of a court transcript: check's turn and its phase, and what the
// cross-examination adds (readers of transcripts ignore those fields).
type Turn struct {
	check.Turn
	Phase Phase `json:"phase"`
	// Statement numbers a witness's statement in the interrogation (from 1, per
	// attempt): the number the defense names to press it.
	Statement int `json:"statement,omitempty"`
	// Present is the item of evidence the defense presented with this turn; Press is
	// the statement it pressed.
	Present string `json:"present,omitempty"`
	Press   int    `json:"press,omitempty"`
	// Ruling is the Judge's ruling on the defense's objection: sustained or overruled.
	Ruling string `json:"ruling,omitempty"`
}

// Reason is why a trial had to start again (spec section 3).
type Reason string

// The failures that restart a trial.
const (
	// ReasonEmpty: a role's reply was empty.
	ReasonEmpty Reason = "empty"
	// ReasonLoop: a role repeated one of the last three turns word for word.
	ReasonLoop Reason = "loop"
	// ReasonFreeze: a model still failed after its retries.
	ReasonFreeze Reason = "freeze"
	// ReasonTagging: the analyzer gave no usable routing tag after its re-asks.
	ReasonTagging Reason = "tagging"
	// ReasonBudget: twice the turn budget was spent without a verdict.
	ReasonBudget Reason = "budget"
	// ReasonVerdict: the evaluation gave no usable outcome after its re-asks.
	ReasonVerdict Reason = "verdict"
)

// Restart records one failure of a trial.
type Restart struct {
	Reason Reason `json:"reason"`
	// Turn is the 1-based turn of the failed attempt it happened at.
	Turn int `json:"turn"`
	// Attempt is the attempt that failed, 0 for the first.
	Attempt int    `json:"attempt"`
	Message string `json:"message"`
}

// failure is a catastrophic failure of the current attempt.
type failure struct {
	reason Reason
	turn   int
	msg    string
}

func (f *failure) Error() string { return fmt.Sprintf("%s at turn %d: %s", f.reason, f.turn, f.msg) }

// plain says what went wrong in a sentence a player understands; the technical cause
// stays in the restart record.
func (f *failure) plain(again bool) string {
	who := "the court"
	if i := strings.Index(f.msg, "'s "); strings.HasPrefix(f.msg, "the ") && i > 4 && !strings.Contains(f.msg[4:i], " ") {
		who = "the " + f.msg[4:i]
	}
	var what string
	switch f.reason {
	case ReasonFreeze:
		what = fmt.Sprintf("The model playing %s did not answer, even after several tries.", who)
	case ReasonEmpty:
		what = fmt.Sprintf("The model playing %s said nothing.", who)
	case ReasonLoop:
		what = fmt.Sprintf("The model playing %s repeated itself word for word.", who)
	case ReasonTagging:
		what = "The court's clerk could not tell who speaks next."
	case ReasonVerdict:
		what = "The court could not put its verdict into words it can read."
	default:
		what = "The trial ran far past its turns without a verdict."
	}
	if again {
		return what + " The trial must start again with a new seed."
	}
	return what + " The trial is abandoned."
}

// VerdictRecord is the outcome of the verdict pipeline, kept with the trial.
type VerdictRecord struct {
	Outcome       string `json:"outcome"`
	Justification string `json:"justification"`
	Summary       string `json:"summary"`
}

// EventKind is the kind of a trial event.
type EventKind string

// The events of a trial; all but reset mirror the game API's SSE events (court.md
// section 6).
const (
	EventTurn     EventKind = "turn"
	EventDelta    EventKind = "delta"
	EventReset    EventKind = "reset"
	EventEnd      EventKind = "end"
	EventAwaiting EventKind = "awaiting"
	EventVerdict  EventKind = "verdict"
	EventError    EventKind = "error"
	// EventExposed: a presented item exposed a contradiction (court.md section 6).
	EventExposed EventKind = "exposed"
	// EventCredibility: the defense's credibility changed (court.md section 6).
	EventCredibility EventKind = "credibility"
	// EventHold: the defense's "Hold it!" took the floor at the end of a line.
	EventHold EventKind = "hold"
	// EventWarning: few turns are left before closing; the Judge warns the defense.
	EventWarning EventKind = "warning"
	// EventStatus: a model is being asked again after a failure (not a failure of the
	// trial: Restart is false).
	EventStatus EventKind = "status"
)

// Event is one step of a trial reported to the caller. Attempt and Turn (1-based) place
// it, so a client that sees a trial replayed can tell events it already has.
type Event struct {
	Kind EventKind
	// Seq numbers a game's events from 1, in order (Game sets it; a trial leaves it 0).
	// A game's log drops the streamed pieces of a turn once the turn ends or fails, so
	// Seq, not the position in the log, is what a client resumes after.
	Seq     int
	Attempt int
	Turn    int
	// Speaker, Role and Phase describe the turn (turn events).
	Speaker string
	Role    check.Role
	Phase   Phase
	// Text is a piece of streamed text (delta events).
	Text string
	// Whole is the finished turn (end events).
	Whole *Turn
	// Outcome and Justification are the verdict (verdict events).
	Outcome       string
	Justification string
	// Message and Restart describe a failure (error events): Restart says whether the
	// trial starts again. Message is a plain sentence for the player (status and
	// warning events too); Detail is the technical cause.
	Message string
	Detail  string
	Restart bool
	// Side is the counsel an exposed, credibility or hold event is about, in a
	// two-player trial ("" otherwise).
	Side Side
	// Exposure is what a presented item exposed (exposed events).
	Exposure *Exposure
	// Value is the credibility (credibility events) or the turns left (warning events).
	Value int
}

// Payload is the event's data as the game API sends it.
func (e Event) Payload() any {
	switch e.Kind {
	case EventTurn:
		return map[string]any{"speaker": e.Speaker, "role": e.Role, "phase": e.Phase}
	case EventDelta:
		return map[string]any{"text": e.Text}
	case EventEnd:
		return map[string]any{"turn": e.Whole}
	case EventVerdict:
		return map[string]any{"outcome": e.Outcome, "justification": e.Justification}
	case EventError:
		return map[string]any{"message": e.Message, "restart": e.Restart, "detail": e.Detail}
	case EventExposed:
		return map[string]any{"contradiction": e.Exposure.Contradiction, "witness": e.Exposure.Witness, "evidence": e.Exposure.Evidence}
	case EventCredibility:
		return map[string]any{"value": e.Value}
	case EventWarning:
		return map[string]any{"turns_left": e.Value, "message": e.Message}
	case EventStatus:
		return map[string]any{"message": e.Message, "restart": false}
	}
	return map[string]any{}
}

// ErrAwaitingDefense is returned by Run when the defense has the floor and no move has
// come yet (a Player's Next returns it for the same reason).
var ErrAwaitingDefense = errors.New("court: awaiting the defense")

// ErrRestartOffered is returned by Run, with Settings.OfferRestart, after a failure that
// starts the trial again: call Restart, then Run.
var ErrRestartOffered = errors.New("court: the trial failed and waits to be restarted")

// ErrNotAwaiting is returned by Submit when the defense does not have the floor.
var ErrNotAwaiting = errors.New("court: the defense does not have the floor")

// attempt is the state of one attempt at the trial: the FSM.
type attempt struct {
	n     int
	seed  int64
	phase Phase
	turns []Turn
	// next is who speaks next in the interrogation.
	next Speaker
	// addressedBy is who gave the floor to the witness speaking next.
	addressedBy  Speaker
	closing      int
	defenseTurns int

	// The fair floor (see the package doc): used counts the turns charged against the
	// budget, courtRun the court's turns since the defense last spoke.
	used     int
	courtRun int
	// warnDue: the Judge warns the defense at its next turn; warned: it has.
	warnDue, warned bool
	// ending: the defense's credibility is spent and the Judge ends the interrogation.
	ending bool

	// The cross-examination: stand is the witness who spoke last, statements counts
	// witness statements, exposed lists the contradictions exposed (in order).
	stand   Speaker
	said    []statement
	exposed []Exposure
	cred    int
	// objection: the Judge rules on the defense's objection next. reply: what the
	// witness next on the floor answers (a presentation or a press).
	objection bool
	reply     *witnessCue
	tally     tally
	// Two people, one trial (two.go): objector is the counsel whose objection the Judge
	// rules on; cred2, tally2 and turns2 are the invited counsel's; run counts, per
	// person, the court's turns since that person last spoke in the interrogation (the
	// fair floor: a person who waited MaxCourtRun of them gets the floor next, after a
	// court turn or the other person's speech; a presentation, press or objection is
	// answered first).
	objector Speaker
	cred2    int
	tally2   tally
	turns2   int
	run      map[Speaker]int
}

// statement is a witness statement: who made it, at which turn (1-based).
type statement struct {
	by   Speaker
	turn int
}

// witnessCue is what the witness answering the defense's present or press move is
// asked to answer.
type witnessCue struct {
	witness  Speaker
	evidence string         // presented item
	hit      *Contradiction // what it exposed, nil for a miss
	press    int            // the pressed statement's turn (1-based), 0 for none
}

// tally counts the defense's play for the debrief.
type tally struct {
	presented, misses, sustained, overruled, holds int
}

// Exposure is a contradiction the defense exposed: ids only, which the player may see
// (court.md section 6, event exposed).
type Exposure struct {
	Contradiction string `json:"contradiction"`
	Witness       string `json:"witness"`
	Evidence      string `json:"evidence"`
	// Side is the counsel who exposed it, in a two-player trial ("" otherwise).
	Side Side `json:"side,omitempty"`
}

// The fair floor and the credibility of the defense (see the package doc).
const (
	// MaxCourtRun is how many court turns the defense waits for the floor at most.
	MaxCourtRun = 4
	// WarnTurns: the Judge warns the defense when this many turns are left.
	WarnTurns = 5
	// Credibility: where it starts, what a miss and an overruled objection cost and
	// what an exposed contradiction gives back.
	StartCredibility = 100
	MissCost         = 20
	OverruledCost    = 10
	HitGain          = 10
)

// AttemptSeed is the seed of an attempt: the trial's own for the first, then one
// derived from it and the attempt number (splitmix64), so restarts vary but replay.
func AttemptSeed(seed int64, attempt int) int64 {
	if attempt == 0 {
		return seed
	}
	x := uint64(seed) + uint64(attempt)*0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	x ^= x >> 31
	return int64(x % 1_000_000)
}

// Trial is one trial of a case: a state machine advanced by Run, one turn at a time.
// It is not safe for concurrent use; a game server holds one lock per trial.
type Trial struct {
	c    *Case
	g    *Graph
	seed int64
	s    Settings
	ask  Asker
	def  Player
	// seat is the speaker def plays: Defense, or Prosecutor.
	seat Speaker
	// other plays the other counsel in a two-player trial (Settings.TwoPlayers), nil
	// otherwise.
	other *Human
	// storedHold, while set, takes a hold the person playing a side called from
	// another process (Game: from the store, while this process lets the court speak
	// live): nil in a replay, which must leave such a hold for the live court.
	storedHold func(ctx context.Context, side Side) bool
	// skip: move to closing at the next turn of the interrogation (Skip).
	skip atomic.Bool
	// skipAt is the turn count the skip took effect at (0: none), so a trial rebuilt
	// with SkipAt replays it.
	skipAt int

	cur      *attempt
	last     []Turn // the turns of the latest attempt that had any
	restarts []Restart
	moves    []Move
	verdict  *VerdictRecord
	debrief  *Debrief
	debrief2 *Debrief // the invited counsel's, in a two-player trial
	done     bool
	awaiting bool
	offered  bool
	emit     func(Event)
}

// NewTrial prepares a trial of c with the given seed. def plays the defense: a *Human
// (moves arrive through Submit), a *Script, or ModelDefense (then s.Models.Defense
// must be set).
func NewTrial(c *Case, seed int64, s Settings, ask Asker, def Player) (*Trial, error) {
	s, err := s.withDefaults(c, seed)
	if err != nil {
		return nil, err
	}
	if _, ok := def.(ModelDefense); ok && s.Models.Defense == "" && s.Side.Or() == SideDefense {
		return nil, errors.New("a model defense needs Models.Defense")
	}
	switch s.Side.Or() {
	case SideDefense:
	case SideProsecution:
		if s.Models.Defense == "" && !s.TwoPlayers {
			return nil, errors.New("playing the prosecution needs a model for the defense (Models.Defense)")
		}
	default:
		return nil, fmt.Errorf("side %q: want defense or prosecution", s.Side)
	}
	t := &Trial{c: c, g: NewGraph(c), seed: seed, s: s, ask: ask, def: def, seat: s.Side.Speaker()}
	if s.TwoPlayers {
		t.other = NewHuman()
	}
	t.cur = t.newAttempt(0)
	return t, nil
}

func (t *Trial) newAttempt(n int) *attempt {
	return &attempt{n: n, seed: AttemptSeed(t.seed, n), phase: PhaseIntroduction, cred: StartCredibility, cred2: StartCredibility, run: map[Speaker]int{}}
}

// RestartOffered says whether Run stopped after a failure and waits for Restart.
func (t *Trial) RestartOffered() bool { return t.offered }

// Restart lets a trial that stopped after a failure (Settings.OfferRestart) start again
// at the next Run; it returns ErrNotAwaiting when no restart is offered.
func (t *Trial) Restart() error {
	if !t.offered {
		return ErrNotAwaiting
	}
	t.offered = false
	return nil
}

// Done says whether the trial is over: a verdict, or abandoned after its restarts.
func (t *Trial) Done() bool { return t.done }

// Awaiting says whether the trial stopped for the defense's move.
func (t *Trial) Awaiting() bool { return t.awaiting && !t.done }

// Phase is the current attempt's phase.
func (t *Trial) Phase() Phase { return t.cur.phase }

// Turns are the turns of the current attempt so far. Callers must not modify them.
func (t *Trial) Turns() []Turn { return t.cur.turns }

// Moves are the defense's moves the trial has used, in order, across attempts: with the
// case, the seed, the settings and the same Asker answers, NewHuman(moves...) rebuilds
// the trial exactly where it stood.
func (t *Trial) Moves() []Move { return t.moves }

// Verdict is the verdict pipeline's result, nil before it has run.
func (t *Trial) Verdict() *VerdictRecord { return t.verdict }

// Restarts lists every failure so far.
func (t *Trial) Restarts() []Restart { return t.restarts }

// Run advances the trial until it is over (nil), the defense has the floor and no move
// has come (ErrAwaitingDefense: Submit one and Run again), or ctx ends or a defense move
// is unusable (that error). A model's failure is not an error of Run: the trial restarts,
// and is over with completed false after its restarts. emit, which may be nil, sees
// every event.
func (t *Trial) Run(ctx context.Context, emit func(Event)) error {
	t.emit = emit
	defer func() { t.emit = nil }()
	for !t.done {
		if t.offered {
			return ErrRestartOffered
		}
		err := t.step(ctx)
		var f *failure
		switch {
		case errors.As(err, &f) && ctx.Err() == nil:
			t.fail(f)
			t.offered = t.s.OfferRestart && !t.done
		case err != nil:
			if errors.Is(err, ErrAwaitingDefense) {
				t.awaiting = true
				t.event(Event{Kind: EventAwaiting, Turn: len(t.cur.turns) + 1})
			}
			return err
		}
	}
	return nil
}

func (t *Trial) event(e Event) {
	if t.emit != nil {
		e.Attempt = t.cur.n
		t.emit(e)
	}
}

// fail records a failure and starts the trial again, or abandons it.
func (t *Trial) fail(f *failure) {
	t.restarts = append(t.restarts, Restart{Reason: f.reason, Turn: f.turn, Attempt: t.cur.n, Message: f.msg})
	again := len(t.restarts) <= t.s.MaxRestarts
	t.event(Event{Kind: EventError, Turn: f.turn, Message: f.plain(again), Detail: f.Error(), Restart: again})
	if len(t.cur.turns) > 0 {
		t.last = t.cur.turns
	}
	if !again {
		t.done = true
		return
	}
	t.cur = t.newAttempt(t.cur.n + 1)
}

// speakerNow is who has the floor.
func (a *attempt) speakerNow() Speaker {
	switch a.phase {
	case PhaseIntroduction:
		return IntroductionOrder[len(a.turns)]
	case PhaseClosing:
		return ClosingOrder[a.closing]
	case PhaseVerdict:
		return Judge
	}
	return a.next
}

// step produces one turn and passes the floor.
func (t *Trial) step(ctx context.Context) error {
	a := t.cur
	n := len(a.turns) + 1
	if a.used >= 2*t.s.TurnBudget || len(a.turns) >= 3*t.s.TurnBudget {
		return &failure{ReasonBudget, n, fmt.Sprintf("%d turns without a verdict", len(a.turns))}
	}
	if a.phase == PhaseVerdict {
		return t.verdictStage(ctx)
	}
	if a.phase == PhaseInterrogation && (t.skip.Load() || (t.skipAt > 0 && len(a.turns) >= t.skipAt)) {
		a.phase, a.reply, a.objection = PhaseClosing, nil, false
		t.skipAt = len(a.turns)
	}
	sp := a.speakerNow()
	var turn Turn
	var move *Move
	switch {
	case t.plays(sp):
		m, text, err := t.playerTurn(ctx, sp)
		if err != nil {
			return err
		}
		move = &m
		turn = t.newTurn(sp, text)
		turn.Present, turn.Press = m.Evidence, m.Statement
	case sp == Judge && a.objection && a.phase == PhaseInterrogation:
		var err error
		if turn, err = t.ruleTurn(ctx); err != nil {
			return err
		}
	default:
		text, err := t.roleTurn(ctx, sp, t.cueRequest(sp))
		if err != nil {
			return err
		}
		turn = t.newTurn(sp, text)
		if sp.IsWitness() && a.phase == PhaseInterrogation {
			a.said = append(a.said, statement{by: sp, turn: n})
			turn.Statement = len(a.said)
			a.stand = sp
		}
		if sp == Judge && a.warnDue {
			a.warnDue, a.warned = false, true
		}
	}
	a.turns = append(a.turns, turn)
	t.charge(sp)
	t.event(Event{Kind: EventEnd, Turn: n, Whole: &turn})
	if turn.Ruling == RulingOverruled {
		t.credit(a.objector, -OverruledCost)
	}
	if move != nil && a.phase == PhaseInterrogation {
		switch move.Kind {
		case MovePresent:
			t.present(sp, *move)
		case MovePress:
			a.reply = t.pressCue(move.Statement)
		}
	}
	return t.route(ctx, sp, move)
}

// charge counts sp's turn against the budget (see the package doc): every turn of the
// introduction and every defense turn costs one; of the court's turns in the
// interrogation, the first after a defense turn (the reply the defense is owed) is
// free and each one after it costs one.
func (t *Trial) charge(sp Speaker) {
	a := t.cur
	switch {
	case a.phase == PhaseIntroduction:
		a.used++
	case a.phase != PhaseInterrogation:
		return
	case t.plays(sp):
		a.used++
		a.courtRun = 0
	default:
		if a.courtRun > 0 {
			a.used++
		}
		a.courtRun++
	}
	if a.phase == PhaseInterrogation {
		if t.plays(sp) {
			a.run[sp] = 0
		} else {
			for _, h := range t.humans() {
				a.run[h]++
			}
		}
	}
	if left := t.s.TurnBudget - a.used; a.phase == PhaseInterrogation && !a.warned && !a.warnDue && left <= WarnTurns && left > 0 {
		a.warnDue = true
		t.event(Event{Kind: EventWarning, Turn: len(a.turns), Value: left,
			Message: fmt.Sprintf("Only %d turns are left before closing statements.", left)})
	}
}

// Skip makes the trial move to closing statements, and so to its verdict, at its next
// turn in the interrogation (a watched trial's "skip to the verdict"). Safe to call
// from any goroutine while the trial runs.
func (t *Trial) Skip() { t.skip.Store(true) }

// SkipAt makes a rebuilt trial skip to closing where it did before (Skipped); call it
// before Run.
func (t *Trial) SkipAt(n int) { t.skipAt = n }

// Skipped is the number of turns after which a skip sent the trial to closing, 0 for
// none. Read it only while the trial is not running (or from its event callback).
func (t *Trial) Skipped() int { return t.skipAt }

// Side is the counsel the trial's Player plays.
func (t *Trial) Side() Side { return t.s.Side.Or() }

// TurnsLeft is how many turns the interrogation has left before closing.
func (t *Trial) TurnsLeft() int { return max(0, t.s.TurnBudget-t.cur.used) }

// credit changes the credibility of the counsel sp by d, within 0 to 100, and reports it.
func (t *Trial) credit(sp Speaker, d int) {
	a := t.cur
	cred := t.credOf(sp)
	c := min(StartCredibility, max(0, *cred+d))
	if c == *cred {
		return
	}
	*cred = c
	t.event(Event{Kind: EventCredibility, Turn: len(a.turns), Value: c, Side: t.eventSide(sp)})
}

// present decides what the defense's presenting m.Evidence to the witness on the
// stand exposes, from the case record alone (Case.Expose), and cues the witness.
func (t *Trial) present(sp Speaker, m Move) {
	a := t.cur
	tl := t.tallyOf(sp)
	tl.presented++
	cue := &witnessCue{witness: a.stand, evidence: m.Evidence}
	ids := make([]string, len(a.exposed))
	for i, e := range a.exposed {
		ids[i] = e.Contradiction
	}
	x, ok, err := t.c.ExposeFor(t.sideOf(sp), a.stand.WitnessID(), m.Evidence, ids)
	switch {
	case err != nil || !ok:
		tl.misses++
		t.credit(sp, -MissCost)
	default:
		cue.hit = &x
		e := Exposure{Contradiction: x.ID, Witness: x.Witness, Evidence: m.Evidence, Side: t.eventSide(sp)}
		a.exposed = append(a.exposed, e)
		t.event(Event{Kind: EventExposed, Turn: len(a.turns), Exposure: &e, Side: e.Side})
		t.credit(sp, HitGain)
	}
	a.reply = cue
}

// pressCue cues the witness who made statement n to give more detail about it.
func (t *Trial) pressCue(n int) *witnessCue {
	if n < 1 || n > len(t.cur.said) {
		return nil // CheckMove refused it
	}
	st := t.cur.said[n-1]
	return &witnessCue{witness: st.by, press: st.turn}
}

// The rulings on an objection.
const (
	RulingSustained = "sustained"
	RulingOverruled = "overruled"
)

// ruleTurn is the Judge's turn after the defense's objection: the Judge's model first
// rules in a structured reply (rulingRequest; a reply that cannot be read is asked
// once more, then counts as overruled), then says the ruling in its own words.
func (t *Trial) ruleTurn(ctx context.Context) (Turn, error) {
	a := t.cur
	a.objection = false
	ruling, err := t.rule(ctx, len(a.turns)+1)
	if err != nil {
		return Turn{}, err
	}
	if ruling == RulingSustained {
		t.tallyOf(a.objector).sustained++
	} else {
		t.tallyOf(a.objector).overruled++
		if *t.credOf(a.objector) <= OverruledCost {
			a.ending = true
		}
	}
	v := t.view(Judge)
	v.ruling = ruling
	text, err := t.roleTurn(ctx, Judge, roleRequest(v))
	if err != nil {
		return Turn{}, err
	}
	if v.warn {
		a.warnDue, a.warned = false, true
	}
	turn := t.newTurn(Judge, text)
	turn.Ruling = ruling
	return turn, nil
}

// rule asks the Judge's model for its ruling on the objection of the last turn.
func (t *Trial) rule(ctx context.Context, n int) (string, error) {
	req := rulingRequest(t.view(Judge))
	t.bound(AgentRuling, req)
	for try := 0; try <= 1; try++ {
		reply, err := t.ask.Ask(ctx, t.call(AgentRuling, n, try), req)
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			return "", &failure{ReasonFreeze, n, fmt.Sprintf("the judge's model failed to rule: %v", err)}
		}
		if r, ok := ParseRuling(reply.Text); ok {
			return r, nil
		}
		req = reask(req, reply.Text, `That ruling cannot be read. Answer with only the JSON object {"ruling": "sustained" or "overruled", "reason": "…"}.`)
	}
	return RulingOverruled, nil
}

var rulingTag = regexp.MustCompile(`(?i)<\s*ruling\s*[:=]\s*(sustained|overruled)\s*>`)

// ParseRuling reads the Judge's structured ruling: a JSON object {"ruling":
// "sustained" | "overruled", …} (in a code fence or prose around one object too), or
// the tag <Ruling: sustained>. ok is false for anything else.
func ParseRuling(text string) (ruling string, ok bool) {
	s := text
	if i, j := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}'); i >= 0 && j > i {
		var r struct {
			Ruling string `json:"ruling"`
		}
		if json.Unmarshal([]byte(s[i:j+1]), &r) == nil {
			switch x := strings.ToLower(strings.TrimSpace(r.Ruling)); x {
			case RulingSustained, RulingOverruled:
				return x, true
			}
			return "", false
		}
	}
	if m := rulingTag.FindStringSubmatch(text); m != nil {
		return strings.ToLower(m[1]), true
	}
	return "", false
}

// cueRequest is the request of sp's turn when the defense's move cued it (a witness
// answering a presentation or a press), nil for the role's usual request.
func (t *Trial) cueRequest(sp Speaker) *llm.Request {
	a := t.cur
	cue := a.reply
	if cue == nil || cue.witness != sp {
		return nil
	}
	a.reply = nil
	v := t.view(sp)
	switch {
	case cue.hit != nil:
		prior := v.exposed[:len(v.exposed)-1] // the request adds the one just exposed
		v.exposed = prior
		return exposedRequest(v, *cue.hit, cue.evidence)
	case cue.evidence != "":
		v.presented = cue.evidence
	default:
		v.pressed = cue.press
	}
	return roleRequest(v)
}

func (t *Trial) newTurn(sp Speaker, text string) Turn {
	role := check.RoleJudge
	switch classOf(sp) {
	case classProsecutor:
		role = check.RoleProsecutor
	case classDefense:
		role = check.RoleDefense
	case classWitness:
		role = check.RoleWitness
	}
	return Turn{Turn: check.Turn{Speaker: t.g.Name(sp), Role: role, Text: text, Player: t.plays(sp)}, Phase: t.cur.phase}
}

// route passes the floor after sp's turn: the FSM, with the analyzer as its one
// nondeterministic input, and the fair floor's rules before it.
func (t *Trial) route(ctx context.Context, sp Speaker, move *Move) error {
	a := t.cur
	if move != nil && move.Kind == MoveRest && a.phase != PhaseClosing {
		a.phase = PhaseClosing
		return nil
	}
	switch a.phase {
	case PhaseIntroduction:
		if len(a.turns) == len(IntroductionOrder) {
			a.phase, a.next = PhaseInterrogation, Judge
			t.budgetCheck(Judge)
		}
		return nil
	case PhaseClosing:
		a.closing++
		if a.closing == len(ClosingOrder) {
			a.phase = PhaseVerdict
		}
		return nil
	}
	if a.ending && sp == Judge {
		// The Judge has ended the interrogation: the defense's credibility is spent.
		a.phase = PhaseClosing
		return nil
	}
	if t.budgetCheck(sp) {
		return nil
	}
	if t.plays(sp) && *t.credOf(sp) == 0 {
		a.ending, a.reply, a.objection = true, nil, false
		a.next = Judge
		return nil
	}
	// The fair floor comes before a hold: the person who waited it out speaks first,
	// and the hold, still called, is taken at the end of their line.
	due := t.waitedOut(sp)
	fair := due != "" && (!t.plays(sp) || move == nil || move.Kind == MoveSpeak)
	if !fair {
		if held := t.holdBy(ctx, sp); held != "" {
			a.next = held
			return nil
		}
	}
	switch {
	case fair:
		a.next = due
		return nil
	case !t.plays(sp) && sp != Judge && a.warnDue:
		a.next = Judge
		return nil
	case sp.IsWitness():
		a.next = a.addressedBy
		return nil
	case move != nil && move.Kind == MoveObject:
		a.next = Judge
		a.objection, a.objector = true, sp
		return nil
	case move != nil && (move.Kind == MovePresent || move.Kind == MovePress):
		a.next = a.reply.witness
	case move != nil && move.To != "":
		a.next = move.To
	default:
		next, err := t.analyze(ctx, sp)
		if err != nil {
			return err
		}
		if next == Verdict {
			a.phase = PhaseClosing
			return nil
		}
		a.next = next
	}
	if a.next.IsWitness() {
		a.addressedBy = sp
	}
	return nil
}

// takeHold says whether the person playing sp called "Hold it!" during the turn just
// ended, here or (storedHold) from another process, and records it as a move (so the
// trial replays).
func (t *Trial) takeHold(ctx context.Context, sp Speaker) bool {
	h := t.humanOf(sp)
	if h == nil {
		return false
	}
	var stored func() bool
	if t.storedHold != nil {
		stored = func() bool { return t.storedHold(ctx, t.sideOf(sp)) }
	}
	if !h.takeHold(len(t.cur.turns), stored) {
		return false
	}
	m := Move{Kind: MoveHold, Turn: len(t.cur.turns)}
	if sp != t.seat {
		m.Side = t.sideOf(sp)
	}
	t.moves = append(t.moves, m)
	t.tallyOf(sp).holds++
	t.event(Event{Kind: EventHold, Turn: len(t.cur.turns), Side: t.eventSide(sp)})
	return true
}

// budgetCheck moves an interrogation whose turn budget is spent to closing, but never
// straight after a defense turn: the defense's last question is answered first.
func (t *Trial) budgetCheck(sp Speaker) bool {
	a := t.cur
	if a.phase == PhaseInterrogation && !t.plays(sp) && a.used >= t.s.TurnBudget {
		a.phase = PhaseClosing
		return true
	}
	return false
}

// bound sets the max_tokens of a's request, when the settings give one.
func (t *Trial) bound(a Agent, req *llm.Request) {
	if n := t.s.MaxTokensBy[a]; n > 0 {
		req.MaxTokens = n
	} else if t.s.MaxTokens > 0 {
		req.MaxTokens = t.s.MaxTokens
	}
}

func (t *Trial) call(a Agent, turn, try int) Call {
	key := fmt.Sprintf("%s/a%d/t%d/%s", t.s.TrialID, t.cur.n, turn, a)
	if try > 0 {
		key += fmt.Sprintf("/r%d", try)
	}
	return Call{Key: key, Agent: a, Model: t.s.Models.of(a), Attempt: t.cur.n, Turn: turn, Try: try}
}

func (t *Trial) view(sp Speaker) *turnView {
	a := t.cur
	v := &turnView{c: t.c, g: t.g, seed: a.seed, phase: a.phase, turns: a.turns, speaker: sp,
		addressedBy: a.addressedBy, turnsLeft: t.s.TurnBudget - a.used, warn: a.warnDue && sp == Judge, ending: a.ending && sp == Judge,
		side: t.s.Side.Or()}
	for _, e := range a.exposed {
		v.exposed = append(v.exposed, e.Contradiction)
	}
	return v
}

func agentOf(sp Speaker) Agent {
	switch classOf(sp) {
	case classProsecutor:
		return AgentProsecutor
	case classWitness:
		return AgentWitness
	case classDefense:
		return AgentDefense
	}
	return AgentJudge
}

// roleTurn asks the model of sp's role for its turn, streaming it; req, when set,
// replaces the role's usual request.
func (t *Trial) roleTurn(ctx context.Context, sp Speaker, req *llm.Request) (string, error) {
	if req == nil {
		req = roleRequest(t.view(sp))
	}
	t.bound(agentOf(sp), req)
	n := len(t.cur.turns) + 1
	text, err := t.stream(ctx, t.call(agentOf(sp), n, 0), req, sp)
	if err != nil {
		return "", err
	}
	if text == "" {
		return "", &failure{ReasonEmpty, n, fmt.Sprintf("the %s's reply was empty", agentOf(sp))}
	}
	if t.repeats(text) {
		return "", &failure{ReasonLoop, n, fmt.Sprintf("the %s repeated a recent turn word for word", agentOf(sp))}
	}
	return text, nil
}

// stream asks for a turn's text, reporting it as it arrives. A reply that did not
// stream (from a cache) or whose stream does not match it (a retry after a partial
// stream) is reported whole, after a reset when anything was already shown.
func (t *Trial) stream(ctx context.Context, call Call, req *llm.Request, sp Speaker) (string, error) {
	turn := t.newTurn(sp, "")
	t.event(Event{Kind: EventTurn, Turn: call.Turn, Speaker: turn.Speaker, Role: turn.Role, Phase: turn.Phase})
	var shown strings.Builder
	req.OnDelta = func(s string) {
		shown.WriteString(s)
		t.event(Event{Kind: EventDelta, Turn: call.Turn, Text: s})
	}
	// The retry wrapper calls OnReset before it asks again: the cut attempt's text is
	// void, so the page drops it at once rather than when the whole reply arrives.
	// It is called only before a retry: the player is told the court is still at it.
	req.OnReset = func() {
		if shown.Len() > 0 {
			shown.Reset()
			t.event(Event{Kind: EventReset, Turn: call.Turn})
		}
		t.event(Event{Kind: EventStatus, Turn: call.Turn, Message: fmt.Sprintf("%s is thinking… (retrying)", thinker(sp))})
	}
	reply, err := t.ask.Ask(ctx, call, req)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", &failure{ReasonFreeze, call.Turn, fmt.Sprintf("the %s's model failed: %v", call.Agent, err)}
	}
	if shown.String() != reply.Text {
		if shown.Len() > 0 {
			t.event(Event{Kind: EventReset, Turn: call.Turn})
		}
		if reply.Text != "" {
			t.event(Event{Kind: EventDelta, Turn: call.Turn, Text: reply.Text})
		}
	}
	return strings.TrimSpace(reply.Text), nil
}

// thinker names sp for a status line: "the judge", "the witness".
func thinker(sp Speaker) string {
	if sp.IsWitness() {
		return "the witness"
	}
	return "the " + strings.ToLower(string(sp))
}

// repeats says whether text is word for word one of the last three turns.
func (t *Trial) repeats(text string) bool {
	norm := strings.Join(strings.Fields(text), " ")
	turns := t.cur.turns
	for i := len(turns) - 1; i >= 0 && i >= len(turns)-3; i-- {
		if strings.Join(strings.Fields(turns[i].Text), " ") == norm {
			return true
		}
	}
	return false
}

// analyze asks the Sentence Analyzer who speaks after sp, re-asking an unusable tag.
func (t *Trial) analyze(ctx context.Context, sp Speaker) (Speaker, error) {
	allowed := t.g.Next(sp)
	n := len(t.cur.turns)
	req := analyzerRequest(t.view(sp), allowed)
	t.bound(AgentAnalyzer, req)
	var problem string
	for try := 0; try <= t.s.Reasks; try++ {
		reply, err := t.ask.Ask(ctx, t.call(AgentAnalyzer, n, try), req)
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			return "", &failure{ReasonFreeze, n, fmt.Sprintf("the analyzer's model failed: %v", err)}
		}
		next, err := ParseTag(reply.Text)
		switch {
		case err != nil:
			problem = err.Error()
		case !t.g.Has(next):
			problem = fmt.Sprintf("%s is not a speaker of this case", next)
		case !t.g.Allowed(sp, next):
			problem = fmt.Sprintf("the floor cannot pass from %s to %s", sp, next)
		default:
			return next, nil
		}
		req = reask(req, reply.Text, tagReask(allowed, problem))
	}
	return "", &failure{ReasonTagging, n, fmt.Sprintf("no usable routing tag after %d asks: %s", t.s.Reasks+1, problem)}
}

// verdictStage runs the verdict pipeline and the Judge's last turn.
func (t *Trial) verdictStage(ctx context.Context) error {
	a := t.cur
	n := len(a.turns) + 1
	ask := func(c Call, req *llm.Request) (string, error) {
		reply, err := t.ask.Ask(ctx, c, req)
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			return "", &failure{ReasonFreeze, n, fmt.Sprintf("the %s's model failed: %v", c.Agent, err)}
		}
		return strings.TrimSpace(reply.Text), nil
	}
	sreq := summaryRequest(t.c, a.turns, a.exposed, t.s.Side.Or())
	t.bound(AgentSummary, sreq)
	summary, err := ask(t.call(AgentSummary, n, 0), sreq)
	if err != nil {
		return err
	}
	if summary == "" {
		return &failure{ReasonEmpty, n, "the summary was empty"}
	}
	// The court, not the reporter, states what was exposed: finding a contradiction
	// changes what the evaluation weighs whatever the summary's wording.
	summary += exposedFindings(t.c, a.exposed, t.s.Side.Or())
	req := evaluationRequest(t.c.Kind, summary, t.c.GoalOf(t.s.Side), t.s.Side.Or())
	t.bound(AgentEvaluation, req)
	var ev evaluation
	var problem string
	for try := 0; ; try++ {
		text, err := ask(t.call(AgentEvaluation, n, try), req)
		if err != nil {
			return err
		}
		if ev, problem = parseEvaluation(text); problem == "" {
			break
		}
		if try >= t.s.Reasks {
			return &failure{ReasonVerdict, n, "no usable evaluation: " + problem}
		}
		req = reask(req, text, "That answer cannot be used ("+problem+`). Answer with only the JSON object {"outcome": "win" or "loss", "justification": "…"}.`)
	}
	text, err := t.roleTurn(ctx, Judge, verdictRequest(t.view(Judge), ev.Outcome, ev.Justification))
	if err != nil {
		return err
	}
	turn := t.newTurn(Judge, text)
	a.turns = append(a.turns, turn)
	t.event(Event{Kind: EventEnd, Turn: n, Whole: &turn})
	t.verdict = &VerdictRecord{Outcome: ev.Outcome, Justification: ev.Justification, Summary: summary}
	t.debrief = t.makeDebrief(t.seat)
	if t.other != nil {
		t.debrief2 = t.makeDebrief(t.seat.opposing())
	}
	t.event(Event{Kind: EventVerdict, Turn: n, Outcome: ev.Outcome, Justification: ev.Justification})
	t.done = true
	return nil
}

type evaluation struct {
	Outcome       string `json:"outcome"`
	Justification string `json:"justification"`
}

// parseEvaluation reads the evaluator's JSON; problem says what is wrong with it. A
// reply wrapped in a code fence or in prose around one object is accepted.
func parseEvaluation(text string) (evaluation, string) {
	var ev evaluation
	s := text
	if i, j := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}'); i >= 0 && j > i {
		s = s[i : j+1]
	}
	if err := json.Unmarshal([]byte(s), &ev); err != nil {
		return ev, "not a JSON object"
	}
	ev.Outcome = strings.ToLower(strings.TrimSpace(ev.Outcome))
	ev.Justification = strings.TrimSpace(ev.Justification)
	if ev.Outcome != OutcomeWin && ev.Outcome != OutcomeLoss {
		return ev, fmt.Sprintf("outcome %q is not win or loss", ev.Outcome)
	}
	if ev.Justification == "" {
		return ev, "the justification is empty"
	}
	return ev, ""
}
