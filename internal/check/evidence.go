package check

import (
	"fmt"
	"slices"
	"strings"
)

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
// withheld. It is the only view of a transcript a judge model ever gets.
// An empty turn (a player who pressed Enter) is not shown at all; the other turns keep
// their numbers.
func Evidence(d *Domain, t *Transcript) string {
	dom := domainFor(*d, t)
	d = &dom
	var b strings.Builder
	b.WriteString("# Session record\n")
	fmt.Fprintf(&b, "Trial %s", t.TrialID)
	if t.CaseID != "" {
		fmt.Fprintf(&b, ", case %s", t.CaseID)
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
		fmt.Fprintf(&b, "Recorded outcome: %s.\n", oneLine(t.Outcome))
	}
	b.WriteString("\n# Conversation history\n")
	for i, turn := range t.Turns {
		if strings.TrimSpace(turn.Text) == "" {
			continue
		}
		label := oneLine(turn.Speaker)
		if IsPlayerTurn(d, turn) {
			fmt.Fprintf(&b, "[T%d] %s (player): %s\n", i+1, playerLabel(turn), withheld)
			continue
		}
		if turn.Role == RoleSystem {
			label = "System note"
		}
		text := strings.ReplaceAll(strings.TrimSpace(turn.Text), "\n", "\n    ")
		fmt.Fprintf(&b, "[T%d] %s: %s\n", i+1, label, text)
	}
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
