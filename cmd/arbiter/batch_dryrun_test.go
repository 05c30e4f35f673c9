package main

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// TestSeduceDryRunBundledSet is the acceptance on the bundled set (1,792
// samples) for two models: --dry-run sends nothing, its request counts equal what the
// real run then sends exactly, and its input tokens are within 5% of those the stand-in
// counted for the requests it was sent.
func TestSeduceDryRunBundledSet(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole bundled set")
	}
	srv := llmtest.NewBatchServer(llmtest.Options{Responder: tokenCounting(t)}, llmtest.BatchOptions{})
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "full.db")
	args := []string{"seduce", "run", "-q", "--dataset", "builtin", "-m", "openai/gpt-4.1", "-m", "anthropic/claude-opus-4-7",
		"--base-url", srv.URL, "--db", db, "--format", "json", "--batch-poll", "1ms", "--batch"}
	env := map[string]string{}

	dry := arbiter(t, env, append(args, "--dry-run")...)
	if dry.code != 0 {
		t.Fatalf("dry run: exit %d\n%s\n%s", dry.code, dry.stdout, dry.stderr)
	}
	if srv.Requests() != 0 || srv.BatchesCreated() != 0 {
		t.Fatalf("dry run sent %d requests and %d batches; want none", srv.Requests(), srv.BatchesCreated())
	}
	est := estimateRequests(t, dry.stdout)

	res := arbiter(t, env, args...)
	if res.code != 0 {
		t.Fatalf("run: exit %d\n%s", res.code, res.stderr)
	}
	sent := srv.LinesSubmitted() + int(srv.Requests())
	if est["openai/gpt-4.1"] != 1792 || est["anthropic/claude-opus-4-7"] != 1792 || est["total"] != sent {
		t.Errorf("dry run counted %v; the run sent %d (want 1792 per model)", est, sent)
	}

	st, err := store.OpenExisting(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.Runs(context.Background(), "seduce")
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs %v, %v", runs, err)
	}
	stats, err := st.RunStats(context.Background(), runs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	var estIn int64
	for m, n := range estimateColumn(t, dry.stdout, 2) {
		if m != "total" {
			estIn += n
		}
	}
	off := math.Abs(float64(estIn-stats.InputTokens)) / float64(stats.InputTokens)
	if estIn == 0 || off > 0.05 {
		t.Errorf("estimated %d input tokens, the stand-in counted %d (%.1f%% off); want within 5%%", estIn, stats.InputTokens, 100*off)
	}
	t.Logf("bundled set, two models: %d requests estimated and sent; %d input tokens estimated, %d counted (%.2f%% off)",
		sent, estIn, stats.InputTokens, 100*off)
}
