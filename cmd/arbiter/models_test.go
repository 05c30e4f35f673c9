package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// TestOllamaHostWithoutScheme: OLLAMA_HOST is usually host:port, as Ollama documents it;
// a run must reach the server rather than call the address "not a URL".
func TestOllamaHostWithoutScheme(t *testing.T) {
	srv := llmtest.NewServer(llmtest.Options{Responder: keeperReply})
	defer srv.Close()
	env := map[string]string{"OLLAMA_HOST": strings.TrimPrefix(srv.URL, "http://")}
	r := arbiter(t, env, "seduce", "run", "-q", "-m", "ollama/llama3.1:8b", "--dataset", smallDataset(t, 4),
		"--db", filepath.Join(t.TempDir(), "o.db"))
	if r.code != 0 || srv.Requests() != 4 {
		t.Fatalf("seduce run with OLLAMA_HOST=%s: exit %d after %d requests; want 0 after 4\n%s", env["OLLAMA_HOST"], r.code, srv.Requests(), r.stderr)
	}
}

// TestUnreachableBaseURLHidesItsPassword: a base URL may carry credentials; the one-line
// error about it must not print them.
func TestUnreachableBaseURLHidesItsPassword(t *testing.T) {
	const pass = "pw-FAKE-0123456789"
	r := arbiter(t, map[string]string{"OPENAI_API_KEY": "k"}, "seduce", "run", "-q", "-m", "openai/gpt-4.1",
		"--dataset", smallDataset(t, 2), "--db", filepath.Join(t.TempDir(), "u.db"), "--base-url", "http://user:"+pass+"@127.0.0.1:1/v1")
	if r.code != 2 || !strings.Contains(r.stderr, "cannot reach") || strings.Contains(r.stderr, pass) {
		t.Fatalf("exit %d, stderr %q; want exit 2, 'cannot reach' and no password", r.code, r.stderr)
	}
}

// TestUnusableStoreIsBadInput: a --db that cannot hold a store is bad input (exit 2) and
// the line says what to pass instead.
func TestUnusableStoreIsBadInput(t *testing.T) {
	notDB := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notDB, []byte("these are not the results you are looking for, not at all\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, db string }{
		{"a folder", t.TempDir()},
		{"not a database", notDB},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := arbiter(t, nil, "runs", "--db", tt.db)
			if r.code != 2 || !strings.Contains(r.stderr, "--db") || strings.Count(r.stderr, "\n") != 1 {
				t.Fatalf("runs --db %s: exit %d, stderr %q; want exit 2 and one line naming --db", tt.db, r.code, r.stderr)
			}
		})
	}
}
