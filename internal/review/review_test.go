package review

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

func ids(n int) []seduce.SampleID {
	out := make([]seduce.SampleID, n)
	for i := range out {
		out[i] = seduce.SampleID(fmt.Sprintf("s%03d", i))
	}
	return out
}

func TestAssignBlind(t *testing.T) {
	for _, tc := range []struct {
		name      string
		n         int
		reviewers []string
	}{
		{"three reviewers, 95 samples", 95, []string{"ann", "bob", "cy"}},
		{"five reviewers, 1792 samples", 1792, []string{"e", "d", "c", "b", "a"}},
		{"three reviewers, one sample", 1, []string{"x", "y", "z"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			as, err := Assign(ids(tc.n), tc.reviewers, 7)
			if err != nil {
				t.Fatal(err)
			}
			order := func(r string) int { return slices.Index(tc.reviewers, r) }
			type slots struct{ by [4]string }
			per := map[string]*slots{}
			load := map[string]int{}
			for _, a := range as {
				if per[a.SampleID] == nil {
					per[a.SampleID] = &slots{}
				}
				if a.Slot < 1 || a.Slot > 3 || per[a.SampleID].by[a.Slot] != "" {
					t.Fatalf("sample %s: slot %d given twice or out of range", a.SampleID, a.Slot)
				}
				per[a.SampleID].by[a.Slot] = a.Reviewer
				load[a.Reviewer]++
			}
			thirds := 0
			for _, id := range ids(tc.n) {
				s := per[string(id)]
				if s == nil || s.by[1] == "" || s.by[2] == "" {
					t.Fatalf("sample %s has not two reviewers: %v", id, s)
				}
				if s.by[1] == s.by[2] || order(s.by[1]) > order(s.by[2]) {
					t.Fatalf("sample %s: slots %q, %q: want two reviewers, the earlier named first", id, s.by[1], s.by[2])
				}
				if s.by[3] != "" {
					thirds++
					if s.by[3] == s.by[1] || s.by[3] == s.by[2] {
						t.Fatalf("sample %s: third reviewer %q is one of the pair", id, s.by[3])
					}
				}
			}
			if want := int(math.Ceil(float64(tc.n) / 10)); thirds != want {
				t.Errorf("third reviews = %d; want %d (10%% of %d rounded up)", thirds, want, tc.n)
			}
			// The load is even: no reviewer has more than the mean + one pair's share.
			mean := float64(2*tc.n+thirds) / float64(len(tc.reviewers))
			for r, l := range load {
				if math.Abs(float64(l)-mean) > float64(len(tc.reviewers))+1 {
					t.Errorf("reviewer %s has %d samples; mean %.1f", r, l, mean)
				}
			}
			again, _ := Assign(ids(tc.n), tc.reviewers, 7)
			if !slices.Equal(as, again) {
				t.Error("the same seed gave another assignment")
			}
		})
	}
	t.Run("the seed chooses the third-review set", func(t *testing.T) {
		third := func(seed int64) []string {
			as, _ := Assign(ids(200), []string{"a", "b", "c"}, seed)
			var out []string
			for _, a := range as {
				if a.Slot == 3 {
					out = append(out, a.SampleID)
				}
			}
			slices.Sort(out)
			return out
		}
		if slices.Equal(third(1), third(2)) {
			t.Error("seeds 1 and 2 chose the same third-review samples")
		}
	})
	t.Run("bad reviewer lists", func(t *testing.T) {
		for _, rs := range [][]string{{"a", "b"}, {"a", "b", "a"}, {"a", "b", "c d"}, {"a", "", "c"}} {
			var ie *InputError
			if _, err := Assign(ids(3), rs, 1); !errors.As(err, &ie) {
				t.Errorf("Assign(%q) = %v; want an *InputError", rs, err)
			}
		}
	})
}

// smallSet is the first n samples of the reference set as a JSONL file.
func smallSet(t testing.TB, n int) []byte {
	t.Helper()
	ds, err := seduce.Builtin(nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, s := range ds.Samples[:n] {
		if err := writeSample(&buf, s, ds.Extra[s.ID]); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

func newProject(t testing.TB, n int, reviewers ...string) (*Project, *store.Store) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	id, err := New(ctx, st, NewOptions{DatasetName: "small.jsonl", Format: seduce.FormatJSONL, Data: smallSet(t, n), Reviewers: reviewers, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Open(ctx, st, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p, st
}

func TestKappaHandExample(t *testing.T) {
	ctx := context.Background()
	p, _ := newProject(t, 10, "a", "b", "c")
	// Rater 1 and rater 2 of the ten samples, in dataset order (A approve, C correct, R reject):
	//   r1: A A A A A A C C R R
	//   r2: A A A A A C C R R A
	// po = 7/10; marginals r1 (.6, .2, .2), r2 (.6, .2, .2); pe = .36 + .04 + .04 = .44;
	// kappa = (.7 − .44) / (1 − .44) = .26/.56 = 0.4642857…
	r1 := "AAAAAACCRR"
	r2 := "AAAAACCRRA"
	dec := map[byte]string{'A': Approve, 'C': Correct, 'R': Reject}
	for i, s := range p.Dataset.Samples {
		sl := p.Slots(s.ID)
		for k, code := range []byte{r1[i], r2[i]} {
			d := Decision{Reviewer: sl[k], Sample: s.ID, Decision: dec[code], Note: "n"}
			if code == 'C' {
				d.Set = map[string]string{"statement": "A corrected statement for " + string(s.ID)}
			}
			if _, err := p.Decide(ctx, d); err != nil {
				t.Fatal(err)
			}
		}
	}
	ag, err := p.Agreement(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ag.Samples != 10 || ag.Decided != 10 || ag.DoubleReviewed != 10 || ag.ThirdReviewed != 0 {
		t.Errorf("counts = %d/%d/%d/%d; want 10/10/10/0", ag.Samples, ag.Decided, ag.DoubleReviewed, ag.ThirdReviewed)
	}
	if ag.RawAgreement == nil || math.Abs(*ag.RawAgreement-0.7) > 1e-12 {
		t.Errorf("raw agreement = %v; want 0.7", ag.RawAgreement)
	}
	if ag.Kappa == nil || math.Abs(*ag.Kappa-0.26/0.56) > 1e-12 {
		t.Errorf("kappa = %v; want %v", ag.Kappa, 0.26/0.56)
	}
	want := []seduce.SampleID{p.Dataset.Samples[5].ID, p.Dataset.Samples[7].ID, p.Dataset.Samples[9].ID}
	if !slices.Equal(ag.Disagreements, want) {
		t.Errorf("disagreements = %v; want %v", ag.Disagreements, want)
	}
	// Sample 7 (index 6) both corrected, the same way? No: each wrote its own text.
	if len(ag.ConflictingCorrections) != 0 {
		t.Errorf("conflicting corrections = %v; want none (both set the same text)", ag.ConflictingCorrections)
	}
	// Ground truth: no one changed requires_roll, so both raters agree throughout on the
	// 7 samples neither rejected (indices 0-6 but 7 has R from r2: 0-6 → 7 samples).
	if ag.GroundTruth.N != 7 || ag.GroundTruth.RawAgreement == nil || *ag.GroundTruth.RawAgreement != 1 {
		t.Errorf("ground truth = %+v; want 7 samples, raw agreement 1", ag.GroundTruth)
	}
}

func TestAuditTrail(t *testing.T) {
	ctx := context.Background()
	p, _ := newProject(t, 4, "a", "b", "c")
	s := p.Dataset.Samples[0]
	who := p.Slots(s.ID)[0]
	steps := []Decision{
		{Reviewer: who, Sample: s.ID, Decision: Approve},
		{Reviewer: who, Sample: s.ID, Decision: Approve}, // the same again: not applied twice
		{Reviewer: who, Sample: s.ID, Decision: Correct, Set: map[string]string{"requires_roll": "false"}, Note: "trivial"},
	}
	wantChanged := []bool{true, false, true}
	for i, d := range steps {
		changed, err := p.Decide(ctx, d)
		if err != nil || changed != wantChanged[i] {
			t.Fatalf("step %d: Decide = %v, %v; want %v", i, changed, err, wantChanged[i])
		}
	}
	if changed, err := p.Undo(ctx, who, s.ID); err != nil || !changed {
		t.Fatalf("Undo = %v, %v", changed, err)
	}
	evs, err := p.Audit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range evs {
		line := e.Action + ":" + e.Reviewer
		if e.Before != nil {
			line += " before=" + e.Before.Decision
		}
		if e.After != nil {
			line += " after=" + e.After.Decision + " " + fmt.Sprint(e.After.Changes)
		}
		got = append(got, line)
	}
	want := []string{
		"decide:" + who + " after=approve map[]",
		"change:" + who + " before=approve after=correct map[requires_roll:false]",
		"undo:" + who + " before=correct",
	}
	if !slices.Equal(got, want) {
		t.Errorf("audit =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Seq <= evs[i-1].Seq || evs[i].At.Before(evs[i-1].At) {
			t.Errorf("audit line %d is out of order", i)
		}
	}
	rem, _ := p.Remaining(ctx, who)
	if !slices.Contains(rem, s.ID) {
		t.Errorf("after the undo %s is not %s's to decide again: %v", s.ID, who, rem)
	}
}

func TestDecideRefuses(t *testing.T) {
	ctx := context.Background()
	p, _ := newProject(t, 4, "a", "b", "c")
	s := p.Dataset.Samples[0]
	sl := p.Slots(s.ID)
	outsider := ""
	for _, r := range p.Reviewers {
		if !slices.Contains(sl[:], r) {
			outsider = r
		}
	}
	for _, tc := range []struct {
		name string
		d    Decision
	}{
		{"not assigned", Decision{Reviewer: outsider, Sample: s.ID, Decision: Approve}},
		{"unknown reviewer", Decision{Reviewer: "zed", Sample: s.ID, Decision: Approve}},
		{"unknown sample", Decision{Reviewer: sl[0], Sample: "nope", Decision: Approve}},
		{"unknown decision", Decision{Reviewer: sl[0], Sample: s.ID, Decision: "maybe"}},
		{"correction without fields", Decision{Reviewer: sl[0], Sample: s.ID, Decision: Correct}},
		{"approve with fields", Decision{Reviewer: sl[0], Sample: s.ID, Decision: Approve, Set: map[string]string{"truth": "x"}}},
		{"unknown field", Decision{Reviewer: sl[0], Sample: s.ID, Decision: Correct, Set: map[string]string{"style": "Neutral"}}},
		{"bad bool", Decision{Reviewer: sl[0], Sample: s.ID, Decision: Correct, Set: map[string]string{"requires_roll": "maybe"}}},
		{"unknown skill", Decision{Reviewer: sl[0], Sample: s.ID, Decision: Correct, Set: map[string]string{"skill": "Juggling"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "not assigned" && outsider == "" {
				t.Fatal("every reviewer has the sample")
			}
			var ie *InputError
			if _, err := p.Decide(ctx, tc.d); !errors.As(err, &ie) {
				t.Errorf("Decide(%+v) = %v; want an *InputError", tc.d, err)
			}
		})
	}
	if evs, _ := p.Audit(ctx); len(evs) != 0 {
		t.Errorf("refused decisions left %d audit lines", len(evs))
	}
}

func TestExport(t *testing.T) {
	ctx := context.Background()
	p, _ := newProject(t, 8, "a", "b", "c")
	ss := p.Dataset.Samples
	both := func(i int, d Decision) {
		t.Helper()
		for _, r := range p.Slots(ss[i].ID) {
			if r == "" {
				continue
			}
			d.Reviewer, d.Sample = r, ss[i].ID
			if _, err := p.Decide(ctx, d); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range ss {
		both(i, Decision{Decision: Approve})
	}
	both(1, Decision{Decision: Reject, Note: "off setting"})
	both(2, Decision{Decision: Correct, Set: map[string]string{"statement": "I climb <carefully> & \"slowly\"."}, Note: "clearer"})
	// A disagreement nobody settles stays in, disputed.
	sl := p.Slots(ss[3].ID)
	p.Decide(ctx, Decision{Reviewer: sl[0], Sample: ss[3].ID, Decision: Reject})
	if sl[2] != "" {
		p.Decide(ctx, Decision{Reviewer: sl[2], Sample: ss[3].ID, Decision: Correct, Set: map[string]string{"truth": "t"}})
	}
	var out bytes.Buffer
	sum, err := p.Export(ctx, &out)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := seduce.ReadDataset(bytes.NewReader(out.Bytes()), "export.jsonl", seduce.FormatJSONL, nil)
	if err != nil {
		t.Fatalf("the export does not validate: %v", err)
	}
	if sum.Written != 7 || sum.Rejected != 1 || sum.Disputed != 1 || len(ds.Samples) != 7 {
		t.Errorf("summary = %+v, %d samples; want 7 written, 1 rejected, 1 disputed", sum, len(ds.Samples))
	}
	if _, ok := ds.Lookup(ss[1].ID); ok {
		t.Errorf("rejected sample %s was exported", ss[1].ID)
	}
	got, _ := ds.Lookup(ss[2].ID)
	if got.Statement != "I climb <carefully> & \"slowly\"." || got.ReviewStatus != "corrected" {
		t.Errorf("corrected sample = %q, %q; want the new statement, corrected", got.Statement, got.ReviewStatus)
	}
	if !strings.HasPrefix(got.ReviewedBy, "keeper-2,") || strings.Count(got.ReviewedBy, ",") < 2 {
		t.Errorf("reviewed_by = %q; want keeper-2 (kept from the set) then this project's reviewers", got.ReviewedBy)
	}
	if d, _ := ds.Lookup(ss[3].ID); d.ReviewStatus != Disputed {
		t.Errorf("disputed sample status = %q; want disputed", d.ReviewStatus)
	}
	if d, _ := ds.Lookup(ss[0].ID); d.ReviewStatus != "approved" {
		t.Errorf("approved sample status = %q", d.ReviewStatus)
	}
}

func TestExportCarriesTruthAcrossAScenario(t *testing.T) {
	ctx := context.Background()
	p, _ := newProject(t, 8, "a", "b", "c")
	ss := p.Dataset.Samples
	if ss[0].ScenarioID != ss[1].ScenarioID {
		t.Fatalf("samples 0 and 1 are of different scenarios")
	}
	flip := fmt.Sprint(!ss[0].RequiresRoll)
	for _, r := range p.Slots(ss[0].ID) {
		if r != "" {
			p.Decide(ctx, Decision{Reviewer: r, Sample: ss[0].ID, Decision: Correct, Set: map[string]string{"requires_roll": flip}})
		}
	}
	var out bytes.Buffer
	if _, err := p.Export(ctx, &out); err != nil {
		t.Fatal(err)
	}
	ds, err := seduce.ReadDataset(&out, "export.jsonl", seduce.FormatJSONL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ds.Samples {
		if s.ScenarioID == ss[0].ScenarioID && fmt.Sprint(s.RequiresRoll) != flip {
			t.Errorf("%s kept requires_roll %v; the scenario was corrected to %s", s.ID, s.RequiresRoll, flip)
		}
	}
}

func TestConcurrentDecisions(t *testing.T) {
	ctx := context.Background()
	p, _ := newProject(t, 30, "a", "b", "c")
	var wg sync.WaitGroup
	for _, r := range p.Reviewers {
		for range 2 { // each reviewer's queue sent twice at once: applied once
			wg.Go(func() {
				for _, id := range p.Queue(r) {
					if _, err := p.Decide(ctx, Decision{Reviewer: r, Sample: id, Decision: Approve}); err != nil {
						t.Error(err)
					}
				}
			})
		}
	}
	wg.Wait()
	evs, _ := p.Audit(ctx)
	total := 0
	for _, r := range p.Reviewers {
		total += len(p.Queue(r))
		if rem, _ := p.Remaining(ctx, r); len(rem) != 0 {
			t.Errorf("%s still has %d to decide", r, len(rem))
		}
	}
	if len(evs) != total || total != 2*30+ThirdCount(30) {
		t.Errorf("audit lines = %d, assignments %d; want %d each", len(evs), total, 2*30+ThirdCount(30))
	}
}

// BenchmarkDecide is one decision stored and audited, then taken back: what a Keeper's
// key press costs the server.
func BenchmarkDecide(b *testing.B) {
	ctx := context.Background()
	p, _ := newProject(b, 40, "a", "b", "c")
	q := p.Queue("a")
	for i := 0; b.Loop(); i++ {
		id := q[i%len(q)]
		if _, err := p.Decide(ctx, Decision{Reviewer: "a", Sample: id, Decision: Approve}); err != nil {
			b.Fatal(err)
		}
		if _, err := p.Undo(ctx, "a", id); err != nil {
			b.Fatal(err)
		}
	}
}

func TestExportRefusesConflictingScenarioTruths(t *testing.T) {
	ctx := context.Background()
	p, _ := newProject(t, 4, "a", "b", "c") // one scenario, four variants
	ss := p.Dataset.Samples
	// Variant 0 is corrected to the other truth, variant 1 "corrected" to the truth it has.
	vals := []string{fmt.Sprint(!ss[0].RequiresRoll), fmt.Sprint(ss[1].RequiresRoll)}
	for i, val := range vals {
		for _, r := range p.Slots(ss[i].ID) {
			if r != "" {
				p.Decide(ctx, Decision{Reviewer: r, Sample: ss[i].ID, Decision: Correct, Set: map[string]string{"requires_roll": val}})
			}
		}
	}
	var out bytes.Buffer
	_, err := p.Export(ctx, &out)
	if err == nil || !strings.Contains(err.Error(), "adjudicate") || out.Len() != 0 {
		t.Errorf("Export with two corrections of one scenario's truth that disagree = %v, %d bytes; want an error and nothing written", err, out.Len())
	}
}

// FuzzCorrection feeds any field and value to a correction: it is refused as bad input
// or stored, never a panic, and a stored value reads back as sent (skills canonical).
func FuzzCorrection(f *testing.F) {
	for _, seed := range [][2]string{{"statement", "I climb."}, {"requires_roll", "TRUE"}, {"skill", "brawl"}, {"gold_skill", ""}, {"style", "Neutral"}, {"truth", "\x00"}} {
		f.Add(seed[0], seed[1])
	}
	p, _ := newProject(f, 4, "a", "b", "c")
	id := p.Dataset.Samples[0].ID
	who := p.Slots(id)[0]
	f.Fuzz(func(t *testing.T, field, value string) {
		_, err := p.Decide(context.Background(), Decision{Reviewer: who, Sample: id, Decision: Correct, Set: map[string]string{field: value}})
		var ie *InputError
		if err != nil && !errors.As(err, &ie) {
			t.Fatalf("Decide(%q=%q) = %v; want nil or an *InputError", field, value, err)
		}
		if err == nil && !slices.Contains(Fields, field) {
			t.Fatalf("Decide stored the unknown field %q", field)
		}
	})
}
