// Package openai adapts OpenAI's Chat Completions API, through the official openai-go SDK,
// to arbiter's llm vocabulary. The same adapter serves every OpenAI-compatible server:
// Ollama's /v1 endpoint and the presets of the config file (DeepSeek, vLLM, …), whose
// reasoning_content it reads as Reply.Reasoning.
//
// The SDK never retries (retries live in package llm) and never reads the environment
// (keys come from config.Endpoint). Every failure leaves Generate as one *llm.Error.
package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/respjson"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

// defaultSchemaName names a JSON schema when the request gives none.
const defaultSchemaName = "reply"

// Options are the optional parts of a Model.
type Options struct {
	// HTTPClient sends the requests; nil means a client of the adapter's own.
	HTTPClient *http.Client
}

// Model is a chat model reached over the Chat Completions API.
type Model struct {
	name     llm.ModelName
	provider string
	key      string
	svc      sdk.ChatCompletionService
	// ro are the client's options, for the Files and Batches services of batch.go.
	ro []option.RequestOption
}

// New returns a Model for name (provider/model-id) at endpoint ep. With ep.Provider
// "ollama" it talks to ep.BaseURL + "/v1" without a key. Otherwise a key is required
// unless ep.BaseURL names a server of the user's own.
func New(name llm.ModelName, ep config.Endpoint, opts Options) (*Model, error) {
	// A query on the base URL (?api-key=…) is sent with every request by the client.
	client, baseURL := llm.BaseQuery(llm.CapReplies(opts.HTTPClient), ep.BaseURL)
	base := strings.TrimRight(baseURL, "/")
	if ep.Provider == "ollama" {
		if base == "" {
			return nil, errors.New("ollama: no server address: set OLLAMA_HOST or pass --base-url")
		}
		if !strings.Contains(base, "://") {
			base = "http://" + base // OLLAMA_HOST is often host:port
		}
		if !strings.HasSuffix(base, "/v1") {
			base += "/v1"
		}
	}
	key, err := ep.APIKey(base, "OPENAI_API_KEY")
	if err != nil {
		return nil, err
	}
	ro := []option.RequestOption{
		option.WithEnvironmentProduction(),
		option.WithHTTPClient(client),
		option.WithAPIKey(key),
		option.WithMaxRetries(0),
	}
	if base != "" {
		ro = append(ro, option.WithBaseURL(base))
	}
	return &Model{
		name:     name,
		provider: name.Provider(),
		key:      key,
		ro:       ro,
		// The service, unlike sdk.NewClient, reads nothing from the environment.
		svc: sdk.NewChatCompletionService(ro...),
	}, nil
}

// Name implements llm.Model.
func (m *Model) Name() llm.ModelName { return m.name }

// Generate implements llm.Model. It makes exactly one HTTP request, streaming when
// req.OnDelta is set.
func (m *Model) Generate(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
	params, err := m.params(req)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	var resp *http.Response
	var reply *llm.Reply
	if req.OnDelta != nil {
		onDelta, flush := llm.RedactDeltas(req.OnDelta, m.key)
		if reply, err = m.stream(ctx, params, onDelta, &resp); err == nil {
			flush()
		}
	} else {
		reply, err = m.complete(ctx, params, &resp)
	}
	if err != nil {
		return nil, m.translate(ctx, err, resp)
	}
	reply.Latency = time.Since(start)
	reply.Attempts = 1
	return reply.Redact(m.key), nil
}

var schemaNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// params builds the SDK's request. It is returned (and passed on) by pointer: the struct
// is over a kilobyte, and every frame that held a copy stayed on the stack of each
// request in flight while it waited for its answer.
func (m *Model) params(req *llm.Request) (*sdk.ChatCompletionNewParams, error) {
	p := &sdk.ChatCompletionNewParams{Model: sdk.ChatModel(m.name.ID())}
	if req.System != "" {
		p.Messages = append(p.Messages, sdk.SystemMessage(req.System))
	}
	for i, msg := range req.Messages {
		switch msg.Role {
		case llm.RoleUser:
			p.Messages = append(p.Messages, sdk.UserMessage(msg.Text))
		case llm.RoleAssistant:
			p.Messages = append(p.Messages, sdk.AssistantMessage(msg.Text))
		default:
			return p, m.invalid(fmt.Sprintf("message %d has role %q; want user or assistant", i, msg.Role))
		}
	}
	if req.System != "" && m.provider == "openai" {
		// Requests with the same system prompt share a cache key, so OpenAI routes them
		// to the same prompt cache. Other OpenAI-compatible servers may refuse the field.
		p.PromptCacheKey = sdk.String(promptCacheKey(req.System))
	}
	if req.Temperature != nil {
		p.Temperature = sdk.Float(*req.Temperature)
	}
	if req.TopP != nil {
		p.TopP = sdk.Float(*req.TopP)
	}
	if req.Seed != nil {
		p.Seed = sdk.Int(*req.Seed)
	}
	if req.MaxTokens > 0 {
		p.MaxCompletionTokens = sdk.Int(int64(req.MaxTokens))
	}
	if err := m.reasoning(req, p); err != nil {
		return p, err
	}
	if len(req.JSONSchema) > 0 {
		if !json.Valid(req.JSONSchema) {
			return p, m.invalid("JSON schema is not valid JSON")
		}
		name := req.SchemaName
		if !schemaNameRE.MatchString(name) {
			name = defaultSchemaName
		}
		p.ResponseFormat = sdk.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &sdk.ResponseFormatJSONSchemaParam{
				JSONSchema: sdk.ResponseFormatJSONSchemaJSONSchemaParam{Name: name, Schema: req.JSONSchema},
			},
		}
	}
	return p, nil
}

// invalid is the error for a request this adapter cannot send.
func (m *Model) invalid(msg string) *llm.Error {
	return &llm.Error{Provider: m.provider, Code: "invalid_request", Message: msg}
}

// errNoChoices and errStreamCut are 2xx responses without an answer in them; translate
// turns them into retryable bad-response errors.
var (
	errNoChoices = errors.New("response has no choices")
	errStreamCut = errors.New("stream ended before a finish_reason")
)

func (m *Model) complete(ctx context.Context, p *sdk.ChatCompletionNewParams, resp **http.Response) (*llm.Reply, error) {
	c, err := m.send(ctx, p, resp)
	if err != nil {
		return nil, err
	}
	if len(c.Choices) == 0 {
		return nil, errNoChoices
	}
	return completion(c), nil
}

// completion turns a chat completion with at least one choice into a reply, for complete
// and for a batch's lines. It is a frame of its own: reading the completion copies over
// a kilobyte of it onto the stack, and in complete that frame would sit under every
// request in flight while it waits for its answer.
func completion(c *sdk.ChatCompletion) *llm.Reply {
	ch := &c.Choices[0]
	r := &llm.Reply{
		Text:      ch.Message.Content,
		Reasoning: reasoning(ch.Message.JSON.ExtraFields),
		Finish:    finish(ch.FinishReason),
		Usage:     usage(&c.Usage),
		Model:     c.Model,
		Raw:       json.RawMessage(c.RawJSON()),
		Attempts:  1,
	}
	if ch.Message.Refusal != "" {
		r.Finish, r.Refusal, r.Text = llm.FinishRefusal, ch.Message.Refusal, ""
	}
	return r
}

// send is the only frame holding the SDK's copy of the request while it is asked.
func (m *Model) send(ctx context.Context, p *sdk.ChatCompletionNewParams, resp **http.Response) (*sdk.ChatCompletion, error) {
	return m.svc.New(ctx, *p, option.WithResponseInto(resp))
}

func (m *Model) stream(ctx context.Context, p *sdk.ChatCompletionNewParams, onDelta func(string), resp **http.Response) (*llm.Reply, error) {
	p.StreamOptions = sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)}
	s := m.svc.NewStreaming(ctx, *p, option.WithResponseInto(resp))
	defer s.Close()
	var text, think, refusal strings.Builder
	var reason, model, last string
	var u sdk.CompletionUsage
	for s.Next() {
		ch := s.Current()
		last = ch.RawJSON()
		if ch.Model != "" {
			model = ch.Model
		}
		if ch.JSON.Usage.Valid() {
			u = ch.Usage
		}
		for _, c := range ch.Choices {
			if c.Index != 0 {
				continue
			}
			if d := c.Delta.Content; d != "" {
				text.WriteString(d)
				onDelta(d)
			}
			think.WriteString(reasoning(c.Delta.JSON.ExtraFields))
			refusal.WriteString(c.Delta.Refusal)
			if c.FinishReason != "" {
				reason = c.FinishReason
			}
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	if reason == "" {
		return nil, errStreamCut
	}
	r := &llm.Reply{
		Text:      text.String(),
		Reasoning: think.String(),
		Finish:    finish(reason),
		Usage:     usage(&u),
		Model:     model,
		Raw:       streamRaw(last, text.String()),
	}
	if refusal.Len() > 0 {
		r.Finish, r.Refusal, r.Text = llm.FinishRefusal, refusal.String(), ""
	}
	return r, nil
}

// streamRaw is Reply.Raw for a stream: the last chunk as received and the joined text.
func streamRaw(last, text string) json.RawMessage {
	b, err := json.Marshal(struct {
		LastChunk json.RawMessage `json:"last_chunk,omitempty"`
		Text      string          `json:"text"`
	}{json.RawMessage(last), text})
	if err != nil {
		// The last chunk parsed as JSON a moment ago, so this cannot fail.
		panic(err)
	}
	return b
}

// reasoning reads the thinking text that DeepSeek, vLLM and Ollama send beside the
// answer, as reasoning_content or reasoning.
func reasoning(extra map[string]respjson.Field) string {
	for _, k := range []string{"reasoning_content", "reasoning"} {
		f, ok := extra[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal([]byte(f.Raw()), &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

func finish(reason string) llm.Finish {
	switch reason {
	case "stop":
		return llm.FinishStop
	case "length":
		return llm.FinishLength
	case "content_filter":
		return llm.FinishContentFilter
	}
	return llm.FinishOther
}

func usage(u *sdk.CompletionUsage) llm.Usage {
	return llm.Usage{
		InputTokens:     u.PromptTokens,
		OutputTokens:    u.CompletionTokens,
		ReasoningTokens: u.CompletionTokensDetails.ReasoningTokens,
		// Cached prompt tokens are part of PromptTokens.
		CachedInputTokens: u.PromptTokensDetails.CachedTokens,
	}
}

// translate turns whatever the SDK returned into one *llm.Error. resp is the HTTP
// response when one arrived.
func (m *Model) translate(ctx context.Context, err error, resp *http.Response) *llm.Error {
	var e *llm.Error
	var apiErr *sdk.Error
	status := 0
	if resp != nil {
		status = resp.StatusCode
	}
	if e := llm.ReplyTooLarge(m.provider, status, err); e != nil {
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
		code := apiErr.Code
		if code == "" {
			code = apiErr.Type
		}
		msg := apiErr.Message
		if msg == "" {
			msg = http.StatusText(apiErr.StatusCode)
		}
		e = llm.HTTPError(m.provider, apiErr.StatusCode, h, code, msg, err)
	case ctx.Err() != nil:
		e = llm.TransportError(m.provider, ctx.Err())
	case resp != nil && resp.StatusCode >= 400:
		// An error status whose body the SDK could not read as an error object.
		e = llm.HTTPError(m.provider, resp.StatusCode, resp.Header, "", http.StatusText(resp.StatusCode), err)
	case resp != nil:
		e = llm.BadResponse(m.provider, resp.StatusCode, err)
	default:
		e = llm.TransportError(m.provider, err)
	}
	return e.Redact(m.key)
}
