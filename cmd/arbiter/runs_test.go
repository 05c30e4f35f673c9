package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestRunsListsStoredRuns(t *testing.T) {
	db := filepath.Join(t.TempDir(), "runs.db")
	data := smallDataset(t, 8)
	if r := arbiter(t, nil, "seduce", "run", "-q", "--dataset", data, "--db", db); r.code != 0 {
		t.Fatalf("seduce run: exit %d: %s", r.code, r.stderr)
	}
	r := arbiter(t, nil, "runs", "--db", db)
	if r.code != 0 {
		t.Fatalf("runs: exit %d: %s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "seduce-") || !strings.Contains(lines[1], " done ") || !strings.Contains(lines[1], " 8 ") {
		t.Errorf("runs printed\n%s\nwant a header and one done seduce run with 8 answers", r.stdout)
	}
	if r := arbiter(t, nil, "runs", "--db", db, "--kind", "check-judge"); strings.Count(strings.TrimSpace(r.stdout), "\n") != 0 {
		t.Errorf("runs --kind check-judge printed runs of another kind:\n%s", r.stdout)
	}
}
