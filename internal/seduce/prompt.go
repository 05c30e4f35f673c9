package seduce

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/input"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

//go:embed data/adjudicator.txt
var adjudicatorTemplate string

// The user message is the two sections below, in this order. SplitUserMessage inverts it,
// so baselines see exactly what a language model sees.
const (
	contextHeader   = "Session context:\n"
	statementHeader = "\n\nPlayer statement:\n"
)

// skillsPlaceholder is the one placeholder a prompt file may use.
const skillsPlaceholder = "{{skills}}"

// Prompt is the adjudicator's system prompt, rendered for one taxonomy.
type Prompt struct {
	System string
	// Hash is the hex SHA-256 of the system prompt and the user message layout: two runs
	// with the same Hash asked the same question.
	Hash string
}

// DefaultPrompt returns the bundled zero-shot adjudicator prompt (data/adjudicator.txt)
// with the taxonomy's skills listed. A nil tax means DefaultTaxonomy.
func DefaultPrompt(tax *Taxonomy) Prompt {
	p, err := NewPrompt(adjudicatorTemplate, tax)
	if err != nil {
		// The embedded template is tested; failing here is a build defect.
		panic(err)
	}
	return p
}

// LoadPrompt reads a user's system prompt file. The file may hold {{skills}}, which is
// replaced by the taxonomy's skills grouped by domain.
func LoadPrompt(path string, tax *Taxonomy) (Prompt, error) {
	b, err := input.ReadFile(context.Background(), path)
	if err != nil {
		return Prompt{}, err
	}
	p, err := NewPrompt(string(b), tax)
	if err != nil {
		return Prompt{}, fmt.Errorf("load prompt %s: %w", path, err)
	}
	return p, nil
}

var placeholder = regexp.MustCompile(`\{\{[^{}]*\}\}`)

// NewPrompt renders a system prompt template. A nil tax means DefaultTaxonomy.
func NewPrompt(template string, tax *Taxonomy) (Prompt, error) {
	if tax == nil {
		tax = DefaultTaxonomy()
	}
	if strings.TrimSpace(template) == "" {
		return Prompt{}, fmt.Errorf("the prompt is empty")
	}
	var unknown []string
	system := placeholder.ReplaceAllStringFunc(template, func(ph string) string {
		if strings.TrimSpace(ph[2:len(ph)-2]) != "skills" {
			unknown = append(unknown, ph)
			return ph
		}
		return SkillList(tax)
	})
	if len(unknown) > 0 {
		return Prompt{}, fmt.Errorf("unknown placeholder %s (the only one is %s)", strings.Join(unknown, ", "), skillsPlaceholder)
	}
	system = strings.TrimSpace(system)
	sum := sha256.Sum256([]byte(system + "\x00" + contextHeader + "%s" + statementHeader + "%s"))
	return Prompt{System: system, Hash: hex.EncodeToString(sum[:])}, nil
}

// SkillList renders the taxonomy's skills one domain per line, as {{skills}} shows them:
// "- Combat (CMB): Fighting, Firearms, Throw, Dodge".
func SkillList(tax *Taxonomy) string {
	var b strings.Builder
	for i, c := range tax.Categories() {
		if i > 0 {
			b.WriteByte('\n')
		}
		name := tax.CategoryName(c)
		if name != string(c) {
			fmt.Fprintf(&b, "- %s (%s): ", name, c)
		} else {
			fmt.Fprintf(&b, "- %s: ", c)
		}
		b.WriteString(strings.Join(tax.SkillsIn(c), ", "))
	}
	return b.String()
}

// Request is the zero-shot request for one sample: the system prompt and one user
// message holding the context and the statement. No generation parameter is set, so
// every provider uses its defaults, as the benchmark's protocol asks.
func (p Prompt) Request(s Sample) *llm.Request {
	return llm.UserText(p.System, UserMessage(s.Context, s.Statement))
}

// UserMessage renders the user turn: a "Session context:" section, a blank line, and a
// "Player statement:" section.
func UserMessage(context, statement string) string {
	return contextHeader + strings.TrimSpace(context) + statementHeader + strings.TrimSpace(statement)
}

// SplitUserMessage recovers the context and the statement from a message UserMessage
// rendered. It is exact unless the context itself holds a blank line followed by a
// "Player statement:" line.
func SplitUserMessage(text string) (context, statement string, ok bool) {
	rest, ok := strings.CutPrefix(text, contextHeader)
	if !ok {
		return "", "", false
	}
	context, statement, ok = strings.Cut(rest, statementHeader)
	if !ok {
		return "", "", false
	}
	return context, statement, true
}
