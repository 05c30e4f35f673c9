package seduce

import (
	"context"
	_ "embed"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// Pushback (spec section 7) is a second turn in the adjudicator's conversation: every
// reply that ruled roll hears the player argue back, in the sample's own style, and
// rules again. The second turn is its own round of requests, built only from the
// inputs and the first round's stored replies, so a rerun rebuilds the same round and
// finds it answered, a batch sends it as its own batch, and a queued run queues it once
// the first round is done.

//go:embed data/pushback.yaml
var pushbackYAML []byte

// SkillPlaceholder is where a pushback line names the skill the Keeper called for.
const SkillPlaceholder = "{{skill}}"

// MinPushbackLines is how many built-in lines each style must have.
const MinPushbackLines = 4

// pushbackSuffix marks the item of a second turn: "<sample id>/pushback".
const pushbackSuffix = "/pushback"

// PushbackItem is the item (and, with the model and replicate, the job key) of the
// second turn on sample id.
func PushbackItem(id SampleID) string { return string(id) + pushbackSuffix }

// IsPushbackItem reports whether a stored result's item is a second turn; the sample
// it argues about is its id before the suffix.
func IsPushbackItem(item string) (SampleID, bool) {
	id, ok := strings.CutSuffix(item, pushbackSuffix)
	return SampleID(id), ok
}

// PushbackLines are the built-in lines per style.
type PushbackLines struct {
	byStyle map[Style][]string
	// Hash identifies the lines, recorded in a pushback run's configuration.
	Hash string
}

// DefaultPushbackLines are the bundled lines (data/pushback.yaml).
func DefaultPushbackLines() *PushbackLines {
	l, err := ParsePushbackLines(pushbackYAML)
	if err != nil {
		panic("seduce: bundled pushback lines: " + err.Error()) // checked by a test
	}
	return l
}

// ParsePushbackLines reads a lines file: a list per style, each line naming the skill.
func ParsePushbackLines(b []byte) (*PushbackLines, error) {
	var raw map[string][]string
	if err := yaml.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("pushback lines: %w", err)
	}
	l := &PushbackLines{byStyle: map[Style][]string{}, Hash: store.Hash(b)}
	for k, lines := range raw {
		if !isKnownStyle(Style(k)) {
			return nil, fmt.Errorf("pushback lines: %q is not a style (want %s)", k, quoteList(Styles))
		}
		for i, line := range lines {
			if !strings.Contains(line, SkillPlaceholder) {
				return nil, fmt.Errorf("pushback lines: %s line %d does not name the skill (%s)", k, i+1, SkillPlaceholder)
			}
		}
		l.byStyle[Style(k)] = lines
	}
	for _, st := range Styles {
		if n := len(l.byStyle[st]); n < MinPushbackLines {
			return nil, fmt.Errorf("pushback lines: %s has %d lines; want at least %d", st, n, MinPushbackLines)
		}
	}
	return l, nil
}

// Lines returns the built-in lines of style.
func (l *PushbackLines) Lines(style Style) []string { return l.byStyle[style] }

// For is what the player says back on sample s to a Keeper who called for skill: the
// sample's own pushback, else the built-in line of its style its id hashes to. Either
// names the skill where it says {{skill}} ("" names the sample's skill).
func (l *PushbackLines) For(s Sample, skill string) string {
	if skill == "" {
		skill = s.Skill
	}
	line := s.Pushback
	if strings.TrimSpace(line) == "" {
		lines := l.byStyle[s.Style]
		if len(lines) == 0 {
			lines = l.byStyle[StyleNeutral]
		}
		h := fnv.New32a()
		h.Write([]byte(s.ID))
		line = lines[h.Sum32()%uint32(len(lines))]
	}
	return strings.ReplaceAll(line, SkillPlaceholder, skill)
}

// PushbackRequest is the second turn after first: the request its reply answered, the
// reply as the assistant's turn, and the player's pushback.
func PushbackRequest(first *llm.Request, reply, pushback string) *llm.Request {
	req := *first
	req.OnDelta, req.OnReset = nil, nil
	req.Messages = append(slices.Clip(slices.Clone(first.Messages)),
		llm.Message{Role: llm.RoleAssistant, Text: reply}, llm.Message{Role: llm.RoleUser, Text: pushback})
	return &req
}

// pushbackAt is where a second turn belongs: model, replicate and sample index.
type pushbackAt struct{ m, rep, k int }

// pushbackRound asks, in one round, the second turn of every ruling that is roll:
// first is by model, replicate and sample, as ruleAll returns. The second rulings come
// back in the same shape, nil where nothing was asked.
func (a *Asker) pushbackRound(ctx context.Context, lines *PushbackLines, models []llm.ModelName, samples []Sample, first [][][]Ruling) ([][][]*Ruling, error) {
	jobs, where := a.pushbackJobs(lines, models, samples, first)
	got, err := a.round(ctx, "pushback", jobs)
	if err != nil {
		return nil, err
	}
	out := make([][][]*Ruling, len(first))
	for m, reps := range first {
		out[m] = make([][]*Ruling, len(reps))
		for rep, rs := range reps {
			out[m][rep] = make([]*Ruling, len(rs))
		}
	}
	for i, j := range jobs {
		r := a.read(got[j.Key])
		r.Asked, r.ReplyTo = []*llm.Request{j.Request}, j.Request
		w := where[i]
		out[w.m][w.rep][w.k] = &r
	}
	return out, nil
}

// PushbackJobs lists the second turn of every roll ruling among first (by model,
// replicate and sample): the jobs the pushback round asks, for a queue.
func (a *Asker) PushbackJobs(lines *PushbackLines, models []llm.ModelName, samples []Sample, first [][][]Ruling) []runner.Job {
	jobs, _ := a.pushbackJobs(lines, models, samples, first)
	return jobs
}

func (a *Asker) pushbackJobs(lines *PushbackLines, models []llm.ModelName, samples []Sample, first [][][]Ruling) ([]runner.Job, []pushbackAt) {
	var jobs []runner.Job
	var where []pushbackAt
	for m, reps := range first {
		for rep, rs := range reps {
			for k, r := range rs {
				if r.Err != "" || r.Parsed.Decision != DecisionRoll || r.ReplyTo == nil {
					continue
				}
				s := samples[k]
				req := PushbackRequest(r.ReplyTo, r.Reply, lines.For(s, a.namedSkill(r.Parsed.Skill)))
				jobs = append(jobs, runner.Job{Key: runner.JobKey(models[m], PushbackItem(s.ID), rep), Model: models[m],
					Item: PushbackItem(s.ID), Replicate: rep, Request: req})
				where = append(where, pushbackAt{m, rep, k})
			}
		}
	}
	return jobs, where
}

// namedSkill is the skill a pushback names: the one the Keeper called for when the
// taxonomy knows it, else "" (the sample's own).
func (a *Asker) namedSkill(skill string) string {
	if a.Taxonomy == nil || skill == "" {
		return ""
	}
	if c, ok := a.Taxonomy.Canonical(skill); ok {
		return c
	}
	return ""
}

// executePushback asks the second round of a plain run whose first round is in the
// store: the first rulings are read back offline (as a report reads them), and the
// roll rulings among them are asked again through sess. What it asked is added to sum.
func executePushback(ctx context.Context, sess *runner.Session, run store.RunID, p *RunPlan, sum *runner.Summary) error {
	first, err := p.storedFirst(ctx, sess.Store, run)
	if err != nil {
		return err
	}
	a := &Asker{Session: sess, Run: run, Prompt: p.Prompt, Generation: p.Generation, Taxonomy: p.Taxonomy, Lexicon: p.Lexicon}
	_, err = a.pushbackRound(ctx, p.Pushback, p.Models, p.Dataset.Samples, first)
	sum.AddTally(a.Tally)
	return err
}

// storedFirst reads the first rulings of run from the store alone, by model, replicate
// and sample.
func (p *RunPlan) storedFirst(ctx context.Context, st *store.Store, run store.RunID) ([][][]Ruling, error) {
	off := &Asker{Session: &runner.Session{Store: st}, Run: run, Prompt: p.Prompt, Generation: p.Generation, Taxonomy: p.Taxonomy, Lexicon: p.Lexicon}
	return ruleAll(ctx, off, None{}, p)
}

// PushbackJobs lists the second round of a plain run whose first round is in the
// store: one job per roll ruling. A queue sends them once the first round is done.
func (p *RunPlan) PushbackJobs(ctx context.Context, st *store.Store, run store.RunID) ([]runner.Job, error) {
	first, err := p.storedFirst(ctx, st, run)
	if err != nil {
		return nil, err
	}
	a := &Asker{Taxonomy: p.Taxonomy}
	return a.PushbackJobs(p.Pushback, p.Models, p.Dataset.Samples, first), nil
}
