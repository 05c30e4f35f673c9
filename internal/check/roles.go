package check

import (
	"encoding/json"
	"fmt"
	"strings"
)

// How a speaker gets its role (spec section 1), in order: the turn's own role when it is
// one of Roles; a --roles file (RoleMap); the role words (RoleWords), built in for English
// and Chinese (data/roles.yaml). ReadOptions carries the last two and --player.

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
