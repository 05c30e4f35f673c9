package runner_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
	"github.com/arbiter-eval/arbiter/internal/store/storetest"
)

// BenchmarkStorePathPostgres is BenchmarkStorePath on a PostgreSQL store (a fresh
// database on ARBITER_TEST_POSTGRES each round): the same claims, group-committed result
// writes and cache entries, over the network protocol instead of a local file.
func BenchmarkStorePathPostgres(b *testing.B) {
	const jobs, concurrency = 5440, 128
	name := llm.ModelName("baseline/instant")
	model := llm.Func{ModelName: name, Fn: func(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
		return &llm.Reply{Text: "roll Spot Hidden", Finish: llm.FinishStop, Attempts: 1}, nil
	}}
	b.ReportAllocs()
	var total, cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		st, err := store.Open(context.Background(), storetest.PostgresDSN(b))
		if err != nil {
			b.Fatal(err)
		}
		plan := runner.Plan{Run: "path", Models: map[llm.ModelName]llm.Model{name: model}, Concurrency: concurrency,
			Local: func(llm.ModelName) bool { return true }}
		for j := range jobs {
			item := fmt.Sprintf("sample-%05d", j)
			plan.Jobs = append(plan.Jobs, runner.Job{Key: runner.JobKey(name, item, 0), Model: name, Item: item,
				Request: llm.UserText("You are an impartial adjudicator.", "Session context:\n"+item+"\n\nPlayer statement:\nI climb.")})
		}
		if _, err := st.BeginRun(context.Background(), store.Run{ID: "path", Kind: "bench", Config: []byte("{}"), Version: "bench"}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start, cpu0 := time.Now(), cpuTime()
		sum, err := runner.Run(context.Background(), st, plan)
		total += time.Since(start)
		cpu += cpuTime() - cpu0
		if err != nil || sum.Answered != jobs {
			b.Fatalf("run: %+v, %v", sum, err)
		}
		st.Close()
	}
	per := total / time.Duration(b.N)
	b.ReportMetric(float64(jobs)/per.Seconds(), "results/s")
	b.ReportMetric(float64(per.Microseconds())/jobs, "µs/job")
	b.ReportMetric(float64((cpu/time.Duration(b.N)).Microseconds())/jobs, "cpu-µs/job")
}
