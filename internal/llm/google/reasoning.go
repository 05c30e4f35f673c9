package google

import (
	"math"

	"google.golang.org/genai"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// thinking sets generationConfig.thinkingConfig.thinkingBudget, from the budget or the
// one an effort stands for, and asks for the thoughts so that they can be stored.
func (m *Model) thinking(req *llm.Request, cfg *genai.GenerateContentConfig) error {
	if req.ThinkingBudget == 0 && req.ReasoningEffort == "" {
		return nil
	}
	if err := (llm.Params{ThinkingBudget: req.ThinkingBudget, ReasoningEffort: req.ReasoningEffort}).Check(m.name); err != nil {
		return m.invalid(err.Error())
	}
	budget := min(req.Budget(), math.MaxInt32)
	cfg.ThinkingConfig = &genai.ThinkingConfig{ThinkingBudget: genai.Ptr(int32(budget)), IncludeThoughts: true}
	return nil
}
