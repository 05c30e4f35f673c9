package check

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/arbiter-eval/arbiter/internal/input"
)

// FieldError is one problem in an input file: file:line: field: what is wrong.
type FieldError = input.FieldError

// ValidationError lists every problem in one file; a file with any problem is rejected
// whole.
type ValidationError = input.ValidationError

// ydec walks a YAML syntax tree, so that every problem is reported with its line.
type ydec struct {
	file string
	// errs keeps the first problems, so a file of the wrong kind gives a screenful and a
	// count, not thousands of lines.
	errs input.Errors
}

func (d *ydec) add(n ast.Node, field, format string, args ...any) {
	d.errs.Addf(d.file, lineOf(n), field, format, args...)
}

func (d *ydec) err() error { return d.errs.Err() }

func lineOf(n ast.Node) int {
	if n == nil {
		return 0
	}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		return tk.Position.Line
	}
	return 0
}

// parseYAML returns the body of the file's only document (nil for an empty file).
func parseYAML(data []byte, file string) (ast.Node, error) {
	if err := input.CheckYAML(file, data); err != nil {
		return nil, err
	}
	f, err := parser.ParseBytes(bytes.TrimPrefix(data, []byte("\ufeff")), 0)
	if err != nil {
		fe := FieldError{File: file, Msg: "not valid YAML: " + err.Error()}
		var se *yaml.SyntaxError
		if errors.As(err, &se) {
			fe.Msg = "not valid YAML: " + se.Message
			if se.Token != nil && se.Token.Position != nil {
				fe.Line = se.Token.Position.Line
			}
		}
		return nil, &ValidationError{Errs: []FieldError{fe}}
	}
	var body ast.Node
	for i, doc := range f.Docs {
		if doc == nil || doc.Body == nil {
			continue
		}
		if body != nil {
			return nil, &ValidationError{Errs: []FieldError{{File: file, Line: lineOf(doc.Body), Msg: fmt.Sprintf("a second YAML document (%d): want one", i+1)}}}
		}
		body = doc.Body
	}
	return body, nil
}

// unwrap looks through anchors and tags.
func unwrap(n ast.Node) ast.Node {
	for {
		switch v := n.(type) {
		case *ast.AnchorNode:
			n = v.Value
		case *ast.TagNode:
			n = v.Value
		default:
			return n
		}
	}
}

func isNull(n ast.Node) bool {
	if n == nil {
		return true
	}
	_, ok := unwrap(n).(*ast.NullNode)
	return ok
}

// fields reads a mapping: its values by key, in file order of keys. Unknown and repeated
// keys are problems.
func (d *ydec) fields(n ast.Node, path string, known ...string) (map[string]ast.Node, bool) {
	n = unwrap(n)
	var values []*ast.MappingValueNode
	switch v := n.(type) {
	case *ast.MappingNode:
		values = v.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{v}
	default:
		d.add(n, path, "want a mapping of %s, got %s", strings.Join(known, ", "), describe(n))
		return nil, false
	}
	out := make(map[string]ast.Node, len(values))
	for _, mv := range values {
		key := ""
		if mv.Key != nil {
			key = mv.Key.GetToken().Value
		}
		field := join(path, key)
		if _, dup := out[key]; dup {
			d.add(mv, field, "appears twice")
			continue
		}
		if !contains(known, key) {
			d.add(mv, field, "unknown field (want one of %s)", strings.Join(known, ", "))
			continue
		}
		out[key] = mv.Value
	}
	return out, true
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// str reads a scalar as text. Numbers and booleans keep their written form, so that a
// question such as `no` or `42?` reads as the text the author typed.
func (d *ydec) str(n ast.Node, field string, required bool) string {
	if isNull(n) {
		if required {
			d.add(n, field, "missing")
		}
		return ""
	}
	switch v := unwrap(n).(type) {
	case *ast.StringNode:
		return v.Value
	case *ast.LiteralNode:
		return v.Value.Value
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return v.GetToken().Value
	}
	d.add(n, field, "want text, got %s", describe(n))
	return ""
}

// need reads the required text field key of mapping f, whose node is parent, so that a
// missing field is reported at the line of its mapping.
func (d *ydec) need(f map[string]ast.Node, key string, parent ast.Node, field string) string {
	if isNull(f[key]) {
		d.add(at(f[key], parent), field, "missing")
		return ""
	}
	return d.str(f[key], field, true)
}

// integer reads a whole number.
func (d *ydec) integer(n ast.Node, field string) (int, bool) {
	if isNull(n) {
		return 0, false
	}
	if v, ok := unwrap(n).(*ast.IntegerNode); ok {
		if i, err := strconv.Atoi(v.GetToken().Value); err == nil {
			return i, true
		}
	}
	d.add(n, field, "want a whole number, got %s", describe(n))
	return 0, false
}

// seq reads a sequence; null is an empty one.
func (d *ydec) seq(n ast.Node, field string) []ast.Node {
	if isNull(n) {
		return nil
	}
	if v, ok := unwrap(n).(*ast.SequenceNode); ok {
		return v.Values
	}
	d.add(n, field, "want a list, got %s", describe(n))
	return nil
}

func describe(n ast.Node) string {
	if isNull(n) {
		return "nothing"
	}
	switch unwrap(n).(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.AliasNode:
		return "an alias (write the value out)"
	}
	return fmt.Sprintf("%q", unwrap(n).GetToken().Value)
}

// yamlQuote writes s as a double-quoted YAML scalar, valid for any text.
func yamlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xfeff {
				fmt.Fprintf(&b, `\u%04x`, r)
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
