package anthropic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/anthropic"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// systemOf is the raw JSON of a Messages request's system field.
func systemOf(t *testing.T, body []byte) json.RawMessage {
	t.Helper()
	var b struct {
		System json.RawMessage `json:"system"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	return b.System
}

// TestPromptCachePrefix: the shared system prompt is marked for the prompt cache and
// sent byte for byte the same in every request, direct or batched, and the cached
// tokens the server reports reach the reply's usage.
func TestPromptCachePrefix(t *testing.T) {
	var mu sync.Mutex
	var bodies [][]byte
	srv := llmtest.NewBatchServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		mu.Lock()
		bodies = append(bodies, req.Body)
		mu.Unlock()
		return llmtest.Response{Text: "ok", InputTokens: 1200, CachedInputTokens: 1024}
	}}, llmtest.BatchOptions{})
	defer srv.Close()
	m, err := anthropic.New("anthropic/claude-gm", config.Endpoint{Provider: "anthropic", BaseURL: srv.URL, Key: fakeKey}, anthropic.Options{})
	if err != nil {
		t.Fatal(err)
	}
	system := strings.Repeat("You are the Keeper of Arcane Lore. ", 200)
	ctx := context.Background()
	var replies []*llm.Reply
	for _, user := range []string{"I pick the lock.", "I search the study."} {
		r, err := m.Generate(ctx, llm.UserText(system, user))
		if err != nil {
			t.Fatal(err)
		}
		replies = append(replies, r)
	}
	id, err := m.SubmitBatch(ctx, []llm.BatchLine{{ID: "l0", Request: llm.UserText(system, "I read the diary.")}})
	if err != nil {
		t.Fatal(err)
	}
	batch := srv.BatchBodies(id)
	if len(bodies) != 2 || len(batch) != 1 {
		t.Fatalf("%d direct and %d batched requests; want 2 and 1", len(bodies), len(batch))
	}
	first := systemOf(t, bodies[0])
	var blocks []struct {
		Text         string `json:"text"`
		CacheControl *struct {
			Type string `json:"type"`
		} `json:"cache_control"`
	}
	if err := json.Unmarshal(first, &blocks); err != nil || len(blocks) != 1 || blocks[0].Text != system {
		t.Fatalf("system %s: %v; want one block holding the system prompt", first, err)
	}
	if blocks[0].CacheControl == nil || blocks[0].CacheControl.Type != "ephemeral" {
		t.Errorf("system block %s carries no ephemeral cache_control", first)
	}
	for i, b := range [][]byte{bodies[1], batch[0]} {
		if got := systemOf(t, b); !bytes.Equal(got, first) {
			t.Errorf("request %d's system prefix differs:\n%s\n%s", i+2, got, first)
		}
	}
	for i, r := range replies {
		if r.Usage.CachedInputTokens != 1024 || r.Usage.InputTokens != 1200 {
			t.Errorf("reply %d usage %+v; want 1200 input tokens of which 1024 cached", i, r.Usage)
		}
	}
}
