package web

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/arbiter-eval/arbiter/internal/review"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// Keeper curation pages (/review) and their API (/api/review). A reviewer is named in the
// path; on loopback the name is enough, with --public the reviewer's token (from
// 'arbiter seduce review invite') must come once as ?token= and is then kept in a cookie.

// reviewCache keeps opened projects: opening one parses its dataset, which a decision
// sent every few seconds should not pay for. The zero value is ready.
type reviewCache struct {
	mu sync.Mutex
	m  map[string]*review.Project
}

func (c *reviewCache) open(ctx context.Context, st *store.Store, id string) (*review.Project, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.m[id]; p != nil {
		return p, nil
	}
	p, err := review.Open(ctx, st, id, nil)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[string]*review.Project{}
	}
	c.m[id] = p
	return p, nil
}

// reviewCookie names the cookie that carries a project's review token.
func reviewCookie(project string) string { return "arbiter_review_" + project }

// project opens the project of the request's {id}, answering 404 when there is none.
func (s *Server) project(w http.ResponseWriter, r *http.Request, api bool) *review.Project {
	id := r.PathValue("id")
	p, err := s.reviews.open(r.Context(), s.st, id)
	if err == nil {
		return p
	}
	var ie *review.InputError
	status, msg := http.StatusInternalServerError, ""
	if errors.As(err, &ie) {
		status, msg = http.StatusNotFound, "There is no review project "+id+": start one with 'arbiter seduce review new'."
	}
	if api {
		if msg == "" {
			s.log.Error("open review project", "project", id, "err", err)
			msg = "the project could not be read; the server log has the details"
		}
		apiError(w, status, msg)
	} else {
		s.fail(w, r, status, msg, err)
	}
	return nil
}

// allowed reports whether the request may act as reviewer (any reviewer of p when
// reviewer is ""). A public server wants the reviewer's token; a token given in the query
// is kept in a cookie for the API calls that follow.
func (s *Server) allowed(w http.ResponseWriter, r *http.Request, p *review.Project, reviewer string) bool {
	if reviewer != "" && !p.HasReviewer(reviewer) {
		return false
	}
	if !s.public {
		return true
	}
	tok := r.URL.Query().Get("token")
	if tok != "" {
		http.SetCookie(w, &http.Cookie{Name: reviewCookie(p.ID), Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	} else if c, err := r.Cookie(reviewCookie(p.ID)); err == nil {
		tok = c.Value
	}
	if tok == "" {
		return false
	}
	who, err := p.ReviewerFor(r.Context(), tok)
	if err != nil {
		return false
	}
	return reviewer == "" || subtle.ConstantTimeCompare([]byte(who), []byte(reviewer)) == 1
}

const noTokenHint = "This server is public: open the link with your reviewer token (arbiter seduce review invite --project ID --reviewer NAME)."

// noOwnerHint: the agreement page and the export show every reviewer's decisions.
const noOwnerHint = "The agreement page shows every reviewer's decisions and notes, so it opens only with the project owner's token (printed by 'arbiter seduce review new'): …/agreement?token=…"

// ownerCookie names the cookie that carries a project's owner token, apart from the
// reviewer's: an owner who also adjudicates holds both.
func ownerCookie(project string) string { return "arbiter_review_owner_" + project }

// reviewToken is the reviewer token a request shows for project p: ?token= (kept in a
// cookie for what follows, unless it is the owner's) or the cookie.
func reviewToken(w http.ResponseWriter, r *http.Request, p *review.Project) string {
	tok := r.URL.Query().Get("token")
	if tok != "" && !p.IsOwner(r.Context(), tok) {
		http.SetCookie(w, &http.Cookie{Name: reviewCookie(p.ID), Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
		return tok
	}
	if c, err := r.Cookie(reviewCookie(p.ID)); err == nil {
		return c.Value
	}
	return ""
}

// owner reports whether the request carries p's owner token, as ?token= (then kept in
// its cookie) or that cookie. Blindness holds on loopback too: no name opens it.
func (s *Server) owner(w http.ResponseWriter, r *http.Request, p *review.Project) bool {
	if tok := r.URL.Query().Get("token"); tok != "" && p.IsOwner(r.Context(), tok) {
		http.SetCookie(w, &http.Cookie{Name: ownerCookie(p.ID), Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
		return true
	}
	c, err := r.Cookie(ownerCookie(p.ID))
	return err == nil && p.IsOwner(r.Context(), c.Value)
}

// tokenReviewer is whose reviewer token the request carries, or "".
func (s *Server) tokenReviewer(w http.ResponseWriter, r *http.Request, p *review.Project) string {
	tok := reviewToken(w, r, p)
	if tok == "" {
		return ""
	}
	who, err := p.ReviewerFor(r.Context(), tok)
	if err != nil {
		return ""
	}
	return who
}

// ---- pages ----------------------------------------------------------------------------

type reviewListView struct {
	Title    string
	Projects []reviewProjectRow
}

type reviewProjectRow struct {
	ID, Dataset string
	Reviewers   []review.Progress
	Samples     int
}

func (s *Server) reviewList(w http.ResponseWriter, r *http.Request) {
	ps, err := s.st.ReviewProjects(r.Context())
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "", err)
		return
	}
	v := reviewListView{Title: "Keeper review"}
	if s.public {
		// A public server lists nothing to a visitor: reviewers come by their links.
		ps = nil
	}
	for _, sp := range ps {
		p, err := s.reviews.open(r.Context(), s.st, sp.ID)
		if err != nil {
			s.fail(w, r, http.StatusInternalServerError, "", err)
			return
		}
		prog, err := p.Progress(r.Context())
		if err != nil {
			s.fail(w, r, http.StatusInternalServerError, "", err)
			return
		}
		v.Projects = append(v.Projects, reviewProjectRow{ID: sp.ID, Dataset: sp.DatasetName, Reviewers: prog, Samples: len(p.Dataset.Samples)})
	}
	s.render(w, r, http.StatusOK, "review.html", v)
}

type reviewPageView struct {
	Title, Project, Reviewer string
	Skills                   []string
}

func (s *Server) reviewPage(w http.ResponseWriter, r *http.Request) {
	p := s.project(w, r, false)
	if p == nil {
		return
	}
	who := r.PathValue("reviewer")
	if !p.HasReviewer(who) {
		s.fail(w, r, http.StatusNotFound, who+" does not review in project "+p.ID+".", nil)
		return
	}
	if !s.allowed(w, r, p, who) {
		s.fail(w, r, http.StatusForbidden, noTokenHint, nil)
		return
	}
	// Keep a token given, on loopback too: adjudicating wants it.
	reviewToken(w, r, p)
	s.render(w, r, http.StatusOK, "review_sample.html", reviewPageView{Title: "Review · " + who, Project: p.ID, Reviewer: who,
		Skills: seduce.DefaultTaxonomy().Skills()})
}

type agreementView struct {
	Title, Project string
	A              *review.Agreement
	Disputes       []disputeView
	Rows           []agreementRow
	Skills         []string
	Public         bool
}

// agreementRow is one line of the agreement table, its figures formatted.
type agreementRow struct {
	Label, Raw, Kappa string
	N                 int
}

func figure(v *float64) string {
	if v == nil {
		return "—"
	}
	return fmt.Sprintf("%.3f", *v)
}

func agreementRows(ag *review.Agreement) []agreementRow {
	rows := []agreementRow{
		{Label: "Decision", N: ag.DoubleReviewed, Raw: figure(ag.RawAgreement), Kappa: figure(ag.Kappa)},
		{Label: "requires_roll", N: ag.GroundTruth.N, Raw: figure(ag.GroundTruth.RawAgreement), Kappa: figure(ag.GroundTruth.Kappa)},
	}
	for _, c := range ag.ByCategory {
		rows = append(rows, agreementRow{Label: "Decision, " + string(c.Category), N: c.N, Raw: figure(c.RawAgreement), Kappa: figure(c.Kappa)})
	}
	return rows
}

type disputeView struct {
	Sample  seduce.Sample
	Status  string
	Reviews []decisionView
	Settled *decisionView
}

type decisionView struct {
	Slot                         int
	Reviewer, Decision, Note, At string
	Changes                      []string
}

func viewDecision(slot int, d *store.ReviewDecision) decisionView {
	v := decisionView{Slot: slot, Reviewer: d.Reviewer, Decision: d.Decision, Note: d.Note, At: d.At.Format("2006-01-02 15:04:05")}
	for _, f := range review.Fields {
		if val, ok := d.Changes[f]; ok {
			v.Changes = append(v.Changes, f+" = "+val)
		}
	}
	return v
}

func (s *Server) reviewAgreement(w http.ResponseWriter, r *http.Request) {
	p := s.project(w, r, false)
	if p == nil {
		return
	}
	if !s.owner(w, r, p) {
		s.fail(w, r, http.StatusForbidden, noOwnerHint, nil)
		return
	}
	ag, err := p.Agreement(r.Context())
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "", err)
		return
	}
	states, err := p.State(r.Context())
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "", err)
		return
	}
	v := agreementView{Title: "Agreement · " + p.ID, Project: p.ID, A: ag, Rows: agreementRows(ag), Skills: seduce.DefaultTaxonomy().Skills(), Public: s.public}
	for _, st := range states {
		r1, r2 := st.Reviews[0], st.Reviews[1]
		if r1 == nil || r2 == nil || (r1.Decision == r2.Decision && st.Status == review.Settled && st.Adjudication == nil && st.Final == r1) {
			continue
		}
		d := disputeView{Sample: st.Sample, Status: st.Status}
		for k, rv := range st.Reviews {
			if rv != nil {
				d.Reviews = append(d.Reviews, viewDecision(k+1, rv))
			}
		}
		if st.Adjudication != nil {
			a := viewDecision(0, st.Adjudication)
			d.Settled = &a
		}
		v.Disputes = append(v.Disputes, d)
	}
	s.render(w, r, http.StatusOK, "review_agreement.html", v)
}

// apiReviewAdjudicate takes the agreement page's form (sent as JSON by review.js: the
// guard wants JSON for a post): the final decision on a sample, whatever its reviewers said.
func (s *Server) apiReviewAdjudicate(w http.ResponseWriter, r *http.Request) {
	var req decideRequest
	if !readJSON(w, r, &req) {
		return
	}
	p := s.project(w, r, true)
	if p == nil {
		return
	}
	// The adjudicator is whose token made the request, never a name it gives.
	who := s.tokenReviewer(w, r, p)
	if who == "" {
		apiError(w, http.StatusForbidden, "adjudicating needs your reviewer token (arbiter seduce review invite --project ID --reviewer NAME): open the agreement page with ?token=")
		return
	}
	set := map[string]string{}
	for f, v := range req.Set {
		if v != "" && req.Decision == review.Correct {
			set[f] = v
		}
	}
	if len(set) == 0 {
		set = nil
	}
	changed, err := p.Adjudicate(r.Context(), review.Decision{Reviewer: who, Sample: seduce.SampleID(req.Sample),
		Decision: req.Decision, Set: set, Note: req.Note})
	if errors.Is(err, review.ErrNotAdjudicator) {
		apiError(w, http.StatusForbidden, who+" is not named an adjudicator of project "+p.ID+" (arbiter seduce review new --adjudicators)")
		return
	}
	if err != nil {
		s.apiFail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Changed bool `json:"changed"`
	}{changed})
}

// reviewExport downloads the curated dataset.
func (s *Server) reviewExport(w http.ResponseWriter, r *http.Request) {
	p := s.project(w, r, false)
	if p == nil {
		return
	}
	if !s.owner(w, r, p) {
		s.fail(w, r, http.StatusForbidden, noOwnerHint, nil)
		return
	}
	var buf bytes.Buffer
	if _, err := p.Export(r.Context(), &buf); err != nil {
		s.fail(w, r, http.StatusConflict, "The curated set cannot be exported yet: "+err.Error(), nil)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/x-ndjson")
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", p.ID+".jsonl"))
	h.Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}

// ---- API ------------------------------------------------------------------------------

// reviewSampleJSON is what a reviewer sees of a sample: the sample alone, never another
// reviewer's decision.
type reviewSampleJSON struct {
	ID           seduce.SampleID `json:"id"`
	Setting      seduce.Setting  `json:"setting"`
	Category     seduce.Category `json:"category"`
	Skill        string          `json:"skill"`
	Style        seduce.Style    `json:"style"`
	Generator    string          `json:"generator"`
	ScenarioID   string          `json:"scenario_id"`
	Context      string          `json:"context"`
	Statement    string          `json:"statement"`
	RequiresRoll bool            `json:"requires_roll"`
	GoldSkill    string          `json:"gold_skill"`
	Truth        string          `json:"truth"`
	ReviewedBy   string          `json:"reviewed_by"`
	ReviewStatus string          `json:"review_status"`
	Slot         int             `json:"slot"`
}

func sampleJSON(p *review.Project, s seduce.Sample, reviewer string) reviewSampleJSON {
	slot := 0
	for k, r := range p.Slots(s.ID) {
		if r == reviewer {
			slot = k + 1
		}
	}
	return reviewSampleJSON{ID: s.ID, Setting: s.Setting, Category: s.Category, Skill: s.Skill, Style: s.Style, Generator: s.Generator,
		ScenarioID: s.ScenarioID, Context: s.Context, Statement: s.Statement, RequiresRoll: s.RequiresRoll, GoldSkill: s.GoldSkill,
		Truth: s.Truth, ReviewedBy: s.ReviewedBy, ReviewStatus: s.ReviewStatus, Slot: slot}
}

type progressJSON struct {
	Assigned int `json:"assigned"`
	Decided  int `json:"decided"`
}

func (s *Server) progressOf(ctx context.Context, p *review.Project, reviewer string) (progressJSON, error) {
	ps, err := p.Progress(ctx)
	if err != nil {
		return progressJSON{}, err
	}
	for _, pr := range ps {
		if pr.Reviewer == reviewer {
			return progressJSON{Assigned: pr.Assigned, Decided: pr.Decided}, nil
		}
	}
	return progressJSON{}, nil
}

// apiReviewer opens the project and checks who may act for the reviewer named; nil
// means the answer is sent.
func (s *Server) apiReviewer(w http.ResponseWriter, r *http.Request, reviewer string) *review.Project {
	p := s.project(w, r, true)
	if p == nil {
		return nil
	}
	if !p.HasReviewer(reviewer) {
		apiError(w, http.StatusBadRequest, fmt.Sprintf("%q does not review in project %s", reviewer, p.ID))
		return nil
	}
	if !s.allowed(w, r, p, reviewer) {
		apiError(w, http.StatusForbidden, noTokenHint)
		return nil
	}
	return p
}

func (s *Server) apiReviewQueue(w http.ResponseWriter, r *http.Request) {
	who := r.URL.Query().Get("reviewer")
	p := s.apiReviewer(w, r, who)
	if p == nil {
		return
	}
	ids, err := p.Remaining(r.Context(), who)
	if err != nil {
		s.apiFail(w, err)
		return
	}
	prog, err := s.progressOf(r.Context(), p, who)
	if err != nil {
		s.apiFail(w, err)
		return
	}
	out := struct {
		Reviewer string             `json:"reviewer"`
		Progress progressJSON       `json:"progress"`
		Samples  []reviewSampleJSON `json:"samples"`
	}{who, prog, []reviewSampleJSON{}}
	for _, id := range ids {
		smp, _ := p.Dataset.Lookup(id)
		out.Samples = append(out.Samples, sampleJSON(p, smp, who))
	}
	writeJSON(w, http.StatusOK, out)
}

type decideRequest struct {
	Reviewer string            `json:"reviewer"`
	Sample   string            `json:"sample"`
	Decision string            `json:"decision"`
	Set      map[string]string `json:"set"`
	Note     string            `json:"note"`
}

func (s *Server) apiReviewDecide(w http.ResponseWriter, r *http.Request) {
	var req decideRequest
	if !readJSON(w, r, &req) {
		return
	}
	p := s.apiReviewer(w, r, req.Reviewer)
	if p == nil {
		return
	}
	changed, err := p.Decide(r.Context(), review.Decision{Reviewer: req.Reviewer, Sample: seduce.SampleID(req.Sample),
		Decision: req.Decision, Set: req.Set, Note: req.Note})
	if err != nil {
		s.apiFail(w, err)
		return
	}
	s.answerDecision(w, r, p, req.Reviewer, changed)
}

func (s *Server) apiReviewUndo(w http.ResponseWriter, r *http.Request) {
	var req decideRequest
	if !readJSON(w, r, &req) {
		return
	}
	p := s.apiReviewer(w, r, req.Reviewer)
	if p == nil {
		return
	}
	changed, err := p.Undo(r.Context(), req.Reviewer, seduce.SampleID(req.Sample))
	if err != nil {
		s.apiFail(w, err)
		return
	}
	s.answerDecision(w, r, p, req.Reviewer, changed)
}

func (s *Server) answerDecision(w http.ResponseWriter, r *http.Request, p *review.Project, reviewer string, changed bool) {
	prog, err := s.progressOf(r.Context(), p, reviewer)
	if err != nil {
		s.apiFail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Changed  bool         `json:"changed"`
		Progress progressJSON `json:"progress"`
	}{changed, prog})
}

func (s *Server) apiFail(w http.ResponseWriter, err error) {
	var ie *review.InputError
	if errors.As(err, &ie) {
		apiError(w, http.StatusBadRequest, ie.Msg)
		return
	}
	s.log.Error("review request", "err", err)
	apiError(w, http.StatusInternalServerError, "the decision could not be stored; the server log has the details")
}
