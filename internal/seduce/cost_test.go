package seduce

import (
	"slices"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/report"
)

// TestWithCost: table 4 gains the cost columns only when the results carry costs, and
// each model's row gets its own model's figures whatever the row order.
func TestWithCost(t *testing.T) {
	base := report.Table{Name: "table4", Header: []string{"Model", "Replies"},
		Rows: [][]report.Cell{{report.Text("b/y"), report.Int(2)}, {report.Text("a/x"), report.Int(1)}}}
	r := &Results{Models: []ModelResult{{Model: "a/x"}, {Model: "b/y"}}}
	if got := withCost(base, r); len(got.Header) != 2 || len(got.Rows[0]) != 2 {
		t.Fatalf("without costs the table changed: %v", got.Header)
	}
	usd := 0.25
	r.Models[0].Cost = &Cost{Requests: 3, InputTokens: 300, CachedInputTokens: 120, OutputTokens: 30, USD: &usd, Pricing: "batch"}
	r.Models[1].Cost = &Cost{Pricing: "none"}
	base.Rows = [][]report.Cell{{report.Text("b/y"), report.Int(2)}, {report.Text("a/x"), report.Int(1)}}
	got := withCost(base, r)
	if want := []string{"Model", "Replies", "Input tokens", "Cached input", "Output tokens", "Cost (USD)", "Prices"}; !slices.Equal(got.Header, want) {
		t.Fatalf("header %v; want %v", got.Header, want)
	}
	x := got.Rows[1]
	if x[2].Int != 300 || x[3].Int != 120 || x[4].Int != 30 || x[5].Value == nil || *x[5].Value != 0.25 || x[6].Text != "batch" {
		t.Errorf("a/x's row %+v; want 300, 120, 30, 0.25, batch", x)
	}
	if y := got.Rows[0]; y[5].Value != nil || y[6].Text != "none" {
		t.Errorf("b/y's row %+v; want no cost and pricing none", y)
	}
}
