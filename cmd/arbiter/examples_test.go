package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/config"
	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/providers"
	"github.com/arbiter-eval/arbiter/internal/seduce"
)

// TestExampleStudyOpens loads the shipped example study and opens every model it names
// with placeholder keys, so the example cannot rot into names arbiter rejects. Nothing is
// sent.
func TestExampleStudyOpens(t *testing.T) {
	e, err := seduce.LoadExperiment("../../examples/paper-study.yaml")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{}
	for _, k := range []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "DEEPSEEK_API_KEY", "DASHSCOPE_API_KEY"} {
		keys[k] = "placeholder-" + k
	}
	look := func(k string) (string, bool) { v, ok := keys[k]; return v, ok }
	env := config.Read(look)
	file, eps, err := config.LoadFile("../../examples/endpoints.yaml", look)
	if err != nil {
		t.Fatal(err)
	}
	env.Apply(eps)
	if len(file.Limits) == 0 {
		t.Error("the example config sets no limits")
	}
	var names []string
	for _, m := range e.Models {
		names = append(names, string(m.Model))
	}
	set, err := providers.OpenAll(names, providers.Settings{Env: env, PerModel: file.Limits, Retry: llm.DefaultRetry(),
		Builtins: seduce.Baselines(seduce.DefaultTaxonomy())})
	if err != nil {
		t.Fatal(err)
	}
	if err := set.Arrange(modelEntries(e.Models)); err != nil {
		t.Fatal(err)
	}
	if len(set.Names) != len(e.Models) {
		t.Errorf("opened %d models of the %d the study names", len(set.Names), len(e.Models))
	}
}

// TestExamplesValidate loads every file in examples/ as what it is (an experiment or
// an endpoints config), so that no shipped example is left unread; the paper study
// holds reasoning variants that pair with its standard models.
func TestExamplesValidate(t *testing.T) {
	files, err := filepath.Glob("../../examples/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("examples: %v, %d files", err, len(files))
	}
	look := func(string) (string, bool) { return "", false }
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), "\nmodels:") {
				if _, err := seduce.LoadExperiment(path); err != nil {
					t.Errorf("LoadExperiment(%s) = %v", path, err)
				}
				return
			}
			if _, _, err := config.LoadFile(path, look); err != nil {
				t.Errorf("config.LoadFile(%s) = %v", path, err)
			}
		})
	}
	e, err := seduce.LoadExperiment("../../examples/paper-study.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	variants := map[string]seduce.RecordedVariant{}
	for _, m := range e.Models {
		names = append(names, string(m.Name()))
		if m.Label != "" || !m.Params.IsZero() {
			variants[string(m.Name())] = seduce.RecordedVariant{Base: m.Model, Params: m.Params}
		}
	}
	if pairs := seduce.ReasoningPairsOf(names, variants); len(pairs) < 6 {
		t.Errorf("the paper study pairs %d reasoning variants with standard models: %v; want 6", len(pairs), pairs)
	}
}
