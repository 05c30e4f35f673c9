package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// BenchmarkSeduceRunProcess runs the built binary on 5,376 jobs (the reference set, three
// replicates) against a stand-in answering after 50 ms, and reports the process's peak
// resident memory. The foundation's target is under 80 MB.
func BenchmarkSeduceRunProcess(b *testing.B) {
	bin := binary(b)
	srv := llmtest.NewServer(llmtest.Options{Responder: keeperReply, Latency: 50 * time.Millisecond})
	defer srv.Close()
	var peak int64
	var total time.Duration
	for i := 0; b.Loop(); i++ {
		db := filepath.Join(b.TempDir(), "rss.db")
		cmd := exec.Command(bin, "seduce", "run", "-q", "-m", "openai/gpt-standin", "--db", db, "--replicates", "3",
			"--concurrency", "128", "--format", "json", "--bootstrap", "1000")
		cmd.Env = append(os.Environ(), "OPENAI_API_KEY=sk-bench", "OPENAI_BASE_URL="+srv.OpenAIBaseURL())
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("seduce run: %v\n%.2000s", err, out)
		}
		total += time.Since(start)
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			peak = max(peak, ru.Maxrss) // kilobytes on Linux
		}
	}
	b.ReportMetric(float64(peak)/1024, "peak-RSS-MB")
	b.ReportMetric((total / time.Duration(b.N)).Seconds(), "s/run")
}
