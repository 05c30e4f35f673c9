// Package inspect writes arbiter's runs as Inspect eval logs (the JSON log format of
// the UK AI Security Institute's inspect_ai), so that researchers who keep their
// evaluations in Inspect can browse a CoC-Seduce, RPA-Check or LLM Court run with
// `inspect view` and load it with Inspect's data-frame functions; and it reads the
// model outputs of an Inspect log back as CoC-Seduce predictions, so that a run made
// with Inspect is scored by arbiter's parser and metrics.
//
// The types below are the part of Inspect's EvalLog (its OpenAPI description,
// inspect-openapi.json) that arbiter fills in. Every field Inspect requires is always
// written; optional ones are left out when arbiter has nothing to say.
package inspect

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Log is an Inspect EvalLog.
type Log struct {
	Version     int            `json:"version"`
	Status      string         `json:"status"`
	Eval        Spec           `json:"eval"`
	Plan        Plan           `json:"plan"`
	Results     *Results       `json:"results,omitempty"`
	Stats       Stats          `json:"stats"`
	Samples     []Sample       `json:"samples"`
	Invalidated bool           `json:"invalidated"`
	Tags        []string       `json:"tags"`
	Metadata    map[string]any `json:"metadata"`
}

// Spec is Inspect's EvalSpec: what was evaluated, on what, with which model.
type Spec struct {
	EvalID              string            `json:"eval_id"`
	RunID               string            `json:"run_id"`
	Created             string            `json:"created"`
	Task                string            `json:"task"`
	TaskID              string            `json:"task_id"`
	TaskVersion         string            `json:"task_version"`
	TaskAttribs         map[string]any    `json:"task_attribs"`
	TaskArgs            map[string]any    `json:"task_args"`
	TaskArgsPassed      map[string]any    `json:"task_args_passed"`
	Dataset             Dataset           `json:"dataset"`
	Model               string            `json:"model"`
	ModelGenerateConfig GenerateConfig    `json:"model_generate_config"`
	ModelArgs           map[string]any    `json:"model_args"`
	ModelRoles          map[string]Model  `json:"model_roles,omitempty"`
	Config              Config            `json:"config"`
	Packages            map[string]string `json:"packages"`
	Metadata            map[string]any    `json:"metadata,omitempty"`
}

// Dataset is Inspect's EvalDataset.
type Dataset struct {
	Name      string   `json:"name"`
	Location  string   `json:"location,omitempty"`
	Samples   int      `json:"samples"`
	SampleIDs []string `json:"sample_ids,omitempty"`
}

// GenerateConfig is the part of Inspect's GenerateConfig arbiter sends.
type GenerateConfig struct {
	Temperature     *float64 `json:"temperature,omitempty"`
	MaxTokens       *int     `json:"max_tokens,omitempty"`
	Seed            *int64   `json:"seed,omitempty"`
	ReasoningEffort string   `json:"reasoning_effort,omitempty"`
	// ReasoningTokens is Inspect's name for a thinking budget.
	ReasoningTokens *int   `json:"reasoning_tokens,omitempty"`
	SystemMessage   string `json:"system_message,omitempty"`
}

// Model is Inspect's ModelConfig: one role's model.
type Model struct {
	Model  string         `json:"model"`
	Config GenerateConfig `json:"config"`
	Args   map[string]any `json:"args"`
}

// Config is the part of Inspect's EvalConfig arbiter has an answer for.
type Config struct {
	Epochs *int `json:"epochs,omitempty"`
}

// Plan is Inspect's EvalPlan: the solver steps a sample went through.
type Plan struct {
	Name   string         `json:"name"`
	Steps  []Step         `json:"steps"`
	Config GenerateConfig `json:"config"`
}

// Step is one of the plan's steps.
type Step struct {
	Solver       string         `json:"solver"`
	Params       map[string]any `json:"params"`
	ParamsPassed map[string]any `json:"params_passed"`
}

// Results is Inspect's EvalResults.
type Results struct {
	TotalSamples     int            `json:"total_samples"`
	CompletedSamples int            `json:"completed_samples"`
	Scores           []Score        `json:"scores"`
	Metadata         map[string]any `json:"metadata,omitempty"`
}

// Score is Inspect's EvalScore: one scorer's metrics over the samples.
type Score struct {
	Name            string            `json:"name"`
	Scorer          string            `json:"scorer"`
	Params          map[string]any    `json:"params"`
	Metrics         map[string]Metric `json:"metrics"`
	ScoredSamples   *int              `json:"scored_samples,omitempty"`
	UnscoredSamples *int              `json:"unscored_samples,omitempty"`
	Metadata        map[string]any    `json:"metadata,omitempty"`
}

// Metric is Inspect's EvalMetric.
type Metric struct {
	Name     string         `json:"name"`
	Value    float64        `json:"value"`
	Params   map[string]any `json:"params"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Stats is Inspect's EvalStats.
type Stats struct {
	StartedAt              string           `json:"started_at"`
	CompletedAt            string           `json:"completed_at"`
	ModelUsage             map[string]Usage `json:"model_usage"`
	RoleUsage              map[string]Usage `json:"role_usage"`
	ConnectionLimitHistory []any            `json:"connection_limit_history"`
}

// Usage is Inspect's ModelUsage.
type Usage struct {
	InputTokens          int64  `json:"input_tokens"`
	OutputTokens         int64  `json:"output_tokens"`
	TotalTokens          int64  `json:"total_tokens"`
	ReasoningTokens      *int64 `json:"reasoning_tokens,omitempty"`
	InputTokensCacheRead *int64 `json:"input_tokens_cache_read,omitempty"`
}

// Add adds u's counts to v.
func (v *Usage) Add(u Usage) {
	v.InputTokens += u.InputTokens
	v.OutputTokens += u.OutputTokens
	v.TotalTokens += u.TotalTokens
	v.ReasoningTokens = addPtr(v.ReasoningTokens, u.ReasoningTokens)
	v.InputTokensCacheRead = addPtr(v.InputTokensCacheRead, u.InputTokensCacheRead)
}

func addPtr(a, b *int64) *int64 {
	if b == nil {
		return a
	}
	n := *b
	if a != nil {
		n += *a
	}
	return &n
}

// Sample is Inspect's EvalSample.
type Sample struct {
	ID          string            `json:"id"`
	Epoch       int               `json:"epoch"`
	Input       any               `json:"input"` // a string or []Message
	Target      string            `json:"target"`
	Messages    []Message         `json:"messages"`
	Output      Output            `json:"output"`
	Scores      map[string]Result `json:"scores,omitempty"`
	Metadata    map[string]any    `json:"metadata"`
	Store       map[string]any    `json:"store"`
	Events      []any             `json:"events"`
	ModelUsage  map[string]Usage  `json:"model_usage"`
	RoleUsage   map[string]Usage  `json:"role_usage"`
	Attachments map[string]string `json:"attachments"`
	CompletedAt string            `json:"completed_at,omitempty"`
	TotalTime   *float64          `json:"total_time,omitempty"`
	Error       *Error            `json:"error,omitempty"`
}

// Message is one of Inspect's ChatMessage kinds: system, user or assistant. Content is
// a string, or a list of Content parts when the reply carries reasoning.
type Message struct {
	Role     string         `json:"role"`
	Content  any            `json:"content"`
	Source   string         `json:"source,omitempty"`
	Model    string         `json:"model,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// textPart and reasoningPart are Inspect's ContentText and ContentReasoning.
type textPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type reasoningPart struct {
	Type      string `json:"type"`
	Reasoning string `json:"reasoning"`
	Redacted  bool   `json:"redacted"`
}

// Output is Inspect's ModelOutput.
type Output struct {
	Model      string   `json:"model"`
	Choices    []Choice `json:"choices"`
	Completion string   `json:"completion"`
	Usage      *Usage   `json:"usage,omitempty"`
	Time       *float64 `json:"time,omitempty"`
	Error      string   `json:"error,omitempty"`
}

// Choice is Inspect's ChatCompletionChoice.
type Choice struct {
	Message    Message `json:"message"`
	StopReason string  `json:"stop_reason"`
}

// Result is Inspect's Score: one scorer's verdict on one sample.
type Result struct {
	Value       any            `json:"value"`
	Answer      string         `json:"answer,omitempty"`
	Explanation string         `json:"explanation,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
	History     []any          `json:"history"`
}

// Error is Inspect's EvalError.
type Error struct {
	Message       string `json:"message"`
	Traceback     string `json:"traceback"`
	TracebackANSI string `json:"traceback_ansi"`
}

// Inspect's score values for a right and a wrong answer, and for none.
const (
	Correct   = "C"
	Incorrect = "I"
	NoAnswer  = "N"
)

// newSample is a sample with every map and list Inspect requires present.
func newSample(id string, epoch int) Sample {
	return Sample{ID: id, Epoch: epoch, Metadata: map[string]any{}, Store: map[string]any{}, Events: []any{},
		ModelUsage: map[string]Usage{}, RoleUsage: map[string]Usage{}, Attachments: map[string]string{}, Messages: []Message{}}
}

// newLog is a log with every map and list Inspect requires present.
func newLog(status string) *Log {
	return &Log{Version: 2, Status: status, Tags: []string{}, Metadata: map[string]any{}, Samples: []Sample{},
		Eval: Spec{TaskAttribs: map[string]any{}, TaskArgs: map[string]any{}, TaskArgsPassed: map[string]any{},
			ModelArgs: map[string]any{}, Packages: map[string]string{}},
		Plan:  Plan{Name: "plan", Steps: []Step{}},
		Stats: Stats{ModelUsage: map[string]Usage{}, RoleUsage: map[string]Usage{}, ConnectionLimitHistory: []any{}}}
}

func step(solver string, params map[string]any) Step {
	if params == nil {
		params = map[string]any{}
	}
	return Step{Solver: solver, Params: params, ParamsPassed: params}
}

// timestamp is t as Inspect writes times ("" when unknown).
func timestamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// assistant is an assistant message with text and, when given, reasoning.
func assistant(model, text, reasoning string) Message {
	m := Message{Role: "assistant", Content: text, Source: "generate", Model: model}
	if reasoning != "" {
		m.Content = []any{reasoningPart{Type: "reasoning", Reasoning: reasoning}, textPart{Type: "text", Text: text}}
	}
	return m
}

func metric(name string, v float64) Metric {
	return Metric{Name: name, Value: v, Params: map[string]any{}}
}

func intp(n int) *int { return &n }

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// FileName is the log's file name: its task, its run and its model (and defense), made
// safe for a file system, so that the logs of one run never overwrite each other.
func FileName(l *Log) string {
	parts := []string{l.Eval.Task, l.Eval.RunID, l.Eval.Model}
	if d, ok := l.Eval.Metadata["defense"].(string); ok && d != "" {
		parts = append(parts, d)
	}
	for i, p := range parts {
		parts[i] = strings.Trim(unsafeName.ReplaceAllString(p, "-"), "-")
	}
	return strings.Join(parts, "_") + ".json"
}

// WriteDir writes each log to dir (made if missing) as FileName(log), through a
// temporary file so that no reader sees half a log, and returns the paths written.
func WriteDir(dir string, logs []*Log) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("inspect logs: %w", err)
	}
	var paths []string
	for _, l := range logs {
		b, err := json.MarshalIndent(l, "", " ")
		if err != nil {
			return nil, fmt.Errorf("inspect log %s: %w", l.Eval.EvalID, err)
		}
		path := filepath.Join(dir, FileName(l))
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
			return nil, fmt.Errorf("inspect log: %w", err)
		}
		if err := os.Rename(tmp, path); err != nil {
			return nil, fmt.Errorf("inspect log: %w", err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}
