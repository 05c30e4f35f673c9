package web

import (
	"encoding/json"
	"net/http"

	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// unparsedLine is one line of the unparsed replies' export: a predictions line with the
// raw reply as "text" (spec section 2), so the file can be labelled by hand, read again
// with `arbiter seduce parse --parse-model`, or scored once labelled; rule and span say
// why the parser abstained.
type unparsedLine struct {
	ID        string `json:"id"`
	Model     string `json:"model"`
	Replicate int    `json:"replicate,omitempty"`
	Text      string `json:"text"`
	Rule      string `json:"rule,omitempty"`
	Span      string `json:"span,omitempty"`
}

// repliesUnparsed serves the replies of a run its parser left unparsed as JSONL, with the
// replies page's model and rule filters: the abstentions to review in bulk.
func (s *Server) repliesUnparsed(w http.ResponseWriter, r *http.Request) {
	run, _, ok := s.lookupRun(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	f := replyFilter{Model: q.Get("model"), Rule: q.Get("rule")}
	var lines []unparsedLine
	err := s.st.Results(r.Context(), run.ID, false, func(res *store.Result) error {
		o, ok := seduce.StoredOutcome(res.Outcome)
		if res.Err != "" || !ok || o.Decision != seduce.DecisionUnparsed {
			return nil
		}
		if f.Model != "" && f.Model != string(res.Model) || f.Rule != "" && f.Rule != o.Rule {
			return nil
		}
		text := res.Reply.Text
		if text == "" {
			text = res.Reply.Refusal
		}
		lines = append(lines, unparsedLine{ID: res.Item, Model: string(res.Model), Replicate: res.Replicate,
			Text: text, Rule: o.Rule, Span: o.Span})
		return nil
	})
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "", err)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+string(run.ID)+`-unparsed.jsonl"`)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, l := range lines {
		if enc.Encode(l) != nil {
			return // the client went away
		}
	}
}
