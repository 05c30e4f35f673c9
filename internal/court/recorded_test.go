package court

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// counted wraps every model of d to count the requests that reach it.
func counted(d Direct, n *atomic.Int64) map[llm.ModelName]llm.Model {
	out := map[llm.ModelName]llm.Model{}
	for name, m := range d {
		out[name] = llm.Func{ModelName: name, Fn: func(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
			n.Add(1)
			return m.Generate(ctx, req)
		}}
	}
	return out
}

func recordedSession(t *testing.T, path string, models map[llm.ModelName]llm.Model) (*Recorded, func()) {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	s := &runner.Session{Store: st, Models: models, NoCache: true}
	run, err := s.Begin(context.Background(), runner.Identity{Kind: KindCourt, Config: map[string]string{"test": "recorded"}})
	if err != nil {
		t.Fatal(err)
	}
	return &Recorded{Session: s, Run: run}, func() { st.Close() }
}

// A trial through the store, stopped halfway by its context, then run again: the second
// run asks only the calls the first did not finish, and the trial is the one an
// uninterrupted run gives.
func TestRecordedResumesMidTrial(t *testing.T) {
	want, _ := runTrial(t, fakeModels(nil), ModelDefense{}, Settings{})
	path := filepath.Join(t.TempDir(), "court.db")

	var asked atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopAfter := fakeModels(nil)
	models := counted(stopAfter, &asked)
	for name, m := range models {
		models[name] = llm.Func{ModelName: name, Fn: func(c context.Context, req *llm.Request) (*llm.Reply, error) {
			r, err := m.Generate(c, req)
			if asked.Load() == 9 {
				cancel()
			}
			return r, err
		}}
	}
	rec, done := recordedSession(t, path, models)
	tr, err := NewTrial(fixture(t), 7, Settings{Models: testModels}, rec, ModelDefense{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(ctx, nil); !errors.Is(err, context.Canceled) && err == nil {
		t.Fatalf("interrupted Run = %v; want an interruption", err)
	}
	done()
	first := asked.Load()
	if first < 9 {
		t.Fatalf("only %d requests before the interruption", first)
	}

	var again atomic.Int64
	rec, done = recordedSession(t, path, counted(fakeModels(nil), &again))
	defer done()
	got, _ := runTrial(t, rec, ModelDefense{}, Settings{})
	a, _ := json.Marshal(want.Transcript())
	b, _ := json.Marshal(got.Transcript())
	if string(a) != string(b) {
		t.Errorf("the resumed trial differs:\n%s\n%s", a, b)
	}
	var total atomic.Int64
	_, _ = runTrial(t, record(t, counting(fakeModels(nil), &total)), ModelDefense{}, Settings{})
	if first+again.Load() != total.Load() {
		t.Errorf("asked %d before and %d after the interruption; an uninterrupted trial asks %d", first, again.Load(), total.Load())
	}

	// A third run has every call and asks nothing.
	var third atomic.Int64
	rec.Session.Models = counted(fakeModels(nil), &third)
	runTrial(t, rec, ModelDefense{}, Settings{})
	if third.Load() != 0 {
		t.Errorf("a finished trial run again asked %d requests", third.Load())
	}
}

// counting is an Asker over d that counts every call.
func counting(d Direct, n *atomic.Int64) AskerFunc {
	return func(ctx context.Context, c Call, req *llm.Request) (*llm.Reply, error) {
		n.Add(1)
		return d.Ask(ctx, c, req)
	}
}

// Offline, a Recorded answers from the store and names a call it does not have.
func TestRecordedOffline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "court.db")
	rec, done := recordedSession(t, path, counted(fakeModels(nil), new(atomic.Int64)))
	want, _ := runTrial(t, rec, ModelDefense{}, Settings{})
	done()

	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	off := &Recorded{Session: &runner.Session{Store: st}, Run: rec.Run}
	got, _ := runTrial(t, off, ModelDefense{}, Settings{})
	a, _ := json.Marshal(want.Transcript())
	b, _ := json.Marshal(got.Transcript())
	if string(a) != string(b) {
		t.Errorf("offline replay differs")
	}
	_, err = off.Ask(context.Background(), Call{Key: "nope", Model: testModels.Judge}, &llm.Request{})
	if !errors.Is(err, ErrNotRecorded) {
		t.Errorf("offline Ask of an unknown call = %v; want ErrNotRecorded", err)
	}
}

// BenchmarkTrialTurnRecorded is the engine's overhead per turn with the store in the
// loop: every call a job of a run on a SQLite file (claimed, written, read back), the
// models instant. Reported as ns/turn.
func BenchmarkTrialTurnRecorded(b *testing.B) {
	st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	s := &runner.Session{Store: st, Models: counted(fakeModels(nil), new(atomic.Int64)), NoCache: true}
	run, err := s.Begin(context.Background(), runner.Identity{Kind: KindCourt, Config: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	c := fixture(b)
	turns := 0
	n := 0
	for b.Loop() {
		n++
		tr, err := NewTrial(c, 7, Settings{TrialID: fmt.Sprintf("b%d", n), Models: testModels}, &Recorded{Session: s, Run: run}, ModelDefense{})
		if err != nil {
			b.Fatal(err)
		}
		if err := tr.Run(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
		turns += len(tr.Turns())
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(turns), "ns/turn")
}
