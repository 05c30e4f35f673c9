package google_test

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
	"github.com/arbiter-eval/arbiter/internal/llm/google"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

var _ llm.Model = (*google.Model)(nil)

// fakeKey is recognisable so that a test can prove it never reaches an error message.
const fakeKey = "AIza-llmtest-FAKE-KEY-93be17"

func newServer(t *testing.T, o llmtest.Options) *llmtest.Server {
	t.Helper()
	s := llmtest.NewServer(o)
	t.Cleanup(s.Close)
	return s
}

func newModel(t *testing.T, s *llmtest.Server) *google.Model {
	t.Helper()
	m, err := google.New("google/gemini-test", config.Endpoint{
		Provider: "google", BaseURL: s.URL, Key: fakeKey, KeyVar: "GEMINI_API_KEY",
	}, google.Options{})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return m
}

func ptr[T any](v T) *T { return &v }

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
			InputTokens: 31, OutputTokens: 17, ReasoningTokens: 5, Model: "gemini-test-001",
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
				Model: "gemini-test-001", Attempts: 1,
			}
			if got.Text != want.Text || got.Reasoning != want.Reasoning || got.Finish != want.Finish ||
				got.Usage != want.Usage || got.Model != want.Model || got.Attempts != want.Attempts {
				t.Errorf("Generate = %+v; want %+v", got, want)
			}
			if got.Latency <= 0 {
				t.Errorf("Latency = %v; want > 0", got.Latency)
			}
			if !json.Valid(got.Raw) || !strings.Contains(string(got.Raw), "second clause") {
				t.Errorf("Raw = %s; want the response JSON", got.Raw)
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
				for _, field := range []string{"temperature", "topP", "seed", "maxOutputTokens", "responseMimeType", "responseJsonSchema"} {
					if strings.Contains(string(r.Body), `"`+field+`"`) {
						t.Errorf("body %s sends %s; want it left out", r.Body, field)
					}
				}
				if r.System != "sys" || len(r.Messages) != 1 || r.Messages[0] != (llm.Message{Role: llm.RoleUser, Text: "hello"}) {
					t.Errorf("server saw system %q, messages %+v", r.System, r.Messages)
				}
				if r.Model != "gemini-test" {
					t.Errorf("model = %q; want gemini-test", r.Model)
				}
				if r.Header.Get("x-goog-api-key") != fakeKey {
					t.Errorf("x-goog-api-key header is not the configured key")
				}
			},
		},
		{
			name: "options when set",
			req: &llm.Request{
				Messages: []llm.Message{
					{Role: llm.RoleUser, Text: "q1"}, {Role: llm.RoleAssistant, Text: "a1"}, {Role: llm.RoleUser, Text: "q2"},
				},
				Temperature: ptr(0.0), TopP: ptr(0.5), MaxTokens: 64, Seed: ptr(int64(7)), JSONSchema: schema,
			},
			check: func(t *testing.T, r *llmtest.Request) {
				if r.Temperature == nil || *r.Temperature != 0 || r.TopP == nil || *r.TopP != 0.5 ||
					r.Seed == nil || *r.Seed != 7 || r.MaxTokens != 64 {
					t.Errorf("server saw temperature %v topP %v seed %v max %d", r.Temperature, r.TopP, r.Seed, r.MaxTokens)
				}
				if len(r.Messages) != 3 || r.Messages[1].Role != llm.RoleAssistant {
					t.Errorf("server saw messages %+v", r.Messages)
				}
				if !strings.Contains(string(r.Body), `"responseMimeType":"application/json"`) {
					t.Errorf("body %s; want responseMimeType application/json", r.Body)
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

func TestOutcomes(t *testing.T) {
	tests := []struct {
		name        string
		resp        llmtest.Response
		wantFinish  llm.Finish
		wantText    string
		wantRefusal string
	}{
		{"stop", llmtest.Response{Text: "yes"}, llm.FinishStop, "yes", ""},
		{"max tokens", llmtest.Response{Text: "cut off", Finish: llm.FinishLength}, llm.FinishLength, "cut off", ""},
		{"safety", llmtest.Response{Refusal: "no"}, llm.FinishContentFilter, "", "answer blocked: SAFETY"},
		{"prohibited content", llmtest.Response{Text: "partial", WireFinish: "PROHIBITED_CONTENT"}, llm.FinishContentFilter, "partial", "answer blocked: PROHIBITED_CONTENT"},
		{"blocklist", llmtest.Response{WireFinish: "BLOCKLIST"}, llm.FinishContentFilter, "", "answer blocked: BLOCKLIST"},
		{"prompt blocked", llmtest.Response{Blocked: true}, llm.FinishContentFilter, "", "prompt blocked: SAFETY"},
		{"other", llmtest.Response{Text: "x", WireFinish: "OTHER"}, llm.FinishOther, "x", ""},
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
			if n := s.Requests(); n != 1 {
				t.Errorf("server saw %d requests; want 1", n)
			}
		})
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		ep      config.Endpoint
		wantErr string
	}{
		{"missing key", config.Endpoint{Provider: "google", KeyVar: "GEMINI_API_KEY"},
			"GEMINI_API_KEY is not set (or pass --base-url for a local server)"},
		{"missing key named by GOOGLE_API_KEY", config.Endpoint{Provider: "google", KeyVar: "GOOGLE_API_KEY"},
			"GOOGLE_API_KEY is not set (or pass --base-url for a local server)"},
		{"key", config.Endpoint{Provider: "google", Key: fakeKey}, ""},
		{"local server without key", config.Endpoint{Provider: "google", BaseURL: "http://127.0.0.1:1"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := google.New("google/gemini-test", tt.ep, google.Options{})
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.wantErr {
				t.Errorf("New error = %q; want %q", got, tt.wantErr)
			}
		})
	}
}

// TestNewIgnoresEnvironment checks that genai takes neither a key nor a base URL from the
// environment: config is the one reader of it.
func TestNewIgnoresEnvironment(t *testing.T) {
	t.Setenv("GEMINI_API_KEY", "env-key-must-not-be-used")
	t.Setenv("GOOGLE_API_KEY", "env-key-must-not-be-used")
	t.Setenv("GOOGLE_GEMINI_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("GOOGLE_GENAI_USE_VERTEXAI", "true")
	if _, err := google.New("google/gemini-test", config.Endpoint{Provider: "google", KeyVar: "GEMINI_API_KEY"}, google.Options{}); err == nil {
		t.Errorf("New without a configured key succeeded; want the key from config only")
	}
	var seen *llmtest.Request
	s := newServer(t, llmtest.Options{Responder: func(r *llmtest.Request) llmtest.Response {
		seen = r
		return llmtest.Echo(r)
	}})
	m := newModel(t, s)
	if n := s.Requests(); n != 0 {
		t.Errorf("New made %d requests; want none", n)
	}
	if _, err := m.Generate(context.Background(), llm.UserText("", "hi")); err != nil {
		t.Fatalf("Generate: %v (the environment's base URL or backend was used?)", err)
	}
	if seen.Header.Get("x-goog-api-key") != fakeKey {
		t.Errorf("the key sent is not the configured one")
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
	m, err := google.New("google/gemini-test", config.Endpoint{Provider: "google", Key: fakeKey}, google.Options{HTTPClient: hc})
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
	if want := []string{"https://generativelanguage.googleapis.com/v1beta/models/gemini-test:generateContent"}; fmt.Sprint(urls) != fmt.Sprint(want) {
		t.Errorf("requests to %v; want %v", urls, want)
	}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
