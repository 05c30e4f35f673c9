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
	r = arbiter(t, nil, "runs", "--db", db, "--kind", "check-judge")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "RUN") || strings.Count(strings.TrimSpace(r.stdout), "\n") != 0 {
		t.Errorf("runs --kind check-judge: exit %d, printed\n%s\nwant exit 0 and the header alone (%s)", r.code, r.stdout, r.stderr)
	}
	r = arbiter(t, nil, "runs", "--db", db, "--kind", "seduce")
	if r.code != 0 || strings.Count(strings.TrimSpace(r.stdout), "\n") != 1 {
		t.Errorf("runs --kind seduce: exit %d, printed\n%s\nwant exit 0 and the one seduce run (%s)", r.code, r.stdout, r.stderr)
	}
}
