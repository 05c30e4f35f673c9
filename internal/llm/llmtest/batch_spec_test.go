package llmtest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// batchSpecFile holds the OpenAPI schemas of the Files and Batches objects, extracted
// from the vendored spec with -update-spec like specFile.
const batchSpecFile = "testdata/openai-batch-schemas.json"

var batchSpecRoots = []string{"Batch", "OpenAIFile"}

func loadBatchSpec(t *testing.T) *spec {
	t.Helper()
	if *updateSpec != "" {
		extractSchemas(t, *updateSpec, batchSpecRoots, batchSpecFile)
	}
	b, err := os.ReadFile(batchSpecFile)
	if err != nil {
		t.Fatalf("%v (refresh with -update-spec)", err)
	}
	var sp spec
	if err := json.Unmarshal(b, &sp); err != nil {
		t.Fatalf("%s: %v", batchSpecFile, err)
	}
	for _, r := range batchSpecRoots {
		if req, _ := sp.Schemas[r]["required"].([]any); len(req) == 0 {
			t.Fatalf("%s: schema %s lists no required fields", batchSpecFile, r)
		}
	}
	return &sp
}

// extractSchemas copies roots and every schema they refer to out of the full spec.
func extractSchemas(t *testing.T, path string, roots []string, out string) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]map[string]any `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	version, _ := os.ReadFile(filepath.Join(filepath.Dir(path), "VERSION"))
	sp := spec{Source: "openai-openapi " + strings.TrimSpace(string(version)), Schemas: map[string]map[string]any{}}
	var visit func(name string)
	visit = func(name string) {
		if _, ok := sp.Schemas[name]; ok {
			return
		}
		s, ok := doc.Components.Schemas[name]
		if !ok {
			t.Fatalf("%s: no schema %s", path, name)
		}
		sp.Schemas[name] = s
		for _, r := range refs(s) {
			visit(r)
		}
	}
	for _, r := range roots {
		visit(r)
	}
	js, err := json.MarshalIndent(sp, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, append(js, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func send(t *testing.T, method, url, ctype string, body io.Reader) []byte {
	t.Helper()
	req, _ := http.NewRequest(method, url, body)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	return b
}

// TestBatchObjectsMeetSpec: the stand-in's File and Batch objects, at every state of a
// batch's life (completed and expired), meet the vendored spec's schemas.
func TestBatchObjectsMeetSpec(t *testing.T) {
	sp := loadBatchSpec(t)
	for _, expire := range []bool{false, true} {
		srv := llmtest.NewBatchServer(llmtest.Options{}, llmtest.BatchOptions{Polls: 2, Expire: func(int) bool { return expire }})
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		mw.WriteField("purpose", "batch")
		fw, _ := mw.CreateFormFile("file", "in.jsonl")
		fw.Write([]byte(`{"custom_id":"a","method":"POST","url":"/v1/chat/completions","body":{"model":"m","messages":[{"role":"user","content":"hi"}]}}` + "\n"))
		mw.Close()
		file := send(t, "POST", srv.OpenAIBaseURL()+"/files", mw.FormDataContentType(), &buf)
		checkSchema(t, sp, "OpenAIFile", file)
		var f struct{ ID string }
		json.Unmarshal(file, &f)
		created := send(t, "POST", srv.OpenAIBaseURL()+"/batches", "application/json",
			strings.NewReader(`{"input_file_id":"`+f.ID+`","endpoint":"/v1/chat/completions","completion_window":"24h"}`))
		checkSchema(t, sp, "Batch", created)
		var b struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		}
		json.Unmarshal(created, &b)
		statuses := []string{b.Status}
		for range 3 {
			got := send(t, "GET", srv.OpenAIBaseURL()+"/batches/"+b.ID, "", nil)
			checkSchema(t, sp, "Batch", got)
			json.Unmarshal(got, &b)
			statuses = append(statuses, b.Status)
		}
		want := "validating in_progress in_progress completed"
		if expire {
			want = "validating in_progress in_progress expired"
		}
		if got := strings.Join(statuses, " "); got != want {
			t.Errorf("statuses %q; want %q", got, want)
		}
		srv.Close()
	}
}

// TestBatchSpecCheckCatchesDefects: a Batch object that breaks the spec fails the check.
func TestBatchSpecCheckCatchesDefects(t *testing.T) {
	sp := loadBatchSpec(t)
	good := `{"id":"b","object":"batch","endpoint":"/v1/chat/completions","input_file_id":"f","completion_window":"24h","status":"completed","created_at":1}`
	var v any
	json.Unmarshal([]byte(good), &v)
	if probs := sp.validate("$", v, sp.Schemas["Batch"]); len(probs) > 0 {
		t.Fatalf("the good batch fails: %v", probs)
	}
	for _, bad := range []string{
		strings.Replace(good, `"id":"b",`, ``, 1),
		strings.Replace(good, `"completed"`, `"done"`, 1),
		strings.Replace(good, `"created_at":1`, `"created_at":"1"`, 1),
		strings.Replace(good, `"object":"batch"`, `"object":"file"`, 1),
	} {
		json.Unmarshal([]byte(bad), &v)
		if probs := sp.validate("$", v, sp.Schemas["Batch"]); len(probs) == 0 {
			t.Errorf("validate(%s) found nothing wrong", bad)
		}
	}
}
