package check

import (
	"context"
	"path"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/arbiter-eval/arbiter/internal/input"
)

// RoleMap is a --roles file: speaker names and glob patterns (path.Match syntax), each
// with the role of its turns and, when it says so, whether they are the player's:
//
//	"human_proxy*": {role: defense, player: true}
//	"car owner agent": {role: party}
//	"Judge_Agent": judge
//
// Case does not matter. A name written out wins over a pattern; among patterns, the
// first in the file that matches wins.
type RoleMap struct {
	File    string
	entries []roleEntry
}

type roleEntry struct {
	pattern string // as written
	fold    string // lower-cased, for matching
	role    Role
	player  *bool
	line    int
}

// lookup returns the entry that places speaker, or nil. m may be nil.
func (m *RoleMap) lookup(speaker string) *roleEntry {
	if m == nil {
		return nil
	}
	s := strings.ToLower(strings.TrimSpace(speaker))
	for i := range m.entries {
		if m.entries[i].fold == s {
			return &m.entries[i]
		}
	}
	for i := range m.entries {
		if ok, _ := path.Match(m.entries[i].fold, s); ok {
			return &m.entries[i]
		}
	}
	return nil
}

// LoadRoleMap reads a --roles file.
func LoadRoleMap(file string) (*RoleMap, error) {
	data, err := input.ReadYAMLFile(context.Background(), file)
	if err != nil {
		return nil, err
	}
	return ParseRoleMap(data, file)
}

// ParseRoleMap reads a --roles file's text; file labels errors.
func ParseRoleMap(data []byte, file string) (*RoleMap, error) {
	body, err := parseYAML(data, file)
	if err != nil {
		return nil, err
	}
	d := &ydec{file: file}
	m := &RoleMap{File: file}
	values, ok := mappingValues(unwrap(body))
	if !ok {
		return nil, input.Problem(file, lineOf(body), "", `want a mapping of speaker name or pattern to {role, player}, e.g. "human_proxy*": {role: defense, player: true}; got %s`, describe(body))
	}
	seen := map[string]bool{}
	for _, mv := range values {
		key := ""
		if mv.Key != nil {
			key = strings.TrimSpace(mv.Key.GetToken().Value)
		}
		field := jsonQuote(key)
		e := roleEntry{pattern: key, fold: strings.ToLower(key), line: lineOf(mv)}
		switch {
		case key == "":
			d.add(mv, field, "empty speaker name")
			continue
		case seen[e.fold]:
			d.add(mv, field, "appears twice")
			continue
		}
		seen[e.fold] = true
		if _, err := path.Match(e.fold, ""); err != nil {
			d.add(mv, field, "not a valid pattern (want * for any text, ? for one character, [abc] for one of them)")
			continue
		}
		var role string
		if v, isMap := mappingValues(unwrap(mv.Value)); isMap && v != nil {
			f, _ := d.fields(mv.Value, field, "role", "player")
			role = d.need(f, "role", mv, field+".role")
			if n := f["player"]; !isNull(n) {
				if b, ok := unwrap(n).(*ast.BoolNode); ok {
					e.player = &b.Value
				} else {
					d.add(n, field+".player", "want true or false, got %s", describe(n))
				}
			}
		} else {
			role = d.str(mv.Value, field, true)
		}
		if role == "" {
			continue
		}
		e.role = Role(strings.ToLower(strings.TrimSpace(role)))
		if !e.role.valid() {
			d.add(mv.Value, field+".role", "%q is not a role (want one of %s)", role, rolesList())
			continue
		}
		m.entries = append(m.entries, e)
	}
	if err := d.err(); err != nil {
		return nil, err
	}
	return m, nil
}

// mappingValues returns a mapping's key-value pairs in file order.
func mappingValues(n ast.Node) ([]*ast.MappingValueNode, bool) {
	switch v := n.(type) {
	case *ast.MappingNode:
		return v.Values, true
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{v}, true
	}
	return nil, false
}
