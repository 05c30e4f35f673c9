package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// Session is how a command asks models within runs: every request goes through Run and
// is recorded in the store, so a command run again with the same inputs resumes where it
// stopped, and a request answered before, by any run, comes from the cache.
//
// A run begins with Begin (its identity: kind, configuration, input and prompt hashes,
// and the endpoints asked), asks with Round, AskJSON or Ask, and ends with Finish. A
// Session with no Models is offline: it writes nothing and only reads what the store
// holds, which is how a stored run is rescored.
//
// A Session is safe for concurrent use once configured; its fields must not change
// after the first call.
type Session struct {
	Store *store.Store
	// Models holds every model the session may ask, already wrapped for retries and
	// limits. Nil means offline: replies are only read from the store.
	Models map[llm.ModelName]llm.Model
	// Concurrency is the number of requests in flight per model (Run's default if 0).
	Concurrency int
	NoCache     bool
	// Local names in-process models, which are never cached (may be nil).
	Local func(llm.ModelName) bool
	// Progress, when set, makes a progress display for one round of requests.
	Progress func(label string) Progress
	Counters *llm.Counters
	Log      *slog.Logger
	// Version is arbiter's version, recorded with the run.
	Version string
	// Reachable, when set, is called once, before the first request to a remote model
	// that is not already answered in the store, so that an unreachable server is one
	// clear error rather than a run of failures. A resumed run never calls it.
	Reachable func(ctx context.Context) error
	// Endpoint names where a model is asked when it is not its provider's own endpoint
	// (may be nil). It scopes the cache and the run, so replies from a local or stand-in
	// server never stand in for the real provider's.
	Endpoint func(llm.ModelName) string
	// Spec is each model as data (nil: every model plain): a variant's label, the model
	// it asks and its parameters, for the batch executor and the queue, which open or
	// send a model otherwise than through Models.
	Spec func(llm.ModelName) llm.Spec
	// Batch, when set, sends every round through the providers' batch APIs (RunBatch);
	// DryRun, when set, sends nothing and hears each round's jobs still to ask instead.
	Batch  *BatchOptions
	DryRun func(run store.RunID, pending []Job)

	mu      sync.Mutex
	reached bool
}

// Identity is what a run is known by: the same identity on the same store is the same
// run, and beginning it again resumes it.
type Identity struct {
	Kind store.Kind
	// Config is the run's configuration, stored as JSON; it and the endpoints make the id.
	Config any
	// InputHash identifies the inputs (dataset, transcripts, pool) the run reads.
	InputHash string
	// PromptHash identifies the prompt wording; PromptText, when set, is stored in full.
	PromptHash string
	PromptText string
	// EndpointsInConfig says Config already names the endpoints (seduce's runs record
	// them in their configuration), so they are not added to the id a second time.
	EndpointsInConfig bool
	// Reader is how the run's replies are read (its kind's reader settings, see
	// Readers), recorded with the run but not part of its id: every machine that
	// answers or reads the run reads with it.
	Reader json.RawMessage
}

// Online reports whether the session may ask models.
func (s *Session) Online() bool { return s.Models != nil }

// Endpoints maps every model asked at a custom endpoint to that endpoint; nil when none.
func (s *Session) Endpoints() map[string]string {
	if s.Endpoint == nil {
		return nil
	}
	var out map[string]string
	for name := range s.Models {
		if ep := s.Endpoint(name); ep != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[string(name)] = ep
		}
	}
	return out
}

// specs are the specs of every model of the session, in label order.
func (s *Session) specs() []llm.Spec {
	out := make([]llm.Spec, 0, len(s.Models))
	for name := range s.Models {
		sp := llm.PlainSpec(name)
		if s.Spec != nil {
			sp = s.Spec(name)
		}
		out = append(out, sp)
	}
	slices.SortFunc(out, func(a, b llm.Spec) int { return strings.Compare(string(a.Label), string(b.Label)) })
	return out
}

// Variants are the specs of the session's models that are variants, in label order:
// what a queued job carries so that a worker opens each label as this session did.
func (s *Session) Variants() []llm.Spec {
	var out []llm.Spec
	for _, sp := range s.specs() {
		if sp.IsVariant() {
			out = append(out, sp)
		}
	}
	return out
}

// Begin records the run, keyed by its identity, and returns its id. Offline it only
// derives the id.
func (s *Session) Begin(ctx context.Context, id Identity) (store.RunID, error) {
	b, err := json.Marshal(id.Config)
	if err != nil {
		return "", fmt.Errorf("%s: encode run config: %w", id.Kind, err)
	}
	idKey := b
	if eps := s.Endpoints(); len(eps) > 0 && !id.EndpointsInConfig {
		epb, err := json.Marshal(eps)
		if err != nil {
			return "", fmt.Errorf("%s: encode endpoints: %w", id.Kind, err)
		}
		idKey = append(append(slices.Clone(b), 0), epb...)
	}
	run := store.RunIDFor(string(id.Kind), idKey)
	if !s.Online() || s.DryRun != nil { // a dry run records nothing
		return run, nil
	}
	specs, err := json.Marshal(s.specs())
	if err != nil {
		return "", fmt.Errorf("%s: encode model specs: %w", id.Kind, err)
	}
	if _, err := s.Store.BeginRun(ctx, store.Run{ID: run, Kind: id.Kind, Config: b, DatasetHash: id.InputHash,
		PromptHash: id.PromptHash, PromptText: id.PromptText, Version: s.Version, Models: specs, Reader: id.Reader}); err != nil {
		return "", err
	}
	return run, nil
}

// Finish records how the run ended and returns err: interrupted (err while ctx is
// done), failed (err), incomplete (some requests or replies still unusable) or done.
func (s *Session) Finish(ctx context.Context, run store.RunID, err error, incomplete bool) error {
	if !s.Online() || run == "" || s.DryRun != nil {
		return err
	}
	status := store.StatusDone
	switch {
	case err != nil && ctx.Err() != nil:
		status = store.StatusInterrupted
	case err != nil:
		status = store.StatusFailed
	case incomplete:
		status = store.StatusIncomplete
	}
	// The status is written even when ctx was cancelled: that is when it matters most.
	if eerr := s.Store.EndRun(context.WithoutCancel(ctx), run, status); eerr != nil && err == nil {
		err = eerr
	}
	return err
}

// Run asks every job of run not yet answered, as the package's Run does, after the
// reachability check. An interruption is reported in the Summary, not as an error.
// outcome may be nil.
func (s *Session) Run(ctx context.Context, run store.RunID, label string, jobs []Job, outcome func(Job, *llm.Reply) string) (Summary, error) {
	if s.DryRun != nil {
		return s.dryRun(ctx, run, jobs)
	}
	if err := s.reach(ctx, run, jobs); err != nil {
		return Summary{}, err
	}
	plan := Plan{Run: run, Jobs: jobs, Models: s.Models, Concurrency: s.Concurrency, NoCache: s.NoCache, Endpoint: s.Endpoint,
		Local: s.Local, Counters: s.Counters, Log: s.Log, Outcome: outcome, Spec: s.Spec}
	if s.Progress != nil {
		plan.Progress = s.Progress(label)
	}
	if s.Batch != nil {
		return RunBatch(ctx, s.Store, plan, *s.Batch)
	}
	return Run(ctx, s.Store, plan)
}

// Tally counts what a session asked, over all its rounds.
type Tally struct {
	// Jobs counts requests planned; Resumed were already answered in this run's store
	// records; Cached came from another run's identical request; Asked were sent, and
	// Answered and Failed split them.
	Jobs     int `json:"jobs"`
	Resumed  int `json:"resumed"`
	Cached   int `json:"cached"`
	Asked    int `json:"asked"`
	Answered int `json:"answered"`
	Failed   int `json:"failed"`
	// Rounds is how many rounds had anything to ask.
	Rounds int `json:"rounds"`
}

// Merge adds o's counts to t.
func (t *Tally) Merge(o Tally) {
	t.Jobs += o.Jobs
	t.Resumed += o.Resumed
	t.Cached += o.Cached
	t.Asked += o.Asked
	t.Answered += o.Answered
	t.Failed += o.Failed
	t.Rounds += o.Rounds
}

func (t *Tally) add(s Summary) {
	if t == nil {
		return
	}
	t.Jobs += s.Jobs
	t.Resumed += s.Resumed
	t.Cached += s.Cached
	t.Asked += s.Asked
	t.Answered += s.Answered
	t.Failed += s.Failed
	t.Rounds++
}

// Ask is one request of a round.
type Ask struct {
	Job
	// Outcome, when set, reads a reply into the outcome stored beside it, for audits.
	Outcome func(reply string) string
}

// Round asks every request not yet answered in the store and returns the stored result
// of each ask, by key. Offline, it only reads. A missing key means nothing is recorded.
// Each round's requests should depend only on the inputs and the replies before them,
// so that a resumed run rebuilds the same rounds and finds them answered. An
// interruption is an error saying how to resume. tally may be nil.
func (s *Session) Round(ctx context.Context, run store.RunID, label string, asks []Ask, tally *Tally) (map[string]*store.Result, error) {
	if len(asks) == 0 {
		return map[string]*store.Result{}, nil
	}
	want := make(map[string]bool, len(asks))
	for _, a := range asks {
		want[a.Key] = true
	}
	if s.Online() {
		jobs := make([]Job, len(asks))
		outcomes := make(map[string]func(string) string, len(asks))
		for i, a := range asks {
			jobs[i] = a.Job
			if a.Outcome != nil {
				outcomes[a.Key] = a.Outcome
			}
		}
		sum, err := s.Run(ctx, run, label, jobs, func(j Job, r *llm.Reply) string {
			if f := outcomes[j.Key]; f != nil {
				return f(r.Text)
			}
			return ""
		})
		tally.add(sum)
		if err != nil {
			return nil, err
		}
		if sum.Interrupted {
			return nil, fmt.Errorf("%s: interrupted after %d of %d requests: %w (run the same command again to resume)",
				label, sum.Resumed+sum.Cached+sum.Asked, sum.Jobs, ctx.Err())
		}
	}
	out := make(map[string]*store.Result, len(asks))
	err := s.Store.Results(ctx, run, false, func(r *store.Result) error {
		if want[r.JobKey] {
			cp := *r
			out[r.JobKey] = &cp
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Ask asks one request and returns its stored result, or nil offline when nothing is
// recorded. It is how a caller whose every request depends on the reply before it (a
// trial, turn by turn) asks within a run: each request still resumes by its key, comes
// from the cache when it can, is scoped by endpoint and is written to the store.
//
// It reads only its own job from the store, so a run of thousands of requests costs each
// Ask the same.
func (s *Session) Ask(ctx context.Context, run store.RunID, label string, a Ask, tally *Tally) (*store.Result, error) {
	if s.Online() {
		sum, err := s.Run(ctx, run, label, []Job{a.Job}, func(j Job, r *llm.Reply) string {
			if a.Outcome != nil {
				return a.Outcome(r.Text)
			}
			return ""
		})
		tally.add(sum)
		if err != nil {
			return nil, err
		}
		if sum.Interrupted {
			return nil, fmt.Errorf("%s: interrupted: %w (run the same command again to resume)", label, ctx.Err())
		}
	}
	r, err := s.Store.Result(ctx, run, a.Key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return r, err
}

// reach calls Reachable once some job of a remote model is not yet answered.
func (s *Session) reach(ctx context.Context, run store.RunID, jobs []Job) error {
	if s.Reachable == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reached {
		return nil
	}
	answered, err := answeredOf(ctx, s.Store, run, jobs)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if !answered[j.Key] && (s.Local == nil || !s.Local(j.Model)) {
			s.reached = true
			return s.Reachable(ctx)
		}
	}
	return nil
}

// Conversation is a system prompt and the turns so far, with an optional JSON schema
// for the reply.
type Conversation struct {
	System   string
	Messages []llm.Message
	Schema   json.RawMessage
}

// With returns the conversation with one more turn; c is unchanged.
func (c Conversation) With(role llm.Role, text string) Conversation {
	msgs := make([]llm.Message, len(c.Messages), len(c.Messages)+1)
	copy(msgs, c.Messages)
	c.Messages = append(msgs, llm.Message{Role: role, Text: text})
	return c
}

// Request is the conversation as a request.
func (c Conversation) Request() *llm.Request {
	req := &llm.Request{System: c.System, Messages: c.Messages}
	if c.Schema != nil {
		req.JSONSchema, req.SchemaName = c.Schema, "reply"
	}
	return req
}

// JSONTask is one request whose reply must be valid, as Check says.
type JSONTask struct {
	Item string
	Conv Conversation
	// Check lists what is wrong with a reply; none means it is valid.
	Check func(reply string) (problems []string)
}

// JSONOutcome is how a JSONTask ended.
type JSONOutcome struct {
	// Reply is the last reply; OK says it was valid.
	Reply string
	OK    bool
	// Problems are what was wrong with the last reply; Err is a request that failed.
	Problems []string
	Err      string
	// Asks is how many times the model was asked (1 + repairs).
	Asks int
}

// AskJSON asks every task of model and, while a reply is not valid, asks again in the
// same conversation with the user turn repair(problems), up to repairs times. Repair
// round r of a task has the key JobKey(model, item+"/r"+r, 0).
func (s *Session) AskJSON(ctx context.Context, run store.RunID, label string, model llm.ModelName, tasks []JSONTask,
	repairs int, repair func(problems []string) string, tally *Tally) ([]JSONOutcome, error) {
	out := make([]JSONOutcome, len(tasks))
	convs := make([]Conversation, len(tasks))
	live := make([]int, len(tasks))
	for i, t := range tasks {
		convs[i], live[i] = t.Conv, i
	}
	for r := 0; r <= repairs && len(live) > 0; r++ {
		asks := make([]Ask, len(live))
		for k, i := range live {
			check := tasks[i].Check
			item := tasks[i].Item
			asks[k] = Ask{Job: Job{Key: JobKey(model, fmt.Sprintf("%s/r%d", item, r), 0), Model: model, Item: item, Request: convs[i].Request()},
				Outcome: func(reply string) string {
					problems := check(reply)
					return store.EncodeOutcome(store.OutcomeValidity, store.Validity{Valid: len(problems) == 0, Problems: problems})
				}}
		}
		name := label
		if r > 0 {
			name = fmt.Sprintf("%s repair %d", label, r)
		}
		got, err := s.Round(ctx, run, name, asks, tally)
		if err != nil {
			return nil, err
		}
		var next []int
		for k, i := range live {
			res, ok := got[asks[k].Key]
			o := &out[i]
			o.Asks = r + 1
			switch {
			case !ok:
				o.Err = "not in the store (run the stage with a model to ask it)"
				continue
			case res.Err != "":
				o.Err = res.Err
				continue
			}
			o.Reply = res.Reply.Text
			o.Problems = tasks[i].Check(res.Reply.Text)
			if res.Reply.Finish == llm.FinishRefusal {
				refusal := strings.Join(strings.Fields(res.Reply.Refusal), " ")
				o.Problems = append([]string{"the model refused: " + refusal}, o.Problems...)
			}
			if len(o.Problems) == 0 {
				o.OK = true
				continue
			}
			convs[i] = convs[i].With(llm.RoleAssistant, res.Reply.Text).With(llm.RoleUser, repair(o.Problems))
			next = append(next, i)
		}
		live = next
	}
	return out, nil
}
