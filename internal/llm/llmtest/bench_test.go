package llmtest_test

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// concurrency is what arbiter runs at against a real provider at most.
const concurrency = 128

// endpoints are one request of each protocol and mode.
var endpoints = []struct {
	name, path, body string
}{
	{"openai", "/v1/chat/completions", `{"model":"gpt-test","messages":[{"role":"user","content":"%d: is the claim supported?"}]}`},
	{"openai-stream", "/v1/chat/completions", `{"model":"gpt-test","messages":[{"role":"user","content":"%d: is the claim supported?"}],"stream":true,"stream_options":{"include_usage":true}}`},
	{"anthropic", "/v1/messages", `{"model":"claude-test","max_tokens":256,"messages":[{"role":"user","content":"%d: is the claim supported?"}]}`},
	{"anthropic-stream", "/v1/messages", `{"model":"claude-test","max_tokens":256,"messages":[{"role":"user","content":"%d: is the claim supported?"}],"stream":true}`},
	{"gemini", "/v1beta/models/gemini-test:generateContent", `{"contents":[{"role":"user","parts":[{"text":"%d: is the claim supported?"}]}]}`},
	{"gemini-stream", "/v1beta/models/gemini-test:streamGenerateContent?alt=sse", `{"contents":[{"role":"user","parts":[{"text":"%d: is the claim supported?"}]}]}`},
}

func reply(*llmtest.Request) llmtest.Response {
	return llmtest.Response{
		Text:      "The claim is supported: the second clause grants exactly the right the plaintiff relies on.",
		Reasoning: "Read clause two against the plaintiff's claim.",
	}
}

// BenchmarkServer measures the stand-in alone at arbiter's concurrency, so that it can be
// seen not to be the bottleneck of the benchmarks that use it.
func BenchmarkServer(b *testing.B) {
	for _, ep := range endpoints {
		b.Run(ep.name, func(b *testing.B) {
			s := llmtest.NewServer(llmtest.Options{Responder: reply})
			defer s.Close()
			c := client()
			var n atomic.Int64
			b.SetParallelism(max(1, concurrency/runtime.GOMAXPROCS(0)))
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					body := fmt.Appendf(nil, ep.body, n.Add(1))
					resp, err := c.Post(s.URL+ep.path, "application/json", bytes.NewReader(body))
					if err != nil {
						b.Error(err)
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						b.Errorf("status %d", resp.StatusCode)
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
		})
	}
}

// TestManyRequestsNoLeaks sends thousands of requests of every kind, faults included, at
// concurrency 128, and checks that closing the server leaves no goroutine behind.
func TestManyRequestsNoLeaks(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of requests")
	}
	before := runtime.NumGoroutine()
	plan := &llmtest.FaultPlan{Seed: 1, Faults: []llmtest.Chance{
		{Fault: llmtest.Fault{Kind: llmtest.FaultRateLimit}, P: 0.05},
		{Fault: llmtest.Fault{Kind: llmtest.FaultServerError}, P: 0.05},
		{Fault: llmtest.Fault{Kind: llmtest.FaultHang}, P: 0.02},
		{Fault: llmtest.Fault{Kind: llmtest.FaultTruncate}, P: 0.02},
		{Fault: llmtest.Fault{Kind: llmtest.FaultReset}, P: 0.02},
		{Fault: llmtest.Fault{Kind: llmtest.FaultMalformed}, P: 0.02},
	}}
	s := llmtest.NewServer(llmtest.Options{Responder: reply, FaultPlan: plan, HangCap: 10 * time.Millisecond})
	c := client()
	const total = 3000
	next := make(chan int)
	var wg sync.WaitGroup
	for range concurrency {
		wg.Go(func() {
			for i := range next {
				ep := endpoints[i%len(endpoints)]
				resp, err := c.Post(s.URL+ep.path, "application/json", bytes.NewReader(fmt.Appendf(nil, ep.body, i)))
				if err != nil {
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	for i := range total {
		next <- i
	}
	close(next)
	wg.Wait()
	if got := s.Requests(); got != total {
		t.Errorf("Requests = %d; want %d", got, total)
	}
	if st := s.Stats(); st.Distinct != total || st.ByStatus[200] < total*8/10 {
		t.Errorf("Stats = %+v; want %d distinct bodies, most answered 200", st, total)
	}
	s.Close()
	c.CloseIdleConnections()
	// The runtime and the test framework may hold a goroutine or two of their own.
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+2 {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after Close; %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}
