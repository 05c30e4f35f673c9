package web

import (
	"context"
	"encoding/json"

	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// runVariants describes, by label, the models of run id that are variants of another
// (a thinking budget, an effort…): "anthropic/claude-sonnet-4-5, thinking_budget 8192",
// read from the endpoints its configuration records. A run without them, or whose
// configuration cannot be read, has none: the page still lists its replies.
func runVariants(ctx context.Context, st *store.Store, id store.RunID) map[string]string {
	run, err := findRun(ctx, st, id)
	if err != nil || run == nil {
		return nil
	}
	var cfg seduce.RunConfig
	if json.Unmarshal(run.Config, &cfg) != nil {
		return nil
	}
	out := map[string]string{}
	for label, v := range cfg.Variants() {
		out[label] = v.Describe()
	}
	return out
}
