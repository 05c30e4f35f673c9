package llmtest

import (
	"errors"
	"fmt"
	"slices"
)

// OpenAIEfforts are the values of reasoning_effort that OpenAI's OpenAPI spec allows
// (schema ReasoningEffort); TestReasoningEffortSpec holds this list to the vendored spec.
var OpenAIEfforts = []string{"none", "minimal", "low", "medium", "high", "xhigh", "max"}

// oaReasoning reads reasoning_effort, refusing what the API refuses.
func oaReasoning(effort *string, req *Request) error {
	if effort == nil {
		return nil
	}
	if !slices.Contains(OpenAIEfforts, *effort) {
		//lint:ignore ST1005 the stand-in repeats the API's own message, capital included
		return fmt.Errorf("Invalid value: '%s'. Supported values are: %q", *effort, OpenAIEfforts)
	}
	req.ReasoningEffort = *effort
	return nil
}

type anThinking struct {
	Type         string `json:"type"`
	BudgetTokens *int64 `json:"budget_tokens"`
}

// anReasoning reads thinking, with the Messages API's own rules: an enabled block has
// a budget of at least 1,024 tokens, below max_tokens.
func anReasoning(t *anThinking, req *Request) error {
	if t == nil {
		return nil
	}
	switch t.Type {
	case "disabled":
		return nil
	case "enabled":
	default:
		return fmt.Errorf("thinking.type: Input should be 'enabled' or 'disabled'")
	}
	switch {
	case t.BudgetTokens == nil:
		return errors.New("thinking.enabled.budget_tokens: Field required")
	case *t.BudgetTokens < 1024:
		return errors.New("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024")
	case *t.BudgetTokens >= req.MaxTokens:
		return errors.New("`max_tokens` must be greater than `thinking.budget_tokens`")
	}
	req.ThinkingBudget = t.BudgetTokens
	return nil
}

type geThinking struct {
	ThinkingBudget  *int64 `json:"thinkingBudget"`
	IncludeThoughts bool   `json:"includeThoughts"`
}
