package check

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"sync"
	"unicode"

	"github.com/goccy/go-yaml/ast"

	"github.com/arbiter-eval/arbiter/internal/input"
)

// How a speaker gets its role (spec section 1), in order: the turn's own role when it is
// one of Roles; a --roles file (RoleMap); the role words (RoleWords), built in for English
// and Chinese (data/roles.yaml). ReadOptions carries the last two and --player.

//go:embed data/roles.yaml
var builtinRoleWordsYAML []byte

// ReadOptions say how transcripts are read: who is who, and who the human was.
type ReadOptions struct {
	// Roles is a --roles file; nil for none.
	Roles *RoleMap
	// Words are the role words; nil means the built-in ones.
	Words *RoleWords
	// Player is the role the human played (--player) in a transcript that does not mark
	// its player turns itself; "" means defense, the default, unstated. When stated, the
	// transcripts read carry it (Transcript.PlayerRole) and the judge withholds that
	// role's turns instead of the checklist's player roles.
	Player Role
}

// NewReadOptions checks --roles, --role-words and --player: each may be empty.
func NewReadOptions(rolesFile, wordsFile, player string) (ReadOptions, error) {
	var o ReadOptions
	if player != "" {
		r := Role(strings.ToLower(strings.TrimSpace(player)))
		if !r.valid() {
			return o, fmt.Errorf("--player %q: want one of %s", player, rolesList())
		}
		o.Player = r
	}
	if rolesFile != "" {
		m, err := LoadRoleMap(rolesFile)
		if err != nil {
			return o, err
		}
		o.Roles = m
	}
	if wordsFile != "" {
		w, err := LoadRoleWords(wordsFile)
		if err != nil {
			return o, err
		}
		o.Words = w.With(BuiltinRoleWords())
	}
	return o, nil
}

func (o *ReadOptions) playerRole() Role {
	if o.Player == "" {
		return RoleDefense
	}
	return o.Player
}

func (o *ReadOptions) words() *RoleWords {
	if o.Words == nil {
		return BuiltinRoleWords()
	}
	return o.Words
}

// placement is where a speaker stands, and why.
type placement struct {
	role     Role
	roleFrom string
	// player is what a --roles entry or a player word says of the speaker's turns; nil
	// when neither says anything.
	player     *bool
	playerFrom string
}

// place finds the role of speaker, whose turn carries role as written (maybe "").
func (o *ReadOptions) place(speaker, role string) (placement, bool) {
	var pl placement
	if r := Role(strings.ToLower(strings.TrimSpace(role))); r.valid() {
		pl.role, pl.roleFrom = r, fmt.Sprintf("the turn's role %q", string(r))
	}
	if e := o.Roles.lookup(speaker); e != nil {
		from := fmt.Sprintf("--roles %s (%s:%d)", jsonQuote(e.pattern), o.Roles.File, e.line)
		if pl.role == "" {
			pl.role, pl.roleFrom = e.role, from
		}
		if e.player != nil {
			pl.player, pl.playerFrom = e.player, from
		}
	}
	w := o.words()
	if pl.role == "" {
		if r, word, ok := w.role(speaker); ok {
			pl.role, pl.roleFrom = r, fmt.Sprintf("word %q", word)
		}
	}
	if pl.player == nil {
		if word, ok := w.playerWord(speaker); ok {
			yes := true
			pl.player, pl.playerFrom = &yes, fmt.Sprintf("word %q", word)
			if pl.role == "" {
				pl.role, pl.roleFrom = o.playerRole(), fmt.Sprintf("word %q: the player's role (--player %s)", word, o.playerRole())
			}
		}
	}
	return pl, pl.role != ""
}

// unplaced says that nothing placed speaker, and which line of a --roles file would.
func (o *ReadOptions) unplaced(speaker, role string) string {
	why := "its name holds no role word"
	if r := strings.TrimSpace(role); r != "" && r != speaker && !chatRoles[strings.ToLower(r)] {
		why = fmt.Sprintf("its role %q is not one of the roles and its name holds no role word", r)
	}
	where := "a --roles file"
	if o.Roles != nil {
		where = o.Roles.File
	}
	return fmt.Sprintf("%s has no role (%s): add the line %s: {role: ROLE} to %s, ROLE one of %s",
		jsonQuote(speaker), why, jsonQuote(speaker), where, rolesList())
}

// chatRoles are the roles of chat messages, which say nothing of a courtroom role.
var chatRoles = map[string]bool{"user": true, "assistant": true, "model": true, "tool": true, "function": true, "developer": true}

// jsonQuote quotes s as JSON does, which YAML reads as the same text, without escaping
// HTML characters.
func jsonQuote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err) // a string always encodes
	}
	return strings.TrimSuffix(b.String(), "\n")
}

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
