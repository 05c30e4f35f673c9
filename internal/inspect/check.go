package inspect

import (
	"fmt"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/check"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// CheckTask is the task name of an RPA-Check log.
const CheckTask = "rpa-check"

// Check turns a judge run into one log (task rpa-check): one sample per transcript, its
// Quality Score overall and per dimension and its retries as scores, the judges'
// answers as the output; the metrics are s's QS, QS per dimension and retry rate R.
func Check(j *check.Judgement, s *check.Scores) *Log {
	l := newLog("success")
	judges := make([]string, len(j.Judges))
	for i, m := range j.Judges {
		judges[i] = string(m)
	}
	model := strings.Join(judges, ",")
	runID := string(j.Run)
	ids := make([]string, len(j.Transcripts))
	for i, t := range j.Transcripts {
		ids[i] = string(t.TrialID)
	}
	l.Eval.EvalID = store.Hash([]byte(runID + "\x00" + CheckTask))[:22]
	l.Eval.RunID = runID
	l.Eval.Task = CheckTask
	l.Eval.TaskID = store.Hash([]byte(CheckTask + "\x00" + j.Checklist.Hash))[:22]
	l.Eval.TaskVersion = fmt.Sprintf("checklist:%.12s", j.Checklist.Hash)
	l.Eval.Dataset = Dataset{Name: "transcripts", Samples: len(j.Transcripts), SampleIDs: ids}
	l.Eval.Model = model
	l.Eval.Config = Config{Epochs: intp(max(j.Replicates, 1))}
	l.Eval.Metadata = map[string]any{"arbiter_run": runID, "checklist": j.Checklist.Name, "checklist_hash": j.Checklist.Hash, "judges": judges}
	l.Plan.Steps = []Step{step("arbiter/checklist_judge", map[string]any{"checklist": j.Checklist.Name, "replicates": j.Replicates})}
	l.Metadata = map[string]any{"arbiter_run": runID}

	ratings := map[check.TrialID][]check.Rating{}
	for _, r := range j.Ratings {
		ratings[r.Trial] = append(ratings[r.Trial], r)
	}
	for _, ts := range s.PerTranscript {
		l.Samples = append(l.Samples, checkSample(model, ts, ratings[ts.TrialID]))
	}
	l.Stats.ModelUsage = map[string]Usage{}
	l.Results = checkResults(j, s)
	return l
}

func checkSample(model string, ts check.TranscriptScore, rs []check.Rating) Sample {
	out := newSample(string(ts.TrialID), 1)
	input := fmt.Sprintf("Transcript %s of %s on case %s", ts.TrialID, ts.Model, ts.CaseID)
	out.Input = input
	out.Target = ""
	out.Messages = append(out.Messages, Message{Role: "user", Content: input, Source: "input"})
	var lines []string
	var errs []string
	for _, r := range rs {
		line := fmt.Sprintf("%s rep %d Q%d %s: %v", r.Judge, r.Replicate, r.Q, r.ID, r.Verdict)
		if r.Reason != "" {
			line += " — " + r.Reason
		}
		if r.Err != "" {
			errs = append(errs, r.Err)
		}
		lines = append(lines, line)
	}
	answers := strings.Join(lines, "\n")
	msg := assistant(model, answers, "")
	out.Messages = append(out.Messages, msg)
	out.Output = Output{Model: model, Choices: []Choice{{Message: msg, StopReason: "stop"}}, Completion: answers}
	out.Metadata = map[string]any{"case_id": ts.CaseID, "model": ts.Model, "source": ts.Source, "retries": ts.Retries,
		"yes": ts.Answers.Yes, "no": ts.Answers.No, "missing": ts.Answers.Missing}
	if ts.Completed != nil {
		out.Metadata["completed"] = *ts.Completed
	}
	out.Scores = map[string]Result{"retries": {Value: ts.Retries, History: []any{}}}
	if ts.QS != nil {
		out.Scores["qs"] = Result{Value: *ts.QS, History: []any{}}
	}
	for dim, v := range ts.ByDimension {
		if v != nil {
			out.Scores[dim] = Result{Value: *v, History: []any{}}
		}
	}
	if len(errs) > 0 && ts.Answers.Yes+ts.Answers.No == 0 {
		out.Error = &Error{Message: strings.Join(errs, "; ")}
	}
	return out
}

// checkResults holds QS (overall and per dimension) and the retry rate R.
func checkResults(j *check.Judgement, s *check.Scores) *Results {
	qs := map[string]Metric{}
	if s.QS != nil {
		qs["qs"] = metric("qs", *s.QS)
	}
	scores := []Score{{Name: "qs", Scorer: "arbiter/rpa-check", Params: map[string]any{}, Metrics: qs}}
	for _, d := range j.Checklist.Dims {
		m := map[string]Metric{}
		if v := s.ByDimension[d.Name]; v != nil {
			m["qs"] = metric("qs", *v)
		}
		scores = append(scores, Score{Name: d.Name, Scorer: "arbiter/rpa-check", Params: map[string]any{}, Metrics: m})
	}
	scores = append(scores, Score{Name: "retries", Scorer: "arbiter/rpa-check", Params: map[string]any{},
		Metrics: map[string]Metric{"retry_rate": metric("retry_rate", float64(s.RetryRate))}})
	return &Results{TotalSamples: len(s.PerTranscript), CompletedSamples: len(s.PerTranscript), Scores: scores,
		Metadata: map[string]any{"arbiter_scores": map[string]any{"checklist": s.Checklist, "qs": s.QS, "by_dimension": s.ByDimension, "retry_rate": s.RetryRate}}}
}
