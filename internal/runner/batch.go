package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// DefaultBatchPoll is how often a submitted batch is polled unless told otherwise.
const DefaultBatchPoll = 30 * time.Second

// submitTimeout bounds one batch submission (an upload of up to the provider's limit of
// bytes and the batch's creation), which an interruption does not cut short.
const submitTimeout = 10 * time.Minute

// BatchOptions are what RunBatch needs beside the plan.
type BatchOptions struct {
	// Batchers holds, for each model that has one, the provider's batch API (unwrapped:
	// batch calls are few and a failed poll is simply polled again next time).
	Batchers map[llm.ModelName]llm.Batcher
	// Poll is the interval between polls (default DefaultBatchPoll).
	Poll time.Duration
	// Retries is how many times a failed or expired line is submitted again in a new batch.
	Retries int
}

// BatchReporter is a Progress that also hears how the run's batches stand, after every
// round of polls: one line per batch and the time waited so far.
type BatchReporter interface {
	Batches(states []llm.BatchStatus, waited time.Duration)
}

// RunBatch executes the plan through the providers' batch APIs. Jobs the store already
// answered are skipped and the cache answers what it can, exactly as Run does; jobs of a
// model without a batch API (a baseline, a local server) go through Run.
//
// Every batch is recorded in the store the moment its provider accepts it, and a
// batch's results are written as ordinary results (under the same cache keys as direct
// requests) before the batch is marked ended. A rerun after a crash therefore polls the
// batches still open and submits only jobs that no batch holds: no request is paid for
// twice. Lines the provider failed or expired go into a new batch, up to Retries times;
// after that they are recorded with their error, for the next run to ask again.
//
// Batch runs do not take the store's claims: two processes must not batch the same run.
func RunBatch(ctx context.Context, st *store.Store, p Plan, bo BatchOptions) (Summary, error) {
	start := time.Now()
	if bo.Poll <= 0 {
		bo.Poll = DefaultBatchPoll
	}
	if p.Local == nil {
		p.Local = func(llm.ModelName) bool { return false }
	}
	if p.Log == nil {
		p.Log = slog.New(slog.DiscardHandler)
	}
	sum := Summary{Jobs: len(p.Jobs)}
	answered, err := answeredOf(ctx, st, p.Run, p.Jobs)
	if err != nil {
		return sum, err
	}
	jobs := make(map[string]Job, len(p.Jobs))
	var direct []Job
	var pending []Job
	for _, j := range p.Jobs {
		if _, dup := jobs[j.Key]; dup {
			return sum, fmt.Errorf("run %s: job %s appears twice", p.Run, j.Key)
		}
		jobs[j.Key] = j
		if _, ok := p.Models[j.Model]; !ok {
			return sum, fmt.Errorf("run %s: job %s: no model %s in the plan", p.Run, j.Key, j.Model)
		}
		if answered[j.Key] {
			sum.Resumed++
			continue
		}
		if bo.Batchers[j.Model] == nil || p.Local(j.Model) {
			direct = append(direct, j)
			continue
		}
		pending = append(pending, j)
	}
	if p.Progress != nil {
		p.Progress.Start(len(p.Jobs), sum.Resumed)
	}
	b := &batchRun{st: st, p: p, bo: bo, jobs: jobs, sum: &sum, latest: map[string]string{}, attempt: map[string]int{}}
	err = b.run(ctx, pending)
	if err == nil && len(direct) > 0 {
		dp := p
		dp.Jobs, dp.Progress = direct, nil
		var ds Summary
		ds, err = Run(ctx, st, dp)
		sum.Cached += ds.Cached
		sum.Asked += ds.Asked
		sum.Answered += ds.Answered
		sum.Failed += ds.Failed
		sum.Elsewhere += ds.Elsewhere
		sum.Resumed += ds.Resumed
	}
	if p.Progress != nil {
		p.Progress.Finish()
	}
	sum.Interrupted = ctx.Err() != nil
	sum.Elapsed = time.Since(start)
	return sum, err
}

type batchRun struct {
	st   *store.Store
	p    Plan
	bo   BatchOptions
	jobs map[string]Job
	sum  *Summary
	// latest names the last batch that holds each key; attempt counts its batches.
	latest  map[string]string
	attempt map[string]int
	open    []store.Batch
	states  map[string]llm.BatchStatus
	begun   time.Time
}

func (b *batchRun) run(ctx context.Context, pending []Job) error {
	b.begun = time.Now()
	b.states = map[string]llm.BatchStatus{}
	recorded, err := b.st.Batches(ctx, b.p.Run)
	if err != nil {
		return err
	}
	inFlight := map[string]bool{}
	for _, bt := range recorded {
		for _, k := range bt.Keys {
			b.latest[k] = bt.ID
			b.attempt[k] = max(b.attempt[k], bt.Attempt)
		}
	}
	for _, bt := range recorded {
		if bt.Ended {
			continue
		}
		if _, ok := b.bo.Batchers[bt.Model]; !ok {
			return fmt.Errorf("run %s: batch %s was submitted to %s, which this run does not batch", b.p.Run, bt.ID, bt.Model)
		}
		b.open = append(b.open, bt)
		for _, k := range bt.Keys {
			inFlight[k] = true
		}
	}
	// The cache answers first, in a few queries for the whole run; what it cannot goes
	// into new batches.
	var submit []Job
	for _, j := range pending {
		if !inFlight[j.Key] {
			submit = append(submit, j)
		}
	}
	var hits []*store.Result
	if !b.p.NoCache && len(submit) > 0 {
		found, replies, rest, err := fromCache(ctx, b.st, b.p.Endpoint, submit)
		if err != nil {
			b.p.Log.Warn("cache read failed; batching the requests", "jobs", len(submit), "err", err)
		}
		for i, j := range found {
			res := b.result(j, replies[i], "")
			res.Source = store.SourceCache
			hits = append(hits, res)
		}
		submit = rest
	}
	if len(hits) > 0 {
		if err := b.st.PutResults(context.WithoutCancel(ctx), hits, nil); err != nil {
			return fmt.Errorf("run %s: the store cannot keep results: %w", b.p.Run, err)
		}
		b.sum.Cached += len(hits)
		b.done(hits)
	}
	if err := b.submit(ctx, submit); err != nil {
		return err
	}
	for len(b.open) > 0 {
		if err := b.pollRound(ctx); err != nil {
			return err
		}
		if len(b.open) == 0 {
			break
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(b.bo.Poll):
		}
	}
	return nil
}

func (b *batchRun) cacheKey(j Job) string {
	return cacheKey(b.p.Endpoint, &j, j.Request.Hash())
}

func (b *batchRun) result(j Job, r *llm.Reply, errText string) *store.Result {
	res := &store.Result{RunID: b.p.Run, JobKey: j.Key, Model: j.Model, Item: j.Item, Replicate: j.Replicate,
		RequestHash: j.Request.Hash(), Source: store.SourceProvider, Err: errText}
	if r != nil {
		res.Reply = *r
		if b.p.Outcome != nil {
			res.Outcome = b.p.Outcome(j, r)
		}
	}
	return res
}

func (b *batchRun) done(rs []*store.Result) {
	if b.p.Progress == nil {
		return
	}
	for _, r := range rs {
		b.p.Progress.Done(r.Err != "")
	}
}

// submit splits jobs by model into batches within the provider's limits and submits
// each, recording it as soon as it is accepted.
func (b *batchRun) submit(ctx context.Context, jobs []Job) error {
	byModel := map[llm.ModelName][]Job{}
	var models []llm.ModelName
	for _, j := range jobs {
		if _, ok := byModel[j.Model]; !ok {
			models = append(models, j.Model)
		}
		byModel[j.Model] = append(byModel[j.Model], j)
	}
	sort.Slice(models, func(i, k int) bool { return models[i] < models[k] })
	for _, m := range models {
		bt := b.bo.Batchers[m]
		spec := b.p.specOf(m)
		maxLines, maxBytes := bt.BatchLimits()
		var lines []llm.BatchLine
		var keys []string
		size := 0
		flush := func() error {
			if len(lines) == 0 {
				return nil
			}
			if err := b.submitOne(ctx, m, bt, lines, keys); err != nil {
				return err
			}
			lines, keys, size = nil, nil, 0
			return nil
		}
		for _, j := range byModel[m] {
			l := llm.BatchLine{ID: "l" + strconv.Itoa(len(lines)), Request: spec.Apply(j.Request)}
			n, err := bt.BatchLineSize(l)
			if err != nil {
				// A request the provider cannot take is a failed job, as Run records it.
				res := b.result(j, nil, err.Error())
				if err := b.st.PutResults(context.WithoutCancel(ctx), []*store.Result{res}, nil); err != nil {
					return fmt.Errorf("run %s: the store cannot keep results: %w", b.p.Run, err)
				}
				b.sum.Asked++
				b.sum.Failed++
				b.done([]*store.Result{res})
				continue
			}
			if len(lines) > 0 && (len(lines)+1 > maxLines || size+n > maxBytes) {
				if err := flush(); err != nil {
					return err
				}
				l.ID = "l0"
				if n, err = bt.BatchLineSize(l); err != nil {
					return err
				}
			}
			lines = append(lines, l)
			keys = append(keys, j.Key)
			size += n
		}
		if err := flush(); err != nil {
			return err
		}
	}
	return nil
}

func (b *batchRun) submitOne(ctx context.Context, model llm.ModelName, bt llm.Batcher, lines []llm.BatchLine, keys []string) error {
	attempt := 0
	for _, k := range keys {
		attempt = max(attempt, b.attempt[k]+1)
	}
	if ctx.Err() != nil {
		return nil
	}
	// Once begun, a submission is not cancelled: the provider may accept the batch
	// before an interruption would reach it, and a batch accepted but never recorded
	// would be paid for twice by the rerun. It is bounded by submitTimeout instead.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), submitTimeout)
	id, err := bt.SubmitBatch(sctx, lines)
	cancel()
	if err != nil {
		return fmt.Errorf("run %s: submit a batch of %d requests to %s: %w", b.p.Run, len(lines), bt.Name(), err)
	}
	rec := store.Batch{Run: b.p.Run, ID: id, Model: model, Attempt: attempt, Keys: keys, Status: "submitted"}
	// Record it before anything else, even when interrupted: the provider has it now.
	if err := b.st.PutBatch(context.WithoutCancel(ctx), rec); err != nil {
		return fmt.Errorf("run %s: batch %s was submitted but the store cannot record it (a rerun would submit its requests again): %w", b.p.Run, id, err)
	}
	for _, k := range keys {
		b.latest[k] = id
		b.attempt[k] = attempt
	}
	b.sum.Asked += len(keys)
	b.open = append(b.open, rec)
	b.p.Log.Info("batch submitted", "run", b.p.Run, "model", bt.Name(), "batch", id, "requests", len(keys), "attempt", attempt)
	return nil
}

// pollRound polls every open batch once and takes in the results of those that ended.
func (b *batchRun) pollRound(ctx context.Context) error {
	var still []store.Batch
	var again []Job
	for _, rec := range b.open {
		if ctx.Err() != nil {
			return nil
		}
		bt := b.bo.Batchers[rec.Model]
		s, err := bt.PollBatch(ctx, rec.ID)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			var le *llm.Error
			if errors.As(err, &le) && le.Retryable {
				b.p.Log.Warn("batch poll failed; polling again next round", "batch", rec.ID, "err", err)
				still = append(still, rec)
				continue
			}
			return fmt.Errorf("run %s: poll batch %s of %s: %w", b.p.Run, rec.ID, rec.Model, err)
		}
		b.states[rec.ID] = s
		if s.Status != rec.Status && !s.Ended {
			rec.Status = s.Status
			if err := b.st.SetBatchStatus(ctx, b.p.Run, rec.ID, s.Status, false); err != nil {
				return err
			}
		}
		if !s.Ended {
			still = append(still, rec)
			continue
		}
		rec.Status = s.Status
		retry, err := b.collect(ctx, bt, rec)
		if err != nil {
			return err
		}
		again = append(again, retry...)
		delete(b.states, rec.ID)
		b.reportEnded(s)
	}
	b.open = still
	if r, ok := b.p.Progress.(BatchReporter); ok {
		r.Batches(b.stateList(), time.Since(b.begun))
	}
	return b.submit(ctx, again)
}

func (b *batchRun) reportEnded(s llm.BatchStatus) {
	b.p.Log.Info("batch ended", "run", b.p.Run, "batch", s.ID, "status", s.Status, "succeeded", s.Succeeded, "failed", s.Failed)
}

func (b *batchRun) stateList() []llm.BatchStatus {
	out := make([]llm.BatchStatus, 0, len(b.states))
	for _, s := range b.states {
		out = append(out, s)
	}
	sort.Slice(out, func(i, k int) bool { return out[i].ID < out[k].ID })
	return out
}

// collect writes an ended batch's results and returns the jobs to submit again. Keys a
// later batch holds already (a crash came between resubmitting and marking this batch
// ended) are left to that batch.
func (b *batchRun) collect(ctx context.Context, bt llm.Batcher, rec store.Batch) ([]Job, error) {
	results, err := bt.BatchResults(ctx, rec.ID)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil
		}
		return nil, fmt.Errorf("run %s: read the results of batch %s of %s: %w", b.p.Run, rec.ID, rec.Model, err)
	}
	byID := make(map[string]llm.BatchResult, len(results))
	for _, r := range results {
		byID[r.ID] = r
	}
	var write []*store.Result
	var keys []string
	var again []Job
	for i, k := range rec.Keys {
		j, ok := b.jobs[k]
		if !ok || b.latest[k] != rec.ID {
			continue
		}
		r, ok := byID["l"+strconv.Itoa(i)]
		switch {
		case ok && r.Reply != nil:
			write = append(write, b.result(j, r.Reply, ""))
			keys = append(keys, b.cacheKey(j))
			b.sum.Answered++
			continue
		case !ok:
			r.Err = &llm.Error{Provider: rec.Model.Provider(), Code: "batch_" + rec.Status, Message: "the batch ended without a result for this request", Retryable: true}
		case r.Err == nil:
			r.Err = &llm.Error{Provider: rec.Model.Provider(), Code: "batch_line", Message: "the batch result holds neither a reply nor an error", Retryable: true}
		}
		if r.Err.Retryable && rec.Attempt <= b.bo.Retries {
			again = append(again, j)
			continue
		}
		res := b.result(j, nil, r.Err.Error())
		res.Reply.Attempts = rec.Attempt
		write = append(write, res)
		keys = append(keys, "")
		b.sum.Failed++
	}
	if len(write) > 0 {
		if err := b.st.PutResults(context.WithoutCancel(ctx), write, keys); err != nil {
			return nil, fmt.Errorf("run %s: the store cannot keep results: %w", b.p.Run, err)
		}
		b.done(write)
	}
	// Results first, then resubmission (by the caller), and the batch is marked ended
	// here already: a crash between the two leaves its failed keys with no batch open,
	// so the rerun submits them once.
	if err := b.st.SetBatchStatus(context.WithoutCancel(ctx), b.p.Run, rec.ID, rec.Status, true); err != nil {
		return nil, err
	}
	return again, nil
}

// batchLabel describes batch states for a progress line.
func batchLabel(states []llm.BatchStatus, waited time.Duration) string {
	var parts []string
	for _, s := range states {
		parts = append(parts, fmt.Sprintf("%s %s %d/%d (%d failed)", s.ID, s.Status, s.Succeeded, s.Total, s.Failed))
	}
	if len(parts) == 0 {
		parts = append(parts, "no batch open")
	}
	return fmt.Sprintf("batches: %s; waited %s", strings.Join(parts, ", "), waited.Round(time.Second))
}
