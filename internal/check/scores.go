package check

import (
	"fmt"
	"sort"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/stats"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// Scores are the metrics of spec section 4, laid out for the paper's tables 1–6. The
// first four fields are the contract; the rest is more detail.
//
// The Quality Score QS is the share of "yes" among the questions answered: per
// transcript (averaged over the judges and replicates that answered), then averaged over
// transcripts for a model, a case, a dimension or everything. Missing answers are left
// out, never counted as "no"; a score over nothing is null. The Retry Rate R is the total
// of the transcripts' retries.
type Scores struct {
	Checklist   string              `json:"checklist"`
	QS          *float64            `json:"qs"`
	ByDimension map[string]*float64 `json:"by_dimension"`
	RetryRate   int                 `json:"retry_rate"`

	Run           store.RunID     `json:"run,omitempty"`
	ChecklistName string          `json:"checklist_name,omitempty"`
	Judges        []llm.ModelName `json:"judges"`
	Replicates    int             `json:"replicates"`
	Transcripts   int             `json:"transcripts"`
	Questions     int             `json:"questions"`
	Answers       AnswerCounts    `json:"answers"`
	// BySubdimension maps a dimension with named sub-dimensions to their QS.
	BySubdimension map[string]map[string]*float64 `json:"by_subdimension,omitempty"`
	// Models are ordered by QS, best first.
	Models        []ModelScore      `json:"models"`
	PerTranscript []TranscriptScore `json:"per_transcript"`
	PerQuestion   []QuestionScore   `json:"per_question"`
	// Agreement is reported when more than one judge or replicate answered.
	Agreement *Agreement   `json:"agreement,omitempty"`
	Requests  runner.Tally `json:"requests"`
	// FailedRequests counts requests that failed for good; a rerun asks them again.
	FailedRequests int `json:"failed_requests"`
	// Skipped are the transcript files --skip-bad left out, each with its first problem.
	// The caller sets them: a judge run records what it judged, not what it was not given.
	Skipped []Skipped `json:"skipped,omitempty"`

	// Orders for tables: maps lose them.
	dims   []string
	shorts []string
	subs   [][]string // per dimension; nil when it has no named sub-dimensions
	cases  []string
	qs     []*float64 // per dimension, overall
}

// AnswerCounts counts ratings by verdict.
type AnswerCounts struct {
	Yes     int `json:"yes"`
	No      int `json:"no"`
	Missing int `json:"missing"`
}

// ModelScore is one evaluated model's row of tables 1, 2 and 4, with its cases for
// tables 3, 5 and 6.
type ModelScore struct {
	Model          string                         `json:"model"`
	Transcripts    int                            `json:"transcripts"`
	RetryRate      int                            `json:"retry_rate"`
	QS             *float64                       `json:"qs"`
	ByDimension    map[string]*float64            `json:"by_dimension"`
	BySubdimension map[string]map[string]*float64 `json:"by_subdimension,omitempty"`
	ByCase         map[string]CaseScore           `json:"by_case"`

	dim []*float64
	sub [][]*float64
}

// CaseScore is one model's score on one case.
type CaseScore struct {
	Transcripts int                 `json:"transcripts"`
	RetryRate   int                 `json:"retry_rate"`
	QS          *float64            `json:"qs"`
	ByDimension map[string]*float64 `json:"by_dimension"`

	dim []*float64
}

// TranscriptScore is one transcript's scores.
type TranscriptScore struct {
	TrialID        TrialID                        `json:"trial_id"`
	CaseID         string                         `json:"case_id"`
	Model          string                         `json:"model"`
	Source         string                         `json:"source,omitempty"`
	Retries        int                            `json:"retries"`
	Completed      *bool                          `json:"completed,omitempty"`
	QS             *float64                       `json:"qs"`
	ByDimension    map[string]*float64            `json:"by_dimension"`
	BySubdimension map[string]map[string]*float64 `json:"by_subdimension,omitempty"`
	Answers        AnswerCounts                   `json:"answers"`

	dim []*float64
}

// The patterns a question's answers show.
const (
	PatternDiscriminates = "discriminates"
	PatternAlwaysYes     = "always yes"
	PatternAlwaysNo      = "always no"
	PatternUnanswered    = "unanswered"
)

// QuestionScore is how often one question was answered "yes". A question that is
// always "yes" (or always "no") over many transcripts tells models apart less than one
// that varies.
type QuestionScore struct {
	Q            int                 `json:"q"`
	ID           QuestionID          `json:"id"`
	Dimension    string              `json:"dimension"`
	Subdimension string              `json:"subdimension,omitempty"`
	Text         string              `json:"text"`
	Answers      AnswerCounts        `json:"answers"`
	YesRate      *float64            `json:"yes_rate"`
	Pattern      string              `json:"pattern"`
	ByModel      map[string]*float64 `json:"by_model"`
}

type tally struct{ yes, n int }

func (t *tally) add(v Verdict) {
	switch v {
	case Yes:
		t.yes++
		t.n++
	case No:
		t.n++
	}
}

func (t tally) rate() *float64 { return stats.RatePtr(t.yes, t.n) }

// meanOf averages the defined values; nil when none is.
func meanOf(vs []*float64) *float64 {
	var xs []float64
	for _, v := range vs {
		if v != nil {
			xs = append(xs, *v)
		}
	}
	m, ok := stats.Mean(xs)
	if !ok {
		return nil
	}
	return &m
}

type raterKey struct {
	judge llm.ModelName
	rep   int
}

// transcriptValues are one transcript's scores: overall, per dimension, per sub.
type transcriptValues struct {
	qs  *float64
	dim []*float64
	sub [][]*float64
}

// Score computes the metrics of a judgement.
func Score(j *Judgement) *Scores {
	cl := j.Checklist
	items := cl.Items()
	byN := make(map[int]Item, len(items))
	for _, it := range items {
		byN[it.N] = it
	}
	s := &Scores{Checklist: cl.Hash, ChecklistName: cl.Name, Run: j.Run, Judges: j.Judges, Replicates: j.Replicates,
		Transcripts: len(j.Transcripts), Questions: len(items), Requests: j.Requests, FailedRequests: j.Failed,
		ByDimension: map[string]*float64{}}
	for _, d := range cl.Dims {
		s.dims, s.shorts = append(s.dims, d.Name), append(s.shorts, d.Short)
		var names []string
		for _, sub := range d.Subs {
			if sub.Name != "" {
				names = append(names, sub.Name)
			}
		}
		s.subs = append(s.subs, names)
	}

	// Tally each transcript's answers per rater, in rater order of first appearance.
	type perRater struct {
		all tally
		dim []tally
		sub [][]tally
	}
	newRater := func() *perRater {
		p := &perRater{dim: make([]tally, len(cl.Dims)), sub: make([][]tally, len(cl.Dims))}
		for di, d := range cl.Dims {
			p.sub[di] = make([]tally, len(d.Subs))
		}
		return p
	}
	trialIndex := map[TrialID]int{}
	for i, m := range j.Transcripts {
		trialIndex[m.TrialID] = i
	}
	raters := make([]map[raterKey]*perRater, len(j.Transcripts))
	var raterOrder []raterKey
	seenRater := map[raterKey]bool{}
	answers := make([]AnswerCounts, len(j.Transcripts))
	qTally := map[int]*AnswerCounts{}
	qModel := map[int]map[string]*tally{}
	for _, r := range j.Ratings {
		ti, ok := trialIndex[r.Trial]
		it, known := byN[r.Q]
		if !ok || !known {
			continue
		}
		k := raterKey{r.Judge, r.Replicate}
		if !seenRater[k] {
			seenRater[k] = true
			raterOrder = append(raterOrder, k)
		}
		if raters[ti] == nil {
			raters[ti] = map[raterKey]*perRater{}
		}
		p := raters[ti][k]
		if p == nil {
			p = newRater()
			raters[ti][k] = p
		}
		p.all.add(r.Verdict)
		p.dim[it.Dim].add(r.Verdict)
		p.sub[it.Dim][it.Sub].add(r.Verdict)
		countVerdict(&answers[ti], r.Verdict)
		countVerdict(&s.Answers, r.Verdict)
		if qTally[r.Q] == nil {
			qTally[r.Q] = &AnswerCounts{}
			qModel[r.Q] = map[string]*tally{}
		}
		countVerdict(qTally[r.Q], r.Verdict)
		model := j.Transcripts[ti].Model
		if qModel[r.Q][model] == nil {
			qModel[r.Q][model] = &tally{}
		}
		qModel[r.Q][model].add(r.Verdict)
	}

	// A transcript's score is the mean over its raters' scores.
	values := make([]transcriptValues, len(j.Transcripts))
	for ti := range j.Transcripts {
		v := transcriptValues{dim: make([]*float64, len(cl.Dims)), sub: make([][]*float64, len(cl.Dims))}
		var all []*float64
		dims := make([][]*float64, len(cl.Dims))
		subs := make([][][]*float64, len(cl.Dims))
		for di, d := range cl.Dims {
			subs[di] = make([][]*float64, len(d.Subs))
		}
		for _, k := range raterOrder {
			p := raters[ti][k]
			if p == nil {
				continue
			}
			all = append(all, p.all.rate())
			for di := range cl.Dims {
				dims[di] = append(dims[di], p.dim[di].rate())
				for si := range p.sub[di] {
					subs[di][si] = append(subs[di][si], p.sub[di][si].rate())
				}
			}
		}
		v.qs = meanOf(all)
		for di := range cl.Dims {
			v.dim[di] = meanOf(dims[di])
			v.sub[di] = make([]*float64, len(subs[di]))
			for si := range subs[di] {
				v.sub[di][si] = meanOf(subs[di][si])
			}
		}
		values[ti] = v
	}

	// Overall, per dimension and per sub-dimension: means over transcripts.
	group := func(members []int) transcriptValues {
		g := transcriptValues{dim: make([]*float64, len(cl.Dims)), sub: make([][]*float64, len(cl.Dims))}
		var all []*float64
		for _, ti := range members {
			all = append(all, values[ti].qs)
		}
		g.qs = meanOf(all)
		for di, d := range cl.Dims {
			var ds []*float64
			for _, ti := range members {
				ds = append(ds, values[ti].dim[di])
			}
			g.dim[di] = meanOf(ds)
			g.sub[di] = make([]*float64, len(d.Subs))
			for si := range d.Subs {
				var ss []*float64
				for _, ti := range members {
					ss = append(ss, values[ti].sub[di][si])
				}
				g.sub[di][si] = meanOf(ss)
			}
		}
		return g
	}
	everyone := make([]int, len(j.Transcripts))
	for i := range everyone {
		everyone[i] = i
		s.RetryRate += j.Transcripts[i].Retries
	}
	overall := group(everyone)
	s.QS, s.qs = overall.qs, overall.dim
	s.ByDimension = s.dimMap(overall.dim)
	s.BySubdimension = s.subMap(cl, overall.sub)

	// Per model, and per model and case.
	byModel := map[string][]int{}
	var models []string
	caseSeen := map[string]bool{}
	for ti, m := range j.Transcripts {
		if _, ok := byModel[m.Model]; !ok {
			models = append(models, m.Model)
		}
		byModel[m.Model] = append(byModel[m.Model], ti)
		if !caseSeen[m.CaseID] {
			caseSeen[m.CaseID] = true
			s.cases = append(s.cases, m.CaseID)
		}
	}
	for _, name := range models {
		members := byModel[name]
		g := group(members)
		ms := ModelScore{Model: name, Transcripts: len(members), QS: g.qs, ByDimension: s.dimMap(g.dim),
			BySubdimension: s.subMap(cl, g.sub), ByCase: map[string]CaseScore{}, dim: g.dim, sub: g.sub}
		byCase := map[string][]int{}
		for _, ti := range members {
			ms.RetryRate += j.Transcripts[ti].Retries
			byCase[j.Transcripts[ti].CaseID] = append(byCase[j.Transcripts[ti].CaseID], ti)
		}
		for c, cm := range byCase {
			cg := group(cm)
			cs := CaseScore{Transcripts: len(cm), QS: cg.qs, ByDimension: s.dimMap(cg.dim), dim: cg.dim}
			for _, ti := range cm {
				cs.RetryRate += j.Transcripts[ti].Retries
			}
			ms.ByCase[c] = cs
		}
		s.Models = append(s.Models, ms)
	}
	sort.SliceStable(s.Models, func(a, b int) bool { return better(s.Models[a].QS, s.Models[b].QS) })

	for ti, m := range j.Transcripts {
		v := values[ti]
		s.PerTranscript = append(s.PerTranscript, TranscriptScore{TrialID: m.TrialID, CaseID: m.CaseID, Model: m.Model,
			Source: m.Source, Retries: m.Retries, Completed: m.Completed, QS: v.qs, ByDimension: s.dimMap(v.dim),
			BySubdimension: s.subMap(cl, v.sub), Answers: answers[ti], dim: v.dim})
	}

	for _, it := range items {
		d := &cl.Dims[it.Dim]
		qs := QuestionScore{Q: it.N, ID: it.ID, Dimension: d.Name, Subdimension: d.Subs[it.Sub].Name, Text: it.Text,
			ByModel: map[string]*float64{}}
		if c := qTally[it.N]; c != nil {
			qs.Answers = *c
		}
		qs.YesRate = stats.RatePtr(qs.Answers.Yes, qs.Answers.Yes+qs.Answers.No)
		switch {
		case qs.Answers.Yes+qs.Answers.No == 0:
			qs.Pattern = PatternUnanswered
		case qs.Answers.No == 0:
			qs.Pattern = PatternAlwaysYes
		case qs.Answers.Yes == 0:
			qs.Pattern = PatternAlwaysNo
		default:
			qs.Pattern = PatternDiscriminates
		}
		for model, t := range qModel[it.N] {
			qs.ByModel[model] = t.rate()
		}
		s.PerQuestion = append(s.PerQuestion, qs)
	}
	if len(raterOrder) > 1 {
		s.Agreement = AgreementOf(j.Ratings)
	}
	return s
}

func countVerdict(c *AnswerCounts, v Verdict) {
	switch v {
	case Yes:
		c.Yes++
	case No:
		c.No++
	default:
		c.Missing++
	}
}

// better orders scores best first, undefined last.
func better(a, b *float64) bool {
	switch {
	case a == nil:
		return false
	case b == nil:
		return true
	}
	return *a > *b
}

func (s *Scores) dimMap(vs []*float64) map[string]*float64 {
	m := make(map[string]*float64, len(vs))
	for di, v := range vs {
		m[s.dims[di]] = v
	}
	return m
}

func (s *Scores) subMap(cl *Checklist, vs [][]*float64) map[string]map[string]*float64 {
	var m map[string]map[string]*float64
	for di, d := range cl.Dims {
		if len(s.subs[di]) == 0 {
			continue
		}
		if m == nil {
			m = map[string]map[string]*float64{}
		}
		inner := map[string]*float64{}
		for si, sub := range d.Subs {
			inner[sub.Label(&d)] = vs[di][si]
		}
		m[d.Name] = inner
	}
	return m
}

// Agreement is how far judges (or one judge's replicates) agree, over the questions of
// every transcript. Gwet's AC1 stays meaningful when nearly every answer is "yes", where
// kappa collapses; both are given.
type Agreement struct {
	// Raters are "judge" or "judge#k" for replicate k.
	Raters []string `json:"raters"`
	// Items counts (transcript, question) pairs answered by at least two raters.
	Items            int             `json:"items"`
	PercentAgreement *float64        `json:"percent_agreement"`
	FleissKappa      *float64        `json:"fleiss_kappa"`
	GwetAC1          *float64        `json:"gwet_ac1"`
	Pairs            []PairAgreement `json:"pairs"`
	Notes            []string        `json:"notes,omitempty"`
}

// PairAgreement compares two raters on the items both answered.
type PairAgreement struct {
	A                string   `json:"a"`
	B                string   `json:"b"`
	Items            int      `json:"items"`
	PercentAgreement *float64 `json:"percent_agreement"`
	CohenKappa       *float64 `json:"cohen_kappa"`
	GwetAC1          *float64 `json:"gwet_ac1"`
}

// AgreementOf measures agreement among the raters of ratings: Fleiss' kappa and Gwet's
// AC1 over all raters, and Cohen's kappa, AC1 and percent agreement for every pair.
// Missing answers are left out. The coefficients come from package stats.
func AgreementOf(ratings []Rating) *Agreement {
	type item struct {
		trial TrialID
		q     int
	}
	var raters []raterKey
	seen := map[raterKey]bool{}
	reps := map[llm.ModelName]bool{}
	votes := map[item]map[raterKey]Verdict{}
	var order []item
	for _, r := range ratings {
		k := raterKey{r.Judge, r.Replicate}
		if !seen[k] {
			seen[k] = true
			raters = append(raters, k)
		}
		if r.Replicate > 0 {
			reps[r.Judge] = true
		}
		if r.Verdict == Missing {
			continue
		}
		it := item{r.Trial, r.Q}
		if votes[it] == nil {
			votes[it] = map[raterKey]Verdict{}
			order = append(order, it)
		}
		votes[it][k] = r.Verdict
	}
	label := func(k raterKey) string {
		if reps[k.judge] {
			return fmt.Sprintf("%s#%d", k.judge, k.rep+1)
		}
		return string(k.judge)
	}
	a := &Agreement{}
	for _, k := range raters {
		a.Raters = append(a.Raters, label(k))
	}
	var counts [][]int
	for _, it := range order {
		v := votes[it]
		if len(v) < 2 {
			continue
		}
		row := []int{0, 0}
		for _, verdict := range v {
			if verdict == Yes {
				row[0]++
			} else {
				row[1]++
			}
		}
		counts = append(counts, row)
	}
	a.Items = len(counts)
	if a.Items == 0 {
		a.Notes = append(a.Notes, "no question was answered by two raters")
		return a
	}
	note := func(what string, v float64, err error) *float64 {
		if err != nil {
			a.Notes = append(a.Notes, what+": "+err.Error())
			return nil
		}
		return &v
	}
	v, err := stats.FleissKappa(counts)
	a.FleissKappa = note("Fleiss' kappa", v, err)
	v, err = stats.GwetAC1Counts(counts)
	a.GwetAC1 = note("Gwet's AC1", v, err)
	var pcts []*float64
	for x := 0; x < len(raters); x++ {
		for y := x + 1; y < len(raters); y++ {
			var va, vb []Verdict
			for _, it := range order {
				p, okp := votes[it][raters[x]]
				q, okq := votes[it][raters[y]]
				if okp && okq {
					va, vb = append(va, p), append(vb, q)
				}
			}
			pa := PairAgreement{A: label(raters[x]), B: label(raters[y]), Items: len(va)}
			if len(va) > 0 {
				name := pa.A + " vs " + pa.B
				v, err := stats.PercentAgreement(va, vb)
				pa.PercentAgreement = note(name+": percent agreement", v, err)
				v, err = stats.CohenKappa(va, vb)
				pa.CohenKappa = note(name+": Cohen's kappa", v, err)
				v, err = stats.GwetAC1(va, vb)
				pa.GwetAC1 = note(name+": Gwet's AC1", v, err)
			}
			pcts = append(pcts, pa.PercentAgreement)
			a.Pairs = append(a.Pairs, pa)
		}
	}
	a.PercentAgreement = meanOf(pcts)
	return a
}
