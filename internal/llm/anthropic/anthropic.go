// Package anthropic adapts Anthropic's Messages API, through the official
// anthropic-sdk-go, to arbiter's llm vocabulary: thinking blocks become Reply.Reasoning,
// stop_reason "refusal" becomes FinishRefusal, and every failure becomes one *llm.Error.
//
// The SDK never retries (retries live in package llm) and never reads the environment
// (keys come from config.Endpoint). The Messages API takes no seed, so Request.Seed is
// not sent.
package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

// DefaultMaxTokens is sent when a request sets no limit, because the Messages API
// requires max_tokens. It is ample for arbiter's replies (a verdict, a checklist, a
// courtroom turn); a request that wants more says so with Request.MaxTokens.
const DefaultMaxTokens = 1024

// Options are the optional parts of a Model.
type Options struct {
	// HTTPClient sends the requests; nil means a client of the adapter's own.
	HTTPClient *http.Client
}

// Model is a Claude model reached over the Messages API.
type Model struct {
	name llm.ModelName
	key  string
	svc  sdk.MessageService
}

// New returns a Model for name (anthropic/model-id) at endpoint ep. A key is required
// unless ep.BaseURL names a server of the user's own.
func New(name llm.ModelName, ep config.Endpoint, opts Options) (*Model, error) {
	// A query on the base URL (?api-key=…) is sent with every request by the client.
	client, baseURL := llm.BaseQuery(llm.CapReplies(opts.HTTPClient), ep.BaseURL)
	base := strings.TrimRight(baseURL, "/")
	key, err := ep.APIKey(base, "ANTHROPIC_API_KEY")
	if err != nil {
		return nil, err
	}
	ro := []option.RequestOption{
		option.WithEnvironmentProduction(),
		option.WithHTTPClient(client),
		option.WithAPIKey(key),
		option.WithMaxRetries(0),
		option.WithoutOpenTelemetry(),
	}
	if base != "" {
		ro = append(ro, option.WithBaseURL(base))
	}
	// The service, unlike sdk.NewClient, reads no keys, profiles or URLs from the
	// environment.
	return &Model{name: name, key: key, svc: sdk.NewMessageService(ro...)}, nil
}

// Name implements llm.Model.
func (m *Model) Name() llm.ModelName { return m.name }

// Generate implements llm.Model. It makes exactly one HTTP request, streaming when
// req.OnDelta is set or when the SDK refuses a non-streaming call that may run long.
func (m *Model) Generate(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
	p, ro, err := m.params(req)
	if err != nil {
		return nil, err
	}
	var resp *http.Response
	ro = append(ro, option.WithResponseInto(&resp))
	start := time.Now()
	var reply *llm.Reply
	onDelta, flush := llm.RedactDeltas(req.OnDelta, m.key)
	if onDelta == nil {
		if _, err := sdk.CalculateNonStreamingTimeout(int(p.MaxTokens), p.Model, nil); err != nil {
			onDelta = func(string) {}
		}
	}
	if onDelta != nil {
		if reply, err = m.stream(ctx, p, ro, onDelta); err == nil {
			flush()
		}
	} else {
		reply, err = m.complete(ctx, p, ro)
	}
	if err != nil {
		return nil, m.translate(ctx, err, resp)
	}
	reply.Latency = time.Since(start)
	reply.Attempts = 1
	return reply.Redact(m.key), nil
}

// params builds the request body; options the v2 SDK no longer models (temperature,
// top_p) are set on the JSON directly, and only when the request sets them.
func (m *Model) params(req *llm.Request) (sdk.MessageNewParams, []option.RequestOption, error) {
	p := sdk.MessageNewParams{Model: sdk.Model(m.name.ID()), MaxTokens: DefaultMaxTokens}
	if req.MaxTokens > 0 {
		p.MaxTokens = int64(req.MaxTokens)
	}
	if req.System != "" {
		// The system prompt is the prefix every request of a run shares: mark it for the
		// prompt cache (a prefix below the model's minimum is simply not cached).
		p.System = []sdk.TextBlockParam{{Text: req.System, CacheControl: sdk.NewCacheControlEphemeralParam()}}
	}
	for i, msg := range req.Messages {
		switch msg.Role {
		case llm.RoleUser:
			p.Messages = append(p.Messages, sdk.NewUserMessage(sdk.NewTextBlock(msg.Text)))
		case llm.RoleAssistant:
			p.Messages = append(p.Messages, sdk.NewAssistantMessage(sdk.NewTextBlock(msg.Text)))
		default:
			return p, nil, m.invalid(fmt.Sprintf("message %d has role %q; want user or assistant", i, msg.Role))
		}
	}
	if len(req.JSONSchema) > 0 {
		var schema map[string]any
		if err := json.Unmarshal(req.JSONSchema, &schema); err != nil {
			return p, nil, m.invalid(fmt.Sprintf("JSON schema: %v", err))
		}
		p.OutputConfig = sdk.OutputConfigParam{Format: sdk.JSONOutputFormatParam{Schema: schema}}
	}
	if err := m.thinking(req, &p); err != nil {
		return p, nil, err
	}
	var ro []option.RequestOption
	if req.Temperature != nil {
		ro = append(ro, option.WithJSONSet("temperature", *req.Temperature))
	}
	if req.TopP != nil {
		ro = append(ro, option.WithJSONSet("top_p", *req.TopP))
	}
	return p, ro, nil
}

func (m *Model) invalid(msg string) *llm.Error {
	return &llm.Error{Provider: m.name.Provider(), Code: "invalid_request", Message: msg}
}

// errEmpty and errStreamCut are 2xx responses without a whole message in them; translate
// turns them into retryable bad-response errors.
var (
	errEmpty     = errors.New("response holds no message")
	errStreamCut = errors.New("stream ended before message_stop")
)

func (m *Model) complete(ctx context.Context, p sdk.MessageNewParams, ro []option.RequestOption) (*llm.Reply, error) {
	msg, err := m.svc.New(ctx, p, ro...)
	if err != nil {
		return nil, err
	}
	if msg.StopReason == "" && len(msg.Content) == 0 {
		return nil, errEmpty
	}
	return reply(msg, json.RawMessage(msg.RawJSON())), nil
}

func (m *Model) stream(ctx context.Context, p sdk.MessageNewParams, ro []option.RequestOption, onDelta func(string)) (*llm.Reply, error) {
	s := m.svc.NewStreaming(ctx, p, ro...)
	defer s.Close()
	var msg sdk.Message
	var acc blockText
	stopped := false
	for s.Next() {
		ev := s.Current()
		switch ev.Type {
		case "content_block_delta":
			if acc.add(&msg, ev) {
				if ev.Delta.Type == "text_delta" && ev.Delta.Text != "" {
					onDelta(ev.Delta.Text)
				}
				continue
			}
		case "content_block_stop", "message_stop":
			acc.flush(&msg)
			stopped = stopped || ev.Type == "message_stop"
		}
		if err := msg.Accumulate(ev); err != nil {
			return nil, err
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	if !stopped {
		return nil, errStreamCut
	}
	// The accumulated message is the envelope of message_start with every delta applied.
	return reply(&msg, json.RawMessage(msg.RawJSON())), nil
}

// blockText gathers the text and thinking deltas of a stream's blocks. The SDK's
// Accumulate appends each delta to a string, which copies the whole text every time:
// quadratic, so a long stream of small deltas (up to llm.MaxReplyBytes of them) would
// take minutes and leave a heap of garbage. Deltas go here instead and reach the message
// when their block stops, before Accumulate rewrites the block's raw JSON.
type blockText struct {
	text, thinking map[int64]*strings.Builder
}

// add takes a text or thinking delta of a block the message holds; other events, and
// deltas Accumulate should judge (a bad index), are left to Accumulate.
func (b *blockText) add(msg *sdk.Message, ev sdk.MessageStreamEventUnion) bool {
	if ev.Index < 0 || ev.Index >= int64(len(msg.Content)) {
		return false
	}
	var into *map[int64]*strings.Builder
	var piece string
	switch ev.Delta.Type {
	case "text_delta":
		into, piece = &b.text, ev.Delta.Text
	case "thinking_delta":
		into, piece = &b.thinking, ev.Delta.Thinking
	default:
		return false
	}
	if *into == nil {
		*into = map[int64]*strings.Builder{}
	}
	sb := (*into)[ev.Index]
	if sb == nil {
		sb = new(strings.Builder)
		(*into)[ev.Index] = sb
	}
	sb.WriteString(piece)
	return true
}

// flush moves the gathered text into the message's blocks.
func (b *blockText) flush(msg *sdk.Message) {
	for i, sb := range b.text {
		msg.Content[i].Text += sb.String()
		delete(b.text, i)
	}
	for i, sb := range b.thinking {
		msg.Content[i].Thinking += sb.String()
		delete(b.thinking, i)
	}
}

func reply(msg *sdk.Message, raw json.RawMessage) *llm.Reply {
	var text, think strings.Builder
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "thinking":
			think.WriteString(b.Thinking)
		}
	}
	u := msg.Usage
	r := &llm.Reply{
		Text:      text.String(),
		Reasoning: think.String(),
		Finish:    finish(msg.StopReason),
		Usage: llm.Usage{
			// Cached prompt tokens are counted apart; the prompt is all three.
			InputTokens:       u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens,
			OutputTokens:      u.OutputTokens,
			ReasoningTokens:   u.OutputTokensDetails.ThinkingTokens,
			CachedInputTokens: u.CacheReadInputTokens,
		},
		Model: string(msg.Model),
		Raw:   raw,
	}
	if r.Finish == llm.FinishRefusal {
		r.Refusal = msg.StopDetails.Explanation
		if r.Refusal == "" {
			r.Refusal = r.Text
		}
		r.Text = ""
	}
	return r
}

func finish(reason sdk.StopReason) llm.Finish {
	switch reason {
	case sdk.StopReasonEndTurn, sdk.StopReasonStopSequence:
		return llm.FinishStop
	case sdk.StopReasonMaxTokens, sdk.StopReasonModelContextWindowExceeded:
		return llm.FinishLength
	case sdk.StopReasonRefusal:
		return llm.FinishRefusal
	}
	return llm.FinishOther
}

// streamErrorStatus gives an error event that arrives inside a 200 stream the status the
// same error would have had before the stream began.
var streamErrorStatus = map[string]int{
	"invalid_request_error": http.StatusBadRequest,
	"authentication_error":  http.StatusUnauthorized,
	"permission_error":      http.StatusForbidden,
	"not_found_error":       http.StatusNotFound,
	"request_too_large":     http.StatusRequestEntityTooLarge,
	"rate_limit_error":      http.StatusTooManyRequests,
	"api_error":             http.StatusInternalServerError,
	"timeout_error":         http.StatusGatewayTimeout,
	"overloaded_error":      529,
}

// translate turns whatever the SDK returned into one *llm.Error. resp is the HTTP
// response when one arrived.
func (m *Model) translate(ctx context.Context, err error, resp *http.Response) *llm.Error {
	provider := m.name.Provider()
	var e *llm.Error
	var apiErr *sdk.Error
	status := 0
	if resp != nil {
		status = resp.StatusCode
	}
	if e := llm.ReplyTooLarge(provider, status, err); e != nil {
		return e
	}
	switch {
	case errors.As(err, &e):
		return e
	case errors.As(err, &apiErr):
		var h http.Header
		if apiErr.Response != nil {
			h = apiErr.Response.Header
		}
		kind := string(apiErr.Type())
		status := apiErr.StatusCode
		if status < 400 {
			var ok bool
			if status, ok = streamErrorStatus[kind]; !ok {
				status = http.StatusInternalServerError
			}
		}
		msg := apiErr.Message
		if msg == "" {
			msg = http.StatusText(status)
		}
		e = llm.HTTPError(provider, status, h, kind, msg, err)
	case ctx.Err() != nil:
		e = llm.TransportError(provider, ctx.Err())
	case resp != nil && resp.StatusCode >= 400:
		e = llm.HTTPError(provider, resp.StatusCode, resp.Header, "", http.StatusText(resp.StatusCode), err)
	case resp != nil:
		e = llm.BadResponse(provider, resp.StatusCode, err)
	default:
		e = llm.TransportError(provider, err)
	}
	return e.Redact(m.key)
}
