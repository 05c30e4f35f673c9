package openai_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest/conformance"
)

func TestReasoningEffortOnTheWire(t *testing.T) {
	for _, e := range llm.Efforts {
		req := llm.UserText("", "hi")
		req.ReasoningEffort = e
		_, r := provider().Sent(t, req)
		var body map[string]any
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		if body["reasoning_effort"] != e || r.ReasoningEffort != e {
			t.Errorf("effort %s: body has reasoning_effort %v", e, body["reasoning_effort"])
		}
	}
	_, r := provider().Sent(t, llm.UserText("", "hi"))
	if strings.Contains(string(r.Body), "reasoning_effort") {
		t.Errorf("a request without an effort sent one: %s", r.Body)
	}
}

func TestReasoningRefusedBeforeRequest(t *testing.T) {
	s := conformance.Server(t, llmtest.Echo)
	m := provider().Model(t, s)
	for _, req := range []*llm.Request{
		{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}, ThinkingBudget: 8192},
		{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}, ReasoningEffort: "extreme"},
	} {
		_, err := m.Generate(context.Background(), req)
		if err == nil || llm.IsRetryable(err) {
			t.Errorf("Generate(%+v) = %v; want a final invalid-request error", req, err)
		}
	}
	if n := s.Requests(); n != 0 {
		t.Errorf("%d requests sent; want none", n)
	}
}

// TestReasoningRejectedOnce: a model that rejects reasoning_effort (a 400) is reported
// once, with the provider's message, and never retried.
func TestReasoningRejectedOnce(t *testing.T) {
	s := conformance.Server(t, func(r *llmtest.Request) llmtest.Response {
		if r.ReasoningEffort != "" {
			return llmtest.Response{Fault: llmtest.Fault{Kind: llmtest.FaultBadRequest}}
		}
		return llmtest.Echo(r)
	})
	m := llm.WithRetry(provider().Model(t, s), llm.DefaultRetry(), new(llm.Counters), nil)
	req := llm.UserText("", "hi")
	req.ReasoningEffort = "high"
	_, err := m.Generate(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "400") && !strings.Contains(err.Error(), "reject") {
		t.Fatalf("Generate = %v; want the provider's 400", err)
	}
	if n := s.Requests(); n != 1 {
		t.Errorf("%d requests; want exactly 1 (a 400 is not retried)", n)
	}
}
