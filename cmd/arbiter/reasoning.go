package main

import (
	"github.com/spf13/pflag"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/providers"
	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// reasoningFlags are --reasoning-effort and --thinking-budget, and the model entries
// of an experiment file: part of every command's runFlags, so that every command that
// asks models takes them.
type reasoningFlags struct {
	effort string
	budget int
	// entries, when set by an experiment file, are the models to run with their own
	// parameters; the flags then apply to the entries that set none.
	entries []llm.Spec
}

func (r *reasoningFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&r.effort, "reasoning-effort", "", "reasoning effort of every model: minimal, low, medium or high (OpenAI reasoning_effort; a thinking budget on Anthropic and Gemini)")
	fs.IntVar(&r.budget, "thinking-budget", 0, "thinking budget in tokens of every model (Anthropic thinking, Gemini thinkingConfig)")
}

// setModelEntries gives f the models of an experiment file, each with its parameters.
func setModelEntries(f *runFlags, entries []llm.Spec) {
	f.reasoning.entries = entries
	f.models = f.models[:0:0]
	for _, e := range entries {
		f.models = append(f.models, string(e.Base))
	}
}

// applyReasoning arranges the opened set as the variants f asks for; a parameter a
// provider cannot carry is an error naming the model, before any request.
func applyReasoning(set *providers.Set, f *runFlags) error {
	r := &f.reasoning
	flags := llm.Params{ReasoningEffort: r.effort, ThinkingBudget: r.budget}
	entries := r.entries
	if entries == nil {
		if flags.IsZero() {
			return nil
		}
		for _, n := range set.Names {
			entries = append(entries, llm.Spec{Base: n})
		}
	}
	out := make([]llm.Spec, len(entries))
	for i, e := range entries {
		if e.Params.ThinkingBudget == 0 && e.Params.ReasoningEffort == "" {
			e.Params.ThinkingBudget, e.Params.ReasoningEffort = flags.ThinkingBudget, flags.ReasoningEffort
		}
		out[i] = e
	}
	if err := set.Arrange(out); err != nil {
		return err
	}
	// Commands that look a model up by the name given find it under its label.
	f.models = f.models[:0:0]
	for _, n := range set.Names {
		f.models = append(f.models, string(n))
	}
	return nil
}

// modelEntries are an experiment file's models as the set arranges them.
func modelEntries(es []seduce.ModelEntry) []llm.Spec {
	out := make([]llm.Spec, len(es))
	for i, e := range es {
		out[i] = llm.Spec{Base: e.Model, Label: e.Label, Params: e.Params}
	}
	return out
}

// reasoningPairs are the study's models run with and without reasoning: each variant
// with a budget or an effort whose base model is in the study as itself.
func reasoningPairs(set *providers.Set) []seduce.ReasoningPair {
	var names []string
	variants := map[string]seduce.RecordedVariant{}
	for _, n := range set.Names {
		names = append(names, string(n))
		if v := set.Variant(n); v != nil {
			variants[string(n)] = seduce.RecordedVariant{Base: v.Base(), Params: v.Params()}
		}
	}
	return seduce.ReasoningPairsOf(names, variants)
}

// storedReasoningPairs are the pairs of a stored run, from the models and variant
// endpoints its configuration records: the pairs the run itself compared.
func storedReasoningPairs(cfg *seduce.RunConfig) []seduce.ReasoningPair {
	return seduce.ReasoningPairsOf(cfg.Models, cfg.Variants())
}
