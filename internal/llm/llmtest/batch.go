package llmtest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// BatchOptions script a BatchServer's batches.
type BatchOptions struct {
	// Polls is how many status reads a batch answers as still working before it ends
	// (default 1: the first read says in progress, the next one ended).
	Polls int
	// FailLine, when set, makes a line fail with a server error: it sees the line's
	// request and how many batches have carried this exact request, 1 for the first.
	FailLine func(req *Request, attempt int) bool
	// Expire, when set, makes the n-th batch created (1 for the first) expire without
	// answering any of its lines.
	Expire func(n int) bool
}

// BatchServer is a Server that also speaks the batch wire formats: OpenAI's Files and
// Batches (POST /v1/files, GET /v1/files/{id}/content, POST /v1/batches, GET
// /v1/batches/{id}) and Anthropic's Message Batches (POST /v1/messages/batches, GET
// /v1/messages/batches/{id} and …/results). Each line is answered by the Server's
// Responder as the same request sent on its own would be; every other path goes to the
// Server.
type BatchServer struct {
	*Server
	// URL is this server's root; it replaces the Server's.
	URL string

	bopts BatchOptions
	srv   *http.Server

	mu      sync.Mutex
	seq     int
	files   map[string][]byte
	batches map[string]*standBatch
	seen    map[[sha256.Size]byte]int
	created int
	lines   int
}

type standBatch struct {
	id, inputFile  string
	anthropic      bool
	n              int
	polls          int
	created        int64
	lines          []standLine
	ended, expired bool
	output, errors string // file ids (OpenAI)
	results        []byte // JSONL (Anthropic)
	succeeded      int
	failed         int
}

type standLine struct {
	customID string
	body     []byte
}

// NewBatchServer starts a BatchServer on 127.0.0.1; call Close when done.
func NewBatchServer(opts Options, bopts BatchOptions) *BatchServer {
	if bopts.Polls <= 0 {
		bopts.Polls = 1
	}
	inner := NewServer(opts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(fmt.Sprintf("llmtest: listen: %v", err))
	}
	b := &BatchServer{Server: inner, URL: "http://" + ln.Addr().String(), bopts: bopts,
		files: map[string][]byte{}, batches: map[string]*standBatch{}, seen: map[[sha256.Size]byte]int{}}
	mux := http.NewServeMux()
	// OpenAI's paths are served at the root too, as /chat/completions is, so that one
	// base URL serves both SDKs.
	for _, root := range []string{"/v1", ""} {
		mux.HandleFunc("POST "+root+"/files", b.uploadFile)
		mux.HandleFunc("GET "+root+"/files/{id}/content", b.fileContent)
		mux.HandleFunc("POST "+root+"/batches", b.createOpenAI)
		mux.HandleFunc("GET "+root+"/batches/{id}", b.getOpenAI)
	}
	mux.HandleFunc("POST /v1/messages/batches", b.createAnthropic)
	mux.HandleFunc("GET /v1/messages/batches/{id}", b.getAnthropic)
	mux.HandleFunc("GET /v1/messages/batches/{id}/results", b.resultsAnthropic)
	mux.Handle("/", inner.srv.Handler)
	b.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go b.srv.Serve(ln)
	return b
}

// OpenAIBaseURL is the base URL as OpenAI SDKs expect it, ending in /v1.
func (b *BatchServer) OpenAIBaseURL() string { return b.URL + "/v1" }

// Close stops both servers.
func (b *BatchServer) Close() {
	b.srv.Close()
	b.Server.Close()
}

// BatchesCreated is how many batches were created, of either protocol.
func (b *BatchServer) BatchesCreated() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.created
}

// LinesSubmitted is how many lines all created batches held.
func (b *BatchServer) LinesSubmitted() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lines
}

// MaxLineRepeats is the most batches any one request body was carried by.
func (b *BatchServer) MaxLineRepeats() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	m := 0
	for _, n := range b.seen {
		m = max(m, n)
	}
	return m
}

// BatchBodies are the request bodies of every line of the batch with this id, in order.
func (b *BatchServer) BatchBodies(id string) [][]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	bt := b.batches[id]
	if bt == nil {
		return nil
	}
	out := make([][]byte, len(bt.lines))
	for i, l := range bt.lines {
		out[i] = l.body
	}
	return out
}

func (b *BatchServer) nextID(prefix string) string {
	b.seq++
	return fmt.Sprintf("%s%06d", prefix, b.seq)
}

func batchError(w http.ResponseWriter, status int, anthropic bool, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if anthropic {
		json.NewEncoder(w).Encode(map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": msg}})
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "param": nil, "code": nil}})
}

func writeJSONBody(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// uploadFile takes a multipart upload with purpose "batch".
func (b *BatchServer) uploadFile(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseMultipartForm(64 << 20); err != nil {
		batchError(w, http.StatusBadRequest, false, "llmtest: not a multipart upload: "+err.Error())
		return
	}
	purpose := r.FormValue("purpose")
	if purpose != "batch" {
		batchError(w, http.StatusBadRequest, false, fmt.Sprintf("llmtest: purpose %q; want batch", purpose))
		return
	}
	f, hdr, err := r.FormFile("file")
	if err != nil {
		batchError(w, http.StatusBadRequest, false, "llmtest: no file part")
		return
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		batchError(w, http.StatusBadRequest, false, "llmtest: "+err.Error())
		return
	}
	b.mu.Lock()
	id := b.nextID("file-")
	b.files[id] = data
	b.mu.Unlock()
	writeJSONBody(w, fileObject(id, hdr.Filename, len(data), "batch"))
}

func fileObject(id, name string, size int, purpose string) map[string]any {
	return map[string]any{"id": id, "object": "file", "bytes": size, "created_at": time.Now().Unix(),
		"filename": name, "purpose": purpose, "status": "processed"}
}

func (b *BatchServer) fileContent(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	data, ok := b.files[r.PathValue("id")]
	b.mu.Unlock()
	if !ok {
		batchError(w, http.StatusNotFound, false, "llmtest: no such file")
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(data)
}

func (b *BatchServer) createOpenAI(w http.ResponseWriter, r *http.Request) {
	var p struct {
		InputFileID      string `json:"input_file_id"`
		Endpoint         string `json:"endpoint"`
		CompletionWindow string `json:"completion_window"`
	}
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
		batchError(w, http.StatusBadRequest, false, "llmtest: "+err.Error())
		return
	}
	if p.Endpoint != "/v1/chat/completions" || p.CompletionWindow != "24h" {
		batchError(w, http.StatusBadRequest, false, fmt.Sprintf("llmtest: endpoint %q window %q; want /v1/chat/completions and 24h", p.Endpoint, p.CompletionWindow))
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	data, ok := b.files[p.InputFileID]
	if !ok {
		batchError(w, http.StatusBadRequest, false, "llmtest: no such input file "+p.InputFileID)
		return
	}
	var lines []standLine
	ids := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		var l struct {
			CustomID string          `json:"custom_id"`
			Method   string          `json:"method"`
			URL      string          `json:"url"`
			Body     json.RawMessage `json:"body"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil || l.CustomID == "" || l.Method != "POST" || l.URL != p.Endpoint || len(l.Body) == 0 {
			batchError(w, http.StatusBadRequest, false, fmt.Sprintf("llmtest: input line %d is not a batch request line", n))
			return
		}
		if ids[l.CustomID] {
			batchError(w, http.StatusBadRequest, false, fmt.Sprintf("llmtest: input line %d repeats custom_id %s", n, l.CustomID))
			return
		}
		ids[l.CustomID] = true
		lines = append(lines, standLine{l.CustomID, l.Body})
	}
	bt := b.newBatch("batch_", false, lines)
	bt.inputFile = p.InputFileID
	writeJSONBody(w, b.openAIObject(bt))
}

func (b *BatchServer) newBatch(prefix string, anthropic bool, lines []standLine) *standBatch {
	b.created++
	b.lines += len(lines)
	for _, l := range lines {
		b.seen[sha256.Sum256(l.body)]++
	}
	bt := &standBatch{id: b.nextID(prefix), anthropic: anthropic, n: b.created, polls: b.bopts.Polls,
		created: time.Now().Unix(), lines: lines}
	b.batches[bt.id] = bt
	return bt
}

// advance moves a batch one poll on, answering its lines when it ends. Called with mu.
func (b *BatchServer) advance(bt *standBatch) {
	if bt.ended {
		return
	}
	if bt.polls > 0 {
		bt.polls--
		return
	}
	bt.ended = true
	bt.expired = b.bopts.Expire != nil && b.bopts.Expire(bt.n)
	var out, errs bytes.Buffer
	for _, l := range bt.lines {
		line, ok := b.answer(bt, l)
		if ok {
			bt.succeeded++
			out.Write(line)
		} else {
			bt.failed++
			errs.Write(line)
		}
	}
	if bt.anthropic {
		bt.results = append(out.Bytes(), errs.Bytes()...)
		return
	}
	if out.Len() > 0 {
		bt.output = b.nextID("file-")
		b.files[bt.output] = out.Bytes()
	}
	if errs.Len() > 0 {
		bt.errors = b.nextID("file-")
		b.files[bt.errors] = errs.Bytes()
	}
}

// answer is one line's result line and whether it succeeded.
func (b *BatchServer) answer(bt *standBatch, l standLine) ([]byte, bool) {
	var c codec = openaiCodec{}
	if bt.anthropic {
		c = anthropicCodec{}
	}
	sum := sha256.Sum256(l.body)
	req := &Request{Protocol: c.protocol(), Body: l.body, BodyHash: hex.EncodeToString(sum[:]), Attempt: b.seen[sum]}
	decodeErr := c.decode(nil, l.body, req)
	mk := func(v any) []byte {
		out, err := json.Marshal(v)
		if err != nil {
			panic(err) // maps of strings and numbers
		}
		return append(out, '\n')
	}
	switch {
	case bt.expired:
		if bt.anthropic {
			return mk(map[string]any{"custom_id": l.customID, "result": map[string]any{"type": "expired"}}), false
		}
		return mk(map[string]any{"id": "batch_req_" + l.customID, "custom_id": l.customID, "response": nil,
			"error": map[string]any{"code": "batch_expired", "message": "This request could not be executed before the completion window expired."}}), false
	case decodeErr != nil:
		return b.lineError(bt, l.customID, http.StatusBadRequest, "invalid_request_error", decodeErr.Error(), mk), false
	case b.bopts.FailLine != nil && b.bopts.FailLine(req, req.Attempt):
		return b.lineError(bt, l.customID, http.StatusInternalServerError, "api_error", "llmtest: scripted line failure", mk), false
	}
	resp := b.opts.Responder(req)
	o := b.resolve(req, resp)
	if bt.anthropic {
		return mk(map[string]any{"custom_id": l.customID, "result": map[string]any{"type": "succeeded", "message": c.reply(req, o)}}), true
	}
	return mk(map[string]any{"id": "batch_req_" + l.customID, "custom_id": l.customID, "error": nil,
		"response": map[string]any{"status_code": 200, "request_id": o.id, "body": c.reply(req, o)}}), true
}

func (b *BatchServer) lineError(bt *standBatch, id string, status int, typ, msg string, mk func(any) []byte) []byte {
	if bt.anthropic {
		return mk(map[string]any{"custom_id": id, "result": map[string]any{"type": "errored",
			"error": map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}}}})
	}
	return mk(map[string]any{"id": "batch_req_" + id, "custom_id": id, "error": nil,
		"response": map[string]any{"status_code": status, "request_id": "req_" + id,
			"body": map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}}}})
}

func (b *BatchServer) getOpenAI(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	bt, ok := b.batches[r.PathValue("id")]
	if !ok || bt.anthropic {
		batchError(w, http.StatusNotFound, false, "llmtest: no such batch")
		return
	}
	b.advance(bt)
	writeJSONBody(w, b.openAIObject(bt))
}

// openAIObject is the Batch object of the OpenAI spec.
func (b *BatchServer) openAIObject(bt *standBatch) map[string]any {
	status, done, failed := "in_progress", 0, 0
	if bt.polls == b.bopts.Polls && !bt.ended {
		status = "validating"
	}
	if bt.ended {
		status, done, failed = "completed", bt.succeeded, bt.failed
		if bt.expired {
			status = "expired"
		}
	}
	o := map[string]any{
		"id": bt.id, "object": "batch", "endpoint": "/v1/chat/completions",
		"input_file_id": bt.inputFile, "completion_window": "24h", "status": status,
		"created_at": bt.created, "expires_at": bt.created + 86400,
		"request_counts": map[string]any{"total": len(bt.lines), "completed": done, "failed": failed},
		"metadata":       nil,
	}
	if bt.output != "" {
		o["output_file_id"] = bt.output
	}
	if bt.errors != "" {
		o["error_file_id"] = bt.errors
	}
	return o
}

func (b *BatchServer) createAnthropic(w http.ResponseWriter, r *http.Request) {
	var p struct {
		Requests []struct {
			CustomID string          `json:"custom_id"`
			Params   json.RawMessage `json:"params"`
		} `json:"requests"`
	}
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil || len(p.Requests) == 0 {
		batchError(w, http.StatusBadRequest, true, "llmtest: want a body with requests")
		return
	}
	var lines []standLine
	ids := map[string]bool{}
	for i, q := range p.Requests {
		if q.CustomID == "" || ids[q.CustomID] || len(q.Params) == 0 {
			batchError(w, http.StatusBadRequest, true, fmt.Sprintf("llmtest: requests.%d: a unique custom_id and params are required", i))
			return
		}
		ids[q.CustomID] = true
		lines = append(lines, standLine{q.CustomID, q.Params})
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	bt := b.newBatch("msgbatch_", true, lines)
	writeJSONBody(w, b.anthropicObject(bt, r))
}

func (b *BatchServer) getAnthropic(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	bt, ok := b.batches[r.PathValue("id")]
	if !ok || !bt.anthropic {
		batchError(w, http.StatusNotFound, true, "llmtest: no such batch")
		return
	}
	b.advance(bt)
	writeJSONBody(w, b.anthropicObject(bt, r))
}

// anthropicObject is a MessageBatch as the Anthropic SDK reads it.
func (b *BatchServer) anthropicObject(bt *standBatch, r *http.Request) map[string]any {
	created := time.Unix(bt.created, 0).UTC()
	counts := map[string]any{"processing": len(bt.lines), "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}
	o := map[string]any{
		"id": bt.id, "type": "message_batch", "processing_status": "in_progress",
		"created_at": created.Format(time.RFC3339), "expires_at": created.Add(24 * time.Hour).Format(time.RFC3339),
		"archived_at": nil, "cancel_initiated_at": nil, "ended_at": nil, "results_url": nil, "request_counts": counts,
	}
	if bt.ended {
		counts["processing"] = 0
		counts["succeeded"] = bt.succeeded
		if bt.expired {
			counts["expired"] = bt.failed
		} else {
			counts["errored"] = bt.failed
		}
		o["processing_status"] = "ended"
		o["ended_at"] = time.Now().UTC().Format(time.RFC3339)
		o["results_url"] = "http://" + r.Host + "/v1/messages/batches/" + bt.id + "/results"
	}
	return o
}

func (b *BatchServer) resultsAnthropic(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	bt, ok := b.batches[r.PathValue("id")]
	var data []byte
	if ok {
		data = bt.results
	}
	ended := ok && bt.ended
	b.mu.Unlock()
	if !ok || !bt.anthropic {
		batchError(w, http.StatusNotFound, true, "llmtest: no such batch")
		return
	}
	if !ended {
		batchError(w, http.StatusBadRequest, true, "llmtest: batch has not ended")
		return
	}
	w.Header().Set("Content-Type", "application/x-jsonl")
	w.Write(data)
}
