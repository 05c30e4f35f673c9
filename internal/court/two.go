package court

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Two people, one trial (issue 32): with Settings.TwoPlayers the trial's Player plays
// Settings.Side and a second person, Trial's other *Human, plays the other counsel;
// judge and witnesses stay models. The trial waits for whichever person has the floor
// (Waiting) and takes their move through SubmitFor. Both people's turns are marked as
// the player's in the transcript. The second person speaks (a statement, routed by the
// analyzer as a model counsel's would be) or rests in the interrogation; the fair floor,
// the credibility and the debrief are kept for Settings.Side, the first person's.

// opposing is the other counsel's speaker.
func (sp Speaker) opposing() Speaker {
	if sp == Prosecutor {
		return Defense
	}
	return Prosecutor
}

// plays says whether sp is played by a person (or the model standing in for one).
func (t *Trial) plays(sp Speaker) bool {
	return sp == t.seat || (t.other != nil && sp == t.seat.opposing())
}

// TwoPlayers says whether both counsels are people.
func (t *Trial) TwoPlayers() bool { return t.other != nil }

// Waiting is the side whose person has the floor while the trial awaits a move, "" when
// it awaits none.
func (t *Trial) Waiting() Side {
	if !t.Awaiting() {
		return ""
	}
	if t.other != nil && t.cur.speakerNow() == t.seat.opposing() {
		return t.s.Side.Or().Other()
	}
	return t.s.Side.Or()
}

// ErrNotYourFloor: a move of one side while the other has the floor.
var ErrNotYourFloor = errors.New("court: the other side has the floor")

// SubmitFor gives the waiting trial side's move: Submit for Settings.Side, the second
// person's for the other side of a two-player trial. It returns ErrNotYourFloor when
// the other side has the floor.
func (t *Trial) SubmitFor(side Side, m Move) error {
	if side.Or() == t.s.Side.Or() {
		if t.Waiting() != "" && t.Waiting() != side.Or() {
			return ErrNotYourFloor
		}
		return t.Submit(m)
	}
	if t.other == nil {
		return fmt.Errorf("court: the %s is not played by a person in this trial", side)
	}
	switch {
	case !t.Awaiting() || t.other.next < len(t.other.queue):
		return ErrNotAwaiting
	case t.Waiting() != side.Or():
		return ErrNotYourFloor
	}
	switch m.Kind {
	case MoveSpeak:
		if strings.TrimSpace(m.Text) == "" {
			return errors.New("text: the statement is empty")
		}
	case MoveRest:
		if t.cur.phase != PhaseInterrogation {
			return fmt.Errorf("the %s may rest only in the interrogation", side)
		}
	default:
		return fmt.Errorf("kind %q: the invited counsel speaks or rests (present, press, object and hold are the first player's)", m.Kind)
	}
	m.Side, m.To, m.Evidence, m.Statement = side.Or(), "", "", 0
	t.other.queue = append(t.other.queue, m)
	return nil
}

// otherTurn is the second person's turn: their move, or ErrAwaitingDefense.
func (t *Trial) otherTurn(ctx context.Context) (Move, string, error) {
	m, err := t.other.Next(ctx, nil)
	if err != nil {
		return Move{}, "", err
	}
	t.awaiting = false
	text := strings.TrimSpace(m.Text)
	if m.Kind == MoveRest && text == "" {
		text = fmt.Sprintf("The %s rests.", t.s.Side.Or().Other())
	}
	n := len(t.cur.turns) + 1
	turn := t.newTurn(t.seat.opposing(), text)
	t.event(Event{Kind: EventTurn, Turn: n, Speaker: turn.Speaker, Role: turn.Role, Phase: turn.Phase})
	t.event(Event{Kind: EventDelta, Turn: n, Text: text})
	m.Side = t.s.Side.Or().Other()
	t.moves = append(t.moves, m)
	return m, text, nil
}

// splitMoves parts a two-player trial's stored moves: the first person's and the
// second's (Move.Side set).
func splitMoves(moves []Move, two bool) (first, second []Move) {
	for _, m := range moves {
		if two && m.Side != "" {
			second = append(second, m)
		} else {
			first = append(first, m)
		}
	}
	return first, second
}
