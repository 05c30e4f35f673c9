package queue

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// BenchmarkJobOverhead is the queue's and store's cost per job on PostgreSQL: enqueue,
// take, write the result and complete, with a model that answers at once.
func BenchmarkJobOverhead(b *testing.B) {
	st, q := openQueueB(b)
	ctx := context.Background()
	run := beginRunB(b, st, "bench")
	js := jobs(b.N)
	peak := llmtest.NewPeak(nil, 0)
	b.ResetTimer()
	if _, err := q.Enqueue(ctx, run, js, EnqueueOptions{}); err != nil {
		b.Fatal(err)
	}
	s, err := q.Work(ctx, WorkerConfig{Concurrency: 16, Model: standin(peak), ExitWhenIdle: true, Heartbeat: time.Second})
	if err != nil || s.Done != int64(b.N) {
		b.Fatalf("%+v, %v", s, err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkStudyTwoWorkers: 5,376 jobs against a 200 ms stand-in, a shared concurrency
// limit of 64 and two workers; ratio is the wall time over the ideal (jobs/64 × 200 ms).
// split: each worker takes 32 jobs at once; contended: each takes 64, so half of them
// wait on the shared limit's slots.
func BenchmarkStudyTwoWorkers(b *testing.B) {
	b.Run("split", func(b *testing.B) { benchStudy(b, 32) })
	b.Run("contended", func(b *testing.B) { benchStudy(b, 64) })
}

func benchStudy(b *testing.B, perWorker int) {
	const n, conc, latency = 5376, 64, 200 * time.Millisecond
	for range b.N {
		b.StopTimer()
		st, q := openQueueB(b)
		ctx := context.Background()
		run := beginRunB(b, st, "study")
		if _, err := q.Enqueue(ctx, run, jobs(n), EnqueueOptions{}); err != nil {
			b.Fatal(err)
		}
		peak := llmtest.NewPeak(nil, latency)
		cfg := WorkerConfig{Concurrency: perWorker, Model: standin(peak), ExitWhenIdle: true,
			Limits: map[string]Limit{string(model): {Concurrency: conc}}}
		b.StartTimer()
		start := time.Now()
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				if _, err := q.Work(ctx, cfg); err != nil {
					b.Error(err)
				}
			})
		}
		wg.Wait()
		el := time.Since(start)
		if peak.Answered() != n || peak.Max() > conc {
			b.Fatalf("answered %d, peak %d", peak.Answered(), peak.Max())
		}
		ideal := time.Duration(n/conc) * latency
		b.ReportMetric(el.Seconds()/ideal.Seconds(), "ratio")
		b.ReportMetric(el.Seconds(), "s/run")
	}
}
