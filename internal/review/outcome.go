package review

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/stats"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// The statuses of a sample's outcome.
const (
	// Pending: not every reviewer needed has decided yet.
	Pending = "pending"
	// Disputed: the two reviewers disagree and neither a third review nor an adjudication
	// settles it.
	Disputed = "disputed"
	// Settled: the sample has a final decision.
	Settled = "settled"
)

// SampleState is everything decided about one sample.
type SampleState struct {
	Sample seduce.Sample
	// Slots are the reviewers of slots 1-3 ("" for none) and Reviews their decisions in
	// force (nil for none yet).
	Slots   [3]string
	Reviews [3]*store.ReviewDecision
	// Adjudication is the latest adjudication, if any.
	Adjudication *store.ReviewDecision
	Status       string
	// Final is the decision in force when Status is Settled.
	Final *store.ReviewDecision
}

// agree reports whether two decisions say the same: the same decision and, for a
// correction, the same fields set to the same values.
func agree(a, b *store.ReviewDecision) bool {
	return a != nil && b != nil && a.Decision == b.Decision && maps.Equal(a.Changes, b.Changes)
}

// State returns every sample's state, in dataset order.
func (p *Project) State(ctx context.Context) ([]*SampleState, error) {
	ds, err := p.st.ReviewDecisions(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	out := make([]*SampleState, len(p.Dataset.Samples))
	byID := map[seduce.SampleID]*SampleState{}
	for i, s := range p.Dataset.Samples {
		out[i] = &SampleState{Sample: s, Slots: p.slots[s.ID]}
		byID[s.ID] = out[i]
	}
	for _, d := range ds {
		st := byID[seduce.SampleID(d.SampleID)]
		if st == nil {
			continue
		}
		if d.Role == store.RoleAdjudication {
			if st.Adjudication == nil || d.At.After(st.Adjudication.At) {
				st.Adjudication = &d
			}
			continue
		}
		if k := slices.Index(st.Slots[:], d.Reviewer); k >= 0 {
			st.Reviews[k] = &d
		}
	}
	for _, st := range out {
		st.settle()
	}
	return out, nil
}

func (st *SampleState) settle() {
	r1, r2, r3 := st.Reviews[0], st.Reviews[1], st.Reviews[2]
	switch {
	case st.Adjudication != nil:
		st.Status, st.Final = Settled, st.Adjudication
	case agree(r1, r2):
		st.Status, st.Final = Settled, r1
	case r1 != nil && r2 != nil && agree(r3, r1):
		st.Status, st.Final = Settled, r1
	case r1 != nil && r2 != nil && agree(r3, r2):
		st.Status, st.Final = Settled, r2
	case r1 != nil && r2 != nil && (st.Slots[2] == "" || r3 != nil):
		st.Status = Disputed
	default:
		st.Status = Pending
	}
}

// Progress is one reviewer's count.
type Progress struct {
	Reviewer string `json:"reviewer"`
	Assigned int    `json:"assigned"`
	Decided  int    `json:"decided"`
}

// Remaining returns what reviewer still has to decide, in their order.
func (p *Project) Remaining(ctx context.Context, reviewer string) ([]seduce.SampleID, error) {
	if !p.HasReviewer(reviewer) {
		return nil, inputErrorf("--reviewer: %q does not review in project %s (its reviewers: %s)", reviewer, p.ID, strings.Join(p.Reviewers, ", "))
	}
	done, err := p.decidedBy(ctx, reviewer)
	if err != nil {
		return nil, err
	}
	out := []seduce.SampleID{}
	for _, id := range p.queue[reviewer] {
		if !done[id] {
			out = append(out, id)
		}
	}
	return out, nil
}

func (p *Project) decidedBy(ctx context.Context, reviewer string) (map[seduce.SampleID]bool, error) {
	ds, err := p.st.ReviewDecisions(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	done := map[seduce.SampleID]bool{}
	for _, d := range ds {
		if d.Role == store.RoleReview && d.Reviewer == reviewer {
			done[seduce.SampleID(d.SampleID)] = true
		}
	}
	return done, nil
}

// Progress counts every reviewer's assigned and decided samples, in --reviewers order.
func (p *Project) Progress(ctx context.Context) ([]Progress, error) {
	ds, err := p.st.ReviewDecisions(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	decided := map[string]int{}
	for _, d := range ds {
		if d.Role == store.RoleReview {
			decided[d.Reviewer]++
		}
	}
	out := make([]Progress, len(p.Reviewers))
	for i, r := range p.Reviewers {
		out[i] = Progress{Reviewer: r, Assigned: len(p.queue[r]), Decided: decided[r]}
	}
	return out, nil
}

// Pair is the agreement of the first two reviewers on some question: raw agreement and
// Cohen's kappa, nil when undefined (no sample, or kappa's chance agreement is 1).
type Pair struct {
	N            int      `json:"n"`
	RawAgreement *float64 `json:"raw_agreement"`
	Kappa        *float64 `json:"kappa"`
}

func pairOf[T comparable](a, b []T) Pair {
	pr := Pair{N: len(a)}
	if len(a) == 0 {
		return pr
	}
	if raw, err := stats.PercentAgreement(a, b); err == nil {
		pr.RawAgreement = &raw
	}
	if k, err := stats.CohenKappa(a, b); err == nil {
		pr.Kappa = &k
	}
	return pr
}

// CategoryAgreement is the decision agreement within one skill domain.
type CategoryAgreement struct {
	Category seduce.Category `json:"category"`
	Pair
}

// Agreement is the figures of cli.md's `review agreement`, with the ground-truth and
// per-domain figures and each reviewer's progress added.
type Agreement struct {
	// Samples is the dataset's size; Decided the samples with at least one decision;
	// DoubleReviewed those both first reviewers decided; ThirdReviewed those the third
	// reviewer decided.
	Samples        int `json:"samples"`
	Decided        int `json:"decided"`
	DoubleReviewed int `json:"double_reviewed"`
	ThirdReviewed  int `json:"third_reviewed"`
	// RawAgreement and Kappa are on approve/correct/reject between rater 1 (named earlier
	// in --reviewers) and rater 2, over the double-reviewed samples.
	RawAgreement *float64 `json:"raw_agreement"`
	Kappa        *float64 `json:"kappa"`
	// Disagreements are the double-reviewed samples whose two decisions differ.
	Disagreements []seduce.SampleID `json:"disagreements"`
	// ConflictingCorrections are samples both corrected, differently.
	ConflictingCorrections []seduce.SampleID `json:"conflicting_corrections"`
	// Unsettled are the disputed samples still waiting for a third review's majority or
	// an adjudication.
	Unsettled []seduce.SampleID `json:"unsettled"`
	// GroundTruth is the agreement on requires_roll (as each reviewer left it) over the
	// double-reviewed samples neither rejected.
	GroundTruth Pair                `json:"ground_truth"`
	ByCategory  []CategoryAgreement `json:"by_category"`
	Reviewers   []Progress          `json:"reviewers"`
}

// Agreement measures the project as it stands.
func (p *Project) Agreement(ctx context.Context) (*Agreement, error) {
	states, err := p.State(ctx)
	if err != nil {
		return nil, err
	}
	ag := &Agreement{Samples: len(states), Disagreements: []seduce.SampleID{},
		ConflictingCorrections: []seduce.SampleID{}, Unsettled: []seduce.SampleID{}, ByCategory: []CategoryAgreement{}}
	var a, b []string
	var ga, gb []bool
	cat := map[seduce.Category][2][]string{}
	for _, st := range states {
		r1, r2 := st.Reviews[0], st.Reviews[1]
		if r1 != nil || r2 != nil || st.Reviews[2] != nil {
			ag.Decided++
		}
		if st.Reviews[2] != nil {
			ag.ThirdReviewed++
		}
		if st.Status == Disputed {
			ag.Unsettled = append(ag.Unsettled, st.Sample.ID)
		}
		if r1 == nil || r2 == nil {
			continue
		}
		ag.DoubleReviewed++
		a, b = append(a, r1.Decision), append(b, r2.Decision)
		c := cat[st.Sample.Category]
		c[0], c[1] = append(c[0], r1.Decision), append(c[1], r2.Decision)
		cat[st.Sample.Category] = c
		switch {
		case r1.Decision != r2.Decision:
			ag.Disagreements = append(ag.Disagreements, st.Sample.ID)
		case !agree(r1, r2):
			ag.ConflictingCorrections = append(ag.ConflictingCorrections, st.Sample.ID)
		}
		if r1.Decision != Reject && r2.Decision != Reject {
			ga, gb = append(ga, requiresRoll(st.Sample, r1)), append(gb, requiresRoll(st.Sample, r2))
		}
	}
	overall := pairOf(a, b)
	ag.RawAgreement, ag.Kappa = overall.RawAgreement, overall.Kappa
	ag.GroundTruth = pairOf(ga, gb)
	for _, c := range p.tax.Categories() {
		if v, ok := cat[c]; ok {
			ag.ByCategory = append(ag.ByCategory, CategoryAgreement{Category: c, Pair: pairOf(v[0], v[1])})
		}
	}
	if ag.Reviewers, err = p.Progress(ctx); err != nil {
		return nil, err
	}
	return ag, nil
}

// requiresRoll is the ground truth a decision leaves on s.
func requiresRoll(s seduce.Sample, d *store.ReviewDecision) bool {
	if v, ok := d.Changes["requires_roll"]; ok {
		return v == "true"
	}
	return s.RequiresRoll
}

// ExportSummary counts what an export wrote.
type ExportSummary struct {
	Written, Rejected, Corrected, Pending, Disputed int
}

// Export writes the curated dataset as JSONL to w: rejected samples left out, corrections
// applied, review_status (approved, corrected, or pending/disputed while unsettled) and
// reviewed_by (the names already there, then this project's reviewers who decided) on
// each. A correction of requires_roll or skill carries to every variant of its scenario,
// since the variants share one truth; two that disagree are an error naming both. The
// output is validated as a dataset before anything is written.
func (p *Project) Export(ctx context.Context, w io.Writer) (ExportSummary, error) {
	var sum ExportSummary
	states, err := p.State(ctx)
	if err != nil {
		return sum, err
	}
	// The scenario-wide corrections first.
	type truth struct {
		from   seduce.SampleID
		values map[string]string
	}
	scen := map[string]*truth{}
	for _, st := range states {
		if st.Final == nil || st.Final.Decision != Correct {
			continue
		}
		vals := map[string]string{}
		for _, f := range []string{"requires_roll", "skill"} {
			if v, ok := st.Final.Changes[f]; ok {
				vals[f] = v
			}
		}
		if len(vals) == 0 {
			continue
		}
		if prev := scen[st.Sample.ScenarioID]; prev != nil {
			for f, v := range vals {
				if pv, ok := prev.values[f]; ok && pv != v {
					return sum, fmt.Errorf("export %s: scenario %s: %s corrects %s to %q but %s to %q; adjudicate one of them",
						p.ID, st.Sample.ScenarioID, prev.from, f, pv, st.Sample.ID, v)
				}
				prev.values[f] = v
			}
			continue
		}
		scen[st.Sample.ScenarioID] = &truth{from: st.Sample.ID, values: vals}
	}
	var buf bytes.Buffer
	for _, st := range states {
		s := st.Sample
		status := ""
		switch {
		case st.Status == Pending:
			status = Pending
			sum.Pending++
		case st.Status == Disputed:
			status = Disputed
			sum.Disputed++
		case st.Final.Decision == Reject:
			sum.Rejected++
			continue
		case st.Final.Decision == Correct:
			status = "corrected"
			p.apply(&s, st.Final.Changes)
		default:
			status = "approved"
		}
		if t := scen[s.ScenarioID]; t != nil {
			before := s
			p.apply(&s, t.values)
			if before != s && status == "approved" {
				status = "corrected"
			}
		}
		if status == "corrected" {
			sum.Corrected++
		}
		s.ReviewStatus = status
		s.ReviewedBy = reviewedBy(s.ReviewedBy, st)
		if err := writeSample(&buf, s, p.Dataset.Extra[st.Sample.ID]); err != nil {
			return sum, err
		}
		sum.Written++
	}
	if _, err := seduce.ReadDataset(bytes.NewReader(buf.Bytes()), p.ID+" export", seduce.FormatJSONL, p.tax); err != nil {
		return sum, fmt.Errorf("export %s: the curated set does not validate: %w", p.ID, err)
	}
	_, err = w.Write(buf.Bytes())
	return sum, err
}

// apply sets the corrected fields on s; a new skill brings its domain along.
func (p *Project) apply(s *seduce.Sample, changes map[string]string) {
	for f, v := range changes {
		switch f {
		case "statement":
			s.Statement = v
		case "context":
			s.Context = v
		case "truth":
			s.Truth = v
		case "requires_roll":
			s.RequiresRoll = v == "true"
		case "skill":
			s.Skill = v
			if c, ok := p.tax.CategoryOf(v); ok {
				s.Category = c
			}
		case "gold_skill":
			s.GoldSkill = v
		}
	}
}

func reviewedBy(prior string, st *SampleState) string {
	var names []string
	for n := range strings.SplitSeq(prior, ",") {
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	add := func(d *store.ReviewDecision) {
		if d != nil && !slices.Contains(names, d.Reviewer) {
			names = append(names, d.Reviewer)
		}
	}
	for _, d := range st.Reviews {
		add(d)
	}
	add(st.Adjudication)
	return strings.Join(names, ",")
}

// writeSample writes one JSONL line: the contract's fields, then the sample's own extra
// fields in name order.
func writeSample(w *bytes.Buffer, s seduce.Sample, extra map[string]json.RawMessage) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	b = bytes.TrimSuffix(b, []byte("}"))
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		key, _ := json.Marshal(k)
		b = append(b, ',')
		b = append(b, key...)
		b = append(b, ':')
		b = append(b, extra[k]...)
	}
	w.Write(b)
	w.WriteString("}\n")
	return nil
}

// WriteAudit writes the audit trail as JSONL, one change a line, in order.
func (p *Project) WriteAudit(ctx context.Context, w io.Writer) error {
	evs, err := p.st.ReviewAudit(ctx, p.ID)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for _, e := range evs {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// Audit returns the audit trail in order.
func (p *Project) Audit(ctx context.Context) ([]store.ReviewEvent, error) {
	return p.st.ReviewAudit(ctx, p.ID)
}

// EncodeDataset writes ds as JSONL, as an export writes it (the bundled set is reviewed
// from this form).
func EncodeDataset(ds *seduce.Dataset) []byte {
	var buf bytes.Buffer
	for _, s := range ds.Samples {
		writeSample(&buf, s, ds.Extra[s.ID]) // marshalling a sample cannot fail
	}
	return buf.Bytes()
}
