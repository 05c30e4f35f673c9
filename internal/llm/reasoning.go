package llm

import (
	"context"
	"fmt"
	"strconv"
)

// Efforts are the reasoning efforts arbiter accepts, lowest first.
var Efforts = []string{"minimal", "low", "medium", "high"}

// EffortBudget is the thinking budget an effort alone stands for on providers that
// take a budget in tokens (Anthropic, Gemini); minimal has none there.
var EffortBudget = map[string]int{"low": 2048, "medium": 8192, "high": 24576}

// MinThinkingBudget is the smallest budget Anthropic accepts.
const MinThinkingBudget = 1024

// Params are the generation parameters that make a variant of a model. Zero fields
// are not set.
type Params struct {
	ThinkingBudget  int      `json:"thinking_budget,omitempty" yaml:"thinking_budget"`
	ReasoningEffort string   `json:"reasoning_effort,omitempty" yaml:"reasoning_effort"`
	Temperature     *float64 `json:"temperature,omitempty" yaml:"temperature"`
	MaxTokens       int      `json:"max_tokens,omitempty" yaml:"max_tokens"`
}

// IsZero reports whether p sets nothing.
func (p Params) IsZero() bool {
	return p.ThinkingBudget == 0 && p.ReasoningEffort == "" && p.Temperature == nil && p.MaxTokens == 0
}

// Label is the default label of base with p: the model name followed by +thinking-N,
// +reasoning-EFFORT, +t-TEMPERATURE and +max-N for each parameter set, in that order.
func (p Params) Label(base ModelName) ModelName {
	s := string(base)
	if p.ThinkingBudget > 0 {
		s += "+thinking-" + strconv.Itoa(p.ThinkingBudget)
	}
	if p.ReasoningEffort != "" {
		s += "+reasoning-" + p.ReasoningEffort
	}
	if p.Temperature != nil {
		s += "+t-" + strconv.FormatFloat(*p.Temperature, 'g', -1, 64)
	}
	if p.MaxTokens > 0 {
		s += "+max-" + strconv.Itoa(p.MaxTokens)
	}
	return ModelName(s)
}

// Check refuses parameters that base's provider cannot carry, before any request:
// baselines take no reasoning, OpenAI-compatible servers take an effort but no budget,
// Anthropic and Gemini take a budget (an effort maps to one) but no minimal effort.
func (p Params) Check(base ModelName) error {
	bad := func(field, why string) error { return &ParamError{Model: base, Field: field, Why: why} }
	if p.ThinkingBudget < 0 {
		return bad("thinking_budget", fmt.Sprintf("%d: want a positive number of tokens", p.ThinkingBudget))
	}
	if p.MaxTokens < 0 {
		return bad("max_tokens", fmt.Sprintf("%d: want a positive number of tokens", p.MaxTokens))
	}
	if p.ReasoningEffort != "" && !validEffort(p.ReasoningEffort) {
		return bad("reasoning_effort", fmt.Sprintf("%q: want one of minimal, low, medium, high", p.ReasoningEffort))
	}
	if p.ThinkingBudget == 0 && p.ReasoningEffort == "" {
		return nil
	}
	switch base.Provider() {
	case "baseline":
		if p.ThinkingBudget > 0 {
			return bad("thinking_budget", "a built-in baseline does not reason")
		}
		return bad("reasoning_effort", "a built-in baseline does not reason")
	case "anthropic", "google":
		if p.ThinkingBudget > 0 && p.ReasoningEffort != "" {
			return bad("reasoning_effort", "give a thinking budget or an effort, not both: "+base.Provider()+" takes one budget in tokens")
		}
		if p.ReasoningEffort == "minimal" {
			return bad("reasoning_effort", `"minimal" has no thinking budget on `+base.Provider()+"; use low, medium, high or --thinking-budget")
		}
		if base.Provider() == "anthropic" && p.ThinkingBudget > 0 && p.ThinkingBudget < MinThinkingBudget {
			return bad("thinking_budget", fmt.Sprintf("%d: Anthropic wants at least %d tokens", p.ThinkingBudget, MinThinkingBudget))
		}
	default:
		// OpenAI and every OpenAI-compatible server: Chat Completions has no budget.
		if p.ThinkingBudget > 0 {
			return bad("thinking_budget", "the Chat Completions API takes no thinking budget; use --reasoning-effort")
		}
	}
	return nil
}

// ParamError is a parameter a model cannot take, named by its experiment-file field
// (thinking_budget, reasoning_effort, max_tokens).
type ParamError struct {
	Model ModelName
	Field string
	Why   string
}

func (e *ParamError) Error() string { return fmt.Sprintf("model %s: %s: %s", e.Model, e.Field, e.Why) }

func validEffort(e string) bool {
	for _, v := range Efforts {
		if v == e {
			return true
		}
	}
	return false
}

// Budget is the thinking budget in tokens a request asks of a provider that takes
// one: the budget itself, or the one its effort stands for (0: no thinking).
func (r *Request) Budget() int {
	if r.ThinkingBudget > 0 {
		return r.ThinkingBudget
	}
	return EffortBudget[r.ReasoningEffort]
}

// Spec is a model of a run as data: the label it is reported under, the provider model
// it asks and the parameters sent with each of its requests. A run records the specs of
// its models, so that the laptop, the batch executor and every worker open the same
// model and send the same request; keys never travel with it. A plain model's spec has
// its name as both label and base, and no parameters. The label is never sent to a
// provider: Base is.
type Spec struct {
	Label  ModelName `json:"label"`
	Base   ModelName `json:"base"`
	Params Params    `json:"params,omitzero"`
}

// PlainSpec is the spec of name asked as itself.
func PlainSpec(name ModelName) Spec { return Spec{Label: name, Base: name} }

// IsVariant reports whether s asks another model than its label or sets parameters.
func (s Spec) IsVariant() bool { return s.Label != s.Base || !s.Params.IsZero() }

// Apply returns req with the spec's parameters in place of the request's own (req
// itself when the spec sets none). It is the one place a variant's parameters enter a
// request, whichever way the request is then sent.
func (s Spec) Apply(req *Request) *Request {
	p := s.Params
	if p.IsZero() {
		return req
	}
	r := *req
	if p.ThinkingBudget > 0 {
		r.ThinkingBudget = p.ThinkingBudget
	}
	if p.ReasoningEffort != "" {
		r.ReasoningEffort = p.ReasoningEffort
	}
	if p.Temperature != nil {
		t := *p.Temperature
		r.Temperature = &t
	}
	if p.MaxTokens > 0 {
		r.MaxTokens = p.MaxTokens
	}
	return &r
}

// Variant is a model asked with fixed parameters under a label of its own: to the rest
// of arbiter it is one more model, with its own cache keys, rows and figures.
type Variant struct {
	spec  Spec
	inner Model
}

// NewVariant wraps inner (the model base, opened once) with p under label (the default
// label when empty). Parameters base's provider cannot carry are refused here.
func NewVariant(inner Model, base ModelName, label ModelName, p Params) (*Variant, error) {
	if err := p.Check(base); err != nil {
		return nil, err
	}
	if label == "" {
		label = p.Label(base)
	}
	return &Variant{spec: Spec{Label: label, Base: base, Params: p}, inner: inner}, nil
}

// Open wraps inner, the model s.Base opened, as s asks: inner itself for a plain spec,
// else a Variant. Parameters the base's provider cannot carry are refused.
func (s Spec) Open(inner Model) (Model, error) {
	if !s.IsVariant() {
		return inner, nil
	}
	return NewVariant(inner, s.Base, s.Label, s.Params)
}

// Name implements Model: the variant's label.
func (v *Variant) Name() ModelName { return v.spec.Label }

// Base is the model the variant asks.
func (v *Variant) Base() ModelName { return v.spec.Base }

// Params are the variant's parameters.
func (v *Variant) Params() Params { return v.spec.Params }

// Spec is the variant as data.
func (v *Variant) Spec() Spec { return v.spec }

// Generate implements Model: it asks the base model with the variant's parameters,
// which override the request's own.
func (v *Variant) Generate(ctx context.Context, req *Request) (*Reply, error) {
	return v.inner.Generate(ctx, v.spec.Apply(req))
}
