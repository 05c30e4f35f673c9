package seduce

import (
	"errors"
	"fmt"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// ModelEntry is one model of an experiment file: a name (openai/gpt-4.1), or an object
// {model, label, thinking_budget, reasoning_effort, temperature, max_tokens} that makes
// a variant of it, so that one study holds a model with and without reasoning.
type ModelEntry struct {
	Model  llm.ModelName
	Label  llm.ModelName
	Params llm.Params
}

type modelObject struct {
	Model           string   `yaml:"model"`
	Label           string   `yaml:"label"`
	ThinkingBudget  int      `yaml:"thinking_budget"`
	ReasoningEffort string   `yaml:"reasoning_effort"`
	Temperature     *float64 `yaml:"temperature"`
	MaxTokens       int      `yaml:"max_tokens"`
}

// UnmarshalYAML reads a name or an object.
func (m *ModelEntry) UnmarshalYAML(decode func(any) error) error {
	var name string
	if err := decode(&name); err == nil {
		n, err := llm.ParseModelName(name)
		if err != nil {
			return err
		}
		*m = ModelEntry{Model: n}
		return nil
	}
	var o modelObject
	if err := decode(&o); err != nil {
		return err
	}
	if o.Model == "" {
		return errors.New("model: a model entry needs model: provider/model")
	}
	n, err := llm.ParseModelName(o.Model)
	if err != nil {
		return err
	}
	*m = ModelEntry{Model: n, Label: llm.ModelName(o.Label), Params: llm.Params{
		ThinkingBudget: o.ThinkingBudget, ReasoningEffort: o.ReasoningEffort, Temperature: o.Temperature, MaxTokens: o.MaxTokens}}
	return m.Params.Check(n)
}

// Name is the name the entry appears under in reports: its label, the default label
// of its parameters, or the model itself.
func (m ModelEntry) Name() llm.ModelName {
	if m.Label != "" {
		return m.Label
	}
	return m.Params.Label(m.Model)
}

// checkEntries refuses two entries under one name.
func checkEntries(path string, es []ModelEntry) error {
	seen := map[llm.ModelName]int{}
	for i, e := range es {
		if j, dup := seen[e.Name()]; dup && (e.Label != "" || !e.Params.IsZero()) {
			return fmt.Errorf("experiment %s: models[%d]: %q is also models[%d]; give each variant a label of its own", path, i, e.Name(), j)
		}
		seen[e.Name()] = i
	}
	return nil
}
