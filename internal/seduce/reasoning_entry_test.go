package seduce

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// TestModelEntryErrors: each bad model entry is one line naming the file, the entry's
// line and the field.
func TestModelEntryErrors(t *testing.T) {
	tests := []struct{ entry, want string }{
		{"{model: anthropic/x, thinking_budget: -1}", ":4: models.thinking_budget: anthropic/x: -1"},
		{"{model: baseline/keyword, thinking_budget: 2048}", ":4: models.thinking_budget: baseline/keyword: a built-in baseline does not reason"},
		{"{model: openai/x, thinking_budget: 2048}", ":4: models.thinking_budget: openai/x:"},
		{"{label: x}", ":4: models.model: a model entry needs"},
		{"{model: a/b, foo: 1}", ":4: models.foo: unknown field"},
		{"{model: openai/x, reasoning_effort: extreme}", `:4: models.reasoning_effort: openai/x: "extreme"`},
		{"{model: anthropic/x, thinking_budget: abc}", `:4: models.thinking_budget: "abc": want a whole number`},
		{"{model: anthropic/x, temperature: hot}", `:4: models.temperature: "hot": want a number`},
		{"nope", ":4: models: model \"nope\""},
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "study.yaml")
			if err := os.WriteFile(path, []byte("datasets: [builtin]\nmodels:\n  - openai/gpt-4.1\n  - "+tt.entry+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadExperiment(path)
			if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), path+tt.want) {
				t.Errorf("LoadExperiment(%s) = %v; want one line with %q", tt.entry, err, path+tt.want)
			}
		})
	}
	path := filepath.Join(t.TempDir(), "ok.yaml")
	os.WriteFile(path, []byte("models:\n  - openai/gpt-4.1\n  - {model: anthropic/x, label: x-think, thinking_budget: 4096, temperature: 1, max_tokens: 9000}\n  - {model: openai/o4, reasoning_effort: high}\n"), 0o644)
	e, err := LoadExperiment(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Models[1]; got.Model != "anthropic/x" || got.Name() != "x-think" || got.Params.ThinkingBudget != 4096 || got.Params.MaxTokens != 9000 || got.Params.Temperature == nil || *got.Params.Temperature != 1 {
		t.Errorf("entry 1 = %+v", got)
	}
	if got := e.Models[2].Name(); got != llm.ModelName("openai/o4+reasoning-high") {
		t.Errorf("entry 2 named %s; want openai/o4+reasoning-high", got)
	}
}

// FuzzModelEntry: any model entry either loads, giving an entry with a model and
// parameters its provider can carry, or gives one error line naming the file.
func FuzzModelEntry(f *testing.F) {
	for _, s := range []string{"openai/gpt-4.1", "{model: anthropic/x, thinking_budget: 8192}", "{model: openai/o4, reasoning_effort: high}",
		"{model: google/g, label: g-t, thinking_budget: 1024, temperature: 0.5, max_tokens: 4096}", "{label: x}", "[1, 2]",
		"{model: anthropic/x, thinking_budget: 1_024}", "&a {model: openai/x}", "{model: openai/x, model: openai/y}", "{? a : b}", "{model: !!int 3}"} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, entry string) {
		path := filepath.Join(dir, "fuzz.yaml")
		if err := os.WriteFile(path, []byte("models:\n  - "+entry+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		e, err := LoadExperiment(path)
		if err != nil {
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.Contains(msg, path) {
				t.Errorf("LoadExperiment(%q) = %q; want one line naming the file", entry, msg)
			}
			return
		}
		for _, m := range e.Models {
			if m.Model == "" || m.Params.Check(m.Model) != nil {
				t.Errorf("LoadExperiment(%q) loaded %+v: no model, or parameters its provider cannot carry", entry, m)
			}
		}
	})
}
