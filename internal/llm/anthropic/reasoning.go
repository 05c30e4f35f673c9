package anthropic

import (
	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// thinking sets the Messages API's extended thinking: thinking {type: enabled,
// budget_tokens: N}, from the budget or the one an effort stands for, with max_tokens
// raised above the budget when the request's limit does not leave room for an answer.
func (m *Model) thinking(req *llm.Request, p *sdk.MessageNewParams) error {
	if req.ThinkingBudget == 0 && req.ReasoningEffort == "" {
		return nil
	}
	if err := (llm.Params{ThinkingBudget: req.ThinkingBudget, ReasoningEffort: req.ReasoningEffort}).Check(m.name); err != nil {
		return m.invalid(err.Error())
	}
	budget := int64(req.Budget())
	p.Thinking = sdk.ThinkingConfigParamOfEnabled(budget)
	if p.MaxTokens <= budget {
		p.MaxTokens = budget + DefaultMaxTokens
	}
	return nil
}
