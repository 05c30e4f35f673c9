package runner_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/openai"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// benchRun measures one full run of jobs against a stand-in answering after latency, with
// the real OpenAI adapter, the retry wrapper and a SQLite store on disk. It reports the
// wall time as a multiple of the ideal jobs x latency / concurrency.
func benchRun(b *testing.B, jobs int, latency time.Duration, concurrency int) {
	srv := llmtest.NewServer(llmtest.Options{Latency: latency})
	defer srv.Close()
	name := llm.ModelName("openai/bench")
	m, err := openai.New(name, config.Endpoint{Provider: "openai", BaseURL: srv.OpenAIBaseURL(), Key: "sk-bench"}, openai.Options{})
	if err != nil {
		b.Fatal(err)
	}
	model := llm.WithRetry(m, llm.DefaultRetry(), nil, nil)
	ideal := time.Duration(jobs) * latency / time.Duration(concurrency)
	b.ReportAllocs()
	var total time.Duration
	for i := 0; b.Loop(); i++ {
		st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), fmt.Sprintf("bench%d.db", i)))
		if err != nil {
			b.Fatal(err)
		}
		plan := runner.Plan{Run: "bench", Models: map[llm.ModelName]llm.Model{name: model}, Concurrency: concurrency, NoCache: true}
		for j := range jobs {
			item := fmt.Sprintf("sample-%05d-%d", j, i)
			plan.Jobs = append(plan.Jobs, runner.Job{Key: runner.JobKey(name, item, 0), Model: name, Item: item,
				Request: llm.UserText("You are an impartial adjudicator.", "Session context:\n"+item+"\n\nPlayer statement:\nI climb.")})
		}
		if _, err := st.BeginRun(context.Background(), store.Run{ID: "bench", Kind: "bench", Config: []byte("{}"), Version: "bench"}); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		sum, err := runner.Run(context.Background(), st, plan)
		total += time.Since(start)
		if err != nil || sum.Answered != jobs {
			b.Fatalf("run: %+v, %v", sum, err)
		}
		st.Close()
	}
	per := total / time.Duration(b.N)
	b.ReportMetric(float64(per)/float64(ideal), "x-ideal")
	b.ReportMetric(per.Seconds(), "s/run")
}

// BenchmarkRunner1792At200ms is the foundation's target: within 5% of ideal (1.05 x-ideal).
func BenchmarkRunner1792At200ms(b *testing.B) { benchRun(b, 1792, 200*time.Millisecond, 64) }

// BenchmarkRunner5376At50ms is the foundation's target: within 20% of ideal (1.20 x-ideal).
func BenchmarkRunner5376At50ms(b *testing.B) { benchRun(b, 5376, 50*time.Millisecond, 128) }
