package court

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/check"
)

// A person plays the prosecution: the defense's lines come from the defense's model,
// the prosecutor's model is never asked, the person's turns (the Prosecutor's) are the
// transcript's player turns, the cross-examination is theirs (a contradiction of the
// defense's witness is exposed, one of the prosecution's own is a miss), and the verdict
// and the debrief are the prosecution's.
func TestPlayProsecution(t *testing.T) {
	rec := record(t, fakeModels(nil))
	tr, err := NewTrial(crossCase(t), 7, Settings{Models: testModels, Side: SideProsecution}, rec, NewHuman())
	if err != nil {
		t.Fatal(err)
	}
	ev := &events{}
	step := 0
	drive(t, tr, ev, func(f *Floor) Move {
		if f.Side() != SideProsecution {
			t.Errorf("the floor is the %s's", f.Side())
		}
		if f.Phase != PhaseInterrogation {
			return Move{Kind: MoveSpeak, Text: "The people will prove every element of the charge."}
		}
		step++
		switch step {
		case 1:
			return Move{Kind: MoveSpeak, Text: "Witness, where were you that night?", To: WitnessSpeaker("nell")}
		case 2:
			return Move{Kind: MovePresent, Evidence: "E2"}
		case 3:
			return Move{Kind: MoveSpeak, Text: "Witness, what did you see?", To: WitnessSpeaker("tomas")}
		case 4:
			return Move{Kind: MovePresent, Evidence: "E1"}
		}
		return Move{Kind: MoveRest}
	})
	ev.check(t)
	if n := rec.count(AgentProsecutor); n != 0 {
		t.Errorf("the prosecutor's model was asked %d times; the person plays it", n)
	}
	if rec.count(AgentDefense) == 0 {
		t.Error("the defense's model was never asked")
	}
	tx := tr.Transcript()
	if tx.Side != SideProsecution || tx.Outcome == nil || tx.Debrief == nil || tx.Debrief.Side != SideProsecution {
		t.Fatalf("transcript side %q outcome %v debrief %+v", tx.Side, tx.Outcome, tx.Debrief)
	}
	players, defense := 0, 0
	for _, tu := range tx.Turns {
		switch tu.Role {
		case check.RoleProsecutor:
			players++
			if !tu.Player {
				t.Errorf("a prosecutor turn is not the player's: %+v", tu)
			}
		case check.RoleDefense:
			defense++
			if tu.Player || !strings.Contains(tu.Text, "(defense, turn") {
				t.Errorf("a defense turn is not the defense model's: %+v", tu)
			}
		default:
			if tu.Player {
				t.Errorf("a %s turn is marked the player's", tu.Role)
			}
		}
	}
	if players < 6 || defense < 2 {
		t.Errorf("%d prosecutor turns, %d defense turns", players, defense)
	}
	// C2 (nell, called by the defense) was the prosecution's to find; C1 (the
	// prosecution's own witness) is not, so E1 against tomas was a miss.
	d := tx.Debrief
	if d.Planted != 1 || d.Found != 1 || d.Contradictions[0].ID != "C2" || d.Misses != 1 || d.Credibility != StartCredibility-MissCost {
		t.Errorf("debrief %+v", d)
	}
	for key, req := range rec.reqs {
		if !strings.Contains(key, "/evaluation") {
			continue
		}
		sys, user := req.System, req.Messages[0].Text
		if !strings.Contains(sys, "The prosecution wins when its goal is met") || !strings.Contains(user, "The prosecution's goal") ||
			!strings.Contains(user, "proven against") {
			t.Errorf("the evaluation is not the prosecution's:\n%s\n%s", sys, user)
		}
	}
	// check leaves out exactly the player's turns.
	ct := tx.ForCheck()
	scored := 0
	for _, tu := range ct.Turns {
		if !tu.Player {
			scored++
		}
	}
	if scored != len(tx.Turns)-players {
		t.Errorf("%d turns scored of %d with %d player turns", scored, len(tx.Turns), players)
	}
}

// Playing the prosecution needs a defense model.
func TestProsecutionNeedsDefenseModel(t *testing.T) {
	m := testModels
	m.Defense = ""
	if _, err := NewTrial(crossCase(t), 7, Settings{Models: m, Side: SideProsecution}, fakeModels(nil), NewHuman()); err == nil {
		t.Error("a prosecution trial without a defense model was made")
	}
	if _, err := NewTrial(crossCase(t), 7, Settings{Models: m, Side: "jury"}, fakeModels(nil), NewHuman()); err == nil {
		t.Error("side jury was taken")
	}
}

func TestContradictionSides(t *testing.T) {
	c := crossCase(t)
	for _, tt := range []struct {
		x    Contradiction
		side Side
		want bool
	}{
		{c.Contradictions[0], SideDefense, true},
		{c.Contradictions[0], SideProsecution, false},
		{c.Contradictions[1], SideDefense, true},
		{c.Contradictions[1], SideProsecution, true},
		{Contradiction{Witness: "tomas", Side: SideProsecution}, SideProsecution, true},
		{Contradiction{Witness: "tomas", Side: SideProsecution}, SideDefense, false},
		{Contradiction{Witness: "nell", Side: SideDefense}, SideProsecution, false},
	} {
		if got := c.FindableBy(tt.x, tt.side); got != tt.want {
			t.Errorf("FindableBy(%+v, %s) = %v", tt.x, tt.side, got)
		}
	}
	if _, ok, _ := c.ExposeFor(SideProsecution, "tomas", "E1", nil); ok {
		t.Error("the prosecution exposed its own witness's contradiction")
	}
	if x, ok, _ := c.ExposeFor(SideProsecution, "nell", "E2", nil); !ok || x.ID != "C2" {
		t.Error("the prosecution did not expose the defense witness's contradiction")
	}
	if !strings.Contains(c.GoalOf(SideProsecution), c.Charge[:10]) {
		t.Errorf("GoalOf(prosecution) = %q", c.GoalOf(SideProsecution))
	}
	c.ProsecutionGoal = "a conviction"
	if c.GoalOf(SideProsecution) != "a conviction" || c.GoalOf(SideDefense) != c.DefenseGoal {
		t.Error("GoalOf ignores the case's goals")
	}
}

func TestCaseSideFields(t *testing.T) {
	base := `{"case_id":"x","title":"T","kind":"criminal","charge":"theft","defendant":{"name":"A","description":"B"},"summary":"S",
"evidence":[{"id":"E1","name":"n","description":"d"}],"witnesses":[{"id":"w","name":"W","occupation":"o","called_by":"defense","personality":"p","knows":["k"]}],
"defense_goal":"acquittal"%s}`
	good := `,"prosecution_goal":"a conviction","contradictions":[{"id":"C1","witness":"w","claim":"c","evidence":["E1"],"explanation":"e","side":"prosecution"}]`
	cs, err := ParseCases([]byte(strings.ReplaceAll(strings.Replace(base, "%s", good, 1), "\n", "")), "x.json")
	if err != nil {
		t.Fatal(err)
	}
	if cs[0].ProsecutionGoal != "a conviction" || cs[0].Contradictions[0].Side != SideProsecution || cs[0].Public().ProsecutionGoal != "a conviction" {
		t.Errorf("case %+v", cs[0])
	}
	for bad, field := range map[string]string{
		`,"prosecution_goal":"  "`: "prosecution_goal",
		`,"contradictions":[{"id":"C1","witness":"w","claim":"c","evidence":["E1"],"explanation":"e","side":"jury"}]`: "contradictions[0].side",
	} {
		_, err := ParseCases([]byte(strings.ReplaceAll(strings.Replace(base, "%s", bad, 1), "\n", "")), "x.json")
		if err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: err = %v; want one naming %s", bad, err, field)
		}
	}
}

// A watched game: models on every seat, run to its verdict by one Advance; paused, it
// stops after a turn until resumed; skipped, it goes to closing at once.
func TestWatchedGame(t *testing.T) {
	ctx := context.Background()
	var asked atomic.Int64
	gs := openGames(t, filepath.Join(t.TempDir(), "games.db"), counted(fakeModels(nil), &asked))
	g, err := gs.New(ctx, "w1", GameState{Case: crossCase(t), Seed: 7, Models: testModels, Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Pause(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- g.Advance(ctx) }()
	// Paused: the first turn ends and nothing more is asked.
	deadline := time.Now().Add(5 * time.Second)
	for len(kinds(evs(g), EventEnd)) < 1 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	n := asked.Load()
	time.Sleep(100 * time.Millisecond)
	if asked.Load() != n || len(kinds(evs(g), EventEnd)) != 1 {
		t.Fatalf("a paused trial went on: %d asks, %d turns", asked.Load(), len(kinds(evs(g), EventEnd)))
	}
	if v := g.View(); !v.Watch || !v.Paused {
		t.Errorf("view %+v", v)
	}
	if err := g.Skip(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	v := g.View()
	if v.Outcome == nil || v.Phase != PhaseVerdict {
		t.Fatalf("the skipped trial did not reach its verdict: %+v", v)
	}
	// Skipped after the first turn: the introduction, then closing and the verdict.
	var phases []Phase
	for _, tu := range v.Turns {
		phases = append(phases, tu.Phase)
		if tu.Phase == PhaseInterrogation {
			t.Errorf("a skipped trial has an interrogation turn: %+v", tu)
		}
	}
	if len(v.Turns) != 6 {
		t.Errorf("phases %v", phases)
	}
	for _, tu := range v.Turns {
		if tu.Role == check.RoleDefense && (!tu.Player || !strings.Contains(tu.Text, "(defense, turn")) {
			t.Errorf("the watched defense is not the model standing in for the player: %+v", tu)
		}
	}
	if err := g.Pause(); err == nil {
		t.Error("a finished trial was paused")
	}
	// Loaded from the store, the skipped trial replays to its verdict, asking nothing.
	before := asked.Load()
	l, err := gs.Load(ctx, "w1")
	if err != nil {
		t.Fatal(err)
	}
	if lv := l.View(); lv.Outcome == nil || len(lv.Turns) != len(v.Turns) || asked.Load() != before {
		t.Errorf("the loaded watched trial stands at %s with %d turns (asked %d)", lv.Phase, len(lv.Turns), asked.Load()-before)
	}
	p, _ := gs.New(ctx, "p1", GameState{Case: crossCase(t), Seed: 7, Models: gameModels()})
	if err := p.Pause(); err == nil {
		t.Error("a played game was paused")
	}
}

func evs(g *Game) []Event { e, _ := g.Events(0); return e }

// A stored simulated trial replays from the store alone, turn by turn through the same
// events, to the same transcript; an unknown id is ErrNoStoredTrial.
func TestReplayStoredTrial(t *testing.T) {
	st := simStore(t)
	var asked atomic.Int64
	res, written, _ := simulate(t, st, counted(fakeModels(nil), &asked), 1)
	id := res.Trials[0].TrialID
	caseOf := func(cid string) (*Case, error) {
		if cid == fixture(t).ID {
			return fixture(t), nil
		}
		return nil, nil
	}
	before := asked.Load()
	s, err := FindStoredTrial(context.Background(), st, id, caseOf)
	if err != nil {
		t.Fatal(err)
	}
	ev := &events{}
	tx, err := s.Replay(context.Background(), st, ev.add)
	if err != nil {
		t.Fatal(err)
	}
	ev.check(t)
	if asked.Load() != before {
		t.Errorf("the replay asked %d calls", asked.Load()-before)
	}
	want := written[id]
	if len(tx.Turns) != len(want.Turns) || len(kinds(ev.all, EventEnd)) != len(want.Turns) || len(kinds(ev.all, EventVerdict)) != 1 ||
		*tx.Outcome != *want.Outcome {
		t.Errorf("replayed %d turns (%d ends); the trial had %d", len(tx.Turns), len(kinds(ev.all, EventEnd)), len(want.Turns))
	}
	for i := range tx.Turns {
		if tx.Turns[i].Text != want.Turns[i].Text {
			t.Errorf("turn %d: %q; want %q", i+1, tx.Turns[i].Text, want.Turns[i].Text)
		}
	}
	for _, bad := range []string{"nope", "lantern-theft-s1-zzzzzz", "lantern-theft-s99-abcdef", "other-s1-abcdef"} {
		if _, err := FindStoredTrial(context.Background(), st, bad, caseOf); !errors.Is(err, ErrNoStoredTrial) {
			t.Errorf("FindStoredTrial(%q) = %v", bad, err)
		}
	}
}

// The stored trials are listed as a replay finds them: every simulated trial of the
// store once, with its case, models, turns and verdict, and none whose case is unknown.
func TestReplayListStoredTrials(t *testing.T) {
	st := simStore(t)
	res, written, _ := simulate(t, st, fakeModels(nil), 2)
	caseOf := func(cid string) (*Case, error) {
		if cid == fixture(t).ID {
			return fixture(t), nil
		}
		return nil, nil
	}
	list, err := StoredTrials(context.Background(), st, caseOf)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(res.Trials) {
		t.Fatalf("StoredTrials = %d trials; the simulation played %d", len(list), len(res.Trials))
	}
	for _, info := range list {
		want := written[info.ID]
		if want == nil {
			t.Errorf("listed %q, not a trial of the simulation", info.ID)
			continue
		}
		if info.CaseID != fixture(t).ID || info.Title != fixture(t).Title || info.Run != res.Run ||
			info.Turns != len(want.Turns) || !info.Completed || info.Outcome != *want.Outcome ||
			info.Models.Judge == "" || info.Updated.IsZero() || info.Seed < 1 || info.Seed > 2 {
			t.Errorf("listed %+v; the trial had %d turns, outcome %s", info, len(want.Turns), *want.Outcome)
		}
	}
	tr, err := FindStoredTrial(context.Background(), st, list[0].ID, caseOf)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := tr.Info(context.Background(), st); err != nil || *info != list[0] {
		t.Errorf("Info = %+v, %v; the list has %+v", info, err, list[0])
	}
	none, err := StoredTrials(context.Background(), st, func(string) (*Case, error) { return nil, nil })
	if err != nil || len(none) != 0 {
		t.Errorf("with no case known: %v, %v", none, err)
	}
}
