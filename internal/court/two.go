package court

import (
	"context"
	"errors"
	"fmt"
)

// Two people, one trial (issue 32): with Settings.TwoPlayers the trial's Player plays
// Settings.Side and a second person, Trial's other *Human, plays the other counsel;
// judge and witnesses stay models. The trial waits for whichever person has the floor
// (Waiting) and takes their move through SubmitFor. Both people's turns are marked as
// the player's in the transcript. The floor rules are the same for both: each moves
// (speak, present, press, object, rest, hold, naming whom to address) on their own
// floor; each has their own credibility, exposes the contradictions their side may find
// (Case.FindableBy), has their holds and objections counted, and gets a debrief after
// the verdict (DebriefFor); and the fair floor returns to whichever person has waited
// MaxCourtRun turns of others, so that neither waits more than MaxCourtRun court turns
// for it, whatever the other does with theirs (waitedOut). The two may play from two
// processes on one store (join.go).

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

// humans are the counsels played by people (or a model standing in for one).
func (t *Trial) humans() []Speaker {
	if t.other != nil {
		return []Speaker{t.seat, t.seat.opposing()}
	}
	return []Speaker{t.seat}
}

// humanOf is the *Human playing sp, nil for none.
func (t *Trial) humanOf(sp Speaker) *Human {
	switch {
	case sp == t.seat:
		h, _ := t.def.(*Human)
		return h
	case t.other != nil && sp == t.seat.opposing():
		return t.other
	}
	return nil
}

// sideOf is the side of the counsel sp played by a person.
func (t *Trial) sideOf(sp Speaker) Side {
	if sp == t.seat {
		return t.s.Side.Or()
	}
	return t.s.Side.Or().Other()
}

// seatOf is the counsel's speaker of side.
func (t *Trial) seatOf(side Side) Speaker {
	if side.Or() == t.s.Side.Or() {
		return t.seat
	}
	return t.seat.opposing()
}

// eventSide is the side an event about sp names: "" but in a two-player trial.
func (t *Trial) eventSide(sp Speaker) Side {
	if t.other == nil {
		return ""
	}
	return t.sideOf(sp)
}

// credOf is the credibility of the person playing sp.
func (t *Trial) credOf(sp Speaker) *int {
	if t.other != nil && sp == t.seat.opposing() {
		return &t.cur.cred2
	}
	return &t.cur.cred
}

// tallyOf is the play of the person playing sp, for their debrief.
func (t *Trial) tallyOf(sp Speaker) *tally {
	if t.other != nil && sp == t.seat.opposing() {
		return &t.cur.tally2
	}
	return &t.cur.tally
}

// holdBy is the person (other than sp, who just spoke) who called "Hold it!" during
// sp's turn, in this process or another, "" for none.
func (t *Trial) holdBy(ctx context.Context, sp Speaker) Speaker {
	for _, h := range t.humans() {
		if h != sp && t.takeHold(ctx, h) {
			return h
		}
	}
	return ""
}

// waitedOut is the person (other than sp) who has waited MaxCourtRun turns of others
// for the floor, the longest waiting first; "" for none.
//
// With two people a person is waited out one court turn sooner when the other has
// waited as long (MaxCourtRun-1 each): the first of them to take the floor may present,
// press or object, and that move is answered before the floor moves on, a court turn
// the second waits through too. Taking the floor at MaxCourtRun-1, the second waits at
// most MaxCourtRun; taking it at MaxCourtRun, they would wait one more.
func (t *Trial) waitedOut(sp Speaker) Speaker {
	var who Speaker
	for _, h := range t.humans() {
		if h != sp && t.dueFloor(h) && (who == "" || t.cur.run[h] > t.cur.run[who]) {
			who = h
		}
	}
	return who
}

// dueFloor says whether the person playing h has waited long enough for the fair floor.
func (t *Trial) dueFloor(h Speaker) bool {
	run := t.cur.run[h]
	if run >= MaxCourtRun {
		return true
	}
	if run < MaxCourtRun-1 {
		return false
	}
	for _, o := range t.humans() {
		if o != h && t.cur.run[o] >= MaxCourtRun-1 {
			return true
		}
	}
	return false
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

// DebriefFor is the debrief of the person who played side, nil before the verdict (or
// for a side no person played).
func (t *Trial) DebriefFor(side Side) *Debrief {
	if side.Or() == t.s.Side.Or() {
		return t.debrief
	}
	return t.debrief2
}

// CredibilityOf is the credibility of the person playing side.
func (t *Trial) CredibilityOf(side Side) int { return *t.credOf(t.seatOf(side)) }

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
	if err := t.floorOf(t.seat.opposing()).CheckMove(m); err != nil {
		return err
	}
	m.Side = side.Or()
	t.other.queue = append(t.other.queue, m)
	return nil
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
