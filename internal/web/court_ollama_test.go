package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestOllamaModelsForTheMenu: a menu without a court model learns the models of a local
// Ollama (its /api/tags) to say what to run; an Ollama that is not on this machine, or
// that answers wrongly, is reported as not answering and never becomes a model list.
func TestOllamaModelsForTheMenu(t *testing.T) {
	var asked atomic.Int64
	ollama := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		if r.URL.Path != "/api/tags" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `{"models": [{"name": "llama3.1:8b"}, {"name": "qwen2.5:7b"}]}`)
	}))
	defer ollama.Close()
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<html>") }))
	defer broken.Close()
	for _, tt := range []struct {
		name, url string
		answers   bool
		models    []any
	}{
		{"a local Ollama", ollama.URL, true, []any{"ollama/llama3.1:8b", "ollama/qwen2.5:7b"}},
		{"another machine is never asked", "http://192.0.2.1:11434", false, []any{}},
		{"not an Ollama", broken.URL, false, []any{}},
		{"none configured", "", false, []any{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newCourtRig(t, rigOptions{noCourt: true, ollama: tt.url})
			code, v := r.do(http.MethodGet, "/api/court/ollama", nil)
			if code != http.StatusOK || v["answers"] != tt.answers || fmt.Sprint(v["models"]) != fmt.Sprint(tt.models) {
				t.Errorf("GET /api/court/ollama = %d %v; want answers %v, models %v", code, v, tt.answers, tt.models)
			}
		})
	}
	if asked.Load() != 1 {
		t.Errorf("the local Ollama was asked %d times; want once", asked.Load())
	}
}
