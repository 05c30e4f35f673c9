package llmtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// anthropicCodec speaks the Anthropic Messages API: a message object, or the
// message_start … message_stop event sequence, or {"type":"error","error":{…}}.
type anthropicCodec struct{}

func (anthropicCodec) protocol() Protocol     { return Anthropic }
func (anthropicCodec) sse(*http.Request) bool { return true }

type anRequest struct {
	Model     string      `json:"model"`
	System    textContent `json:"system"`
	MaxTokens *int64      `json:"max_tokens"`
	Messages  []struct {
		Role    string      `json:"role"`
		Content textContent `json:"content"`
	} `json:"messages"`
	Temperature  *float64    `json:"temperature"`
	TopP         *float64    `json:"top_p"`
	Stream       bool        `json:"stream"`
	Thinking     *anThinking `json:"thinking"`
	OutputConfig *struct {
		Format *struct {
			Type   string          `json:"type"`
			Schema json.RawMessage `json:"schema"`
		} `json:"format"`
	} `json:"output_config"`
}

func (anthropicCodec) decode(_ *http.Request, body []byte, req *Request) error {
	var in anRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return fmt.Errorf("invalid JSON body: %v", err)
	}
	switch {
	case in.Model == "":
		return errors.New("model: Field required")
	case in.MaxTokens == nil:
		return errors.New("max_tokens: Field required")
	case len(in.Messages) == 0:
		return errors.New("messages: at least one message is required")
	}
	req.Model, req.System, req.MaxTokens = in.Model, string(in.System), *in.MaxTokens
	for _, m := range in.Messages {
		switch m.Role {
		case "user":
			req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Text: string(m.Content)})
		case "assistant":
			req.Messages = append(req.Messages, llm.Message{Role: llm.RoleAssistant, Text: string(m.Content)})
		default:
			return fmt.Errorf("messages: unexpected role %q", m.Role)
		}
	}
	req.Temperature, req.TopP, req.Stream = in.Temperature, in.TopP, in.Stream
	if err := anReasoning(in.Thinking, req); err != nil {
		return err
	}
	if oc := in.OutputConfig; oc != nil && oc.Format != nil {
		req.JSONSchema = oc.Format.Schema
	}
	return nil
}

type anMessage struct {
	ID           string           `json:"id"`
	Type         string           `json:"type"`
	Role         string           `json:"role"`
	Model        string           `json:"model"`
	Content      []anBlock        `json:"content"`
	StopReason   *string          `json:"stop_reason"`
	StopSequence *string          `json:"stop_sequence"`
	StopDetails  *anRefusalDetail `json:"stop_details"`
	Usage        anUsage          `json:"usage"`
}

type anBlock struct {
	Type      string  `json:"type"`
	Text      *string `json:"text,omitempty"`
	Thinking  *string `json:"thinking,omitempty"`
	Signature *string `json:"signature,omitempty"`
}

type anRefusalDetail struct {
	Type        string  `json:"type"`
	Category    *string `json:"category"`
	Explanation *string `json:"explanation"`
}

type anUsage struct {
	InputTokens              int64 `json:"input_tokens,omitempty"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	OutputTokensDetails      *struct {
		ThinkingTokens int64 `json:"thinking_tokens"`
	} `json:"output_tokens_details,omitempty"`
}

func (anthropicCodec) stopReason(o *outcome) string {
	if o.wireFinish != "" {
		return o.wireFinish
	}
	switch o.finish {
	case llm.FinishLength:
		return "max_tokens"
	case llm.FinishRefusal, llm.FinishContentFilter:
		return "refusal"
	case llm.FinishOther:
		return "pause_turn"
	}
	return "end_turn"
}

// answer is the visible text: the refusal's wording when the model refused.
func (anthropicCodec) answer(o *outcome) string {
	if o.refusal != "" {
		return o.refusal
	}
	if o.blocked {
		return ""
	}
	return o.text
}

func (anthropicCodec) usage(o *outcome, withInput bool) anUsage {
	u := anUsage{OutputTokens: o.out}
	if withInput {
		u.InputTokens, u.CacheReadInputTokens = o.in-o.cached, o.cached
	}
	if o.thinking > 0 {
		u.OutputTokensDetails = &struct {
			ThinkingTokens int64 `json:"thinking_tokens"`
		}{o.thinking}
	}
	return u
}

func (c anthropicCodec) stopDetails(o *outcome) *anRefusalDetail {
	if c.stopReason(o) != "refusal" {
		return nil
	}
	d := &anRefusalDetail{Type: "refusal"}
	if o.refusal != "" {
		d.Explanation = &o.refusal
	}
	return d
}

func (c anthropicCodec) reply(_ *Request, o *outcome) any {
	var blocks []anBlock
	if o.reasoning != "" {
		sig := "llmtest-signature"
		blocks = append(blocks, anBlock{Type: "thinking", Thinking: &o.reasoning, Signature: &sig})
	}
	if text := c.answer(o); text != "" {
		blocks = append(blocks, anBlock{Type: "text", Text: &text})
	}
	if blocks == nil {
		blocks = []anBlock{}
	}
	stop := c.stopReason(o)
	return anMessage{
		ID: "msg_" + o.id, Type: "message", Role: "assistant", Model: o.model,
		Content: blocks, StopReason: &stop, StopDetails: c.stopDetails(o),
		Usage: c.usage(o, true),
	}
}

func (c anthropicCodec) events(_ *Request, o *outcome) []event {
	type m = map[string]any
	start := anMessage{
		ID: "msg_" + o.id, Type: "message", Role: "assistant", Model: o.model, Content: []anBlock{},
		Usage: anUsage{InputTokens: o.in, OutputTokens: 1},
	}
	evs := []event{
		{"message_start", m{"type": "message_start", "message": start}},
		{"ping", m{"type": "ping"}},
	}
	index := 0
	block := func(kind, field, deltaKind string, text string) {
		evs = append(evs, event{"content_block_start", m{"type": "content_block_start", "index": index,
			"content_block": m{"type": kind, field: ""}}})
		for _, p := range pieces(text, o.pieces) {
			evs = append(evs, event{"content_block_delta", m{"type": "content_block_delta", "index": index,
				"delta": m{"type": deltaKind, field: p}}})
		}
		if kind == "thinking" {
			evs = append(evs, event{"content_block_delta", m{"type": "content_block_delta", "index": index,
				"delta": m{"type": "signature_delta", "signature": "llmtest-signature"}}})
		}
		evs = append(evs, event{"content_block_stop", m{"type": "content_block_stop", "index": index}})
		index++
	}
	if o.reasoning != "" {
		block("thinking", "thinking", "thinking_delta", o.reasoning)
	}
	if text := c.answer(o); text != "" {
		block("text", "text", "text_delta", text)
	}
	evs = append(evs,
		event{"message_delta", m{"type": "message_delta",
			"delta": m{"stop_reason": c.stopReason(o), "stop_sequence": nil, "stop_details": c.stopDetails(o)},
			"usage": c.usage(o, false)}},
		event{"message_stop", m{"type": "message_stop"}},
	)
	return evs
}

func (anthropicCodec) errorBody(status int, _ Fault, msg string) any {
	kind := "api_error"
	switch status {
	case http.StatusBadRequest:
		kind = "invalid_request_error"
	case http.StatusUnauthorized:
		kind = "authentication_error"
	case http.StatusNotFound:
		kind = "not_found_error"
	case http.StatusTooManyRequests:
		kind = "rate_limit_error"
	case http.StatusServiceUnavailable:
		kind = "overloaded_error"
	}
	return map[string]any{
		"type":       "error",
		"error":      map[string]string{"type": kind, "message": msg},
		"request_id": "req_llmtest",
	}
}

func (anthropicCodec) errorHeaders(http.Header, Fault) {}

func (anthropicCodec) malformed(stream bool) []byte {
	if stream {
		return []byte("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\n\n")
	}
	return []byte(`{"id":"msg_broken","type":"message","content":[{"type":"text","text":"unterminated`)
}
