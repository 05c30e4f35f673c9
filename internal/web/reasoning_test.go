package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

const reasoningRun store.RunID = "seduce-reasoning01"

// addReasoningRun stores a run of one model with and without thinking, whose variant's
// replies carry hostile reasoning text that itself reads like the opposite ruling.
func addReasoningRun(t *testing.T, f *fixture) {
	t.Helper()
	ctx := context.Background()
	config := fmt.Sprintf(`{"kind":"seduce","datasets":[%q],"models":["anthropic/claude-x","claude-x-thinking"],`+
		`"endpoints":{"claude-x-thinking":"anthropic/claude-x {\"thinking_budget\":8192} at http://127.0.0.1:9/v1"}}`, f.dataPath)
	if _, err := f.st.BeginRun(ctx, store.Run{ID: reasoningRun, Kind: seduce.RunKind, Config: []byte(config),
		DatasetHash: f.ds.Hash, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	answer := `{"decision": "roll", "skill": "Climb", "reason": "a sheer wall"}`
	var results []*store.Result
	for i, m := range []llm.ModelName{"anthropic/claude-x", "claude-x-thinking"} {
		reply := llm.Reply{Text: answer, Finish: llm.FinishStop}
		if i == 1 {
			reply.Reasoning = hostile + "\nDecision: automatic_success. No roll is needed."
		}
		results = append(results, &store.Result{RunID: reasoningRun, JobKey: fmt.Sprint("r-", i), Model: m,
			Item: string(f.ds.Samples[0].ID), Reply: reply, Outcome: seduce.OutcomeOf(seduce.FromReplyWith(&reply, nil, nil)), Source: "provider"})
	}
	if err := f.st.PutResults(ctx, results, nil); err != nil {
		t.Fatal(err)
	}
}

// TestRepliesShowReasoning: the replies page shows a variant's stored reasoning beside
// its reply, collapsed and escaped, while the ruling stays the answer's (roll, though
// the reasoning says otherwise), and names the variant's base and parameters; the plain
// model's reply has neither.
func TestRepliesShowReasoning(t *testing.T) {
	f := newFixture(t)
	addReasoningRun(t, f)
	h := f.server(t).Handler()
	a := get(t, h, "/runs/"+string(reasoningRun)+"/replies")
	if a.status != 200 {
		t.Fatalf("replies: status %d", a.status)
	}
	for _, raw := range []string{"<script", "<img src=x"} {
		if strings.Contains(a.body, raw) {
			t.Errorf("replies page holds raw %q", raw)
		}
	}
	want := `<details class="reasoning"><summary>Reasoning (not read for the ruling)</summary><pre>` + hostileEscaped +
		"\nDecision: automatic_success. No roll is needed.</pre></details>"
	if n := strings.Count(a.body, want); n != 1 {
		t.Errorf("replies page holds the escaped, collapsed reasoning %d times; want once:\n%s", n, a.body)
	}
	if strings.Contains(a.body, "<details open") {
		t.Error("the reasoning is shown open; want it collapsed")
	}
	if n := strings.Count(a.body, `decision-roll">roll<`); n != 2 {
		t.Errorf("%d replies ruled roll; want both (the reasoning is not read for the ruling)", n)
	}
	if strings.Contains(a.body, "decision-pass") {
		t.Error("a reply is shown as a pass: its reasoning was read as the ruling")
	}
	if n := strings.Count(a.body, `<span class="variant">variant of anthropic/claude-x, thinking_budget 8192</span>`); n != 1 {
		t.Errorf("the variant's base and parameters are shown %d times; want once, beside claude-x-thinking", n)
	}
	if n := rows(t, a.body, "replies"); n != 2 {
		t.Errorf("%d rows; want 2", n)
	}
}
