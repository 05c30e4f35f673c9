package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/queue"
	"github.com/arbiter-eval/arbiter/internal/report"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// repliesPerPage is the length of a page of recorded replies.
const repliesPerPage = 50

// runRow is one line of the runs list.
type runRow struct {
	Run   *store.Run
	Stats store.Stats
}

// listRuns reads every run of st, newest first, with its counts.
func listRuns(ctx context.Context, st *store.Store) ([]runRow, error) {
	runs, err := st.Runs(ctx, "")
	if err != nil {
		return nil, err
	}
	rows := make([]runRow, len(runs))
	for i, r := range runs {
		stats, err := st.RunStats(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		rows[i] = runRow{r, stats}
	}
	return rows, nil
}

// findRun returns the run whose id is exactly id, or nil when st has none. Unlike
// store.ResolveRun it takes no prefix: a URL names one run.
func findRun(ctx context.Context, st *store.Store, id store.RunID) (*store.Run, error) {
	runs, err := st.Runs(ctx, "")
	if err != nil {
		return nil, err
	}
	for _, r := range runs {
		if r.ID == id {
			return r, nil
		}
	}
	return nil, nil
}

// runReport is what a run page shows beyond the run's own record.
type runReport struct {
	Tables  []report.Table
	Figures []report.Figure
	// Problem says why a run that should have tables has none.
	Problem string
}

// rescoreSeduce scores a seduce run as 'arbiter seduce report' does by default: the
// datasets and taxonomy its configuration names, the default bootstrap.
func rescoreSeduce(ctx context.Context, st *store.Store, run *store.Run) (*seduce.Results, error) {
	res, err := seduce.Rescore(ctx, st, run, seduce.RescoreOptions{})
	var changed *seduce.DatasetChangedError
	if errors.As(err, &changed) {
		return nil, fmt.Errorf("%w; 'arbiter seduce report --dataset' can score it against the original file", err)
	}
	return res, err
}

// buildReport rescores a run from the store alone: seduce runs through score, judge runs
// through check.Rescore. Other kinds have no report.
func buildReport(ctx context.Context, st *store.Store, run *store.Run, score func(context.Context, *store.Store, *store.Run) (*seduce.Results, error)) (*runReport, error) {
	switch run.Kind {
	case seduce.RunKind:
		res, err := score(ctx, st, run)
		if err != nil {
			return nil, err
		}
		return &runReport{Tables: seduce.Tables(res), Figures: seduce.Figures(res)}, nil
	case check.RunKind:
		j, err := check.Rescore(ctx, st, string(run.ID))
		if err != nil {
			return nil, err
		}
		s := check.Score(j)
		return &runReport{Tables: check.Tables(s), Figures: check.Figures(s)}, nil
	}
	return &runReport{}, nil
}

// reportOf returns run's report, from the cache while the run has not changed. A
// rescoring error becomes the report's Problem: the run page still shows the run.
func (s *Server) reportOf(ctx context.Context, run *store.Run, stats store.Stats) *runReport {
	key := reportKey{id: run.ID, status: string(run.Status), ended: run.EndedAt, jobs: stats.Jobs, answered: stats.Answered}
	if rep, ok := s.reports.get(key); ok {
		return rep
	}
	rep, err := buildReport(ctx, s.st, run, s.rescore)
	if err != nil {
		if ctx.Err() != nil {
			return &runReport{Problem: "The request ended before the report was ready."}
		}
		rep = &runReport{Problem: "The report could not be rebuilt from the store: " + err.Error()}
	}
	s.reports.put(key, rep)
	return rep
}

type indexView struct {
	Title string
	Runs  []runRow
	Store string
	// Workers are the queue's workers on a PostgreSQL store (arbiter worker).
	Workers []queue.WorkerInfo
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	runs, err := listRuns(r.Context(), s.st)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "", err)
		return
	}
	workers, err := queue.Workers(r.Context(), s.st)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "", err)
		return
	}
	s.render(w, r, http.StatusOK, "index.html", indexView{Title: "Runs", Runs: runs, Store: s.st.Path(), Workers: workers})
}

// lookupRun finds the run a URL names, answering 404 or 500 itself when it cannot.
func (s *Server) lookupRun(w http.ResponseWriter, r *http.Request) (*store.Run, store.Stats, bool) {
	id := store.RunID(r.PathValue("id"))
	run, err := findRun(r.Context(), s.st, id)
	if err == nil && run == nil {
		s.fail(w, r, http.StatusNotFound, "There is no run "+string(id)+" in the store "+s.st.Path()+".", nil)
		return nil, store.Stats{}, false
	}
	var stats store.Stats
	if err == nil {
		stats, err = s.st.RunStats(r.Context(), id)
	}
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "", err)
		return nil, store.Stats{}, false
	}
	return run, stats, true
}

// tableView is a report table rendered for a page, with its anchor and title.
type tableView struct {
	Name, Title string
	HTML        template.HTML
}

type runView struct {
	Title   string
	Run     *store.Run
	Stats   store.Stats
	Config  string
	Tables  []tableView
	Figures []figureView
	Problem string
	Replies string
}

func (s *Server) run(w http.ResponseWriter, r *http.Request) {
	run, stats, ok := s.lookupRun(w, r)
	if !ok {
		return
	}
	rep := s.reportOf(r.Context(), run, stats)
	base := "/runs/" + url.PathEscape(string(run.ID))
	v := runView{Title: "Run " + string(run.ID), Run: run, Stats: stats, Config: indentJSON(run.Config),
		Problem: rep.Problem, Replies: base + "/replies"}
	for i := range rep.Tables {
		t := &rep.Tables[i]
		h, err := t.HTML()
		if err != nil {
			s.fail(w, r, http.StatusInternalServerError, "", err)
			return
		}
		v.Tables = append(v.Tables, tableView{Name: t.Name, Title: t.Title, HTML: h})
	}
	v.Figures = figureViews(rep.Figures, base+"/figures", string(run.ID)+"-")
	s.render(w, r, http.StatusOK, "run.html", v)
}

// indentJSON shows a stored configuration readably, or as stored when it is not JSON.
func indentJSON(b []byte) string {
	var out bytes.Buffer
	if json.Indent(&out, b, "", "  ") != nil {
		return string(b)
	}
	return out.String()
}

// figure serves one of a run's figures as NAME.svg, NAME.pdf or NAME.png. The figures
// are drawn by package report, whose SVG escapes their text; the SVG policy keeps one
// opened on its own inert as well.
func (s *Server) figure(w http.ResponseWriter, r *http.Request) {
	run, stats, ok := s.lookupRun(w, r)
	if !ok {
		return
	}
	name, format, isFigure := figureFile(r.PathValue("file"))
	figs := s.reportOf(r.Context(), run, stats).Figures
	i := slices.IndexFunc(figs, func(f report.Figure) bool { return f.Name == name })
	if !isFigure || i < 0 {
		s.fail(w, r, http.StatusNotFound, "Run "+string(run.ID)+" has no figure "+r.PathValue("file")+".", nil)
		return
	}
	s.serveFigure(w, r, figs[i], format, string(run.ID)+"-"+r.PathValue("file"))
}

// replyFilter selects recorded replies; empty fields match all.
type replyFilter struct {
	Model, Decision, Rule string
}

// replyRow is one recorded reply as the replies page shows it.
type replyRow struct {
	Item      string
	Model     string
	Replicate int
	Decision  string
	Skill     string
	Text      string
	Err       string
	// Rule is the parser rule that decided and Span the text it read, as recorded
	// beside the reply ("" for outcomes stored before the parser recorded them).
	Rule, Span string
	// Parts is Text cut around the span, each part escaped by the template on its own;
	// SpanShown says the span was found in Text and is marked there.
	Parts     []textPart
	SpanShown bool
	// Reasoning is the thinking text the provider returned apart from the answer: shown
	// collapsed, never read for the ruling. Variant is the model's base and parameters
	// when it is a variant of another ("" for a plain model).
	Reasoning, Variant string
}

// textPart is a piece of a reply's text; Mark is set on the pieces the rule read.
type textPart struct {
	Text string
	Mark bool
}

// reasoningEnds close the reasoning blocks the parser sets aside: the span it read is
// looked for after the last of them first, so that a phrase the reasoning shares with
// the ruling is not the one marked.
var reasoningEnds = []string{"</think>", "</thinking>", "</reasoning>"}

// markSpan cuts text into parts with span marked: the whole span where text holds it,
// else each of its " | "-joined pieces (a contradiction's two rulings) in order. A
// span cut short ends in "…", which is not looked for. Text is never changed: the
// parts joined are text. It reports whether anything was marked.
func markSpan(text, span string) ([]textPart, bool) {
	span = strings.TrimSpace(span)
	if span == "" {
		return []textPart{{Text: text}}, false
	}
	from := 0
	for _, end := range reasoningEnds {
		if i := strings.LastIndex(text, end); i >= 0 && i+len(end) > from {
			from = i + len(end)
		}
	}
	for _, start := range []int{from, 0} {
		for _, pieces := range [][]string{{span}, strings.Split(span, " | ")} {
			if parts, ok := markPieces(text, start, pieces); ok {
				return parts, true
			}
		}
	}
	return []textPart{{Text: text}}, false
}

// markPieces marks each piece at its first place in text after the previous one,
// starting at from; false if a piece is not found.
func markPieces(text string, from int, pieces []string) ([]textPart, bool) {
	var parts []textPart
	last := 0
	at := from
	for _, p := range pieces {
		p = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(p), "…"))
		if p == "" {
			continue
		}
		i := strings.Index(text[at:], p)
		if i < 0 {
			return nil, false
		}
		i += at
		if i > last {
			parts = append(parts, textPart{Text: text[last:i]})
		}
		parts = append(parts, textPart{Text: p, Mark: true})
		last, at = i+len(p), i+len(p)
	}
	if len(parts) == 0 {
		return nil, false
	}
	if last < len(text) {
		parts = append(parts, textPart{Text: text[last:]})
	}
	return parts, true
}

// replyPage is one page of a run's replies and what the filters can choose from.
type replyPage struct {
	Rows      []replyRow
	Total     int
	Models    []string
	Decisions []string
	Rules     []string
}

// decisionError is the decision shown for a request that failed after its retries.
const decisionError = "error"

// readReplies reads page (from 1) of the replies of run id that match f, size a page.
// Decision and skill are the outcome the run recorded beside each reply.
func readReplies(ctx context.Context, st *store.Store, id store.RunID, f replyFilter, page, size int) (replyPage, error) {
	var out replyPage
	first := (page - 1) * size
	models, decisions, rules := map[string]bool{}, map[string]bool{}, map[string]bool{}
	variants := runVariants(ctx, st, id)
	err := st.Results(ctx, id, false, func(res *store.Result) error {
		row := replyRow{Item: res.Item, Model: string(res.Model), Replicate: res.Replicate, Text: res.Reply.Text, Err: res.Err,
			Reasoning: res.Reply.Reasoning, Variant: variants[string(res.Model)]}
		if row.Text == "" {
			row.Text = res.Reply.Refusal
		}
		if res.Err != "" {
			row.Decision = decisionError
		} else if o, ok := seduce.StoredOutcome(res.Outcome); ok {
			row.Decision, row.Skill, row.Rule, row.Span = string(o.Decision), o.Skill, o.Rule, o.Span
		}
		models[row.Model] = true
		if row.Decision != "" {
			decisions[row.Decision] = true
		}
		if row.Rule != "" {
			rules[row.Rule] = true
		}
		if (f.Model != "" && f.Model != row.Model) || (f.Decision != "" && f.Decision != row.Decision) || (f.Rule != "" && f.Rule != row.Rule) {
			return nil
		}
		if out.Total >= first && out.Total < first+size {
			row.Parts, row.SpanShown = markSpan(row.Text, row.Span)
			out.Rows = append(out.Rows, row)
		}
		out.Total++
		return nil
	})
	out.Models, out.Decisions, out.Rules = sortedKeys(models), sortedKeys(decisions), sortedKeys(rules)
	return out, err
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

type repliesView struct {
	Title   string
	Run     *store.Run
	RunURL  string
	ItemCol string
	Filter  replyFilter
	Page    replyPage
	Pager   pager
	// ExportURL is the unparsed replies' export under the page's model and rule filters.
	ExportURL string
}

func (s *Server) replies(w http.ResponseWriter, r *http.Request) {
	page, err := pageParam(r)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error(), nil)
		return
	}
	run, _, ok := s.lookupRun(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	f := replyFilter{Model: q.Get("model"), Decision: q.Get("decision"), Rule: q.Get("rule")}
	p, err := readReplies(r.Context(), s.st, run.ID, f, page, repliesPerPage)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "", err)
		return
	}
	pg, ok := newPager(p.Total, page, repliesPerPage, url.Values{"model": {f.Model}, "decision": {f.Decision}, "rule": {f.Rule}})
	if !ok {
		s.fail(w, r, http.StatusNotFound, "Page "+strconv.Itoa(page)+" is past the last page of these replies.", nil)
		return
	}
	item := "Item"
	if run.Kind == seduce.RunKind {
		item = "Sample"
	}
	s.render(w, r, http.StatusOK, "replies.html", repliesView{Title: "Replies of " + string(run.ID), Run: run,
		RunURL: "/runs/" + url.PathEscape(string(run.ID)), ItemCol: item, Filter: f, Page: p, Pager: pg,
		ExportURL: "/runs/" + url.PathEscape(string(run.ID)) + "/replies/unparsed.jsonl?" + url.Values{"model": {f.Model}, "rule": {f.Rule}}.Encode()})
}

// pager links the pages of a long list.
type pager struct {
	Page, Pages, Total int
	// First and Last number the rows this page shows, from 1.
	First, Last int
	// Prev and Next are query strings ("?…") of the neighbouring pages, "" at the ends.
	Prev, Next string
}

// newPager lays out page (from 1) of total rows, size a page, keeping the non-empty
// filters of q in its links. It reports false for a page past the last.
func newPager(total, page, size int, q url.Values) (pager, bool) {
	pages := max(1, (total+size-1)/size)
	if page > pages {
		return pager{}, false
	}
	p := pager{Page: page, Pages: pages, Total: total, First: min(total, (page-1)*size+1), Last: min(total, page*size)}
	link := func(n int) string {
		v := url.Values{}
		for k, vals := range q {
			if len(vals) > 0 && vals[0] != "" {
				v.Set(k, vals[0])
			}
		}
		if n > 1 {
			v.Set("page", strconv.Itoa(n))
		}
		return "?" + v.Encode()
	}
	if page > 1 {
		p.Prev = link(page - 1)
	}
	if page < pages {
		p.Next = link(page + 1)
	}
	return p, true
}

// errBadPage is the answer to a page parameter that is not a positive number.
var errBadPage = errors.New("page: want a page number from 1")

// pageParam reads the page query parameter; absent is 1.
func pageParam(r *http.Request) (int, error) {
	s := r.URL.Query().Get("page")
	if s == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, errBadPage
	}
	return n, nil
}
