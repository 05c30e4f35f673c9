package openai_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/openai"
)

// TestPromptCacheKey: requests with the same system prompt carry the same
// prompt_cache_key and another prompt another key; cached tokens reach the usage.
func TestPromptCacheKey(t *testing.T) {
	var mu sync.Mutex
	var keys []string
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		var b struct {
			Key string `json:"prompt_cache_key"`
		}
		json.Unmarshal(req.Body, &b)
		mu.Lock()
		keys = append(keys, b.Key)
		mu.Unlock()
		return llmtest.Response{Text: "ok", InputTokens: 2000, CachedInputTokens: 1536}
	}})
	defer srv.Close()
	m, err := openai.New("openai/gm", config.Endpoint{Provider: "openai", BaseURL: srv.OpenAIBaseURL(), Key: "sk-test"}, openai.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, r := range []*llm.Request{llm.UserText("keeper", "a"), llm.UserText("keeper", "b"), llm.UserText("judge", "a")} {
		rep, err := m.Generate(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Usage.CachedInputTokens != 1536 || rep.Usage.InputTokens != 2000 {
			t.Errorf("usage %+v; want 2000 input tokens of which 1536 cached", rep.Usage)
		}
	}
	if keys[0] == "" || keys[0] != keys[1] || keys[2] == keys[0] {
		t.Errorf("prompt_cache_key %q; want one key per system prompt", keys)
	}
}

// TestBatchResultLines: the output and error lines of a batch become replies and
// errors, with server errors worth another try and bad requests not.
func TestBatchResultLines(t *testing.T) {
	srv := llmtest.NewBatchServer(llmtest.Options{}, llmtest.BatchOptions{Polls: 1,
		FailLine: func(req *llmtest.Request, _ int) bool { return req.LastUser() == "fail" }})
	defer srv.Close()
	m, err := openai.New("openai/gm", config.Endpoint{Provider: "openai", BaseURL: srv.OpenAIBaseURL(), Key: "sk-test"}, openai.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	id, err := m.SubmitBatch(ctx, []llm.BatchLine{{ID: "l0", Request: llm.UserText("s", "hello")}, {ID: "l1", Request: llm.UserText("s", "fail")}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := m.PollBatch(ctx, id)
	if err != nil || st.Ended || st.Status != "in_progress" {
		t.Fatalf("first poll %+v, %v; want in_progress", st, err)
	}
	if st, err = m.PollBatch(ctx, id); err != nil || !st.Ended || st.Status != "completed" || st.Succeeded != 1 || st.Failed != 1 || st.Total != 2 {
		t.Fatalf("second poll %+v, %v; want completed, 1 of 2 succeeded", st, err)
	}
	rs, err := m.BatchResults(ctx, id)
	if err != nil || len(rs) != 2 {
		t.Fatalf("results %+v, %v", rs, err)
	}
	for _, r := range rs {
		switch r.ID {
		case "l0":
			if r.Reply == nil || r.Reply.Text != "echo: hello" || r.Reply.Finish != llm.FinishStop {
				t.Errorf("l0: %+v", r)
			}
		case "l1":
			if r.Err == nil || r.Err.Status != 500 || !r.Err.Retryable {
				t.Errorf("l1: %+v; want a retryable 500", r.Err)
			}
		default:
			t.Errorf("unknown line %s", r.ID)
		}
	}
}
