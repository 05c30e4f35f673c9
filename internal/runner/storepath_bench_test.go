package runner_test

import (
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// BenchmarkStorePath measures the runner's own path with an in-process model that
// answers at once, on a SQLite store on disk, at concurrency 128. results/s is the cap
// the store path puts on any run (target: at least 30,000, i.e. under 35 µs a job);
// cpu-µs/job is the CPU it spends per job.
//
// "builtin" is a baseline model: claims, result writes and progress. "provider" is the
// same model under a provider's name, so every job is also looked up in the cache first
// and its reply written to the cache, as for a paid model.
func BenchmarkStorePath(b *testing.B) {
	storePath(b, func(b *testing.B, i int) string { return filepath.Join(b.TempDir(), fmt.Sprintf("path%d.db", i)) })
}

// storePath runs 5,440 jobs through runner.Run on a fresh store at dsn(b, i) for each
// round i, with the model both as a baseline and as a provider's.
func storePath(b *testing.B, dsn func(b *testing.B, i int) string) {
	const jobs, concurrency = 5440, 128
	for _, c := range []struct {
		label string
		name  llm.ModelName
	}{{"builtin", "baseline/instant"}, {"provider", "openai/instant"}} {
		name := c.name
		b.Run(c.label, func(b *testing.B) {
			model := llm.Func{ModelName: name, Fn: func(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
				return &llm.Reply{Text: "roll Spot Hidden", Finish: llm.FinishStop, Attempts: 1}, nil
			}}
			b.ReportAllocs()
			var total, cpu time.Duration
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				st, err := store.Open(context.Background(), dsn(b, i))
				if err != nil {
					b.Fatal(err)
				}
				plan := runner.Plan{Run: "path", Models: map[llm.ModelName]llm.Model{name: model}, Concurrency: concurrency,
					Local: func(n llm.ModelName) bool { return n.Provider() == "baseline" }}
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
			// CPU time is steadier than wall time on a machine other work shares.
			b.ReportMetric(float64((cpu/time.Duration(b.N)).Microseconds())/jobs, "cpu-µs/job")
		})
	}
}

// cpuTime is the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
