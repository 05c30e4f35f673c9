package openai_test

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// BenchmarkGenerate measures the adapter and the SDK under it at arbiter's concurrency,
// against a stand-in that answers at once.
func BenchmarkGenerate(b *testing.B) {
	for _, stream := range []bool{false, true} {
		b.Run(fmt.Sprintf("stream=%v", stream), func(b *testing.B) {
			s := llmtest.NewServer(llmtest.Options{})
			defer s.Close()
			m := newModel(b, s)
			var n atomic.Int64
			b.SetParallelism(max(1, 128/runtime.GOMAXPROCS(0)))
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					req := llm.UserText("You are terse.", fmt.Sprintf("question %d", n.Add(1)))
					if stream {
						req.OnDelta = func(string) {}
					}
					if _, err := m.Generate(context.Background(), req); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
			if st := s.Stats(); st.MaxRepeats != 1 {
				b.Errorf("a request was sent twice: %+v", st)
			}
		})
	}
}
