package court

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// MoveKind is what the defense does with the floor.
type MoveKind string

// The defense's moves.
const (
	MoveSpeak  MoveKind = "speak"
	MoveObject MoveKind = "object"
	MoveRest   MoveKind = "rest"
	// MovePresent shows an item of evidence (Evidence) to the witness on the stand.
	MovePresent MoveKind = "present"
	// MovePress asks a witness for detail about one of its statements (Statement).
	MovePress MoveKind = "press"
	// MoveHold is "Hold it!": called while the court speaks (Human.Hold), it takes the
	// floor at the end of the current line. It is never submitted; the trial records
	// it among its moves where it was taken, so the trial replays.
	MoveHold MoveKind = "hold"
)

// Move is one move of the defense. To, for a speech in the interrogation, names the
// addressee (Judge, Prosecutor or Witness_<id>): the floor passes there and the analyzer
// is not asked. Outside the interrogation the floor passes by procedure, so To is
// ignored and an objection is heard as a speech. A presentation goes to the witness on
// the stand and a press to the witness who made the statement, whatever To says.
type Move struct {
	Kind MoveKind `json:"kind"`
	Text string   `json:"text,omitempty"`
	To   Speaker  `json:"to,omitempty"`
	// Evidence is the item presented (present); Statement the statement pressed (press,
	// as Turn.Statement numbers it).
	Evidence  string `json:"present,omitempty"`
	Statement int    `json:"press,omitempty"`
	// Side is set on the moves of a two-player trial's second person (the invited
	// counsel, Trial.Other), so a stored game splits them back to their player.
	Side Side `json:"side,omitempty"`
	// Turn, on a hold, is the number of the court's line it was taken at the end of,
	// in its attempt: a replay takes it there, not at the first line after the
	// person's last move (0, in games stored before it was kept: there).
	Turn int `json:"turn,omitempty"`
}

// Floor is what the defense sees when it has the floor.
type Floor struct {
	Case  *Case
	Phase Phase
	// Turns are the current attempt's turns so far; do not modify them.
	Turns []Turn
	// Addressees are the speakers a speech may name in To (none outside the
	// interrogation).
	Addressees []Speaker
	// Attempt counts restarts; DefenseTurn counts the defense's turns in this attempt
	// (0 for the opening statement).
	Attempt     int
	DefenseTurn int
	// Stand is the witness on the stand (who spoke last), "" before any has; present
	// shows it an item. Statements is how many witness statements there are to press.
	Stand      Speaker
	Statements int

	t *Trial
	// seat is the counsel whose floor it is: the Player's, or the invited person's.
	seat Speaker
	// streamShown says the turn was already reported as it streamed, and shown is the
	// text it showed.
	streamShown bool
	shown       string
}

// Player plays the defense. Next returns the defense's move, or ErrAwaitingDefense
// when none has come yet (the trial then stops until Run is called again).
type Player interface {
	Next(ctx context.Context, f *Floor) (Move, error)
}

// CheckMove says what is wrong with a move at this floor, or nil. A presentation and a
// press may come without words: the defense's turn then says what it does.
func (f *Floor) CheckMove(m Move) error {
	switch m.Kind {
	case MoveRest:
		return nil
	case MoveSpeak, MoveObject:
	case MovePresent, MovePress:
		if err := f.checkCross(m); err != nil {
			return err
		}
	case MoveHold:
		return errors.New("hold is called while the court speaks, not on the defense's floor")
	default:
		return fmt.Errorf("move %q: want speak, object, present, press or rest", m.Kind)
	}
	text := strings.TrimSpace(m.Text)
	if text == "" && m.Kind != MovePresent && m.Kind != MovePress {
		return errors.New("the text is empty")
	}
	if n := utf8.RuneCountInString(text); n > MaxMoveText {
		return fmt.Errorf("the text has %d characters: at most %d", n, MaxMoveText)
	}
	if m.To != "" && m.Kind != MovePresent && m.Kind != MovePress && f.Phase == PhaseInterrogation && !slices.Contains(f.Addressees, m.To) {
		return fmt.Errorf("to %q: the %s may address %s", m.To, f.Side(), joinSpeakers(f.Addressees))
	}
	return nil
}

// checkCross checks a presentation or a press.
func (f *Floor) checkCross(m Move) error {
	if m.Kind == MovePresent {
		if _, ok := f.Case.Item(m.Evidence); !ok {
			ids := make([]string, len(f.Case.Evidence))
			for i, e := range f.Case.Evidence {
				ids[i] = e.ID
			}
			return fmt.Errorf("present %q: the court record has %s", m.Evidence, strings.Join(ids, ", "))
		}
	}
	if f.Phase != PhaseInterrogation {
		return fmt.Errorf("%s works in the interrogation, not in the %s", m.Kind, f.Phase)
	}
	switch {
	case m.Kind == MovePresent && f.Stand == "":
		return errors.New("present: no witness is on the stand yet; question one first")
	case m.Kind == MovePress && f.Statements == 0:
		return errors.New("press: no witness has made a statement yet")
	case m.Kind == MovePress && (m.Statement < 1 || m.Statement > f.Statements):
		return fmt.Errorf("press %d: the statements are numbered 1 to %d", m.Statement, f.Statements)
	}
	return nil
}

func joinSpeakers(ss []Speaker) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = string(s)
	}
	return strings.Join(out, ", ")
}

// Side is the counsel who has the floor: the side the Player plays, or in a
// two-player trial the invited person's when theirs.
func (f *Floor) Side() Side { return f.t.sideOf(f.seat) }

// AskModel asks the model of the Player's seat (Models.Defense for the defense) for
// its next words, streaming them; a failure of the model restarts the trial like any
// role's.
func (f *Floor) AskModel(ctx context.Context) (string, error) {
	text, err := f.t.roleTurn(ctx, f.t.seat, nil)
	f.streamShown, f.shown = err == nil, text
	return text, err
}

func (t *Trial) floor() *Floor { return t.floorOf(t.seat) }

// floorOf is the floor of the counsel sp played by a person.
func (t *Trial) floorOf(sp Speaker) *Floor {
	a := t.cur
	f := &Floor{Case: t.c, Phase: a.phase, Turns: a.turns, Attempt: a.n, DefenseTurn: a.defenseTurns,
		Stand: a.stand, Statements: len(a.said), t: t, seat: sp}
	if sp != t.seat {
		f.DefenseTurn = a.turns2
	}
	if a.phase == PhaseInterrogation {
		for _, s := range t.g.Next(sp) {
			if s != Verdict {
				f.Addressees = append(f.Addressees, s)
			}
		}
	}
	return f
}

// playerTurn gets the move of the counsel sp played by a person (the Player's seat, or
// the invited person's in a two-player trial) and its turn text.
func (t *Trial) playerTurn(ctx context.Context, sp Speaker) (Move, string, error) {
	if h := t.humanOf(sp); h != nil {
		// The person has the floor anyway: a hold they called, here or from another
		// process, is void.
		h.dropLiveHold()
		if t.storedHold != nil {
			t.storedHold(ctx, t.sideOf(sp))
		}
	}
	f := t.floorOf(sp)
	var p Player = t.def
	if sp != t.seat {
		p = t.other
	}
	m, err := p.Next(ctx, f)
	if err != nil {
		return Move{}, "", err
	}
	if err := f.CheckMove(m); err != nil {
		return Move{}, "", fmt.Errorf("%s move %d: %w", f.Side(), len(t.moves)+1, err)
	}
	t.awaiting = false
	if f.Phase != PhaseInterrogation {
		m.To = ""
		if m.Kind == MoveObject {
			m.Kind = MoveSpeak
		}
	}
	if m.Kind == MovePresent || m.Kind == MovePress {
		m.To = ""
	}
	text := strings.TrimSpace(m.Text)
	switch {
	case m.Kind == MoveRest && text == "":
		text = fmt.Sprintf("The %s rests.", f.Side())
	case m.Kind == MovePresent && text == "":
		e, _ := t.c.Item(m.Evidence)
		text = fmt.Sprintf("I present %s, %s, to the witness.", m.Evidence, e.Name)
	case m.Kind == MovePress && text == "":
		text = fmt.Sprintf("About your statement %d: tell the court more.", m.Statement)
	case m.Kind == MoveObject && !strings.HasPrefix(strings.ToLower(text), "objection"):
		text = "Objection: " + text
	}
	n := len(t.cur.turns) + 1
	switch {
	case !f.streamShown:
		turn := t.newTurn(sp, text)
		t.event(Event{Kind: EventTurn, Turn: n, Speaker: turn.Speaker, Role: turn.Role, Phase: turn.Phase})
		t.event(Event{Kind: EventDelta, Turn: n, Text: text})
	case f.shown != text:
		// The model's words were cut or relabelled: show the turn as it stands.
		t.event(Event{Kind: EventReset, Turn: n})
		t.event(Event{Kind: EventDelta, Turn: n, Text: text})
	}
	if sp != t.seat {
		m.Side = f.Side()
		t.cur.turns2++
	} else {
		m.Side = ""
		t.cur.defenseTurns++
	}
	t.moves = append(t.moves, m)
	return m, text, nil
}

// Submit gives the waiting trial the defense's move (a *Human defense only); Run then
// continues. It returns ErrNotAwaiting when the defense does not have the floor and an
// error saying what is wrong with a move that cannot be played.
func (t *Trial) Submit(m Move) error {
	h, ok := t.def.(*Human)
	if !ok {
		return errors.New("court: this trial's defense is not played by a person")
	}
	if !t.Awaiting() || h.next < len(h.queue) {
		return ErrNotAwaiting
	}
	if err := t.floor().CheckMove(m); err != nil {
		return err
	}
	h.queue = append(h.queue, m)
	return nil
}

// Human is a defense played by a person: moves come through Trial.Submit, or up front
// from NewHuman when a trial is rebuilt from its stored moves. Hold may be called from
// any goroutine while the trial runs.
type Human struct {
	queue []Move
	next  int
	hold  atomic.Bool
}

// Hold calls "Hold it!": the defense takes the floor at the end of the current line of
// the interrogation (unless it would have had it anyway).
func (h *Human) Hold() { h.hold.Store(true) }

// takeHold says whether a hold was called by the end of the court's line numbered at: a
// stored one next in the queue (a replay), or one called live, here or, when stored is
// set, from another process (stored takes it).
func (h *Human) takeHold(at int, stored func() bool) bool {
	if h.next < len(h.queue) {
		if m := h.queue[h.next]; m.Kind == MoveHold && m.Turn <= at {
			h.next++
			return true
		}
		return false
	}
	return h.hold.Swap(false) || (stored != nil && stored())
}

// dropLiveHold forgets a hold called when the defense had the floor anyway.
func (h *Human) dropLiveHold() { h.hold.Store(false) }

// NewHuman is a person's defense that first plays the given moves (a stored game's,
// from Trial.Moves) and then waits for Submit.
func NewHuman(moves ...Move) *Human { return &Human{queue: slices.Clone(moves)} }

// Next implements Player.
func (h *Human) Next(_ context.Context, _ *Floor) (Move, error) {
	if h.next >= len(h.queue) {
		return Move{}, ErrAwaitingDefense
	}
	m := h.queue[h.next]
	h.next++
	if m.Kind == MoveHold {
		// A stored hold the trial did not take where it was recorded: skip it.
		return h.Next(context.Background(), nil)
	}
	return m, nil
}

// ModelDefense is a defense played by a model standing in for the player (the defense
// strategy prompt): its turns are player turns like a person's.
type ModelDefense struct{}

// Next implements Player: it asks the model and reads "Objection…" as an objection and
// "The defense rests." as resting. A reply longer than a person may type is cut at the
// last word boundary within MaxMoveText, as the game's text box would cut it.
func (ModelDefense) Next(ctx context.Context, f *Floor) (Move, error) {
	text, err := f.AskModel(ctx)
	if err != nil {
		return Move{}, err
	}
	return MoveOf(cutText(text, MaxMoveText)), nil
}

// cutText keeps at most n runes of s, ending at a word boundary when there is one.
func cutText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	if i := strings.LastIndexFunc(string(r), unicode.IsSpace); i > 0 {
		return strings.TrimSpace(string(r)[:i])
	}
	return string(r)
}

// MoveOf reads a line of defense text as a move: "rest" or a line starting "The defense
// rests" rests, a line starting "Objection" objects, "@Speaker text" addresses Speaker,
// anything else is a speech.
func MoveOf(text string) Move {
	text = strings.TrimSpace(text)
	low := strings.ToLower(text)
	switch {
	case low == "rest" || strings.HasPrefix(low, "the defense rests") || strings.HasPrefix(low, "the defence rests"):
		return Move{Kind: MoveRest, Text: text}
	case strings.HasPrefix(low, "objection"):
		return Move{Kind: MoveObject, Text: text}
	case strings.HasPrefix(text, "@"):
		to, rest, _ := strings.Cut(text[1:], " ")
		if s, err := speakerOf(strings.TrimSuffix(to, ":")); err == nil {
			return Move{Kind: MoveSpeak, Text: strings.TrimSpace(rest), To: s}
		}
	}
	return Move{Kind: MoveSpeak, Text: text}
}

// Script is a scripted defense: one move per line (see MoveOf), replayed from the top on
// every attempt; when the lines run out the defense rests.
type Script struct {
	Moves []Move
}

// ParseScript reads a defense script: one move per line, blank lines and lines starting
// "#" skipped; name labels errors.
func ParseScript(data []byte, name string) (*Script, error) {
	s := &Script{}
	var errs []FieldError
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		m := MoveOf(line)
		if m.Kind != MoveRest && m.Text == "" {
			errs = append(errs, FieldError{File: name, Line: n + 1, Msg: "no text after the addressee"})
			continue
		}
		if utf8.RuneCountInString(m.Text) > MaxMoveText {
			errs = append(errs, FieldError{File: name, Line: n + 1, Msg: fmt.Sprintf("over %d characters", MaxMoveText)})
			continue
		}
		s.Moves = append(s.Moves, m)
	}
	if len(errs) > 0 {
		return nil, &ValidationError{Errs: errs}
	}
	if len(s.Moves) == 0 {
		return nil, &ValidationError{Errs: []FieldError{{File: name, Msg: "no lines: want one defense move per line"}}}
	}
	return s, nil
}

// LoadScript reads a defense script file.
func LoadScript(path string) (*Script, error) {
	data, err := readInput(path)
	if err != nil {
		return nil, fmt.Errorf("load defense script: %w", err)
	}
	return ParseScript(data, path)
}

// Next implements Player.
func (s *Script) Next(_ context.Context, f *Floor) (Move, error) {
	if f.DefenseTurn >= len(s.Moves) {
		return Move{Kind: MoveRest}, nil
	}
	return s.Moves[f.DefenseTurn], nil
}
