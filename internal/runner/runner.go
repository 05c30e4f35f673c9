// Package runner feeds (model, item) jobs through the models' reliability wrappers with a
// bounded pool of workers per model, and writes every outcome to the store as it arrives.
//
// A run is resumable: jobs the store already answered are skipped, identical requests
// answered by any earlier run come from the cache, and a failed request is recorded with
// its final error and asked again by the next run. Results are committed in small groups
// as they come in, so a killed process loses at most the requests in flight.
//
// Session (session.go) is how every command runs on top of Run: it begins a run under
// its identity (kind, configuration, input and prompt hashes, endpoints), checks once
// that the servers are reachable, asks rounds of independent requests (Round, AskJSON
// with a repair turn) or one request at a time when each depends on the replies before
// it (Ask, for a trial turn by turn), and records how the run ended (Finish). Each
// request keeps its caller-chosen key, so a rerun resumes wherever the first one stopped.
package runner

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// Job is one request to one model.
type Job struct {
	// Key is unique within the run; it is how resume finds the job again.
	Key       string
	Model     llm.ModelName
	Item      string
	Replicate int
	Request   *llm.Request
}

// JobKey builds the conventional key of a job.
func JobKey(model llm.ModelName, item string, replicate int) string {
	return fmt.Sprintf("%s|%s|%d", model, item, replicate)
}

// Plan is everything one run needs.
type Plan struct {
	Run  store.RunID
	Jobs []Job
	// Models holds each job's model, already wrapped for retries and limits.
	Models map[llm.ModelName]llm.Model
	// Concurrency is the number of requests in flight at once per model (default 8).
	Concurrency int
	// NoCache skips the response cache: every missing job is asked of its provider.
	NoCache bool
	// Local names models that run in process (baselines): never cached, never counted as
	// paid requests.
	Local func(llm.ModelName) bool
	// Endpoint names where a model is asked when it is not its provider's own endpoint
	// (may be nil); it scopes the cache.
	Endpoint func(llm.ModelName) string
	// Outcome turns a reply into the parsed outcome stored beside it (may be nil).
	Outcome func(Job, *llm.Reply) string
	// Progress receives live updates (may be nil).
	Progress Progress
	Counters *llm.Counters
	Log      *slog.Logger
}

// Summary counts what a run did.
type Summary struct {
	Jobs int
	// Resumed jobs were already answered in the store and were not asked again.
	Resumed int
	// Cached jobs were answered from the cache of another run.
	Cached int
	// Asked jobs were sent to a model in this run; Answered and Failed split them.
	Asked    int
	Answered int
	Failed   int
	Elapsed  time.Duration
	// Interrupted is set when the context ended before every job was done.
	Interrupted bool
}

// Progress is told about the run as it goes.
type Progress interface {
	Start(total, already int)
	Done(failed bool)
	Finish()
}

// Run executes the plan against st. It returns early only for store errors or an
// unknown model; a failed request is a recorded outcome, not an error.
func Run(ctx context.Context, st *store.Store, p Plan) (Summary, error) {
	start := time.Now()
	if p.Concurrency <= 0 {
		p.Concurrency = 8
	}
	if p.Log == nil {
		p.Log = slog.New(slog.DiscardHandler)
	}
	if p.Local == nil {
		p.Local = func(llm.ModelName) bool { return false }
	}
	sum := Summary{Jobs: len(p.Jobs)}
	answered, err := st.AnsweredKeys(ctx, p.Run)
	if err != nil {
		return sum, err
	}
	queues := map[llm.ModelName][]Job{}
	var order []llm.ModelName
	seen := make(map[string]bool, len(p.Jobs))
	for _, j := range p.Jobs {
		if seen[j.Key] {
			return sum, fmt.Errorf("run %s: job %s appears twice", p.Run, j.Key)
		}
		seen[j.Key] = true
		if _, ok := p.Models[j.Model]; !ok {
			return sum, fmt.Errorf("run %s: job %s: no model %s in the plan", p.Run, j.Key, j.Model)
		}
		if answered[j.Key] {
			sum.Resumed++
			continue
		}
		if _, ok := queues[j.Model]; !ok {
			order = append(order, j.Model)
		}
		queues[j.Model] = append(queues[j.Model], j)
	}
	if p.Progress != nil {
		p.Progress.Start(len(p.Jobs), sum.Resumed)
	}

	w := newWriter(st, p.Concurrency*max(1, len(order)))
	var cached, asked, ok, failed atomic.Int64
	var wg sync.WaitGroup
	for _, name := range order {
		jobs := make(chan Job)
		model := p.Models[name]
		for range min(p.Concurrency, len(queues[name])) {
			wg.Go(func() {
				for j := range jobs {
					res, key, source := do(ctx, st, p, model, j)
					if res == nil { // cancelled: leave it for the next run
						continue
					}
					switch {
					case source == "cache":
						cached.Add(1)
					case res.Err != "":
						asked.Add(1)
						failed.Add(1)
					default:
						asked.Add(1)
						ok.Add(1)
					}
					// Wait for the commit: a worker takes its next job only once its
					// answer is on disk, so a kill loses at most the jobs in flight.
					if err := w.put(res, key); err != nil {
						p.Log.Error("result not saved", "job", j.Key, "err", err)
					}
					if p.Progress != nil {
						p.Progress.Done(res.Err != "")
					}
				}
			})
		}
		wg.Go(func() {
			defer close(jobs)
			for _, j := range queues[name] {
				select {
				case jobs <- j:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	wg.Wait()
	werr := w.close()
	if p.Progress != nil {
		p.Progress.Finish()
	}
	sum.Cached, sum.Asked, sum.Answered, sum.Failed = int(cached.Load()), int(asked.Load()), int(ok.Load()), int(failed.Load())
	sum.Interrupted = ctx.Err() != nil
	sum.Elapsed = time.Since(start)
	return sum, werr
}

// do answers one job from the cache or its model. A nil result means the context ended
// before an answer: nothing is recorded and the next run asks again.
func do(ctx context.Context, st *store.Store, p Plan, model llm.Model, j Job) (*store.Result, string, string) {
	if ctx.Err() != nil {
		return nil, "", ""
	}
	local := p.Local(j.Model)
	reqHash := j.Request.Hash()
	res := &store.Result{RunID: p.Run, JobKey: j.Key, Model: j.Model, Item: j.Item, Replicate: j.Replicate, RequestHash: reqHash, Source: "provider"}
	if local {
		res.Source = "builtin"
	}
	key := ""
	if !local {
		endpoint := ""
		if p.Endpoint != nil {
			endpoint = p.Endpoint(j.Model)
		}
		key = store.CacheKey(j.Model, endpoint, reqHash, j.Replicate)
		if !p.NoCache {
			if r, hit, err := st.CachedReply(ctx, key); err == nil && hit {
				res.Reply, res.Source = *r, "cache"
				if p.Outcome != nil {
					res.Outcome = p.Outcome(j, r)
				}
				return res, "", "cache"
			} else if err != nil {
				p.Log.Warn("cache read failed; asking the provider", "job", j.Key, "err", err)
			}
		}
	}
	start := time.Now()
	reply, err := model.Generate(ctx, j.Request)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", ""
		}
		res.Err = err.Error()
		res.Reply.Attempts = llm.AttemptsOf(err)
		res.Reply.Latency = time.Since(start)
		p.Log.Debug("job failed", "job", j.Key, "err", err)
		return res, "", "provider"
	}
	if reply.Attempts == 0 {
		reply.Attempts = 1
	}
	if reply.Latency == 0 {
		reply.Latency = time.Since(start)
	}
	res.Reply = *reply
	if p.Outcome != nil {
		res.Outcome = p.Outcome(j, reply)
	}
	return res, key, string(res.Source)
}

// writer group-commits results: whatever has arrived while the last transaction was
// being written goes into the next one, and each sender hears when its result is saved.
type writer struct {
	st   *store.Store
	in   chan item
	done chan struct{}
	err  error
}

type item struct {
	res   *store.Result
	key   string
	saved chan error
}

func newWriter(st *store.Store, buf int) *writer {
	w := &writer{st: st, in: make(chan item, buf), done: make(chan struct{})}
	go w.loop()
	return w
}

// put hands a result to the writer and waits until it is committed.
func (w *writer) put(r *store.Result, cacheKey string) error {
	saved := make(chan error, 1)
	w.in <- item{r, cacheKey, saved}
	return <-saved
}

func (w *writer) loop() {
	defer close(w.done)
	const maxBatch = 256
	results := make([]*store.Result, 0, maxBatch)
	keys := make([]string, 0, maxBatch)
	waiting := make([]chan error, 0, maxBatch)
	for first := range w.in {
		results, keys, waiting = append(results[:0], first.res), append(keys[:0], first.key), append(waiting[:0], first.saved)
	drain:
		for len(results) < maxBatch {
			select {
			case it, ok := <-w.in:
				if !ok {
					break drain
				}
				results, keys, waiting = append(results, it.res), append(keys, it.key), append(waiting, it.saved)
			default:
				break drain
			}
		}
		// Writes use their own context: an interrupted run still records what it has.
		err := w.st.PutResults(context.Background(), results, keys)
		if err != nil && w.err == nil {
			w.err = err
		}
		for _, c := range waiting {
			c <- err
		}
	}
}

func (w *writer) close() error {
	close(w.in)
	<-w.done
	return w.err
}
