package seduce

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"

	"github.com/arbiter-eval/arbiter/internal/input"
)

//go:embed data/taxonomy.yaml
var defaultTaxonomyYAML []byte

// Taxonomy is the skill list of the benchmark: the settings, the skill domains, the
// skills in each domain and the other names a skill goes by. It is data
// (data/taxonomy.yaml) so that a user can replace it; a loaded Taxonomy is immutable and
// safe for concurrent use.
type Taxonomy struct {
	// Source names where the taxonomy came from: "builtin" or a file path.
	Source string

	settings      []Setting
	categories    []Category
	categoryNames map[Category]string
	skills        []string // canonical names in file order
	skillsIn      map[Category][]string
	categoryOf    map[string]Category // canonical skill -> category
	index         map[string]string   // normalised skill or alias -> canonical skill
	// starts are the first words of the skills' names, lower-cased: the words a clause
	// naming a skill alone opens with.
	starts map[string]bool
	// heads are the first words of every name the taxonomy knows (skills and aliases),
	// as keyHead reads them: a name Canonical knows starts with one of them, so the
	// parser asks Canonical only about words that start one.
	heads map[string]bool
	// text is the YAML the taxonomy was parsed from, which a run records so that a
	// worker on another machine reads replies with the same skills.
	text []byte
}

// Text is the YAML the taxonomy was parsed from.
func (t *Taxonomy) Text() []byte { return t.text }

// taxonomyFile is the YAML layout of a taxonomy file.
type taxonomyFile struct {
	Settings   []string `yaml:"settings"`
	Categories []struct {
		ID     string   `yaml:"id"`
		Name   string   `yaml:"name"`
		Skills []string `yaml:"skills"`
	} `yaml:"categories"`
	Aliases map[string]string `yaml:"aliases"`
}

var defaultTaxonomy = sync.OnceValue(func() *Taxonomy {
	t, err := ParseTaxonomy(defaultTaxonomyYAML, "builtin")
	if err != nil {
		// The embedded file is tested; a failure here is a build defect, not user input.
		panic(err)
	}
	return t
})

// DefaultTaxonomy returns the bundled taxonomy of spec section 1: 16 skills in 4 domains
// and the 4 settings. Every call returns the same immutable value.
func DefaultTaxonomy() *Taxonomy { return defaultTaxonomy() }

// LoadTaxonomy reads a taxonomy YAML file laid out like data/taxonomy.yaml.
func LoadTaxonomy(path string) (*Taxonomy, error) {
	data, err := input.ReadYAMLFile(context.Background(), path)
	if err != nil {
		return nil, err
	}
	return ParseTaxonomy(data, path)
}

// ParseTaxonomy parses taxonomy YAML; name labels errors and becomes Source. Every
// problem in the file is reported, one per line.
func ParseTaxonomy(data []byte, name string) (*Taxonomy, error) {
	var f taxonomyFile
	if err := input.DecodeYAML(name, data, &f, yaml.DisallowUnknownField()); err != nil {
		var ve *input.ValidationError
		if errors.As(err, &ve) {
			return nil, err
		}
		return nil, fmt.Errorf("taxonomy %s: %w", name, err)
	}
	t := &Taxonomy{
		Source:        name,
		text:          data,
		categoryNames: map[Category]string{},
		skillsIn:      map[Category][]string{},
		categoryOf:    map[string]Category{},
		index:         map[string]string{},
	}
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("taxonomy %s: "+format, append([]any{name}, args...)...))
	}

	if len(f.Settings) == 0 {
		bad("settings: none listed")
	}
	for _, s := range f.Settings {
		s = strings.TrimSpace(s)
		switch {
		case s == "":
			bad("settings: empty name")
		case slices.Contains(t.settings, Setting(s)):
			bad("settings: %q listed twice", s)
		default:
			t.settings = append(t.settings, Setting(s))
		}
	}

	if len(f.Categories) == 0 {
		bad("categories: none listed")
	}
	for i, c := range f.Categories {
		id := Category(strings.TrimSpace(c.ID))
		switch {
		case id == "":
			bad("categories[%d]: id is empty", i)
			continue
		case slices.Contains(t.categories, id):
			bad("categories: %q listed twice", id)
			continue
		}
		t.categories = append(t.categories, id)
		t.categoryNames[id] = strings.TrimSpace(c.Name)
		if len(c.Skills) == 0 {
			bad("categories[%s]: no skills", id)
		}
		for _, s := range c.Skills {
			s = strings.Join(strings.Fields(s), " ")
			key := normSkill(s)
			switch {
			case key == "":
				bad("categories[%s]: empty skill name", id)
			case strings.ContainsAny(s, "()"):
				bad("categories[%s]: skill %q: a skill name may not hold parentheses (they mark a specialisation)", id, s)
			case t.index[key] != "":
				bad("categories[%s]: skill %q listed twice (also in %s)", id, s, t.categoryOf[t.index[key]])
			default:
				t.index[key] = s
				t.skills = append(t.skills, s)
				t.skillsIn[id] = append(t.skillsIn[id], s)
				t.categoryOf[s] = id
			}
		}
	}

	aliases := make([]string, 0, len(f.Aliases))
	for a := range f.Aliases {
		aliases = append(aliases, a)
	}
	sort.Strings(aliases)
	seen := map[string]string{}
	for _, a := range aliases {
		target := f.Aliases[a]
		key := normSkill(a)
		_, ok := t.index[normSkill(target)]
		switch {
		case key == "":
			bad("aliases: empty alias for %q", target)
		case !ok:
			bad("aliases: %q points to %q, which is not a skill of this taxonomy", a, target)
		case t.index[key] != "":
			bad("aliases: %q is already a skill name", a)
		case seen[key] != "":
			bad("aliases: %q repeats alias %q", a, seen[key])
		default:
			seen[key] = a
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	for _, a := range aliases {
		t.index[normSkill(a)] = t.index[normSkill(f.Aliases[a])]
	}
	t.starts, t.heads = map[string]bool{}, map[string]bool{}
	for _, s := range t.skills {
		t.starts[firstWord(asciiLower(s))] = true
	}
	for key := range t.index {
		t.heads[keyHead(key)] = true
	}
	return t, nil
}

// specialisation splits "Family (Specialisation)" into its family.
var specialisation = regexp.MustCompile(`^(.+?)\s*\(.*\)$`)

// family is specialisation's family of key (a normSkill key), found by hand: the
// parser asks Canonical of every run of up to three words of a reply, and the regular
// expression and normSkill's allocations were a fifth of the time it took to read a
// short reply. TestFamilyMatchesRegexp holds the two to the same answers.
func family(key string) (string, bool) {
	if len(key) < 3 || key[len(key)-1] != ')' {
		return "", false
	}
	i := strings.IndexByte(key[1:], '(')
	if i < 0 {
		return "", false
	}
	// The family is at least one byte; the spaces after it are not part of it.
	f := strings.TrimRight(key[:i+1], " \t\n\f\r")
	if f == "" {
		f = key[:1]
	}
	return f, true
}

// normSkill is the comparison key of a skill name: lower case, with any run of spaces,
// dashes or underscores read as one space and no spaces around a slash.
func normSkill(s string) string {
	if k, ok := normASCII(s); ok {
		return k
	}
	return normUnicode(s)
}

// normUnicode is normSkill of any name.
func normUnicode(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '\u00a0' {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(strings.ReplaceAll(s, " /", "/"), "/ ", "/")
}

// normASCII is normSkill of an ASCII name in one pass, without allocating when s is its
// own key; it reports false for a name with other bytes. TestNormASCII holds it to
// normUnicode.
func normASCII(s string) (string, bool) {
	var buf [64]byte
	b := buf[:0]
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			return "", false
		case c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || c == '-' || c == '_':
			space = true
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		// A space is kept only between two words, and never beside a slash.
		if space && len(b) > 0 && c != '/' && b[len(b)-1] != '/' {
			b = append(b, ' ')
		}
		space = false
		b = append(b, c)
	}
	if string(b) == s {
		return s, true
	}
	return string(b), true
}

// Canonical returns the taxonomy's name for a skill name, alias or "Family
// (Specialisation)" whose family is known, comparing case-insensitively and tolerating
// extra whitespace. It reports false for a name the taxonomy does not know.
func (t *Taxonomy) Canonical(name string) (string, bool) {
	key := normSkill(name)
	if key == "" {
		return "", false
	}
	if c, ok := t.index[key]; ok {
		return c, true
	}
	if f, ok := family(key); ok {
		if c, ok := t.index[f]; ok {
			return c, true
		}
	}
	return "", false
}

// CategoryOf returns the domain of a skill, given by any name Canonical accepts.
func (t *Taxonomy) CategoryOf(skill string) (Category, bool) {
	c, ok := t.Canonical(skill)
	if !ok {
		return "", false
	}
	return t.categoryOf[c], true
}

// Skills returns the canonical skill names in file order.
func (t *Taxonomy) Skills() []string { return slices.Clone(t.skills) }

// SkillsIn returns the canonical skills of one domain in file order.
func (t *Taxonomy) SkillsIn(c Category) []string { return slices.Clone(t.skillsIn[c]) }

// Settings returns the settings in file order.
func (t *Taxonomy) Settings() []Setting { return slices.Clone(t.settings) }

// Categories returns the domain ids in file order.
func (t *Taxonomy) Categories() []Category { return slices.Clone(t.categories) }

// CategoryName returns a domain's display name ("Combat" for CMB), or the id itself
// when the file gives none.
func (t *Taxonomy) CategoryName(c Category) string {
	if n := t.categoryNames[c]; n != "" {
		return n
	}
	return string(c)
}

// HasSetting reports whether s is one of the taxonomy's settings (exact match).
func (t *Taxonomy) HasSetting(s Setting) bool { return slices.Contains(t.settings, s) }

// HasCategory reports whether c is one of the taxonomy's domains (exact match).
func (t *Taxonomy) HasCategory(c Category) bool { return slices.Contains(t.categories, c) }
