package check

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"sync"
	"unicode"

	"github.com/arbiter-eval/arbiter/internal/input"
)

//go:embed data/roles.yaml
var builtinRoleWordsYAML []byte

// RoleWords are the words that place a speaker by its name (data/roles.yaml says how).
type RoleWords struct {
	// roles are in precedence order: when a name holds words of several roles, the
	// first listed wins (after words outside parentheses over words inside them).
	roles  []roleWord
	player []roleWord
}

type roleWord struct {
	role Role
	rank int    // the position of the word's role group; lower wins
	text string // lower-cased
	// tokens are the words of text, matched in a row; nil for a word of a script
	// written without spaces, matched anywhere.
	tokens []string
}

var builtinRoleWords = sync.OnceValue(func() *RoleWords {
	w, err := ParseRoleWords(builtinRoleWordsYAML, "builtin role words")
	if err != nil {
		panic(err) // the embedded file is tested
	}
	return w
})

// BuiltinRoleWords returns the English and Chinese role words of spec section 1.
func BuiltinRoleWords() *RoleWords { return builtinRoleWords() }

// With returns w's words before more's: w's roles rank first.
func (w *RoleWords) With(more *RoleWords) *RoleWords {
	out := &RoleWords{player: append(append([]roleWord{}, w.player...), more.player...)}
	out.roles = append(out.roles, w.roles...)
	top := 0
	for _, rw := range w.roles {
		top = max(top, rw.rank+1)
	}
	for _, rw := range more.roles {
		rw.rank += top
		out.roles = append(out.roles, rw)
	}
	return out
}

// LoadRoleWords reads a file of role words in the form of data/roles.yaml.
func LoadRoleWords(file string) (*RoleWords, error) {
	data, err := input.ReadYAMLFile(context.Background(), file)
	if err != nil {
		return nil, err
	}
	return ParseRoleWords(data, file)
}

// ParseRoleWords reads role words in the form of data/roles.yaml; file labels errors.
func ParseRoleWords(data []byte, file string) (*RoleWords, error) {
	body, err := parseYAML(data, file)
	if err != nil {
		return nil, err
	}
	d := &ydec{file: file}
	w := &RoleWords{}
	top, ok := d.fields(body, "", "player", "roles")
	if !ok {
		return nil, d.err()
	}
	for i, n := range d.seq(top["player"], "player") {
		if s := d.str(n, fmt.Sprintf("player[%d]", i+1), true); strings.TrimSpace(s) != "" {
			w.player = append(w.player, newRoleWord("", 0, s))
		}
	}
	for i, g := range d.seq(top["roles"], "roles") {
		field := fmt.Sprintf("roles[%d]", i+1)
		f, ok := d.fields(g, field, "role", "words")
		if !ok {
			continue
		}
		r := Role(strings.ToLower(strings.TrimSpace(d.need(f, "role", g, field+".role"))))
		if r != "" && !r.valid() {
			d.add(f["role"], field+".role", "%q is not a role (want one of %s)", r, rolesList())
			continue
		}
		words := d.seq(f["words"], field+".words")
		if len(words) == 0 {
			d.add(at(f["words"], g), field+".words", "missing: want a list of the words that name this role")
		}
		for k, n := range words {
			if s := d.str(n, fmt.Sprintf("%s.words[%d]", field, k+1), true); strings.TrimSpace(s) != "" {
				w.roles = append(w.roles, newRoleWord(r, i, s))
			}
		}
	}
	if err := d.err(); err != nil {
		return nil, err
	}
	return w, nil
}

func newRoleWord(r Role, rank int, s string) roleWord {
	rw := roleWord{role: r, rank: rank, text: strings.ToLower(strings.TrimSpace(s))}
	if !unspaced(rw.text) {
		rw.tokens = nameTokens(rw.text)
	}
	return rw
}

// unspaced reports whether s is written in a script without spaces between words, whose
// words are found anywhere in a name.
func unspaced(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar) {
			return true
		}
	}
	return false
}

// nameToken is a word of a speaker's name.
type nameToken struct {
	text  string
	inner bool // inside parentheses
}

func nameTokens(s string) []string {
	var out []string
	for _, t := range tokenize(s) {
		out = append(out, t.text)
	}
	return out
}

// tokenize splits a lower-cased name into its words: letters and digits, everything
// else (spaces, _, -, ', brackets) between them.
func tokenize(s string) []nameToken {
	var out []nameToken
	depth, start := 0, -1
	flush := func(end int) {
		if start >= 0 {
			out = append(out, nameToken{s[start:end], depth > 0})
			start = -1
		}
	}
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
		switch r {
		case '(', '（':
			depth++
		case ')', '）':
			depth = max(depth-1, 0)
		}
	}
	flush(len(s))
	return out
}

// depthAt is how many parentheses are open at byte i of s.
func depthAt(s string, i int) int {
	depth := 0
	for _, r := range s[:i] {
		switch r {
		case '(', '（':
			depth++
		case ')', '）':
			depth = max(depth-1, 0)
		}
	}
	return depth
}

// find reports whether name (lower-cased, with its tokens) holds the word, and whether
// one occurrence stands outside parentheses.
func (rw *roleWord) find(name string, toks []nameToken) (found, outside bool) {
	if rw.tokens == nil {
		for off := 0; ; {
			i := strings.Index(name[off:], rw.text)
			if i < 0 {
				return found, outside
			}
			found = true
			if depthAt(name, off+i) == 0 {
				return true, true
			}
			off += i + len(rw.text)
		}
	}
	if len(rw.tokens) == 0 {
		return false, false
	}
	for i := 0; i+len(rw.tokens) <= len(toks); i++ {
		match := true
		for k, want := range rw.tokens {
			if toks[i+k].text != want {
				match = false
				break
			}
		}
		if match {
			found = true
			if !toks[i].inner {
				return true, true
			}
		}
	}
	return found, outside
}

// role finds the role a speaker's name gives, and the word that gave it.
func (w *RoleWords) role(speaker string) (Role, string, bool) {
	name := strings.ToLower(speaker)
	toks := tokenize(name)
	best := -1
	bestOutside := false
	for i := range w.roles {
		found, outside := w.roles[i].find(name, toks)
		if !found {
			continue
		}
		if best < 0 || (outside && !bestOutside) || (outside == bestOutside && w.roles[i].rank < w.roles[best].rank) {
			best, bestOutside = i, outside
		}
	}
	if best < 0 {
		return "", "", false
	}
	return w.roles[best].role, w.roles[best].text, true
}

// playerWord finds a player word in a speaker's name.
func (w *RoleWords) playerWord(speaker string) (string, bool) {
	name := strings.ToLower(speaker)
	toks := tokenize(name)
	for i := range w.player {
		if found, _ := w.player[i].find(name, toks); found {
			return w.player[i].text, true
		}
	}
	return "", false
}
