package court

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

func runTrial(t *testing.T, ask Asker, def Player, s Settings) (*Trial, *events) {
	t.Helper()
	if s.Models == (Models{}) {
		s.Models = testModels
	}
	tr, err := NewTrial(fixture(t), 7, s, ask, def)
	if err != nil {
		t.Fatalf("NewTrial: %v", err)
	}
	ev := &events{}
	if err := tr.Run(context.Background(), ev.add); err != nil {
		t.Fatalf("Run: %v", err)
	}
	ev.check(t)
	return tr, ev
}

// checkProcedure checks the rules of spec section 2 on a finished trial's turns.
func checkProcedure(t *testing.T, turns []Turn) {
	t.Helper()
	if len(turns) < 7 {
		t.Fatalf("only %d turns", len(turns))
	}
	for i, want := range []string{"Judge", "Prosecutor", "Defense"} {
		if turns[i].Speaker != want || turns[i].Phase != PhaseIntroduction {
			t.Errorf("turn %d = %s (%s); want %s in the introduction", i+1, turns[i].Speaker, turns[i].Phase, want)
		}
	}
	n := len(turns)
	if v := turns[n-1]; v.Speaker != "Judge" || v.Phase != PhaseVerdict {
		t.Errorf("last turn = %s (%s); want the Judge's verdict", v.Speaker, v.Phase)
	}
	if turns[n-3].Speaker != "Prosecutor" || turns[n-2].Speaker != "Defense" || turns[n-3].Phase != PhaseClosing || turns[n-2].Phase != PhaseClosing {
		t.Errorf("closing = %s, %s; want Prosecutor then Defense", turns[n-3].Speaker, turns[n-2].Speaker)
	}
	for i := 1; i < n; i++ {
		a, b := turns[i-1], turns[i]
		if b.Phase == PhaseInterrogation && a.Speaker == b.Speaker {
			t.Errorf("turns %d and %d are both %s", i, i+1, a.Speaker)
		}
		if a.Role == check.RoleWitness && b.Role == check.RoleWitness {
			t.Errorf("turn %d: a witness handed the floor to a witness", i+1)
		}
		if b.Player != (b.Role == check.RoleDefense) {
			t.Errorf("turn %d (%s): player = %v", i+1, b.Speaker, b.Player)
		}
		if b.Role == check.RoleWitness && !strings.HasPrefix(b.Speaker, "Witness (") {
			t.Errorf("turn %d: witness speaker %q", i+1, b.Speaker)
		}
	}
}

func TestFullTrial(t *testing.T) {
	rec := record(t, fakeModels(nil))
	tr, ev := runTrial(t, rec, ModelDefense{}, Settings{})
	tx := tr.Transcript()
	if !tx.Completed || tx.Outcome == nil || *tx.Outcome != OutcomeWin || tx.Retries != 0 {
		t.Fatalf("transcript: completed %v, outcome %v, retries %d, restarts %+v", tx.Completed, tx.Outcome, tx.Retries, tx.Restarts)
	}
	checkProcedure(t, tx.Turns)
	witnesses := map[string]bool{}
	for _, turn := range tx.Turns {
		if turn.Role == check.RoleWitness {
			witnesses[turn.Speaker] = true
		}
	}
	if !witnesses["Witness (Tomas Brandt)"] {
		t.Errorf("witnesses heard: %v; want the prosecution's", witnesses)
	}
	if tx.Verdict == nil || !strings.HasPrefix(tx.Verdict.Summary, "Summary:") || tx.Verdict.Justification == "" {
		t.Errorf("verdict = %+v", tx.Verdict)
	}
	if v := kinds(ev.all, EventVerdict); len(v) != 1 || v[0].Outcome != OutcomeWin {
		t.Errorf("verdict events = %+v", v)
	}
	if n := len(kinds(ev.all, EventEnd)); n != len(tx.Turns) {
		t.Errorf("%d end events for %d turns", n, len(tx.Turns))
	}
	if tx.Models["defense"] != "fake/defense" || tx.Models["analyzer"] != "fake/analyzer" {
		t.Errorf("models = %v", tx.Models)
	}
	// The witness's turns never ask the analyzer, nor does a court turn after which the
	// fair floor gives the defense the floor; every other interrogation turn does.
	routed, run := 0, 0
	for i, turn := range tx.Turns {
		if turn.Phase != PhaseInterrogation {
			continue
		}
		if turn.Role == check.RoleDefense {
			run = 0
		} else {
			run++
		}
		forced := run >= MaxCourtRun && tx.Turns[i+1].Role == check.RoleDefense
		if turn.Role != check.RoleWitness && !forced {
			routed++
		}
	}
	if got := rec.count(AgentAnalyzer); got != routed {
		t.Errorf("analyzer asked %d times; want %d (one per non-witness interrogation turn the floor rule did not decide)", got, routed)
	}
	// The role's system prompt holds the case record and the seed every turn.
	for key, req := range rec.reqs {
		if strings.HasSuffix(key, "/prosecutor") && (!strings.Contains(req.System, "Trial seed: 7.") || !strings.Contains(req.System, `E2 "Pawn ticket"`) || !strings.Contains(req.System, "Never help the defense")) {
			t.Errorf("%s: system prompt lacks the seed, the record or the role:\n%s", key, req.System)
		}
		if strings.HasSuffix(key, "/evaluation") && req.JSONSchema == nil {
			t.Errorf("%s: no JSON schema", key)
		}
	}

	// The transcript reads back through the checklist judge's loader.
	data, err := json.MarshalIndent(tx, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got, err := check.ParseTranscripts(data, "lantern-theft-s7.json", check.FormatJSON)
	if err != nil {
		t.Fatalf("check.ParseTranscripts: %v", err)
	}
	ct := got[0]
	if string(ct.TrialID) != "lantern-theft-s7" || ct.CaseID != "lantern-theft" || *ct.Seed != 7 || ct.Outcome != "win" ||
		ct.Completed == nil || !*ct.Completed || ct.CaseDescription == "" || len(ct.Turns) != len(tx.Turns) {
		t.Errorf("check read %+v", ct)
	}
	for i, turn := range ct.Turns {
		if turn != tx.Turns[i].Turn {
			t.Errorf("turn %d read as %+v; want %+v", i+1, turn, tx.Turns[i].Turn)
		}
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if raw["turns"].([]any)[0].(map[string]any)["phase"] != "introduction" || raw["restarts"] == nil {
		t.Errorf("transcript JSON lacks phase or restarts: %s", data[:200])
	}
}

func TestReplayAsksNothingNew(t *testing.T) {
	rec := record(t, fakeModels(nil))
	first, _ := runTrial(t, rec, ModelDefense{}, Settings{})
	again, _ := runTrial(t, replay(t, rec.reps), ModelDefense{}, Settings{})
	a, _ := json.Marshal(first.Transcript())
	b, _ := json.Marshal(again.Transcript())
	if string(a) != string(b) {
		t.Errorf("a replayed trial differs:\n%s\n%s", a, b)
	}
}

// flaky answers garbage instead of a tag for a fixed 30% of analyzer calls, chosen by
// the call's key so a rerun is the same.
func flaky(inner Asker) AskerFunc {
	return func(ctx context.Context, c Call, req *llm.Request) (*llm.Reply, error) {
		if sum := sha256.Sum256([]byte(c.Key)); c.Agent == AgentAnalyzer && sum[0]%10 < 3 {
			return &llm.Reply{Text: "Probably the witness? Hard to say."}, nil
		}
		return inner.Ask(ctx, c, req)
	}
}

func TestGarbageAnalyzer(t *testing.T) {
	reasks := 0
	for seed := range int64(8) {
		rec := record(t, flaky(fakeModels(nil)))
		tr, err := NewTrial(fixture(t), seed, Settings{Models: testModels}, rec, ModelDefense{})
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Run(context.Background(), nil); err != nil {
			t.Fatalf("seed %d: Run: %v", seed, err)
		}
		tx := tr.Transcript()
		if !tx.Completed {
			t.Errorf("seed %d: not completed: %+v", seed, tx.Restarts)
		}
		checkProcedure(t, tx.Turns)
		for _, c := range rec.calls {
			if c.Agent == AgentAnalyzer && c.Try > 0 {
				reasks++
				if !strings.HasSuffix(c.Key, fmt.Sprintf("/r%d", c.Try)) {
					t.Errorf("re-ask key %q", c.Key)
				}
				if n := len(rec.reqs[c.Key].Messages); n != 1+2*c.Try {
					t.Errorf("re-ask %s has %d messages; want the bad answers and the reasons", c.Key, n)
				}
			}
		}
	}
	if reasks == 0 {
		t.Errorf("no analyzer call was asked again")
	}
}

func TestAnalyzerAlwaysFails(t *testing.T) {
	rec := record(t, fakeModels(func(role string, _ *llm.Request) (string, bool) {
		return "<NextSpeaker: Judge>", role == "analyzer" // never allowed after the Judge
	}))
	tr, ev := runTrial(t, rec, ModelDefense{}, Settings{})
	tx := tr.Transcript()
	if tx.Completed || tx.Outcome != nil || tx.Retries != DefaultMaxRestarts+1 || len(tx.Restarts) != tx.Retries {
		t.Fatalf("completed %v, outcome %v, retries %d, restarts %+v", tx.Completed, tx.Outcome, tx.Retries, tx.Restarts)
	}
	for i, r := range tx.Restarts {
		if r.Reason != ReasonTagging || r.Attempt != i || r.Turn != 4 {
			t.Errorf("restart %d = %+v; want tagging at turn 4", i, r)
		}
	}
	if got, want := rec.count(AgentAnalyzer), (DefaultMaxRestarts+1)*(DefaultReasks+1); got != want {
		t.Errorf("analyzer asked %d times; want %d", got, want)
	}
	seeds := map[string]bool{}
	for key, req := range rec.reqs {
		if strings.HasSuffix(key, "/t1/judge") {
			seeds[req.System[strings.Index(req.System, "Trial seed:"):][:20]] = true
		}
	}
	if len(seeds) != DefaultMaxRestarts+1 {
		t.Errorf("attempts used seeds %v; want a new one each", seeds)
	}
	errs := kinds(ev.all, EventError)
	if len(errs) != 4 || !errs[0].Restart || errs[3].Restart {
		t.Errorf("error events = %+v", errs)
	}
	if len(tx.Turns) != 4 {
		t.Errorf("abandoned transcript has %d turns; want the last attempt's 4", len(tx.Turns))
	}
}

func TestLoopRestarts(t *testing.T) {
	// The prosecutor says the same line every turn, but only in the first attempt.
	rec := record(t, fakeModels(func(role string, req *llm.Request) (string, bool) {
		return "The defendant did it.", role == "prosecutor" && strings.Contains(req.System, "Trial seed: 7.")
	}))
	tr, _ := runTrial(t, rec, ModelDefense{}, Settings{})
	tx := tr.Transcript()
	if !tx.Completed || tx.Retries != 1 || tx.Restarts[0].Reason != ReasonLoop || tx.Restarts[0].Turn != 5 {
		t.Fatalf("completed %v, retries %d, restarts %+v; want one loop at turn 5", tx.Completed, tx.Retries, tx.Restarts)
	}
	checkProcedure(t, tx.Turns)
	if strings.Contains(tx.Turns[1].Text, "The defendant did it.") {
		t.Errorf("the transcript kept the failed attempt's turns")
	}
}

func TestEmptyAndFreeze(t *testing.T) {
	tests := []struct {
		name string
		ask  Asker
		want Reason
	}{
		{"empty", fakeModels(func(role string, _ *llm.Request) (string, bool) { return "  ", role == "witness" }), ReasonEmpty},
		{"freeze", AskerFunc(func(ctx context.Context, c Call, req *llm.Request) (*llm.Reply, error) {
			if c.Agent == AgentWitness {
				return nil, &llm.AttemptsError{Attempts: 6, Err: errors.New("503")}
			}
			return fakeModels(nil).Ask(ctx, c, req)
		}), ReasonFreeze},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, _ := runTrial(t, tt.ask, ModelDefense{}, Settings{MaxRestarts: 1})
			tx := tr.Transcript()
			if tx.Completed || tx.Retries != 2 || tx.Restarts[0].Reason != tt.want {
				t.Errorf("completed %v, retries %d, restarts %+v; want %s", tx.Completed, tx.Retries, tx.Restarts, tt.want)
			}
		})
	}
}

func TestVerdictSeesOnlyTheSummary(t *testing.T) {
	const planted = "The violet heron sings at midnight."
	script := &Script{Moves: []Move{{Kind: MoveSpeak, Text: "Members of the court: " + planted}}}
	rec := record(t, fakeModels(nil))
	tr, _ := runTrial(t, rec, script, Settings{})
	if !tr.Transcript().Completed {
		t.Fatalf("not completed: %+v", tr.Restarts())
	}
	var sum, eval int
	for key, req := range rec.reqs {
		b, _ := json.Marshal(req)
		switch {
		case strings.HasSuffix(key, "/summary"):
			sum++
			if !strings.Contains(string(b), planted) {
				t.Errorf("the summarisation request lacks the planted sentence")
			}
		case strings.Contains(key, "/evaluation"):
			eval++
			if strings.Contains(string(b), planted) || strings.Contains(string(b), "Counsel, continue") {
				t.Errorf("the evaluation request holds raw history: %s", b)
			}
			if !strings.Contains(string(b), "Summary: the watchman") || !strings.Contains(string(b), "an acquittal on the charge of theft") {
				t.Errorf("the evaluation request lacks the summary or the goal: %s", b)
			}
		}
	}
	if sum != 1 || eval != 1 {
		t.Errorf("%d summary and %d evaluation requests; want 1 each", sum, eval)
	}
}

func TestEvaluationReasked(t *testing.T) {
	answers := []string{"The defense wins.", `{"outcome": "draw", "justification": "x"}`}
	rec := record(t, fakeModels(func(role string, req *llm.Request) (string, bool) {
		if role != "judge" || !strings.HasPrefix(req.System, "You decide") || len(req.Messages) > 2*len(answers) {
			return "", false
		}
		return answers[len(req.Messages)/2], true
	}))
	tr, _ := runTrial(t, rec, ModelDefense{}, Settings{})
	if tx := tr.Transcript(); !tx.Completed || *tx.Outcome != OutcomeWin {
		t.Fatalf("completed %v, restarts %+v", tx.Completed, tx.Restarts)
	}
	if n := rec.count(AgentEvaluation); n != 3 {
		t.Errorf("evaluation asked %d times; want 3", n)
	}
}

func TestHumanDefense(t *testing.T) {
	rec := record(t, fakeModels(nil))
	s := Settings{Models: Models{Judge: "fake/judge", Prosecutor: "fake/prosecutor", Witness: "fake/witness", Analyzer: "fake/analyzer"}}
	tr, err := NewTrial(fixture(t), 7, s, rec, NewHuman())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ev := &events{}
	if err := tr.Submit(Move{Kind: MoveSpeak, Text: "too early"}); !errors.Is(err, ErrNotAwaiting) {
		t.Errorf("Submit before the floor = %v; want ErrNotAwaiting", err)
	}
	if err := tr.Run(ctx, ev.add); !errors.Is(err, ErrAwaitingDefense) || !tr.Awaiting() || len(tr.Turns()) != 2 {
		t.Fatalf("Run = %v, awaiting %v after %d turns; want to wait at the defense's opening", err, tr.Awaiting(), len(tr.Turns()))
	}
	if a := kinds(ev.all, EventAwaiting); len(a) != 1 || a[0].Turn != 3 {
		t.Errorf("awaiting events = %+v", a)
	}
	for _, bad := range []Move{{Kind: MoveSpeak}, {Kind: "dance", Text: "x"}, {Kind: MoveSpeak, Text: strings.Repeat("x", MaxMoveText+1)}} {
		if err := tr.Submit(bad); err == nil {
			t.Errorf("Submit(%+v) = nil; want an error", bad)
		}
	}
	play := func(m Move) {
		t.Helper()
		if err := tr.Submit(m); err != nil {
			t.Fatalf("Submit(%+v) = %v", m, err)
		}
		if err := tr.Run(ctx, ev.add); err != nil && !errors.Is(err, ErrAwaitingDefense) {
			t.Fatalf("Run = %v", err)
		}
	}
	play(Move{Kind: MoveSpeak, Text: "My client was nowhere near the pier."})
	// Opening done: J P D J(4) -> P(5) ... wait for the defense.
	if !tr.Awaiting() || tr.Phase() != PhaseInterrogation {
		t.Fatalf("not waiting in the interrogation: phase %s, turns %d", tr.Phase(), len(tr.Turns()))
	}
	if err := tr.Submit(Move{Kind: MoveSpeak, Text: "Hello?", To: WitnessSpeaker("ghost")}); err == nil {
		t.Errorf("Submit(to an unknown witness) = nil")
	}
	before := rec.count(AgentAnalyzer)
	play(Move{Kind: MoveSpeak, Text: "Ms Okafor, who pawned the lantern?", To: WitnessSpeaker("nell")})
	turns := tr.Turns()
	var at int
	for i, turn := range turns {
		if turn.Text == "Ms Okafor, who pawned the lantern?" {
			at = i
		}
	}
	if turns[at+1].Speaker != "Witness (Nell Okafor)" || rec.count(AgentAnalyzer) != before {
		t.Errorf("after a move to Witness_nell: %s spoke, analyzer asked %d more times", turns[at+1].Speaker, rec.count(AgentAnalyzer)-before)
	}
	play(Move{Kind: MoveObject, Text: "leading the witness"})
	turns = tr.Turns()
	for i, turn := range turns {
		if turn.Text == "Objection: leading the witness" && turns[i+1].Speaker != "Judge" {
			t.Errorf("after an objection %s spoke; want the Judge", turns[i+1].Speaker)
		}
	}
	if tr.Phase() != PhaseClosing || !tr.Awaiting() {
		t.Fatalf("after the objection: phase %s, awaiting %v; want the defense's closing", tr.Phase(), tr.Awaiting())
	}
	play(Move{Kind: MoveSpeak, Text: "Nobody saw her face. Acquit."})
	if !tr.Done() || !tr.Transcript().Completed {
		t.Fatalf("trial not finished: %+v", tr.Transcript().Restarts)
	}
	ev.check(t)
	tx := tr.Transcript()
	checkProcedure(t, tx.Turns)
	if _, ok := tx.Models["defense"]; ok {
		t.Errorf("a person's defense is listed as a model: %v", tx.Models)
	}

	// A server restarted after the game rebuilds it from the case, the seed and the
	// moves, asking nothing new.
	again, err := NewTrial(fixture(t), 7, s, replay(t, rec.reps), NewHuman(tr.Moves()...))
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Run(ctx, nil); err != nil {
		t.Fatalf("rebuilt Run = %v", err)
	}
	a, _ := json.Marshal(tx)
	b, _ := json.Marshal(again.Transcript())
	if string(a) != string(b) {
		t.Errorf("the rebuilt game differs")
	}
	// Rebuilt from its first two moves, it waits where the game stood then.
	mid, _ := NewTrial(fixture(t), 7, s, replay(t, rec.reps), NewHuman(tr.Moves()[:2]...))
	if err := mid.Run(ctx, nil); !errors.Is(err, ErrAwaitingDefense) || !slices.Equal(turnTexts(mid.Turns()), turnTexts(tx.Turns[:len(mid.Turns())])) {
		t.Errorf("mid-game rebuild: %v at %d turns", err, len(mid.Turns()))
	}
}

func turnTexts(ts []Turn) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Speaker + ": " + t.Text
	}
	return out
}

func TestStreamedAndResetText(t *testing.T) {
	ask := AskerFunc(func(ctx context.Context, c Call, req *llm.Request) (*llm.Reply, error) {
		rep, err := fakeModels(nil).Ask(ctx, c, req)
		if err != nil || req.OnDelta == nil {
			return rep, err
		}
		switch c.Agent {
		case AgentJudge: // streams word by word
			for _, w := range strings.SplitAfter(rep.Text, " ") {
				req.OnDelta(w)
			}
		case AgentProsecutor: // a stream cut off, then a retry that did not stream
			req.OnDelta("Your Hon")
		}
		return rep, nil
	})
	_, ev := runTrial(t, ask, ModelDefense{}, Settings{})
	if len(kinds(ev.all, EventReset)) == 0 {
		t.Errorf("no reset event after a partial stream")
	}
	for _, e := range ev.all {
		if e.Kind == EventDelta && e.Text == "" {
			t.Errorf("empty delta at turn %d", e.Turn)
		}
	}
}

func TestScriptAndSettings(t *testing.T) {
	s, err := ParseScript([]byte("# opening\nWe will show doubt.\n\n@Witness_tomas did you see a face?\nObjection: speculation\n@Bailiff hello\nrest\n"), "d.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []Move{{Kind: MoveSpeak, Text: "We will show doubt."}, {Kind: MoveSpeak, Text: "did you see a face?", To: WitnessSpeaker("tomas")},
		{Kind: MoveObject, Text: "Objection: speculation"}, {Kind: MoveSpeak, Text: "@Bailiff hello"}, {Kind: MoveRest, Text: "rest"}}
	if !slices.Equal(s.Moves, want) {
		t.Errorf("ParseScript = %+v; want %+v", s.Moves, want)
	}
	if _, err := ParseScript([]byte("@Judge\n"), "d.txt"); err == nil || err.Error() != "d.txt:1: no text after the addressee" {
		t.Errorf("ParseScript(@Judge) = %v", err)
	}
	if _, err := NewTrial(fixture(t), 1, Settings{TurnBudget: 2}, nil, s); err == nil {
		t.Errorf("NewTrial(budget 2) = nil error")
	}
	if _, err := NewTrial(fixture(t), 1, Settings{}, nil, ModelDefense{}); err == nil {
		t.Errorf("NewTrial(model defense without a model) = nil error")
	}
	if s1 := AttemptSeed(7, 1); AttemptSeed(7, 0) != 7 || s1 == AttemptSeed(7, 2) || s1 == 7 || s1 < 0 || s1 >= 1_000_000 {
		t.Errorf("AttemptSeed: %d %d %d", AttemptSeed(7, 0), AttemptSeed(7, 1), AttemptSeed(7, 2))
	}
}

func TestRestEntersClosing(t *testing.T) {
	rec := record(t, fakeModels(nil))
	tr, _ := runTrial(t, rec, &Script{Moves: []Move{{Kind: MoveSpeak, Text: "We will show doubt."}, {Kind: MoveRest}}}, Settings{})
	tx := tr.Transcript()
	checkProcedure(t, tx.Turns)
	var rest int
	for i, turn := range tx.Turns {
		if turn.Text == "The defense rests." {
			rest = i
			break
		}
	}
	if rest == 0 || tx.Turns[rest].Phase != PhaseInterrogation || tx.Turns[rest+1].Phase != PhaseClosing || tx.Turns[rest+1].Speaker != "Prosecutor" {
		t.Errorf("after resting at turn %d: %+v", rest+1, tx.Turns[rest+1:])
	}
	// The script ran out: the closing statement is a rest too, and still a turn.
	if n := len(tx.Turns); tx.Turns[n-2].Text != "The defense rests." {
		t.Errorf("closing statement = %q", tx.Turns[n-2].Text)
	}
}

func TestTurnBudget(t *testing.T) {
	tr, _ := runTrial(t, fakeModels(nil), ModelDefense{}, Settings{TurnBudget: 6})
	tx := tr.Transcript()
	checkProcedure(t, tx.Turns)
	// Charged: every introduction and defense turn, and each court turn but the first
	// after a defense turn (the reply the defense is owed).
	n, run := 0, 0
	var last Turn
	for _, turn := range tx.Turns {
		switch {
		case turn.Phase == PhaseIntroduction:
			n++
		case turn.Phase != PhaseInterrogation:
			continue
		case turn.Role == check.RoleDefense:
			n, run = n+1, 0
		default:
			if run > 0 {
				n++
			}
			run++
		}
		last = turn
	}
	if n != 6 || !tx.Completed || tx.Debrief == nil || tx.Debrief.TurnsUsed != 6 {
		t.Errorf("%d turns charged before closing with a budget of 6 (completed %v, debrief %+v)", n, tx.Completed, tx.Debrief)
	}
	if last.Role == check.RoleDefense {
		t.Errorf("the interrogation ended on the defense's turn %q: its last question went unanswered", last.Text)
	}
}

func TestCaseDescription(t *testing.T) {
	d := CaseDescription(fixture(t))
	for _, want := range []string{"The Harbour Lantern Theft: a criminal case.", "Ilse Varga", "E2 Pawn ticket", "Nell Okafor, pawnbroker, called by the defense", "a tall man with a beard", "The defense seeks an acquittal on the charge of theft."} {
		if !strings.Contains(d, want) {
			t.Errorf("CaseDescription lacks %q:\n%s", want, d)
		}
	}
}

// TestRetriedStreamResetsAtOnce cuts the prosecutor's first streamed attempt with a
// retryable error: the retry wrapper's OnReset must void the partial text before the
// second attempt streams, so no delta of the cut attempt is followed by the next
// attempt's text without a reset between them.
func TestRetriedStreamResetsAtOnce(t *testing.T) {
	var cut atomic.Bool
	inner := fakeModels(nil)
	ask := AskerFunc(func(ctx context.Context, c Call, req *llm.Request) (*llm.Reply, error) {
		if c.Agent != AgentProsecutor || req.OnDelta == nil {
			return inner.Ask(ctx, c, req)
		}
		m := llm.Func{ModelName: "fake/prosecutor", Fn: func(ctx context.Context, r *llm.Request) (*llm.Reply, error) {
			rep, err := inner.Ask(ctx, c, r)
			if err != nil {
				return nil, err
			}
			if !cut.Swap(true) {
				r.OnDelta("HALF-SENTENCE ")
				return nil, &llm.Error{Provider: "fake", Status: 503, Retryable: true}
			}
			r.OnDelta(rep.Text)
			return rep, nil
		}}
		policy := llm.DefaultRetry()
		policy.BaseDelay, policy.MaxDelay = time.Millisecond, time.Millisecond
		return llm.WithRetry(m, policy, nil, nil).Generate(ctx, req)
	})
	_, ev := runTrial(t, ask, ModelDefense{}, Settings{})
	half := -1
	for i, e := range ev.all {
		if e.Kind == EventDelta && e.Text == "HALF-SENTENCE " {
			half = i
			break
		}
	}
	if half < 0 {
		t.Fatal("the cut attempt never streamed")
	}
	if next := ev.all[half+1]; next.Kind != EventReset {
		t.Errorf("event after the cut attempt's text = %s; want reset", next.Kind)
	}
}

// A model defense that writes more than a person may type is cut, not failed.
func TestModelDefenseCutToTheLimit(t *testing.T) {
	long := strings.Repeat("objectionable words ", MaxMoveText/10)
	d := fakeModels(func(role string, req *llm.Request) (string, bool) {
		return "Your Honour, " + long, role == "defense"
	})
	tr, _ := runTrial(t, d, ModelDefense{}, Settings{})
	if tr.Transcript().Retries != 0 || !tr.Done() {
		t.Fatalf("retries %d, done %v; want a trial without failures", tr.Transcript().Retries, tr.Done())
	}
	for _, turn := range tr.Transcript().Turns {
		if turn.Player && utf8.RuneCountInString(turn.Text) > MaxMoveText {
			t.Errorf("a defense turn of %d characters", utf8.RuneCountInString(turn.Text))
		}
	}
	if got := cutText("abc def", 5); got != "abc" {
		t.Errorf("cutText = %q", got)
	}
}
