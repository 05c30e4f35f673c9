package seduce

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// BenchmarkGenerateOverhead measures generation's own cost per scenario, the model's time
// aside: the request and reply stored through the session, the reply's checks, the
// near-duplicate search against 5,376 scenarios already indexed, and the samples
// encoded. The budget is 5 ms per scenario.
func BenchmarkGenerateOverhead(b *testing.B) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	c := NewChecker(nil, nil)
	for i := range 5376 {
		c.Add("seed", testScenario(Slot{Skill: "Climb"}, 1_000_000+i))
	}
	name := llm.ModelName("local/bench")
	n := 0
	model := &llm.Func{ModelName: name, Fn: func(_ context.Context, req *llm.Request) (*llm.Reply, error) {
		n++
		b, _ := json.Marshal(testScenario(Slot{Setting: SettingChina, Skill: "Swim"}, n))
		return &llm.Reply{Text: string(b), Finish: llm.FinishStop}, nil
	}}
	sess := &runner.Session{Store: st, Models: map[llm.ModelName]llm.Model{name: model}, Concurrency: 1}
	run, err := sess.Begin(ctx, runner.Identity{Kind: KindGenerate, Config: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		slot := Slot{Setting: SettingChina, Category: CategoryPhysical, Skill: "Swim", RequiresRoll: true, N: i + 1}
		res, err := Generate(ctx, sess, run, GenerateOptions{Model: name, Family: "bench", Slots: []Slot{slot}, Checker: c})
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
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/scenario")
}
