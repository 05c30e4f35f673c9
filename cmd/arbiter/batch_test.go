package main

import (
	"context"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// tokenCounting answers as keeperReply does and reports input tokens counted the way a
// provider does, from the messages it received: o200k tokens of each message and of its
// role, 3 a message and 3 for the reply.
func tokenCounting(t *testing.T) llmtest.Responder {
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	count := func(s string) int64 {
		n, _ := codec.Count(s)
		return int64(n)
	}
	return func(req *llmtest.Request) llmtest.Response {
		r := keeperReply(req)
		n := int64(3)
		if req.System != "" {
			n += count(req.System) + count("system") + 3
		}
		for _, m := range req.Messages {
			n += count(m.Text) + count(string(m.Role)) + 3
		}
		r.InputTokens = n
		return r
	}
}

// estimateColumn reads a numeric column of a dry run's estimate, by model.
func estimateColumn(t *testing.T, out string, col int) map[string]int64 {
	t.Helper()
	got := map[string]int64{}
	for _, line := range strings.Split(out, "\n")[1:] {
		f := strings.Fields(line)
		if len(f) > col {
			if n, err := strconv.ParseInt(f[col], 10, 64); err == nil {
				got[f[0]] = n
			}
		}
	}
	return got
}

// estimateRequests reads the requests column of a dry run's estimate, by model.
func estimateRequests(t *testing.T, out string) map[string]int {
	t.Helper()
	got := map[string]int{}
	row := regexp.MustCompile(`^(\S+)\s+(\d+)\s`)
	for _, line := range strings.Split(out, "\n")[1:] {
		if m := row.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			got[m[1]] = n
		}
	}
	return got
}

// TestSeduceRunBatchAndDryRun: --dry-run sends nothing and counts exactly the requests
// that a --batch run then submits; a rerun of the batch run submits nothing, and a dry
// run after it has nothing left to send.
func TestSeduceRunBatchAndDryRun(t *testing.T) {
	srv := llmtest.NewBatchServer(llmtest.Options{Responder: tokenCounting(t)}, llmtest.BatchOptions{})
	defer srv.Close()
	data := smallDataset(t, 30)
	db := filepath.Join(t.TempDir(), "b.db")
	args := []string{"seduce", "run", "--dataset", data, "-m", "openai/gpt-4.1", "-m", "anthropic/claude-opus-4-7",
		"--base-url", srv.URL, "--db", db, "--format", "json", "--batch-poll", "1ms"}
	env := map[string]string{}

	dry := arbiter(t, env, append(args, "--dry-run", "--batch")...)
	if dry.code != 0 {
		t.Fatalf("dry run: exit %d\n%s\n%s", dry.code, dry.stdout, dry.stderr)
	}
	if srv.Requests() != 0 || srv.BatchesCreated() != 0 {
		t.Fatalf("dry run sent %d requests and %d batches; want none", srv.Requests(), srv.BatchesCreated())
	}
	if st, err := store.OpenExisting(context.Background(), db); err == nil {
		runs, _ := st.Runs(context.Background(), "seduce")
		st.Close()
		if len(runs) != 0 {
			t.Errorf("the dry run recorded %d runs; want none", len(runs))
		}
	}
	est := estimateRequests(t, dry.stdout)
	if est["openai/gpt-4.1"] != 30 || est["anthropic/claude-opus-4-7"] != 30 || est["total"] != 60 {
		t.Fatalf("dry run estimate %v; want 30 per model\n%s", est, dry.stdout)
	}
	if !strings.Contains(dry.stdout, "batch price") || strings.Contains(dry.stdout, "unknown") {
		t.Errorf("estimate should be priced at the batch price:\n%s", dry.stdout)
	}

	res := arbiter(t, env, append(args, "--batch")...)
	if res.code != 0 {
		t.Fatalf("batch run: exit %d\n%s", res.code, res.stderr)
	}
	if got := srv.LinesSubmitted(); got != est["total"] {
		t.Errorf("batch run submitted %d lines; the dry run counted %d", got, est["total"])
	}
	if got := srv.BatchesCreated(); got != 2 {
		t.Errorf("%d batches; want one per provider", got)
	}
	direct := srv.Requests()

	// The estimate's input tokens are within 5% of what the stand-in counted.
	st, err := store.OpenExisting(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := st.Runs(context.Background(), "seduce")
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs %v, %v", runs, err)
	}
	stats, err := st.RunStats(context.Background(), runs[0].ID)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	var estIn int64
	for m, n := range estimateColumn(t, dry.stdout, 2) {
		if m != "total" {
			estIn += n
		}
	}
	if off := math.Abs(float64(estIn-stats.InputTokens)) / float64(stats.InputTokens); estIn == 0 || off > 0.05 {
		t.Errorf("estimated %d input tokens, the stand-in counted %d (%.1f%% off); want within 5%%", estIn, stats.InputTokens, 100*off)
	} else {
		t.Logf("estimated %d input tokens, the stand-in counted %d (%.2f%% off)", estIn, stats.InputTokens, 100*off)
	}

	again := arbiter(t, env, append(args, "--batch")...)
	if again.code != 0 || srv.BatchesCreated() != 2 || srv.Requests() != direct {
		t.Fatalf("rerun: exit %d, %d batches, %d requests; want nothing new\n%s", again.code, srv.BatchesCreated(), srv.Requests(), again.stderr)
	}
	if again.stdout != res.stdout {
		t.Errorf("the rerun's report differs from the first")
	}

	after := arbiter(t, env, append(args, "--dry-run")...)
	if est := estimateRequests(t, after.stdout); after.code != 0 || est["total"] != 0 {
		t.Errorf("dry run after the batch run: exit %d, %v; want nothing left to send\n%s", after.code, est, after.stdout)
	}
}
