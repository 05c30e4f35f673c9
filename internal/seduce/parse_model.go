package seduce

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// A second opinion: a model reads the replies the rules left unparsed. The rules stay
// the default; a model's reading is marked as such (How and Rule "model") so that every
// report can say how many rulings came from it.

// ParseModelKind is the store's kind for the runs that ask a model to read replies.
const ParseModelKind store.Kind = "seduce-parse-model"

// How and Rule of a ruling read by a model rather than by the rules.
const (
	HowModel  = "model"
	RuleModel = "model"
)

// parseModelSystem is the reader's instructions: read the ruling, never make one.
const parseModelSystem = `You are given one reply written by a game master who was asked whether an investigator's action in Call of Cthulhu needs a skill roll.
Report what the reply itself ruled; do not judge whether the ruling is right.
Answer with a JSON object: {"decision": "roll" | "automatic_success" | "unclear", "skill": the skill the reply names for the roll, or null}.
Use "unclear" when the reply does not commit to one ruling, rules both ways, leaves the ruling open on a condition, declines, or says it cannot tell.`

var parseModelSchema = json.RawMessage(`{"type":"object","properties":{"decision":{"type":"string","enum":["roll","automatic_success","unclear"]},"skill":{"type":["string","null"]}},"required":["decision","skill"],"additionalProperties":false}`)

// ModelParseSummary counts what ModelParse did.
type ModelParseSummary struct {
	// Unparsed is how many replies the rules left unparsed; Sent how many distinct
	// texts of them were asked about (or found answered in the store); Ruled how many the
	// model read as a roll or an automatic success.
	Unparsed, Sent, Ruled int
	Tally                 runner.Tally
}

// ModelParse asks model, through sess, to read every reply of texts whose ruling in
// parsed (same order) is unparsed, and replaces those rulings it reads as a roll or an
// automatic success, with How and Rule "model". Replies that are empty or nothing but
// reasoning are not sent. Requests are stored like any others: a rerun on the same store
// resumes and sends nothing already answered.
func ModelParse(ctx context.Context, sess *runner.Session, model llm.ModelName, texts []string, parsed []Parsed, tax *Taxonomy) (ModelParseSummary, error) {
	if tax == nil {
		tax = DefaultTaxonomy()
	}
	var sum ModelParseSummary
	keyOf := make([]string, len(texts))
	var asks []runner.Ask
	seen := map[string]bool{}
	for i, p := range parsed {
		if p.Decision != DecisionUnparsed {
			continue
		}
		sum.Unparsed++
		if p.Rule == RuleEmpty || p.Rule == RuleThinkOnly {
			continue
		}
		item := "reply-" + store.Hash([]byte(texts[i]))[:16]
		keyOf[i] = runner.JobKey(model, item, 0)
		if seen[keyOf[i]] {
			continue
		}
		seen[keyOf[i]] = true
		conv := runner.Conversation{System: parseModelSystem, Schema: parseModelSchema}.With(llm.RoleUser, texts[i])
		asks = append(asks, runner.Ask{Job: runner.Job{Key: keyOf[i], Model: model, Item: item, Request: conv.Request()},
			Outcome: func(reply string) string { return OutcomeOf(readModelRuling(reply, tax)) }})
	}
	sum.Sent = len(asks)
	if len(asks) == 0 {
		return sum, nil
	}
	cfg := struct {
		Kind   store.Kind `json:"kind"`
		Model  string     `json:"model"`
		Prompt string     `json:"prompt_hash"`
	}{ParseModelKind, string(model), store.Hash([]byte(parseModelSystem + string(parseModelSchema)))}
	run, err := sess.Begin(ctx, runner.Identity{Kind: ParseModelKind, Config: cfg, PromptHash: cfg.Prompt, PromptText: parseModelSystem})
	if err != nil {
		return sum, err
	}
	results, err := sess.Round(ctx, run, "parse-model", asks, &sum.Tally)
	if ferr := sess.Finish(ctx, run, err, sum.Tally.Failed > 0); err == nil && ferr != nil {
		err = ferr
	}
	if err != nil {
		return sum, fmt.Errorf("parse-model %s: %w", model, err)
	}
	for i, key := range keyOf {
		r := results[key]
		if key == "" || r == nil || r.Err != "" {
			continue
		}
		if p := readModelRuling(r.Reply.Text, tax); p.Decision != DecisionUnparsed {
			parsed[i] = p
			sum.Ruled++
		}
	}
	return sum, nil
}

// readModelRuling reads the reader model's JSON answer; anything else is unparsed.
func readModelRuling(reply string, tax *Taxonomy) Parsed {
	p := Parsed{Decision: DecisionUnparsed, How: HowModel, Rule: RuleModel}
	var ans struct {
		Decision string  `json:"decision"`
		Skill    *string `json:"skill"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(reply)), &ans) != nil {
		return p
	}
	switch ans.Decision {
	case "roll":
		p.Decision = DecisionRoll
	case "automatic_success":
		p.Decision = DecisionPass
	default:
		return p
	}
	if ans.Skill != nil {
		p.Skill = skillValue(*ans.Skill, tax)
	}
	return p
}
