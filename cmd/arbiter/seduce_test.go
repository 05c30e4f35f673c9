package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/store"
)

func TestSeduceRunDefaultNeedsNoKeyNorNetwork(t *testing.T) {
	env := map[string]string{"ARBITER_DB": filepath.Join(t.TempDir(), "a.db")}
	r := arbiter(t, env, "seduce", "run")
	if r.code != 0 {
		t.Fatalf("seduce run: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"Table 3", "Table 6", "Table 7", "Table 8", "baseline/keyword", "1792"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	again := arbiter(t, env, "seduce", "run")
	if again.code != 0 || !strings.Contains(again.stderr, "1792 already in the store") {
		t.Fatalf("rerun: exit %d, stderr %q; want every job resumed", again.code, again.stderr)
	}
	if again.stdout != r.stdout {
		t.Error("the resumed run's report differs from the first")
	}
}

func openStore(t testing.TB, path string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestFaultyProviderLosesNothing is the foundation's first acceptance line: with 10%
// 429s, 10% 500s and 5% hung requests, 1,792 jobs end answered or recorded with their
// final error, none lost or duplicated, and a rerun asks nothing already answered.
func TestFaultyProviderLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 1,792 jobs")
	}
	srv := llmtest.NewServer(llmtest.Options{
		Responder: keeperReply,
		HangCap:   10 * time.Second,
		FaultPlan: &llmtest.FaultPlan{Seed: 7, Faults: []llmtest.Chance{
			{Fault: llmtest.Fault{Kind: llmtest.FaultRateLimit, RetryAfter: 20 * time.Millisecond}, P: 0.10},
			{Fault: llmtest.Fault{Kind: llmtest.FaultServerError}, P: 0.10},
			{Fault: llmtest.Fault{Kind: llmtest.FaultHang}, P: 0.05},
		}},
	})
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "faults.db")
	env := map[string]string{"OPENAI_API_KEY": "sk-test-faults", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	args := []string{"seduce", "run", "-q", "-m", "openai/gpt-standin", "--db", db, "--concurrency", "48",
		"--timeout", "400ms", "--retries", "6", "--format", "json", "--bootstrap", "0"}
	r := arbiter(t, env, args...)
	if r.code != 0 && r.code != 1 {
		t.Fatalf("seduce run: exit %d\n%s", r.code, r.stderr)
	}
	st := openStore(t, db)
	run, err := st.ResolveRun(context.Background(), "seduce", "latest")
	if err != nil {
		t.Fatal(err)
	}
	answered, failed := 0, 0
	seen := map[string]bool{}
	st.Results(context.Background(), run.ID, false, func(res *store.Result) error {
		if seen[res.Item] {
			t.Errorf("sample %s recorded twice", res.Item)
		}
		seen[res.Item] = true
		if res.Err == "" {
			answered++
		} else {
			failed++
		}
		return nil
	})
	if answered+failed != 1792 {
		t.Fatalf("store holds %d answered + %d failed = %d; want all 1792 jobs", answered, failed, answered+failed)
	}
	if ok := srv.StatusCount(200); int(ok) != answered {
		t.Errorf("the stand-in answered %d requests with 200 but %d jobs are answered: a reply was lost or asked twice", ok, answered)
	}
	stats := srv.Stats()
	t.Logf("first run: %d requests (%v), %d answered, %d failed", stats.Requests, stats.ByStatus, answered, failed)
	if stats.ByStatus[429] == 0 || stats.ByStatus[500] == 0 || stats.ByStatus[0] == 0 {
		t.Fatalf("faults were not injected: %v", stats.ByStatus)
	}
	before := srv.Requests()
	again := arbiter(t, env, args...)
	if again.code != 0 && again.code != 1 {
		t.Fatalf("rerun: exit %d\n%s", again.code, again.stderr)
	}
	if extra := srv.Requests() - before; failed == 0 && extra != 0 {
		t.Errorf("rerun sent %d requests; want 0", extra)
	} else if extra > int64(failed*7) {
		t.Errorf("rerun sent %d requests for %d failed jobs", extra, failed)
	}
	if got := decodeJSON(t, again.stdout)["models"].([]any)[0].(map[string]any)["n"].(float64); int(got) < answered {
		t.Errorf("rerun report n = %v; want at least %d", got, answered)
	}
}

// TestReportEqualsRecordedReplies: the metrics of a run equal the metrics computed
// independently from the raw replies the store recorded.
func TestReportEqualsRecordedReplies(t *testing.T) {
	var n int
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		ctx, _, _ := seduce.SplitUserMessage(req.LastUser())
		switch len(ctx) % 6 {
		case 0:
			return llmtest.Response{Refusal: "I can't help with that."}
		case 1:
			return llmtest.Response{Text: "Hmm, hard to say. Perhaps, perhaps not."}
		case 2:
			return llmtest.Response{Text: "Decision: roll\nSkill: Brawl"}
		}
		n++
		return keeperReply(req)
	}})
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "r.db")
	env := map[string]string{"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	r := arbiter(t, env, "seduce", "run", "-q", "-m", "openai/gpt-standin", "--db", db, "--format", "json", "--bootstrap", "0")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if srv.Requests() != 1792 {
		t.Fatalf("stand-in saw %d requests; want 1792", srv.Requests())
	}
	// Recompute from the raw provider bodies in the store.
	tax := seduce.DefaultTaxonomy()
	ds, err := seduce.Builtin(tax)
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t, db)
	run, _ := st.ResolveRun(context.Background(), "seduce", "latest")
	var preds []seduce.Prediction
	st.Results(context.Background(), run.ID, true, func(res *store.Result) error {
		var body struct {
			Choices []struct {
				Message struct {
					Content string  `json:"content"`
					Refusal *string `json:"refusal"`
				} `json:"message"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(res.Reply.Raw, &body); err != nil || len(body.Choices) != 1 {
			t.Fatalf("raw reply of %s: %v %s", res.Item, err, res.Reply.Raw)
		}
		p := seduce.Prediction{ID: seduce.SampleID(res.Item), Model: string(res.Model), LatencyMS: float64(res.Reply.Latency.Microseconds()) / 1000}
		if m := body.Choices[0].Message; m.Refusal != nil && *m.Refusal != "" {
			p.Decision = seduce.DecisionRefused
		} else {
			parsed := seduce.ParseReply(m.Content, tax)
			p.Decision, p.Skill = parsed.Decision, parsed.Skill
		}
		preds = append(preds, p)
		return nil
	})
	want := seduce.Score(ds.Samples, preds, seduce.ScoreOptions{Canon: func(s string) string {
		if c, ok := tax.Canonical(s); ok {
			return c
		}
		return s
	}})
	wantJSON, _ := json.Marshal(want)
	got, wantV := decodeJSON(t, r.stdout), decodeJSON(t, string(wantJSON))
	gm, wm := got["models"].([]any)[0].(map[string]any), wantV["models"].([]any)[0].(map[string]any)
	for _, k := range []string{"n", "evaluated", "refused", "unparsed", "fp", "fc", "fr", "fp_rate", "fc_rate", "ws", "by_style", "by_setting", "by_generator"} {
		g, _ := json.Marshal(gm[k])
		w, _ := json.Marshal(wm[k])
		if !bytes.Equal(g, w) {
			t.Errorf("%s = %s; recomputed from raw replies %s", k, g, w)
		}
	}
	if gm["refused"].(float64) == 0 || gm["unparsed"].(float64) == 0 {
		t.Errorf("the run should hold refusals and unparsed replies: %v / %v", gm["refused"], gm["unparsed"])
	}
}

// TestSecretsNeverLeak plants a recognisable key, makes the stand-in echo it back in
// 401 errors, and looks for it in everything arbiter wrote.
func TestSecretsNeverLeak(t *testing.T) {
	const key = "sk-arbiter-FAKE-KEY-7f3a9c2e51b84d06"
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		if strings.Contains(req.LastUser(), "a") && len(req.LastUser())%3 == 0 {
			return llmtest.Response{Fault: llmtest.Fault{Kind: llmtest.FaultUnauthorized}}
		}
		return keeperReply(req)
	}})
	defer srv.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	data := smallDataset(t, 24)
	env := map[string]string{"OPENAI_API_KEY": key, "ANTHROPIC_API_KEY": key, "GEMINI_API_KEY": key,
		"OPENAI_BASE_URL": srv.OpenAIBaseURL(), "ANTHROPIC_BASE_URL": srv.URL, "GEMINI_BASE_URL": srv.URL}
	var outputs []string
	for _, format := range []string{"text", "json", "md", "csv", "latex"} {
		r := arbiter(t, env, "seduce", "run", "-v", "--dataset", data, "--db", db, "--format", format, "--retries", "1",
			"-m", "openai/gpt-x", "-m", "anthropic/claude-x", "-m", "google/gemini-x")
		outputs = append(outputs, r.stdout, r.stderr)
	}
	if srv.StatusCount(401) == 0 {
		t.Fatal("no 401 was sent; the test proves nothing")
	}
	for i, s := range outputs {
		if strings.Contains(s, key) {
			t.Errorf("output %d contains the key:\n%s", i, s)
		}
	}
	st := openStore(t, db)
	st.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "s.db*"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if bytes.Contains(b, []byte(key)) {
			t.Errorf("%s contains the key", f)
		}
	}
}

func TestBadInputIsOneClearLine(t *testing.T) {
	badData := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(badData, []byte("{\"id\": \"x\"\n"), 0o644)
	db := filepath.Join(t.TempDir(), "b.db")
	tests := []struct {
		name  string
		env   map[string]string
		args  []string
		want  string
		lines int
	}{
		{"unknown provider", nil, []string{"seduce", "run", "-m", "acme/model-1"}, "unknown provider", 1},
		{"malformed model name", nil, []string{"seduce", "run", "-m", "gpt-4.1"}, "want provider/model", 1},
		{"missing key", nil, []string{"seduce", "run", "-m", "openai/gpt-4.1"}, "OPENAI_API_KEY", 1},
		{"missing anthropic key", nil, []string{"seduce", "run", "-m", "anthropic/claude-x"}, "ANTHROPIC_API_KEY", 1},
		{"unreachable base URL", map[string]string{"OPENAI_API_KEY": "k"}, []string{"seduce", "run", "-m", "openai/gpt-4.1", "--base-url", "http://127.0.0.1:1/v1"}, "cannot reach", 1},
		{"bad format", nil, []string{"seduce", "run", "--format", "pdf"}, "--format", 1},
		{"bad dataset", nil, []string{"seduce", "run", "--dataset", badData}, "bad.jsonl:1", 0},
		{"unknown command", nil, []string{"seduce", "frobnicate"}, "unknown command", 0},
		{"unknown flag", nil, []string{"seduce", "run", "--frob"}, "unknown flag", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"ARBITER_DB": db}
			for k, v := range tt.env {
				env[k] = v
			}
			r := arbiter(t, env, tt.args...)
			if r.code != 2 {
				t.Fatalf("exit %d; want 2\nstderr: %s", r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("stderr %q; want it to mention %q", r.stderr, tt.want)
			}
			if tt.lines > 0 && strings.Count(r.stderr, "\n") != tt.lines {
				t.Errorf("stderr has %d lines; want %d:\n%s", strings.Count(r.stderr, "\n"), tt.lines, r.stderr)
			}
		})
	}
}

// TestSIGKILLLosesOnlyInFlight builds the binary, kills it at a random point of a run
// and reruns: answered requests across both runs are at most jobs + in-flight.
func TestSIGKILLLosesOnlyInFlight(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills the binary")
	}
	bin := binary(t)
	srv := llmtest.NewServer(llmtest.Options{Responder: keeperReply, Latency: 5 * time.Millisecond})
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "k.db")
	const concurrency = 16
	args := []string{"seduce", "run", "-q", "-m", "openai/gpt-standin", "--db", db, "--concurrency", "16", "--format", "json", "--bootstrap", "0"}
	env := append(os.Environ(), "OPENAI_API_KEY=sk-test", "OPENAI_BASE_URL="+srv.OpenAIBaseURL())
	killAt := int64(100 + rand.IntN(1400))
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for srv.Requests() < killAt && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	first := srv.StatusCount(200)
	if first >= 1792 {
		t.Fatalf("the run finished before the kill (%d answered); nothing was tested", first)
	}
	rerun := exec.Command(bin, args...)
	rerun.Env = env
	out, err := rerun.CombinedOutput()
	if err != nil {
		t.Fatalf("rerun: %v\n%s", err, out)
	}
	total := srv.StatusCount(200)
	t.Logf("killed after %d answered requests; rerun brought the total to %d", first, total)
	if total > 1792+concurrency {
		t.Errorf("answered requests across both runs = %d; want at most jobs + in-flight = %d", total, 1792+concurrency)
	}
	st := openStore(t, db)
	run, _ := st.ResolveRun(context.Background(), "seduce", "latest")
	s, _ := st.RunStats(context.Background(), run.ID)
	if s.Answered != 1792 {
		t.Errorf("store holds %d answered jobs after the rerun; want 1792", s.Answered)
	}
}

// TestSIGINTStopsCleanly interrupts the binary mid-run: it exits 1 saying how to resume,
// every saved result is a real answer, and the rerun completes the run.
func TestSIGINTStopsCleanly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and interrupts the binary")
	}
	bin := binary(t)
	srv := llmtest.NewServer(llmtest.Options{Responder: keeperReply, Latency: 20 * time.Millisecond})
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "i.db")
	args := []string{"seduce", "run", "-q", "-m", "openai/gpt-standin", "--db", db, "--concurrency", "8", "--format", "json", "--bootstrap", "0"}
	env := append(os.Environ(), "OPENAI_API_KEY=sk-test", "OPENAI_BASE_URL="+srv.OpenAIBaseURL())
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for srv.Requests() < 200 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if srv.Requests() < 200 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the run sent %d requests in a minute; want 200 before the interrupt\n%s", srv.Requests(), stderr.String())
	}
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(stderr.String(), "run the same command again to resume") {
		t.Fatalf("after SIGINT: exit %d (%v), stderr %q; want 1 and how to resume", code, err, stderr.String())
	}
	st := openStore(t, db)
	run, _ := st.ResolveRun(context.Background(), "seduce", "latest")
	s, _ := st.RunStats(context.Background(), run.ID)
	if s.Failed != 0 || s.Answered == 0 || s.Answered >= 1792 {
		t.Fatalf("after SIGINT the store holds %+v; want only answers, part of the run", s)
	}
	if run.Status != "interrupted" {
		t.Errorf("run status %q; want interrupted", run.Status)
	}
	st.Close()
	rerun := exec.Command(bin, args...)
	rerun.Env = env
	if out, err := rerun.CombinedOutput(); err != nil {
		t.Fatalf("rerun: %v\n%s", err, out)
	}
	if total := srv.StatusCount(200); total > 1792+8 {
		t.Errorf("answered requests across both runs = %d; want at most 1800", total)
	}
}
