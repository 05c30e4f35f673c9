package check

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// The two prompting strategies of stage 2.
const (
	Diversification = "diversification"
	Elaboration     = "elaboration"
)

// Problem is a piece of a stage that could not be done: a reply still malformed after
// its repairs, or a request that failed. Problems are reported, never dropped silently.
type Problem struct {
	Stage string `json:"stage"`
	Where string `json:"where"`
	Msg   string `json:"problem"`
}

func (p Problem) Error() string { return p.Stage + ": " + p.Where + ": " + p.Msg }

// AugmentOptions configure Augment.
type AugmentOptions struct {
	Generator llm.ModelName
	// Min and Max bound the questions asked for per criterion and strategy (default 5
	// and 10, as in the paper).
	Min, Max int
	// Repairs is how many times a malformed reply is asked again: 0 means the default
	// of 2, a negative number none.
	Repairs int
}

func (o *AugmentOptions) defaults() {
	if o.Min <= 0 {
		o.Min = 5
	}
	if o.Max < o.Min {
		o.Max = max(10, o.Min)
	}
	o.Repairs = orDefault(o.Repairs, 2)
}

// AugmentResult is the question pool of stage 2.
type AugmentResult struct {
	Run store.RunID
	// Pool is a draft checklist: each criterion's seed questions, then the generated
	// ones, ready for Filter.
	Pool     *Checklist
	Problems []Problem
	Requests runner.Tally
}

// augmentReply is the JSON a generator is asked for.
type augmentReply struct {
	Questions []struct {
		Text string `json:"text"`
		Seed int    `json:"seed"`
	} `json:"questions"`
}

var augmentSchema = json.RawMessage(`{"type":"object","properties":{"questions":{"type":"array","items":{"type":"object","properties":{"text":{"type":"string"},"seed":{"type":"integer"}},"required":["text","seed"],"additionalProperties":false}}},"required":["questions"],"additionalProperties":false}`)

// maxQuestionLen bounds a generated question, in characters.
const maxQuestionLen = 300

// Augment asks the generator to diversify and to elaborate the seed questions of every
// criterion of dims (stage 2). Each reply must be JSON with between Min and Max
// well-formed questions; a reply that is not is asked again with its problems listed, up
// to Repairs times, and then reported as a Problem. Seeds are always kept in the pool.
func Augment(ctx context.Context, e *runner.Session, dims *Dimensions, opt AugmentOptions) (*AugmentResult, error) {
	opt.defaults()
	config := struct {
		Kind       store.Kind    `json:"kind"`
		Dimensions string        `json:"dimensions"`
		Generator  llm.ModelName `json:"generator"`
		Min, Max   int
		Repairs    int    `json:"repairs"`
		Prompts    string `json:"prompts"`
	}{AugmentKind, dims.Hash, opt.Generator, opt.Min, opt.Max, opt.Repairs, PromptHash()}
	run, err := e.Begin(ctx, runner.Identity{Kind: AugmentKind, Config: config, InputHash: dims.Hash, PromptHash: PromptHash()})
	if err != nil {
		return nil, err
	}
	type slot struct{ dim, sub int }
	var tasks []runner.JSONTask
	var labels []string
	var slots []slot
	var strategies []string
	for di := range dims.Dims {
		d := &dims.Dims[di]
		for si := range d.Subs {
			s := &d.Subs[si]
			for _, strategy := range []string{Diversification, Elaboration} {
				data := struct {
					Domain   Domain
					Dim      *Dimension
					Sub      *SubDimension
					Strategy string
					Min, Max int
				}{dims.Domain, d, s, strategy, opt.Min, opt.Max}
				seeds := len(s.Seeds)
				tasks = append(tasks, runner.JSONTask{
					Item: criterionID(d, s) + "/" + strategy,
					Conv: runner.Conversation{System: render("augment_system", nil), Schema: augmentSchema,
						Messages: []llm.Message{{Role: llm.RoleUser, Text: render("augment", data)}}},
					Check: func(reply string) []string { return checkAugmentReply(reply, seeds, opt.Min, opt.Max) },
				})
				labels = append(labels, criterionLabel(d, s)+" ("+strategy+")")
				slots = append(slots, slot{di, si})
				strategies = append(strategies, strategy)
			}
		}
	}
	res := &AugmentResult{Run: run}
	outs, err := e.AskJSON(ctx, run, "augment", opt.Generator, tasks, opt.Repairs, repairTurn, &res.Requests)
	if err != nil {
		return nil, e.Finish(ctx, run, err, false)
	}
	pool := &Checklist{Name: slug(dims.Domain.Name) + "-pool", Version: 1, Domain: dims.Domain}
	for _, d := range dims.Dims {
		nd := Dimension{Name: d.Name, Short: d.Short, Definition: d.Definition}
		for _, s := range d.Subs {
			ns := SubDimension{Name: s.Name, Short: s.Short, Definition: s.Definition}
			for i, seed := range s.Seeds {
				ns.Questions = append(ns.Questions, Question{ID: QuestionID(fmt.Sprintf("%s-S%02d", criterionID(&d, &s), i+1)), Text: seed, Origin: "seed"})
			}
			nd.Subs = append(nd.Subs, ns)
		}
		pool.Dims = append(pool.Dims, nd)
	}
	for i, o := range outs {
		if !o.OK {
			msg := o.Err
			if msg == "" {
				msg = fmt.Sprintf("reply still unusable after %d asks: %s", o.Asks, strings.Join(o.Problems, "; "))
			}
			res.Problems = append(res.Problems, Problem{Stage: "augment", Where: labels[i], Msg: msg})
			continue
		}
		var r augmentReply
		_ = jsonObject(o.Reply, &r) // validated already
		sub := &pool.Dims[slots[i].dim].Subs[slots[i].sub]
		letter := "D"
		if strategies[i] == Elaboration {
			letter = "E"
		}
		prefix := criterionID(&pool.Dims[slots[i].dim], sub)
		for k, q := range r.Questions {
			sub.Questions = append(sub.Questions, Question{ID: QuestionID(fmt.Sprintf("%s-%s%02d", prefix, letter, k+1)),
				Text: oneLine(q.Text), Origin: strategies[i]})
		}
	}
	pool.Hash = canonicalHash(pool.Domain, pool.Dims, true)
	pool.StatedHash = pool.Hash
	res.Pool = pool
	if err := e.Finish(ctx, run, nil, len(res.Problems) > 0); err != nil {
		return nil, err
	}
	return res, nil
}

// checkAugmentReply lists what is wrong with a generator's reply.
func checkAugmentReply(reply string, seeds, lo, hi int) []string {
	var r augmentReply
	if err := jsonObject(reply, &r); err != nil {
		return []string{err.Error() + `: reply with {"questions": [{"text": "…", "seed": 1}]}`}
	}
	var problems []string
	if n := len(r.Questions); n < lo || n > hi {
		problems = append(problems, fmt.Sprintf("it has %d questions; give between %d and %d", n, lo, hi))
	}
	for i, q := range r.Questions {
		text := oneLine(q.Text)
		switch {
		case text == "":
			problems = append(problems, fmt.Sprintf("question %d has no text", i+1))
		case !strings.HasSuffix(text, "?"):
			problems = append(problems, fmt.Sprintf("question %d (%q) does not end with a question mark", i+1, clip(text, 80)))
		case utf8.RuneCountInString(text) > maxQuestionLen:
			problems = append(problems, fmt.Sprintf("question %d is longer than %d characters", i+1, maxQuestionLen))
		}
		if q.Seed < 0 || q.Seed > seeds {
			problems = append(problems, fmt.Sprintf("question %d names seed %d; there are seeds 1 to %d", i+1, q.Seed, seeds))
		}
	}
	return problems
}

// criterionID is the id prefix of a criterion's questions: "BRF-RA", or "PCS".
func criterionID(d *Dimension, s *SubDimension) string {
	if s.Name == "" {
		return d.Short
	}
	return d.Short + "-" + s.Short
}

func criterionLabel(d *Dimension, s *SubDimension) string {
	if s.Name == "" {
		return d.Name
	}
	return d.Name + " / " + s.Name
}

func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// orDefault reads a count option whose zero value means def and whose negative values
// mean none.
func orDefault(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 0
	}
	return n
}
