package seduce

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/goccy/go-yaml/ast"

	"github.com/arbiter-eval/arbiter/internal/input"
	"github.com/arbiter-eval/arbiter/internal/llm"
)

// EntryError is a bad model entry of an experiment file: the line and the field it is
// on. LoadExperiment names the file.
type EntryError struct {
	Line  int
	Field string
	Msg   string
}

func (e *EntryError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return fmt.Sprintf("line %d: %s: %s", e.Line, e.Field, e.Msg)
}

// problem is e as the one-line error of file path.
func (e *EntryError) problem(path string) *input.ValidationError {
	field := "models"
	if e.Field != "" {
		field += "." + e.Field
	}
	return input.Problem(path, e.Line, field, "%s", e.Msg)
}

const entryKeys = "model, label, thinking_budget, reasoning_effort, temperature or max_tokens"

func nodeLine(n ast.Node) int {
	if n == nil || n.GetToken() == nil || n.GetToken().Position == nil {
		return 0
	}
	return n.GetToken().Position.Line
}

// UnmarshalYAML reads a name or an object {model, label, thinking_budget,
// reasoning_effort, temperature, max_tokens} from its node, so that every problem
// names its line and field.
func (m *ModelEntry) UnmarshalYAML(node ast.Node) error {
	if a, ok := node.(*ast.AnchorNode); ok {
		node = a.Value
	}
	line := nodeLine(node)
	bad := func(n ast.Node, field, format string, args ...any) error {
		l := nodeLine(n)
		if l == 0 {
			l = line
		}
		return &EntryError{Line: l, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	var pairs []*ast.MappingValueNode
	switch n := node.(type) {
	case *ast.StringNode:
		name, err := llm.ParseModelName(n.Value)
		if err != nil {
			return bad(n, "", "%s", err.Error())
		}
		*m = ModelEntry{Model: name}
		return nil
	case *ast.MappingNode:
		pairs = n.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{n}
	default:
		return bad(node, "", "want a model name (provider/model) or an object with %s", entryKeys)
	}
	var e ModelEntry
	var model string
	seen := map[string]bool{}
	for _, kv := range pairs {
		k, ok := kv.Key.(*ast.StringNode)
		if !ok {
			return bad(kv.Key, "", "want a key among %s", entryKeys)
		}
		key := k.Value
		if seen[key] {
			return bad(kv.Key, key, "given twice")
		}
		seen[key] = true
		v := kv.Value
		if a, ok := v.(*ast.AnchorNode); ok {
			v = a.Value
		}
		switch key {
		case "model", "label":
			s, ok := v.(*ast.StringNode)
			if !ok {
				return bad(v, key, "want text")
			}
			if key == "model" {
				model = s.Value
				continue
			}
			if s.Value == "" || strings.IndexFunc(s.Value, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
				return bad(v, key, "%q: want one line of printable text", s.Value)
			}
			e.Label = llm.ModelName(s.Value)
		case "thinking_budget", "max_tokens":
			_, ok := v.(*ast.IntegerNode)
			n, err := strconv.Atoi(strings.ReplaceAll(tokenText(v), "_", ""))
			if !ok || err != nil {
				return bad(v, key, "%q: want a whole number of tokens", tokenText(v))
			}
			if key == "thinking_budget" {
				e.Params.ThinkingBudget = n
			} else {
				e.Params.MaxTokens = n
			}
		case "reasoning_effort":
			s, ok := v.(*ast.StringNode)
			if !ok {
				return bad(v, key, "%q: want one of %s", tokenText(v), strings.Join(llm.Efforts, ", "))
			}
			e.Params.ReasoningEffort = s.Value
		case "temperature":
			var t float64
			var err error
			switch v.(type) {
			case *ast.IntegerNode, *ast.FloatNode:
				t, err = strconv.ParseFloat(strings.ReplaceAll(tokenText(v), "_", ""), 64)
			default:
				err = errors.New("not a number")
			}
			if err != nil {
				return bad(v, key, "%q: want a number", tokenText(v))
			}
			e.Params.Temperature = &t
		default:
			return bad(kv.Key, key, "unknown field; want %s", entryKeys)
		}
	}
	if model == "" {
		return bad(node, "model", "a model entry needs model: provider/model")
	}
	name, err := llm.ParseModelName(model)
	if err != nil {
		return bad(node, "model", "%s", err.Error())
	}
	e.Model = name
	if err := e.Params.Check(name); err != nil {
		var pe *llm.ParamError
		if errors.As(err, &pe) {
			return bad(node, pe.Field, "%s: %s", pe.Model, pe.Why)
		}
		return bad(node, "", "%s", err.Error())
	}
	*m = e
	return nil
}

// tokenText is the source text of a scalar node, for messages; "" for a collection.
func tokenText(n ast.Node) string {
	switch n.(type) {
	case *ast.MappingNode, *ast.SequenceNode, *ast.MappingValueNode:
		return ""
	}
	if t := n.GetToken(); t != nil {
		return t.Value
	}
	return ""
}
