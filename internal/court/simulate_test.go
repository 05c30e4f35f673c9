package court

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

func simStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "sim.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// simulate runs the fixture case with seeds 1..n against models and collects what the
// simulation reported.
func simulate(t *testing.T, st *store.Store, models map[llm.ModelName]llm.Model, n int) (*SimResult, map[string]*Transcript, []SimProgress) {
	t.Helper()
	var seeds []int64
	for i := 1; i <= n; i++ {
		seeds = append(seeds, int64(i))
	}
	written := map[string]*Transcript{}
	var prog []SimProgress
	var mu sync.Mutex
	sim := &Simulation{
		Session:     &runner.Session{Store: st, Models: models, NoCache: true},
		Cases:       []*Case{fixture(t)},
		Seeds:       seeds,
		Settings:    Settings{Models: testModels},
		Defense:     ModelDefense{},
		Concurrency: 2,
		Progress:    func(p SimProgress) { prog = append(prog, p) },
		TrialDone: func(tr *Transcript) error {
			mu.Lock()
			defer mu.Unlock()
			if _, dup := written[tr.TrialID]; dup {
				t.Errorf("trial %s reported twice", tr.TrialID)
			}
			written[tr.TrialID] = tr
			return nil
		},
	}
	res, err := sim.Run(context.Background())
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res, written, prog
}

func TestSimulationRunsEveryTrialAndResumes(t *testing.T) {
	st := simStore(t)
	var asked atomic.Int64
	res, written, prog := simulate(t, st, counted(fakeModels(nil), &asked), 3)
	if len(res.Trials) != 3 || len(written) != 3 {
		t.Fatalf("%d trials, %d transcripts; want 3 and 3", len(res.Trials), len(written))
	}
	if errs := res.Errors(); len(errs) > 0 {
		t.Fatalf("trial errors: %v", errs[0].Err)
	}
	if res.Completed() != 3 || res.Wins() != 3 || res.Losses() != 0 || res.Retries() != 0 {
		t.Errorf("completed %d, wins %d, losses %d, retries %d; want 3, 3, 0, 0", res.Completed(), res.Wins(), res.Losses(), res.Retries())
	}
	for i, tr := range res.Trials {
		want := TrialIDOf("lantern-theft", int64(i+1), testModels, "")
		if tr.TrialID != want || tr.Transcript.TrialID != want || tr.Transcript.Seed != int64(i+1) {
			t.Errorf("trial %d = %s (transcript %s, seed %d); want %s", i, tr.TrialID, tr.Transcript.TrialID, tr.Transcript.Seed, want)
		}
		if !strings.HasPrefix(want, "lantern-theft-s") {
			t.Errorf("trial id %q does not start with the case and seed", want)
		}
	}
	if int64(res.Tally.Asked) != asked.Load() || asked.Load() == 0 {
		t.Errorf("tally asked %d; the models saw %d", res.Tally.Asked, asked.Load())
	}
	last := prog[len(prog)-1]
	turns := 0
	for _, tr := range res.Trials {
		turns += len(tr.Transcript.Turns)
	}
	if last.Done != 3 || last.Trials != 3 || last.Errors != 0 || last.Turns != turns || last.ETA != 0 {
		t.Errorf("last progress %+v; want 3 of 3 done, %d turns", last, turns)
	}

	// The same simulation again asks nothing and gives the same transcripts.
	var again atomic.Int64
	res2, written2, _ := simulate(t, st, counted(fakeModels(nil), &again), 3)
	if again.Load() != 0 || res2.Tally.Asked != 0 || res2.Tally.Resumed != res.Tally.Jobs {
		t.Errorf("rerun asked %d (tally %+v); want 0, every call resumed", again.Load(), res2.Tally)
	}
	for id, tr := range written {
		a, _ := json.Marshal(tr)
		b, _ := json.Marshal(written2[id])
		if string(a) != string(b) {
			t.Errorf("trial %s differs on the rerun:\n%s\n%s", id, a, b)
		}
	}

	// One more seed asks only the new trial's calls.
	var more atomic.Int64
	res3, _, _ := simulate(t, st, counted(fakeModels(nil), &more), 4)
	if res3.Run != res.Run || more.Load() == 0 || more.Load() >= asked.Load() {
		t.Errorf("a fourth seed asked %d (run %s, first %s); want one trial's calls in the same run", more.Load(), res3.Run, res.Run)
	}
}

// A failing model restarts a trial and is a result; a session that cannot answer (here
// offline, with nothing recorded) is an error of the trial, not a restart.
func TestSimulationTrialErrors(t *testing.T) {
	st := simStore(t)
	sim := &Simulation{Session: &runner.Session{Store: st}, Cases: []*Case{fixture(t)}, Seeds: []int64{1, 2},
		Settings: Settings{Models: testModels}, Defense: ModelDefense{}}
	res, err := sim.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if errs := res.Errors(); len(errs) != 2 || !errors.Is(errs[0].Err, ErrNotRecorded) {
		t.Fatalf("errors %+v; want both trials not recorded", errs)
	}
	if res.Retries() != 0 || res.Completed() != 0 {
		t.Errorf("retries %d, completed %d; want 0 and 0", res.Retries(), res.Completed())
	}

	broken := fakeModels(func(role string, _ *llm.Request) (string, bool) { return "", role == "analyzer" })
	res, _, _ = simulate(t, simStore(t), counted(broken, new(atomic.Int64)), 1)
	tr := res.Trials[0]
	if tr.Err != nil || tr.Transcript.Completed || tr.Transcript.Retries != DefaultMaxRestarts+1 {
		t.Errorf("trial with a mute analyzer: err %v, %+v; want completed false after %d restarts", tr.Err, tr.Transcript, DefaultMaxRestarts+1)
	}
}

func TestTrialIDOfIsStable(t *testing.T) {
	a := TrialIDOf("c", 1, testModels, "")
	if a != TrialIDOf("c", 1, testModels, "") {
		t.Errorf("TrialIDOf is not stable")
	}
	other := testModels
	other.Judge = "fake/other"
	for _, b := range []string{TrialIDOf("c", 2, testModels, ""), TrialIDOf("c", 1, other, ""), TrialIDOf("c", 1, testModels, "abc")} {
		if a == b {
			t.Errorf("TrialIDOf gives %s for different trials", a)
		}
	}
}

// The bundled check transcripts are trials of the bundled cases and take their case
// description from the case records, never from a text of their own.
func TestBundledTranscriptsAreOfBundledCases(t *testing.T) {
	cs, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, c := range cs {
		ids[c.ID] = true
	}
	ts := check.BuiltinTranscripts()
	if len(ts) == 0 {
		t.Fatal("no bundled transcripts")
	}
	for _, tr := range ts {
		if !ids[tr.CaseID] || tr.CaseDescription != "" {
			t.Errorf("%s: case %q (bundled: %v), description %q; want a bundled case and no text of its own", tr.TrialID, tr.CaseID, ids[tr.CaseID], tr.CaseDescription)
		}
	}
}
