package check

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/goccy/go-yaml/ast"

	"github.com/arbiter-eval/arbiter/internal/input"

	"github.com/arbiter-eval/arbiter/internal/store"
)

//go:embed data/dimensions.yaml
var defaultDimensionsYAML []byte

// Dimensions is a dimension file (stage 1): the domain and its criteria with seed
// questions. A loaded value is not modified by this package.
type Dimensions struct {
	// Source is where it came from: "builtin" or a file path.
	Source string
	// Hash is the hex SHA-256 of the canonical content (comments and layout excluded).
	Hash   string
	Domain Domain
	Dims   []Dimension
}

var defaultDimensions = sync.OnceValue(func() *Dimensions {
	d, err := ParseDimensions(defaultDimensionsYAML, "builtin")
	if err != nil {
		// The embedded file is tested; failing here is a build defect, not user input.
		panic(err)
	}
	return d
})

// DefaultDimensions returns the bundled LLM Court dimensions of the paper: Behavioral
// Role Fidelity (Role Adherence, Argumentative Depth, Factual Consistency, Contextual
// Relevance), Procedural Convergence and Stability, and Linguistic Formalism and
// Orthography, each with a definition and seed questions.
func DefaultDimensions() *Dimensions { return defaultDimensions() }

// LoadDimensions reads a dimension file; "builtin" names the bundled one.
func LoadDimensions(path string) (*Dimensions, error) {
	if path == "builtin" {
		return DefaultDimensions(), nil
	}
	data, err := input.ReadYAMLFile(context.Background(), path)
	if err != nil {
		return nil, err
	}
	return ParseDimensions(data, path)
}

// ParseDimensions parses a dimension file; name labels errors and becomes Source. Every
// problem is reported as file:line: field: what is wrong, in one *ValidationError.
func ParseDimensions(data []byte, name string) (*Dimensions, error) {
	d := &ydec{file: name}
	body, err := parseYAML(data, name)
	if err != nil {
		return nil, err
	}
	if body == nil {
		return nil, &ValidationError{Errs: []FieldError{{File: name, Msg: "empty file: want domain, description and dimensions"}}}
	}
	top, ok := d.fields(body, "", append(domainFields, "dimensions")...)
	if !ok {
		return nil, d.err()
	}
	out := &Dimensions{Source: name, Domain: d.domain(top, body)}
	out.Dims = d.dimensions(top["dimensions"], body, false)
	if err := d.err(); err != nil {
		return nil, err
	}
	out.Hash = canonicalHash(out.Domain, out.Dims, false)
	return out, nil
}

var domainFields = []string{"domain", "description", "player", "player_roles", "guidance"}

func (d *ydec) domain(top map[string]ast.Node, body ast.Node) Domain {
	dom := Domain{
		Name:        oneLine(d.str(top["domain"], "domain", false)),
		Description: strings.TrimSpace(d.str(top["description"], "description", false)),
		Player:      oneLine(d.str(top["player"], "player", false)),
		Guidance:    strings.TrimSpace(d.str(top["guidance"], "guidance", false)),
	}
	if dom.Name == "" {
		d.add(at(top["domain"], body), "domain", "missing: name the benchmark, e.g. \"LLM Court\"")
	}
	if dom.Description == "" {
		d.add(at(top["description"], body), "description", "missing: say what the transcripts show")
	}
	for i, n := range d.seq(top["player_roles"], "player_roles") {
		field := fmt.Sprintf("player_roles[%d]", i+1)
		r := Role(strings.ToLower(strings.TrimSpace(d.str(n, field, true))))
		if r == "" {
			continue
		}
		if !r.valid() {
			d.add(n, field, "%q is not a transcript role (want one of %s)", r, rolesList())
			continue
		}
		dom.PlayerRoles = append(dom.PlayerRoles, r)
	}
	return dom
}

// at is n, or fallback when n is absent, so that a missing field still gets a line.
func at(n, fallback ast.Node) ast.Node {
	if n == nil {
		return fallback
	}
	return n
}

var shortPattern = regexp.MustCompile(`^[A-Za-z0-9]{1,12}$`)

// dimensions reads the dimensions list; questions selects checklist questions over
// dimension-file seeds.
func (d *ydec) dimensions(n, parent ast.Node, questions bool) []Dimension {
	items := d.seq(n, "dimensions")
	if len(items) == 0 {
		d.add(at(n, parent), "dimensions", "missing: want at least one dimension")
		return nil
	}
	leaf := "seeds"
	if questions {
		leaf = "questions"
	}
	var dims []Dimension
	names, shorts := map[string]bool{}, map[string]bool{}
	for i, item := range items {
		path := fmt.Sprintf("dimensions[%d]", i+1)
		f, ok := d.fields(item, path, "name", "short", "definition", "subdimensions", leaf)
		if !ok {
			continue
		}
		dim := Dimension{
			Name:       oneLine(d.need(f, "name", item, path+".name")),
			Short:      strings.TrimSpace(d.str(f["short"], path+".short", false)),
			Definition: strings.TrimSpace(d.str(f["definition"], path+".definition", false)),
		}
		if dim.Definition == "" {
			d.add(at(f["definition"], item), path+".definition", "missing: the judge and the generator are given it")
		}
		if dim.Short == "" {
			dim.Short = shortOf(dim.Name)
		}
		if !shortPattern.MatchString(dim.Short) {
			d.add(at(f["short"], item), path+".short", "%q: want 1 to 12 letters or digits", dim.Short)
		}
		if dim.Name != "" && names[strings.ToLower(dim.Name)] {
			d.add(at(f["name"], item), path+".name", "%q appears twice", dim.Name)
		}
		if shorts[strings.ToUpper(dim.Short)] {
			d.add(at(f["short"], item), path+".short", "%q is used by another dimension; give each its own short code", dim.Short)
		}
		names[strings.ToLower(dim.Name)], shorts[strings.ToUpper(dim.Short)] = true, true
		subs, direct := f["subdimensions"], f[leaf]
		switch {
		case subs != nil && direct != nil:
			d.add(direct, path+"."+leaf, "give either subdimensions or %s, not both", leaf)
		case subs != nil:
			dim.Subs = d.subdimensions(subs, item, path, dim.Short, questions)
		default:
			sub := SubDimension{}
			d.leaf(&sub, direct, item, path, dim.Short, questions)
			dim.Subs = []SubDimension{sub}
		}
		dims = append(dims, dim)
	}
	return dims
}

func (d *ydec) subdimensions(n, parent ast.Node, path, dimShort string, questions bool) []SubDimension {
	items := d.seq(n, path+".subdimensions")
	if len(items) == 0 {
		d.add(at(n, parent), path+".subdimensions", "empty: want at least one sub-dimension")
		return nil
	}
	leaf := "seeds"
	if questions {
		leaf = "questions"
	}
	var subs []SubDimension
	names, shorts := map[string]bool{}, map[string]bool{}
	for i, item := range items {
		sp := fmt.Sprintf("%s.subdimensions[%d]", path, i+1)
		f, ok := d.fields(item, sp, "name", "short", "definition", leaf)
		if !ok {
			continue
		}
		sub := SubDimension{
			Name:       oneLine(d.need(f, "name", item, sp+".name")),
			Short:      strings.TrimSpace(d.str(f["short"], sp+".short", false)),
			Definition: strings.TrimSpace(d.str(f["definition"], sp+".definition", false)),
		}
		if sub.Short == "" {
			sub.Short = shortOf(sub.Name)
		}
		if !shortPattern.MatchString(sub.Short) {
			d.add(at(f["short"], item), sp+".short", "%q: want 1 to 12 letters or digits", sub.Short)
		}
		if sub.Name != "" && names[strings.ToLower(sub.Name)] {
			d.add(at(f["name"], item), sp+".name", "%q appears twice in this dimension", sub.Name)
		}
		if shorts[strings.ToUpper(sub.Short)] {
			d.add(at(f["short"], item), sp+".short", "%q is used by another sub-dimension; give each its own short code", sub.Short)
		}
		names[strings.ToLower(sub.Name)], shorts[strings.ToUpper(sub.Short)] = true, true
		d.leaf(&sub, f[leaf], item, sp, dimShort+"-"+sub.Short, questions)
		subs = append(subs, sub)
	}
	return subs
}

// leaf reads a criterion's seeds or questions.
func (d *ydec) leaf(sub *SubDimension, n, parent ast.Node, path, idPrefix string, questions bool) {
	if !questions {
		field := path + ".seeds"
		items := d.seq(n, field)
		if len(items) == 0 {
			d.add(at(n, parent), field, "missing: want at least one seed question")
		}
		for i, it := range items {
			s := oneLine(d.str(it, fmt.Sprintf("%s[%d]", field, i+1), true))
			if s != "" {
				sub.Seeds = append(sub.Seeds, s)
			}
		}
		return
	}
	field := path + ".questions"
	for i, it := range d.seq(n, field) {
		qp := fmt.Sprintf("%s[%d]", field, i+1)
		q := Question{ID: QuestionID(fmt.Sprintf("%s-%02d", idPrefix, i+1)), Origin: "hand"}
		if isMapping(it) {
			f, ok := d.fields(it, qp, "id", "text", "origin")
			if !ok {
				continue
			}
			if id := strings.TrimSpace(d.str(f["id"], qp+".id", false)); id != "" {
				q.ID = QuestionID(id)
			}
			q.Text = oneLine(d.need(f, "text", it, qp+".text"))
			q.Origin = strings.TrimSpace(d.str(f["origin"], qp+".origin", false))
		} else {
			q.Text = oneLine(d.str(it, qp, true))
		}
		if q.Text == "" {
			continue
		}
		if !idPattern.MatchString(string(q.ID)) {
			d.add(it, qp+".id", "%q: want letters, digits, '-', '_' or '.'", q.ID)
		}
		sub.Questions = append(sub.Questions, q)
	}
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

func isMapping(n ast.Node) bool {
	switch unwrap(n).(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return true
	}
	return false
}

// canonicalHash is the hex SHA-256 of the content that shapes prompts and scores, with
// white space normalised: editing comments, layout, origins or the removed list leaves
// it alone; editing a question, a definition or the domain changes it.
func canonicalHash(dom Domain, dims []Dimension, questions bool) string {
	type cq struct {
		ID   QuestionID `json:"id"`
		Text string     `json:"text"`
	}
	type csub struct {
		Name       string   `json:"name"`
		Short      string   `json:"short"`
		Definition string   `json:"definition"`
		Seeds      []string `json:"seeds,omitempty"`
		Questions  []cq     `json:"questions,omitempty"`
	}
	type cdim struct {
		Name       string `json:"name"`
		Short      string `json:"short"`
		Definition string `json:"definition"`
		Subs       []csub `json:"subdimensions"`
	}
	type cdoc struct {
		Kind        string `json:"kind"`
		Domain      string `json:"domain"`
		Description string `json:"description"`
		Player      string `json:"player"`
		PlayerRoles []Role `json:"player_roles"`
		Guidance    string `json:"guidance"`
		Dims        []cdim `json:"dimensions"`
	}
	doc := cdoc{Kind: "dimensions", Domain: oneLine(dom.Name), Description: oneLine(dom.Description),
		Player: oneLine(dom.Player), PlayerRoles: dom.PlayerRoles, Guidance: oneLine(dom.Guidance)}
	if questions {
		doc.Kind = "checklist"
	}
	for _, d := range dims {
		cd := cdim{Name: oneLine(d.Name), Short: d.Short, Definition: oneLine(d.Definition)}
		for _, s := range d.Subs {
			c := csub{Name: oneLine(s.Name), Short: s.Short, Definition: oneLine(s.Definition)}
			if questions {
				for _, q := range s.Questions {
					c.Questions = append(c.Questions, cq{q.ID, oneLine(q.Text)})
				}
			} else {
				for _, seed := range s.Seeds {
					c.Seeds = append(c.Seeds, oneLine(seed))
				}
			}
			cd.Subs = append(cd.Subs, c)
		}
		doc.Dims = append(doc.Dims, cd)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		panic(err) // strings and slices only
	}
	return store.Hash(b)
}
