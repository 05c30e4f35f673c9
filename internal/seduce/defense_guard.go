package seduce

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

//go:embed data/guard.txt
var guardPrompt string

// guardSchema is the JSON schema the guard answers under.
var guardSchema = json.RawMessage(`{"type":"object","properties":{"action":{"type":"string"}},"required":["action"],"additionalProperties":false}`)

// guardRepairs is how many times a guard whose reply is not a valid action is asked again.
const guardRepairs = 2

// Canonicalize has a guard model restate the player's statement as the bare action; the
// adjudicator then rules on the context and that action, never on the player's words.
// The guard's request and the adjudicator's are separate stored requests, so a rerun
// with another adjudicator takes the guard's answers from the cache.
type Canonicalize struct {
	// Guard is the guard model; "" means the target model itself.
	Guard llm.ModelName
	// System is the guard's system prompt; Hash identifies it.
	System, Hash string
}

// NewCanonicalize builds the defense; an empty prompt is the bundled guard prompt. A
// baseline cannot be a guard: it rules and cannot restate.
func NewCanonicalize(guard llm.ModelName, prompt string) (*Canonicalize, error) {
	if guard != "" && guard.Provider() == "baseline" {
		return nil, fmt.Errorf("canonicalize: %s cannot be a guard: a baseline rules on statements but cannot restate one; name a language model with --guard-model", guard)
	}
	if prompt == "" {
		prompt = guardPrompt
	}
	prompt = strings.TrimSpace(prompt)
	if prompt == "" {
		return nil, fmt.Errorf("canonicalize: the guard prompt is empty")
	}
	return &Canonicalize{Guard: guard, System: prompt, Hash: store.Hash([]byte(prompt))}, nil
}

// Name is "canonicalize".
func (*Canonicalize) Name() string { return "canonicalize" }

// Identity names the guard and its prompt.
func (d *Canonicalize) Identity() string {
	return fmt.Sprintf("guard=%s prompt=%.16s", d.Guard, d.Hash)
}

// GuardOf is the guard asked for target model.
func (d *Canonicalize) GuardOf(model llm.ModelName) (llm.ModelName, error) {
	g := d.Guard
	if g == "" {
		g = model
	}
	if g.Provider() == "baseline" {
		return "", fmt.Errorf("canonicalize: %s cannot be its own guard: a baseline rules on statements but cannot restate one; name a language model with --guard-model", g)
	}
	return g, nil
}

// GuardRequest is the guard's conversation for one sample.
func (d *Canonicalize) GuardRequest(s Sample) runner.Conversation {
	return runner.Conversation{System: d.System, Schema: guardSchema,
		Messages: []llm.Message{{Role: llm.RoleUser, Text: UserMessage(s.Context, s.Statement)}}}
}

// AdjudicatorRequest is the adjudicator's request on the context and the restated action:
// the action takes the statement's place, so every adjudicator (baselines too) reads it.
func AdjudicatorRequest(p Prompt, s Sample, action string) *llm.Request {
	return llm.UserText(p.System, UserMessage(s.Context, action))
}

// ParseGuardAction reads the guard's reply: a JSON object (in code fences or not) whose
// "action" is a non-empty string. problems lists what is wrong.
func ParseGuardAction(reply string) (action string, problems []string) {
	t := strings.TrimSpace(reply)
	if rest, ok := strings.CutPrefix(t, "```"); ok {
		rest = strings.TrimPrefix(rest, "json")
		rest, _ = strings.CutSuffix(strings.TrimSpace(rest), "```")
		t = strings.TrimSpace(rest)
	}
	var v struct {
		Action *string `json:"action"`
	}
	if err := json.Unmarshal([]byte(t), &v); err != nil {
		return "", []string{`the reply is not the JSON object {"action": "…"}`}
	}
	if v.Action == nil {
		return "", []string{`the object has no "action"`}
	}
	a := strings.Join(strings.Fields(*v.Action), " ")
	if a == "" {
		return "", []string{`"action" is empty`}
	}
	return a, nil
}

func guardRepair(problems []string) string {
	return "That reply cannot be used: " + strings.Join(problems, "; ") + `. Answer again with only {"action": "<the bare action>"}.`
}

// Rule asks the guard about every sample, then the adjudicator about the actions.
func (d *Canonicalize) Rule(ctx context.Context, a *Asker, model llm.ModelName, samples []Sample, rep int) ([]Ruling, error) {
	guard, err := d.GuardOf(model)
	if err != nil {
		return nil, err
	}
	tasks := make([]runner.JSONTask, len(samples))
	for i, s := range samples {
		tasks[i] = runner.JSONTask{Item: string(s.ID) + "/guard", Conv: d.GuardRequest(s),
			Check: func(reply string) []string { _, p := ParseGuardAction(reply); return p }}
	}
	guarded, err := a.Session.AskJSON(ctx, a.Run, "guard "+string(guard), guard, tasks, guardRepairs, guardRepair, &a.Tally)
	if err != nil {
		return nil, err
	}
	guardTokens, err := d.guardTokens(ctx, a, guard, samples, guarded)
	if err != nil {
		return nil, err
	}
	out := make([]Ruling, len(samples))
	var jobs []runner.Job
	var idx []int
	for i, s := range samples {
		g := guarded[i]
		out[i].Requests, out[i].Tokens = g.Asks, guardTokens[i]
		if !g.OK {
			out[i].Err = "guard " + string(guard) + ": " + strings.Join(append([]string{g.Err}, g.Problems...), "; ")
			if g.Err == "" {
				out[i].Err = "guard " + string(guard) + ": no valid action after repairs: " + strings.Join(g.Problems, "; ")
			}
			continue
		}
		action, _ := ParseGuardAction(g.Reply)
		req := a.request(AdjudicatorRequest(a.Prompt, s, action))
		jobs = append(jobs, runner.Job{Key: runner.JobKey(model, string(s.ID), rep), Model: model, Item: string(s.ID), Replicate: rep, Request: req})
		idx = append(idx, i)
	}
	got, err := a.round(ctx, "adjudicator", jobs)
	if err != nil {
		return nil, err
	}
	for k, j := range jobs {
		o := &out[idx[k]]
		one := a.read(got[j.Key])
		o.Parsed, o.Err, o.Reply = one.Parsed, one.Err, one.Reply
		o.Requests += one.Requests
		o.Tokens += one.Tokens
		o.Asked, o.ReplyTo = []*llm.Request{j.Request}, j.Request
	}
	return out, nil
}

// guardTokens sums the stored tokens of each sample's guard requests (repairs included).
func (d *Canonicalize) guardTokens(ctx context.Context, a *Asker, guard llm.ModelName, samples []Sample, guarded []runner.JSONOutcome) ([]int64, error) {
	out := make([]int64, len(samples))
	want := map[string]int{}
	for i, s := range samples {
		for r := range guarded[i].Asks {
			want[runner.JobKey(guard, fmt.Sprintf("%s/guard/r%d", s.ID, r), 0)] = i
		}
	}
	err := a.Session.Store.Results(ctx, a.Run, false, func(r *store.Result) error {
		if i, ok := want[r.JobKey]; ok && r.Err == "" {
			out[i] += r.Reply.Usage.Total()
		}
		return nil
	})
	return out, err
}
