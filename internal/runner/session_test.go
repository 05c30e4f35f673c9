package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// peakModel records the most requests it had in flight at once.
type peakModel struct {
	name           llm.ModelName
	inFlight, peak atomic.Int64
}

func (m *peakModel) Name() llm.ModelName { return m.name }

func (m *peakModel) Generate(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
	n := m.inFlight.Add(1)
	defer m.inFlight.Add(-1)
	for {
		p := m.peak.Load()
		if n <= p || m.peak.CompareAndSwap(p, n) {
			break
		}
	}
	// Hold the slot a little so that, without the cap, more workers would pile in.
	time.Sleep(time.Millisecond)
	return &llm.Reply{Text: "ok", Finish: llm.FinishStop}, nil
}

func TestConcurrencyIsCappedPerModel(t *testing.T) {
	a, b := &peakModel{name: "test/a"}, &peakModel{name: "test/b"}
	const limit = 3
	plan := Plan{Run: "r", Jobs: jobs([]llm.ModelName{a.name, b.name}, 60),
		Models: map[llm.ModelName]llm.Model{a.name: a, b.name: b}, Concurrency: limit}
	st := memStore(t)
	if _, err := st.BeginRun(context.Background(), store.Run{ID: "r", Kind: "test", Config: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	sum, err := Run(context.Background(), st, plan)
	if err != nil || sum.Answered != 120 {
		t.Fatalf("Run = %+v, %v; want 120 answered", sum, err)
	}
	for _, m := range []*peakModel{a, b} {
		if p := m.peak.Load(); p > limit || p < 1 {
			t.Errorf("%s had %d requests in flight at once; want 1 to %d", m.name, p, limit)
		}
	}
}

// turnModel answers with the number of turns it was shown.
type turnModel struct {
	mu    sync.Mutex
	calls int
}

func (m *turnModel) Name() llm.ModelName { return "test/turns" }

func (m *turnModel) Generate(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
	m.mu.Lock()
	m.calls++
	m.mu.Unlock()
	return &llm.Reply{Text: fmt.Sprintf("turn %d", len(req.Messages)), Finish: llm.FinishStop}, nil
}

// TestAskOneTurnAtATime: a caller whose requests depend on earlier replies asks them one
// by one; a second session over the same store finds every turn answered and asks none.
func TestAskOneTurnAtATime(t *testing.T) {
	st := memStore(t)
	m := &turnModel{}
	trial := func(s *Session) []string {
		run, err := s.Begin(context.Background(), Identity{Kind: "test-trial", Config: map[string]int{"turns": 3}})
		if err != nil {
			t.Fatal(err)
		}
		conv := Conversation{System: "You are the judge."}
		var got []string
		for turn := range 3 {
			conv = conv.With(llm.RoleUser, fmt.Sprintf("argument %d", turn))
			res, err := s.Ask(context.Background(), run, "trial", Ask{Job: Job{Key: fmt.Sprintf("t%d", turn), Model: m.Name(),
				Item: "case-1", Request: conv.Request()}}, nil)
			if err != nil || res == nil || res.Err != "" {
				t.Fatalf("Ask turn %d = %+v, %v; want a reply", turn, res, err)
			}
			got = append(got, res.Reply.Text)
			conv = conv.With(llm.RoleAssistant, res.Reply.Text)
		}
		if err := s.Finish(context.Background(), run, nil, false); err != nil {
			t.Fatal(err)
		}
		return got
	}
	models := map[llm.ModelName]llm.Model{m.Name(): m}
	first := trial(&Session{Store: st, Models: models})
	if want := "turn 1,turn 3,turn 5"; strings.Join(first, ",") != want || m.calls != 3 {
		t.Fatalf("first trial replies %v after %d calls; want %s after 3", first, m.calls, want)
	}
	second := trial(&Session{Store: st, Models: models, Reachable: func(context.Context) error {
		t.Error("a resumed trial checked reachability")
		return nil
	}})
	if strings.Join(second, ",") != strings.Join(first, ",") || m.calls != 3 {
		t.Errorf("resumed trial replies %v after %d calls in all; want %v and still 3", second, m.calls, first)
	}
	runs, err := st.Runs(context.Background(), "test-trial")
	if err != nil || len(runs) != 1 || runs[0].Status != store.StatusDone {
		t.Errorf("runs = %v, %v; want one done run", runs, err)
	}
}

// TestBeginKeepsRunIDs: run ids are what stores written before sessions hold, so a
// resumed run is found again: endpoints are appended to the id key unless the
// configuration already names them.
func TestBeginKeepsRunIDs(t *testing.T) {
	m := &turnModel{}
	s := &Session{Models: map[llm.ModelName]llm.Model{m.Name(): m},
		Endpoint: func(llm.ModelName) string { return "http://127.0.0.1:9/v1" }}
	cfg := map[string]string{"kind": "k"}
	b, _ := json.Marshal(cfg)
	eps, _ := json.Marshal(map[string]string{string(m.Name()): "http://127.0.0.1:9/v1"})
	tests := []struct {
		name     string
		inConfig bool
		want     store.RunID
	}{
		{"endpoints in the id", false, store.RunIDFor("k", append(append(b, 0), eps...))},
		{"endpoints in the config", true, store.RunIDFor("k", b)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := (&Session{Models: s.Models, Endpoint: s.Endpoint, Store: memStore(t)}).Begin(context.Background(),
				Identity{Kind: "k", Config: cfg, EndpointsInConfig: tt.inConfig})
			if err != nil || id != tt.want {
				t.Errorf("Begin = %s, %v; want %s", id, err, tt.want)
			}
		})
	}
}
