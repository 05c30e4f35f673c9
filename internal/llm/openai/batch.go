package openai

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// The limits of one OpenAI batch: 50,000 requests in an input file of at most 200 MB.
const (
	batchMaxLines = 50_000
	batchMaxBytes = 200 << 20
)

// maxResultFile bounds how much of a batch's output or error file is read.
const maxResultFile = 1 << 30

// batchInputLine is one line of a batch input file.
type batchInputLine struct {
	CustomID string          `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// batchOutputLine is one line of a batch output or error file.
type batchOutputLine struct {
	CustomID string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

var _ llm.Batcher = (*Model)(nil)

// BatchLimits implements llm.Batcher.
func (m *Model) BatchLimits() (lines, bytes int) { return batchMaxLines, batchMaxBytes }

func (m *Model) encodeLine(l llm.BatchLine) ([]byte, error) {
	body, err := m.body(l.Request, false)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(batchInputLine{CustomID: l.ID, Method: http.MethodPost, URL: "/v1/chat/completions", Body: body})
	if err != nil {
		return nil, m.invalid(fmt.Sprintf("batch line %s: %v", l.ID, err))
	}
	return append(b, '\n'), nil
}

// BatchLineSize implements llm.Batcher.
func (m *Model) BatchLineSize(l llm.BatchLine) (int, error) {
	b, err := m.encodeLine(l)
	return len(b), err
}

// SubmitBatch implements llm.Batcher: it uploads the lines as a JSONL file with purpose
// "batch" and creates a batch of it for /v1/chat/completions with a 24h window.
func (m *Model) SubmitBatch(ctx context.Context, lines []llm.BatchLine) (string, error) {
	var buf bytes.Buffer
	for _, l := range lines {
		b, err := m.encodeLine(l)
		if err != nil {
			return "", err
		}
		buf.Write(b)
	}
	files := sdk.NewFileService(m.ro...)
	var resp *http.Response
	f, err := files.New(ctx, sdk.FileNewParams{
		File:    sdk.File(bytes.NewReader(buf.Bytes()), "batch.jsonl", "application/jsonl"),
		Purpose: sdk.FilePurposeBatch,
	}, option.WithResponseInto(&resp))
	if err != nil {
		return "", m.translate(ctx, err, resp)
	}
	batches := sdk.NewBatchService(m.ro...)
	b, err := batches.New(ctx, sdk.BatchNewParams{
		CompletionWindow: sdk.BatchNewParamsCompletionWindow24h,
		Endpoint:         sdk.BatchNewParamsEndpointV1ChatCompletions,
		InputFileID:      f.ID,
	}, option.WithResponseInto(&resp))
	if err != nil {
		return "", m.translate(ctx, err, resp)
	}
	return b.ID, nil
}

// PollBatch implements llm.Batcher.
func (m *Model) PollBatch(ctx context.Context, id string) (llm.BatchStatus, error) {
	var resp *http.Response
	batches := sdk.NewBatchService(m.ro...)
	b, err := batches.Get(ctx, id, option.WithResponseInto(&resp))
	if err != nil {
		return llm.BatchStatus{}, m.translate(ctx, err, resp)
	}
	st := llm.BatchStatus{ID: b.ID, Status: string(b.Status),
		Total: int(b.RequestCounts.Total), Succeeded: int(b.RequestCounts.Completed), Failed: int(b.RequestCounts.Failed)}
	switch b.Status {
	case sdk.BatchStatusCompleted, sdk.BatchStatusFailed, sdk.BatchStatusExpired, sdk.BatchStatusCancelled:
		st.Ended = true
	}
	return st, nil
}

// BatchResults implements llm.Batcher: it reads the batch's output file and its error
// file. Lines in neither (an expired or failed batch) are absent from the results.
func (m *Model) BatchResults(ctx context.Context, id string) ([]llm.BatchResult, error) {
	var resp *http.Response
	batches := sdk.NewBatchService(m.ro...)
	b, err := batches.Get(ctx, id, option.WithResponseInto(&resp))
	if err != nil {
		return nil, m.translate(ctx, err, resp)
	}
	var out []llm.BatchResult
	for _, fid := range []string{b.OutputFileID, b.ErrorFileID} {
		if fid == "" {
			continue
		}
		rs, err := m.resultFile(ctx, fid)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}

func (m *Model) resultFile(ctx context.Context, fid string) ([]llm.BatchResult, error) {
	files := sdk.NewFileService(m.ro...)
	resp, err := files.Content(ctx, fid)
	if err != nil {
		return nil, m.translate(ctx, err, resp)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResultFile))
	if err != nil {
		return nil, m.translate(ctx, err, resp)
	}
	return m.parseResults(body)
}

// parseResults reads a batch output or error file, one JSON object a line.
func (m *Model) parseResults(body []byte) ([]llm.BatchResult, error) {
	var out []llm.BatchResult
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, llm.MaxReplyBytes+1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var l batchOutputLine
		if err := json.Unmarshal(line, &l); err != nil || l.CustomID == "" {
			return nil, llm.BadResponse(m.provider, http.StatusOK, fmt.Errorf("batch result line %d: not a result line", n))
		}
		out = append(out, m.lineResult(l))
	}
	if err := sc.Err(); err != nil {
		return nil, llm.BadResponse(m.provider, http.StatusOK, fmt.Errorf("batch results: %w", err))
	}
	return out, nil
}

func (m *Model) lineResult(l batchOutputLine) llm.BatchResult {
	r := llm.BatchResult{ID: l.CustomID}
	switch {
	case l.Response != nil && l.Response.StatusCode == http.StatusOK:
		reply, err := completionBody(l.Response.Body)
		if err != nil {
			r.Err = llm.BadResponse(m.provider, http.StatusOK, err)
			return r
		}
		r.Reply = reply.Redact(m.key)
	case l.Response != nil:
		var e struct {
			Error struct {
				Code, Type, Message string
			} `json:"error"`
		}
		_ = json.Unmarshal(l.Response.Body, &e)
		code := e.Error.Code
		if code == "" {
			code = e.Error.Type
		}
		r.Err = llm.HTTPError(m.provider, l.Response.StatusCode, nil, code, e.Error.Message, nil).Redact(m.key)
	case l.Error != nil:
		r.Err = (&llm.Error{Provider: m.provider, Code: l.Error.Code, Message: l.Error.Message, Retryable: true}).Redact(m.key)
	default:
		r.Err = &llm.Error{Provider: m.provider, Code: "batch_line", Message: "batch line has neither a response nor an error", Retryable: true}
	}
	return r
}

// promptCacheKey is the prompt_cache_key of requests with this system prompt.
func promptCacheKey(system string) string {
	sum := sha256.Sum256([]byte(system))
	return "arbiter-" + hex.EncodeToString(sum[:8])
}
