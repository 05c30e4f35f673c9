// Package review is Keeper curation of a CoC-Seduce dataset (the paper's section 4.5):
// a project gives every sample to two reviewers who decide blind (approve, correct or
// reject), a seeded 10% (rounded up) to a third, keeps every change in an audit trail,
// measures the agreement between the first two reviewers (internal/stats) and exports the
// curated set with review_status and reviewed_by, which the dataset validator accepts.
//
// The store (internal/store, review_* tables) holds the project, the dataset as reviewed,
// the assignments, the decisions in force and the audit trail; this package owns the
// rules: who reviews what, what a decision may change and what the final outcome is.
package review

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// The decisions a reviewer makes on a sample.
const (
	Approve = "approve"
	Correct = "correct"
	Reject  = "reject"
)

// Decisions lists them in the order reports and kappa tables use.
var Decisions = []string{Approve, Correct, Reject}

// Fields lists the sample fields a correction may set.
var Fields = []string{"statement", "context", "truth", "requires_roll", "skill", "gold_skill"}

// InputError is a request that can never succeed as given (an unknown reviewer, a sample
// not assigned to them, a bad field): bad input, not a failure of the work.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

func inputErrorf(format string, args ...any) error {
	return &InputError{Msg: fmt.Sprintf(format, args...)}
}

var reviewerNameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Assign gives every sample of ids to two reviewers and ceil(10%) of them, chosen with
// seed, to a third. Pairs cycle through every pair of reviewers in a seeded order, so the
// load is even; the third reviewer of a sample is the least loaded one outside its pair.
// Within a sample, slot 1 goes to the reviewer named earlier. Positions follow ids.
func Assign(ids []seduce.SampleID, reviewers []string, seed int64) ([]store.ReviewAssignment, error) {
	if err := checkReviewers(reviewers); err != nil {
		return nil, err
	}
	n := len(ids)
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6b65657065727321))
	var pairs [][2]int
	for i := range reviewers {
		for j := i + 1; j < len(reviewers); j++ {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	rng.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	pairOf := make([][2]int, n)
	for k, i := range rng.Perm(n) {
		pairOf[i] = pairs[k%len(pairs)]
	}
	third := make([]int, n)
	for i := range third {
		third[i] = -1
	}
	thirdLoad := make([]int, len(reviewers))
	for _, i := range rng.Perm(n)[:ThirdCount(n)] {
		best := -1
		for r := range reviewers {
			if r == pairOf[i][0] || r == pairOf[i][1] {
				continue
			}
			if best < 0 || thirdLoad[r] < thirdLoad[best] {
				best = r
			}
		}
		third[i] = best
		thirdLoad[best]++
	}
	pos := make([]int, len(reviewers))
	var out []store.ReviewAssignment
	add := func(id seduce.SampleID, r, slot int) {
		out = append(out, store.ReviewAssignment{SampleID: string(id), Reviewer: reviewers[r], Slot: slot, Position: pos[r]})
		pos[r]++
	}
	for i, id := range ids {
		add(id, pairOf[i][0], 1)
		add(id, pairOf[i][1], 2)
		if third[i] >= 0 {
			add(id, third[i], 3)
		}
	}
	return out, nil
}

// ThirdCount is how many of n samples get a third review: 10%, rounded up.
func ThirdCount(n int) int { return (n + 9) / 10 }

func checkReviewers(reviewers []string) error {
	if len(reviewers) < 3 {
		return inputErrorf("--reviewers: a project needs at least three reviewers (two for every sample and a third for 10%% of them), got %d", len(reviewers))
	}
	seen := map[string]bool{}
	for _, r := range reviewers {
		if !reviewerNameRe.MatchString(r) {
			return inputErrorf("--reviewers: %q is not a reviewer name (letters, digits, '.', '_', '-'; up to 64)", r)
		}
		if seen[r] {
			return inputErrorf("--reviewers: %q is named twice", r)
		}
		seen[r] = true
	}
	return nil
}

// NewOptions are what a project is made from.
type NewOptions struct {
	// DatasetName labels the dataset; Format and Data are the file as read.
	DatasetName string
	Format      seduce.Format
	Data        []byte
	Reviewers   []string
	// Adjudicators are the reviewers who may settle a sample (at least one of Reviewers
	// for a project that is to be adjudicated).
	Adjudicators []string
	Seed         int64
	// Taxonomy validates the dataset and corrections; nil means the default one.
	Taxonomy *seduce.Taxonomy
}

// New validates the dataset, assigns its samples and stores the project; it returns the
// new project's id.
func New(ctx context.Context, st *store.Store, opt NewOptions) (string, error) {
	ds, err := seduce.ReadDataset(bytes.NewReader(opt.Data), opt.DatasetName, opt.Format, opt.Taxonomy)
	if err != nil {
		return "", &InputError{Msg: err.Error()}
	}
	ids := make([]seduce.SampleID, len(ds.Samples))
	for i, s := range ds.Samples {
		ids[i] = s.ID
	}
	as, err := Assign(ids, opt.Reviewers, opt.Seed)
	if err != nil {
		return "", err
	}
	for _, a := range opt.Adjudicators {
		if !slices.Contains(opt.Reviewers, a) {
			return "", inputErrorf("--adjudicators: %q is not one of the reviewers", a)
		}
	}
	id := "rv-" + randomHex(6)
	p := store.ReviewProject{ID: id, DatasetName: opt.DatasetName, Format: string(opt.Format), Data: opt.Data,
		Reviewers: slices.Clone(opt.Reviewers), Adjudicators: slices.Clone(opt.Adjudicators), Seed: opt.Seed}
	if err := st.CreateReviewProject(ctx, p, as); err != nil {
		return "", err
	}
	return id, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	crand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// Project is an open review project.
type Project struct {
	ID        string
	Reviewers []string
	// Adjudicators may settle a sample; Adjudicate refuses anyone else.
	Adjudicators []string
	Seed         int64
	Dataset      *seduce.Dataset

	st  *store.Store
	tax *seduce.Taxonomy
	// slots[sample][slot-1] is the reviewer of that slot ("" for none).
	slots map[seduce.SampleID][3]string
	// queue[reviewer] are the samples given to reviewer, in their order.
	queue map[string][]seduce.SampleID
	// index orders samples as the dataset does.
	index map[seduce.SampleID]int
}

// Open loads project id from st; a nil tax means the default taxonomy.
func Open(ctx context.Context, st *store.Store, id string, tax *seduce.Taxonomy) (*Project, error) {
	sp, err := st.ReviewProject(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, inputErrorf("--project: no review project %q in the store", id)
	}
	if err != nil {
		return nil, err
	}
	if tax == nil {
		tax = seduce.DefaultTaxonomy()
	}
	ds, err := seduce.ReadDataset(bytes.NewReader(sp.Data), sp.DatasetName, seduce.Format(sp.Format), tax)
	if err != nil {
		return nil, fmt.Errorf("review project %s: its dataset no longer validates: %w", id, err)
	}
	as, err := st.ReviewAssignments(ctx, id)
	if err != nil {
		return nil, err
	}
	p := &Project{ID: id, Reviewers: sp.Reviewers, Adjudicators: sp.Adjudicators, Seed: sp.Seed, Dataset: ds, st: st, tax: tax,
		slots: map[seduce.SampleID][3]string{}, queue: map[string][]seduce.SampleID{}, index: map[seduce.SampleID]int{}}
	for i, s := range ds.Samples {
		p.index[s.ID] = i
	}
	for _, a := range as { // by reviewer, then position
		sid := seduce.SampleID(a.SampleID)
		sl := p.slots[sid]
		sl[a.Slot-1] = a.Reviewer
		p.slots[sid] = sl
		p.queue[a.Reviewer] = append(p.queue[a.Reviewer], sid)
	}
	return p, nil
}

// Slots returns the reviewers of sample id by slot (1, 2, 3); "" where there is none.
func (p *Project) Slots(id seduce.SampleID) [3]string { return p.slots[id] }

// Queue returns the samples given to reviewer, in the order they review them.
func (p *Project) Queue(reviewer string) []seduce.SampleID { return slices.Clone(p.queue[reviewer]) }

// HasReviewer reports whether name reviews in p.
func (p *Project) HasReviewer(name string) bool { return slices.Contains(p.Reviewers, name) }

// Decision is what a reviewer (or an adjudicator) decides on one sample.
type Decision struct {
	Reviewer string
	Sample   seduce.SampleID
	Decision string
	// Set holds a correction's fields (Fields), as given: skills are canonicalised.
	Set  map[string]string
	Note string
}

// check validates d against the sample and returns the stored form.
func (p *Project) check(d Decision, role string) (store.ReviewDecision, error) {
	if _, ok := p.Dataset.Lookup(d.Sample); !ok {
		return store.ReviewDecision{}, inputErrorf("--sample: no sample %q in project %s", d.Sample, p.ID)
	}
	if !slices.Contains(Decisions, d.Decision) {
		return store.ReviewDecision{}, inputErrorf("--decision: %q is not a decision (want approve, correct or reject)", d.Decision)
	}
	if d.Decision != Correct && len(d.Set) > 0 {
		return store.ReviewDecision{}, inputErrorf("--set: only a correction sets fields, not %s", d.Decision)
	}
	if d.Decision == Correct && len(d.Set) == 0 {
		return store.ReviewDecision{}, inputErrorf("--set: a correction sets at least one field (%s)", strings.Join(Fields, ", "))
	}
	changes := map[string]string{}
	for f, v := range d.Set {
		c, err := p.checkField(f, v)
		if err != nil {
			return store.ReviewDecision{}, err
		}
		changes[f] = c
	}
	if len(changes) == 0 {
		changes = nil
	}
	return store.ReviewDecision{SampleID: string(d.Sample), Reviewer: d.Reviewer, Role: role, Decision: d.Decision,
		Changes: changes, Note: strings.TrimSpace(d.Note)}, nil
}

func (p *Project) checkField(f, v string) (string, error) {
	switch f {
	case "statement", "context":
		if strings.TrimSpace(v) == "" {
			return "", inputErrorf("--set %s: empty", f)
		}
		return v, nil
	case "truth":
		return v, nil
	case "requires_roll":
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return "", inputErrorf("--set requires_roll: %q is not true or false", v)
		}
		return strconv.FormatBool(b), nil
	case "skill", "gold_skill":
		c, ok := p.tax.Canonical(v)
		if !ok {
			return "", inputErrorf("--set %s: unknown skill %q (the taxonomy has %s)", f, v, strings.Join(p.tax.Skills(), ", "))
		}
		return c, nil
	}
	return "", inputErrorf("--set: %q is not a field a correction may set (want %s)", f, strings.Join(Fields, ", "))
}

// Decide records d as d.Reviewer's decision on an assigned sample, at once, and audits
// it. changed is false when it says what the decision in force already says.
func (p *Project) Decide(ctx context.Context, d Decision) (changed bool, err error) {
	if err := p.assigned(d.Reviewer, d.Sample); err != nil {
		return false, err
	}
	sd, err := p.check(d, store.RoleReview)
	if err != nil {
		return false, err
	}
	return p.st.PutReviewDecision(ctx, p.ID, sd)
}

// Undo takes back reviewer's decision on sample (audited); the sample is theirs to decide
// again.
func (p *Project) Undo(ctx context.Context, reviewer string, sample seduce.SampleID) (changed bool, err error) {
	if err := p.assigned(reviewer, sample); err != nil {
		return false, err
	}
	return p.st.DeleteReviewDecision(ctx, p.ID, string(sample), reviewer, store.RoleReview)
}

// ErrNotAdjudicator: the reviewer was not named an adjudicator of the project.
var ErrNotAdjudicator = errors.New("review: not an adjudicator of this project")

// Adjudicate settles a sample: d is its final decision whatever the reviewers said.
// d.Reviewer must be one of the project's adjudicators (ErrNotAdjudicator otherwise);
// callers set it from who they know is asking (a reviewer's token), never from input.
func (p *Project) Adjudicate(ctx context.Context, d Decision) (changed bool, err error) {
	if !reviewerNameRe.MatchString(d.Reviewer) {
		return false, inputErrorf("adjudicator: %q is not a name", d.Reviewer)
	}
	if !slices.Contains(p.Adjudicators, d.Reviewer) {
		return false, fmt.Errorf("%s: %w", d.Reviewer, ErrNotAdjudicator)
	}
	sd, err := p.check(d, store.RoleAdjudication)
	if err != nil {
		return false, err
	}
	return p.st.PutReviewDecision(ctx, p.ID, sd)
}

func (p *Project) assigned(reviewer string, sample seduce.SampleID) error {
	if !p.HasReviewer(reviewer) {
		return inputErrorf("--reviewer: %q does not review in project %s (its reviewers: %s)", reviewer, p.ID, strings.Join(p.Reviewers, ", "))
	}
	if _, ok := p.Dataset.Lookup(sample); !ok {
		return inputErrorf("--sample: no sample %q in project %s", sample, p.ID)
	}
	if sl := p.slots[sample]; !slices.Contains(sl[:], reviewer) {
		return inputErrorf("--sample: %s is not assigned to %s", sample, reviewer)
	}
	return nil
}

// Invite makes a new token for reviewer (a public server asks for it) and returns it;
// only its hash is stored, and an older token of the reviewer stops working.
func (p *Project) Invite(ctx context.Context, reviewer string) (string, error) {
	if !p.HasReviewer(reviewer) {
		return "", inputErrorf("--reviewer: %q does not review in project %s", reviewer, p.ID)
	}
	tok := randomHex(16)
	if err := p.st.PutReviewToken(ctx, p.ID, reviewer, TokenHash(tok)); err != nil {
		return "", err
	}
	return tok, nil
}

// NewOwnerToken makes the project owner's token (the agreement page's key) and returns
// it; only its hash is stored, and an older one stops working.
func (p *Project) NewOwnerToken(ctx context.Context) (string, error) {
	return NewOwnerToken(ctx, p.st, p.ID)
}

// NewOwnerToken makes the owner's token of the stored project id.
func NewOwnerToken(ctx context.Context, st *store.Store, id string) (string, error) {
	tok := randomHex(16)
	if err := st.SetReviewOwner(ctx, id, TokenHash("owner:"+tok)); err != nil {
		return "", err
	}
	return tok, nil
}

// IsOwner reports whether tok is the project owner's token.
func (p *Project) IsOwner(ctx context.Context, tok string) bool {
	if tok == "" {
		return false
	}
	sp, err := p.st.ReviewProject(ctx, p.ID)
	return err == nil && sp.OwnerHash != "" && subtle.ConstantTimeCompare([]byte(sp.OwnerHash), []byte(TokenHash("owner:"+tok))) == 1
}

// ReviewerFor returns whose token tok is, or an *InputError.
func (p *Project) ReviewerFor(ctx context.Context, tok string) (string, error) {
	r, err := p.st.ReviewerByToken(ctx, p.ID, TokenHash(tok))
	if errors.Is(err, store.ErrNotFound) {
		return "", inputErrorf("unknown review token")
	}
	return r, err
}

// TokenHash is what the store keeps of a token.
func TokenHash(tok string) string {
	sum := sha256.Sum256([]byte("arbiter-review:" + tok))
	return hex.EncodeToString(sum[:])
}
