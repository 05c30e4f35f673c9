package seduce

import (
	"slices"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/report"
)

// Tokens count the output of a model's replies as the providers reported it, reasoning
// tokens apart from answer tokens (the rest of the output), over the replies that
// reported any output: a variant that thinks shows what its thinking cost.
type Tokens struct {
	Replies   int   `json:"replies"`
	Answer    int64 `json:"answer_tokens"`
	Reasoning int64 `json:"reasoning_tokens"`
}

// perReply is n over the replies, nil without any.
func (t *Tokens) perReply(n int64) *float64 {
	if t == nil || t.Replies == 0 {
		return nil
	}
	v := float64(n) / float64(t.Replies)
	return &v
}

// tokenTally gathers Tokens per model from stored replies.
type tokenTally map[string]*Tokens

// add counts one answered reply of model; failed requests and replies that report no
// output (the built-in baselines) count nothing.
func (tt tokenTally) add(model string, r *llm.Reply) {
	u := r.Usage
	if u.OutputTokens <= 0 && u.ReasoningTokens <= 0 {
		return
	}
	t := tt[model]
	if t == nil {
		t = &Tokens{}
		tt[model] = t
	}
	t.Replies++
	t.Reasoning += u.ReasoningTokens
	// Every provider counts reasoning inside the output (Gemini's adapter adds it).
	t.Answer += max(u.OutputTokens-u.ReasoningTokens, 0)
}

// set gives each model of res its counts.
func (tt tokenTally) set(res *Results) {
	for i := range res.Models {
		if t := tt[res.Models[i].Model]; t != nil {
			res.Models[i].Tokens = t
		}
	}
}

// addTokenColumns appends to table 4 (one row per model of r, in order) the answer and
// reasoning tokens per reply, so that reasoning variants show what they spent thinking
// beside their latency; nothing when no model's replies reported tokens (predictions
// files, baselines).
func addTokenColumns(t *report.Table, r *Results) {
	if len(t.Rows) != len(r.Models) || !slices.ContainsFunc(r.Models, func(m ModelResult) bool { return m.Tokens != nil }) {
		return
	}
	t.Header = append(t.Header, "Answer tok/reply", "Reasoning tok/reply")
	for i := range r.Models {
		tk := r.Models[i].Tokens
		var ans, rsn *float64
		if tk != nil {
			ans, rsn = tk.perReply(tk.Answer), tk.perReply(tk.Reasoning)
		}
		t.Rows[i] = append(t.Rows[i], report.Num(ans, 1), report.Num(rsn, 1))
	}
	t.Notes = append(t.Notes, "Tokens per reply as the provider reported them: reasoning tokens apart from the answer's, over the replies that reported any output (— for none).")
}
