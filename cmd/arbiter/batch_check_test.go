package main

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-eval/arbiter/internal/config"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// TestCheckJudgeBatchAndDryRun: check judge's --dry-run sends nothing and counts the
// requests a --batch run then submits (25 per judge on the bundled transcripts); the
// batch run scores as a direct run does, and a rerun submits and asks nothing.
func TestCheckJudgeBatchAndDryRun(t *testing.T) {
	srv := llmtest.NewBatchServer(llmtest.Options{Responder: checkStandIn("")}, llmtest.BatchOptions{})
	defer srv.Close()
	dir := t.TempDir()
	judge := func(db string, more ...string) []string {
		return append([]string{"check", "judge", "-q", "--judge", "openai/gpt-4.1", "--judge", "anthropic/claude-opus-4-7",
			"--base-url", srv.URL, "--db", filepath.Join(dir, db), "--format", "json", "--batch-poll", "1ms"}, more...)
	}
	env := map[string]string{}

	dry := arbiter(t, env, judge("b.db", "--dry-run", "--batch")...)
	if dry.code != 0 {
		t.Fatalf("dry run: exit %d\n%s\n%s", dry.code, dry.stdout, dry.stderr)
	}
	if srv.Requests() != 0 || srv.BatchesCreated() != 0 {
		t.Fatalf("dry run sent %d requests and %d batches; want none", srv.Requests(), srv.BatchesCreated())
	}
	est := estimateRequests(t, dry.stdout)
	if est["openai/gpt-4.1"] != 25 || est["anthropic/claude-opus-4-7"] != 25 || est["total"] != 50 {
		t.Fatalf("dry run estimate %v; want 25 per judge\n%s", est, dry.stdout)
	}
	if !strings.Contains(dry.stdout, "batch price") {
		t.Errorf("estimate should be priced at the batch price:\n%s", dry.stdout)
	}

	res := arbiter(t, env, judge("b.db", "--batch")...)
	if res.code != 0 {
		t.Fatalf("batch run: exit %d\n%s", res.code, res.stderr)
	}
	if got := srv.LinesSubmitted(); got != est["total"] {
		t.Errorf("batch run submitted %d lines; the dry run counted %d", got, est["total"])
	}
	if got := srv.BatchesCreated(); got != 2 {
		t.Errorf("%d batches; want one per provider", got)
	}
	sent := srv.Requests()

	again := arbiter(t, env, slices.DeleteFunc(judge("b.db", "--batch"), func(a string) bool { return a == "-q" })...)
	for _, m := range []string{"openai/gpt-4.1", "anthropic/claude-opus-4-7"} {
		if want := "cost of " + m + ": "; !strings.Contains(again.stderr, want) ||
			!strings.Contains(again.stderr, "USD at batch prices (25 replies paid for") {
			t.Errorf("the judge's stderr does not give %s's cost at batch prices for its 25 replies:\n%s", m, again.stderr)
		}
	}
	if again.code != 0 || srv.BatchesCreated() != 2 || srv.LinesSubmitted() != 50 || srv.Requests() != sent {
		t.Fatalf("rerun: exit %d, %d batches, %d lines, %d requests; want nothing new\n%s",
			again.code, srv.BatchesCreated(), srv.LinesSubmitted(), srv.Requests()-sent, again.stderr)
	}
	first, second := decodeJSON(t, res.stdout), decodeJSON(t, again.stdout)
	if req := second["requests"].(map[string]any); req["asked"] != 0.0 || req["resumed"] != 50.0 {
		t.Errorf("rerun's requests %v; want 50 resumed and none asked", req)
	}
	delete(first, "requests")
	delete(second, "requests")
	if jsonText(first) != jsonText(second) {
		t.Errorf("the rerun's scores differ from the first:\n%s\n---\n%s", res.stdout, again.stdout)
	}
	after := arbiter(t, env, judge("b.db", "--dry-run")...)
	if est := estimateRequests(t, after.stdout); after.code != 0 || est["total"] != 0 {
		t.Errorf("dry run after the batch run: exit %d, %v; want nothing left to send\n%s", after.code, est, after.stdout)
	}

	// The same judgement asked directly on another store scores the same.
	direct := arbiter(t, env, judge("d.db", "--no-cache")...)
	if direct.code != 0 {
		t.Fatalf("direct run: exit %d\n%s", direct.code, direct.stderr)
	}
	b, d := decodeJSON(t, res.stdout), decodeJSON(t, direct.stdout)
	for _, k := range []string{"checklist", "qs", "by_dimension", "per_question"} {
		if jsonText(b[k]) != jsonText(d[k]) {
			t.Errorf("batch run's %s = %s; the direct run's %s", k, jsonText(b[k]), jsonText(d[k]))
		}
	}
}

// TestCheckJudgeOldBatchFlag: the old --batch N (questions per request) is refused with
// a line naming its new name, before any request.
func TestCheckJudgeOldBatchFlag(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Responder: checkStandIn("")})
	defer srv.Close()
	r := arbiter(t, map[string]string{}, "check", "judge", "--judge", "openai/gpt-4.1", "--base-url", srv.URL,
		"--db", filepath.Join(t.TempDir(), "c.db"), "--batch", "20")
	if r.code != 2 || !strings.Contains(r.stderr, "--questions-per-request 20") || srv.Requests() != 0 {
		t.Errorf("exit %d, %d requests, stderr %q; want exit 2 naming --questions-per-request 20", r.code, srv.Requests(), r.stderr)
	}
}

// TestCheckJudgeBatchResumes: a judge run interrupted while its batches are in progress
// leaves them recorded; the rerun polls those batches, submits nothing new and scores
// every answer.
func TestCheckJudgeBatchResumes(t *testing.T) {
	srv := llmtest.NewBatchServer(llmtest.Options{Responder: checkStandIn("")}, llmtest.BatchOptions{})
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "r.db")
	args := func(poll string) []string {
		return []string{"check", "judge", "-q", "--judge", "openai/gpt-4.1", "--judge", "anthropic/claude-opus-4-7",
			"--base-url", srv.URL, "--db", db, "--format", "json", "--batch", "--batch-poll", poll}
	}
	// The first run polls once (the stand-in says in progress), then would wait an hour:
	// it is interrupted as soon as both batches exist.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	codes := make(chan int, 1)
	go func() {
		var out, errb bytes.Buffer
		codes <- run(ctx, args("1h"), strings.NewReader(""), &out, &errb, config.Read(func(string) (string, bool) { return "", false }))
	}()
	for srv.BatchesCreated() < 2 {
		select {
		case code := <-codes:
			t.Fatalf("the first run ended (exit %d) before both batches were submitted", code)
		case <-time.After(time.Millisecond):
		}
	}
	cancel()
	if code := <-codes; code == 0 {
		t.Fatal("the interrupted run exited 0")
	}
	res := arbiter(t, map[string]string{}, args("1ms")...)
	if res.code != 0 {
		t.Fatalf("rerun: exit %d\n%s", res.code, res.stderr)
	}
	if srv.BatchesCreated() != 2 || srv.LinesSubmitted() != 50 || srv.MaxLineRepeats() != 1 {
		t.Errorf("%d batches, %d lines, a request in %d batches; want the first run's 2 batches of 50 lines and nothing again",
			srv.BatchesCreated(), srv.LinesSubmitted(), srv.MaxLineRepeats())
	}
	got := decodeJSON(t, res.stdout)
	if a := got["answers"].(map[string]any); a["missing"] != 0.0 || a["yes"].(float64)+a["no"].(float64) != 2*5*38 {
		t.Errorf("answers %v; want all %d questions answered", a, 2*5*38)
	}
}
