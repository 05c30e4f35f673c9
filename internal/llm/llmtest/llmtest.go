// Package llmtest owns arbiter's stand-in model servers: one HTTP server on 127.0.0.1 that
// speaks the real wire formats of OpenAI Chat Completions, Anthropic Messages and Gemini
// generateContent, JSON and SSE streaming alike, so the provider packages are tested
// through their official SDKs without touching the network.
//
// A test scripts replies with a Responder, which sees each request decoded into one
// protocol-neutral Request and returns a Response: text, reasoning, a refusal, a finish
// reason, token counts or a Fault (rate limits, server errors, hangs, cut streams,
// malformed bodies, reset connections). A seeded FaultPlan injects faults at random with
// given probabilities. The server counts requests in total, per status and per distinct
// body, so a test can assert that nothing was sent twice.
//
// NewServer needs no *testing.T: benchmarks and end-to-end tests of the arbiter binary
// use the same server.
package llmtest

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// Protocol names a wire format the server speaks.
type Protocol string

// The protocols served.
const (
	OpenAI    Protocol = "openai"
	Anthropic Protocol = "anthropic"
	Gemini    Protocol = "gemini"
)

// Request is one request as the server understood it, whatever protocol it came in.
type Request struct {
	Protocol Protocol
	Model    string
	// System is the system prompt: OpenAI system and developer messages, Anthropic's
	// system field or Gemini's systemInstruction, joined by blank lines.
	System   string
	Messages []llm.Message
	// The generation options, nil or zero when the request did not send them.
	Temperature *float64
	TopP        *float64
	MaxTokens   int64
	Seed        *int64
	// ReasoningEffort is OpenAI's reasoning_effort; ThinkingBudget is Anthropic's
	// thinking.budget_tokens or Gemini's thinkingConfig.thinkingBudget (nil: not sent).
	ReasoningEffort string
	ThinkingBudget  *int64
	// IncludeThoughts is Gemini's thinkingConfig.includeThoughts.
	IncludeThoughts bool
	// JSONSchema is the schema of a structured-output request.
	JSONSchema json.RawMessage
	Stream     bool
	// IncludeUsage is OpenAI's stream_options.include_usage.
	IncludeUsage bool
	Header       http.Header
	// Query is the URL's query, where Azure-style gateways take their key (?api-key=).
	Query url.Values
	Body  []byte
	// BodyHash is the hex SHA-256 of Body.
	BodyHash string
	// Attempt counts the arrivals of this exact body so far, 1 for the first.
	Attempt int
}

// LastUser is the text of the last user message, or "" when there is none.
func (r *Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == llm.RoleUser {
			return r.Messages[i].Text
		}
	}
	return ""
}

// Response is what a Responder wants sent back.
type Response struct {
	Text string
	// Reasoning is sent the way each protocol carries thinking: reasoning_content for
	// OpenAI-compatible servers, a thinking block for Anthropic, thought parts for Gemini.
	Reasoning string
	// Refusal makes the reply a refusal: message.refusal for OpenAI, stop_reason
	// "refusal" for Anthropic, finishReason SAFETY with no content for Gemini.
	Refusal string
	// Blocked rejects the prompt itself: promptFeedback.blockReason for Gemini, finish
	// content_filter for OpenAI, stop_reason refusal for Anthropic.
	Blocked bool
	// Finish overrides the finish reason, translated into each protocol's own value.
	Finish llm.Finish
	// WireFinish, when set, is sent verbatim as the finish reason ("PROHIBITED_CONTENT").
	WireFinish string
	// Token counts; zero means counted from the words of the prompt and the reply.
	InputTokens     int64
	OutputTokens    int64
	ReasoningTokens int64
	// CachedInputTokens is how many of the input tokens the provider's prompt cache
	// served: prompt_tokens_details.cached_tokens for OpenAI, cache_read_input_tokens
	// (and an input_tokens without them) for Anthropic.
	CachedInputTokens int64
	// Model overrides the model id reported back (default: the one requested).
	Model string
	Fault Fault
}

// Responder scripts the server's replies. It is called concurrently.
type Responder func(req *Request) Response

// Echo is the default Responder: it replies "echo: " and the last user message.
func Echo(req *Request) Response {
	return Response{Text: "echo: " + req.LastUser()}
}

// Options configure a Server. The zero value echoes every request without faults.
type Options struct {
	Responder Responder
	// FaultPlan, when set, injects random faults before the Responder is asked.
	FaultPlan *FaultPlan
	// Latency delays every request before it is answered.
	Latency time.Duration
	// HangCap bounds how long a hung request blocks when neither the client nor Close
	// ends it; the connection is then dropped. Default 30s.
	HangCap time.Duration
	// Chunks is the most text pieces a streamed reply is cut into. Default 8.
	Chunks int
	// EndlessCap bounds the body of FaultEndless, so that a client without a limit of
	// its own fails a test instead of the machine. Default 64 MiB.
	EndlessCap int64
}

const (
	defaultHangCap = 30 * time.Second
	defaultChunks  = 8
	// defaultEndlessCap is 8 times llm.MaxReplyBytes.
	defaultEndlessCap = 64 << 20
)

// Server is a running stand-in. Its methods are safe for concurrent use.
type Server struct {
	// URL is the server's root, http://127.0.0.1:port, which is the base URL for the
	// Anthropic and Gemini SDKs and, since /chat/completions is served at the root too,
	// for OpenAI-compatible clients as well.
	URL string

	opts Options
	srv  *http.Server
	quit chan struct{}
	once sync.Once
	seq  atomic.Int64

	// handlers tracks running handlers so that Close can wait for them; closing, under
	// closeMu, stops new ones from joining once Close has begun to wait.
	closeMu  sync.RWMutex
	closing  bool
	handlers sync.WaitGroup

	total  atomic.Int64
	status [600]atomic.Int64

	mu     sync.Mutex
	bodies map[[sha256.Size]byte]int
}

// NewServer starts a server on 127.0.0.1 on a free port. Like httptest.NewServer it
// panics if it cannot listen or if the options are invalid; call Close when done.
func NewServer(opts Options) *Server {
	if opts.Responder == nil {
		opts.Responder = Echo
	}
	if opts.HangCap <= 0 {
		opts.HangCap = defaultHangCap
	}
	if opts.Chunks <= 0 {
		opts.Chunks = defaultChunks
	}
	if opts.EndlessCap <= 0 {
		opts.EndlessCap = defaultEndlessCap
	}
	if opts.FaultPlan != nil {
		if err := opts.FaultPlan.validate(); err != nil {
			panic("llmtest: " + err.Error())
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(fmt.Sprintf("llmtest: listen: %v", err))
	}
	s := &Server{
		URL:    "http://" + ln.Addr().String(),
		opts:   opts,
		quit:   make(chan struct{}),
		bodies: make(map[[sha256.Size]byte]int),
	}
	mux := http.NewServeMux()
	oa, an, ge := openaiCodec{}, anthropicCodec{}, geminiCodec{}
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) { s.serve(oa, w, r) })
	mux.HandleFunc("POST /chat/completions", func(w http.ResponseWriter, r *http.Request) { s.serve(oa, w, r) })
	mux.HandleFunc("POST /v1/messages", func(w http.ResponseWriter, r *http.Request) { s.serve(an, w, r) })
	mux.HandleFunc("POST /v1beta/models/{call}", func(w http.ResponseWriter, r *http.Request) { s.serve(ge, w, r) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.total.Add(1)
		s.status[http.StatusNotFound].Add(1)
		http.Error(w, "llmtest: no such endpoint: "+r.Method+" "+r.URL.Path, http.StatusNotFound)
	})
	s.srv = &http.Server{Handler: s.track(mux), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s
}

// OpenAIBaseURL is the base URL as OpenAI SDKs expect it, ending in /v1.
func (s *Server) OpenAIBaseURL() string { return s.URL + "/v1" }

// Close releases hung and delayed requests, closes every connection and waits for the
// handlers to return, so that no Responder runs after it. It is safe to call more than
// once.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.quit)
		s.srv.Close()
		s.closeMu.Lock()
		s.closing = true
		s.closeMu.Unlock()
		s.handlers.Wait()
	})
}

// track runs h for each request unless the server is closing, counting it in handlers.
func (s *Server) track(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.closeMu.RLock()
		if s.closing {
			s.closeMu.RUnlock()
			panic(http.ErrAbortHandler)
		}
		s.handlers.Add(1)
		s.closeMu.RUnlock()
		defer s.handlers.Done()
		h.ServeHTTP(w, r)
	})
}

// Stats is a snapshot of what the server has seen.
type Stats struct {
	Requests int64
	// ByStatus counts responses by HTTP status; 0 counts requests that got none (a
	// reset connection, a hang the client gave up on).
	ByStatus map[int]int64
	// Distinct is the number of different request bodies.
	Distinct int
	// MaxRepeats is the most times any one body arrived: 1 means nothing was sent twice.
	MaxRepeats int
}

// Stats returns the counts so far.
func (s *Server) Stats() Stats {
	st := Stats{Requests: s.total.Load(), ByStatus: map[int]int64{}}
	for code := range s.status {
		if n := s.status[code].Load(); n > 0 {
			st.ByStatus[code] = n
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st.Distinct = len(s.bodies)
	for _, n := range s.bodies {
		st.MaxRepeats = max(st.MaxRepeats, n)
	}
	return st
}

// Requests is the number of requests received.
func (s *Server) Requests() int64 { return s.total.Load() }

// StatusCount is the number of responses sent with status code (0: none sent).
func (s *Server) StatusCount(code int) int64 {
	if code < 0 || code >= len(s.status) {
		return 0
	}
	return s.status[code].Load()
}

// BodyCount is how many times a request with exactly this body arrived.
func (s *Server) BodyCount(body []byte) int {
	sum := sha256.Sum256(body)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies[sum]
}

// Bodies maps the hex SHA-256 of every body received to its number of arrivals.
func (s *Server) Bodies() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := make(map[string]int, len(s.bodies))
	for sum, n := range s.bodies {
		m[hex.EncodeToString(sum[:])] = n
	}
	return m
}

func (s *Server) countBody(sum [sha256.Size]byte) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bodies[sum]++
	return s.bodies[sum]
}

// codec is one protocol's half of the conversation: reading its requests and writing
// its replies, stream events and error bodies.
type codec interface {
	protocol() Protocol
	decode(r *http.Request, body []byte, req *Request) error
	// reply is the JSON body of a whole reply.
	reply(req *Request, o *outcome) any
	// events is a streamed reply, in order.
	events(req *Request, o *outcome) []event
	// sse says whether a stream is framed as server-sent events (false: one JSON
	// array, as Gemini does without alt=sse).
	sse(r *http.Request) bool
	errorBody(status int, f Fault, msg string) any
	// errorHeaders adds protocol-specific headers to an error reply (retry-after-ms).
	errorHeaders(h http.Header, f Fault)
	malformed(stream bool) []byte
}

// event is one server-sent event; name is empty for protocols that send none.
type event struct {
	name string
	data any
}

// outcome is a Response resolved against its request: defaults applied, tokens counted.
type outcome struct {
	id                       string
	created                  int64
	model                    string
	text, reasoning, refusal string
	finish                   llm.Finish
	wireFinish               string
	blocked                  bool
	in, out, thinking        int64
	cached                   int64
	pieces                   int
}

func (s *Server) resolve(req *Request, resp Response) *outcome {
	o := &outcome{
		id:         fmt.Sprintf("llmtest%08d", s.seq.Add(1)),
		created:    time.Now().Unix(),
		model:      cmp.Or(resp.Model, req.Model),
		text:       resp.Text,
		reasoning:  resp.Reasoning,
		refusal:    resp.Refusal,
		finish:     resp.Finish,
		wireFinish: resp.WireFinish,
		blocked:    resp.Blocked,
		pieces:     s.opts.Chunks,
	}
	if o.finish == "" {
		switch {
		case resp.Blocked:
			o.finish = llm.FinishContentFilter
		case resp.Refusal != "":
			o.finish = llm.FinishRefusal
		default:
			o.finish = llm.FinishStop
		}
	}
	o.in = resp.InputTokens
	if o.in == 0 {
		n := words(req.System)
		for _, m := range req.Messages {
			n += words(m.Text)
		}
		o.in = max(n, 1)
	}
	o.cached = min(resp.CachedInputTokens, o.in)
	o.thinking = resp.ReasoningTokens
	if o.thinking == 0 {
		o.thinking = words(resp.Reasoning)
	}
	o.out = resp.OutputTokens
	if o.out == 0 && !resp.Blocked {
		o.out = max(words(resp.Text)+words(resp.Refusal)+o.thinking, 1)
	}
	return o
}

func words(s string) int64 { return int64(len(strings.Fields(s))) }

// pieces cuts s into at most n pieces at word boundaries, each piece keeping the space
// that follows its words, so that the pieces joined are s again.
func pieces(s string, n int) []string {
	if s == "" {
		return nil
	}
	var ws []string
	start := 0
	for i := 1; i < len(s); i++ {
		if s[i-1] == ' ' && s[i] != ' ' {
			ws = append(ws, s[start:i])
			start = i
		}
	}
	ws = append(ws, s[start:])
	if len(ws) <= n {
		return ws
	}
	out := make([]string, 0, n)
	per := (len(ws) + n - 1) / n
	for i := 0; i < len(ws); i += per {
		out = append(out, strings.Join(ws[i:min(i+per, len(ws))], ""))
	}
	return out
}

func (s *Server) serve(c codec, w http.ResponseWriter, r *http.Request) {
	s.total.Add(1)
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.drop()
	}
	sum := sha256.Sum256(body)
	req := &Request{
		Protocol: c.protocol(),
		Header:   r.Header,
		Query:    r.URL.Query(),
		Body:     body,
		BodyHash: hex.EncodeToString(sum[:]),
		Attempt:  s.countBody(sum),
	}
	if err := c.decode(r, body, req); err != nil {
		s.writeError(c, w, Fault{Kind: FaultBadRequest}, http.StatusBadRequest, err.Error())
		return
	}
	if !s.wait(r.Context(), s.opts.Latency) {
		s.drop()
	}
	fault, planned := s.opts.FaultPlan.draw(sum, req.Attempt)
	var resp Response
	if !planned {
		resp = s.opts.Responder(req)
		fault = resp.Fault
	}
	switch fault.Kind {
	case FaultNone:
	case FaultSlow:
		if !s.wait(r.Context(), cmp.Or(fault.Delay, defaultSlowDelay)) {
			s.drop()
		}
	case FaultHang:
		s.hang(r.Context())
		return
	case FaultReset:
		s.reset(w)
		return
	case FaultMalformed:
		s.writeMalformed(c, w, r, req)
		return
	case FaultEndless:
		s.writeEndless(c, w, r, req)
		return
	case FaultTruncate:
	default:
		status, msg, ok := fault.Kind.status()
		if !ok {
			s.writeError(c, w, fault, http.StatusInternalServerError, fmt.Sprintf("llmtest: unknown fault kind %q", fault.Kind))
			return
		}
		if fault.Kind == FaultUnauthorized {
			msg += credential(req.Header)
		}
		s.writeError(c, w, fault, status, msg)
		return
	}
	o := s.resolve(req, resp)
	cut := fault.Kind == FaultTruncate
	if req.Stream {
		s.writeStream(c, w, r, req, o, cut)
		return
	}
	s.writeJSON(w, http.StatusOK, c.reply(req, o), cut)
}

// wait sleeps for d unless the client leaves or the server closes first.
func (s *Server) wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.quit:
		return false
	}
}

// hang blocks until the client gives up, the server closes or the cap passes, then drops
// the connection without a response.
func (s *Server) hang(ctx context.Context) {
	t := time.NewTimer(s.opts.HangCap)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-s.quit:
	case <-t.C:
	}
	s.drop()
}

// drop ends the request without a response: net/http closes the connection. It does
// not return.
func (s *Server) drop() {
	s.status[0].Add(1)
	panic(http.ErrAbortHandler)
}

// reset hijacks the connection and closes it with SO_LINGER 0, so the client sees a
// TCP reset instead of a response.
func (s *Server) reset(w http.ResponseWriter) {
	s.status[0].Add(1)
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	conn.Close()
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuf() *bytes.Buffer {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func putBuf(b *bytes.Buffer) {
	if b.Cap() <= 1<<16 {
		bufPool.Put(b)
	}
}

// encode appends v's JSON to b without a trailing newline or HTML escaping.
func encode(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Every value encoded here is built by this package from strings and numbers.
		panic(fmt.Sprintf("llmtest: encode %T: %v", v, err))
	}
	b.Truncate(b.Len() - 1)
}

// writeJSON sends v as a JSON body. With cut, it promises the whole body in
// Content-Length, sends half and drops the connection.
func (s *Server) writeJSON(w http.ResponseWriter, status int, v any, cut bool) {
	b := getBuf()
	defer putBuf(b)
	encode(b, v)
	s.send(w, status, "application/json", b.Len())
	if !cut {
		w.Write(b.Bytes())
		return
	}
	w.Write(b.Bytes()[:b.Len()/2])
	http.NewResponseController(w).Flush()
	panic(http.ErrAbortHandler)
}

// send records the status and writes the header.
func (s *Server) send(w http.ResponseWriter, status int, contentType string, length int) {
	s.status[status].Add(1)
	h := w.Header()
	h.Set("Content-Type", contentType)
	if length >= 0 {
		h.Set("Content-Length", fmt.Sprint(length))
	}
	w.WriteHeader(status)
}

func (s *Server) writeStream(c codec, w http.ResponseWriter, r *http.Request, req *Request, o *outcome, cut bool) {
	evs := c.events(req, o)
	if !c.sse(r) {
		// Gemini without alt=sse streams one JSON array of whole responses.
		data := make([]any, len(evs))
		for i, e := range evs {
			data[i] = e.data
		}
		s.writeJSON(w, http.StatusOK, data, cut)
		return
	}
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	s.send(w, http.StatusOK, "text/event-stream", -1)
	rc := http.NewResponseController(w)
	keep := len(evs)
	if cut {
		keep = len(evs) / 2
	}
	b := getBuf()
	defer putBuf(b)
	for _, e := range evs[:keep] {
		b.Reset()
		if e.name != "" {
			b.WriteString("event: ")
			b.WriteString(e.name)
			b.WriteByte('\n')
		}
		b.WriteString("data: ")
		if raw, ok := e.data.(string); ok {
			b.WriteString(raw)
		} else {
			encode(b, e.data)
		}
		b.WriteString("\n\n")
		if _, err := w.Write(b.Bytes()); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
	if cut {
		panic(http.ErrAbortHandler)
	}
}

// endlessPiece is the text a FaultEndless stream repeats: one word, so that it is one
// delta, and long, so that reaching a client's limit takes few events.
var endlessPiece = "endless" + strings.Repeat("x", 16<<10)

// writeEndless sends a 200 whose body does not end (see FaultEndless): for a stream,
// the events of a reply up to its first text delta, then that delta again and again;
// otherwise the start of a JSON object and a string that never closes.
func (s *Server) writeEndless(c codec, w http.ResponseWriter, r *http.Request, req *Request) {
	var head, again []byte
	ct := "application/json"
	if req.Stream && c.sse(r) {
		ct = "text/event-stream"
		o := s.resolve(req, Response{Text: endlessPiece})
		for _, e := range c.events(req, o) {
			b := getBuf()
			if e.name != "" {
				b.WriteString("event: " + e.name + "\n")
			}
			b.WriteString("data: ")
			encode(b, e.data)
			b.WriteString("\n\n")
			ev := bytes.Clone(b.Bytes())
			putBuf(b)
			if bytes.Contains(ev, []byte(endlessPiece)) {
				again = ev
				break
			}
			head = append(head, ev...)
		}
	} else {
		head = []byte(`{"id":"llmtest-endless","filler":"`)
		if req.Stream {
			head = append([]byte("["), head...) // Gemini's JSON-array stream
		}
		again = bytes.Repeat([]byte("x"), 32<<10)
	}
	s.send(w, http.StatusOK, ct, -1)
	rc := http.NewResponseController(w)
	if _, err := w.Write(head); err != nil {
		return
	}
	for sent := int64(len(head)); sent < s.opts.EndlessCap; sent += int64(len(again)) {
		select {
		case <-r.Context().Done():
			return
		case <-s.quit:
			return
		default:
		}
		if _, err := w.Write(again); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
	// A client that read it all gets a connection dropped mid-body, not an answer.
	panic(http.ErrAbortHandler)
}

func (s *Server) writeMalformed(c codec, w http.ResponseWriter, r *http.Request, req *Request) {
	stream := req.Stream && c.sse(r)
	body := c.malformed(stream)
	ct := "application/json"
	if stream {
		ct = "text/event-stream"
	}
	s.send(w, http.StatusOK, ct, len(body))
	w.Write(body)
}

func (s *Server) writeError(c codec, w http.ResponseWriter, f Fault, status int, msg string) {
	c.errorHeaders(w.Header(), f)
	if f.Kind == FaultRateLimit {
		w.Header().Set("Retry-After", fmt.Sprint(ceilSeconds(f.retryAfter())))
	}
	s.writeJSON(w, status, c.errorBody(status, f, msg), false)
}

func ceilSeconds(d time.Duration) int64 {
	return int64((d + time.Second - 1) / time.Second)
}

// credential is the key a request was sent with. A 401 echoes it, as some gateways do,
// so that tests can check that adapters keep keys out of their errors.
func credential(h http.Header) string {
	return cmp.Or(h.Get("x-api-key"), h.Get("x-goog-api-key"), strings.TrimPrefix(h.Get("Authorization"), "Bearer "))
}

// textContent is message content sent either as a string or as a list of text parts;
// it decodes to the parts' text joined.
type textContent string

func (t *textContent) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*t = ""
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = textContent(s)
		return nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return fmt.Errorf("content: want a string or a list of text parts: %w", err)
	}
	var sb strings.Builder
	for _, p := range parts {
		sb.WriteString(p.Text)
	}
	*t = textContent(sb.String())
	return nil
}

func joinNonEmpty(parts []string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n\n")
}
