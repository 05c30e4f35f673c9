package court

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/openai"
)

// standInCourt serves the scripted court over the OpenAI wire format, one model id per
// role, with the fault plan given, and returns an Asker reaching it through the real
// adapter wrapped for retries.
func standInCourt(t *testing.T, plan *llmtest.FaultPlan) (Asker, *llmtest.Server) {
	t.Helper()
	srv := llmtest.NewServer(llmtest.Options{FaultPlan: plan, Responder: func(req *llmtest.Request) llmtest.Response {
		first := ""
		if len(req.Messages) > 0 {
			first = req.Messages[0].Text
		}
		return llmtest.Response{Text: script(req.Model, req.System, first)}
	}})
	t.Cleanup(srv.Close)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	t.Cleanup(client.CloseIdleConnections)
	policy := llm.RetryPolicy{MaxAttempts: 8, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond, Timeout: 10 * time.Second}
	d := Direct{}
	for _, role := range []string{"judge", "prosecutor", "witness", "analyzer", "defense"} {
		name := llm.ModelName("openai/" + role)
		m, err := openai.New(name, config.Endpoint{Provider: "openai", BaseURL: srv.OpenAIBaseURL(), Key: "sk-test"}, openai.Options{HTTPClient: client})
		if err != nil {
			t.Fatalf("openai.New: %v", err)
		}
		d[name] = llm.WithRetry(m, policy, nil, nil)
	}
	return d, srv
}

var standInModels = Models{Judge: "openai/judge", Prosecutor: "openai/prosecutor", Witness: "openai/witness", Analyzer: "openai/analyzer", Defense: "openai/defense"}

func TestStandInWithServerErrors(t *testing.T) {
	clean, _ := standInCourt(t, nil)
	want, _ := runTrial(t, clean, ModelDefense{}, Settings{Models: standInModels})

	faulty, srv := standInCourt(t, &llmtest.FaultPlan{Seed: 3, Faults: []llmtest.Chance{{Fault: llmtest.Fault{Kind: llmtest.FaultServerError}, P: 0.1}}})
	rec := record(t, faulty)
	got, ev := runTrial(t, rec, ModelDefense{}, Settings{Models: standInModels})
	if srv.StatusCount(http.StatusInternalServerError) == 0 {
		t.Fatalf("the stand-in sent no 500: the test proves nothing")
	}
	a, _ := json.Marshal(want.Transcript())
	b, _ := json.Marshal(got.Transcript())
	if string(a) != string(b) {
		t.Errorf("500s changed the trial:\n%s\n%s", a, b)
	}
	tx := got.Transcript()
	if !tx.Completed || tx.Retries != 0 {
		t.Errorf("completed %v, retries %d: a retried 500 is not a restart", tx.Completed, tx.Retries)
	}
	checkProcedure(t, tx.Turns)
	// Every turn's text streamed in pieces and added up to the turn.
	if n := len(kinds(ev.all, EventDelta)); n <= len(tx.Turns) {
		t.Errorf("%d deltas for %d turns: the stand-in's replies did not stream", n, len(tx.Turns))
	}
	// Each call was answered once: the server's successful replies match the calls.
	if ok, calls := srv.StatusCount(http.StatusOK), int64(len(rec.calls)); ok != calls {
		t.Errorf("%d answered requests for %d calls", ok, calls)
	}
	for _, turn := range tx.Turns {
		if strings.Contains(turn.Text, "error") {
			t.Errorf("an error reached a turn: %q", turn.Text)
		}
	}
}

func BenchmarkTrialTurn(b *testing.B) {
	c := fixture(b)
	reply := func(text string) (*llm.Reply, error) { return &llm.Reply{Text: text, Finish: llm.FinishStop}, nil }
	var buf [64]byte
	ask := AskerFunc(func(_ context.Context, call Call, req *llm.Request) (*llm.Reply, error) {
		switch call.Agent {
		case AgentAnalyzer:
			if strings.Contains(req.Messages[0].Text, "The turn to route: Judge:") {
				return reply("<NextSpeaker: Prosecutor>")
			}
			return reply("<NextSpeaker: Judge>")
		case AgentEvaluation:
			return reply(`{"outcome":"loss","justification":"the key log"}`)
		}
		return reply(string(append(append(buf[:0], call.Key...), " speaks."...)))
	})
	turns := 0
	b.ReportAllocs()
	for b.Loop() {
		tr, err := NewTrial(c, 1, Settings{Models: testModels}, ask, &Script{Moves: []Move{{Kind: MoveSpeak, Text: "We deny it."}}})
		if err != nil {
			b.Fatal(err)
		}
		if err := tr.Run(context.Background(), func(Event) {}); err != nil {
			b.Fatal(err)
		}
		if !tr.Done() || tr.Verdict() == nil {
			b.Fatalf("trial did not finish: %+v", tr.Restarts())
		}
		turns += len(tr.Turns())
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(turns), "ns/turn")
}
