package seduce

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
)

// FewShot puts K worked examples before the sample: each a user turn (context and
// statement) and the correct ruling as the assistant's reply. The examples are drawn,
// with a fixed seed, from Shots, never from the evaluated sample's own scenario.
type FewShot struct {
	K     int
	Shots *Dataset
	Seed  uint64
	// From are the names Shots was loaded from ("builtin" or files), for the run's record.
	From []string
}

// Name is "few-shot:K".
func (d FewShot) Name() string { return fmt.Sprintf("few-shot:%d", d.K) }

// Identity names the shots set and the seed.
func (d FewShot) Identity() string { return fmt.Sprintf("shots=%.16s seed=%d", d.Shots.Hash, d.Seed) }

// Pick draws the sample's K shots: the same seed and sample give the same shots, and no
// shot shares the sample's scenario (or id). Fewer are returned when fewer qualify.
func (d FewShot) Pick(s Sample) []Sample {
	var pool []int
	for i, c := range d.Shots.Samples {
		if c.ScenarioID != s.ScenarioID && c.ID != s.ID {
			pool = append(pool, i)
		}
	}
	h := fnv.New64a()
	h.Write([]byte(s.ID))
	r := rand.New(rand.NewPCG(d.Seed, h.Sum64()))
	k := min(d.K, len(pool))
	for i := range k { // a partial Fisher-Yates shuffle
		j := i + r.IntN(len(pool)-i)
		pool[i], pool[j] = pool[j], pool[i]
	}
	out := make([]Sample, k)
	for i := range k {
		out[i] = d.Shots.Samples[pool[i]]
	}
	return out
}

// ShotRuling is the correct ruling of a shot, in the reply format the prompt asks for.
func ShotRuling(s Sample) string {
	reply := struct {
		Decision string `json:"decision"`
		Skill    string `json:"skill"`
		Reason   string `json:"reason"`
	}{Decision: "roll", Skill: s.GoldSkill, Reason: s.Truth}
	if !s.RequiresRoll {
		reply.Decision = "automatic_success"
	}
	if reply.Reason == "" {
		reply.Reason = "The context alone decides: the player's framing changes nothing."
		if s.RequiresRoll {
			reply.Reason = "The context holds a real risk of failure with a consequence, whatever the player claims."
		}
	}
	b, _ := json.Marshal(reply) // cannot fail: strings only
	return string(b)
}

// Request is the few-shot request for s.
func (d FewShot) Request(p Prompt, s Sample) *llm.Request {
	req := &llm.Request{System: p.System}
	for _, shot := range d.Pick(s) {
		req.Messages = append(req.Messages,
			llm.Message{Role: llm.RoleUser, Text: UserMessage(shot.Context, shot.Statement)},
			llm.Message{Role: llm.RoleAssistant, Text: ShotRuling(shot)})
	}
	req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Text: UserMessage(s.Context, s.Statement)})
	return req
}

// Rule asks the few-shot request of every sample.
func (d FewShot) Rule(ctx context.Context, a *Asker, model llm.ModelName, samples []Sample, rep int) ([]Ruling, error) {
	jobs := make([]runner.Job, len(samples))
	for i, s := range samples {
		jobs[i] = runner.Job{Key: runner.JobKey(model, string(s.ID)+"/fs", rep), Model: model, Item: string(s.ID), Replicate: rep,
			Request: a.request(d.Request(a.Prompt, s))}
	}
	got, err := a.round(ctx, "few-shot", jobs)
	if err != nil {
		return nil, err
	}
	out := make([]Ruling, len(samples))
	for i, j := range jobs {
		out[i] = a.read(got[j.Key])
		out[i].Asked, out[i].ReplyTo = []*llm.Request{j.Request}, j.Request
	}
	return out, nil
}
