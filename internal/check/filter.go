package check

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// DefaultOverlap is the word-overlap (Jaccard) share at or above which the pre-pass
// treats two questions as near duplicates.
const DefaultOverlap = 0.7

// FilterOptions configure Filter.
type FilterOptions struct {
	// Model is the filter model; empty runs the deterministic pre-pass only.
	Model llm.ModelName
	// Overlap is the near-duplicate threshold, in (0, 1] (default DefaultOverlap).
	Overlap float64
	// Repairs is how many times a malformed reply is asked again: 0 means the default
	// of 2, a negative number none.
	Repairs int
	// Name names the checklist (default: the domain's name as a slug).
	Name string
}

// FilterResult is the checklist of stage 3.
type FilterResult struct {
	Run       store.RunID
	Checklist *Checklist
	// Prepass and ByModel count the questions each step removed.
	Prepass, ByModel int
	Problems         []Problem
	Requests         runner.Tally
}

// Prepass drops exact and near duplicates from pool, keeping the first of each group in
// checklist order: texts are compared after normalising case, punctuation and spacing,
// and by the share of content words two questions have in common (Jaccard overlap at or
// above threshold). It does not call any model and always gives the same result.
func Prepass(pool *Checklist, threshold float64) (*Checklist, []Removed) {
	if threshold <= 0 || threshold > 1 {
		threshold = DefaultOverlap
	}
	out := *pool
	out.Dims = nil
	var removed []Removed
	type seen struct {
		id    QuestionID
		norm  string
		words map[string]bool
	}
	var kept []seen
	for _, d := range pool.Dims {
		nd := d
		nd.Subs = nil
		for _, s := range d.Subs {
			ns := s
			ns.Questions = nil
			for _, q := range s.Questions {
				norm, words := normalise(q.Text), contentWords(q.Text)
				reason := ""
				for _, k := range kept {
					if k.norm == norm {
						reason = fmt.Sprintf("duplicate of %s", k.id)
						break
					}
					if o := overlap(words, k.words); o >= threshold {
						reason = fmt.Sprintf("near duplicate of %s (word overlap %.2f)", k.id, o)
						break
					}
				}
				if reason != "" {
					removed = append(removed, Removed{ID: q.ID, Text: q.Text, Dimension: d.Name, Sub: s.Name, Reason: reason, By: "prepass"})
					continue
				}
				kept = append(kept, seen{q.ID, norm, words})
				ns.Questions = append(ns.Questions, q)
			}
			nd.Subs = append(nd.Subs, ns)
		}
		out.Dims = append(out.Dims, nd)
	}
	out.Removed = append(slices.Clone(pool.Removed), removed...)
	out.Hash = canonicalHash(out.Domain, out.Dims, true)
	out.StatedHash = out.Hash
	return &out, removed
}

// normalise lower-cases text and keeps only letters and digits, single-spaced.
func normalise(s string) string {
	return strings.Join(words(s), " ")
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// stopWords carry no content for the overlap test.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "to": true, "in": true, "on": true,
	"at": true, "by": true, "for": true, "with": true, "from": true, "as": true, "is": true, "are": true, "was": true,
	"were": true, "be": true, "been": true, "do": true, "does": true, "did": true, "it": true, "its": true,
	"that": true, "this": true, "their": true, "they": true, "them": true, "any": true, "each": true, "every": true,
	"all": true, "has": true, "have": true, "had": true, "not": true, "no": true, "s": true, "than": true,
	"other": true, "there": true, "when": true, "which": true, "who": true, "whom": true, "what": true,
}

func contentWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range words(s) {
		if stopWords[w] {
			continue
		}
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-1] // a crude plural: witness/witnesses stays apart, claims/claim meet
		}
		out[w] = true
	}
	return out
}

// overlap is the Jaccard share of two word sets.
func overlap(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// filterReply is the JSON a filter model is asked for.
type filterReply struct {
	Kept    []QuestionID `json:"kept"`
	Removed []struct {
		ID     QuestionID `json:"id"`
		Reason string     `json:"reason"`
	} `json:"removed"`
}

var filterSchema = json.RawMessage(`{"type":"object","properties":{"kept":{"type":"array","items":{"type":"string"}},"removed":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"reason":{"type":"string"}},"required":["id","reason"],"additionalProperties":false}}},"required":["kept","removed"],"additionalProperties":false}`)

// Filter runs the pre-pass over pool and then asks the filter model, one dimension at a
// time, which questions to keep (stage 3). The reply must account for every question
// exactly once and give a reason for each removal; a reply that does not is asked again
// with its problems listed, up to Repairs times. A dimension whose reply stays unusable
// keeps all its questions and is reported as a Problem. The checklist returned carries
// every removal with its reason, and its hash.
func Filter(ctx context.Context, e *runner.Session, pool *Checklist, opt FilterOptions) (*FilterResult, error) {
	if opt.Overlap <= 0 || opt.Overlap > 1 {
		opt.Overlap = DefaultOverlap
	}
	opt.Repairs = orDefault(opt.Repairs, 2)
	cl, removed := Prepass(pool, opt.Overlap)
	cl.Name = cmpStr(opt.Name, cmpStr(strings.TrimSuffix(pool.Name, "-pool"), slug(pool.Domain.Name)))
	cl.Version = max(cl.Version, 1)
	res := &FilterResult{Checklist: cl, Prepass: len(removed)}
	if opt.Model == "" {
		return res, nil
	}
	config := struct {
		Kind    store.Kind    `json:"kind"`
		Pool    string        `json:"pool"`
		Model   llm.ModelName `json:"model"`
		Overlap float64       `json:"overlap"`
		Repairs int           `json:"repairs"`
		Prompts string        `json:"prompts"`
	}{FilterKind, pool.Hash, opt.Model, opt.Overlap, opt.Repairs, PromptHash()}
	run, err := e.Begin(ctx, runner.Identity{Kind: FilterKind, Config: config, InputHash: pool.Hash, PromptHash: PromptHash()})
	if err != nil {
		return nil, err
	}
	res.Run = run
	var tasks []runner.JSONTask
	var dimOf []int
	for di := range cl.Dims {
		d := &cl.Dims[di]
		type group struct {
			Name      string
			Questions []Question
		}
		var groups []group
		var ids []QuestionID
		for si := range d.Subs {
			s := &d.Subs[si]
			if len(s.Questions) == 0 {
				continue
			}
			groups = append(groups, group{s.Label(d), s.Questions})
			for _, q := range s.Questions {
				ids = append(ids, q.ID)
			}
		}
		if len(ids) == 0 {
			continue
		}
		var others []Dimension
		for oi, o := range cl.Dims {
			if oi != di {
				others = append(others, o)
			}
		}
		data := struct {
			Domain Domain
			Dim    *Dimension
			Others []Dimension
			Groups []group
		}{cl.Domain, d, others, groups}
		tasks = append(tasks, runner.JSONTask{
			Item: d.Short,
			Conv: runner.Conversation{System: render("filter_system", nil), Schema: filterSchema,
				Messages: []llm.Message{{Role: llm.RoleUser, Text: render("filter", data)}}},
			Check: func(reply string) []string { return checkFilterReply(reply, ids) },
		})
		dimOf = append(dimOf, di)
	}
	outs, err := e.AskJSON(ctx, run, "filter", opt.Model, tasks, opt.Repairs, repairTurn, &res.Requests)
	if err != nil {
		return nil, e.Finish(ctx, run, err, false)
	}
	for i, o := range outs {
		d := &cl.Dims[dimOf[i]]
		if !o.OK {
			msg := o.Err
			if msg == "" {
				msg = fmt.Sprintf("reply still unusable after %d asks: %s", o.Asks, strings.Join(o.Problems, "; "))
			}
			res.Problems = append(res.Problems, Problem{Stage: "filter", Where: d.Name, Msg: msg + "; all its questions were kept unfiltered"})
			continue
		}
		var r filterReply
		_ = jsonObject(o.Reply, &r) // validated already
		why := map[QuestionID]string{}
		for _, rm := range r.Removed {
			why[rm.ID] = oneLine(rm.Reason)
		}
		for si := range d.Subs {
			s := &d.Subs[si]
			var keep []Question
			for _, q := range s.Questions {
				reason, gone := why[q.ID]
				if !gone {
					keep = append(keep, q)
					continue
				}
				cl.Removed = append(cl.Removed, Removed{ID: q.ID, Text: q.Text, Dimension: d.Name, Sub: s.Name, Reason: reason, By: string(opt.Model)})
				res.ByModel++
			}
			s.Questions = keep
		}
	}
	cl.Hash = canonicalHash(cl.Domain, cl.Dims, true)
	cl.StatedHash = cl.Hash
	if err := e.Finish(ctx, run, nil, len(res.Problems) > 0); err != nil {
		return nil, err
	}
	return res, nil
}

// checkFilterReply lists what is wrong with a filter model's reply: every id asked about
// must be either kept or removed, once, and every removal needs a reason.
func checkFilterReply(reply string, ids []QuestionID) []string {
	var r filterReply
	if err := jsonObject(reply, &r); err != nil {
		return []string{err.Error() + `: reply with {"kept": ["id", …], "removed": [{"id": "…", "reason": "…"}]}`}
	}
	count := map[QuestionID]int{}
	var problems []string
	known := func(id QuestionID) bool { return slices.Contains(ids, id) }
	for _, id := range r.Kept {
		count[id]++
		if !known(id) {
			problems = append(problems, fmt.Sprintf("%q is not one of the ids given", id))
		}
	}
	for _, rm := range r.Removed {
		count[rm.ID]++
		if !known(rm.ID) {
			problems = append(problems, fmt.Sprintf("%q is not one of the ids given", rm.ID))
		}
		if strings.TrimSpace(rm.Reason) == "" {
			problems = append(problems, fmt.Sprintf("the removal of %s gives no reason", rm.ID))
		}
	}
	var missing, twice []string
	for _, id := range ids {
		switch n := count[id]; {
		case n == 0:
			missing = append(missing, string(id))
		case n > 1:
			twice = append(twice, string(id))
		}
	}
	if len(missing) > 0 {
		problems = append(problems, "these ids are neither kept nor removed: "+strings.Join(missing, ", "))
	}
	if len(twice) > 0 {
		problems = append(problems, "these ids appear more than once: "+strings.Join(twice, ", "))
	}
	return problems
}
