package openai

import "github.com/arbiter-eval/arbiter/internal/llm"

// reasoning sets Chat Completions' reasoning_effort. The API has no budget in tokens,
// so a thinking budget is refused before any request rather than dropped.
func (m *Model) reasoning(req *llm.Request, c *chatRequest) error {
	if req.ThinkingBudget > 0 {
		return m.invalid("thinking_budget: the Chat Completions API takes no thinking budget; use reasoning_effort")
	}
	if req.ReasoningEffort != "" {
		if err := (llm.Params{ReasoningEffort: req.ReasoningEffort}).Check(m.name); err != nil {
			return m.invalid(err.Error())
		}
		c.ReasoningEffort = req.ReasoningEffort
	}
	return nil
}
