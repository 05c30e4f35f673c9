package cost

import (
	"math"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

func f(v float64) *float64 { return &v }

func TestDefaultPricesComeFromTheDatabase(t *testing.T) {
	p := Default()
	for _, name := range []llm.ModelName{"openai/gpt-4.1", "anthropic/claude-opus-4-7"} {
		pr, ok := p.Lookup(name, false)
		if !ok || pr.Input <= 0 || pr.Output <= pr.Input || pr.Batch != 0.5 {
			t.Errorf("%s: %+v, %v; want a database price with output dearer than input and half-price batches", name, pr, ok)
		}
		if pr.CachedInput <= 0 || pr.CachedInput >= pr.Input {
			t.Errorf("%s: cached input %v; want below input %v", name, pr.CachedInput, pr.Input)
		}
	}
	if pr, ok := p.Lookup("baseline/keyword", true); !ok || pr.Cost(Usage{Input: 1e6, Output: 1e6}, false) != 0 {
		t.Errorf("a local model costs %+v; want nothing", pr)
	}
	if _, ok := p.Lookup("openai/no-such-model-xyz", false); ok {
		t.Error("an unknown model has a price")
	}
	base, _ := p.Lookup("openai/gpt-4.1", false)
	if v, ok := p.Lookup("openai/gpt-4.1+reasoning-high+max-500", false); !ok || v != base {
		t.Errorf("a variant under its default label costs %+v, %v; want its base's %+v", v, ok, base)
	}
	if _, ok := p.Lookup("openai/no-such-model-xyz+reasoning-high", false); ok {
		t.Error("a variant of an unknown model has a price")
	}
}

func TestCostAppliesBatchAndCache(t *testing.T) {
	pr := Price{Input: 2, Output: 8, CachedInput: 0.5, Batch: 0.5}
	u := Usage{Input: 1_000_000, CachedInput: 400_000, Output: 500_000}
	want := (600_000*2.0 + 400_000*0.5 + 500_000*8.0) / 1e6
	if got := pr.Cost(u, false); math.Abs(got-want) > 1e-9 {
		t.Errorf("direct cost %v; want %v", got, want)
	}
	if got := pr.Cost(u, true); math.Abs(got-want/2) > 1e-9 {
		t.Errorf("batch cost %v; want %v", got, want/2)
	}
}

func TestOverride(t *testing.T) {
	p := Default()
	err := p.Override("c.yaml", map[string]config.PriceSpec{
		"openai/gpt-4.1":  {Input: f(1)},
		"deepseek/chat-x": {Input: f(0.3), Output: f(1.2)},
		"ollama/llama3.2": {Input: f(0.01), Output: f(0.02)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if pr, _ := p.Lookup("openai/gpt-4.1", false); pr.Input != 1 || pr.Output <= 1 {
		t.Errorf("overridden input: %+v", pr)
	}
	if pr, ok := p.Lookup("deepseek/chat-x", false); !ok || pr.Input != 0.3 || pr.CachedInput != 0.3 {
		t.Errorf("added model: %+v, %v", pr, ok)
	}
	if pr, _ := p.Lookup("ollama/llama3.2", true); pr.Local || pr.Output != 0.02 {
		t.Errorf("a priced local model: %+v; want the config's price", pr)
	}
	err = p.Override("c.yaml", map[string]config.PriceSpec{"acme/unknown": {Input: f(1)}})
	if err == nil || !strings.Contains(err.Error(), "c.yaml: prices.acme/unknown") {
		t.Errorf("unknown model without output: %v", err)
	}
	err = p.Override("c.yaml", map[string]config.PriceSpec{"openai/gpt-4.1": {Output: f(-1)}})
	if err == nil || !strings.Contains(err.Error(), "prices.openai/gpt-4.1.output") {
		t.Errorf("negative price: %v", err)
	}
}

func TestInputTokensCountsRealTokens(t *testing.T) {
	req := llm.UserText("You are the Keeper.", "Roll for Spot Hidden, please.")
	n, err := InputTokens(req)
	if err != nil {
		t.Fatal(err)
	}
	// "You are the Keeper." is 5 tokens and the user line 8 in o200k_base; framing adds
	// 3 a message and 3 for the reply.
	if n < 15 || n > 25 {
		t.Errorf("InputTokens = %d; want about 19", n)
	}
	long := llm.UserText("", strings.Repeat("investigator ", 1000))
	m, _ := InputTokens(long)
	if m < 1000 || m > 1100 {
		t.Errorf("1000 repeated words = %d tokens; want about 1000", m)
	}
}

func TestEstimate(t *testing.T) {
	e := &Estimator{Prices: Default(), Batch: true}
	reqs := []*llm.Request{llm.UserText("sys", "a"), {Messages: []llm.Message{{Role: llm.RoleUser, Text: "b"}}, MaxTokens: 100}}
	est, err := e.Estimate("openai/gpt-4.1", reqs)
	if err != nil {
		t.Fatal(err)
	}
	if est.Requests != 2 || est.OutputTokens != 356 || !est.Priced || est.Cost <= 0 {
		t.Errorf("estimate %+v", est)
	}
	e.History = func(llm.ModelName) (float64, int) { return 40, 7 }
	est, _ = e.Estimate("openai/gpt-4.1", reqs)
	if est.OutputTokens != 80 || !strings.Contains(est.OutputFrom, "store (7 replies)") {
		t.Errorf("estimate from history %+v", est)
	}
}
