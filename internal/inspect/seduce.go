package inspect

import (
	"fmt"
	"strings"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// SeduceTask is the task name of a CoC-Seduce log.
const SeduceTask = "coc-seduce"

// seduceScorer names the score every CoC-Seduce sample carries.
const seduceScorer = "ruling"

// Seduce turns an exported benchmark run into one log per model and defense of its
// report, in report order. Every ruling of the run is a sample of exactly one log; a
// failed request is a sample with an error. The metrics are the report's own numbers.
func Seduce(x *seduce.RunExport) ([]*Log, error) {
	type arm struct{ model, defense string }
	byArm := map[arm][]seduce.StoredRuling{}
	for _, r := range x.Rulings {
		k := arm{r.Model, r.Defense}
		byArm[k] = append(byArm[k], r)
	}
	samples := map[seduce.SampleID]*seduce.Sample{}
	ids := make([]string, len(x.Dataset.Samples))
	for i := range x.Dataset.Samples {
		s := &x.Dataset.Samples[i]
		samples[s.ID], ids[i] = s, string(s.ID)
	}
	var logs []*Log
	seen := map[arm]bool{}
	for i := range x.Results.Models {
		mr := &x.Results.Models[i]
		k := arm{mr.Model, mr.Defense}
		if k.defense == "none" && x.Config.Defense == "" {
			k.defense = ""
		}
		if seen[k] {
			return nil, fmt.Errorf("run %s: model %s under defense %q is reported twice", x.Run.ID, mr.Model, mr.Defense)
		}
		seen[k] = true
		logs = append(logs, seduceLog(x, mr, byArm[k], samples, ids))
	}
	for k, rs := range byArm {
		if !seen[k] {
			return nil, fmt.Errorf("run %s: %d rulings of %s (defense %q) are in no report entry", x.Run.ID, len(rs), k.model, k.defense)
		}
	}
	return logs, nil
}

func seduceLog(x *seduce.RunExport, mr *seduce.ModelResult, rulings []seduce.StoredRuling, samples map[seduce.SampleID]*seduce.Sample, ids []string) *Log {
	l := newLog(logStatus(x.Run.Status))
	cfg := x.Config
	spec, ok := x.Specs[mr.Model]
	if !ok {
		spec = llm.PlainSpec(llm.ModelName(mr.Model))
	}
	gen := GenerateConfig{Temperature: cfg.Temperature, Seed: cfg.Seed, ReasoningEffort: spec.Params.ReasoningEffort}
	if spec.Params.Temperature != nil {
		gen.Temperature = spec.Params.Temperature
	}
	if n := max(spec.Params.MaxTokens, cfg.MaxTokens); n > 0 {
		gen.MaxTokens = intp(n)
	}
	if spec.Params.ThinkingBudget > 0 {
		gen.ReasoningTokens = intp(spec.Params.ThinkingBudget)
	}
	runID := string(x.Run.ID)
	defense := mr.Defense
	if setup := cfg.DefenseSetup; defense == "none" && setup != nil && setup.NoneRun != "" {
		runID = string(setup.NoneRun) // the none arm's rulings are that run's
	}
	l.Eval.EvalID = store.Hash([]byte(runID + "\x00" + mr.Model + "\x00" + defense))[:22]
	l.Eval.RunID = runID
	l.Eval.Created = timestamp(x.Run.StartedAt)
	l.Eval.Task = SeduceTask
	l.Eval.TaskID = store.Hash([]byte(SeduceTask + "\x00" + x.Prompt.Hash + "\x00" + x.Dataset.Hash))[:22]
	l.Eval.TaskVersion = fmt.Sprintf("prompt:%.12s dataset:%.12s", x.Prompt.Hash, x.Dataset.Hash)
	l.Eval.Dataset = Dataset{Name: x.Dataset.Name, Location: strings.Join(cfg.Datasets, "+"), Samples: len(x.Dataset.Samples), SampleIDs: ids}
	l.Eval.Model = mr.Model
	l.Eval.ModelGenerateConfig = gen
	l.Eval.ModelArgs = map[string]any{"base": string(spec.Base)}
	l.Eval.Config = Config{Epochs: intp(max(cfg.Replicates, 1))}
	l.Eval.Packages = map[string]string{"arbiter": x.Run.Version}
	l.Eval.Metadata = map[string]any{"arbiter_run": runID, "prompt_hash": x.Prompt.Hash, "dataset_hash": x.Dataset.Hash, "family": mr.Family}
	if defense != "" {
		l.Eval.Metadata["defense"] = defense
	}
	if ep := cfg.Endpoints[mr.Model]; ep != "" {
		l.Eval.Metadata["endpoint"] = ep
	}
	l.Plan.Config = gen
	l.Plan.Steps = []Step{step("system_message", map[string]any{"prompt_hash": x.Prompt.Hash})}
	if defense != "" && defense != "none" {
		l.Plan.Steps = append(l.Plan.Steps, step("arbiter/defense", map[string]any{"defense": defense}))
	}
	l.Plan.Steps = append(l.Plan.Steps, step("generate", nil), step("arbiter/parse_ruling", nil))
	l.Metadata = map[string]any{"arbiter_run": runID, "arbiter_run_status": string(x.Run.Status)}

	var first, last time.Time
	total := Usage{}
	for _, r := range rulings {
		s := seduceSample(x, mr.Model, r, samples[r.Sample])
		if s.ModelUsage[mr.Model] != (Usage{}) {
			total.Add(s.ModelUsage[mr.Model])
		}
		l.Samples = append(l.Samples, s)
		if r.Reply != nil && !r.Completed.IsZero() {
			start := r.Completed.Add(-r.Reply.Latency)
			if first.IsZero() || start.Before(first) {
				first = start
			}
			if r.Completed.After(last) {
				last = r.Completed
			}
		}
	}
	if first.IsZero() {
		first, last = x.Run.StartedAt, x.Run.EndedAt
	}
	l.Stats.StartedAt, l.Stats.CompletedAt = timestamp(first), timestamp(last)
	l.Stats.ModelUsage[mr.Model] = total
	l.Results = seduceResults(mr, len(rulings))
	return l
}

// logStatus is a run's status as Inspect's: a run that ended, even with failed
// requests (which are samples with errors), is a success.
func logStatus(s store.Status) string {
	switch s {
	case store.StatusDone, store.StatusIncomplete:
		return "success"
	case store.StatusFailed:
		return "error"
	case store.StatusInterrupted:
		return "cancelled"
	}
	return "started"
}

// GoldRuling is a sample's target: "roll: <gold skill>" or "pass".
func GoldRuling(s *seduce.Sample) string {
	if s.RequiresRoll {
		return "roll: " + s.GoldSkill
	}
	return "pass"
}

func seduceSample(x *seduce.RunExport, model string, r seduce.StoredRuling, s *seduce.Sample) Sample {
	out := newSample(string(r.Sample), r.Replicate+1)
	var input []Message
	if r.Request != nil {
		if r.Request.System != "" {
			input = append(input, Message{Role: "system", Content: r.Request.System, Source: "input"})
		}
		for _, m := range r.Request.Messages {
			input = append(input, Message{Role: string(m.Role), Content: m.Text, Source: "input"})
		}
	}
	if input == nil {
		input = []Message{}
	}
	out.Input = input
	out.Messages = append(out.Messages, input...)
	if s != nil {
		out.Target = GoldRuling(s)
		out.Metadata = map[string]any{"style": string(s.Style), "setting": string(s.Setting), "skill": s.Skill,
			"scenario_id": s.ScenarioID, "category": string(s.Category), "generator": s.Generator,
			"requires_roll": s.RequiresRoll, "gold_skill": s.GoldSkill}
	}
	out.Metadata["replicate"] = r.Replicate
	out.Metadata["arbiter_run"] = string(r.Run)
	if r.Defense != "" {
		out.Metadata["defense"] = r.Defense
	}
	out.Output = Output{Model: model, Choices: []Choice{}}
	if !r.Completed.IsZero() {
		out.CompletedAt = timestamp(r.Completed)
	}
	if r.Err != "" {
		out.Output.Error = r.Err
		out.Error = &Error{Message: r.Err}
		return out
	}
	if r.Reply != nil {
		msg := assistant(model, r.Reply.Text, r.Reply.Reasoning)
		out.Messages = append(out.Messages, msg)
		out.Output.Choices = []Choice{{Message: msg, StopReason: stopReason(r.Reply.Finish)}}
		out.Output.Completion = r.Reply.Text
		u := usageOf(r.Reply.Usage)
		out.Output.Usage = &u
		out.ModelUsage[model] = u
		secs := r.Reply.Latency.Seconds()
		out.Output.Time, out.TotalTime = &secs, &secs
		if r.Reply.Model != "" {
			out.Metadata["provider_model"] = r.Reply.Model
		}
		out.Metadata["source"] = string(r.Source)
	}
	out.Scores = map[string]Result{seduceScorer: rulingScore(r.Parsed, s)}
	return out
}

// rulingScore is the parsed ruling as a score: C when it is the gold ruling (roll or
// pass; the skill is a separate matter, WS), I when it is not, N when it is neither
// roll nor pass (refused, unparsed), which the rates leave out.
func rulingScore(p seduce.Parsed, s *seduce.Sample) Result {
	res := Result{Value: NoAnswer, Answer: string(p.Decision), Explanation: p.Rule, History: []any{},
		Metadata: map[string]any{"decision": string(p.Decision), "skill": p.Skill, "rule": p.Rule, "span": p.Span, "how": p.How}}
	if p.Skill != "" {
		res.Answer += ": " + p.Skill
	}
	if s == nil {
		return res
	}
	switch p.Decision {
	case seduce.DecisionRoll, seduce.DecisionPass:
		roll := p.Decision == seduce.DecisionRoll
		res.Value = Correct
		if roll != s.RequiresRoll {
			res.Value = Incorrect
		}
		res.Metadata["false_pass"] = s.RequiresRoll && !roll
		res.Metadata["false_check"] = !s.RequiresRoll && roll
	}
	return res
}

func stopReason(f llm.Finish) string {
	switch f {
	case llm.FinishStop:
		return "stop"
	case llm.FinishLength:
		return "max_tokens"
	case llm.FinishContentFilter, llm.FinishRefusal:
		return "content_filter"
	}
	return "unknown"
}

func usageOf(u llm.Usage) Usage {
	out := Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, TotalTokens: u.Total()}
	if u.ReasoningTokens > 0 {
		n := u.ReasoningTokens
		out.ReasoningTokens = &n
	}
	if u.CachedInputTokens > 0 {
		n := u.CachedInputTokens
		out.InputTokensCacheRead = &n
	}
	return out
}

// seduceResults holds the report's rates as metrics: fr, fp_rate, fc_rate and ws, each
// with its bootstrap interval as <name>_ci_lower and <name>_ci_upper where the report
// has one. An undefined rate (null in the report) has no metric: Inspect's values are
// numbers.
func seduceResults(mr *seduce.ModelResult, total int) *Results {
	metrics := map[string]Metric{}
	add := func(name string, v *float64, ci *[2]float64) {
		if v == nil {
			return
		}
		metrics[name] = metric(name, *v)
		if ci != nil {
			metrics[name+"_ci_lower"] = metric(name+"_ci_lower", ci[0])
			metrics[name+"_ci_upper"] = metric(name+"_ci_upper", ci[1])
		}
	}
	add("fr", mr.FR, mr.FRCI)
	add("fp_rate", mr.FPRate, mr.FPRateCI)
	add("fc_rate", mr.FCRate, mr.FCRateCI)
	add("ws", mr.WS, nil)
	for _, c := range []struct {
		name string
		n    int
	}{{"n", mr.N}, {"evaluated", mr.Evaluated}, {"errors", mr.Errors}, {"refused", mr.Refused}, {"unparsed", mr.Unparsed}, {"fp", mr.FP}, {"fc", mr.FC}} {
		metrics[c.name] = metric(c.name, float64(c.n))
	}
	return &Results{TotalSamples: total, CompletedSamples: mr.N,
		Scores: []Score{{Name: seduceScorer, Scorer: "arbiter/seduce", Params: map[string]any{}, Metrics: metrics,
			ScoredSamples: intp(mr.Evaluated), UnscoredSamples: intp(mr.N - mr.Evaluated)}},
		Metadata: map[string]any{"arbiter_report": mr}}
}
