package cost

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// ModelCost is what a run actually used and cost for one model, from its recorded
// usage. Replies from the cache and from in-process models cost nothing again.
type ModelCost struct {
	Model llm.ModelName
	// Paid counts the replies asked of the provider in this run; Batched of them came
	// through a batch and are priced as such.
	Paid, Batched int
	Usage         Usage
	Cost          float64
	// Priced says the model has a known price; Local that it runs on the user's
	// machine, which costs nothing.
	Priced, Local bool
}

// OfRun adds up the recorded usage of run, per model, and prices it.
func OfRun(ctx context.Context, st *store.Store, run store.RunID, prices *Prices, local func(llm.ModelName) bool) ([]ModelCost, error) {
	batches, err := st.Batches(ctx, run)
	if err != nil {
		return nil, err
	}
	batched := map[string]bool{}
	for _, b := range batches {
		for _, k := range b.Keys {
			batched[k] = true
		}
	}
	type acc struct {
		direct, batch Usage
		mc            ModelCost
	}
	by := map[llm.ModelName]*acc{}
	err = st.Results(ctx, run, true, func(r *store.Result) error {
		if r.Source != store.SourceProvider || r.Err != "" {
			return nil
		}
		a := by[r.Model]
		if a == nil {
			a = &acc{mc: ModelCost{Model: r.Model}}
			by[r.Model] = a
		}
		u := Usage{Input: r.Reply.Usage.InputTokens, Output: r.Reply.Usage.OutputTokens, CachedInput: CachedTokens(r.Reply.Raw)}
		a.mc.Paid++
		into := &a.direct
		if batched[r.JobKey] {
			a.mc.Batched++
			into = &a.batch
		}
		into.Input += u.Input
		into.CachedInput += u.CachedInput
		into.Output += u.Output
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]ModelCost, 0, len(by))
	for name, a := range by {
		mc := a.mc
		mc.Usage = Usage{Input: a.direct.Input + a.batch.Input, CachedInput: a.direct.CachedInput + a.batch.CachedInput,
			Output: a.direct.Output + a.batch.Output}
		if pr, ok := prices.Lookup(name, local != nil && local(name)); ok {
			mc.Priced, mc.Local = true, pr.Local
			mc.Cost = pr.Cost(a.direct, false) + pr.Cost(a.batch, true)
		}
		out = append(out, mc)
	}
	sort.Slice(out, func(i, k int) bool { return out[i].Model < out[k].Model })
	return out, nil
}

// CachedTokens reads the prompt tokens served from the provider's cache out of a raw
// reply as stored: OpenAI's usage.prompt_tokens_details.cached_tokens (also in a
// stream's last chunk), Anthropic's usage.cache_read_input_tokens, Gemini's
// usageMetadata.cachedContentTokenCount. Anything else is 0.
func CachedTokens(raw json.RawMessage) int64 {
	if len(raw) == 0 {
		return 0
	}
	type usage struct {
		PromptTokensDetails struct {
			CachedTokens int64 `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		CacheReadInputTokens int64 `json:"cache_read_input_tokens"`
	}
	var r struct {
		Usage     usage `json:"usage"`
		LastChunk *struct {
			Usage usage `json:"usage"`
		} `json:"last_chunk"`
		UsageMetadata struct {
			CachedContentTokenCount int64 `json:"cachedContentTokenCount"`
		} `json:"usageMetadata"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return 0
	}
	u := r.Usage
	if r.LastChunk != nil {
		u = r.LastChunk.Usage
	}
	return max(u.PromptTokensDetails.CachedTokens, u.CacheReadInputTokens, r.UsageMetadata.CachedContentTokenCount, 0)
}
