package llmtest

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// geminiCodec speaks Gemini's generateContent and streamGenerateContent (SSE with
// alt=sse, else a JSON array): GenerateContentResponse objects with candidates,
// promptFeedback and usageMetadata, and {"error":{code,message,status}} for errors.
type geminiCodec struct{}

func (geminiCodec) protocol() Protocol { return Gemini }

func (geminiCodec) sse(r *http.Request) bool { return r.URL.Query().Get("alt") == "sse" }

type geContent struct {
	Role  string   `json:"role,omitempty"`
	Parts []gePart `json:"parts"`
}

type gePart struct {
	Text    string `json:"text"`
	Thought bool   `json:"thought,omitempty"`
}

type geRequest struct {
	Contents          []geContent `json:"contents"`
	SystemInstruction *geContent  `json:"systemInstruction"`
	GenerationConfig  *struct {
		Temperature        *float64        `json:"temperature"`
		TopP               *float64        `json:"topP"`
		Seed               *int64          `json:"seed"`
		MaxOutputTokens    int64           `json:"maxOutputTokens"`
		ResponseMIMEType   string          `json:"responseMimeType"`
		ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
		ResponseSchema     json.RawMessage `json:"responseSchema"`
		ThinkingConfig     *geThinking     `json:"thinkingConfig"`
	} `json:"generationConfig"`
}

func (geminiCodec) decode(r *http.Request, body []byte, req *Request) error {
	model, method, ok := strings.Cut(r.PathValue("call"), ":")
	switch {
	case !ok || model == "":
		return fmt.Errorf("invalid resource name %q: want models/{model}:generateContent", r.PathValue("call"))
	case method == "generateContent":
	case method == "streamGenerateContent":
		req.Stream = true
	default:
		return fmt.Errorf("unknown method %q", method)
	}
	req.Model = model
	var in geRequest
	if err := json.Unmarshal(body, &in); err != nil {
		//lint:ignore ST1005 the stand-in repeats the provider's own wording
		return fmt.Errorf("Invalid JSON payload received. %v", err)
	}
	if len(in.Contents) == 0 {
		return errors.New("* GenerateContentRequest.contents: contents is not specified")
	}
	if si := in.SystemInstruction; si != nil {
		req.System = joinParts(si.Parts)
	}
	for _, c := range in.Contents {
		role := llm.RoleUser
		switch c.Role {
		case "", "user":
		case "model":
			role = llm.RoleAssistant
		default:
			//lint:ignore ST1005 the stand-in repeats the provider's own wording
			return fmt.Errorf("Please use a valid role: user, model. Got %q", c.Role)
		}
		req.Messages = append(req.Messages, llm.Message{Role: role, Text: joinParts(c.Parts)})
	}
	if g := in.GenerationConfig; g != nil {
		req.Temperature, req.TopP, req.Seed, req.MaxTokens = g.Temperature, g.TopP, g.Seed, g.MaxOutputTokens
		if t := g.ThinkingConfig; t != nil {
			req.ThinkingBudget, req.IncludeThoughts = t.ThinkingBudget, t.IncludeThoughts
		}
		if g.ResponseJSONSchema != nil {
			req.JSONSchema = g.ResponseJSONSchema
		} else if g.ResponseSchema != nil {
			req.JSONSchema = g.ResponseSchema
		}
	}
	return nil
}

func joinParts(ps []gePart) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Text)
	}
	return b.String()
}

type geResponse struct {
	Candidates     []geCandidate     `json:"candidates,omitempty"`
	PromptFeedback *gePromptFeedback `json:"promptFeedback,omitempty"`
	UsageMetadata  *geUsage          `json:"usageMetadata,omitempty"`
	ModelVersion   string            `json:"modelVersion"`
	ResponseID     string            `json:"responseId"`
}

type geCandidate struct {
	Content      *geContent `json:"content,omitempty"`
	FinishReason string     `json:"finishReason,omitempty"`
	Index        int        `json:"index"`
}

type gePromptFeedback struct {
	BlockReason string `json:"blockReason"`
}

type geUsage struct {
	PromptTokenCount     int64 `json:"promptTokenCount"`
	CandidatesTokenCount int64 `json:"candidatesTokenCount,omitempty"`
	ThoughtsTokenCount   int64 `json:"thoughtsTokenCount,omitempty"`
	TotalTokenCount      int64 `json:"totalTokenCount"`
}

func (geminiCodec) finishReason(o *outcome) string {
	if o.wireFinish != "" {
		return o.wireFinish
	}
	switch o.finish {
	case llm.FinishLength:
		return "MAX_TOKENS"
	case llm.FinishRefusal, llm.FinishContentFilter:
		return "SAFETY"
	case llm.FinishOther:
		return "OTHER"
	}
	return "STOP"
}

// usage reports candidates and thoughts apart, as Gemini does: candidatesTokenCount
// leaves the thinking out.
func (geminiCodec) usage(o *outcome) *geUsage {
	cand := max(o.out-o.thinking, 0)
	return &geUsage{PromptTokenCount: o.in, CandidatesTokenCount: cand, ThoughtsTokenCount: o.thinking,
		TotalTokenCount: o.in + cand + o.thinking}
}

func (c geminiCodec) response(o *outcome, parts []gePart, finish string, usage *geUsage) geResponse {
	r := geResponse{ModelVersion: o.model, ResponseID: o.id, UsageMetadata: usage}
	if o.blocked {
		r.PromptFeedback = &gePromptFeedback{BlockReason: cmp.Or(o.wireFinish, "SAFETY")}
		return r
	}
	cand := geCandidate{FinishReason: finish}
	if len(parts) > 0 {
		cand.Content = &geContent{Role: "model", Parts: parts}
	}
	r.Candidates = []geCandidate{cand}
	return r
}

// answer is the visible text; a refused candidate carries none.
func (geminiCodec) answer(o *outcome) string {
	if o.refusal != "" {
		return ""
	}
	return o.text
}

func (c geminiCodec) reply(_ *Request, o *outcome) any {
	var parts []gePart
	if o.reasoning != "" {
		parts = append(parts, gePart{Text: o.reasoning, Thought: true})
	}
	if t := c.answer(o); t != "" {
		parts = append(parts, gePart{Text: t})
	}
	return c.response(o, parts, c.finishReason(o), c.usage(o))
}

func (c geminiCodec) events(_ *Request, o *outcome) []event {
	if o.blocked {
		return []event{{data: c.response(o, nil, "", c.usage(o))}}
	}
	var parts []gePart
	for _, p := range pieces(o.reasoning, o.pieces) {
		parts = append(parts, gePart{Text: p, Thought: true})
	}
	for _, p := range pieces(c.answer(o), o.pieces) {
		parts = append(parts, gePart{Text: p})
	}
	if len(parts) == 0 {
		return []event{{data: c.response(o, nil, c.finishReason(o), c.usage(o))}}
	}
	evs := make([]event, len(parts))
	for i, p := range parts {
		finish, usage := "", &geUsage{PromptTokenCount: o.in, TotalTokenCount: o.in}
		if i == len(parts)-1 {
			finish, usage = c.finishReason(o), c.usage(o)
		}
		evs[i] = event{data: c.response(o, []gePart{p}, finish, usage)}
	}
	return evs
}

func (geminiCodec) errorBody(status int, f Fault, msg string) any {
	st := "INTERNAL"
	switch status {
	case http.StatusBadRequest:
		st = "INVALID_ARGUMENT"
	case http.StatusUnauthorized:
		st = "UNAUTHENTICATED"
	case http.StatusNotFound:
		st = "NOT_FOUND"
	case http.StatusTooManyRequests:
		st = "RESOURCE_EXHAUSTED"
	case http.StatusServiceUnavailable:
		st = "UNAVAILABLE"
	}
	body := map[string]any{"code": status, "message": msg, "status": st}
	if f.Kind == FaultRateLimit {
		// Gemini says how long to wait in a RetryInfo detail rather than a header.
		body["details"] = []map[string]any{{
			"@type":      "type.googleapis.com/google.rpc.RetryInfo",
			"retryDelay": retryDelay(f.retryAfter()),
		}}
	}
	return map[string]any{"error": body}
}

func (geminiCodec) errorHeaders(http.Header, Fault) {}

func (geminiCodec) malformed(stream bool) []byte {
	if stream {
		return []byte("data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"unterminated\n\n")
	}
	return []byte(`{"candidates": [{"content": {"parts": [{"text": "unterminated`)
}

// retryDelay formats d as a google.protobuf.Duration in JSON ("2s", "1.5s").
func retryDelay(d time.Duration) string {
	return fmt.Sprintf("%gs", d.Seconds())
}
