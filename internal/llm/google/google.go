// Package google adapts Gemini's generateContent API, through the official
// google.golang.org/genai SDK (Gemini API backend, API-key auth), to arbiter's llm
// vocabulary: thought parts become Reply.Reasoning, and a safety block of the prompt or
// of the answer is an outcome (FinishContentFilter), not an error.
//
// The SDK never retries and never continues a generation on its own, so Generate makes
// one HTTP request. Everything it could take from the environment (backend, key, base
// URL) is set explicitly from config.Endpoint, and constructing a Model makes no call.
// genai does not expose response headers, so the adapter's HTTP client records the
// status, headers and body of each exchange to read Retry-After and keep Reply.Raw.
package google

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"time"

	"google.golang.org/genai"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

const (
	// defaultBaseURL is the Gemini API's; it is set explicitly so that genai does not
	// take GOOGLE_GEMINI_BASE_URL from the environment.
	defaultBaseURL = "https://generativelanguage.googleapis.com/"
	apiVersion     = "v1beta"
)

// Options are the optional parts of a Model.
type Options struct {
	// HTTPClient sends the requests; nil means a client of the adapter's own.
	HTTPClient *http.Client
}

// Model is a Gemini model reached over the Gemini API.
type Model struct {
	name   llm.ModelName
	key    string
	client *genai.Client
}

// New returns a Model for name (google/model-id) at endpoint ep. A key is required
// unless ep.BaseURL names a server of the user's own.
func New(name llm.ModelName, ep config.Endpoint, opts Options) (*Model, error) {
	// A query on the base URL (?api-key=…) is sent with every request by the client.
	hc, base := llm.BaseQuery(llm.CapReplies(opts.HTTPClient), ep.BaseURL)
	key, err := ep.APIKey(base, "GEMINI_API_KEY")
	if err != nil {
		return nil, err
	}
	if base == "" {
		base = defaultBaseURL
	}
	c, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey:     key,
		Backend:    genai.BackendGeminiAPI,
		HTTPClient: recording(hc),
		HTTPOptions: genai.HTTPOptions{
			BaseURL:      base,
			APIVersion:   apiVersion,
			RetryOptions: &genai.HTTPRetryOptions{Attempts: genai.Ptr[int32](1)},
		},
	})
	if err != nil {
		// genai prints its whole config, key included, into some errors.
		return nil, fmt.Errorf("google: %s", strings.ReplaceAll(err.Error(), key, "REDACTED"))
	}
	return &Model{name: name, key: key, client: c}, nil
}

// Name implements llm.Model.
func (m *Model) Name() llm.ModelName { return m.name }

// Generate implements llm.Model. It makes exactly one HTTP request, streaming when
// req.OnDelta is set.
func (m *Model) Generate(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
	contents, cfg, err := m.params(req)
	if err != nil {
		return nil, err
	}
	x := &exchange{keepBody: req.OnDelta == nil}
	ctx = context.WithValue(ctx, exchangeKey{}, x)
	start := time.Now()
	var reply *llm.Reply
	if req.OnDelta != nil {
		onDelta, flush := llm.RedactDeltas(req.OnDelta, m.key)
		if reply, err = m.stream(ctx, contents, cfg, onDelta); err == nil {
			flush()
		}
	} else {
		reply, err = m.complete(ctx, contents, cfg, x)
	}
	if err != nil {
		return nil, m.translate(ctx, err, x)
	}
	reply.Latency = time.Since(start)
	reply.Attempts = 1
	return reply.Redact(m.key), nil
}

func (m *Model) params(req *llm.Request) ([]*genai.Content, *genai.GenerateContentConfig, error) {
	cfg := &genai.GenerateContentConfig{
		// A continuation would be a second request that the retry wrapper never sees.
		AutomaticContinuation: genai.Ptr(false),
	}
	if req.System != "" {
		cfg.SystemInstruction = &genai.Content{Parts: []*genai.Part{{Text: req.System}}}
	}
	contents := make([]*genai.Content, 0, len(req.Messages))
	for i, msg := range req.Messages {
		var role string
		switch msg.Role {
		case llm.RoleUser:
			role = genai.RoleUser
		case llm.RoleAssistant:
			role = genai.RoleModel
		default:
			return nil, nil, m.invalid(fmt.Sprintf("message %d has role %q; want user or assistant", i, msg.Role))
		}
		contents = append(contents, &genai.Content{Role: role, Parts: []*genai.Part{{Text: msg.Text}}})
	}
	if req.Temperature != nil {
		cfg.Temperature = genai.Ptr(float32(*req.Temperature))
	}
	if req.TopP != nil {
		cfg.TopP = genai.Ptr(float32(*req.TopP))
	}
	if req.Seed != nil {
		if *req.Seed < math.MinInt32 || *req.Seed > math.MaxInt32 {
			return nil, nil, m.invalid(fmt.Sprintf("seed %d does not fit Gemini's 32 bits", *req.Seed))
		}
		cfg.Seed = genai.Ptr(int32(*req.Seed))
	}
	if req.MaxTokens > 0 {
		cfg.MaxOutputTokens = int32(min(req.MaxTokens, math.MaxInt32))
	}
	if err := m.thinking(req, cfg); err != nil {
		return nil, nil, err
	}
	if len(req.JSONSchema) > 0 {
		var schema any
		if err := json.Unmarshal(req.JSONSchema, &schema); err != nil {
			return nil, nil, m.invalid(fmt.Sprintf("JSON schema: %v", err))
		}
		cfg.ResponseMIMEType = "application/json"
		cfg.ResponseJsonSchema = schema
	}
	return contents, cfg, nil
}

func (m *Model) invalid(msg string) *llm.Error {
	return &llm.Error{Provider: m.name.Provider(), Code: "invalid_request", Message: msg}
}

// errNoCandidates and errStreamCut are 2xx responses without an answer in them;
// translate turns them into retryable bad-response errors.
var (
	errNoCandidates = errors.New("response has neither candidates nor a prompt block")
	errStreamCut    = errors.New("stream ended before a finishReason")
)

func (m *Model) complete(ctx context.Context, contents []*genai.Content, cfg *genai.GenerateContentConfig, x *exchange) (*llm.Reply, error) {
	resp, err := m.client.Models.GenerateContent(ctx, m.name.ID(), contents, cfg)
	if err != nil {
		return nil, err
	}
	var text, think strings.Builder
	collect(resp, &text, &think, nil)
	r, err := outcome(resp, text.String(), think.String())
	if err != nil {
		return nil, err
	}
	if json.Valid(x.body.Bytes()) {
		r.Raw = json.RawMessage(bytes.Clone(x.body.Bytes()))
	}
	return r, nil
}

func (m *Model) stream(ctx context.Context, contents []*genai.Content, cfg *genai.GenerateContentConfig, onDelta func(string)) (*llm.Reply, error) {
	var text, think strings.Builder
	var last *genai.GenerateContentResponse
	var usage *genai.GenerateContentResponseUsageMetadata
	for chunk, err := range m.client.Models.GenerateContentStream(ctx, m.name.ID(), contents, cfg) {
		if err != nil {
			return nil, err
		}
		collect(chunk, &text, &think, onDelta)
		if chunk.UsageMetadata != nil {
			usage = chunk.UsageMetadata
		}
		last = chunk
	}
	if last == nil {
		return nil, errStreamCut
	}
	final := *last
	final.UsageMetadata = usage
	final.SDKHTTPResponse = nil
	if !blocked(&final) && (len(final.Candidates) == 0 || final.Candidates[0].FinishReason == "") {
		return nil, errStreamCut
	}
	r, err := outcome(&final, text.String(), think.String())
	if err != nil {
		return nil, err
	}
	r.Raw = streamRaw(&final, text.String())
	return r, nil
}

// collect appends the first candidate's answer and thought text, calling onDelta, when
// set, with each piece of answer.
func collect(resp *genai.GenerateContentResponse, text, think *strings.Builder, onDelta func(string)) {
	if len(resp.Candidates) == 0 || resp.Candidates[0] == nil || resp.Candidates[0].Content == nil {
		return
	}
	for _, p := range resp.Candidates[0].Content.Parts {
		switch {
		case p == nil || p.Text == "":
		case p.Thought:
			think.WriteString(p.Text)
		default:
			text.WriteString(p.Text)
			if onDelta != nil {
				onDelta(p.Text)
			}
		}
	}
}

func blocked(resp *genai.GenerateContentResponse) bool {
	return resp.PromptFeedback != nil && resp.PromptFeedback.BlockReason != "" &&
		resp.PromptFeedback.BlockReason != genai.BlockedReasonUnspecified
}

// outcome is the Reply for a whole response whose text has been collected.
func outcome(resp *genai.GenerateContentResponse, text, think string) (*llm.Reply, error) {
	r := &llm.Reply{Text: text, Reasoning: think, Model: resp.ModelVersion, Usage: usage(resp.UsageMetadata)}
	if blocked(resp) {
		pf := resp.PromptFeedback
		r.Finish = llm.FinishContentFilter
		r.Refusal = pf.BlockReasonMessage
		if r.Refusal == "" {
			r.Refusal = "prompt blocked: " + string(pf.BlockReason)
		}
		return r, nil
	}
	if len(resp.Candidates) == 0 || resp.Candidates[0] == nil {
		return nil, errNoCandidates
	}
	c := resp.Candidates[0]
	r.Finish = finish(c.FinishReason)
	if r.Finish == llm.FinishContentFilter {
		r.Refusal = c.FinishMessage
		if r.Refusal == "" {
			r.Refusal = "answer blocked: " + string(c.FinishReason)
		}
	}
	return r, nil
}

func finish(reason genai.FinishReason) llm.Finish {
	switch reason {
	case genai.FinishReasonStop:
		return llm.FinishStop
	case genai.FinishReasonMaxTokens:
		return llm.FinishLength
	case genai.FinishReasonSafety, genai.FinishReasonProhibitedContent, genai.FinishReasonBlocklist,
		genai.FinishReasonSPII, genai.FinishReasonRecitation, genai.FinishReasonImageSafety,
		genai.FinishReasonImageProhibitedContent:
		return llm.FinishContentFilter
	}
	return llm.FinishOther
}

// usage counts thoughts as output, as OpenAI and Anthropic do: Gemini reports them
// apart from candidatesTokenCount.
func usage(u *genai.GenerateContentResponseUsageMetadata) llm.Usage {
	if u == nil {
		return llm.Usage{}
	}
	return llm.Usage{
		InputTokens:     int64(u.PromptTokenCount),
		OutputTokens:    int64(u.CandidatesTokenCount) + int64(u.ThoughtsTokenCount),
		ReasoningTokens: int64(u.ThoughtsTokenCount),
	}
}

// streamRaw is Reply.Raw for a stream: the last chunk, with the stream's usage, and the
// joined text.
func streamRaw(last *genai.GenerateContentResponse, text string) json.RawMessage {
	b, err := json.Marshal(struct {
		LastChunk *genai.GenerateContentResponse `json:"last_chunk"`
		Text      string                         `json:"text"`
	}{last, text})
	if err != nil {
		return nil
	}
	return b
}

// grpcStatus gives an error that arrives inside a 200 stream, which carries only its
// gRPC status name, the HTTP status it would have had.
var grpcStatus = map[string]int{
	"INVALID_ARGUMENT":    http.StatusBadRequest,
	"FAILED_PRECONDITION": http.StatusBadRequest,
	"UNAUTHENTICATED":     http.StatusUnauthorized,
	"PERMISSION_DENIED":   http.StatusForbidden,
	"NOT_FOUND":           http.StatusNotFound,
	"RESOURCE_EXHAUSTED":  http.StatusTooManyRequests,
	"CANCELLED":           499,
	"INTERNAL":            http.StatusInternalServerError,
	"UNAVAILABLE":         http.StatusServiceUnavailable,
	"DEADLINE_EXCEEDED":   http.StatusGatewayTimeout,
}

// translate turns whatever genai returned into one *llm.Error; x holds what the HTTP
// client saw of the exchange.
func (m *Model) translate(ctx context.Context, err error, x *exchange) *llm.Error {
	provider := m.name.Provider()
	var e *llm.Error
	var apiErr genai.APIError
	if x.tooLarge {
		// genai reports the half line the cap left it, not why the line was cut.
		err = fmt.Errorf("%w: %w", llm.ErrReplyTooLarge, err)
	}
	if e := llm.ReplyTooLarge(provider, x.status, err); e != nil {
		return e
	}
	switch {
	case errors.As(err, &e):
		return e
	case errors.As(err, &apiErr):
		status := apiErr.Code
		if status < 400 {
			status = x.status
		}
		if status < 400 {
			var ok bool
			if status, ok = grpcStatus[apiErr.Status]; !ok {
				status = http.StatusInternalServerError
			}
		}
		e = llm.HTTPError(provider, status, x.header, apiErr.Status, apiErr.Message, err)
		if e.RetryAfter == 0 {
			e.RetryAfter = retryInfo(apiErr.Details)
		}
	case ctx.Err() != nil:
		e = llm.TransportError(provider, ctx.Err())
	case x.status >= 400:
		e = llm.HTTPError(provider, x.status, x.header, "", http.StatusText(x.status), err)
	case x.status != 0:
		e = llm.BadResponse(provider, x.status, err)
	default:
		e = llm.TransportError(provider, err)
	}
	return e.Redact(m.key)
}

// retryInfo reads the wait from a google.rpc.RetryInfo detail, which is how Gemini says
// how long to back off.
func retryInfo(details []map[string]any) time.Duration {
	for _, d := range details {
		if t, _ := d["@type"].(string); !strings.HasSuffix(t, "google.rpc.RetryInfo") {
			continue
		}
		s, _ := d["retryDelay"].(string)
		if v, err := time.ParseDuration(s); err == nil && v > 0 {
			return v
		}
	}
	return 0
}

// exchange is what the HTTP client saw of one Generate call: genai hides the response's
// status and headers, and keeps no copy of its body.
type exchange struct {
	status   int
	header   http.Header
	keepBody bool
	body     bytes.Buffer
	// tooLarge says the body was cut off at llm.MaxReplyBytes.
	tooLarge bool
}

type exchangeKey struct{}

// recorder is an http.RoundTripper that fills in the exchange carried by the request's
// context. genai sends each request from the caller's goroutine and reads the body there
// too, so the exchange needs no lock.
type recorder struct{ next http.RoundTripper }

func (r recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	x, ok := req.Context().Value(exchangeKey{}).(*exchange)
	if !ok || resp == nil {
		return resp, err
	}
	x.status, x.header = resp.StatusCode, resp.Header
	var body io.Reader = resp.Body
	if x.keepBody {
		body = io.TeeReader(resp.Body, &x.body)
	}
	resp.Body = teeBody{r: body, c: resp.Body, x: x}
	return resp, err
}

// teeBody reads the response through r, noting in x when the size cap cut it off.
type teeBody struct {
	r io.Reader
	c io.Closer
	x *exchange
}

func (t teeBody) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if errors.Is(err, llm.ErrReplyTooLarge) {
		t.x.tooLarge = true
	}
	return n, err
}

func (t teeBody) Close() error { return t.c.Close() }

// recording returns a copy of c whose transport records exchanges.
func recording(c *http.Client) *http.Client {
	rc := *c
	next := rc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	rc.Transport = recorder{next: next}
	return &rc
}
