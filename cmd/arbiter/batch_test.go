package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

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
	srv := llmtest.NewBatchServer(llmtest.Options{Responder: keeperReply}, llmtest.BatchOptions{})
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
