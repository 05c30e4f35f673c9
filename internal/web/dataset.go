package web

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// samplesPerPage is the length of a page of dataset samples.
const samplesPerPage = 50

// sampleFilter selects dataset samples by the query parameters of the same names;
// empty fields match all.
type sampleFilter struct {
	Setting, Skill, Style, ReviewStatus string
	// RequiresRoll is "", "true" or "false".
	RequiresRoll string
}

// match reports whether s passes every set field of f.
func (f sampleFilter) match(s *seduce.Sample) bool {
	return (f.Setting == "" || f.Setting == string(s.Setting)) &&
		(f.Skill == "" || f.Skill == s.Skill) &&
		(f.Style == "" || f.Style == string(s.Style)) &&
		(f.ReviewStatus == "" || f.ReviewStatus == s.ReviewStatus) &&
		(f.RequiresRoll == "" || f.RequiresRoll == strconv.FormatBool(s.RequiresRoll))
}

func (f sampleFilter) values() url.Values {
	return url.Values{"setting": {f.Setting}, "skill": {f.Skill}, "style": {f.Style},
		"requires_roll": {f.RequiresRoll}, "review_status": {f.ReviewStatus}}
}

// sampleChoices are the values each filter can take in a dataset.
type sampleChoices struct {
	Settings, Skills, Styles, ReviewStatuses []string
}

// filterSamples returns the samples of ds that match f, in file order, and the values
// every filter can choose from.
func filterSamples(ds *seduce.Dataset, f sampleFilter) ([]seduce.Sample, sampleChoices) {
	var out []seduce.Sample
	var c sampleChoices
	add := func(list *[]string, v string) {
		if v != "" && !slices.Contains(*list, v) {
			*list = append(*list, v)
		}
	}
	for i := range ds.Samples {
		s := &ds.Samples[i]
		add(&c.Settings, string(s.Setting))
		add(&c.Skills, s.Skill)
		add(&c.Styles, string(s.Style))
		add(&c.ReviewStatuses, s.ReviewStatus)
		if f.match(s) {
			out = append(out, *s)
		}
	}
	slices.Sort(c.Skills)
	slices.Sort(c.ReviewStatuses)
	return out, c
}

type datasetView struct {
	Title   string
	Name    string
	Size    int
	Filter  sampleFilter
	Choices sampleChoices
	Samples []seduce.Sample
	Pager   pager
}

func (s *Server) datasetPage(w http.ResponseWriter, r *http.Request) {
	page, err := pageParam(r)
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, err.Error(), nil)
		return
	}
	q := r.URL.Query()
	f := sampleFilter{Setting: q.Get("setting"), Skill: q.Get("skill"), Style: q.Get("style"),
		RequiresRoll: q.Get("requires_roll"), ReviewStatus: q.Get("review_status")}
	if f.RequiresRoll != "" && f.RequiresRoll != "true" && f.RequiresRoll != "false" {
		s.fail(w, r, http.StatusBadRequest, "requires_roll: want true or false, not "+strconv.Quote(f.RequiresRoll)+".", nil)
		return
	}
	samples, choices := filterSamples(s.dataset, f)
	pg, ok := newPager(len(samples), page, samplesPerPage, f.values())
	if !ok {
		s.fail(w, r, http.StatusNotFound, "Page "+strconv.Itoa(page)+" is past the last page of these samples.", nil)
		return
	}
	s.render(w, r, http.StatusOK, "dataset.html", datasetView{Title: "Dataset", Name: s.dataset.Name, Size: len(s.dataset.Samples),
		Filter: f, Choices: choices, Samples: samples[(page-1)*samplesPerPage : pg.Last], Pager: pg})
}
