package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// The limits of one Message Batch: 100,000 requests or 256 MB, whichever comes first.
const (
	batchMaxLines = 100_000
	batchMaxBytes = 256 << 20
)

var _ llm.Batcher = (*Model)(nil)

// BatchLimits implements llm.Batcher.
func (m *Model) BatchLimits() (lines, bytes int) { return batchMaxLines, batchMaxBytes }

// batchRequest is one request of a Message Batch: the same body Generate sends, with
// temperature and top_p set on it when the request sets them (the batch params type
// has no field for them). Every field params sets must be copied here: a field left
// out is a batched request that differs from the direct one (thinking once was).
func (m *Model) batchRequest(l llm.BatchLine) (sdk.MessageBatchNewParamsRequest, error) {
	p, _, err := m.params(l.Request)
	if err != nil {
		return sdk.MessageBatchNewParamsRequest{}, err
	}
	bp := sdk.MessageBatchNewParamsRequestParams{
		MaxTokens:    p.MaxTokens,
		Messages:     p.Messages,
		Model:        p.Model,
		System:       p.System,
		OutputConfig: p.OutputConfig,
		Thinking:     p.Thinking,
	}
	extra := map[string]any{}
	if t := l.Request.Temperature; t != nil {
		extra["temperature"] = *t
	}
	if t := l.Request.TopP; t != nil {
		extra["top_p"] = *t
	}
	if len(extra) > 0 {
		bp.SetExtraFields(extra)
	}
	return sdk.MessageBatchNewParamsRequest{CustomID: l.ID, Params: bp}, nil
}

// BatchLineSize implements llm.Batcher.
func (m *Model) BatchLineSize(l llm.BatchLine) (int, error) {
	r, err := m.batchRequest(l)
	if err != nil {
		return 0, err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return 0, m.invalid(fmt.Sprintf("batch line %s: %v", l.ID, err))
	}
	return len(b) + 1, nil
}

// SubmitBatch implements llm.Batcher through Messages.Batches.New.
func (m *Model) SubmitBatch(ctx context.Context, lines []llm.BatchLine) (string, error) {
	p := sdk.MessageBatchNewParams{Requests: make([]sdk.MessageBatchNewParamsRequest, 0, len(lines))}
	for _, l := range lines {
		r, err := m.batchRequest(l)
		if err != nil {
			return "", err
		}
		p.Requests = append(p.Requests, r)
	}
	var resp *http.Response
	b, err := m.svc.Batches.New(ctx, p, option.WithResponseInto(&resp))
	if err != nil {
		return "", m.translate(ctx, err, resp)
	}
	return b.ID, nil
}

// PollBatch implements llm.Batcher.
func (m *Model) PollBatch(ctx context.Context, id string) (llm.BatchStatus, error) {
	var resp *http.Response
	b, err := m.svc.Batches.Get(ctx, id, sdk.MessageBatchGetParams{}, option.WithResponseInto(&resp))
	if err != nil {
		return llm.BatchStatus{}, m.translate(ctx, err, resp)
	}
	c := b.RequestCounts
	return llm.BatchStatus{
		ID: b.ID, Status: string(b.ProcessingStatus), Ended: b.ProcessingStatus == sdk.MessageBatchProcessingStatusEnded,
		Total:     int(c.Processing + c.Succeeded + c.Errored + c.Canceled + c.Expired),
		Succeeded: int(c.Succeeded), Failed: int(c.Errored + c.Canceled + c.Expired),
	}, nil
}

// BatchResults implements llm.Batcher: it streams the batch's results file. Errored,
// canceled and expired lines come back as errors; errored ones keep the provider's
// error type, and only server-side failures and the other two are worth another try.
func (m *Model) BatchResults(ctx context.Context, id string) ([]llm.BatchResult, error) {
	var resp *http.Response
	s := m.svc.Batches.ResultsStreaming(ctx, id, sdk.MessageBatchResultsParams{}, option.WithResponseInto(&resp))
	defer s.Close()
	var out []llm.BatchResult
	for s.Next() {
		ir := s.Current()
		r := llm.BatchResult{ID: ir.CustomID}
		res := ir.Result
		switch res.Type {
		case "succeeded":
			msg := res.Message
			r.Reply = reply(&msg, json.RawMessage(msg.RawJSON())).Redact(m.key)
			r.Reply.Attempts = 1
		case "errored":
			t := string(res.Error.Error.Type)
			r.Err = &llm.Error{Provider: m.name.Provider(), Code: t, Message: res.Error.Error.Message,
				Retryable: t == "api_error" || t == "overloaded_error" || t == "rate_limit_error" || t == "timeout_error"}
		default: // canceled, expired
			r.Err = &llm.Error{Provider: m.name.Provider(), Code: res.Type, Message: "batch line " + res.Type, Retryable: true}
		}
		if r.Err != nil {
			r.Err = r.Err.Redact(m.key)
		}
		out = append(out, r)
	}
	if err := s.Err(); err != nil {
		return nil, m.translate(ctx, err, resp)
	}
	return out, nil
}
