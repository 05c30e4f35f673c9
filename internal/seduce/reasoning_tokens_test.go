package seduce

import (
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// TestTable4ReasoningTokens: table 4 gains answer and reasoning tokens per reply, the
// reasoning counted out of the output; a model whose replies report nothing shows —.
func TestTable4ReasoningTokens(t *testing.T) {
	tt := tokenTally{}
	tt.add("claude-x", &llm.Reply{Usage: llm.Usage{OutputTokens: 30}})
	tt.add("claude-x", &llm.Reply{Usage: llm.Usage{OutputTokens: 50}})
	tt.add("claude-x-thinking", &llm.Reply{Usage: llm.Usage{OutputTokens: 130, ReasoningTokens: 100}})
	tt.add("claude-x-thinking", &llm.Reply{Usage: llm.Usage{OutputTokens: 70, ReasoningTokens: 60}})
	tt.add("claude-x-thinking", &llm.Reply{}) // a reply reporting nothing is not counted
	tt.add("baseline/keyword", &llm.Reply{})
	lat := &Latency{N: 2, MeanMS: 1200, MedianMS: 1100, P95MS: 2000, TotalMS: 2400}
	res := &Results{Models: []ModelResult{{Model: "claude-x", Latency: lat}, {Model: "claude-x-thinking", Latency: lat}, {Model: "baseline/keyword"}}}
	tt.set(res)
	if got := res.Models[1].Tokens; got == nil || *got != (Tokens{Replies: 2, Answer: 40, Reasoning: 160}) {
		t.Fatalf("thinking variant's tokens = %+v; want 2 replies, 40 answer, 160 reasoning", got)
	}
	if res.Models[2].Tokens != nil {
		t.Errorf("baseline has tokens %+v; want none", res.Models[2].Tokens)
	}
	tb := table4(res)
	n := len(tb.Header)
	if n < 2 || tb.Header[n-2] != "Answer tok/reply" || tb.Header[n-1] != "Reasoning tok/reply" {
		t.Fatalf("table 4 header %v; want it to end with the answer and reasoning token columns", tb.Header)
	}
	want := [][2]*float64{{f(40), f(0)}, {f(20), f(80)}, {nil, nil}}
	for i, w := range want {
		row := tb.Rows[i]
		if len(row) != n {
			t.Fatalf("row %d has %d cells; want %d", i, len(row), n)
		}
		for j, c := range row[n-2:] {
			if (c.Value == nil) != (w[j] == nil) || c.Value != nil && *c.Value != *w[j] {
				t.Errorf("row %s, %s = %v; want %v", res.Models[i].Model, tb.Header[n-2+j], c.Value, w[j])
			}
		}
	}
	if mean := tb.Rows[1][2].Value; mean == nil || *mean != 1200 {
		t.Errorf("thinking variant's mean latency = %v; want 1200", mean)
	}
	// Without any token counts (a predictions file), table 4 keeps its columns.
	plain := table4(&Results{Models: []ModelResult{{Model: "m", Latency: lat}}})
	if len(plain.Header) != 7 {
		t.Errorf("table 4 without tokens has header %v; want the 7 latency columns", plain.Header)
	}
}

func f(v float64) *float64 { return &v }
