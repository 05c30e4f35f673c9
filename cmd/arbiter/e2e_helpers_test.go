package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/seduce"
	"github.com/arbiter-eval/arbiter/internal/seduce/reference"
)

// result is one in-process run of the CLI.
type result struct {
	stdout, stderr string
	code           int
}

// arbiter runs the CLI in process with exactly the environment env (nothing is read
// from the test process's own environment).
func arbiter(t testing.TB, env map[string]string, args ...string) result {
	t.Helper()
	return arbiterIn(t, env, "", args...)
}

func arbiterIn(t testing.TB, env map[string]string, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	look := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb, config.Read(look))
	return result{out.String(), errb.String(), code}
}

// keeperReply is a deterministic adjudicator for the stand-in: it rolls for most
// samples and passes for some, naming the gold skill most of the time.
func keeperReply(req *llmtest.Request) llmtest.Response {
	ctx, stmt, ok := seduce.SplitUserMessage(req.LastUser())
	if !ok {
		return llmtest.Response{Text: "I cannot tell what is asked."}
	}
	h := fnv.New32a()
	h.Write([]byte(ctx + stmt))
	v := h.Sum32()
	switch v % 10 {
	case 0:
		return llmtest.Response{Text: `{"decision": "automatic_success", "skill": null, "reason": "routine"}`}
	case 1:
		return llmtest.Response{Text: "No roll is needed here; the investigator simply does it."}
	default:
		return llmtest.Response{Text: fmt.Sprintf(`{"decision": "roll", "skill": "Spot Hidden", "reason": "risk %d"}`, v%7)}
	}
}

// smallDataset writes the first n samples of the reference set to a file.
func smallDataset(t testing.TB, n int) string {
	t.Helper()
	lines := bytes.SplitAfter(reference.JSONL(), []byte("\n"))
	path := filepath.Join(t.TempDir(), "small.jsonl")
	if err := os.WriteFile(path, bytes.Join(lines[:n], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var buildOnce sync.Once
var builtBinary, buildErr = "", error(nil)

// binary builds the arbiter command once per test process.
func binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "arbiter-bin")
		if err != nil {
			buildErr = err
			return
		}
		builtBinary = filepath.Join(dir, "arbiter")
		out, err := exec.Command("go", "build", "-o", builtBinary, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBinary
}

// decodeJSON decodes a report printed with --format json.
func decodeJSON(t testing.TB, s string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, s)
	}
	return v
}
