package main

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// TestReadCommandsRefuseMissingStore: runs and report given a mistyped --db say so
// (exit 2) and create neither folders nor a store (serve creates its store: see
// TestServeCreatesItsStore).
func TestReadCommandsRefuseMissingStore(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "typo", "results.db")
	for _, args := range [][]string{
		{"runs", "--db", db},
		{"seduce", "report", "--db", db},
		{"check", "report", "--db", db},
	} {
		r := arbiter(t, nil, args...)
		if r.code != 2 || !strings.Contains(r.stderr, db) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line naming the path", args, r.code, r.stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a missing store left %v behind", entries)
	}
}

// TestDBPathIsAFileName: two studies in study#1.db and study#2.db stay two stores.
func TestDBPathIsAFileName(t *testing.T) {
	dir := t.TempDir()
	data := smallDataset(t, 4)
	for _, name := range []string{"study#1.db", "study#2.db"} {
		if r := arbiter(t, nil, "seduce", "run", "-q", "--dataset", data, "--db", filepath.Join(dir, name)); r.code != 0 {
			t.Fatalf("seduce run --db %s: exit %d: %s", name, r.code, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("no store %s: %v", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "study")); err == nil {
		t.Error("the runs went to a file named study")
	}
}

// TestForeignSQLiteFileIsRefused: another program's SQLite file is bad input and stays
// as it was.
func TestForeignSQLiteFileIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before, _ := os.ReadFile(path)
	for _, args := range [][]string{{"seduce", "run", "-q", "--dataset", smallDataset(t, 4), "--db", path}, {"runs", "--db", path}} {
		if r := arbiter(t, nil, args...); r.code != 2 || !strings.Contains(r.stderr, "not an arbiter store") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 saying it is not an arbiter store", args, r.code, r.stderr)
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the foreign file changed")
	}
}

// TestRefusedKeyStopsTheRun: a 401 stops asking that model at once and the run exits 1
// naming the model and the status.
func TestRefusedKeyStopsTheRun(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		return llmtest.Response{Fault: llmtest.Fault{Kind: llmtest.FaultUnauthorized}}
	}})
	defer srv.Close()
	env := map[string]string{"OPENAI_API_KEY": "sk-wrong", "OPENAI_BASE_URL": srv.OpenAIBaseURL()}
	r := arbiter(t, env, "seduce", "run", "-q", "--dataset", smallDataset(t, 40), "--db", filepath.Join(t.TempDir(), "s.db"),
		"-m", "openai/gpt-x", "--concurrency", "2")
	if r.code != 1 || !strings.Contains(r.stderr, "openai/gpt-x") || !strings.Contains(r.stderr, "HTTP 401") {
		t.Errorf("exit %d, stderr %q; want exit 1 naming openai/gpt-x and HTTP 401", r.code, r.stderr)
	}
	if n := srv.Requests(); n > 2 {
		t.Errorf("%d requests sent with a refused key; want at most the 2 in flight", n)
	}
}
