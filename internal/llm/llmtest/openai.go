package llmtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// openaiCodec speaks OpenAI Chat Completions: CreateChatCompletionRequest in, and out
// the chat.completion object, chat.completion.chunk events ending in [DONE], or the
// ErrorResponse object, as the OpenAPI spec describes them.
type openaiCodec struct{}

func (openaiCodec) protocol() Protocol     { return OpenAI }
func (openaiCodec) sse(*http.Request) bool { return true }

type oaRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string      `json:"role"`
		Content textContent `json:"content"`
	} `json:"messages"`
	Temperature         *float64 `json:"temperature"`
	TopP                *float64 `json:"top_p"`
	Seed                *int64   `json:"seed"`
	MaxCompletionTokens *int64   `json:"max_completion_tokens"`
	MaxTokens           *int64   `json:"max_tokens"`
	Stream              bool     `json:"stream"`
	ReasoningEffort     *string  `json:"reasoning_effort"`
	StreamOptions       *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

func (openaiCodec) decode(_ *http.Request, body []byte, req *Request) error {
	var in oaRequest
	if err := json.Unmarshal(body, &in); err != nil {
		//lint:ignore ST1005 the stand-in repeats the provider's own wording
		return fmt.Errorf("We could not parse the JSON body of your request: %v", err)
	}
	if in.Model == "" {
		return errors.New("you must provide a model parameter")
	}
	if len(in.Messages) == 0 {
		return errors.New("'messages' must contain at least one message")
	}
	req.Model = in.Model
	var system []string
	for _, m := range in.Messages {
		switch m.Role {
		case "system", "developer":
			system = append(system, string(m.Content))
		case "user":
			req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Text: string(m.Content)})
		case "assistant":
			req.Messages = append(req.Messages, llm.Message{Role: llm.RoleAssistant, Text: string(m.Content)})
		default:
			return fmt.Errorf("invalid role %q in messages", m.Role)
		}
	}
	req.System = joinNonEmpty(system)
	req.Temperature, req.TopP, req.Seed = in.Temperature, in.TopP, in.Seed
	if in.MaxCompletionTokens != nil {
		req.MaxTokens = *in.MaxCompletionTokens
	} else if in.MaxTokens != nil {
		req.MaxTokens = *in.MaxTokens
	}
	if err := oaReasoning(in.ReasoningEffort, req); err != nil {
		return err
	}
	req.Stream = in.Stream
	req.IncludeUsage = in.StreamOptions != nil && in.StreamOptions.IncludeUsage
	if f := in.ResponseFormat; f != nil && f.Type == "json_schema" && f.JSONSchema != nil {
		req.JSONSchema = f.JSONSchema.Schema
	}
	return nil
}

type oaCompletion struct {
	ID                string     `json:"id"`
	Object            string     `json:"object"`
	Created           int64      `json:"created"`
	Model             string     `json:"model"`
	SystemFingerprint string     `json:"system_fingerprint"`
	ServiceTier       string     `json:"service_tier"`
	Choices           []oaChoice `json:"choices"`
	Usage             *oaUsage   `json:"usage"`
}

type oaChoice struct {
	Index        int       `json:"index"`
	Message      oaMessage `json:"message"`
	Logprobs     *struct{} `json:"logprobs"`
	FinishReason string    `json:"finish_reason"`
}

type oaMessage struct {
	Role             string     `json:"role"`
	Content          *string    `json:"content"`
	Refusal          *string    `json:"refusal"`
	ReasoningContent string     `json:"reasoning_content,omitempty"`
	Annotations      []struct{} `json:"annotations"`
}

type oaUsage struct {
	PromptTokens        int64 `json:"prompt_tokens"`
	CompletionTokens    int64 `json:"completion_tokens"`
	TotalTokens         int64 `json:"total_tokens"`
	PromptTokensDetails struct {
		CachedTokens int64 `json:"cached_tokens"`
		AudioTokens  int64 `json:"audio_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails struct {
		ReasoningTokens          int64 `json:"reasoning_tokens"`
		AudioTokens              int64 `json:"audio_tokens"`
		AcceptedPredictionTokens int64 `json:"accepted_prediction_tokens"`
		RejectedPredictionTokens int64 `json:"rejected_prediction_tokens"`
	} `json:"completion_tokens_details"`
}

type oaChunk struct {
	ID                string          `json:"id"`
	Object            string          `json:"object"`
	Created           int64           `json:"created"`
	Model             string          `json:"model"`
	SystemFingerprint string          `json:"system_fingerprint"`
	ServiceTier       string          `json:"service_tier"`
	Choices           []oaChunkChoice `json:"choices"`
	// Usage is null on every chunk but the last when usage was asked for, and absent
	// when it was not.
	Usage json.RawMessage `json:"usage,omitempty"`
}

type oaChunkChoice struct {
	Index        int       `json:"index"`
	Delta        oaDelta   `json:"delta"`
	Logprobs     *struct{} `json:"logprobs"`
	FinishReason *string   `json:"finish_reason"`
}

type oaDelta struct {
	Role             string  `json:"role,omitempty"`
	Content          *string `json:"content,omitempty"`
	Refusal          *string `json:"refusal,omitempty"`
	ReasoningContent *string `json:"reasoning_content,omitempty"`
}

func (openaiCodec) finish(o *outcome) string {
	if o.wireFinish != "" {
		return o.wireFinish
	}
	switch o.finish {
	case llm.FinishLength:
		return "length"
	case llm.FinishContentFilter:
		return "content_filter"
	case llm.FinishOther:
		return "tool_calls"
	}
	return "stop" // a refusal stops normally; message.refusal says it was one
}

func (openaiCodec) usage(o *outcome) *oaUsage {
	u := &oaUsage{PromptTokens: o.in, CompletionTokens: o.out, TotalTokens: o.in + o.out}
	u.CompletionTokensDetails.ReasoningTokens = o.thinking
	u.PromptTokensDetails.CachedTokens = o.cached
	return u
}

func (c openaiCodec) reply(_ *Request, o *outcome) any {
	msg := oaMessage{Role: "assistant", ReasoningContent: o.reasoning, Annotations: []struct{}{}}
	if o.refusal != "" {
		msg.Refusal = &o.refusal
	} else if !o.blocked {
		msg.Content = &o.text
	}
	return oaCompletion{
		ID: "chatcmpl-" + o.id, Object: "chat.completion", Created: o.created, Model: o.model,
		SystemFingerprint: "fp_llmtest", ServiceTier: "default",
		Choices: []oaChoice{{Index: 0, Message: msg, FinishReason: c.finish(o)}},
		Usage:   c.usage(o),
	}
}

func (c openaiCodec) events(req *Request, o *outcome) []event {
	chunk := func(d oaDelta, finish *string) event {
		ch := oaChunk{
			ID: "chatcmpl-" + o.id, Object: "chat.completion.chunk", Created: o.created, Model: o.model,
			SystemFingerprint: "fp_llmtest", ServiceTier: "default",
			Choices: []oaChunkChoice{{Index: 0, Delta: d, FinishReason: finish}},
		}
		if req.IncludeUsage {
			ch.Usage = json.RawMessage("null")
		}
		return event{data: ch}
	}
	empty := ""
	evs := []event{chunk(oaDelta{Role: "assistant", Content: &empty}, nil)}
	for _, p := range pieces(o.reasoning, o.pieces) {
		evs = append(evs, chunk(oaDelta{ReasoningContent: &p}, nil))
	}
	if o.refusal != "" {
		for _, p := range pieces(o.refusal, o.pieces) {
			evs = append(evs, chunk(oaDelta{Refusal: &p}, nil))
		}
	} else if !o.blocked {
		for _, p := range pieces(o.text, o.pieces) {
			evs = append(evs, chunk(oaDelta{Content: &p}, nil))
		}
	}
	finish := c.finish(o)
	evs = append(evs, chunk(oaDelta{}, &finish))
	if req.IncludeUsage {
		u, _ := json.Marshal(c.usage(o))
		evs = append(evs, event{data: oaChunk{
			ID: "chatcmpl-" + o.id, Object: "chat.completion.chunk", Created: o.created, Model: o.model,
			SystemFingerprint: "fp_llmtest", ServiceTier: "default",
			Choices: []oaChunkChoice{}, Usage: u,
		}})
	}
	return append(evs, event{data: "[DONE]"})
}

type oaError struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

func (openaiCodec) errorBody(status int, _ Fault, msg string) any {
	var e oaError
	e.Error.Message = msg
	code := ""
	switch status {
	case http.StatusTooManyRequests:
		e.Error.Type, code = "requests", "rate_limit_exceeded"
	case http.StatusUnauthorized:
		e.Error.Type, code = "invalid_request_error", "invalid_api_key"
	case http.StatusNotFound:
		e.Error.Type, code = "invalid_request_error", "model_not_found"
	case http.StatusBadRequest:
		e.Error.Type = "invalid_request_error"
	default:
		e.Error.Type = "server_error"
	}
	if code != "" {
		e.Error.Code = &code
	}
	return e
}

func (openaiCodec) errorHeaders(h http.Header, f Fault) {
	if f.Kind == FaultRateLimit {
		h.Set("retry-after-ms", fmt.Sprint(f.retryAfter().Milliseconds()))
	}
}

func (openaiCodec) malformed(stream bool) []byte {
	if stream {
		return []byte("data: {\"id\":\"chatcmpl-broken\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":\n\n")
	}
	return []byte(`{"id":"chatcmpl-broken","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"unterminated`)
}
