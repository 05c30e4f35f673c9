package court

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/court/courttest"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

// crossCase is the lantern case with two planted contradictions: Tomas's broken by E1,
// Nell's by E2.
func crossCase(t testing.TB) *Case {
	c := fixture(t)
	c.Contradictions = []Contradiction{
		{ID: "C1", Witness: "tomas", Claim: "He saw Varga's face by the office lamp.", Evidence: []string{"E1"}, Explanation: "The key log shows the office dark at 23:40."},
		{ID: "C2", Witness: "nell", Claim: "The lantern was pawned the morning after the theft.", Evidence: []string{"E2"}, Explanation: "The ticket is dated six days later."},
	}
	return c
}

// drive runs a trial played by a person: next gives the move at each floor.
func drive(t *testing.T, tr *Trial, ev *events, next func(f *Floor) Move) {
	t.Helper()
	for range 200 {
		err := tr.Run(context.Background(), ev.add)
		if err == nil {
			return
		}
		if !errors.Is(err, ErrAwaitingDefense) {
			t.Fatalf("Run: %v", err)
		}
		if err := tr.Submit(next(tr.floor())); err != nil {
			t.Fatalf("Submit: %v", err)
		}
	}
	t.Fatal("the trial did not end")
}

func newCross(t *testing.T, ask Asker, s Settings) (*Trial, *events) {
	t.Helper()
	s.Models = testModels
	tr, err := NewTrial(crossCase(t), 7, s, ask, NewHuman())
	if err != nil {
		t.Fatal(err)
	}
	return tr, &events{}
}

// plan plays the given interrogation moves in order after an opening statement, then
// rests.
func plan(moves ...Move) func(f *Floor) Move {
	i := 0
	return func(f *Floor) Move {
		if f.Phase != PhaseInterrogation {
			return Move{Kind: MoveSpeak, Text: "The defense will show reasonable doubt."}
		}
		if i >= len(moves) {
			return Move{Kind: MoveRest}
		}
		i++
		return moves[i-1]
	}
}

var routeOf = regexp.MustCompile(`(?m)^The turn to route: ([^:]+):`)

// TestFloorReturnsWithinFourCourtTurns: the analyzer never gives the defense the floor
// nor ends the hearing, yet the defense never waits more than MaxCourtRun court turns.
func TestFloorReturnsWithinFourCourtTurns(t *testing.T) {
	stingy := fakeModels(func(role string, req *llm.Request) (string, bool) {
		if role != "analyzer" {
			return "", false
		}
		if m := routeOf.FindStringSubmatch(req.Messages[0].Text); m != nil && m[1] == "Judge" {
			return "<NextSpeaker: Prosecutor>", true
		}
		return "<NextSpeaker: Judge>", true
	})
	// (The scripted court numbers its lines from the history it sees, 24 turns: a
	// budget of 20 keeps its lines apart.)
	tr, _ := runTrial(t, stingy, ModelDefense{}, Settings{TurnBudget: 20})
	tx := tr.Transcript()
	run, longest, defense := 0, 0, 0
	for _, turn := range tx.Turns {
		if turn.Phase != PhaseInterrogation {
			continue
		}
		if turn.Role == check.RoleDefense {
			run = 0
			defense++
			continue
		}
		run++
		longest = max(longest, run)
	}
	if longest != MaxCourtRun {
		t.Errorf("the longest court run was %d turns; want %d (the analyzer never picks the defense)", longest, MaxCourtRun)
	}
	if defense < 3 || !tx.Completed {
		t.Errorf("the defense spoke %d times in the interrogation (completed %v)", defense, tx.Completed)
	}
}

// TestHoldTakesFloorAtEndOfLine: "Hold it!" called while the Judge speaks gives the
// defense the floor right after that line, is recorded as a move, and replays.
func TestHoldTakesFloorAtEndOfLine(t *testing.T) {
	var h *Human
	calls := 0
	inner := fakeModels(nil)
	rec := record(t, AskerFunc(func(ctx context.Context, c Call, req *llm.Request) (*llm.Reply, error) {
		if c.Agent == AgentJudge && c.Turn == 4 {
			calls++
			h.Hold() // the player calls it while the Judge's line streams
		}
		return inner.Ask(ctx, c, req)
	}))
	tr, ev := newCross(t, rec, Settings{})
	h = tr.def.(*Human)
	drive(t, tr, ev, plan(Move{Kind: MoveSpeak, Text: "Your Honour, a point.", To: Judge}))
	tx := tr.Transcript()
	if calls != 1 || tx.Turns[3].Speaker != "Judge" || tx.Turns[4].Speaker != "Defense" {
		t.Fatalf("turns 4 and 5 = %s, %s; want the Judge, then the defense holding", tx.Turns[3].Speaker, tx.Turns[4].Speaker)
	}
	if n := len(kinds(ev.all, EventHold)); n != 1 {
		t.Errorf("%d hold events; want 1", n)
	}
	if rec.count(AgentAnalyzer) > 0 && rec.reqs["lantern-theft-s7/a0/t4/analyzer"] != nil {
		t.Errorf("the analyzer was asked to route the held turn")
	}
	if tx.Debrief == nil || tx.Debrief.Holds != 1 {
		t.Errorf("debrief = %+v; want one hold", tx.Debrief)
	}
	// The trial rebuilt from its moves replays to the same turns, asking nothing new.
	again, err := NewTrial(crossCase(t), 7, Settings{Models: testModels}, replay(t, rec.reps), NewHuman(tr.Moves()...))
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Run(context.Background(), nil); err != nil {
		t.Fatalf("replay: %v", err)
	}
	if got := again.Transcript().Turns; len(got) != len(tx.Turns) || got[4].Speaker != "Defense" {
		t.Errorf("replayed %d turns (turn 5 %s); want %d", len(got), got[4].Speaker, len(tx.Turns))
	}
}

// TestHoldReplaysAtItsLine: a hold called during the second court line after the
// defense's last move is taken at the end of that line, and so is it in the replay, not
// at the end of the first line after that move.
func TestHoldReplaysAtItsLine(t *testing.T) {
	var h *Human
	inner := fakeModels(nil)
	rec := record(t, AskerFunc(func(ctx context.Context, c Call, req *llm.Request) (*llm.Reply, error) {
		if c.Turn == 5 && c.Agent != AgentAnalyzer {
			h.Hold()
		}
		return inner.Ask(ctx, c, req)
	}))
	tr, ev := newCross(t, rec, Settings{})
	h = tr.def.(*Human)
	drive(t, tr, ev, plan(Move{Kind: MoveSpeak, Text: "Your Honour, a point.", To: Judge}))
	tx := tr.Transcript()
	if tx.Turns[3].Speaker == "Defense" || tx.Turns[4].Speaker == "Defense" || tx.Turns[5].Speaker != "Defense" {
		t.Fatalf("turns 4 to 6 = %s, %s, %s; want two court lines, then the defense holding", tx.Turns[3].Speaker, tx.Turns[4].Speaker, tx.Turns[5].Speaker)
	}
	again, err := NewTrial(crossCase(t), 7, Settings{Models: testModels}, replay(t, rec.reps), NewHuman(tr.Moves()...))
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Run(context.Background(), nil); err != nil {
		t.Fatalf("replay: %v", err)
	}
	got := again.Transcript().Turns
	if len(got) != len(tx.Turns) {
		t.Fatalf("replayed %d turns; want %d", len(got), len(tx.Turns))
	}
	for i := range got {
		if got[i].Speaker != tx.Turns[i].Speaker || got[i].Text != tx.Turns[i].Text {
			t.Errorf("replayed turn %d: %s %q; want %s %q", i+1, got[i].Speaker, got[i].Text, tx.Turns[i].Speaker, tx.Turns[i].Text)
		}
	}
}

// TestPresentExposesContradiction: presenting the planted item to the witness on the
// stand exposes its contradiction (event, standing, the witness told, the summary and
// the debrief list it); a wrong item costs credibility and the debrief counts it.
func TestPresentExposesContradiction(t *testing.T) {
	rec := record(t, fakeModels(nil))
	tr, ev := newCross(t, rec, Settings{})
	drive(t, tr, ev, plan(
		Move{Kind: MoveSpeak, Text: "What did you see?", To: WitnessSpeaker("tomas")},
		Move{Kind: MovePresent, Evidence: "E2", Text: "Look at this ticket."},
		Move{Kind: MovePresent, Evidence: "E1"},
	))
	tx := tr.Transcript()
	exposed := kinds(ev.all, EventExposed)
	if len(exposed) != 1 || *exposed[0].Exposure != (Exposure{Contradiction: "C1", Witness: "tomas", Evidence: "E1"}) {
		t.Fatalf("exposed events = %+v; want C1 by E1", exposed)
	}
	var creds []int
	for _, e := range kinds(ev.all, EventCredibility) {
		creds = append(creds, e.Value)
	}
	if len(creds) != 2 || creds[0] != 100-MissCost || creds[1] != 100-MissCost+HitGain {
		t.Errorf("credibility events = %v; want the miss then the hit", creds)
	}
	// The witness reacting to the hit was told; the one answering the miss was not.
	var hit, miss *llm.Request
	for i, turn := range tx.Turns {
		key := func() *llm.Request { return rec.reqs[tr.s.TrialID+"/a0/t"+strconv.Itoa(i+2)+"/witness"] }
		switch turn.Present {
		case "E1":
			hit = key()
		case "E2":
			miss = key()
		}
	}
	if hit == nil || !strings.Contains(hit.Messages[0].Text, "the court finds that it shows false") || !strings.Contains(hit.System, "[C1] You had said") {
		t.Errorf("the witness after the hit was not told what was exposed")
	}
	if miss == nil || strings.Contains(miss.System, "shows false") || !strings.Contains(miss.Messages[0].Text, "presented E2 to you") {
		t.Errorf("the witness after the miss: %v", miss)
	}
	if tx.Verdict == nil || !strings.Contains(tx.Verdict.Summary, "C1: Tomas Brandt had claimed: He saw Varga's face") || strings.Contains(tx.Verdict.Summary, "C2") {
		t.Errorf("summary = %q; want C1 listed, not C2", tx.Verdict.Summary)
	}
	for key, req := range rec.reqs {
		if strings.HasSuffix(key, "/evaluation") && !strings.Contains(req.Messages[0].Text, "Contradictions exposed by the defense") {
			t.Errorf("the evaluation did not see the exposed contradictions")
		}
	}
	d := tx.Debrief
	if d == nil || d.Planted != 2 || d.Found != 1 || d.Presented != 2 || d.Misses != 1 || d.Credibility != 90 || !d.Contradictions[0].Found || d.Contradictions[1].Found {
		t.Errorf("debrief = %+v", d)
	}
	if st := tr.Standing(); len(st.Exposed) != 1 || st.Stand != WitnessSpeaker("tomas") {
		t.Errorf("standing = %+v", st)
	}
}

// TestPresentRefused: an item the case does not have, no witness on the stand, or a
// statement that was not made is not a move.
func TestPresentRefused(t *testing.T) {
	c := crossCase(t)
	empty := &Floor{Case: c, Phase: PhaseInterrogation}
	stand := &Floor{Case: c, Phase: PhaseInterrogation, Stand: WitnessSpeaker("tomas"), Statements: 1}
	closing := &Floor{Case: c, Phase: PhaseClosing, Stand: WitnessSpeaker("tomas"), Statements: 1}
	for _, tt := range []struct {
		f    *Floor
		m    Move
		want string
	}{
		{empty, Move{Kind: MovePresent, Evidence: "E1"}, "no witness is on the stand"},
		{empty, Move{Kind: MovePress, Statement: 1}, "no witness has made a statement"},
		{stand, Move{Kind: MovePresent, Evidence: "E9"}, `present "E9": the court record has E1, E2`},
		{stand, Move{Kind: MovePress, Statement: 2}, "numbered 1 to 1"},
		{closing, Move{Kind: MovePresent, Evidence: "E1"}, "present works in the interrogation"},
		{stand, Move{Kind: MoveHold}, "hold is called while the court speaks"},
		{stand, Move{Kind: MovePresent, Evidence: "E1"}, ""},
		{stand, Move{Kind: MovePress, Statement: 1, Text: "And then?"}, ""},
	} {
		err := tt.f.CheckMove(tt.m)
		if (tt.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckMove(%+v) = %v; want %q", tt.m, err, tt.want)
		}
	}
}

// patient is the scripted court whose Judge never calls for closing: the defense
// decides when the hearing ends.
func patient(role string, req *llm.Request) (string, bool) {
	user := req.Messages[0].Text
	if role != "judge" || !strings.Contains(user, "Phase: interrogation") || strings.Contains(req.System, "Rule on the objection") {
		return "", false
	}
	return "Counsel, continue. (turn " + strconv.Itoa(courttest.TurnOf(user)) + ")", true
}

// TestPressAsksForDetail: a press sends the floor to the witness who made the
// statement, asked about that turn.
func TestPressAsksForDetail(t *testing.T) {
	rec := record(t, fakeModels(nil))
	tr, ev := newCross(t, rec, Settings{})
	drive(t, tr, ev, plan(
		Move{Kind: MoveSpeak, Text: "What did you see?", To: WitnessSpeaker("tomas")},
		Move{Kind: MovePress, Statement: 1},
	))
	tx := tr.Transcript()
	first := 0
	for i, turn := range tx.Turns {
		if turn.Statement == 1 {
			first = i + 1
		}
		if turn.Press != 1 {
			continue
		}
		next := tx.Turns[i+1]
		req := rec.reqs[tr.s.TrialID+"/a0/t"+strconv.Itoa(i+2)+"/witness"]
		if next.Speaker != "Witness (Tomas Brandt)" || next.Statement == 0 || req == nil || !strings.Contains(req.Messages[0].Text, "presses you on what you said at ["+strconv.Itoa(first)+"]") {
			t.Errorf("after the press: %+v", next)
		}
		if !strings.Contains(turn.Text, "statement 1") {
			t.Errorf("press turn text = %q", turn.Text)
		}
		return
	}
	t.Fatal("no press turn")
}

// TestObjectionRulings: the Judge rules in a structured reply; an overruled objection
// costs credibility; an unreadable ruling is asked once more, then counts as
// overruled.
func TestObjectionRulings(t *testing.T) {
	unreadable := false
	rec := record(t, fakeModels(func(role string, req *llm.Request) (string, bool) {
		if unreadable && role == "judge" && strings.Contains(req.System, "Rule on the objection") {
			return "I think perhaps.", true
		}
		return patient(role, req)
	}))
	tr, ev := newCross(t, rec, Settings{})
	n := 0
	moves := plan(
		Move{Kind: MoveObject, Text: "Objection: counsel is leading the witness."},
		Move{Kind: MoveObject, Text: "Objection: I do not like it."},
		Move{Kind: MoveObject, Text: "Objection: hearsay."},
	)
	drive(t, tr, ev, func(f *Floor) Move {
		if f.Phase == PhaseInterrogation {
			n++
			unreadable = n == 3
		}
		return moves(f)
	})
	var rulings []string
	for _, turn := range tr.Transcript().Turns {
		if turn.Ruling != "" {
			rulings = append(rulings, turn.Ruling)
		}
	}
	if strings.Join(rulings, ",") != "sustained,overruled,overruled" {
		t.Errorf("rulings = %v", rulings)
	}
	if got := rec.count(AgentRuling); got != 4 {
		t.Errorf("%d ruling calls; want 4 (the unreadable one asked again)", got)
	}
	for key, req := range rec.reqs {
		if strings.HasSuffix(key, "/ruling") && req.JSONSchema == nil {
			t.Errorf("%s: no JSON schema", key)
		}
	}
	d := tr.Debrief()
	if d.Sustained != 1 || d.Overruled != 2 || d.Credibility != 100-2*OverruledCost {
		t.Errorf("debrief = %+v", d)
	}
	if n := len(kinds(ev.all, EventCredibility)); n != 2 {
		t.Errorf("%d credibility events; want 2", n)
	}
}

// TestCredibilitySpentEndsInterrogation: five misses bring credibility to 0; the
// Judge then ends the interrogation and closing follows.
func TestCredibilitySpentEndsInterrogation(t *testing.T) {
	rec := record(t, fakeModels(patient))
	tr, ev := newCross(t, rec, Settings{})
	miss := Move{Kind: MovePresent, Evidence: "E2"}
	drive(t, tr, ev, plan(Move{Kind: MoveSpeak, Text: "What did you see?", To: WitnessSpeaker("tomas")}, miss, miss, miss, miss, miss, miss))
	tx := tr.Transcript()
	last := -1
	for i, turn := range tx.Turns {
		if turn.Present != "" {
			last = i
		}
	}
	if tx.Debrief.Misses != 5 || tx.Debrief.Credibility != 0 {
		t.Fatalf("debrief = %+v; want five misses and no credibility", tx.Debrief)
	}
	judge := tx.Turns[last+1]
	req := rec.reqs[tr.s.TrialID+"/a0/t"+strconv.Itoa(last+2)+"/judge"]
	if judge.Speaker != "Judge" || judge.Phase != PhaseInterrogation || req == nil || !strings.Contains(req.Messages[0].Text, "End the interrogation now") {
		t.Errorf("after the last miss: %+v", judge)
	}
	if tx.Turns[last+2].Phase != PhaseClosing {
		t.Errorf("turn after the Judge's = %s; want closing", tx.Turns[last+2].Phase)
	}
}

// TestJudgeWarnsBeforeBudgetEnds: the Judge is told to warn when few turns are left,
// and a warning event says how many.
func TestJudgeWarnsBeforeBudgetEnds(t *testing.T) {
	rec := record(t, fakeModels(nil))
	tr, ev := runTrial(t, rec, ModelDefense{}, Settings{TurnBudget: 12})
	w := kinds(ev.all, EventWarning)
	if len(w) != 1 || w[0].Value > WarnTurns || w[0].Value < 1 {
		t.Fatalf("warning events = %+v", w)
	}
	warned := false
	for key, req := range rec.reqs {
		if strings.HasSuffix(key, "/judge") && strings.Contains(req.Messages[0].Text, "Warn the defense plainly") {
			warned = true
		}
	}
	if !warned {
		t.Error("no Judge turn was asked to warn the defense")
	}
	checkProcedure(t, tr.Transcript().Turns)
}

// TestRetryStatusAndPlainFailure: a retried model shows a status line; a failure for
// good is a plain sentence, its cause in the detail.
func TestRetryStatusAndPlainFailure(t *testing.T) {
	inner := fakeModels(func(role string, req *llm.Request) (string, bool) {
		return "", role == "prosecutor" && strings.Contains(req.Messages[0].Text, "Phase: interrogation")
	})
	ask := AskerFunc(func(ctx context.Context, c Call, req *llm.Request) (*llm.Reply, error) {
		if c.Agent == AgentProsecutor && req.OnReset != nil {
			req.OnReset() // as the retry wrapper does before asking again
		}
		return inner.Ask(ctx, c, req)
	})
	tr, err := NewTrial(fixture(t), 7, Settings{Models: testModels, MaxRestarts: -1}, ask, ModelDefense{})
	if err != nil {
		t.Fatal(err)
	}
	ev := &events{}
	if err := tr.Run(context.Background(), ev.add); err != nil {
		t.Fatal(err)
	}
	st := kinds(ev.all, EventStatus)
	if len(st) == 0 || st[0].Message != "the prosecutor is thinking… (retrying)" {
		t.Errorf("status events = %+v", st)
	}
	fails := kinds(ev.all, EventError)
	if len(fails) != 1 || fails[0].Message != "The model playing the prosecutor said nothing. The trial is abandoned." || !strings.Contains(fails[0].Detail, "empty at turn") {
		t.Errorf("error events = %+v", fails)
	}
}

func FuzzParseRuling(f *testing.F) {
	for _, s := range []string{`{"ruling":"sustained","reason":"x"}`, "```json\n{\"ruling\": \"Overruled\"}\n```", "<Ruling: sustained>", "", "{", `{"ruling": 3}`, "sustained"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, ok := ParseRuling(s)
		if ok != (r == RulingSustained || r == RulingOverruled) {
			t.Fatalf("ParseRuling(%q) = %q, %v", s, r, ok)
		}
	})
}

func TestParseRuling(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{`{"ruling": "sustained", "reason": "leading"}`, RulingSustained, true},
		{"Here:\n```json\n{\"ruling\": \" Overruled \"}\n```", RulingOverruled, true},
		{"<ruling = SUSTAINED>", RulingSustained, true},
		{`{"ruling": "maybe"}`, "", false},
		{"Sustained.", "", false},
	} {
		if got, ok := ParseRuling(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("ParseRuling(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
