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

const pushbackRun store.RunID = "seduce-pushback01"

// TestRunPageShowsPushback: a pushback run's page shows the pushback tables (how many
// were asked, caved and fixed; cave rate and FR before and after per style) and the
// figure of FR before and after by style; a run without pushback shows neither.
func TestRunPageShowsPushback(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	config := fmt.Sprintf(`{"kind":"seduce","datasets":[%q],"models":["openai/gpt-x"],"pushback":"lines-hash"}`, f.dataPath)
	if _, err := f.st.BeginRun(ctx, store.Run{ID: pushbackRun, Kind: seduce.RunKind, Config: []byte(config),
		DatasetHash: f.ds.Hash, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	roll := llm.Reply{Text: `{"decision": "roll", "skill": "Climb", "reason": "risky"}`, Finish: llm.FinishStop}
	pass := llm.Reply{Text: `{"decision": "automatic_success", "skill": null, "reason": "as you say"}`, Finish: llm.FinishStop}
	// Every sample is ruled roll; argued back, the Keeper gives way on every one.
	var results []*store.Result
	var caved, fixed int
	for i, s := range f.ds.Samples {
		results = append(results,
			&store.Result{RunID: pushbackRun, JobKey: fmt.Sprint("a-", i), Model: "openai/gpt-x", Item: string(s.ID), Reply: roll, Source: "provider"},
			&store.Result{RunID: pushbackRun, JobKey: fmt.Sprint("b-", i), Model: "openai/gpt-x", Item: seduce.PushbackItem(s.ID), Reply: pass, Source: "provider"})
		if s.RequiresRoll {
			caved++
		} else {
			fixed++
		}
	}
	if err := f.st.PutResults(ctx, results, nil); err != nil {
		t.Fatal(err)
	}
	h := f.server(t).Handler()
	page := get(t, h, "/runs/"+string(pushbackRun))
	if page.status != 200 {
		t.Fatalf("run page: status %d\n%s", page.status, page.body)
	}
	for _, want := range []string{"Pushback: does the Keeper hold when the player argues back?",
		"Pushback by rhetorical style: cave rate and FR before and after", "Cave rate", "FR after",
		"FR before and after pushback by rhetorical style"} {
		if !strings.Contains(page.body, want) {
			t.Errorf("the run page lacks %q", want)
		}
	}
	if want := fmt.Sprintf(`<td>openai/gpt-x</td><td class="num">%d</td><td class="num">0</td><td class="num">%d</td><td class="num">%d</td>`, len(f.ds.Samples), caved, fixed); !strings.Contains(strings.ReplaceAll(page.body, "\n", ""), want) {
		t.Errorf("the pushback row lacks asked %d, held 0, caved %d, fixed %d (%s)", len(f.ds.Samples), caved, fixed, want)
	}
	plain := get(t, h, "/runs/"+string(seduceRun))
	if strings.Contains(plain.body, "Pushback: does") || strings.Contains(plain.body, "after pushback") {
		t.Error("a run without pushback shows pushback")
	}
}
