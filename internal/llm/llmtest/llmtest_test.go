package llmtest_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

func newServer(t testing.TB, o llmtest.Options) *llmtest.Server {
	t.Helper()
	s := llmtest.NewServer(o)
	t.Cleanup(s.Close)
	return s
}

// client keeps enough idle connections for the concurrency of these tests.
func client() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 256
	return &http.Client{Transport: t}
}

func chatBody(i int, text string) []byte {
	return fmt.Appendf(nil, `{"model":"gpt-test","messages":[{"role":"user","content":%q}],"seed":%d}`, text, i)
}

// post sends body to the OpenAI endpoint and returns the status, or 0 when no response
// came back.
func post(c *http.Client, url string, body []byte) (int, []byte) {
	resp, err := c.Post(url+"/v1/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func TestDecodeRequests(t *testing.T) {
	tests := []struct {
		name string
		path string
		body string
		want llmtest.Request
	}{
		{
			name: "openai",
			path: "/v1/chat/completions",
			body: `{"model":"gpt-x","messages":[{"role":"system","content":"be brief"},{"role":"user","content":[{"type":"text","text":"q1"}]},{"role":"assistant","content":"a1"},{"role":"user","content":"q2"}],"temperature":0.5,"max_completion_tokens":9,"seed":3,"stream":true,"stream_options":{"include_usage":true},"response_format":{"type":"json_schema","json_schema":{"name":"r","schema":{"type":"object"}}}}`,
			want: llmtest.Request{Protocol: llmtest.OpenAI, Model: "gpt-x", System: "be brief",
				Messages:    []llm.Message{{Role: llm.RoleUser, Text: "q1"}, {Role: llm.RoleAssistant, Text: "a1"}, {Role: llm.RoleUser, Text: "q2"}},
				Temperature: ptr(0.5), MaxTokens: 9, Seed: ptr(int64(3)), Stream: true, IncludeUsage: true, JSONSchema: json.RawMessage(`{"type":"object"}`)},
		},
		{
			name: "anthropic",
			path: "/v1/messages",
			body: `{"model":"claude-x","max_tokens":100,"system":[{"type":"text","text":"be brief"}],"messages":[{"role":"user","content":"q1"}],"top_p":0.9,"output_config":{"format":{"type":"json_schema","schema":{"type":"object"}}}}`,
			want: llmtest.Request{Protocol: llmtest.Anthropic, Model: "claude-x", System: "be brief",
				Messages: []llm.Message{{Role: llm.RoleUser, Text: "q1"}}, TopP: ptr(0.9), MaxTokens: 100,
				JSONSchema: json.RawMessage(`{"type":"object"}`)},
		},
		{
			name: "gemini",
			path: "/v1beta/models/gemini-x:streamGenerateContent?alt=sse",
			body: `{"contents":[{"role":"user","parts":[{"text":"q1"}]},{"role":"model","parts":[{"text":"a1"}]}],"systemInstruction":{"parts":[{"text":"be brief"}]},"generationConfig":{"seed":4,"maxOutputTokens":12,"responseJsonSchema":{"type":"object"}}}`,
			want: llmtest.Request{Protocol: llmtest.Gemini, Model: "gemini-x", System: "be brief",
				Messages: []llm.Message{{Role: llm.RoleUser, Text: "q1"}, {Role: llm.RoleAssistant, Text: "a1"}},
				Seed:     ptr(int64(4)), MaxTokens: 12, Stream: true, JSONSchema: json.RawMessage(`{"type":"object"}`)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *llmtest.Request
			s := newServer(t, llmtest.Options{Responder: func(r *llmtest.Request) llmtest.Response {
				got = r
				return llmtest.Echo(r)
			}})
			resp, err := http.Post(s.URL+tt.path, "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("status %d; want 200", resp.StatusCode)
			}
			sum := sha256.Sum256([]byte(tt.body))
			w := tt.want
			if got.Protocol != w.Protocol || got.Model != w.Model || got.System != w.System ||
				fmt.Sprint(got.Messages) != fmt.Sprint(w.Messages) || fmtPtr(got.Temperature) != fmtPtr(w.Temperature) ||
				fmtPtr(got.TopP) != fmtPtr(w.TopP) || fmtPtr(got.Seed) != fmtPtr(w.Seed) || got.MaxTokens != w.MaxTokens ||
				got.Stream != w.Stream || got.IncludeUsage != w.IncludeUsage || string(got.JSONSchema) != string(w.JSONSchema) {
				t.Errorf("decoded %+v; want %+v", *got, w)
			}
			if got.BodyHash != hex.EncodeToString(sum[:]) || got.Attempt != 1 || string(got.Body) != tt.body {
				t.Errorf("hash %s attempt %d; want the body's hash and attempt 1", got.BodyHash, got.Attempt)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func fmtPtr[T any](p *T) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}

func TestBadRequests(t *testing.T) {
	s := newServer(t, llmtest.Options{})
	tests := []struct {
		name, path, body string
		want             int
	}{
		{"openai invalid JSON", "/v1/chat/completions", `{"model":`, 400},
		{"openai no model", "/chat/completions", `{"messages":[{"role":"user","content":"x"}]}`, 400},
		{"anthropic no max_tokens", "/v1/messages", `{"model":"c","messages":[{"role":"user","content":"x"}]}`, 400},
		{"gemini unknown method", "/v1beta/models/g:countTokens", `{"contents":[{"parts":[{"text":"x"}]}]}`, 400},
		{"unknown endpoint", "/v1/completions", `{}`, 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Post(s.URL+tt.path, "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("POST %s = %d; want %d", tt.path, resp.StatusCode, tt.want)
			}
		})
	}
	if got := s.StatusCount(400); got != 4 {
		t.Errorf("StatusCount(400) = %d; want 4", got)
	}
}

// TestCountsUnderConcurrency sends every body several times from many goroutines; the
// first arrival of each body fails, so the per-body attempt count must be exact.
func TestCountsUnderConcurrency(t *testing.T) {
	s := newServer(t, llmtest.Options{Responder: func(r *llmtest.Request) llmtest.Response {
		if r.Attempt == 1 {
			return llmtest.Response{Fault: llmtest.Fault{Kind: llmtest.FaultServerError}}
		}
		return llmtest.Echo(r)
	}})
	const bodies, repeats, workers = 200, 3, 64
	c := client()
	work := make(chan []byte)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for b := range work {
				post(c, s.URL, b)
			}
		})
	}
	for range repeats {
		for i := range bodies {
			work <- chatBody(i, "question")
		}
	}
	close(work)
	wg.Wait()

	st := s.Stats()
	if st.Requests != bodies*repeats || st.Distinct != bodies || st.MaxRepeats != repeats {
		t.Errorf("Stats = %+v; want %d requests, %d distinct bodies, each %d times", st, bodies*repeats, bodies, repeats)
	}
	for h, n := range s.Bodies() {
		if n != repeats {
			t.Errorf("body %s arrived %d times; want %d", h[:8], n, repeats)
		}
	}
	if st.ByStatus[500] != bodies || st.ByStatus[200] != bodies*(repeats-1) {
		t.Errorf("ByStatus = %v; want one 500 per body (%d), the rest 200", st.ByStatus, bodies)
	}
}

func TestNothingAskedTwice(t *testing.T) {
	s := newServer(t, llmtest.Options{})
	c := client()
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Go(func() { post(c, s.URL, chatBody(i, "same text")) })
	}
	wg.Wait()
	if st := s.Stats(); st.MaxRepeats != 1 || st.Distinct != 100 {
		t.Errorf("Stats = %+v; want 100 distinct bodies, none repeated", st)
	}
	post(c, s.URL, chatBody(7, "same text"))
	if st := s.Stats(); st.MaxRepeats != 2 || s.BodyCount(chatBody(7, "same text")) != 2 {
		t.Errorf("after a repeat: Stats = %+v, BodyCount = %d; want 2", st, s.BodyCount(chatBody(7, "same text")))
	}
}

// TestFaultPlanRates sends 2,000 distinct requests through a plan and checks that each
// fault's share is within five standard deviations of its probability.
func TestFaultPlanRates(t *testing.T) {
	plan := &llmtest.FaultPlan{Seed: 42, Faults: []llmtest.Chance{
		{Fault: llmtest.Fault{Kind: llmtest.FaultRateLimit}, P: 0.10},
		{Fault: llmtest.Fault{Kind: llmtest.FaultServerError}, P: 0.10},
		{Fault: llmtest.Fault{Kind: llmtest.FaultHang}, P: 0.05},
	}}
	s := newServer(t, llmtest.Options{FaultPlan: plan, HangCap: 5 * time.Millisecond})
	const n, workers = 2000, 32
	c := client()
	statuses := make([]int, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range next {
				statuses[i], _ = post(c, s.URL, chatBody(i, "rate check"))
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()

	seen := map[int]int{}
	for _, st := range statuses {
		seen[st]++
	}
	for _, tt := range []struct {
		status int
		p      float64
	}{{429, 0.10}, {500, 0.10}, {0, 0.05}, {200, 0.75}} {
		want := n * tt.p
		tol := 5 * math.Sqrt(n*tt.p*(1-tt.p))
		if got := float64(seen[tt.status]); math.Abs(got-want) > tol {
			t.Errorf("status %d: %v of %d; want %v ± %.0f", tt.status, got, n, want, tol)
		}
		if got := s.StatusCount(tt.status); got != int64(seen[tt.status]) {
			t.Errorf("StatusCount(%d) = %d; clients saw %d", tt.status, got, seen[tt.status])
		}
	}
}

// TestFaultPlanRetriesSucceed: a retried body gets a fresh draw, so retrying long
// enough always gets through, and the same seed gives the same run.
func TestFaultPlanRetriesSucceed(t *testing.T) {
	plan := &llmtest.FaultPlan{Seed: 7, Faults: []llmtest.Chance{{Fault: llmtest.Fault{Kind: llmtest.FaultServerError}, P: 0.5}}}
	run := func() []int {
		s := newServer(t, llmtest.Options{FaultPlan: plan})
		c := client()
		var tries []int
		for i := range 50 {
			n := 1
			for ; n <= 40; n++ {
				if st, _ := post(c, s.URL, chatBody(i, "retry me")); st == 200 {
					break
				}
			}
			if n > 40 {
				t.Fatalf("body %d failed 40 times at p=0.5", i)
			}
			if got := s.BodyCount(chatBody(i, "retry me")); got != n {
				t.Fatalf("BodyCount = %d; want %d", got, n)
			}
			tries = append(tries, n)
		}
		return tries
	}
	a, b := run(), run()
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("same seed, different runs:\n%v\n%v", a, b)
	}
	var retried int
	for _, n := range a {
		if n > 1 {
			retried++
		}
	}
	if retried == 0 || retried == len(a) {
		t.Errorf("%d of %d bodies needed a retry at p=0.5; want some", retried, len(a))
	}
}

func TestInvalidFaultPlan(t *testing.T) {
	for _, plan := range []*llmtest.FaultPlan{
		{Faults: []llmtest.Chance{{Fault: llmtest.Fault{Kind: llmtest.FaultHang}, P: 0.6}, {Fault: llmtest.Fault{Kind: llmtest.FaultReset}, P: 0.6}}},
		{Faults: []llmtest.Chance{{Fault: llmtest.Fault{Kind: llmtest.FaultHang}, P: -0.1}}},
		{Faults: []llmtest.Chance{{P: 0.1}}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewServer(%+v) did not panic", plan)
				}
			}()
			llmtest.NewServer(llmtest.Options{FaultPlan: plan}).Close()
		}()
	}
}

// TestCloseReleasesHangs: Close must not wait out HangCap.
func TestCloseReleasesHangs(t *testing.T) {
	s := llmtest.NewServer(llmtest.Options{HangCap: time.Hour, Responder: func(*llmtest.Request) llmtest.Response {
		return llmtest.Response{Fault: llmtest.Fault{Kind: llmtest.FaultHang}}
	}})
	done := make(chan int, 3)
	for i := range 3 {
		go func() {
			st, _ := post(client(), s.URL, chatBody(i, "hang"))
			done <- st
		}()
	}
	for s.Requests() < 3 {
		time.Sleep(time.Millisecond)
	}
	s.Close()
	for range 3 {
		select {
		case st := <-done:
			if st != 0 {
				t.Errorf("hung request ended with status %d; want no response", st)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Close left a hung request hanging")
		}
	}
}

// TestDelays: Latency and the slow fault delay the reply; a client that stops waiting
// gets none.
func TestDelays(t *testing.T) {
	tests := []struct {
		name       string
		opts       llmtest.Options
		timeout    time.Duration
		wantStatus int
	}{
		{"latency, patient client", llmtest.Options{Latency: 5 * time.Millisecond}, time.Minute, 200},
		{"latency, impatient client", llmtest.Options{Latency: time.Hour}, 20 * time.Millisecond, 0},
		{"slow, patient client", llmtest.Options{Responder: slow(5 * time.Millisecond)}, time.Minute, 200},
		{"slow, impatient client", llmtest.Options{Responder: slow(time.Hour)}, 20 * time.Millisecond, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, tt.opts)
			ctx, cancel := context.WithTimeout(context.Background(), tt.timeout)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "POST", s.URL+"/v1/chat/completions", bytes.NewReader(chatBody(1, "x")))
			status := 0
			if resp, err := client().Do(req); err == nil {
				status = resp.StatusCode
				resp.Body.Close()
			}
			if status != tt.wantStatus {
				t.Errorf("status %d; want %d", status, tt.wantStatus)
			}
		})
	}
}

func slow(d time.Duration) llmtest.Responder {
	return func(r *llmtest.Request) llmtest.Response {
		resp := llmtest.Echo(r)
		resp.Fault = llmtest.Fault{Kind: llmtest.FaultSlow, Delay: d}
		return resp
	}
}

func TestUnknownFaultKind(t *testing.T) {
	s := newServer(t, llmtest.Options{Responder: func(*llmtest.Request) llmtest.Response {
		return llmtest.Response{Fault: llmtest.Fault{Kind: "meteor-strike"}}
	}})
	st, body := post(client(), s.URL, chatBody(1, "x"))
	if st != 500 || !strings.Contains(string(body), "meteor-strike") {
		t.Errorf("unknown fault kind: status %d body %s; want a 500 naming it", st, body)
	}
}

func TestStreamPiecesJoin(t *testing.T) {
	text := "one two  three four five six seven eight nine ten eleven twelve thirteen"
	s := newServer(t, llmtest.Options{Chunks: 4, Responder: func(*llmtest.Request) llmtest.Response {
		return llmtest.Response{Text: text}
	}})
	resp, err := http.Post(s.URL+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"x"}],"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var joined strings.Builder
	var contents int
	for _, data := range sseData(t, resp.Body) {
		if data == "[DONE]" {
			continue
		}
		var ch struct {
			Choices []struct {
				Delta struct {
					Content *string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &ch); err != nil {
			t.Fatalf("chunk %s: %v", data, err)
		}
		if c := ch.Choices[0].Delta.Content; c != nil && *c != "" {
			joined.WriteString(*c)
			contents++
		}
	}
	if joined.String() != text || contents > 4 || contents < 2 {
		t.Errorf("%d pieces joined = %q; want %q in 2 to 4 pieces", contents, joined.String(), text)
	}
}

// sseData returns the data of each event in an SSE body.
func sseData(t *testing.T, r io.Reader) []string {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ev := range strings.Split(strings.TrimSpace(string(b)), "\n\n") {
		for _, line := range strings.Split(ev, "\n") {
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				out = append(out, d)
			}
		}
	}
	return out
}
