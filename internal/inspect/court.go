package inspect

import (
	"fmt"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// CourtTask is the task name of an LLM Court log.
const CourtTask = "llm-court"

// Court turns a simulation into one log (task llm-court): one sample per trial, its
// case description as input, its turns as messages (the defense's as the user's, every
// other role's as an assistant's, speaker, role and phase in metadata), and its
// outcome, completion and retries as scores; a trial that could not finish is a sample
// with an error. The metrics are the win rate over completed trials, the completed
// share and the retry rate R (the total of retries).
func Court(res *court.SimResult, models court.Models) *Log {
	l := newLog("success")
	runID := string(res.Run)
	model := string(models.Judge)
	l.Eval.EvalID = store.Hash([]byte(runID + "\x00" + CourtTask))[:22]
	l.Eval.RunID = runID
	l.Eval.Task = CourtTask
	l.Eval.TaskID = store.Hash([]byte(CourtTask))[:22]
	l.Eval.TaskVersion = "court"
	l.Eval.Model = model
	l.Eval.ModelRoles = map[string]Model{}
	for role, m := range map[string]string{"judge": string(models.Judge), "prosecutor": string(models.Prosecutor),
		"witness": string(models.Witness), "analyzer": string(models.Analyzer), "defense": string(models.Defense)} {
		if m != "" {
			l.Eval.ModelRoles[role] = Model{Model: m, Args: map[string]any{}}
		}
	}
	l.Eval.Metadata = map[string]any{"arbiter_run": runID}
	l.Plan.Steps = []Step{step("arbiter/court_trial", nil)}
	l.Metadata = map[string]any{"arbiter_run": runID}
	var ids []string
	completed, wins, retries := 0, 0, 0
	for _, tr := range res.Trials {
		ids = append(ids, tr.TrialID)
		s := courtSample(model, tr)
		if t := tr.Transcript; t != nil {
			retries += t.Retries
			if t.Completed {
				completed++
				if t.Outcome != nil && *t.Outcome == court.OutcomeWin {
					wins++
				}
			}
		}
		l.Samples = append(l.Samples, s)
	}
	l.Eval.Dataset = Dataset{Name: "cases", Samples: len(res.Trials), SampleIDs: ids}
	metrics := map[string]Metric{"completed": metric("completed", float64(completed)), "retry_rate": metric("retry_rate", float64(retries))}
	if completed > 0 {
		metrics["win_rate"] = metric("win_rate", float64(wins)/float64(completed))
	}
	l.Results = &Results{TotalSamples: len(res.Trials), CompletedSamples: completed,
		Scores: []Score{{Name: "outcome", Scorer: "arbiter/court", Params: map[string]any{}, Metrics: metrics}}}
	return l
}

func courtSample(model string, tr court.TrialResult) Sample {
	out := newSample(tr.TrialID, 1)
	out.Metadata = map[string]any{"case_id": tr.CaseID, "seed": tr.Seed}
	out.Output = Output{Model: model, Choices: []Choice{}}
	t := tr.Transcript
	if t == nil {
		out.Input = ""
		msg := "trial did not finish"
		if tr.Err != nil {
			msg = tr.Err.Error()
		}
		out.Error = &Error{Message: msg}
		out.Output.Error = msg
		return out
	}
	out.Input = t.CaseDescription
	out.Messages = append(out.Messages, Message{Role: "user", Content: t.CaseDescription, Source: "input"})
	var last *Message
	for _, turn := range t.Turns {
		m := Message{Role: "assistant", Content: turn.Text, Source: "generate", Model: t.Models[string(turn.Role)],
			Metadata: map[string]any{"speaker": turn.Speaker, "role": string(turn.Role), "phase": string(turn.Phase)}}
		if turn.Player {
			m.Role, m.Source, m.Model = "user", "input", ""
		}
		out.Messages = append(out.Messages, m)
		if m.Role == "assistant" {
			last = &out.Messages[len(out.Messages)-1]
		}
	}
	if last != nil {
		out.Output.Choices = []Choice{{Message: *last, StopReason: "stop"}}
		out.Output.Completion, _ = last.Content.(string)
	}
	outcome := "none"
	if t.Outcome != nil {
		outcome = *t.Outcome
	}
	out.Target = "win"
	out.Scores = map[string]Result{
		"outcome":   {Value: outcome, Answer: outcome, History: []any{}},
		"completed": {Value: t.Completed, History: []any{}},
		"retries":   {Value: t.Retries, History: []any{}, Explanation: fmt.Sprintf("%d restarts", len(t.Restarts))},
	}
	out.Metadata["models"] = t.Models
	return out
}
