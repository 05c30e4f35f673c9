package check

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Prompt isolation (cli.md, Web: "Who may do what"): every text that comes from a
// transcript or a case file reaches the judge inside a data block, between dataOpen and
// dataClose. A turn's text and the case description are quoted JSON strings: a newline
// in them is written \n, so a turn cannot start a line that looks like another turn, a
// question or an answer, and the angle brackets are written \u003c and \u003e, so no
// text can close the block. Labels and ids (a speaker, the trial, the case, the outcome)
// are kept to one line without the characters that could do either. The judge's prompt
// says that what the blocks hold is evidence, never instructions.
const (
	dataOpen  = "<record>"
	dataClose = "</record>"
)

// quote is s as a JSON string: one line, its quotes and angle brackets escaped. An
// ampersand, which closes nothing, stays as it is for the judge to read.
func quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	// Unescaped, an angle bracket in the encoding is one of s's own.
	return angles.Replace(strings.TrimSuffix(b.String(), "\n"))
}

var angles = strings.NewReplacer("<", `\u003c`, ">", `\u003e`)

// label is a speaker's label or an id, kept to one line that can neither open nor close
// a block nor start a turn of its own.
func label(s string) string {
	return oneLine(strings.Map(func(r rune) rune {
		switch {
		case r < ' ', r == 0x7f, r == 0x85, r == 0x2028, r == 0x2029:
			return ' '
		case strings.ContainsRune(`<>"[]`, r):
			return -1
		}
		return r
	}, s))
}

// withheld replaces the text of a player's turn in what the judge sees. The turn keeps
// its place, so the judge knows someone spoke, but none of its words reach the evidence.
const withheld = "[player turn withheld: written by the human player and not evaluated]"

// IsPlayerTurn reports whether a turn is the human player's: flagged as such, or spoken
// in one of the domain's player roles. Both count, so a mislabelled turn stays out.
func IsPlayerTurn(d *Domain, t Turn) bool {
	return t.Player || slices.Contains(d.PlayerRoles, t.Role)
}

// playerNouns name the player in the judge's prompt when a transcript says which role
// the human played (Transcript.PlayerRole).
var playerNouns = map[Role]string{
	RoleJudge: "the judge", RoleProsecutor: "the prosecutor", RoleWitness: "a witness",
	RoleDefense: "the defense", RoleParty: "a party to the case", RoleNarrator: "the narrator",
	RoleSystem: "the system",
}

// domainFor is the domain as the judge sees it for t: when t says which role the human
// played (--player) and the domain's player roles are other, that role replaces them,
// so the turns withheld are exactly the player's and the prompt names the right player.
func domainFor(d Domain, t *Transcript) Domain {
	r := t.PlayerRole
	if r == "" || slices.Equal(d.PlayerRoles, []Role{r}) {
		return d
	}
	if len(d.PlayerRoles) > 0 || d.Player == "" {
		d.Player = playerNouns[r]
	}
	d.PlayerRoles = []Role{r}
	return d
}

// Evidence is the part of the judge's prompt that shows a transcript: the session record
// (completion, restarts, outcome) and the numbered conversation, with every player turn
// withheld, each in a data block. It is the only view of a transcript a judge model ever
// gets.
// An empty turn (a player who pressed Enter) is not shown at all; the other turns keep
// their numbers.
func Evidence(d *Domain, t *Transcript) string {
	dom := domainFor(*d, t)
	d = &dom
	var b strings.Builder
	b.WriteString("# Session record\n" + dataOpen + "\n")
	fmt.Fprintf(&b, "Trial %s", label(string(t.TrialID)))
	if t.CaseID != "" {
		fmt.Fprintf(&b, ", case %s", label(t.CaseID))
	}
	b.WriteString(".\n")
	switch {
	case t.Completed == nil:
		b.WriteString("Reached the end of the session: not recorded.\n")
	case *t.Completed:
		b.WriteString("Reached the end of the session: yes.\n")
	default:
		b.WriteString("Reached the end of the session: no.\n")
	}
	fmt.Fprintf(&b, "Restarts needed: %d.\n", t.Retries)
	if t.Outcome != "" {
		fmt.Fprintf(&b, "Recorded outcome: %s.\n", label(t.Outcome))
	}
	b.WriteString(dataClose + "\n\n# Conversation history\n" + dataOpen + "\n")
	for i, turn := range t.Turns {
		if strings.TrimSpace(turn.Text) == "" {
			continue
		}
		who := label(turn.Speaker)
		if IsPlayerTurn(d, turn) {
			fmt.Fprintf(&b, "[T%d] %s (player): %s\n", i+1, playerLabel(turn), withheld)
			continue
		}
		if turn.Role == RoleSystem {
			who = "System note"
		}
		fmt.Fprintf(&b, "[T%d] %s: %s\n", i+1, who, quote(strings.TrimSpace(turn.Text)))
	}
	b.WriteString(dataClose + "\n")
	return b.String()
}

// playerLabel names a player's turn by its role alone: a speaker label is written by the
// player's side too, and could carry words of its own.
func playerLabel(t Turn) string {
	if t.Role == "" {
		return "Player"
	}
	r := string(t.Role)
	return strings.ToUpper(r[:1]) + r[1:]
}
