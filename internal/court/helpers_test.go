package court

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// Every role of the scripted court has its own fake model.
var testModels = Models{Judge: "fake/judge", Prosecutor: "fake/prosecutor", Witness: "fake/witness", Analyzer: "fake/analyzer", Defense: "fake/defense"}

var historyLine = regexp.MustCompile(`(?m)^\[\d+\] `)

// turnOf is the number of the turn a role request asks for: one past the history.
func turnOf(user string) int { return len(historyLine.FindAllString(user, -1)) + 1 }

// script answers like a small, well-behaved court: it depends only on the request, so
// a retried request gets the same answer. role is the model's role (its name's id).
func script(role, system, user string) string {
	n := turnOf(user)
	switch role {
	case "judge":
		switch {
		case strings.HasPrefix(system, "You are the court reporter"):
			return "Summary: the watchman saw a figure but no face; the pawnbroker saw a bearded man."
		case strings.HasPrefix(system, "You decide the outcome"):
			return `{"outcome": "win", "justification": "No witness placed the defendant at the theft or the pawn shop."}`
		case strings.Contains(user, "Pronounce the verdict now"):
			return "The court finds the defendant not guilty. The trial is closed."
		case n >= 10:
			return fmt.Sprintf("The court has heard the case and will proceed to closing statements. (turn %d)", n)
		}
		return fmt.Sprintf("Counsel, continue. (turn %d)", n)
	case "prosecutor", "defense":
		if strings.Contains(user, "Phase: interrogation") && n%4 == 1 {
			return fmt.Sprintf("Witness, tell the court what you saw that night. (%s, turn %d)", role, n)
		}
		return fmt.Sprintf("Your Honour, the record speaks for itself. (%s, turn %d)", role, n)
	case "witness":
		return fmt.Sprintf("I saw a figure in the fog, no face. (turn %d)", n)
	case "analyzer":
		return analyzerScript(user)
	}
	return "?"
}

var routeLine = regexp.MustCompile(`(?m)^The turn to route: ([^:]+): (.*)$`)
var beforeLine = regexp.MustCompile(`(?m)^The turn before \(for context\): ([^:]+):`)

// analyzerScript routes as the scripted court's clerk: witness questions go to a
// witness (the two in turn), addresses of the bench to the Judge, and the Judge hands
// the floor to the side that did not speak before it, or to closing.
func analyzerScript(user string) string {
	m := routeLine.FindStringSubmatch(user)
	if m == nil {
		return "I cannot tell."
	}
	speaker, text := m[1], m[2]
	switch {
	case speaker == "Judge" && strings.Contains(text, "closing"):
		return "<NextSpeaker: Verdict>"
	case speaker == "Judge":
		if b := beforeLine.FindStringSubmatch(user); b != nil && b[1] == "Prosecutor" {
			return "<NextSpeaker: Defense>"
		}
		return "<NextSpeaker: Prosecutor>"
	case strings.HasPrefix(text, "Witness,"):
		if strings.Contains(text, "defense") {
			return "<NextSpeaker: Witness_nell>"
		}
		return "<NextSpeaker: Witness_tomas>"
	}
	return "<NextSpeaker: Judge>"
}

// fakeModels is one llm.Func per role running script, with an optional override.
func fakeModels(override func(role string, req *llm.Request) (string, bool)) Direct {
	d := Direct{}
	for _, name := range []llm.ModelName{testModels.Judge, testModels.Prosecutor, testModels.Witness, testModels.Analyzer, testModels.Defense} {
		role := name.ID()
		d[name] = llm.Func{ModelName: name, Fn: func(_ context.Context, req *llm.Request) (*llm.Reply, error) {
			if override != nil {
				if text, ok := override(role, req); ok {
					return &llm.Reply{Text: text, Finish: llm.FinishStop}, nil
				}
			}
			return &llm.Reply{Text: script(role, req.System, req.Messages[0].Text), Finish: llm.FinishStop}, nil
		}}
	}
	return d
}

// recorder is an Asker that records every call and checks its key is new.
type recorder struct {
	t     testing.TB
	inner Asker
	mu    sync.Mutex
	calls []Call
	reqs  map[string]*llm.Request
	reps  map[string]*llm.Reply
}

func record(t testing.TB, inner Asker) *recorder {
	return &recorder{t: t, inner: inner, reqs: map[string]*llm.Request{}, reps: map[string]*llm.Reply{}}
}

func (r *recorder) Ask(ctx context.Context, c Call, req *llm.Request) (*llm.Reply, error) {
	r.mu.Lock()
	if _, dup := r.reqs[c.Key]; dup {
		r.t.Errorf("key %q asked twice", c.Key)
	}
	r.calls = append(r.calls, c)
	r.reqs[c.Key] = req
	r.mu.Unlock()
	rep, err := r.inner.Ask(ctx, c, req)
	if err == nil {
		r.mu.Lock()
		r.reps[c.Key] = rep
		r.mu.Unlock()
	}
	return rep, err
}

func (r *recorder) count(a Agent) int {
	n := 0
	for _, c := range r.calls {
		if c.Agent == a {
			n++
		}
	}
	return n
}

// replay is an Asker that answers only from recorded replies, as a store-backed one
// does for a trial it has already seen; a new call fails the test.
func replay(t testing.TB, reps map[string]*llm.Reply) AskerFunc {
	return func(_ context.Context, c Call, _ *llm.Request) (*llm.Reply, error) {
		rep, ok := reps[c.Key]
		if !ok {
			t.Errorf("replay asked a new call %q", c.Key)
			return nil, fmt.Errorf("no recorded reply for %s", c.Key)
		}
		return rep, nil
	}
}

// events collects a trial's events and checks each turn's deltas add up to it.
type events struct {
	all []Event
}

func (e *events) add(ev Event) { e.all = append(e.all, ev) }

func (e *events) check(t *testing.T) {
	t.Helper()
	var shown strings.Builder
	open := false
	for _, ev := range e.all {
		switch ev.Kind {
		case EventTurn:
			shown.Reset()
			open = true
		case EventReset:
			shown.Reset()
		case EventDelta:
			if !open {
				t.Errorf("delta outside a turn: %+v", ev)
			}
			shown.WriteString(ev.Text)
		case EventEnd:
			if !open {
				t.Errorf("end without a turn event: %+v", ev)
			}
			if strings.TrimSpace(shown.String()) != ev.Whole.Text {
				t.Errorf("turn %d: deltas %q; the turn says %q", ev.Turn, shown.String(), ev.Whole.Text)
			}
			open = false
		}
	}
}

func kinds(es []Event, k EventKind) []Event {
	var out []Event
	for _, e := range es {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}
