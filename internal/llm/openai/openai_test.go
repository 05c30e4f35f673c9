package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/openai"
)

var _ llm.Model = (*openai.Model)(nil)

// fakeKey is recognisable so that a test can prove it never reaches an error message.
const fakeKey = "sk-llmtest-FAKE-KEY-7d3f9a2b1c"

func newServer(t testing.TB, o llmtest.Options) *llmtest.Server {
	t.Helper()
	s := llmtest.NewServer(o)
	t.Cleanup(s.Close)
	return s
}

func newModel(t testing.TB, s *llmtest.Server) *openai.Model {
	t.Helper()
	m, err := openai.New("openai/gpt-test", config.Endpoint{
		Provider: "openai", BaseURL: s.OpenAIBaseURL(), Key: fakeKey, KeyVar: "OPENAI_API_KEY",
	}, openai.Options{})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return m
}

func ptr[T any](v T) *T { return &v }

// request is a single-turn request, streaming when stream is set; deltas collects what
// OnDelta saw.
func request(stream bool, deltas *[]string) *llm.Request {
	req := llm.UserText("You are terse.", "Is the claim supported?")
	if stream {
		req.OnDelta = func(s string) { *deltas = append(*deltas, s) }
	}
	return req
}

func TestGenerate(t *testing.T) {
	s := newServer(t, llmtest.Options{Responder: func(r *llmtest.Request) llmtest.Response {
		return llmtest.Response{
			Text: "The claim is supported by the second clause of the contract.", Reasoning: "Look at clause two first.",
			InputTokens: 31, OutputTokens: 17, ReasoningTokens: 5, Model: "gpt-test-2026-01-01",
		}
	}})
	m := newModel(t, s)
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			var deltas []string
			got, err := m.Generate(context.Background(), request(stream, &deltas))
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			want := llm.Reply{
				Text: "The claim is supported by the second clause of the contract.", Reasoning: "Look at clause two first.",
				Finish: llm.FinishStop, Usage: llm.Usage{InputTokens: 31, OutputTokens: 17, ReasoningTokens: 5},
				Model: "gpt-test-2026-01-01", Attempts: 1,
			}
			if got.Text != want.Text || got.Reasoning != want.Reasoning || got.Finish != want.Finish ||
				got.Usage != want.Usage || got.Model != want.Model || got.Attempts != want.Attempts {
				t.Errorf("Generate = %+v; want %+v", got, want)
			}
			if got.Latency <= 0 {
				t.Errorf("Latency = %v; want > 0", got.Latency)
			}
			if !json.Valid(got.Raw) {
				t.Errorf("Raw = %q; want JSON", got.Raw)
			}
			if stream {
				if len(deltas) < 2 {
					t.Errorf("OnDelta called %d times; want several pieces", len(deltas))
				}
				if j := strings.Join(deltas, ""); j != got.Text {
					t.Errorf("deltas joined = %q; want the text %q", j, got.Text)
				}
			} else if len(deltas) != 0 {
				t.Errorf("OnDelta called without streaming")
			}
		})
	}
}

func TestRequestMapping(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"verdict":{"type":"string"}},"required":["verdict"]}`)
	tests := []struct {
		name  string
		req   *llm.Request
		check func(t *testing.T, r *llmtest.Request)
	}{
		{
			name: "defaults left to the provider",
			req:  llm.UserText("sys", "hello"),
			check: func(t *testing.T, r *llmtest.Request) {
				for _, field := range []string{"temperature", "top_p", "seed", "max_completion_tokens", "max_tokens", "response_format", "stream"} {
					if strings.Contains(string(r.Body), `"`+field+`"`) {
						t.Errorf("body %s sends %s; want it left out", r.Body, field)
					}
				}
				if r.System != "sys" || len(r.Messages) != 1 || r.Messages[0] != (llm.Message{Role: llm.RoleUser, Text: "hello"}) {
					t.Errorf("server saw system %q, messages %+v", r.System, r.Messages)
				}
				if r.Model != "gpt-test" {
					t.Errorf("model = %q; want gpt-test", r.Model)
				}
				if got := r.Header.Get("Authorization"); got != "Bearer "+fakeKey {
					t.Errorf("Authorization header not the configured key")
				}
			},
		},
		{
			name: "options when set",
			req: &llm.Request{
				Messages: []llm.Message{
					{Role: llm.RoleUser, Text: "q1"}, {Role: llm.RoleAssistant, Text: "a1"}, {Role: llm.RoleUser, Text: "q2"},
				},
				Temperature: ptr(0.0), TopP: ptr(0.9), MaxTokens: 64, Seed: ptr(int64(7)),
				JSONSchema: schema, SchemaName: "verdict",
			},
			check: func(t *testing.T, r *llmtest.Request) {
				if r.Temperature == nil || *r.Temperature != 0 || r.TopP == nil || *r.TopP != 0.9 ||
					r.Seed == nil || *r.Seed != 7 || r.MaxTokens != 64 {
					t.Errorf("server saw temperature %v top_p %v seed %v max %d", r.Temperature, r.TopP, r.Seed, r.MaxTokens)
				}
				if !strings.Contains(string(r.Body), `"max_completion_tokens":64`) {
					t.Errorf("body %s; want max_completion_tokens", r.Body)
				}
				if r.System != "" || len(r.Messages) != 3 || r.Messages[1].Role != llm.RoleAssistant {
					t.Errorf("server saw system %q, messages %+v", r.System, r.Messages)
				}
				var got, want any
				json.Unmarshal(r.JSONSchema, &got)
				json.Unmarshal(schema, &want)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("schema = %s; want %s", r.JSONSchema, schema)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var seen *llmtest.Request
			s := newServer(t, llmtest.Options{Responder: func(r *llmtest.Request) llmtest.Response {
				seen = r
				return llmtest.Echo(r)
			}})
			if _, err := newModel(t, s).Generate(context.Background(), tt.req); err != nil {
				t.Fatalf("Generate: %v", err)
			}
			tt.check(t, seen)
		})
	}
}

func TestStreamAsksForUsage(t *testing.T) {
	var seen *llmtest.Request
	s := newServer(t, llmtest.Options{Responder: func(r *llmtest.Request) llmtest.Response {
		seen = r
		return llmtest.Echo(r)
	}})
	var deltas []string
	if _, err := newModel(t, s).Generate(context.Background(), request(true, &deltas)); err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if !seen.Stream || !seen.IncludeUsage {
		t.Errorf("stream %v include_usage %v; want both", seen.Stream, seen.IncludeUsage)
	}
}

func TestOutcomes(t *testing.T) {
	tests := []struct {
		name        string
		resp        llmtest.Response
		wantFinish  llm.Finish
		wantText    string
		wantRefusal string
	}{
		{"stop", llmtest.Response{Text: "yes"}, llm.FinishStop, "yes", ""},
		{"length", llmtest.Response{Text: "cut off", Finish: llm.FinishLength}, llm.FinishLength, "cut off", ""},
		{"refusal", llmtest.Response{Refusal: "I can't help with that."}, llm.FinishRefusal, "", "I can't help with that."},
		{"content filter", llmtest.Response{Blocked: true}, llm.FinishContentFilter, "", ""},
		{"tool calls", llmtest.Response{Text: "x", WireFinish: "tool_calls"}, llm.FinishOther, "x", ""},
	}
	for _, tt := range tests {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%v", tt.name, stream), func(t *testing.T) {
				s := newServer(t, llmtest.Options{Responder: func(*llmtest.Request) llmtest.Response { return tt.resp }})
				var deltas []string
				got, err := newModel(t, s).Generate(context.Background(), request(stream, &deltas))
				if err != nil {
					t.Fatalf("Generate: %v; want a reply", err)
				}
				if got.Finish != tt.wantFinish || got.Text != tt.wantText || got.Refusal != tt.wantRefusal {
					t.Errorf("Generate = finish %q text %q refusal %q; want %q %q %q",
						got.Finish, got.Text, got.Refusal, tt.wantFinish, tt.wantText, tt.wantRefusal)
				}
			})
		}
	}
}

func TestFaults(t *testing.T) {
	tests := []struct {
		name           string
		fault          llmtest.Fault
		wantStatus     int
		wantRetryable  bool
		wantRetryAfter time.Duration
	}{
		{"429 Retry-After", llmtest.Fault{Kind: llmtest.FaultRateLimit, RetryAfter: 2 * time.Second}, 429, true, 2 * time.Second},
		{"429 retry-after-ms", llmtest.Fault{Kind: llmtest.FaultRateLimit, RetryAfter: 1500 * time.Millisecond}, 429, true, 1500 * time.Millisecond},
		{"500", llmtest.Fault{Kind: llmtest.FaultServerError}, 500, true, 0},
		{"503", llmtest.Fault{Kind: llmtest.FaultUnavailable}, 503, true, 0},
		{"400", llmtest.Fault{Kind: llmtest.FaultBadRequest}, 400, false, 0},
		{"401", llmtest.Fault{Kind: llmtest.FaultUnauthorized}, 401, false, 0},
		{"404", llmtest.Fault{Kind: llmtest.FaultNotFound}, 404, false, 0},
		{"malformed JSON", llmtest.Fault{Kind: llmtest.FaultMalformed}, 200, true, 0},
		{"truncated", llmtest.Fault{Kind: llmtest.FaultTruncate}, 0, true, 0},
		{"connection reset", llmtest.Fault{Kind: llmtest.FaultReset}, 0, true, 0},
	}
	for _, tt := range tests {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%v", tt.name, stream), func(t *testing.T) {
				s := newServer(t, llmtest.Options{Responder: func(*llmtest.Request) llmtest.Response {
					return llmtest.Response{Text: "never seen in full by the client", Fault: tt.fault}
				}})
				var deltas []string
				_, err := newModel(t, s).Generate(context.Background(), request(stream, &deltas))
				var e *llm.Error
				if !errors.As(err, &e) {
					t.Fatalf("Generate error = %v (%T); want *llm.Error", err, err)
				}
				// A truncated reply may fail on reading (no status) or after the headers
				// (status 200): either way it is worth another attempt.
				if tt.fault.Kind == llmtest.FaultTruncate {
					if e.Status != 0 && e.Status != 200 {
						t.Errorf("Status = %d; want 0 or 200", e.Status)
					}
				} else if e.Status != tt.wantStatus {
					t.Errorf("Status = %d; want %d (%v)", e.Status, tt.wantStatus, e)
				}
				if e.Retryable != tt.wantRetryable {
					t.Errorf("Retryable = %v; want %v (%v)", e.Retryable, tt.wantRetryable, e)
				}
				if e.RetryAfter != tt.wantRetryAfter {
					t.Errorf("RetryAfter = %v; want %v", e.RetryAfter, tt.wantRetryAfter)
				}
				if n := s.Requests(); n != 1 {
					t.Errorf("server saw %d requests; want exactly 1 (no SDK retries)", n)
				}
				checkNoKey(t, err)
			})
		}
	}
}

func TestHangUntilDeadline(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			s := newServer(t, llmtest.Options{Responder: func(*llmtest.Request) llmtest.Response {
				return llmtest.Response{Fault: llmtest.Fault{Kind: llmtest.FaultHang}}
			}})
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			var deltas []string
			_, err := newModel(t, s).Generate(ctx, request(stream, &deltas))
			var e *llm.Error
			if !errors.As(err, &e) || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Generate error = %v; want *llm.Error wrapping context.DeadlineExceeded", err)
			}
			if e.Status != 0 || !e.Retryable {
				t.Errorf("Status %d, Retryable %v; want 0, true", e.Status, e.Retryable)
			}
			if n := s.Requests(); n != 1 {
				t.Errorf("server saw %d requests; want 1", n)
			}
		})
	}
}

func TestCancelledIsNotRetryable(t *testing.T) {
	s := newServer(t, llmtest.Options{Responder: func(*llmtest.Request) llmtest.Response {
		return llmtest.Response{Fault: llmtest.Fault{Kind: llmtest.FaultHang}}
	}})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := newModel(t, s).Generate(ctx, llm.UserText("", "hello"))
	if !errors.Is(err, context.Canceled) || llm.IsRetryable(err) {
		t.Fatalf("Generate error = %v (retryable %v); want context.Canceled, not retryable", err, llm.IsRetryable(err))
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		ep      config.Endpoint
		wantErr string
	}{
		{"missing key", config.Endpoint{Provider: "openai", KeyVar: "OPENAI_API_KEY"},
			"OPENAI_API_KEY is not set (or pass --base-url for a local server)"},
		{"missing preset key", config.Endpoint{Provider: "deepseek", KeyVar: "DEEPSEEK_API_KEY"},
			"DEEPSEEK_API_KEY is not set (or pass --base-url for a local server)"},
		{"key", config.Endpoint{Provider: "openai", Key: fakeKey}, ""},
		{"local server without key", config.Endpoint{Provider: "openai", BaseURL: "http://127.0.0.1:1"}, ""},
		{"ollama without key", config.Endpoint{Provider: "ollama", BaseURL: "127.0.0.1:11434"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := openai.New("openai/gpt-test", tt.ep, openai.Options{})
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.wantErr {
				t.Errorf("New(%+v) error = %q; want %q", tt.ep, got, tt.wantErr)
			}
		})
	}
}

func TestOllama(t *testing.T) {
	var seen *llmtest.Request
	s := newServer(t, llmtest.Options{Responder: func(r *llmtest.Request) llmtest.Response {
		seen = r
		return llmtest.Response{Text: "hi", Reasoning: "thinking"}
	}})
	m, err := openai.New("ollama/llama3.2", config.Endpoint{Provider: "ollama", BaseURL: s.URL}, openai.Options{})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	got, err := m.Generate(context.Background(), llm.UserText("", "hello"))
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if got.Text != "hi" || got.Reasoning != "thinking" || seen.Model != "llama3.2" {
		t.Errorf("Generate = %+v, server saw model %q; want hi/thinking from llama3.2", got, seen.Model)
	}
	if m.Name() != "ollama/llama3.2" {
		t.Errorf("Name = %q", m.Name())
	}
}

// checkNoKey fails if the fake key shows in any form of err or of the errors it wraps.
func checkNoKey(t *testing.T, err error) {
	t.Helper()
	for _, s := range []string{fmt.Sprint(err), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
		if strings.Contains(s, fakeKey) {
			t.Errorf("error shows the API key: %s", s)
		}
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if strings.Contains(e.Error(), fakeKey) {
			t.Errorf("wrapped error %T shows the API key: %s", e, e)
		}
	}
}

// TestDefaultEndpoint checks where a model goes without a base URL, through a transport
// that records the request instead of sending it: no test touches the network.
func TestDefaultEndpoint(t *testing.T) {
	var urls []string
	hc := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		urls = append(urls, r.URL.String())
		return nil, errors.New("offline")
	})}
	m, err := openai.New("openai/gpt-test", config.Endpoint{Provider: "openai", Key: fakeKey}, openai.Options{HTTPClient: hc})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if len(urls) != 0 {
		t.Errorf("New sent %v; want nothing", urls)
	}
	_, err = m.Generate(context.Background(), llm.UserText("", "hi"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Status != 0 || !strings.Contains(e.Message, "offline") {
		t.Errorf("Generate error = %v; want a transport *llm.Error", err)
	}
	if want := []string{"https://api.openai.com/v1/chat/completions"}; fmt.Sprint(urls) != fmt.Sprint(want) {
		t.Errorf("requests to %v; want %v", urls, want)
	}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
