package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/court"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// TestCourtGenerateBulkBatch: court generate --count 3 --dry-run counts the three first
// requests and sends nothing; --batch sends them as one batch and the one re-ask (seed
// 3's first case is invalid) as a second; the three cases, all named alike by the
// model, are kept under distinct ids and written as JSONL; a rerun submits nothing.
func TestCourtGenerateBulkBatch(t *testing.T) {
	seedOf := regexp.MustCompile(`Variation number: (\d+) `)
	srv := llmtest.NewBatchServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		m := seedOf.FindStringSubmatch(req.Messages[0].Text)
		if m == nil {
			return llmtest.Response{Text: "?"}
		}
		if m[1] == "3" && len(req.Messages) == 1 {
			return llmtest.Response{Text: `{"case_id": "half a case"`}
		}
		return llmtest.Response{Text: writtenCase(t, func(c map[string]any) { c["title"] = "The Riverside Theft, take " + m[1] })}
	}}, llmtest.BatchOptions{})
	defer srv.Close()
	dir := t.TempDir()
	db, out := filepath.Join(dir, "g.db"), filepath.Join(dir, "cases.jsonl")
	gen := func(more ...string) result {
		return arbiter(t, map[string]string{}, append([]string{"court", "generate", "-q", "--prior", "theft case", "--model", "openai/gpt-4.1",
			"--base-url", srv.URL, "--db", db, "--count", "3", "--batch-poll", "1ms"}, more...)...)
	}

	dry := gen("--dry-run", "--batch")
	if dry.code != 0 {
		t.Fatalf("dry run: exit %d\n%s\n%s", dry.code, dry.stdout, dry.stderr)
	}
	if srv.Requests() != 0 || srv.BatchesCreated() != 0 {
		t.Fatalf("dry run sent %d requests and %d batches; want none", srv.Requests(), srv.BatchesCreated())
	}
	if est := estimateRequests(t, dry.stdout); est["openai/gpt-4.1"] != 3 || est["total"] != 3 {
		t.Fatalf("dry run estimate %v; want the 3 first requests\n%s", est, dry.stdout)
	}
	if n := len(storedCases(t, db)); n != 0 {
		t.Fatalf("the dry run kept %d cases", n)
	}

	res := gen("--batch", "-o", out)
	if res.code != 0 {
		t.Fatalf("batch run: exit %d\n%s", res.code, res.stderr)
	}
	if srv.BatchesCreated() != 2 || srv.LinesSubmitted() != 4 {
		t.Errorf("%d batches of %d lines; want 2 of 4 (three first asks, then one re-ask)", srv.BatchesCreated(), srv.LinesSubmitted())
	}
	first, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := court.LoadCases(out)
	if err != nil {
		t.Fatalf("the JSONL written does not load as cases: %v\n%s", err, first)
	}
	var ids, titles []string
	for _, c := range cs {
		ids, titles = append(ids, c.ID), append(titles, c.Title)
	}
	if want := []string{"riverside-theft", "riverside-theft-2", "riverside-theft-3"}; !slices.Equal(ids, want) {
		t.Errorf("case ids %v; want %v", ids, want)
	}
	for i, title := range titles {
		if want := fmt.Sprintf("take %d", i+1); !strings.HasSuffix(title, want) {
			t.Errorf("case %d is titled %q; want the seed-%d case", i, title, i+1)
		}
	}
	if n := len(storedCases(t, db)); n != 3 {
		t.Errorf("%d cases in the store; want 3", n)
	}
	sent := srv.Requests()

	again := gen("--batch", "-o", out)
	second, _ := os.ReadFile(out)
	if again.code != 0 || srv.BatchesCreated() != 2 || srv.LinesSubmitted() != 4 || srv.Requests() != sent {
		t.Fatalf("rerun: exit %d, %d batches, %d lines; want nothing new\n%s", again.code, srv.BatchesCreated(), srv.LinesSubmitted(), again.stderr)
	}
	if string(first) != string(second) {
		t.Errorf("the rerun wrote other cases:\n%s\n---\n%s", first, second)
	}
	if n := len(storedCases(t, db)); n != 3 {
		t.Errorf("%d cases in the store after the rerun; want 3", n)
	}
}

// TestCourtTrialsRefuseBatch: a trial's turns depend on each other, so court simulate
// and court play refuse --batch with one line saying so (exit 2).
func TestCourtTrialsRefuseBatch(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	for _, args := range [][]string{
		{"court", "simulate", "--model", "openai/gpt-4.1", "--db", db, "--batch"},
		{"court", "play", "--db", db, "--batch"},
	} {
		r := arbiter(t, map[string]string{}, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "depend on each other") || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and one line saying the turns depend on each other", strings.Join(args[:2], " "), r.code, r.stderr)
		}
	}
}
