package input

import (
	"bytes"
	"context"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// The YAML limits of cli.md "Robustness". The YAML library has none of its own: a 1 KB
// file of nested aliases (a "billion laughs") expands to billions of nodes, and deep
// nesting exhausts the stack.
const (
	// MaxYAMLNodes is how many nodes a YAML input may expand to, aliases expanded.
	MaxYAMLNodes = 10_000
	// MaxYAMLDepth is how deep collections may nest in a YAML input.
	MaxYAMLDepth = 100
	// MaxYAMLBytes is the largest YAML input: 10,000 nodes of long text fit easily.
	MaxYAMLBytes = 16 << 20
	// maxYAMLUnits bounds the pre-scan's count of lines and flow items, which is what
	// costs the YAML library memory (a megabyte of "[1,1,1,…]" takes it half a gigabyte).
	// A file within MaxYAMLNodes has far fewer.
	maxYAMLUnits = 4 * MaxYAMLNodes
)

// ReadYAMLFile reads a YAML input like ReadFile, refusing one over MaxYAMLBytes. Check
// what it returns with CheckYAML or DecodeYAML.
func ReadYAMLFile(ctx context.Context, path string) ([]byte, error) {
	return readFile(ctx, path, MaxYAMLBytes)
}

// DecodeYAML checks data with CheckYAML, then decodes it into v with the YAML library's
// options. A limit exceeded is a *ValidationError; decoding errors are the library's.
func DecodeYAML(name string, data []byte, v any, opts ...yaml.DecodeOption) error {
	if err := CheckYAML(name, data); err != nil {
		return err
	}
	return yaml.NewDecoder(bytes.NewReader(data), opts...).Decode(v)
}

// CheckYAML refuses a YAML input over MaxYAMLBytes, nested deeper than MaxYAMLDepth or
// expanding to more than MaxYAMLNodes nodes, with a *ValidationError naming the line
// where the limit is passed. A file the YAML library cannot parse passes: its decoder
// reports the syntax error better.
//
// A pre-scan of the text, cheap and bounded, comes first, so that the library never
// parses a file too deep or too big for it; then the parsed tree is counted exactly,
// each alias as the nodes it stands for.
func CheckYAML(name string, data []byte) error {
	if len(data) > MaxYAMLBytes {
		return Problem(name, 0, "", "larger than %s: too big for a YAML input", sizeText(MaxYAMLBytes))
	}
	data = bytes.TrimPrefix(data, bom)
	if line, msg := prescanYAML(data); msg != "" {
		return Problem(name, line, "", "%s", msg)
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil
	}
	c := yamlCounter{anchors: map[string]yamlSize{}, line: -1}
	for _, doc := range f.Docs {
		c.walk(doc, 0)
		if c.line >= 0 {
			return Problem(name, c.line, "", "%s", c.msg)
		}
	}
	return nil
}

func tooDeep() string { return "YAML nested more than 100 deep" }
func tooMany() string { return "YAML with more than 10000 nodes (aliases expanded)" }

// prescanYAML follows the text's indentation, flow brackets, quotes, comments and block
// scalars closely enough to bound the nesting and the size of what the parser would
// build. It returns the line where a limit is passed.
func prescanYAML(data []byte) (int, string) {
	var (
		stack       []int // columns of the open block collections
		flow        int   // depth of open [ and {
		quote       byte  // the open quote, 0 outside one
		blockIndent = -1  // while in a block scalar: the indentation of the line that opened it
		units       int
	)
	for n, line := 1, data; len(line) > 0 || n == 1; n++ {
		var rest []byte
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line, rest = line[:i], line[i+1:]
		} else {
			rest = nil
		}
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		blank := len(bytes.TrimSpace(line)) == 0
		if blockIndent >= 0 {
			if blank || indent > blockIndent {
				line = rest
				continue
			}
			blockIndent = -1
		}
		if blank {
			line = rest
			if rest == nil {
				break
			}
			continue
		}
		content := line[indent:]
		start := indent
		if quote == 0 && flow == 0 && content[0] != '#' {
			units++
			col := indent
			// "- - - x" opens a sequence per dash.
			for len(content) > 0 && content[0] == '-' && (len(content) == 1 || content[1] == ' ') {
				if !pushColumn(&stack, col) {
					return n, tooDeep()
				}
				k := 1
				for k < len(content) && content[k] == ' ' {
					k++
				}
				col, content = col+k, content[k:]
			}
			// A key opens a mapping; a flow collection is counted by its brackets below.
			if looksLikeKey(content) && !pushColumn(&stack, col) {
				return n, tooDeep()
			}
			start = col
		}
		if units > maxYAMLUnits {
			return n, tooMany()
		}
		end := len(line)
		for i := start; i < len(line); i++ {
			c := line[i]
			switch quote {
			case '"':
				if c == '\\' {
					i++
				} else if c == '"' {
					quote = 0
				}
				continue
			case '\'':
				if c == '\'' {
					if i+1 < len(line) && line[i+1] == '\'' {
						i++
					} else {
						quote = 0
					}
				}
				continue
			}
			tokenStart := i == start || bytes.IndexByte([]byte(" \t[{,"), line[i-1]) >= 0
			switch {
			case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
				end = i
				i = len(line)
			case (c == '"' || c == '\'') && tokenStart:
				quote = c
			case (c == '[' || c == '{') && (flow > 0 || tokenStart):
				flow++
				units++
				if len(stack)+flow > MaxYAMLDepth {
					return n, tooDeep()
				}
			case (c == ']' || c == '}') && flow > 0:
				flow--
				units++
			case c == ',' && flow > 0:
				units++
			}
		}
		if units > maxYAMLUnits {
			return n, tooMany()
		}
		if quote == 0 && flow == 0 && opensBlockScalar(line[:end]) {
			blockIndent = indent
		}
		line = rest
		if rest == nil {
			break
		}
	}
	return 0, ""
}

// looksLikeKey reports whether a line's content starts a mapping entry ("key: value",
// "key:").
func looksLikeKey(content []byte) bool {
	if len(content) == 0 || bytes.IndexByte([]byte("#[{"), content[0]) >= 0 {
		return false
	}
	if i := bytes.Index(content, []byte(" #")); i >= 0 {
		content = content[:i]
	}
	content = bytes.TrimRight(content, " \t\r")
	return bytes.Contains(content, []byte(": ")) || bytes.HasSuffix(content, []byte(":"))
}

// pushColumn records a block collection element at column col, closing those indented
// deeper; it reports false when the nesting passes MaxYAMLDepth.
func pushColumn(stack *[]int, col int) bool {
	s := *stack
	for len(s) > 0 && s[len(s)-1] > col {
		s = s[:len(s)-1]
	}
	if len(s) == 0 || s[len(s)-1] < col {
		s = append(s, col)
	}
	*stack = s
	return len(s) <= MaxYAMLDepth
}

// opensBlockScalar reports whether a line ends with a block scalar indicator: "key: |",
// "- >-", "key: |2".
func opensBlockScalar(line []byte) bool {
	s := bytes.TrimRight(line, " \t\r")
	for k := 0; k < 2 && len(s) > 0 && bytes.IndexByte([]byte("+-123456789"), s[len(s)-1]) >= 0; k++ {
		s = s[:len(s)-1]
	}
	if len(s) == 0 || (s[len(s)-1] != '|' && s[len(s)-1] != '>') {
		return false
	}
	return len(s) == 1 || s[len(s)-2] == ' ' || s[len(s)-2] == '\t'
}

// yamlSize is what an anchored node stands for: its nodes and its height.
type yamlSize struct{ nodes, height int }

// yamlCounter counts the nodes of a parsed YAML tree in document order, each alias as the
// nodes of its anchor, and records the first line where a limit is passed.
type yamlCounter struct {
	anchors map[string]yamlSize
	total   int
	line    int
	msg     string
}

func (c *yamlCounter) fail(n ast.Node, msg string) {
	if c.line < 0 {
		c.line, c.msg = 0, msg
		if tk := n.GetToken(); tk != nil && tk.Position != nil {
			c.line = tk.Position.Line
		}
	}
}

// walk returns the size of n, which sits inside level open collections. It stops
// descending once a limit is passed.
func (c *yamlCounter) walk(n ast.Node, level int) yamlSize {
	if n == nil || c.line >= 0 {
		return yamlSize{}
	}
	collection := func(children []ast.Node) yamlSize {
		c.add(n, 1)
		if level+1 > MaxYAMLDepth {
			c.fail(n, tooDeep())
			return yamlSize{}
		}
		s := yamlSize{nodes: 1, height: 1}
		for _, ch := range children {
			cs := c.walk(ch, level+1)
			s.nodes = min(s.nodes+cs.nodes, MaxYAMLNodes+1)
			s.height = max(s.height, cs.height+1)
		}
		return s
	}
	switch v := n.(type) {
	case *ast.DocumentNode:
		return c.walk(v.Body, level)
	case *ast.CommentGroupNode, *ast.CommentNode:
		return yamlSize{}
	case *ast.MappingNode:
		var ch []ast.Node
		for _, mv := range v.Values {
			ch = append(ch, mv.Key, mv.Value)
		}
		return collection(ch)
	case *ast.MappingValueNode:
		return collection([]ast.Node{v.Key, v.Value})
	case *ast.SequenceNode:
		return collection(v.Values)
	case *ast.MappingKeyNode:
		return c.walk(v.Value, level)
	case *ast.TagNode:
		return c.walk(v.Value, level)
	case *ast.AnchorNode:
		s := c.walk(v.Value, level)
		if v.Name != nil {
			c.anchors[v.Name.GetToken().Value] = s
		}
		return s
	case *ast.AliasNode:
		name := ""
		if v.Value != nil {
			name = v.Value.GetToken().Value
		}
		s, ok := c.anchors[name]
		if !ok {
			s = yamlSize{nodes: 1}
		}
		c.add(n, s.nodes)
		if level+s.height > MaxYAMLDepth {
			c.fail(n, tooDeep())
		}
		return s
	}
	c.add(n, 1)
	return yamlSize{nodes: 1}
}

func (c *yamlCounter) add(n ast.Node, k int) {
	c.total = min(c.total+k, MaxYAMLNodes+1)
	if c.total > MaxYAMLNodes {
		c.fail(n, tooMany())
	}
}

// YAMLError is the first line of a YAML decoding error, without source excerpts: the
// one line a bad file's message names.
func YAMLError(err error) string {
	msg := strings.TrimSpace(yaml.FormatError(err, false, false))
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return msg
}
