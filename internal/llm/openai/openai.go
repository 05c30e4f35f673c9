// Package openai adapts OpenAI's Chat Completions API, through the official openai-go SDK,
// to arbiter's llm vocabulary. The same adapter serves every OpenAI-compatible server:
// Ollama's /v1 endpoint and the presets of the config file (DeepSeek, vLLM, …), whose
// reasoning_content it reads as Reply.Reasoning.
//
// The SDK never retries (retries live in package llm) and never reads the environment
// (keys come from config.Endpoint). Every failure leaves Generate as one *llm.Error.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
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
	// lastKey is the system prompt last given a prompt cache key, and its key: a run
	// sends the same system prompt with every request.
	lastKey atomic.Pointer[[2]string]
}

// cacheKey is promptCacheKey(system), from lastKey when system is the last one asked.
func (m *Model) cacheKey(system string) string {
	if k := m.lastKey.Load(); k != nil && k[0] == system {
		return k[1]
	}
	k := [2]string{system, promptCacheKey(system)}
	m.lastKey.Store(&k)
	return k[1]
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
	body, err := m.body(req, req.OnDelta != nil)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	var resp *http.Response
	var reply *llm.Reply
	if req.OnDelta != nil {
		onDelta, flush := llm.RedactDeltas(req.OnDelta, m.key)
		if reply, err = m.stream(ctx, body, onDelta, &resp); err == nil {
			flush()
		}
	} else {
		reply, err = m.complete(ctx, body, &resp)
	}
	if err != nil {
		return nil, m.translate(ctx, err, resp)
	}
	reply.Latency = time.Since(start)
	reply.Attempts = 1
	return reply.Redact(m.key), nil
}

var schemaNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// chatRequest is the body of a Chat Completions request: the fields arbiter sends, in the
// order and encoding of the SDK's ChatCompletionNewParams (TestBodyMatchesSDK holds them
// to it). The SDK sends it (WithRequestBody) as it would its own params: encoding those
// by reflection, with their union and omission bookkeeping, cost three times as much CPU
// as encoding this, for every request of a run.
type chatRequest struct {
	Messages            []chatMessage   `json:"messages"`
	Model               string          `json:"model"`
	MaxCompletionTokens int64           `json:"max_completion_tokens,omitempty"`
	PromptCacheKey      string          `json:"prompt_cache_key,omitempty"`
	Seed                *int64          `json:"seed,omitempty"`
	Temperature         *float64        `json:"temperature,omitempty"`
	TopP                *float64        `json:"top_p,omitempty"`
	ReasoningEffort     string          `json:"reasoning_effort,omitempty"`
	StreamOptions       *streamOptions  `json:"stream_options,omitempty"`
	ResponseFormat      *responseFormat `json:"response_format,omitempty"`
}

type chatMessage struct {
	Content string `json:"content"`
	Role    string `json:"role"`
}

type responseFormat struct {
	JSONSchema struct {
		Name   string          `json:"name"`
		Schema json.RawMessage `json:"schema"`
	} `json:"json_schema"`
	Type string `json:"type"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// body checks req and encodes it as the body of a Chat Completions request: the one
// encoding a request asked at once, streamed, or put in a batch's line has.
func (m *Model) body(req *llm.Request, stream bool) ([]byte, error) {
	c := chatRequest{Model: m.name.ID(), Messages: make([]chatMessage, 0, len(req.Messages)+1)}
	if req.System != "" {
		c.Messages = append(c.Messages, chatMessage{Content: req.System, Role: "system"})
	}
	for i, msg := range req.Messages {
		switch msg.Role {
		case llm.RoleUser, llm.RoleAssistant:
			c.Messages = append(c.Messages, chatMessage{Content: msg.Text, Role: string(msg.Role)})
		default:
			return nil, m.invalid(fmt.Sprintf("message %d has role %q; want user or assistant", i, msg.Role))
		}
	}
	if req.System != "" && m.provider == "openai" {
		// Requests with the same system prompt share a cache key, so OpenAI routes them
		// to the same prompt cache. Other OpenAI-compatible servers may refuse the field.
		c.PromptCacheKey = m.cacheKey(req.System)
	}
	c.Temperature, c.TopP, c.Seed = req.Temperature, req.TopP, req.Seed
	if req.MaxTokens > 0 {
		c.MaxCompletionTokens = int64(req.MaxTokens)
	}
	if err := m.reasoning(req, &c); err != nil {
		return nil, err
	}
	if len(req.JSONSchema) > 0 {
		if !json.Valid(req.JSONSchema) {
			return nil, m.invalid("JSON schema is not valid JSON")
		}
		name := req.SchemaName
		if !schemaNameRE.MatchString(name) {
			name = defaultSchemaName
		}
		c.ResponseFormat = &responseFormat{Type: "json_schema"}
		c.ResponseFormat.JSONSchema.Name, c.ResponseFormat.JSONSchema.Schema = name, req.JSONSchema
	}
	if stream {
		c.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	// Sized once for the text it will hold, rather than grown through every power of two.
	size := len(req.System) + len(req.JSONSchema) + 256
	for _, msg := range req.Messages {
		size += len(msg.Text) + 32
	}
	b := bytes.NewBuffer(make([]byte, 0, size+size/8))
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false) // as the SDK: a prompt's <tags> go as written
	if err := enc.Encode(&c); err != nil {
		return nil, m.invalid(err.Error())
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
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

func (m *Model) complete(ctx context.Context, body []byte, resp **http.Response) (*llm.Reply, error) {
	var answer []byte
	_, err := m.svc.New(ctx, sdk.ChatCompletionNewParams{}, option.WithRequestBody("application/json", body),
		option.WithResponseInto(resp), option.WithResponseBodyInto(&answer))
	if err != nil {
		return nil, err
	}
	return completionBody(answer)
}

// chatCompletion is the part of a chat completion a reply is made of. The SDK sends the
// request and reads errors; the body of a successful answer is read here, into this small
// type, rather than into the SDK's ChatCompletion: decoding that type (every field, with
// a record of each field's presence) was a fifth of the CPU time of a run's asking.
type chatCompletion struct {
	Model   string `json:"model"`
	Choices []struct {
		Index        int64  `json:"index"`
		FinishReason string `json:"finish_reason"`
		Message      struct {
			Content string `json:"content"`
			Refusal string `json:"refusal"`
			// ReasoningContent and Reasoning are the thinking text DeepSeek, vLLM and
			// Ollama send beside the answer; raw, for a server may send something other
			// than a string there.
			ReasoningContent json.RawMessage `json:"reasoning_content"`
			Reasoning        json.RawMessage `json:"reasoning"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens            int64 `json:"prompt_tokens"`
		CompletionTokens        int64 `json:"completion_tokens"`
		CompletionTokensDetails struct {
			ReasoningTokens int64 `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
		PromptTokensDetails struct {
			CachedTokens int64 `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
}

// completionBody turns the body of a chat completion into a reply, for complete and for
// a batch's lines: errNoChoices when it holds no answer, a decoding error when it is not
// a chat completion.
func completionBody(body []byte) (*llm.Reply, error) {
	var c chatCompletion
	if err := json.Unmarshal(body, &c); err != nil {
		return nil, fmt.Errorf("reading the chat completion: %w", err)
	}
	if len(c.Choices) == 0 {
		return nil, errNoChoices
	}
	ch := &c.Choices[0]
	r := &llm.Reply{
		Text:      ch.Message.Content,
		Reasoning: reasoningText(ch.Message.ReasoningContent, ch.Message.Reasoning),
		Finish:    finish(ch.FinishReason),
		Usage: llm.Usage{
			InputTokens:     c.Usage.PromptTokens,
			OutputTokens:    c.Usage.CompletionTokens,
			ReasoningTokens: c.Usage.CompletionTokensDetails.ReasoningTokens,
			// Cached prompt tokens are part of PromptTokens.
			CachedInputTokens: c.Usage.PromptTokensDetails.CachedTokens,
		},
		Model:    c.Model,
		Raw:      json.RawMessage(body),
		Attempts: 1,
	}
	if ch.Message.Refusal != "" {
		r.Finish, r.Refusal, r.Text = llm.FinishRefusal, ch.Message.Refusal, ""
	}
	return r, nil
}

func (m *Model) stream(ctx context.Context, body []byte, onDelta func(string), resp **http.Response) (*llm.Reply, error) {
	// The SDK adds "stream": true to the body.
	s := m.svc.NewStreaming(ctx, sdk.ChatCompletionNewParams{}, option.WithRequestBody("application/json", body),
		option.WithResponseInto(resp))
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
// answer, as reasoning_content or reasoning, from a stream's delta.
func reasoning(extra map[string]respjson.Field) string {
	var raws [2]json.RawMessage
	for i, k := range []string{"reasoning_content", "reasoning"} {
		if f, ok := extra[k]; ok {
			raws[i] = json.RawMessage(f.Raw())
		}
	}
	return reasoningText(raws[0], raws[1])
}

// reasoningText is the first of raws that is a non-empty JSON string.
func reasoningText(raws ...json.RawMessage) string {
	for _, raw := range raws {
		var s string
		if len(raw) > 0 && json.Unmarshal(raw, &s) == nil && s != "" {
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
