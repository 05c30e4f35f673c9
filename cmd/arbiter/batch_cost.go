package main

import (
	"context"
	"fmt"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/cost"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// pricesFor is the model database's prices with the config file's prices: section
// (path names the file in errors; file may be nil).
func pricesFor(path string, file *config.File) (*cost.Prices, error) {
	prices := cost.Default()
	if file != nil {
		if err := prices.Override(path, file.Prices); err != nil {
			return nil, usageError{err}
		}
	}
	return prices, nil
}

// addSeduceCosts gives every model of res the cost of its replies in run, from the
// usage recorded in the store, at the prices of pricesFor(configPath, file). local names
// in-process models (may be nil: baselines and Ollama are known by their provider).
//
// A defense study's models are labelled with their defense and come from several runs;
// they are left without a cost.
func addSeduceCosts(ctx context.Context, st *store.Store, run store.RunID, res *seduce.Results, configPath string, file *config.File, local func(llm.ModelName) bool) error {
	for i := range res.Models {
		if res.Models[i].Defense != "" {
			return nil
		}
	}
	prices, err := pricesFor(configPath, file)
	if err != nil {
		return err
	}
	costs, err := cost.OfRun(ctx, st, run, prices, local)
	if err != nil {
		return err
	}
	byModel := make(map[string]cost.ModelCost, len(costs))
	for _, c := range costs {
		byModel[string(c.Model)] = c
	}
	for i := range res.Models {
		m := &res.Models[i]
		c, ok := byModel[m.Model]
		if !ok { // nothing paid for in this run: every reply came from the cache or in-process
			c = cost.ModelCost{Model: llm.ModelName(m.Model), Priced: true}
		}
		m.Cost = seduceCost(c)
	}
	return nil
}

func seduceCost(c cost.ModelCost) *seduce.Cost {
	out := &seduce.Cost{Requests: c.Paid, Batched: c.Batched, InputTokens: c.Usage.Input,
		CachedInputTokens: c.Usage.CachedInput, OutputTokens: c.Usage.Output}
	if c.Priced {
		usd := c.Cost
		out.USD = &usd
	}
	switch {
	case c.Paid == 0:
		out.Pricing = "none"
	case c.Local:
		out.Pricing = "local"
	case c.Batched == c.Paid:
		out.Pricing = "batch"
	case c.Batched == 0:
		out.Pricing = "direct"
	default:
		out.Pricing = "direct and batch"
	}
	return out
}

// printRunCost writes to stderr, unless quiet, what run cost per model, from the usage
// recorded in the store, at the prices of the config file at configPath ("" for none).
func (a *app) printRunCost(ctx context.Context, st *store.Store, run store.RunID, configPath string) error {
	if a.quiet {
		return nil
	}
	file, err := a.loadConfigFile(configPath)
	if err != nil {
		return err
	}
	prices, err := pricesFor(configPath, file)
	if err != nil {
		return err
	}
	costs, err := cost.OfRun(ctx, st, run, prices, nil)
	if err != nil {
		return err
	}
	for _, c := range costs {
		sc := seduceCost(c)
		usd := "unknown (add the model to the config's prices: section)"
		if sc.USD != nil {
			usd = fmt.Sprintf("%.4f USD", *sc.USD)
		}
		fmt.Fprintf(a.stderr, "cost of %s: %s at %s prices (%d replies paid for: %d input tokens, %d of them cached, %d output tokens)\n",
			c.Model, usd, sc.Pricing, c.Paid, c.Usage.Input, c.Usage.CachedInput, c.Usage.Output)
	}
	return nil
}
