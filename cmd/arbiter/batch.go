package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/cost"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/providers"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// batchFlags are --batch, --batch-poll and --dry-run (cli.md, "Batch") of one command.
type batchFlags struct {
	batch  bool
	poll   time.Duration
	dryRun bool

	mu      sync.Mutex
	pending []runner.Job
	est     *cost.Estimator
	st      *store.Store
}

// registerBatch adds the batch flags to a command whose rounds are independent
// requests, and makes a dry run end with its estimate rather than an error.
func (a *app) registerBatch(cmd *cobra.Command, rf *runFlags) {
	bf := &batchFlags{}
	cmd.Flags().BoolVar(&bf.batch, "batch", false, "send the requests through the providers' batch APIs (half price, results within 24h); a rerun polls the batches already submitted")
	cmd.Flags().DurationVar(&bf.poll, "batch-poll", runner.DefaultBatchPoll, "how often --batch polls its batches")
	cmd.Flags().BoolVar(&bf.dryRun, "dry-run", false, "print the requests, estimated tokens and cost per model that the run would send, and send nothing")
	rf.batch = bf
	run := cmd.RunE
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		err := run(cmd, args)
		if bf.dryRun && errors.Is(err, runner.ErrDryRun) {
			return a.printEstimate(cmd.Context(), bf)
		}
		return err
	}
}

// applyBatch sets up a session for --batch or --dry-run when its command has them.
func (a *app) applyBatch(sess *runner.Session, ms *models, f *runFlags) error {
	bf := f.batch
	if bf == nil {
		return nil
	}
	if bf.poll <= 0 {
		return badInput("--batch-poll %s: want a positive duration", bf.poll)
	}
	if bf.dryRun {
		prices, err := pricesFor(f.configPath, ms.file)
		if err != nil {
			return err
		}
		bf.st = sess.Store
		bf.est = &cost.Estimator{Prices: prices, Local: ms.Local, Batch: bf.batch,
			History: func(m llm.ModelName) (float64, int) {
				avg, n, err := sess.Store.OutputHistory(context.Background(), m)
				if err != nil {
					return 0, 0
				}
				return avg, n
			}}
		sess.DryRun = func(_ store.RunID, pending []runner.Job) {
			bf.mu.Lock()
			bf.pending = append(bf.pending, pending...)
			bf.mu.Unlock()
		}
		return nil
	}
	if !bf.batch {
		return nil
	}
	env := a.env
	if f.configPath != "" {
		_, eps, err := config.LoadFile(f.configPath, a.env.Look)
		if err != nil {
			return usageError{err}
		}
		env.Apply(eps)
	}
	batchers := map[llm.ModelName]llm.Batcher{}
	for _, name := range ms.Names {
		if ms.Local(name) {
			continue
		}
		// A variant is batched as the model it asks; its parameters go into each line.
		m, err := providers.Open(ms.Spec(name).Base, env, providers.Options{BaseURL: f.baseURL})
		if err != nil {
			return usageError{err}
		}
		if b, ok := m.(llm.Batcher); ok {
			batchers[name] = b
		} else {
			a.log.Warn("this provider has no batch API arbiter uses; its requests are sent one by one", "model", name)
		}
	}
	sess.Batch = &runner.BatchOptions{Batchers: batchers, Poll: bf.poll, Retries: f.retries}
	return nil
}

// printEstimate writes a dry run's estimate, one line per model, and a total.
func (a *app) printEstimate(ctx context.Context, bf *batchFlags) error {
	bf.mu.Lock()
	defer bf.mu.Unlock()
	byModel := map[llm.ModelName][]*llm.Request{}
	for _, j := range bf.pending {
		byModel[j.Model] = append(byModel[j.Model], j.Request)
	}
	names := make([]llm.ModelName, 0, len(byModel))
	for n := range byModel {
		names = append(names, n)
	}
	sort.Slice(names, func(i, k int) bool { return names[i] < names[k] })
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	price := "direct"
	if bf.batch {
		price = "batch"
	}
	fmt.Fprintf(tw, "model\trequests\tinput tokens\toutput tokens\toutput from\tcost (USD, %s price)\n", price)
	var total float64
	var reqs int
	unpriced := false
	for _, n := range names {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		e, err := bf.est.Estimate(n, byModel[n])
		if err != nil {
			return err
		}
		c := "unknown (add it to the config's prices: section)"
		if e.Priced {
			c = fmt.Sprintf("%.4f", e.Cost)
			total += e.Cost
		} else {
			unpriced = true
		}
		reqs += e.Requests
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\n", n, e.Requests, e.InputTokens, e.OutputTokens, e.OutputFrom, c)
	}
	more := ""
	if unpriced {
		more = " + unpriced models"
	}
	fmt.Fprintf(tw, "total\t%d\t\t\t\t%.4f%s\n", reqs, total, more)
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write estimate: %w", err)
	}
	if !a.quiet {
		fmt.Fprintln(a.stderr, "dry run: nothing was sent; rounds that depend on replies (repair turns, --parse-model) are not counted")
	}
	return nil
}

// refuseBatch gives a command whose requests depend on each other (a trial's turns) a
// --batch flag that refuses, in one line, to do what it cannot (exit 2).
func refuseBatch(cmd *cobra.Command) {
	var batch bool
	cmd.Flags().BoolVar(&batch, "batch", false, "not available: a trial's turns depend on each other and cannot be batched")
	_ = cmd.Flags().MarkHidden("batch")
	pre := cmd.PreRunE
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error {
		if batch {
			return badInput("--batch: a trial's turns depend on each other (each is asked after the reply before it), so they cannot go through a batch API; run without --batch")
		}
		if pre != nil {
			return pre(cmd, args)
		}
		return nil
	}
}
