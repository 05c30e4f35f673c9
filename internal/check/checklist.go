package check

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/goccy/go-yaml/ast"

	"github.com/arbiter-eval/arbiter/internal/input"
)

//go:embed data/checklist.yaml
var defaultChecklistYAML []byte

// Checklist is a frozen set of yes/no questions grouped by dimension and sub-dimension
// (spec section 2), as written by the filter stage and edited by hand.
type Checklist struct {
	// Source is where it came from: "builtin" or a file path.
	Source string
	// Name and Version are the author's; neither is part of the hash.
	Name    string
	Version int
	Domain  Domain
	Dims    []Dimension
	// Removed lists questions the filter dropped, with reasons, for review. They are
	// never judged and not part of the hash.
	Removed []Removed
	// Hash is the hex SHA-256 of the canonical content: the domain, the dimensions and
	// their definitions, and every question's id and text, with white space normalised.
	// Comments, layout, origins and the removed list do not change it. Every score
	// records it.
	Hash string
	// StatedHash is the hash written in the file, "" when it has none. It differs from
	// Hash when the questions were edited after the file was frozen.
	StatedHash string
}

// Removed is a question the filter took out, and why.
type Removed struct {
	ID        QuestionID `json:"id"`
	Text      string     `json:"text"`
	Dimension string     `json:"dimension"`
	Sub       string     `json:"subdimension,omitempty"`
	Reason    string     `json:"reason"`
	// By is "prepass" for the deterministic duplicate check, or the filter model's name.
	By string `json:"by"`
}

// Edited reports whether the file's questions changed since its hash was written.
func (c *Checklist) Edited() bool { return c.StatedHash != "" && c.StatedHash != c.Hash }

// Item is one question as the judge numbers it.
type Item struct {
	// N is the question's number, Q1 … Qn in checklist order.
	N    int
	ID   QuestionID
	Text string
	// Dim and Sub index Checklist.Dims and its Subs.
	Dim, Sub int
}

// Items numbers the questions Q1 … Qn in checklist order.
func (c *Checklist) Items() []Item {
	var out []Item
	for di, d := range c.Dims {
		for si, s := range d.Subs {
			for _, q := range s.Questions {
				out = append(out, Item{N: len(out) + 1, ID: q.ID, Text: q.Text, Dim: di, Sub: si})
			}
		}
	}
	return out
}

var defaultChecklist = sync.OnceValue(func() *Checklist {
	c, err := ParseChecklist(defaultChecklistYAML, "builtin")
	if err != nil {
		panic(err) // the embedded file is tested
	}
	return c
})

// DefaultChecklist returns the bundled LLM Court checklist: 38 questions made by this
// pipeline's rules from DefaultDimensions and reviewed by hand. Callers must not modify
// it.
func DefaultChecklist() *Checklist { return defaultChecklist() }

// LoadChecklist reads a checklist file; "builtin" names the bundled one.
func LoadChecklist(path string) (*Checklist, error) {
	if path == "builtin" {
		return DefaultChecklist(), nil
	}
	data, err := input.ReadYAMLFile(context.Background(), path)
	if err != nil {
		return nil, err
	}
	return ParseChecklist(data, path)
}

var checklistFields = append([]string{"checklist", "version", "hash", "dimensions", "removed"}, domainFields...)

// ParseChecklist parses a checklist file; name labels errors and becomes Source. Every
// problem is reported as file:line: field: what is wrong, in one *ValidationError.
func ParseChecklist(data []byte, name string) (*Checklist, error) {
	d := &ydec{file: name}
	body, err := parseYAML(data, name)
	if err != nil {
		return nil, err
	}
	if body == nil {
		return nil, &ValidationError{Errs: []FieldError{{File: name, Msg: "empty file: want a checklist (see `arbiter check filter`)"}}}
	}
	top, ok := d.fields(body, "", checklistFields...)
	if !ok {
		return nil, d.err()
	}
	c := &Checklist{Source: name, Domain: d.domain(top, body)}
	c.Name = strings.TrimSpace(d.str(top["checklist"], "checklist", false))
	c.Version, _ = d.integer(top["version"], "version")
	c.StatedHash = strings.TrimSpace(d.str(top["hash"], "hash", false))
	c.Dims = d.dimensions(top["dimensions"], body, true)
	c.Removed = d.removed(top["removed"])
	ids := map[QuestionID]bool{}
	total := 0
	for _, dim := range c.Dims {
		for _, s := range dim.Subs {
			for _, q := range s.Questions {
				if ids[q.ID] {
					d.add(body, "dimensions", "question id %q appears twice; give each question its own id", q.ID)
				}
				ids[q.ID] = true
				total++
			}
		}
	}
	if total == 0 && len(c.Dims) > 0 {
		d.add(top["dimensions"], "dimensions", "no questions: a checklist needs at least one")
	}
	if err := d.err(); err != nil {
		return nil, err
	}
	c.Hash = canonicalHash(c.Domain, c.Dims, true)
	return c, nil
}

func (d *ydec) removed(n ast.Node) []Removed {
	var out []Removed
	for i, it := range d.seq(n, "removed") {
		p := fmt.Sprintf("removed[%d]", i+1)
		f, ok := d.fields(it, p, "id", "text", "dimension", "subdimension", "reason", "by")
		if !ok {
			continue
		}
		out = append(out, Removed{
			ID:        QuestionID(strings.TrimSpace(d.str(f["id"], p+".id", false))),
			Text:      oneLine(d.need(f, "text", it, p+".text")),
			Dimension: oneLine(d.str(f["dimension"], p+".dimension", false)),
			Sub:       oneLine(d.str(f["subdimension"], p+".subdimension", false)),
			Reason:    oneLine(d.str(f["reason"], p+".reason", false)),
			By:        strings.TrimSpace(d.str(f["by"], p+".by", false)),
		})
	}
	return out
}

// WriteYAML writes the checklist as a hand-editable file, frozen at its current hash.
// The output parses back to the same content and hash.
func (c *Checklist) WriteYAML(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("# RPA-Check checklist. Every question is answered yes or no about a transcript, and\n")
	p("# \"yes\" means better. Edit questions freely: the hash below is what the file held when\n")
	p("# it was written, and scores record the hash of the content actually judged. Removed\n")
	p("# questions are kept at the end for review; they are never judged.\n")
	p("checklist: %s\n", yamlQuote(cmpStr(c.Name, "checklist")))
	p("version: %d\n", max(c.Version, 1))
	p("hash: %s\n", c.Hash)
	p("domain: %s\n", yamlQuote(c.Domain.Name))
	p("description: %s\n", yamlQuote(oneLine(c.Domain.Description)))
	if c.Domain.Player != "" {
		p("player: %s\n", yamlQuote(c.Domain.Player))
	}
	if len(c.Domain.PlayerRoles) > 0 {
		roles := make([]string, len(c.Domain.PlayerRoles))
		for i, r := range c.Domain.PlayerRoles {
			roles[i] = string(r)
		}
		p("player_roles: [%s]\n", strings.Join(roles, ", "))
	}
	if c.Domain.Guidance != "" {
		p("guidance: %s\n", yamlQuote(oneLine(c.Domain.Guidance)))
	}
	p("\ndimensions:\n")
	for _, d := range c.Dims {
		p("  - name: %s\n", yamlQuote(d.Name))
		p("    short: %s\n", d.Short)
		p("    definition: %s\n", yamlQuote(oneLine(d.Definition)))
		if len(d.Subs) == 1 && d.Subs[0].Name == "" {
			writeQuestions(p, "    ", d.Subs[0].Questions)
			continue
		}
		p("    subdimensions:\n")
		for _, s := range d.Subs {
			p("      - name: %s\n", yamlQuote(s.Name))
			p("        short: %s\n", s.Short)
			if s.Definition != "" {
				p("        definition: %s\n", yamlQuote(oneLine(s.Definition)))
			}
			writeQuestions(p, "        ", s.Questions)
		}
	}
	if len(c.Removed) > 0 {
		p("\nremoved:\n")
		for _, r := range c.Removed {
			p("  - id: %s\n", yamlQuote(string(r.ID)))
			p("    text: %s\n", yamlQuote(r.Text))
			p("    dimension: %s\n", yamlQuote(r.Dimension))
			if r.Sub != "" {
				p("    subdimension: %s\n", yamlQuote(r.Sub))
			}
			p("    reason: %s\n", yamlQuote(r.Reason))
			p("    by: %s\n", yamlQuote(r.By))
		}
	}
	return bw.Flush()
}

func writeQuestions(p func(string, ...any), indent string, qs []Question) {
	if len(qs) == 0 {
		p("%squestions: []\n", indent)
		return
	}
	p("%squestions:\n", indent)
	for _, q := range qs {
		p("%s  - id: %s\n", indent, q.ID)
		p("%s    text: %s\n", indent, yamlQuote(q.Text))
		if q.Origin != "" && q.Origin != "hand" {
			p("%s    origin: %s\n", indent, q.Origin)
		}
	}
}

func cmpStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Marshal returns WriteYAML's output.
func (c *Checklist) Marshal() []byte {
	var b bytes.Buffer
	c.WriteYAML(&b) // a bytes.Buffer does not fail
	return b.Bytes()
}
