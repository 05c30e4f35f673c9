package court

import (
	"context"
	"fmt"
	"hash/fnv"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/court/courttest"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/llm/openai"
	"github.com/arbiter-eval/arbiter/internal/runner"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// benchLongScript is script with a judge who closes the hearing only from turn 28, so a
// trial has about 30 turns, and with every role's line tagged by its system prompt (the
// case and the seed), so no two trials send the same request.
func benchLongScript(req *llmtest.Request) llmtest.Response {
	first := ""
	if len(req.Messages) > 0 {
		first = req.Messages[0].Text
	}
	n := courttest.TurnOf(first)
	text := script(req.Model, req.System, first)
	switch {
	case req.Model == "judge" && strings.HasPrefix(text, "The court has heard the case") && n < 28:
		text = fmt.Sprintf("Counsel, continue. (turn %d)", n)
	case req.Model == "analyzer" || strings.HasPrefix(req.System, "You decide the outcome"):
		return llmtest.Response{Text: text}
	}
	h := fnv.New32a()
	h.Write([]byte(req.System))
	return llmtest.Response{Text: fmt.Sprintf("%s [%d]", text, h.Sum32()%100000)}
}

// BenchmarkSimulation runs 100 trials of about 30 turns against a stand-in that takes
// 50 ms per request, 16 trials at a time, through the store, and reports the time
// against the ideal: every call's latency, spread perfectly over 16 lanes. Run it with
//
//	go test ./internal/court -run '^$' -bench Simulation -benchtime 1x
func BenchmarkSimulation(b *testing.B) {
	const (
		trials      = 100
		concurrency = 16
		latency     = 50 * time.Millisecond
	)
	srv := llmtest.NewServer(llmtest.Options{Latency: latency, Responder: benchLongScript})
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * concurrency}}
	defer client.CloseIdleConnections()
	models := map[llm.ModelName]llm.Model{}
	for _, role := range []string{"judge", "prosecutor", "witness", "analyzer", "defense"} {
		name := llm.ModelName("openai/" + role)
		m, err := openai.New(name, config.Endpoint{Provider: "openai", BaseURL: srv.OpenAIBaseURL(), Key: "sk-test"}, openai.Options{HTTPClient: client})
		if err != nil {
			b.Fatal(err)
		}
		models[name] = llm.WithRetry(m, llm.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond, Timeout: 10 * time.Second}, nil, nil)
	}
	c := fixture(b)
	seeds := make([]int64, trials)
	for i := range seeds {
		seeds[i] = int64(i + 1)
	}
	var calls, turns int
	var elapsed time.Duration
	for b.Loop() {
		st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		sim := &Simulation{
			Session:     &runner.Session{Store: st, Models: models, NoCache: true, Concurrency: concurrency},
			Cases:       []*Case{c},
			Seeds:       seeds,
			Settings:    Settings{Models: standInModels},
			Defense:     ModelDefense{},
			Concurrency: concurrency,
		}
		start := time.Now()
		res, err := sim.Run(context.Background())
		elapsed += time.Since(start)
		st.Close()
		if err != nil {
			b.Fatal(err)
		}
		if res.Completed() != trials || res.Tally.Asked != res.Tally.Jobs {
			b.Fatalf("completed %d of %d, tally %+v; want every trial, every call asked", res.Completed(), trials, res.Tally)
		}
		calls += res.Tally.Asked
		for _, t := range res.Trials {
			turns += len(t.Transcript.Turns)
		}
	}
	ideal := time.Duration(calls) * latency / concurrency
	// Trials of equal length, 16 at a time, take ceil(100/16) = 7 waves however fast the
	// engine is: 7/6.25 = 1.12 of the ideal is the floor of trial-level parallelism.
	waves := (trials + concurrency - 1) / concurrency
	floor := time.Duration(waves*calls/(b.N*trials)) * latency * time.Duration(b.N)
	b.ReportMetric(float64(turns)/float64(b.N*trials), "turns/trial")
	b.ReportMetric(float64(calls)/float64(turns), "calls/turn")
	b.ReportMetric(float64(elapsed)/float64(ideal), "x-ideal")
	b.ReportMetric(float64(elapsed)/float64(floor), "x-floor")
	b.ReportMetric(float64(srv.Requests())/float64(calls), "requests/call")
}

// BenchmarkTurnOverhead is the engine's own cost per turn: whole trials of the
// cross-examination case (prompts built, the analyzer's tags parsed, events emitted,
// the verdict pipeline) against in-process models that answer at once, so every
// nanosecond is the engine's. Target: under 1 ms per turn.
//
//	go test ./internal/court -run '^$' -bench TurnOverhead
func BenchmarkTurnOverhead(b *testing.B) {
	c := crossCase(b)
	models := fakeModels(nil)
	turns := 0
	for b.Loop() {
		tr, err := NewTrial(c, 7, Settings{Models: testModels}, models, ModelDefense{})
		if err != nil {
			b.Fatal(err)
		}
		if err := tr.Run(context.Background(), func(Event) {}); err != nil {
			b.Fatal(err)
		}
		turns += len(tr.Turns())
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(turns)/1e6, "ms/turn")
	b.ReportMetric(float64(turns)/float64(b.N), "turns/trial")
}
