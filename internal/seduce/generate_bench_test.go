package seduce

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// BenchmarkGenerateOverhead measures generation's own cost per scenario, the model's time
// aside: the request and reply stored through the session, the reply's checks, the
// near-duplicate search against 5,376 scenarios already indexed, and the samples
// encoded. The budget is 5 ms per scenario. The model answers at once and its
// work (building a reply) is inside the measure, so the figure is an upper bound.
func BenchmarkGenerateOverhead(b *testing.B) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	seeded := func() *Checker {
		c := NewChecker(nil, nil)
		for i := range 5376 {
			c.Add("seed", testScenario(Slot{Skill: "Climb"}, 1_000_000+i))
		}
		return c
	}
	name := llm.ModelName("local/bench")
	var mu sync.Mutex
	n := 0
	model := &llm.Func{ModelName: name, Fn: func(_ context.Context, req *llm.Request) (*llm.Reply, error) {
		mu.Lock()
		n++
		k := n
		mu.Unlock()
		slot := Slot{Skill: "Climb"}
		for line := range strings.SplitSeq(req.Messages[0].Text, "\n") {
			if v, ok := strings.CutPrefix(line, "Skill: "); ok {
				slot.Skill, _, _ = strings.Cut(v, " (")
			}
		}
		b, _ := json.Marshal(testScenario(slot, k))
		return &llm.Reply{Text: string(b), Finish: llm.FinishStop}, nil
	}}
	sess := &runner.Session{Store: st, Models: map[llm.ModelName]llm.Model{name: model}, Concurrency: 1}
	// One iteration is the paper's full grid for one generator, 448 scenarios, as one
	// fresh run.
	slots := Grid(DefaultTaxonomy(), nil, nil, DefaultPerCell)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		c := seeded()
		run, err := sess.Begin(ctx, runner.Identity{Kind: KindGenerate, Config: i})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := Generate(ctx, sess, run, GenerateOptions{Model: name, Family: "bench", Slots: slots, Checker: c})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Failures) > 0 {
			b.Fatalf("failed: %v", res.Failures[0].Problems)
		}
		if _, err := EncodeSamples(res.Samples, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(slots))/1000, "ms/scenario")
}
