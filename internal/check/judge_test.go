package check

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/report"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// flaws is what a careful judge would answer "no" to in the bundled trials.
var flaws = map[string][]QuestionID{
	"t-002": {"BRF-RA-03", "BRF-RA-06", "BRF-CR-02"},        // a witness interrogates
	"t-003": {"BRF-RA-01", "BRF-RA-05", "PCS-02", "LFO-04"}, // the judge opines on guilt
	"t-004": {"BRF-FC-01", "BRF-FC-03", "BRF-FC-05"},        // a contradiction, invented evidence
	"t-005": {"PCS-01", "PCS-03", "PCS-06", "PCS-07", "LFO-06", "BRF-CR-01"},
}

// courtJudge is a stand-in judge that knows the bundled trials' flaws.
func courtJudge(t *testing.T) func(trial, question string) bool {
	byText := map[string]QuestionID{}
	for _, it := range DefaultChecklist().Items() {
		byText[it.Text] = it.ID
	}
	return func(trial, question string) bool {
		id, ok := byText[question]
		if !ok {
			t.Errorf("the judge was asked an unknown question %q", question)
		}
		for _, f := range flaws[trial] {
			if f == id {
				return true
			}
		}
		return false
	}
}

func TestJudgeBuiltinTranscripts(t *testing.T) {
	no := courtJudge(t)
	srv := standIn(t, func(req *llmtest.Request) llmtest.Response {
		return llmtest.Response{Text: judgeReply(req, no)}
	})
	st := openStore(t, "")
	ctx := context.Background()
	cl, ts := DefaultChecklist(), BuiltinTranscripts()
	opt := JudgeOptions{Judges: []llm.ModelName{"openai/judge"}, BatchSize: 8}
	j, err := Judge(ctx, execFor(t, srv, st, "openai/judge"), cl, ts, opt)
	if err != nil {
		t.Fatalf("Judge: %v", err)
	}
	first := srv.Requests()
	// 5 transcripts × (BRF 24 → 3 batches, PCS 8 → 1, LFO 6 → 1) = 25 requests, no follow-ups.
	if first != 25 {
		t.Errorf("first run sent %d requests; want 25", first)
	}
	s := Score(j)

	t.Run("json has the spec's keys", func(t *testing.T) {
		var b bytes.Buffer
		if err := WriteScores(&b, s, "json"); err != nil {
			t.Fatal(err)
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(b.Bytes(), &got); err != nil {
			t.Fatalf("output is not JSON: %v", err)
		}
		for _, k := range []string{"checklist", "qs", "by_dimension", "retry_rate"} {
			if _, ok := got[k]; !ok {
				t.Errorf("JSON lacks %q", k)
			}
		}
		var spec struct {
			Checklist   string             `json:"checklist"`
			QS          float64            `json:"qs"`
			ByDimension map[string]float64 `json:"by_dimension"`
			RetryRate   int                `json:"retry_rate"`
		}
		if err := json.Unmarshal(b.Bytes(), &spec); err != nil {
			t.Fatalf("spec fields do not decode: %v", err)
		}
		if spec.Checklist != cl.Hash {
			t.Errorf("checklist = %q; want the checklist hash %q", spec.Checklist, cl.Hash)
		}
		if spec.RetryRate != 3 {
			t.Errorf("retry_rate = %d; want 3 (1 in t-004, 2 in t-005)", spec.RetryRate)
		}
		// 16 flaws over 5 × 38 answers; per-transcript shares averaged.
		want := (1 + 35.0/38 + 34.0/38 + 35.0/38 + 32.0/38) / 5
		if math.Abs(spec.QS-want) > 1e-9 {
			t.Errorf("qs = %v; want %v", spec.QS, want)
		}
		for _, d := range cl.Dims {
			if _, ok := spec.ByDimension[d.Name]; !ok {
				t.Errorf("by_dimension lacks %q", d.Name)
			}
		}
		// PCS: t-003 1 flaw, t-005 4 flaws of 8.
		if got, want := spec.ByDimension["Procedural Convergence and Stability"], (1+1+7.0/8+1+4.0/8)/5; math.Abs(got-want) > 1e-9 {
			t.Errorf("PCS = %v; want %v", got, want)
		}
	})

	t.Run("tables have the paper's shapes", func(t *testing.T) {
		tables := Tables(s)
		names := map[string]report.Table{}
		for _, tb := range tables {
			names[tb.Name] = tb
		}
		for _, n := range []string{"table1", "table2-behavioral-role-fidelity", "cases-behavioral-role-fidelity",
			"cases-procedural-convergence-and-stability", "cases-linguistic-formalism-and-orthography",
			"cases-retries", "transcripts", "questions"} {
			if _, ok := names[n]; !ok {
				t.Errorf("no table %q", n)
			}
		}
		t1 := names["table1"]
		if len(t1.Rows) != 5 { // 4 models and All
			t.Errorf("table1 has %d rows; want 5", len(t1.Rows))
		}
		t2 := names["table2-behavioral-role-fidelity"]
		if got := strings.Join(t2.Header, "|"); got != "Model|Role Adherence|Argumentative Depth|Factual Consistency|Contextual Relevance" {
			t.Errorf("table2 header = %s", got)
		}
		if got := len(names["cases-behavioral-role-fidelity"].Header); got != 6 { // Model + 5 cases
			t.Errorf("cases table has %d columns; want 6", got)
		}
		for _, f := range report.Formats {
			var b bytes.Buffer
			if err := WriteScores(&b, s, f); err != nil || b.Len() == 0 {
				t.Errorf("WriteScores(%s) = %v, %d bytes", f, err, b.Len())
			}
		}
	})

	t.Run("question yes-rates show which questions discriminate", func(t *testing.T) {
		pattern := map[QuestionID]string{}
		for _, q := range s.PerQuestion {
			pattern[q.ID] = q.Pattern
		}
		if pattern["BRF-RA-03"] != PatternDiscriminates {
			t.Errorf("BRF-RA-03 pattern = %q; want %q", pattern["BRF-RA-03"], PatternDiscriminates)
		}
		if pattern["LFO-01"] != PatternAlwaysYes {
			t.Errorf("LFO-01 pattern = %q; want %q", pattern["LFO-01"], PatternAlwaysYes)
		}
	})

	t.Run("rerun asks nothing", func(t *testing.T) {
		j2, err := Judge(ctx, execFor(t, srv, st, "openai/judge"), cl, ts, opt)
		if err != nil {
			t.Fatalf("Judge again: %v", err)
		}
		if n := srv.Requests(); n != first {
			t.Errorf("rerun sent %d new requests; want 0", n-first)
		}
		if j2.Requests.Resumed != 25 || j2.Requests.Asked != 0 {
			t.Errorf("rerun requests = %+v; want 25 resumed, 0 asked", j2.Requests)
		}
		s2 := Score(j2)
		s2.Requests = s.Requests
		if a, b := jsonOf(t, s2), jsonOf(t, s); a != b {
			t.Errorf("rerun scores differ from the first run's")
		}
	})

	t.Run("the store keeps each reply's parsed answers", func(t *testing.T) {
		n := 0
		err := st.Results(ctx, j.Run, false, func(r *store.Result) error {
			if as, ok := StoredAnswers(r.Outcome); !ok || len(as) == 0 {
				t.Errorf("%s: outcome %q is not a list of answers", r.JobKey, r.Outcome)
			}
			n++
			return nil
		})
		if err != nil || n != 25 {
			t.Errorf("read %d results: %v", n, err)
		}
	})

	t.Run("report rebuilds from the store", func(t *testing.T) {
		j3, err := Rescore(ctx, st, "latest")
		if err != nil {
			t.Fatalf("Rescore: %v", err)
		}
		if n := srv.Requests(); n != first {
			t.Errorf("Rescore sent %d requests", n-first)
		}
		got, want := Score(j3), Score(j)
		got.Requests, want.Requests = runner.Tally{}, runner.Tally{}
		if a, b := jsonOf(t, got), jsonOf(t, want); a != b {
			t.Errorf("rescored scores differ:\n%s\nwant\n%s", a, b)
		}
	})
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestJudgeFollowUps shows that an answer missing from a reply is asked again, only the
// missing questions, and that one never answered is recorded missing, not "no".
func TestJudgeFollowUps(t *testing.T) {
	cl := DefaultChecklist()
	ts := BuiltinTranscripts()[:1]
	var calls atomic.Int64
	srv := standIn(t, func(req *llmtest.Request) llmtest.Response {
		calls.Add(1)
		qs := asked(req)
		switch {
		case len(req.Messages) == 1 && qs[1] != "":
			// First ask of the first batch: prose, no usable answer for Q2, and Q3 omitted.
			return llmtest.Response{Text: "Let me think.\nQ1 - " + qs[1] + ": YES (reasoning: [T1] opens properly)\nQ2: maybe\n" +
				strings.Join(linesFor(qs, 4, 8), "")}
		case len(req.Messages) == 3 && qs[2] != "":
			// First follow-up: answers Q2 only; Q3 stays missing.
			if _, extra := qs[1]; extra {
				t.Errorf("follow-up asked again an answered question: %v", qs)
			}
			return llmtest.Response{Text: "Q2: no - the judge ruled without reasons"}
		case len(req.Messages) >= 3:
			return llmtest.Response{Text: "I cannot tell."}
		}
		return llmtest.Response{Text: judgeReply(req, nil)}
	})
	st := openStore(t, "")
	j, err := Judge(context.Background(), execFor(t, srv, st, "openai/j"), cl, ts, JudgeOptions{Judges: []llm.ModelName{"openai/j"}, BatchSize: 8, FollowUps: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]Rating{}
	for _, r := range j.Ratings {
		got[r.Q] = r
	}
	tests := []struct {
		q    int
		want Verdict
		asks int
	}{{1, Yes, 1}, {2, No, 2}, {3, Missing, 3}, {4, Yes, 1}}
	for _, tc := range tests {
		if r := got[tc.q]; r.Verdict != tc.want || r.Asks != tc.asks {
			t.Errorf("Q%d = %v after %d asks; want %v after %d", tc.q, r.Verdict, r.Asks, tc.want, tc.asks)
		}
	}
	// 5 batches + 2 follow-ups of the first one.
	if n := calls.Load(); n != 7 {
		t.Errorf("stand-in saw %d requests; want 7", n)
	}
	s := Score(j)
	if s.Answers.Missing != 1 || s.Answers.No != 1 {
		t.Errorf("answers = %+v; want 1 missing and 1 no", s.Answers)
	}
	if want := 36.0 / 37; s.QS == nil || math.Abs(*s.QS-want) > 1e-9 {
		t.Errorf("qs = %v; want %v (the missing answer left out, not counted as no)", s.QS, want)
	}
}

func linesFor(qs map[int]string, from, to int) []string {
	var out []string
	for n := from; n <= to; n++ {
		if text, ok := qs[n]; ok {
			out = append(out, "Q"+strconv.Itoa(n)+" - "+text+": yes (reasoning: fine)\n")
		}
	}
	return out
}

// TestJudgeMalformedReplies covers replies a judge gets wrong: a server error body, a
// malformed HTTP body and an unreadable reply are retried or followed up, and a request
// that keeps failing is recorded as failed with its questions missing.
func TestJudgeMalformedReplies(t *testing.T) {
	cl := DefaultChecklist()
	ts := BuiltinTranscripts()[:2]
	srv := standIn(t, func(req *llmtest.Request) llmtest.Response {
		trial := trialOf(req)
		switch {
		case trial == "t-001" && req.Attempt == 1 && len(req.Messages) == 1:
			return llmtest.Response{Fault: llmtest.Fault{Kind: llmtest.FaultMalformed}}
		case trial == "t-002" && strings.Contains(req.LastUser(), "Linguistic"):
			return llmtest.Response{Fault: llmtest.Fault{Kind: llmtest.FaultServerError}}
		case trial == "t-002" && len(req.Messages) == 1:
			return llmtest.Response{Text: "```json\n[{\"q\": \"Q9\", \"answer\": \"Sì\"}]\n```"}
		}
		return llmtest.Response{Text: judgeReply(req, nil)}
	})
	st := openStore(t, "")
	e := execFor(t, srv, st, "openai/j")
	j, err := Judge(context.Background(), e, cl, ts, JudgeOptions{Judges: []llm.ModelName{"openai/j"}, BatchSize: 40, FollowUps: 1})
	if err != nil {
		t.Fatal(err)
	}
	if j.Failed != 1 {
		t.Errorf("Failed = %d; want 1 (the LFO batch of t-002)", j.Failed)
	}
	for _, r := range j.Ratings {
		lfo := strings.HasPrefix(string(r.ID), "LFO")
		switch {
		case r.Trial == "t-002" && lfo:
			if r.Verdict != Missing || r.Err == "" {
				t.Errorf("%s %s = %v (err %q); want missing with the request's error", r.Trial, r.ID, r.Verdict, r.Err)
			}
		case r.Verdict != Yes:
			t.Errorf("%s %s = %v; want yes", r.Trial, r.ID, r.Verdict)
		}
	}
	s := Score(j)
	if s.FailedRequests != 1 {
		t.Errorf("FailedRequests = %d", s.FailedRequests)
	}
}

// TestAgreementTextbook checks the agreement figures against the worked example of
// Cohen's kappa (two raters, 50 items: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no):
// po = 0.7, pe = 0.5, kappa = 0.4; Gwet's AC1 = (0.7 − 0.495)/(1 − 0.495) ≈ 0.40594;
// Fleiss' kappa (Scott's pi for two raters) = (0.7 − 0.505)/(1 − 0.505) ≈ 0.39394.
func TestAgreementTextbook(t *testing.T) {
	var rs []Rating
	add := func(n int, a, b Verdict) {
		for range n {
			q := len(rs)/2 + 1
			rs = append(rs, Rating{Judge: "x/a", Trial: "t", Q: q, Verdict: a}, Rating{Judge: "x/b", Trial: "t", Q: q, Verdict: b})
		}
	}
	add(20, Yes, Yes)
	add(5, Yes, No)
	add(10, No, Yes)
	add(15, No, No)
	a := AgreementOf(rs)
	near := func(name string, got *float64, want float64) {
		t.Helper()
		if got == nil || math.Abs(*got-want) > 5e-6 {
			t.Errorf("%s = %v; want %.5f", name, deref(got), want)
		}
	}
	if a.Items != 50 || len(a.Pairs) != 1 {
		t.Fatalf("items %d, pairs %d; want 50 and 1", a.Items, len(a.Pairs))
	}
	near("percent agreement", a.Pairs[0].PercentAgreement, 0.7)
	near("Cohen's kappa", a.Pairs[0].CohenKappa, 0.4)
	near("Gwet's AC1 (pair)", a.Pairs[0].GwetAC1, 0.205/0.505)
	near("Gwet's AC1 (counts)", a.GwetAC1, 0.205/0.505)
	near("Fleiss' kappa", a.FleissKappa, 0.195/0.495)
}

func deref(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}

// TestJudgeSeveralRaters runs two judges with two replicates each and reports their
// agreement.
func TestJudgeSeveralRaters(t *testing.T) {
	srv := standIn(t, func(req *llmtest.Request) llmtest.Response {
		strict := req.Model == "strict"
		return llmtest.Response{Text: judgeReply(req, func(trial, q string) bool {
			return strict && strings.Contains(q, "judge") && trial != "t-001"
		})}
	})
	st := openStore(t, "")
	judges := []llm.ModelName{"openai/lenient", "openai/strict"}
	j, err := Judge(context.Background(), execFor(t, srv, st, "openai/lenient", "openai/strict"), DefaultChecklist(),
		BuiltinTranscripts(), JudgeOptions{Judges: judges, Replicates: 2, BatchSize: 20})
	if err != nil {
		t.Fatal(err)
	}
	s := Score(j)
	a := s.Agreement
	if a == nil {
		t.Fatal("no agreement with four raters")
	}
	if len(a.Raters) != 4 || len(a.Pairs) != 6 {
		t.Errorf("raters %v, %d pairs; want 4 raters and 6 pairs", a.Raters, len(a.Pairs))
	}
	if a.FleissKappa == nil || a.GwetAC1 == nil || *a.GwetAC1 <= *a.FleissKappa {
		t.Errorf("Fleiss %v, AC1 %v; want both, AC1 above kappa on mostly-yes data", deref(a.FleissKappa), deref(a.GwetAC1))
	}
	for _, p := range a.Pairs {
		same := strings.HasPrefix(p.A, string(judges[0])) == strings.HasPrefix(p.B, string(judges[0]))
		if same && (p.PercentAgreement == nil || *p.PercentAgreement != 1) {
			t.Errorf("%s vs %s agreement = %v; want 1 (same judge, same replies)", p.A, p.B, deref(p.PercentAgreement))
		}
	}
}
