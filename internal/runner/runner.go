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
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/procmem"
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

// specOf is the spec of model m in p.
func (p *Plan) specOf(m llm.ModelName) llm.Spec {
	if p.Spec == nil {
		return llm.PlainSpec(m)
	}
	return p.Spec(m)
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
	// Spec is each model as data (may be nil: every model is plain). Models already
	// applies a variant's parameters; the batch executor, which sends requests
	// another way, applies them with Spec.Apply.
	Spec func(llm.ModelName) llm.Spec
	// Progress receives live updates (may be nil).
	Progress Progress
	Counters *llm.Counters
	Log      *slog.Logger
	// Holder names this process in the store's claims (default: a fresh store.NewHolder).
	Holder store.Holder
	// Lease is how long a claim lasts unless renewed (default DefaultLease).
	Lease time.Duration
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
	// Elsewhere jobs were answered (or recorded as failed) by another process working
	// on the same run at the same time.
	Elsewhere int
	Elapsed   time.Duration
	// Interrupted is set when the context ended before every job was done.
	Interrupted bool
}

// AddTally counts in s what a gathering of rounds asked (its rounds aside).
func (s *Summary) AddTally(t Tally) {
	s.Jobs += t.Jobs
	s.Resumed += t.Resumed
	s.Cached += t.Cached
	s.Asked += t.Asked
	s.Answered += t.Answered
	s.Failed += t.Failed
}

// Progress is told about the run as it goes.
type Progress interface {
	Start(total, already int)
	Done(failed bool)
	Finish()
}

// DefaultLease is how long a claim on a job lasts unless renewed: a process that dies
// holds its jobs up to this long before another takes them over.
const DefaultLease = 20 * time.Second

// Run executes the plan against st. It returns early only for store errors or an
// unknown model; a failed request is a recorded outcome, not an error.
//
// Every job is claimed in the store before it is asked, so two processes on the same
// run split its jobs: a job the other holds is set aside and tried again until its
// result appears or its holder's lease runs out. Asking stops at the first result the
// store cannot keep (a full disk, a read-only file), and asking a model stops at its
// first 401 or 403; both make Run return an error.
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
	if p.Lease <= 0 {
		p.Lease = DefaultLease
	}
	if p.Holder == "" {
		p.Holder = store.NewHolder()
	}
	sum := Summary{Jobs: len(p.Jobs)}
	answered, err := answeredOf(ctx, st, p.Run, p.Jobs)
	if err != nil {
		return sum, err
	}
	// The queues point into p.Jobs: a large run holds its jobs once.
	queues := map[llm.ModelName][]*Job{}
	var order []llm.ModelName
	seen := make(map[string]bool, len(p.Jobs))
	for i := range p.Jobs {
		j := &p.Jobs[i]
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

	// askCtx ends every request when the run must stop asking (halt); ctx ending is an
	// interruption instead.
	askCtx, stopAsking := context.WithCancel(ctx)
	defer stopAsking()
	var haltMu sync.Mutex
	var halted []error
	record := func(err error) {
		haltMu.Lock()
		halted = append(halted, err)
		haltMu.Unlock()
	}
	halt := func(err error) {
		record(err)
		stopAsking()
	}
	// A store that cannot write fails every writer, feeder and renewal at once: say so once.
	var storeOnce sync.Once
	storeFailed := func(err error) { storeOnce.Do(func() { halt(err) }) }
	var othersOnce sync.Once
	others := func(h store.Holder) {
		othersOnce.Do(func() {
			p.Log.Warn("another process is answering this run too; asking only the jobs it does not hold", "run", p.Run, "other", h)
		})
	}
	renewed := renewClaims(askCtx, st, p, storeFailed)

	// The set-up is over (the plan built, the store open): give back the pages of the
	// executable only it used, once in a process.
	procmem.ReleaseOnce()
	w := newWriter(st, p.Run, p.Holder, p.Concurrency*max(1, len(order)))
	var cached, asked, ok, failed, elsewhere atomic.Int64
	var wg sync.WaitGroup
	for _, name := range order {
		// The feeder works a batch ahead: while the workers take this batch's jobs, it
		// claims and looks up the next, so that no worker waits for a claim.
		jobs := make(chan task, p.Concurrency)
		// modelCtx ends when this model refuses our credentials: its other jobs are
		// not sent, those in flight finish and are recorded.
		modelCtx, stopModel := context.WithCancel(askCtx)
		defer stopModel()
		var refusedOnce sync.Once
		model := refusalGuard{p.Models[name], func(status int) {
			refusedOnce.Do(func() {
				record(fmt.Errorf("model %s: HTTP %d: the provider refused the credentials, so its other requests were not sent (check its API key and access to the model)", name, status))
				stopModel()
			})
		}}
		for range min(p.Concurrency, len(queues[name])) {
			wg.Go(func() {
				for t := range jobs {
					if modelCtx.Err() != nil {
						continue
					}
					res, key := do(askCtx, st, p, model, t)
					if res == nil { // cancelled: leave it for the next run
						continue
					}
					switch {
					case res.Source == store.SourceCache:
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
						storeFailed(fmt.Errorf("run %s: the store cannot keep results, so no more requests were sent: %w", p.Run, err))
						continue
					}
					if p.Progress != nil {
						p.Progress.Done(res.Err != "")
					}
				}
			})
		}
		wg.Go(func() {
			defer close(jobs)
			if err := feed(modelCtx, st, p, start, queues[name], jobs, func(c store.Claim) {
				elsewhere.Add(1)
				if p.Progress != nil {
					p.Progress.Done(false)
				}
			}, others); err != nil {
				storeFailed(err)
			}
		})
	}
	wg.Wait()
	stopAsking()
	<-renewed
	werr := w.close()
	// Jobs claimed but not asked (an interrupt, a halt) are free for others at once.
	if err := st.ReleaseClaims(context.WithoutCancel(ctx), p.Run, p.Holder, nil); err != nil {
		p.Log.Warn("claims not released; other processes take these jobs once the lease runs out", "run", p.Run, "err", err)
	}
	if p.Progress != nil {
		p.Progress.Finish()
	}
	sum.Cached, sum.Asked, sum.Answered, sum.Failed = int(cached.Load()), int(asked.Load()), int(ok.Load()), int(failed.Load())
	sum.Elsewhere = int(elsewhere.Load())
	sum.Interrupted = ctx.Err() != nil
	sum.Elapsed = time.Since(start)
	haltMu.Lock()
	defer haltMu.Unlock()
	if len(halted) > 0 {
		// The writer's error is the first failed write, already in halted.
		return sum, errors.Join(halted...)
	}
	return sum, werr
}

// task is a claimed job on its way to a worker, with what the feeder found out for it.
type task struct {
	job *Job
	// hash is the request's hash; key its cache key ("" for a local model).
	hash, key string
	// cached is the reply the cache holds for key, if any.
	cached *llm.Reply
	// recheck is set when an earlier job of the run has the same key: the worker looks it
	// up again just before asking, by which time that job may have been answered.
	recheck bool
}

// feed claims the queue's jobs a batch at a time, looks the claimed ones up in the cache
// in one query, and hands them to out. A job another process holds is set aside and
// claimed again after a pause, until it is finished (by anyone) or the context ends.
// finished hears of jobs another process answered; held of each holder met.
//
// The look-up is the feeder's, one batch ahead of the workers, so that a worker whose
// model is free goes straight to it instead of queueing for the store's connection
// behind every other worker's look-up and the results being written.
func feed(ctx context.Context, st *store.Store, p Plan, since time.Time, queue []*Job, out chan<- task,
	finished func(store.Claim), held func(store.Holder)) error {
	batch := max(8, p.Concurrency)
	keys := make([]string, 0, batch)
	// Jobs often share a request (a sample's models and replicates): hash each once.
	hashes := map[*llm.Request]string{}
	asked := newKeySet()
	for len(queue) > 0 {
		var aside []*Job
		var claimed []task
		for i := 0; i < len(queue); i += batch {
			chunk := queue[i:min(i+batch, len(queue))]
			keys = keys[:0]
			for _, j := range chunk {
				keys = append(keys, j.Key)
			}
			claims, err := st.Claim(ctx, p.Run, p.Holder, keys, since, p.Lease)
			if err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return fmt.Errorf("run %s: the store cannot record which jobs this process answers, so no more requests were sent: %w", p.Run, err)
			}
			claimed = claimed[:0]
			for k, c := range claims {
				switch c.State {
				case store.Claimed:
					claimed = append(claimed, newTask(p, chunk[k], hashes))
				case store.Finished:
					finished(c)
				case store.Held:
					held(c.Holder)
					aside = append(aside, chunk[k])
				}
			}
			lookUp(ctx, st, p, claimed, asked)
			for _, t := range claimed {
				select {
				case out <- t:
				case <-ctx.Done():
					return nil
				}
			}
		}
		if len(aside) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(min(p.Lease/4, 500*time.Millisecond)):
		}
		queue = aside
	}
	return nil
}

// renewClaims keeps this process's leases alive until ctx ends; the channel closes
// when it has stopped. A store that cannot renew halts the run.
func renewClaims(ctx context.Context, st *store.Store, p Plan, halt func(error)) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(p.Lease / 4)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := st.RenewClaims(ctx, p.Run, p.Holder, p.Lease); err != nil && ctx.Err() == nil {
					halt(fmt.Errorf("run %s: the store cannot renew this process's claims, so no more requests were sent: %w", p.Run, err))
					return
				}
			}
		}
	}()
	return done
}

// refusalGuard passes every request to its model and reports the status of a reply
// that refuses the credentials.
type refusalGuard struct {
	llm.Model
	refused func(status int)
}

func (g refusalGuard) Generate(ctx context.Context, req *llm.Request) (*llm.Reply, error) {
	r, err := g.Model.Generate(ctx, req)
	if status, ok := credentialsRefused(err); ok {
		g.refused(status)
	}
	return r, err
}

// credentialsRefused reports a 401 or 403: the key is wrong or may not use the model, so
// every other request to it would fail the same way.
func credentialsRefused(err error) (status int, ok bool) {
	var e *llm.Error
	if errors.As(err, &e) && (e.Status == 401 || e.Status == 403) {
		return e.Status, true
	}
	return 0, false
}

// do answers one job of the pool: a job whose request an earlier job of the run sent
// looks itself up in the cache again first, then Answer. A nil result means the context
// ended before an answer: nothing is recorded and the next run asks again.
func do(ctx context.Context, st *store.Store, p Plan, model llm.Model, t task) (*store.Result, string) {
	if t.recheck {
		if r, hit, err := st.CachedReply(ctx, t.key); err == nil && hit {
			t.cached = r
		} else if err != nil {
			p.Log.Warn("cache read failed; asking the provider", "job", t.job.Key, "err", err)
		}
	}
	var read func(*llm.Reply) string
	if p.Outcome != nil {
		j := *t.job
		read = func(r *llm.Reply) string { return p.Outcome(j, r) }
	}
	res := Answer(ctx, p.Run, t.job, Answering{Model: model, Hash: t.hash, CacheKey: t.key, Cached: t.cached, Read: read})
	if res == nil || res.Source != store.SourceProvider || res.Err != "" {
		return res, ""
	}
	return res, t.key
}

// Answering is what Answer needs beside the job.
type Answering struct {
	// Model asks the job's request (its variant parameters applied by the model).
	Model llm.Model
	// Hash is the request's hash, recorded with the result.
	Hash string
	// CacheKey is the reply's key in the shared cache; empty for a model run in
	// process, whose replies are never cached (their source is builtin).
	CacheKey string
	// Cached, when set, is the reply the cache holds for the request: it is the answer.
	Cached *llm.Reply
	// Read turns a reply into the outcome stored beside it (may be nil). It reads the
	// reply in process, asking nothing: it runs on one of the process's few reader
	// goroutines (readOutcome).
	Read func(*llm.Reply) string
}

// Answer is the one way a job of any run is answered, whoever dispatches it (the local
// pool, or a queue's worker): from the cached reply when there is one, else from its
// model, with the attempts, latency, source and outcome recorded. A request that still
// fails is a result with its error. A nil result means ctx ended before an answer.
func Answer(ctx context.Context, run store.RunID, j *Job, a Answering) *store.Result {
	if ctx.Err() != nil {
		return nil
	}
	res := &store.Result{RunID: run, JobKey: j.Key, Model: j.Model, Item: j.Item, Replicate: j.Replicate, RequestHash: a.Hash,
		Source: store.SourceProvider}
	if a.CacheKey == "" {
		res.Source = store.SourceBuiltin
	}
	if r := a.Cached; r != nil {
		res.Reply, res.Source = *r, store.SourceCache
		if a.Read != nil {
			res.Outcome = readOutcome(a.Read, r)
		}
		return res
	}
	start := time.Now()
	reply, err := a.Model.Generate(ctx, j.Request)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		res.Err = err.Error()
		res.Reply.Attempts = llm.AttemptsOf(err)
		res.Reply.Latency = time.Since(start)
		return res
	}
	if reply.Attempts == 0 {
		reply.Attempts = 1
	}
	if reply.Latency == 0 {
		reply.Latency = time.Since(start)
	}
	res.Reply = *reply
	if a.Read != nil {
		res.Outcome = readOutcome(a.Read, reply)
	}
	return res
}

// writer group-commits results: whatever has arrived while the last transaction was
// being written goes into the next one, and each sender hears when its result is saved.
type writer struct {
	st     *store.Store
	run    store.RunID
	holder store.Holder
	in     chan item
	done   chan struct{}
	err    error
}

type item struct {
	res   *store.Result
	key   string
	saved chan error
}

func newWriter(st *store.Store, run store.RunID, holder store.Holder, buf int) *writer {
	w := &writer{st: st, run: run, holder: holder, in: make(chan item, buf), done: make(chan struct{})}
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
	writes := make([]store.ResultWrite, 0, maxBatch)
	waiting := make([]chan error, 0, maxBatch)
	for first := range w.in {
		// A job with a result needs no claim; "released" is also what tells another
		// process waiting on it to look at the result. The release commits with the
		// result, in one transaction.
		writes = append(writes[:0], store.ResultWrite{Result: first.res, CacheKey: first.key, Holder: w.holder})
		waiting = append(waiting[:0], first.saved)
	drain:
		for len(writes) < maxBatch {
			select {
			case it, ok := <-w.in:
				if !ok {
					break drain
				}
				writes = append(writes, store.ResultWrite{Result: it.res, CacheKey: it.key, Holder: w.holder})
				waiting = append(waiting, it.saved)
			default:
				break drain
			}
		}
		// Writes use their own context: an interrupted run still records what it has.
		err := w.st.WriteResults(context.Background(), writes)
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

// fewJobs is how many jobs a call may name before Run reads every answered key of the
// run instead of looking each one up: a trial asks one job at a time of a run with
// thousands.
const fewJobs = 64

// answeredOf says which of jobs run has answered.
func answeredOf(ctx context.Context, st *store.Store, run store.RunID, jobs []Job) (map[string]bool, error) {
	if len(jobs) > fewJobs {
		return st.AnsweredKeys(ctx, run)
	}
	keys := make([]string, len(jobs))
	for i, j := range jobs {
		keys[i] = j.Key
	}
	return st.AnsweredAmong(ctx, run, keys)
}

// A reader (the reply parser) runs deep: called on each of a run's many workers, it
// would grow every worker's stack to its depth. It runs instead on a few goroutines of
// its own, as many as there are processors, which is all the parallelism a
// processor-bound reader can have; a worker waits for its reply's outcome.
var readers struct {
	once sync.Once
	jobs chan readJob
}

type readJob struct {
	read  func(*llm.Reply) string
	reply *llm.Reply
	out   chan string
}

// readOutcome is read(reply), run on one of the reader goroutines.
func readOutcome(read func(*llm.Reply) string, reply *llm.Reply) string {
	readers.once.Do(func() {
		readers.jobs = make(chan readJob)
		for range runtime.GOMAXPROCS(0) {
			go func() {
				for j := range readers.jobs {
					j.out <- j.read(j.reply)
				}
			}()
		}
	})
	out := make(chan string, 1)
	readers.jobs <- readJob{read, reply, out}
	return <-out
}
