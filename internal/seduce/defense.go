package seduce

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// A Defense is one way of wiring the adjudicator against rhetorical injection (spec
// section 6). Every request it sends goes through the Asker, so it is stored, cached and
// resumed like the benchmark's own; run offline, the same calls only read what the
// store holds, which is how a report is rebuilt without a provider.
//
// A user's own defense (a different guard prompt, another shots set) is a value of one of
// these types built from a file, not a fork.
type Defense interface {
	// Name is how reports and the run's identity name it: "none", "canonicalize",
	// "self-consistency:5", "few-shot:3".
	Name() string
	// Identity is everything else that changes its requests (prompt hashes, the guard
	// model, the shots set and seed), recorded in the run's configuration.
	Identity() string
	// Rule rules on every sample for model, replicate rep.
	Rule(ctx context.Context, a *Asker, model llm.ModelName, samples []Sample, rep int) ([]Ruling, error)
}

// Ruling is a defense's ruling on one sample and what it cost.
type Ruling struct {
	Parsed Parsed
	// Err is a request that still failed (or a guard that never gave a valid action):
	// the sample is counted in errors and asked again by the next run.
	Err string
	// Requests counts the stored requests behind the ruling (repairs included); Tokens
	// their input and output tokens.
	Requests int
	Tokens   int64
	// Asked holds the adjudicator's requests, for audits and tests.
	Asked []*llm.Request
	// Reply is the text of the adjudicator's reply the ruling reads (for
	// self-consistency, the first reply that voted with the majority) and ReplyTo the
	// request it answered: the conversation a pushback continues.
	Reply   string
	ReplyTo *llm.Request
}

// Asker is how a defense asks within its run: the session, the run, the adjudicator's
// prompt and generation parameters, and how replies are read.
type Asker struct {
	Session    *runner.Session
	Run        store.RunID
	Prompt     Prompt
	Generation Generation
	Taxonomy   *Taxonomy
	Lexicon    *Lexicon
	// Tally counts what was asked over every round.
	Tally runner.Tally
}

// request stamps the plan's generation parameters on req.
func (a *Asker) request(req *llm.Request) *llm.Request {
	req.Temperature, req.Seed, req.MaxTokens = a.Generation.Temperature, a.Generation.Seed, a.Generation.MaxTokens
	return req
}

// round asks every job and returns the stored result of each, by key.
func (a *Asker) round(ctx context.Context, label string, jobs []runner.Job) (map[string]*store.Result, error) {
	asks := make([]runner.Ask, len(jobs))
	tax, lex := a.Taxonomy, a.Lexicon
	for i, j := range jobs {
		asks[i] = runner.Ask{Job: j, Outcome: func(reply string) string { return OutcomeOf(ParseReplyWith(reply, tax, lex)) }}
	}
	return a.Session.Round(ctx, a.Run, label, asks, &a.Tally)
}

// read turns a stored result into a ruling (nil: not in the store).
func (a *Asker) read(r *store.Result) Ruling {
	if r == nil {
		return Ruling{Err: "not in the store (run with a model to ask it)"}
	}
	if r.Err != "" {
		return Ruling{Err: r.Err, Requests: 1}
	}
	return Ruling{Parsed: FromReplyWith(&r.Reply, a.Taxonomy, a.Lexicon), Requests: 1, Tokens: r.Reply.Usage.Total(), Reply: r.Reply.Text}
}

// ParseDefense reads a --defense value: none, canonicalize, self-consistency:K or
// few-shot:K. The canonicalize and few-shot defenses get their guard and shots from opt.
func ParseDefense(s string, opt DefenseOptions) (Defense, error) {
	name, arg, hasArg := strings.Cut(strings.TrimSpace(s), ":")
	k := 0
	if hasArg {
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 || n > 64 {
			return nil, fmt.Errorf("defense %q: K must be a whole number from 1 to 64", s)
		}
		k = n
	}
	switch name {
	case "none", "canonicalize":
		if hasArg {
			return nil, fmt.Errorf("defense %q: %s takes no :K", s, name)
		}
		if name == "none" {
			return None{}, nil
		}
		return NewCanonicalize(opt.Guard, opt.GuardPrompt)
	case "self-consistency":
		if !hasArg {
			return nil, fmt.Errorf("defense %q: name the number of replies, e.g. self-consistency:5", s)
		}
		return SelfConsistency{K: k, Temperature: opt.Temperature}, nil
	case "few-shot":
		if !hasArg {
			return nil, fmt.Errorf("defense %q: name the number of examples, e.g. few-shot:3", s)
		}
		if opt.Shots == nil || len(opt.Shots.Samples) == 0 {
			return nil, fmt.Errorf("defense %q: the shots set is empty", s)
		}
		return FewShot{K: k, Shots: opt.Shots, Seed: opt.ShotSeed, From: opt.ShotsFrom}, nil
	}
	return nil, fmt.Errorf("defense %q: unknown (want none, canonicalize, self-consistency:K or few-shot:K)", s)
}

// DefenseOptions are what the defenses are built from.
type DefenseOptions struct {
	// Guard is canonicalize's guard model; "" means the target model itself.
	Guard llm.ModelName
	// GuardPrompt is the guard's system prompt; "" means the bundled one.
	GuardPrompt string
	// Temperature is self-consistency's; nil means 0.7 (spec section 6).
	Temperature *float64
	// Shots is few-shot's example set; ShotSeed draws from it.
	Shots    *Dataset
	ShotSeed uint64
	// ShotsFrom are the names Shots was loaded from, recorded so a report can load it again.
	ShotsFrom []string
}

// None is the unified zero-shot prompt: the benchmark's own request, with the same
// job keys as a run without defenses, so the two are one run.
type None struct{}

// Name is "none".
func (None) Name() string { return "none" }

// Identity is empty: none is the benchmark's own protocol.
func (None) Identity() string { return "" }

// Rule asks the zero-shot request of every sample.
func (None) Rule(ctx context.Context, a *Asker, model llm.ModelName, samples []Sample, rep int) ([]Ruling, error) {
	jobs := make([]runner.Job, len(samples))
	for i, s := range samples {
		jobs[i] = runner.Job{Key: runner.JobKey(model, string(s.ID), rep), Model: model, Item: string(s.ID), Replicate: rep,
			Request: a.request(a.Prompt.Request(s))}
	}
	got, err := a.round(ctx, "adjudicator", jobs)
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

// SelfConsistency asks K independent replies per sample and keeps the majority.
type SelfConsistency struct {
	K int
	// Temperature is sent with every reply; nil means 0.7.
	Temperature *float64
}

// DefaultSelfConsistencyTemperature is the sampling temperature of self-consistency
// when --temperature is not given.
const DefaultSelfConsistencyTemperature = 0.7

// Name is "self-consistency:K".
func (d SelfConsistency) Name() string { return fmt.Sprintf("self-consistency:%d", d.K) }

// Identity names the temperature.
func (d SelfConsistency) Identity() string { return fmt.Sprintf("t=%g", d.temperature()) }

func (d SelfConsistency) temperature() float64 {
	if d.Temperature != nil {
		return *d.Temperature
	}
	return DefaultSelfConsistencyTemperature
}

// Rule asks K replies per sample (replicates rep*K … rep*K+K-1, so each is its own
// request to the cache) and votes.
func (d SelfConsistency) Rule(ctx context.Context, a *Asker, model llm.ModelName, samples []Sample, rep int) ([]Ruling, error) {
	t := d.temperature()
	var jobs []runner.Job
	for _, s := range samples {
		for k := range d.K {
			req := a.request(a.Prompt.Request(s))
			req.Temperature = &t
			r := rep*d.K + k
			jobs = append(jobs, runner.Job{Key: runner.JobKey(model, string(s.ID)+"/sc", r), Model: model, Item: string(s.ID), Replicate: r, Request: req})
		}
	}
	got, err := a.round(ctx, "self-consistency", jobs)
	if err != nil {
		return nil, err
	}
	out := make([]Ruling, len(samples))
	for i := range samples {
		votes := make([]Parsed, 0, d.K)
		texts := make([]string, 0, d.K)
		o := &out[i]
		for k := range d.K {
			j := jobs[i*d.K+k]
			one := a.read(got[j.Key])
			o.Requests += one.Requests
			o.Tokens += one.Tokens
			o.Asked = append(o.Asked, j.Request)
			if one.Err != "" && o.Err == "" {
				o.Err = one.Err
			}
			votes = append(votes, one.Parsed)
			texts = append(texts, one.Reply)
		}
		if o.Err == "" {
			o.Parsed = Majority(votes)
			if k := slices.IndexFunc(votes, func(v Parsed) bool { return v.Decision == o.Parsed.Decision }); k >= 0 {
				o.Reply, o.ReplyTo = texts[k], o.Asked[k]
			}
		}
	}
	return out, nil
}

// Majority is self-consistency's vote: the decision given most often wins, a tie for
// the most is unparsed, and the skill is the one the winners named most (a tie goes to
// the one named first).
func Majority(votes []Parsed) Parsed {
	count := map[Decision]int{}
	for _, v := range votes {
		count[v.Decision]++
	}
	var best Decision
	top, tie := 0, false
	for _, d := range []Decision{DecisionRoll, DecisionPass, DecisionRefused, DecisionUnparsed} {
		switch n := count[d]; {
		case n > top:
			best, top, tie = d, n, false
		case n == top && n > 0:
			tie = true
		}
	}
	if top == 0 || tie {
		return Parsed{Decision: DecisionUnparsed, Rule: "majority-tie"}
	}
	skills := map[string]int{}
	var order []string
	for _, v := range votes {
		if v.Decision != best || v.Skill == "" {
			continue
		}
		if skills[v.Skill] == 0 {
			order = append(order, v.Skill)
		}
		skills[v.Skill]++
	}
	skill := ""
	for _, s := range order {
		if skill == "" || skills[s] > skills[skill] {
			skill = s
		}
	}
	return Parsed{Decision: best, Skill: skill, Rule: fmt.Sprintf("majority %d of %d", top, len(votes))}
}
