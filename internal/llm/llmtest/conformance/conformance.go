// Package conformance owns the behaviour every provider adapter must show against the
// llmtest stand-in, whatever protocol it speaks: a whole reply and its streamed deltas,
// the common request options on the wire, finish reasons, every fault translated once
// into *llm.Error with the right status, retryability and wait, exactly one request per
// call, deadlines and cancellation, constructor errors, the default endpoint, and no API
// key in any error.
//
// An adapter's tests call Run with a Provider that says how to build the adapter and, as
// data, where its protocol legitimately differs (a blocked prompt is a refusal for
// Anthropic and a content filter for the others; only OpenAI carries Retry-After in
// milliseconds). What is truly the adapter's own — field names on the wire, SDK quirks —
// stays in its package's tests, which may use Server, Provider.Model and Provider.Sent.
//
// Every check runs as a subtest of one level, named like "Fault/429 Retry-After/stream=true",
// so that -run selects any of them and a failure names the case.
package conformance

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// Provider is what the suite needs to know about one adapter.
type Provider struct {
	// Name is the model the suite asks for, provider/model ("openai/gpt-test"): the
	// provider part is the endpoint's Provider, the model part what the wire must carry.
	Name llm.ModelName
	// New builds the adapter for an endpoint; hc is nil for the adapter's own client.
	New func(name llm.ModelName, ep config.Endpoint, hc *http.Client) (llm.Model, error)
	// BaseURL is where the stand-in serves the protocol, as the adapter's SDK wants it.
	BaseURL func(s *llmtest.Server) string
	// DefaultURL is the one URL a request goes to when the endpoint names no base URL.
	DefaultURL string
	// Key is a recognisable fake key, so that the suite can prove no error shows it.
	Key config.Secret
	// KeyVar is the environment variable the key comes from, named when it is missing.
	KeyVar string
	// Endpoints are constructor cases beyond the suite's own (missing key, key, local
	// server without key): presets, other key variables, keyless local providers.
	Endpoints []Endpoint

	// Unset names the body fields that must be absent when a request leaves every
	// generation option to the provider ("temperature", "topP", "stream").
	Unset []string
	// Seed says whether the protocol carries a seed; when it does not, none may be sent.
	Seed bool
	// Raw, when set, checks the Reply's Raw further than "valid JSON holding the text":
	// the adapter's own idea of what the raw response is.
	Raw func(t *testing.T, raw json.RawMessage, text string)

	// Refused is what a model's refusal ("I can't help with that.") becomes.
	Refused Outcome
	// Blocked is what a prompt the provider blocked becomes.
	Blocked Outcome
	// Finishes are the protocol's own finish reasons beyond stop and length.
	Finishes []Finish

	// FractionalRetryAfter is the RetryAfter of a 429 that asks for 1.5s: 1.5s where the
	// protocol carries milliseconds (OpenAI's retry-after-ms), 2s where only Retry-After's
	// whole seconds arrive.
	FractionalRetryAfter time.Duration
}

// Endpoint is one constructor case: New(Provider.Name, Endpoint) fails with WantErr, or
// succeeds when WantErr is "".
type Endpoint struct {
	Name     string
	Endpoint config.Endpoint
	WantErr  string
}

// Outcome is the part of a Reply that says how the model answered.
type Outcome struct {
	Finish  llm.Finish
	Text    string
	Refusal string
}

// Finish is one of the protocol's own finish reasons, sent verbatim with Text, and what the
// adapter must make of it.
type Finish struct {
	Wire string
	Text string
	Want Outcome
}

// Server starts a stand-in that answers with r (llmtest.Echo when nil) and closes it
// when the test ends.
func Server(t testing.TB, r llmtest.Responder) *llmtest.Server {
	t.Helper()
	s := llmtest.NewServer(llmtest.Options{Responder: r})
	t.Cleanup(s.Close)
	return s
}

// Model builds the adapter against s with the fake key.
func (p Provider) Model(t testing.TB, s *llmtest.Server) llm.Model {
	t.Helper()
	m, err := p.New(p.Name, config.Endpoint{
		Provider: p.Name.Provider(), BaseURL: p.BaseURL(s), Key: p.Key, KeyVar: p.KeyVar,
	}, nil)
	if err != nil {
		t.Fatalf("New(%s): %v", p.Name, err)
	}
	return m
}

// Sent sends req to an echoing stand-in and returns the reply and the request as the
// server understood it.
func (p Provider) Sent(t *testing.T, req *llm.Request) (*llm.Reply, *llmtest.Request) {
	t.Helper()
	var seen *llmtest.Request
	s := Server(t, func(r *llmtest.Request) llmtest.Response {
		seen = r
		return llmtest.Echo(r)
	})
	reply, err := p.Model(t, s).Generate(context.Background(), req)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return reply, seen
}

// Run checks that the adapter p describes behaves as every adapter must.
func Run(t *testing.T, p Provider) {
	// Redact leaves keys shorter than 8 bytes alone, and an empty one would make every
	// "no key in the error" check pass whatever the adapter does.
	if p.New == nil || p.BaseURL == nil || p.DefaultURL == "" || p.KeyVar == "" || len(p.Key.Reveal()) < 8 {
		t.Fatalf("conformance: Provider %q needs New, BaseURL, DefaultURL, KeyVar and a Key of 8 bytes or more", p.Name)
	}
	p.generate(t)
	p.request(t)
	p.outcomes(t)
	p.faults(t)
	p.endless(t)
	p.streamReset(t)
	p.keyEcho(t)
	p.queryKey(t)
	p.deadlines(t)
	p.constructor(t)
	p.defaultEndpoint(t)
}

var streams = []bool{false, true}

// request is a single-turn request, streaming when stream is set; deltas collects what
// OnDelta saw.
func request(stream bool, deltas *[]string) *llm.Request {
	req := llm.UserText("You are terse.", "Is the claim supported?")
	if stream {
		req.OnDelta = func(s string) { *deltas = append(*deltas, s) }
	}
	return req
}

func (p Provider) generate(t *testing.T) {
	const text = "The claim is supported by the second clause of the contract."
	s := Server(t, func(*llmtest.Request) llmtest.Response {
		return llmtest.Response{
			Text: text, Reasoning: "Look at clause two first.",
			InputTokens: 31, OutputTokens: 17, ReasoningTokens: 5, Model: "stand-in-2026-01-01",
		}
	})
	m := p.Model(t, s)
	t.Run("Name", func(t *testing.T) {
		if got := m.Name(); got != p.Name {
			t.Errorf("Name = %q; want %q", got, p.Name)
		}
	})
	for _, stream := range streams {
		t.Run(fmt.Sprintf("Generate/stream=%v", stream), func(t *testing.T) {
			var deltas []string
			got, err := m.Generate(context.Background(), request(stream, &deltas))
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			want := llm.Reply{
				Text: text, Reasoning: "Look at clause two first.",
				Finish: llm.FinishStop, Usage: llm.Usage{InputTokens: 31, OutputTokens: 17, ReasoningTokens: 5},
				Model: "stand-in-2026-01-01", Attempts: 1,
			}
			if got.Text != want.Text || got.Reasoning != want.Reasoning || got.Finish != want.Finish ||
				got.Usage != want.Usage || got.Model != want.Model || got.Attempts != want.Attempts {
				t.Errorf("Generate = %+v; want %+v", got, want)
			}
			if got.Latency <= 0 {
				t.Errorf("Latency = %v; want > 0", got.Latency)
			}
			if !json.Valid(got.Raw) || !strings.Contains(string(got.Raw), "second clause") {
				t.Errorf("Raw = %s; want the response JSON with its text", got.Raw)
			}
			if p.Raw != nil {
				p.Raw(t, got.Raw, want.Text)
			}
			if !stream {
				if len(deltas) != 0 {
					t.Errorf("OnDelta called without streaming")
				}
				return
			}
			if len(deltas) < 2 {
				t.Errorf("OnDelta called %d times; want several pieces", len(deltas))
			}
			if j := strings.Join(deltas, ""); j != got.Text {
				t.Errorf("deltas joined = %q; want the text %q", j, got.Text)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// request checks the mapping every protocol shares: system prompt, turns, model, the
// options when set and left out when not, the schema, and the key.
func (p Provider) request(t *testing.T) {
	t.Run("Request/defaults left to the provider", func(t *testing.T) {
		_, r := p.Sent(t, llm.UserText("sys", "hello"))
		for _, field := range p.Unset {
			if strings.Contains(string(r.Body), `"`+field+`"`) {
				t.Errorf("body %s sends %s; want it left out", r.Body, field)
			}
		}
		if r.System != "sys" || len(r.Messages) != 1 || r.Messages[0] != (llm.Message{Role: llm.RoleUser, Text: "hello"}) {
			t.Errorf("server saw system %q, messages %+v", r.System, r.Messages)
		}
		if r.Model != p.Name.ID() {
			t.Errorf("model = %q; want %q", r.Model, p.Name.ID())
		}
		if !sendsKey(r.Header, p.Key.Reveal()) {
			t.Errorf("no header carries the configured key")
		}
	})
	schema := json.RawMessage(`{"type":"object","properties":{"verdict":{"type":"string"}},"required":["verdict"],"additionalProperties":false}`)
	t.Run("Request/options when set", func(t *testing.T) {
		got, r := p.Sent(t, &llm.Request{
			Messages: []llm.Message{
				{Role: llm.RoleUser, Text: "q1"}, {Role: llm.RoleAssistant, Text: "a1"}, {Role: llm.RoleUser, Text: "q2"},
			},
			// 0.5 survives the float32 some protocols carry top_p in.
			Temperature: ptr(0.0), TopP: ptr(0.5), MaxTokens: 64, Seed: ptr(int64(7)),
			JSONSchema: schema, SchemaName: "verdict",
		})
		if got.Text == "" {
			t.Errorf("Generate returned no text")
		}
		if r.Temperature == nil || *r.Temperature != 0 || r.TopP == nil || *r.TopP != 0.5 || r.MaxTokens != 64 {
			t.Errorf("server saw temperature %v top_p %v max %d; want 0, 0.5, 64", r.Temperature, r.TopP, r.MaxTokens)
		}
		switch {
		case p.Seed && (r.Seed == nil || *r.Seed != 7):
			t.Errorf("server saw seed %v; want 7", r.Seed)
		case !p.Seed && (r.Seed != nil || strings.Contains(string(r.Body), `"seed"`)):
			t.Errorf("body %s sends a seed, which the protocol does not take", r.Body)
		}
		if r.System != "" || len(r.Messages) != 3 || r.Messages[1].Role != llm.RoleAssistant {
			t.Errorf("server saw system %q, messages %+v", r.System, r.Messages)
		}
		var gotSchema, wantSchema any
		json.Unmarshal(r.JSONSchema, &gotSchema)
		json.Unmarshal(schema, &wantSchema)
		if fmt.Sprint(gotSchema) != fmt.Sprint(wantSchema) {
			t.Errorf("schema = %s; want %s", r.JSONSchema, schema)
		}
	})
}

// sendsKey says whether some header value carries key.
func sendsKey(h http.Header, key string) bool {
	for _, vs := range h {
		if slices.ContainsFunc(vs, func(v string) bool { return strings.Contains(v, key) }) {
			return true
		}
	}
	return false
}

func (p Provider) outcomes(t *testing.T) {
	type outcomeCase struct {
		name string
		resp llmtest.Response
		want Outcome
	}
	tests := []outcomeCase{
		{"stop", llmtest.Response{Text: "yes"}, Outcome{llm.FinishStop, "yes", ""}},
		{"length", llmtest.Response{Text: "cut off", Finish: llm.FinishLength}, Outcome{llm.FinishLength, "cut off", ""}},
		{"refusal", llmtest.Response{Refusal: "I can't help with that."}, p.Refused},
		{"blocked prompt", llmtest.Response{Blocked: true}, p.Blocked},
	}
	for _, f := range p.Finishes {
		tests = append(tests, outcomeCase{"wire " + f.Wire, llmtest.Response{Text: f.Text, WireFinish: f.Wire}, f.Want})
	}
	for _, tt := range tests {
		for _, stream := range streams {
			t.Run(fmt.Sprintf("Outcome/%s/stream=%v", tt.name, stream), func(t *testing.T) {
				s := Server(t, func(*llmtest.Request) llmtest.Response { return tt.resp })
				var deltas []string
				got, err := p.Model(t, s).Generate(context.Background(), request(stream, &deltas))
				if err != nil {
					t.Fatalf("Generate: %v; want a reply", err)
				}
				if g := (Outcome{got.Finish, got.Text, got.Refusal}); g != tt.want {
					t.Errorf("Generate = finish %q text %q refusal %q; want %q %q %q",
						g.Finish, g.Text, g.Refusal, tt.want.Finish, tt.want.Text, tt.want.Refusal)
				}
			})
		}
	}
}

func (p Provider) faults(t *testing.T) {
	tests := []struct {
		name           string
		fault          llmtest.Fault
		wantStatus     int
		wantRetryable  bool
		wantRetryAfter time.Duration
	}{
		{"429 Retry-After", llmtest.Fault{Kind: llmtest.FaultRateLimit, RetryAfter: 2 * time.Second}, 429, true, 2 * time.Second},
		{"429 fractional Retry-After", llmtest.Fault{Kind: llmtest.FaultRateLimit, RetryAfter: 1500 * time.Millisecond}, 429, true, p.FractionalRetryAfter},
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
		for _, stream := range streams {
			t.Run(fmt.Sprintf("Fault/%s/stream=%v", tt.name, stream), func(t *testing.T) {
				s := Server(t, func(*llmtest.Request) llmtest.Response {
					return llmtest.Response{Text: "never seen in full by the client", Fault: tt.fault}
				})
				var deltas []string
				_, err := p.Model(t, s).Generate(context.Background(), request(stream, &deltas))
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
				if auth := tt.wantStatus == http.StatusUnauthorized; llm.IsAuth(err) != auth {
					t.Errorf("llm.IsAuth = %v; want %v", llm.IsAuth(err), auth)
				}
				p.checkNoKey(t, err)
			})
		}
	}
}

// endless checks that a body that never ends fails the request once, without a retry,
// and that the adapter stops reading at llm.MaxReplyBytes.
func (p Provider) endless(t *testing.T) {
	for _, stream := range streams {
		t.Run(fmt.Sprintf("Endless body/stream=%v", stream), func(t *testing.T) {
			s := Server(t, func(*llmtest.Request) llmtest.Response {
				return llmtest.Response{Fault: llmtest.Fault{Kind: llmtest.FaultEndless}}
			})
			var read atomic.Int64
			hc := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
				resp, err := http.DefaultTransport.RoundTrip(r)
				if resp != nil {
					resp.Body = countingBody{resp.Body, &read}
				}
				return resp, err
			})}
			m, err := p.New(p.Name, config.Endpoint{Provider: p.Name.Provider(), BaseURL: p.BaseURL(s), Key: p.Key, KeyVar: p.KeyVar}, hc)
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			retried := llm.WithRetry(m, llm.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}, nil, nil)
			var deltas []string
			_, err = retried.Generate(context.Background(), request(stream, &deltas))
			var e *llm.Error
			if !errors.As(err, &e) || !errors.Is(err, llm.ErrReplyTooLarge) {
				t.Fatalf("Generate error = %v (%T); want *llm.Error wrapping llm.ErrReplyTooLarge", err, err)
			}
			if e.Retryable || e.Code != "reply_too_large" {
				t.Errorf("Retryable %v, Code %q; want false, reply_too_large (%v)", e.Retryable, e.Code, e)
			}
			if n := s.Requests(); n != 1 {
				t.Errorf("server saw %d requests; want 1 (an endless body is not retried)", n)
			}
			if n := read.Load(); n < llm.MaxReplyBytes || n > llm.MaxReplyBytes+1 {
				t.Errorf("adapter read %d bytes of the body; want it to stop at %d", n, llm.MaxReplyBytes)
			}
			p.checkNoKey(t, err)
		})
	}
}

// streamReset checks, through llm.WithRetry, that a stream cut half-way and then
// retried tells its consumer to start again: what OnDelta gave after the last OnReset is
// the reply, not the cut attempt's half followed by the whole.
func (p Provider) streamReset(t *testing.T) {
	t.Run("Stream reset before a retry", func(t *testing.T) {
		const text = "The claim is supported by the second clause of the contract."
		s := Server(t, func(r *llmtest.Request) llmtest.Response {
			resp := llmtest.Response{Text: text}
			if r.Attempt == 1 {
				resp.Fault = llmtest.Fault{Kind: llmtest.FaultTruncate}
			}
			return resp
		})
		m := llm.WithRetry(p.Model(t, s), llm.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}, nil, nil)
		var shown strings.Builder
		var before string
		resets := 0
		req := llm.UserText("You are terse.", "Is the claim supported?")
		req.OnDelta = func(d string) { shown.WriteString(d) }
		req.OnReset = func() {
			resets++
			before = shown.String()
			shown.Reset()
		}
		got, err := m.Generate(context.Background(), req)
		if err != nil {
			t.Fatalf("Generate: %v", err)
		}
		if got.Attempts != 2 || resets != 1 {
			t.Fatalf("Attempts %d, OnReset called %d times; want 2 and 1", got.Attempts, resets)
		}
		if before == "" {
			t.Errorf("the cut attempt gave OnDelta nothing, so the test proves nothing")
		}
		if shown.String() != text || got.Text != text {
			t.Errorf("after the reset OnDelta gave %q, reply %q; want %q", shown.String(), got.Text, text)
		}
	})
}

// keyEcho checks that a reply repeating the API key back, in its text, its reasoning or
// its refusal, comes out with the key replaced by [REDACTED] everywhere: the fields, Raw
// (still valid JSON) and every streamed delta.
func (p Provider) keyEcho(t *testing.T) {
	key := p.Key.Reveal()
	tests := []struct {
		name string
		resp llmtest.Response
	}{
		{"text and reasoning", llmtest.Response{Text: "Your key is " + key + ", and again " + key + ".", Reasoning: "They sent " + key}},
		{"refusal", llmtest.Response{Refusal: "I will not use " + key + "."}},
	}
	for _, tt := range tests {
		for _, stream := range streams {
			t.Run(fmt.Sprintf("Key echoed back/%s/stream=%v", tt.name, stream), func(t *testing.T) {
				s := Server(t, func(*llmtest.Request) llmtest.Response { return tt.resp })
				var deltas []string
				got, err := p.Model(t, s).Generate(context.Background(), request(stream, &deltas))
				if err != nil {
					t.Fatalf("Generate: %v", err)
				}
				for field, v := range map[string]string{
					"Text": got.Text, "Reasoning": got.Reasoning, "Refusal": got.Refusal, "Raw": string(got.Raw),
					"deltas": strings.Join(deltas, ""),
				} {
					if strings.Contains(v, key) {
						t.Errorf("%s shows the key: %s", field, v)
					}
				}
				if !json.Valid(got.Raw) {
					t.Errorf("Raw = %s; not valid JSON", got.Raw)
				}
				// What becomes of a refusal's text is the protocol's own (see Refused).
				if got.Finish == llm.FinishRefusal || got.Finish == llm.FinishContentFilter {
					return
				}
				if !strings.Contains(got.Text, llm.Redacted) || !strings.Contains(got.Reasoning, llm.Redacted) {
					t.Errorf("text %q, reasoning %q; want the key shown as %s", got.Text, got.Reasoning, llm.Redacted)
				}
				if stream && strings.Join(deltas, "") != got.Text {
					t.Errorf("deltas joined = %q; want the text %q", strings.Join(deltas, ""), got.Text)
				}
			})
		}
	}
}

// queryKey checks that a key in the base URL's query (an Azure-style ?api-key=) reaches
// the server with every request, and that no error shows it.
func (p Provider) queryKey(t *testing.T) {
	const queryKey = "azure-QUERY-KEY-0123456789"
	for _, fault := range []llmtest.FaultKind{llmtest.FaultNone, llmtest.FaultUnauthorized, llmtest.FaultReset, llmtest.FaultMalformed} {
		t.Run(fmt.Sprintf("Key in the base URL query/%s", cmp.Or(string(fault), "ok")), func(t *testing.T) {
			// A reset answers the client before the handler returns: guard what it saw.
			var mu sync.Mutex
			var seen url.Values
			s := Server(t, func(r *llmtest.Request) llmtest.Response {
				mu.Lock()
				seen = r.Query
				mu.Unlock()
				return llmtest.Response{Text: "fine", Fault: llmtest.Fault{Kind: fault}}
			})
			m, err := p.New(p.Name, config.Endpoint{
				Provider: p.Name.Provider(), BaseURL: p.BaseURL(s) + "?api-key=" + queryKey, Key: p.Key, KeyVar: p.KeyVar,
			}, nil)
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			_, err = m.Generate(context.Background(), llm.UserText("", "hi"))
			mu.Lock()
			got := seen.Get("api-key")
			mu.Unlock()
			if got != queryKey {
				t.Errorf("server saw api-key %q; want %q (query %v)", got, queryKey, seen)
			}
			if (err == nil) != (fault == llmtest.FaultNone) {
				t.Fatalf("Generate error = %v with fault %q", err, fault)
			}
			for _, shown := range []string{fmt.Sprint(err), fmt.Sprintf("%+v", err)} {
				if err != nil && strings.Contains(shown, queryKey) {
					t.Errorf("error shows the query key: %s", shown)
				}
			}
		})
	}
}

// countingBody adds what is read through it to n.
type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b countingBody) Read(p []byte) (int, error) {
	k, err := b.ReadCloser.Read(p)
	b.n.Add(int64(k))
	return k, err
}

// deadlines checks that a hung server gives up at the caller's deadline with a retryable
// error, and that a caller's cancellation is not worth another attempt.
func (p Provider) deadlines(t *testing.T) {
	hang := func(*llmtest.Request) llmtest.Response {
		return llmtest.Response{Fault: llmtest.Fault{Kind: llmtest.FaultHang}}
	}
	for _, stream := range streams {
		t.Run(fmt.Sprintf("Hang until deadline/stream=%v", stream), func(t *testing.T) {
			s := Server(t, hang)
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			var deltas []string
			_, err := p.Model(t, s).Generate(ctx, request(stream, &deltas))
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
	for _, stream := range streams {
		t.Run(fmt.Sprintf("Cancelled is not retryable/stream=%v", stream), func(t *testing.T) {
			s := Server(t, hang)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			time.AfterFunc(50*time.Millisecond, cancel)
			var deltas []string
			_, err := p.Model(t, s).Generate(ctx, request(stream, &deltas))
			if !errors.Is(err, context.Canceled) || llm.IsRetryable(err) {
				t.Fatalf("Generate error = %v (retryable %v); want context.Canceled, not retryable", err, llm.IsRetryable(err))
			}
		})
	}
}

func (p Provider) constructor(t *testing.T) {
	provider := p.Name.Provider()
	tests := append([]Endpoint{
		{"missing key", config.Endpoint{Provider: provider, KeyVar: p.KeyVar},
			p.KeyVar + " is not set (or pass --base-url for a local server)"},
		{"key", config.Endpoint{Provider: provider, Key: p.Key}, ""},
		{"local server without key", config.Endpoint{Provider: provider, BaseURL: "http://127.0.0.1:1"}, ""},
	}, p.Endpoints...)
	for _, tt := range tests {
		t.Run("New/"+tt.Name, func(t *testing.T) {
			_, err := p.New(p.Name, tt.Endpoint, nil)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.WantErr {
				t.Errorf("New(%+v) error = %q; want %q", tt.Endpoint, got, tt.WantErr)
			}
		})
	}
}

// defaultEndpoint checks where a model goes without a base URL, through a transport that
// records the request instead of sending it: no test touches the network.
func (p Provider) defaultEndpoint(t *testing.T) {
	t.Run("Default endpoint", func(t *testing.T) {
		var urls []string
		hc := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
			urls = append(urls, r.URL.String())
			return nil, errors.New("offline")
		})}
		m, err := p.New(p.Name, config.Endpoint{Provider: p.Name.Provider(), Key: p.Key}, hc)
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
		if want := []string{p.DefaultURL}; fmt.Sprint(urls) != fmt.Sprint(want) {
			t.Errorf("requests to %v; want %v", urls, want)
		}
		p.checkNoKey(t, err)
	})
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// checkNoKey fails if the fake key shows in any form of err or of the errors it wraps.
func (p Provider) checkNoKey(t *testing.T, err error) {
	t.Helper()
	key := p.Key.Reveal()
	for _, s := range []string{fmt.Sprint(err), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
		if strings.Contains(s, key) {
			t.Errorf("error shows the API key: %s", s)
		}
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if strings.Contains(e.Error(), key) {
			t.Errorf("wrapped error %T shows the API key: %s", e, e)
		}
	}
}
