// Package llm is arbiter's provider-neutral vocabulary for talking to language models.
//
// A Request (system prompt, messages, generation options) goes into a Model and a Reply
// (text, finish reason, usage, latency, the raw provider response) comes out. Every
// provider package (openai, anthropic, google) adapts one official SDK to this
// vocabulary and translates its failures once into *Error. Reliability — retries,
// timeouts, rate limits, concurrency caps — lives in wrappers in this package that work
// around any Model, so attempts are counted in exactly one place.
package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// ModelName is a model named as provider/model, e.g. "openai/gpt-4.1".
type ModelName string

// Provider is the part before the first slash.
func (n ModelName) Provider() string {
	p, _, _ := strings.Cut(string(n), "/")
	return p
}

// ID is the provider's own model id: the part after the first slash.
func (n ModelName) ID() string {
	_, id, _ := strings.Cut(string(n), "/")
	return id
}

// ParseModelName checks that s has the form provider/model.
func ParseModelName(s string) (ModelName, error) {
	p, id, ok := strings.Cut(s, "/")
	if !ok || p == "" || strings.TrimSpace(id) == "" || strings.ContainsAny(p, " \t") {
		return "", fmt.Errorf("model %q: want provider/model, e.g. openai/gpt-4.1 or baseline/keyword", s)
	}
	return ModelName(s), nil
}

// Role is who wrote a message in a conversation.
type Role string

// The roles a conversation may hold besides the system prompt.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is one turn of a conversation.
type Message struct {
	Role Role   `json:"role"`
	Text string `json:"text"`
}

// Request is one conversation to complete. Pointer options are left to the provider's
// default when nil, as the benchmark's protocol asks.
type Request struct {
	System      string    `json:"system,omitempty"`
	Messages    []Message `json:"messages"`
	Temperature *float64  `json:"temperature,omitempty"`
	TopP        *float64  `json:"top_p,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	Seed        *int64    `json:"seed,omitempty"`
	// ReasoningEffort (minimal, low, medium, high) and ThinkingBudget (tokens) ask for
	// reasoning, each sent as the provider's own parameter (see reasoning.go).
	ReasoningEffort string `json:"reasoning_effort,omitempty"`
	ThinkingBudget  int    `json:"thinking_budget,omitempty"`
	// JSONSchema, when set, asks for a reply that is a JSON object matching this schema.
	JSONSchema json.RawMessage `json:"json_schema,omitempty"`
	// SchemaName names the schema for providers that want a name.
	SchemaName string `json:"schema_name,omitempty"`

	// OnDelta, when set, asks the provider to stream and is called with each piece of
	// text as it arrives. It is not part of the request's identity.
	OnDelta func(text string) `json:"-"`
	// OnReset, when set with OnDelta, is called by WithRetry before each attempt after
	// the first: the text OnDelta gave so far belonged to an attempt that failed, and the
	// next attempt's deltas start the reply again. It is not part of the identity either.
	OnReset func() `json:"-"`
}

// Hash identifies the request's content (not OnDelta or OnReset) for caching and auditing.
func (r *Request) Hash() string {
	b, err := json.Marshal(r)
	if err != nil {
		// Marshal of this struct cannot fail: it holds only strings, numbers and raw JSON
		// that was valid when it was built.
		panic(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// UserText is a convenience for a single-turn request.
func UserText(system, user string) *Request {
	return &Request{System: system, Messages: []Message{{Role: RoleUser, Text: user}}}
}

// Finish says why a model stopped.
type Finish string

// The finish reasons arbiter distinguishes. Refusals and content filters are outcomes,
// not errors: the model answered, and the answer was no.
const (
	FinishStop          Finish = "stop"
	FinishLength        Finish = "length"
	FinishRefusal       Finish = "refusal"
	FinishContentFilter Finish = "content_filter"
	FinishOther         Finish = "other"
)

// Usage counts tokens as the provider reported them.
type Usage struct {
	InputTokens     int64 `json:"input_tokens"`
	OutputTokens    int64 `json:"output_tokens"`
	ReasoningTokens int64 `json:"reasoning_tokens,omitempty"`
	// CachedInputTokens are the input tokens the provider's prompt cache served (part
	// of InputTokens), which it charges less for.
	CachedInputTokens int64 `json:"cached_input_tokens,omitempty"`
}

// Total is input plus output tokens.
func (u Usage) Total() int64 { return u.InputTokens + u.OutputTokens }

// Reply is what a model answered.
type Reply struct {
	Text string `json:"text"`
	// Reasoning holds thinking text the provider returned separately from the answer.
	Reasoning string `json:"reasoning,omitempty"`
	// Refusal holds the provider's refusal message when Finish is FinishRefusal.
	Refusal string `json:"refusal,omitempty"`
	Finish  Finish `json:"finish"`
	Usage   Usage  `json:"usage"`
	// Model is the model id the provider says answered.
	Model   string        `json:"model,omitempty"`
	Latency time.Duration `json:"latency_ns"`
	// Attempts is how many calls it took, set by the retry wrapper (1 without it).
	Attempts int `json:"attempts"`
	// Raw is the provider's response body as received (the last chunk's envelope and the
	// joined text for streams).
	Raw json.RawMessage `json:"raw,omitempty"`
}

// Model is anything that completes a Request: a provider client, a wrapper around one,
// or a built-in baseline. Implementations are safe for concurrent use.
type Model interface {
	Name() ModelName
	Generate(ctx context.Context, req *Request) (*Reply, error)
}

// Func adapts a function to a Model; baselines and tests use it.
type Func struct {
	ModelName ModelName
	Fn        func(ctx context.Context, req *Request) (*Reply, error)
}

// Name implements Model.
func (f Func) Name() ModelName { return f.ModelName }

// Generate implements Model.
func (f Func) Generate(ctx context.Context, req *Request) (*Reply, error) { return f.Fn(ctx, req) }
