package check

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// Exec is how a stage asks models: every request goes through the runner and is
// recorded in the store, so a stage run again with the same inputs resumes where it
// stopped, and a request answered before, by any run, comes from the cache.
//
// A stage asks in rounds: the first round asks everything, later rounds ask again only
// what the earlier replies left unusable (a repair or a follow-up), as a continuation of
// the same conversation. Each round's requests depend only on the inputs and the
// replies before them, so a resumed stage rebuilds the same rounds and finds them
// answered.
type Exec struct {
	Store *store.Store
	// Models holds every model the stage may ask, already wrapped for retries and
	// limits. Nil means offline: replies are only read from the store (as report does).
	Models map[llm.ModelName]llm.Model
	// Concurrency is the number of requests in flight per model (runner default if 0).
	Concurrency int
	NoCache     bool
	// Local names in-process models, which are never cached (may be nil).
	Local func(llm.ModelName) bool
	// Progress, when set, makes a progress display for one round of requests.
	Progress func(label string) runner.Progress
	Counters *llm.Counters
	Log      *slog.Logger
	// Version is arbiter's version, recorded with the run.
	Version string
	// Reachable, when set, is called once, before the first request that is not
	// already answered in the store, so that an unreachable server is one clear error
	// rather than a run of failures. A resumed stage never calls it.
	Reachable func(ctx context.Context) error
	// Endpoint names where a model is asked when it is not its provider's own endpoint
	// (may be nil). It scopes the cache and the run, so replies from a local or stand-in
	// server never stand in for the real provider's.
	Endpoint func(llm.ModelName) string

	reached bool
}

// Requests counts what a stage asked, over all its rounds.
type Requests struct {
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

func (r *Requests) add(s runner.Summary) {
	r.Jobs += s.Jobs
	r.Resumed += s.Resumed
	r.Cached += s.Cached
	r.Asked += s.Asked
	r.Answered += s.Answered
	r.Failed += s.Failed
	r.Rounds++
}

// ask is one request of a round.
type ask struct {
	key       string
	model     llm.ModelName
	item      string
	replicate int
	// conv is the conversation to send; unused offline.
	conv conversation
	// outcome, when set, reads a reply into the outcome stored beside it, for audits.
	outcome func(reply string) string
}

// conversation is a system prompt and the turns so far.
type conversation struct {
	system string
	msgs   []llm.Message
	schema json.RawMessage
}

func (c conversation) with(role llm.Role, text string) conversation {
	msgs := make([]llm.Message, len(c.msgs), len(c.msgs)+1)
	copy(msgs, c.msgs)
	c.msgs = append(msgs, llm.Message{Role: role, Text: text})
	return c
}

func (c conversation) request() *llm.Request {
	req := &llm.Request{System: c.system, Messages: c.msgs}
	if c.schema != nil {
		req.JSONSchema, req.SchemaName = c.schema, "reply"
	}
	return req
}

// begin records the stage's run, keyed by its configuration, and returns its id.
func (e *Exec) begin(ctx context.Context, kind string, config any, inputHash string) (store.RunID, error) {
	b, err := json.Marshal(config)
	if err != nil {
		return "", fmt.Errorf("%s: encode run config: %w", kind, err)
	}
	idKey := b
	if eps := e.endpoints(); len(eps) > 0 {
		epb, err := json.Marshal(eps)
		if err != nil {
			return "", fmt.Errorf("%s: encode endpoints: %w", kind, err)
		}
		idKey = append(append(slices.Clone(b), 0), epb...)
	}
	id := store.RunIDFor(kind, idKey)
	if e.Models == nil {
		return id, nil
	}
	if _, err := e.Store.BeginRun(ctx, store.Run{ID: id, Kind: kind, Config: b, DatasetHash: inputHash,
		PromptHash: PromptHash(), Version: e.Version}); err != nil {
		return "", err
	}
	return id, nil
}

// finish records how the run ended and returns err: interrupted, failed (err), incomplete
// (some requests or replies still unusable) or done.
func (e *Exec) finish(ctx context.Context, id store.RunID, err error, incomplete bool) error {
	if e.Models == nil || id == "" {
		return err
	}
	status := "done"
	switch {
	case err != nil && ctx.Err() != nil:
		status = "interrupted"
	case err != nil:
		status = "failed"
	case incomplete:
		status = "incomplete"
	}
	// The status is written even when ctx was cancelled: that is when it matters most.
	if eerr := e.Store.EndRun(context.WithoutCancel(ctx), id, status); eerr != nil && err == nil {
		err = eerr
	}
	return err
}

// round asks every request not yet answered in the store and returns the stored result
// of each ask, by key. Offline, it only reads. A missing key means nothing is recorded.
func (e *Exec) round(ctx context.Context, run store.RunID, label string, asks []ask, tally *Requests) (map[string]*store.Result, error) {
	if len(asks) == 0 {
		return map[string]*store.Result{}, nil
	}
	want := make(map[string]bool, len(asks))
	for _, a := range asks {
		want[a.key] = true
	}
	if e.Models != nil {
		if err := e.reach(ctx, run, asks); err != nil {
			return nil, err
		}
		jobs := make([]runner.Job, len(asks))
		outcomes := make(map[string]func(string) string, len(asks))
		for i, a := range asks {
			jobs[i] = runner.Job{Key: a.key, Model: a.model, Item: a.item, Replicate: a.replicate, Request: a.conv.request()}
			if a.outcome != nil {
				outcomes[a.key] = a.outcome
			}
		}
		plan := runner.Plan{Run: run, Jobs: jobs, Models: e.Models, Concurrency: e.Concurrency, NoCache: e.NoCache, Endpoint: e.Endpoint,
			Local: e.Local, Counters: e.Counters, Log: e.Log,
			Outcome: func(j runner.Job, r *llm.Reply) string {
				if f := outcomes[j.Key]; f != nil {
					return f(r.Text)
				}
				return ""
			}}
		if e.Progress != nil {
			plan.Progress = e.Progress(label)
		}
		sum, err := runner.Run(ctx, e.Store, plan)
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
	err := e.Store.Results(ctx, run, false, func(r *store.Result) error {
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

// reach calls Reachable once some ask is not yet answered.
func (e *Exec) reach(ctx context.Context, run store.RunID, asks []ask) error {
	if e.Reachable == nil || e.reached {
		return nil
	}
	answered, err := e.Store.AnsweredKeys(ctx, run)
	if err != nil {
		return err
	}
	for _, a := range asks {
		if !answered[a.key] {
			e.reached = true
			return e.Reachable(ctx)
		}
	}
	return nil
}

// jsonTask is one request whose reply must be a valid JSON object.
type jsonTask struct {
	item   string
	label  string
	conv   conversation
	result func(reply string) (problems []string)
}

// jsonOutcome is how a jsonTask ended.
type jsonOutcome struct {
	// Reply is the last reply; OK says it was valid.
	Reply string
	OK    bool
	// Problems are what was wrong with the last reply; Err is a request that failed.
	Problems []string
	Err      string
	// Asks is how many times the model was asked (1 + repairs).
	Asks int
}

// askJSON asks every task of model and, while a reply is not valid, asks again in the
// same conversation with the problems listed, up to repairs times.
func (e *Exec) askJSON(ctx context.Context, run store.RunID, label string, model llm.ModelName, tasks []jsonTask, repairs int, tally *Requests) ([]jsonOutcome, error) {
	out := make([]jsonOutcome, len(tasks))
	convs := make([]conversation, len(tasks))
	live := make([]int, len(tasks))
	for i, t := range tasks {
		convs[i], live[i] = t.conv, i
	}
	for r := 0; r <= repairs && len(live) > 0; r++ {
		asks := make([]ask, len(live))
		for k, i := range live {
			result := tasks[i].result
			asks[k] = ask{key: runner.JobKey(model, fmt.Sprintf("%s/r%d", tasks[i].item, r), 0), model: model,
				item: tasks[i].item, conv: convs[i], outcome: func(reply string) string {
					problems := result(reply)
					if len(problems) == 0 {
						return "valid"
					}
					return "invalid: " + strings.Join(problems, "; ")
				}}
		}
		name := label
		if r > 0 {
			name = fmt.Sprintf("%s repair %d", label, r)
		}
		got, err := e.round(ctx, run, name, asks, tally)
		if err != nil {
			return nil, err
		}
		var next []int
		for k, i := range live {
			res, ok := got[asks[k].key]
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
			o.Problems = tasks[i].result(res.Reply.Text)
			if res.Reply.Finish == llm.FinishRefusal {
				o.Problems = append([]string{"the model refused: " + oneLine(res.Reply.Refusal)}, o.Problems...)
			}
			if len(o.Problems) == 0 {
				o.OK = true
				continue
			}
			convs[i] = convs[i].with(llm.RoleAssistant, res.Reply.Text).
				with(llm.RoleUser, render("repair", struct{ Problems []string }{o.Problems}))
			next = append(next, i)
		}
		live = next
	}
	return out, nil
}

// jsonObject finds the JSON object in a reply: the whole reply, or the text between the
// first "{" and the last "}" (models wrap JSON in fences and prose).
func jsonObject(reply string, v any) error {
	s := stripFence(reply)
	if err := json.Unmarshal([]byte(s), v); err == nil {
		return nil
	}
	i, j := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}')
	if i < 0 || j <= i {
		return fmt.Errorf("no JSON object in the reply")
	}
	if err := json.Unmarshal([]byte(s[i:j+1]), v); err != nil {
		return fmt.Errorf("the JSON object does not parse: %v", err)
	}
	return nil
}

// endpoints maps every model asked at a custom endpoint to that endpoint.
func (e *Exec) endpoints() map[string]string {
	if e.Endpoint == nil {
		return nil
	}
	out := map[string]string{}
	for name := range e.Models {
		if ep := e.Endpoint(name); ep != "" {
			out[string(name)] = ep
		}
	}
	return out
}
