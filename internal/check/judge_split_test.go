package check

import (
	"cmp"
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// TestJudgeTranscriptMatchesJudge: judging each transcript alone from its JudgeJob (sent
// through JSON, as a queue does) asks what Judge asks, follow-ups included, and rates
// alike; Judge run afterwards on that store asks nothing and returns the same ratings.
func TestJudgeTranscriptMatchesJudge(t *testing.T) {
	no := courtJudge(t)
	srv := standIn(t, func(req *llmtest.Request) llmtest.Response {
		text := judgeReply(req, no)
		if len(req.Messages) == 1 { // the first ask leaves its last question for a follow-up
			lines := strings.Split(strings.TrimSpace(text), "\n")
			text = strings.Join(lines[:len(lines)-1], "\n")
		}
		return llmtest.Response{Text: text}
	})
	ctx := context.Background()
	cl, ts := DefaultChecklist(), BuiltinTranscripts()
	opt := JudgeOptions{Judges: []llm.ModelName{"openai/judge"}, Replicates: 2, BatchSize: 8}
	direct, err := Judge(ctx, execFor(t, srv, openStore(t, ""), "openai/judge"), cl, ts, opt)
	if err != nil {
		t.Fatal(err)
	}
	sent := srv.Requests()
	if direct.Requests.Rounds < 2 {
		t.Fatalf("the direct run had %d rounds; want follow-ups", direct.Requests.Rounds)
	}

	e := execFor(t, srv, openStore(t, ""), "openai/judge")
	run, jobs, err := PrepareJudge(ctx, e, cl, ts, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != len(ts) || srv.Requests() != sent {
		t.Fatalf("PrepareJudge gave %d jobs and asked %d; want %d and none", len(jobs), srv.Requests()-sent, len(ts))
	}
	var split []Rating
	for _, job := range jobs {
		b, err := json.Marshal(job)
		if err != nil {
			t.Fatal(err)
		}
		var back JudgeJob
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		j, err := JudgeTranscript(ctx, e, run, &back)
		if err != nil {
			t.Fatalf("JudgeTranscript %s: %v", job.Meta.TrialID, err)
		}
		split = append(split, j.Ratings...)
	}
	if n := srv.Requests() - sent; n != sent {
		t.Errorf("judging the transcripts one by one sent %d requests; want the %d of Judge", n, sent)
	}
	order := func(a, b Rating) int {
		return cmp.Or(cmp.Compare(a.Trial, b.Trial), cmp.Compare(a.Replicate, b.Replicate), cmp.Compare(a.Q, b.Q))
	}
	want := slices.Clone(direct.Ratings)
	slices.SortFunc(want, order)
	slices.SortFunc(split, order)
	if !reflect.DeepEqual(split, want) {
		t.Errorf("ratings judged one transcript at a time differ from Judge's")
	}

	before := srv.Requests()
	again, err := Judge(ctx, e, cl, ts, opt)
	if err != nil {
		t.Fatal(err)
	}
	if again.Run != run || srv.Requests() != before || again.Requests.Asked != 0 {
		t.Errorf("Judge after the split: run %s (want %s), asked %d; want the same run and nothing asked", again.Run, run, srv.Requests()-before)
	}
	if !reflect.DeepEqual(again.Ratings, direct.Ratings) {
		t.Errorf("Judge after the split rates differently from a direct Judge")
	}
}

// TestJudgeTranscriptBadJob: a job whose checklist does not match its hash, or without
// a transcript, is an error, and asks nothing.
func TestJudgeTranscriptBadJob(t *testing.T) {
	srv := standIn(t, func(req *llmtest.Request) llmtest.Response { return llmtest.Response{Text: judgeReply(req, nil)} })
	ctx := context.Background()
	e := execFor(t, srv, openStore(t, ""), "openai/judge")
	run, jobs, err := PrepareJudge(ctx, e, DefaultChecklist(), BuiltinTranscripts()[:1], JudgeOptions{Judges: []llm.ModelName{"openai/judge"}})
	if err != nil {
		t.Fatal(err)
	}
	tampered := jobs[0]
	tampered.Checklist = json.RawMessage(strings.Replace(string(jobs[0].Checklist), "?", "!", 1))
	empty := jobs[0]
	empty.Transcript = nil
	for name, job := range map[string]JudgeJob{"tampered": tampered, "empty": empty} {
		if _, err := JudgeTranscript(ctx, e, run, &job); err == nil {
			t.Errorf("%s job: no error", name)
		}
	}
	if n := srv.Requests(); n != 0 {
		t.Errorf("bad jobs asked %d requests", n)
	}
}
