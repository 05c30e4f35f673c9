package cost_test

import (
	"context"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/cost"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/anthropic"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/openai"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// TestOfRunPricesRecordedUsage: the cached tokens the stand-in reports reach the run's
// cost, batched replies are priced at the batch price and direct ones at the full one.
func TestOfRunPricesRecordedUsage(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.NewBatchServer(llmtest.Options{Responder: func(*llmtest.Request) llmtest.Response {
		return llmtest.Response{Text: "ok", InputTokens: 1000, CachedInputTokens: 800, OutputTokens: 10}
	}}, llmtest.BatchOptions{})
	defer srv.Close()
	gpt, claude := llm.ModelName("openai/gpt-4.1"), llm.ModelName("anthropic/claude-opus-4-7")
	o, err := openai.New(gpt, config.Endpoint{Provider: "openai", BaseURL: srv.OpenAIBaseURL(), Key: "sk"}, openai.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := anthropic.New(claude, config.Endpoint{Provider: "anthropic", BaseURL: srv.URL, Key: "sk"}, anthropic.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	plan := runner.Plan{Run: "seduce-cost", Models: map[llm.ModelName]llm.Model{gpt: o, claude: a}}
	for i := range 10 {
		for _, m := range []llm.ModelName{gpt, claude} {
			item := string(rune('a' + i))
			plan.Jobs = append(plan.Jobs, runner.Job{Key: runner.JobKey(m, item, 0), Model: m, Item: item, Request: llm.UserText("keeper", item)})
		}
	}
	if _, err := st.BeginRun(ctx, store.Run{ID: plan.Run, Kind: "seduce", Config: []byte(`{}`), Version: "t"}); err != nil {
		t.Fatal(err)
	}
	direct := plan
	direct.Jobs = nil
	for _, j := range plan.Jobs {
		if j.Model == claude {
			direct.Jobs = append(direct.Jobs, j)
		}
	}
	if _, err := runner.Run(ctx, st, direct); err != nil { // claude direct, then gpt batched
		t.Fatal(err)
	}
	if _, err := runner.RunBatch(ctx, st, plan, runner.BatchOptions{Batchers: map[llm.ModelName]llm.Batcher{gpt: o}, Poll: time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	prices := cost.Default()
	got, err := cost.OfRun(ctx, st, plan.Run, prices, nil)
	if err != nil || len(got) != 2 {
		t.Fatalf("OfRun = %+v, %v", got, err)
	}
	u := cost.Usage{Input: 10_000, CachedInput: 8_000, Output: 100}
	for _, mc := range got {
		pr, _ := prices.Lookup(mc.Model, false)
		batch := mc.Model == gpt
		want := pr.Cost(u, batch)
		if mc.Usage != u || mc.Paid != 10 || (mc.Batched == 10) != batch || !mc.Priced || math.Abs(mc.Cost-want) > 1e-12 {
			t.Errorf("%s: %+v; want usage %+v costing %v (batch %v)", mc.Model, mc, u, want, batch)
		}
		if mc.Cost >= pr.Cost(cost.Usage{Input: 10_000, Output: 100}, batch) {
			t.Errorf("%s: cached tokens did not lower the cost", mc.Model)
		}
	}
}

func TestCachedTokens(t *testing.T) {
	for raw, want := range map[string]int64{
		`{"usage":{"prompt_tokens":10,"prompt_tokens_details":{"cached_tokens":7}}}`:        7,
		`{"last_chunk":{"usage":{"prompt_tokens_details":{"cached_tokens":5}}},"text":"x"}`: 5,
		`{"usage":{"input_tokens":3,"cache_read_input_tokens":9}}`:                          9,
		`{"usageMetadata":{"cachedContentTokenCount":4}}`:                                   4,
		`{"usage":{}}`: 0,
		`not json`:     0,
	} {
		if got := cost.CachedTokens([]byte(raw)); got != want {
			t.Errorf("CachedTokens(%s) = %d; want %d", raw, got, want)
		}
	}
}
