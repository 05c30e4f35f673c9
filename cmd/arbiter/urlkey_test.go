package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// TestBaseURLQueryKeyIsSentNotStored: an Azure-style key in the --base-url query reaches
// the server with every request, but neither the store (the run's config, its id), the
// run list nor any output shows it.
func TestBaseURLQueryKeyIsSentNotStored(t *testing.T) {
	const key = "azure-QUERY-KEY-FAKE-5e1d0c"
	var withKey atomic.Int64
	srv := llmtest.NewServer(llmtest.Options{Responder: func(req *llmtest.Request) llmtest.Response {
		if req.Query.Get("api-key") == key {
			withKey.Add(1)
		}
		return keeperReply(req)
	}})
	defer srv.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "q.db")
	r := arbiter(t, nil, "seduce", "run", "-v", "-m", "openai/gpt-x", "--dataset", smallDataset(t, 3), "--db", db,
		"--base-url", srv.OpenAIBaseURL()+"?api-key="+key)
	if r.code != 0 {
		t.Fatalf("seduce run: exit %d\n%s", r.code, r.stderr)
	}
	if n := withKey.Load(); n != 3 {
		t.Errorf("server saw the query key in %d of %d requests; want every one", n, srv.Requests())
	}
	runs := arbiter(t, nil, "runs", "--db", db)
	for i, s := range []string{r.stdout, r.stderr, runs.stdout, runs.stderr} {
		if strings.Contains(s, key) {
			t.Errorf("output %d shows the key:\n%s", i, s)
		}
	}
	st := openStore(t, db)
	st.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "q.db*"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if bytes.Contains(b, []byte(key)) {
			t.Errorf("%s contains the key", f)
		}
	}
}

// TestMalformedBaseURLHidesItsPassword: a --base-url that does not parse is refused in
// one line that does not print its password.
func TestMalformedBaseURLHidesItsPassword(t *testing.T) {
	const pass = "pw-FAKE-%zz-0123456789"
	r := arbiter(t, map[string]string{"OPENAI_API_KEY": "k"}, "seduce", "run", "-q", "-m", "openai/gpt-4.1",
		"--dataset", smallDataset(t, 2), "--db", filepath.Join(t.TempDir(), "m.db"), "--base-url", "http://user:"+pass+"@127.0.0.1:1/v1")
	if r.code != 2 || !strings.Contains(r.stderr, "--base-url") || strings.Contains(r.stderr, "pw-FAKE") {
		t.Fatalf("exit %d, stderr %q; want exit 2, a line about --base-url and no password", r.code, r.stderr)
	}
}
