package seduce

import (
	"github.com/arbiter-eval/arbiter/internal/report"
)

// Cost is what one model's replies in a run used and cost, from the usage the
// providers reported (cmd fills it from cost.OfRun). Replies the cache answered and
// in-process models cost nothing.
type Cost struct {
	// Requests counts the replies paid for in this run; Batched of them came through a
	// provider's batch API and are priced at its batch price.
	Requests          int   `json:"requests"`
	Batched           int   `json:"batched"`
	InputTokens       int64 `json:"input_tokens"`
	CachedInputTokens int64 `json:"cached_input_tokens"`
	OutputTokens      int64 `json:"output_tokens"`
	// USD is nil when the model has no known price (add it to the config's prices:).
	USD *float64 `json:"usd"`
	// Pricing says which prices applied: "direct", "batch", "direct and batch", "local"
	// or "none" when nothing was paid for.
	Pricing string `json:"pricing"`
}

// withCost adds the cost columns to table 4 when the results carry costs: the tokens
// each model was charged for, the cached part of its input, the cost in US dollars and
// the prices applied. Rows are matched to models by name, so columns other code adds
// to table 4 stay where they are.
func withCost(t report.Table, r *Results) report.Table {
	byModel := map[string]*Cost{}
	for i := range r.Models {
		if c := r.Models[i].Cost; c != nil {
			byModel[r.Models[i].Model] = c
		}
	}
	if len(byModel) == 0 {
		return t
	}
	t.Header = append(t.Header, "Input tokens", "Cached input", "Output tokens", "Cost (USD)", "Prices")
	t.Notes = append(t.Notes, "Cost: from the usage each provider reported for the replies paid for in this run (cached replies cost nothing again); "+
		"cached input at the provider's cache-read price, batched replies at its batch price; an empty cost has no known price.")
	for i, row := range t.Rows {
		if len(row) == 0 || row[0].Kind != report.KindText {
			continue
		}
		c := byModel[row[0].Text]
		if c == nil {
			t.Rows[i] = append(row, report.Text(""), report.Text(""), report.Text(""), report.Num(nil, 4), report.Text(""))
			continue
		}
		t.Rows[i] = append(row, report.Int(int(c.InputTokens)), report.Int(int(c.CachedInputTokens)), report.Int(int(c.OutputTokens)),
			report.Num(c.USD, 4), report.Text(c.Pricing))
	}
	return t
}
