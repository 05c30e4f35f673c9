package court

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/court/courttest"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

// Every role of the scripted court has its own fake model.
var testModels = Models{Judge: "fake/judge", Prosecutor: "fake/prosecutor", Witness: "fake/witness", Analyzer: "fake/analyzer", Defense: "fake/defense"}

// script answers as the scripted court of courttest; role is the model's role (its
// name's id).
func script(role, system, user string) string { return courttest.Script{}.Reply(role, system, user) }

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
	// hook, when set, sees each event as it comes (from the trial's goroutine).
	hook func(Event)
}

func (e *events) add(ev Event) {
	e.all = append(e.all, ev)
	if e.hook != nil {
		e.hook(ev)
	}
}

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
