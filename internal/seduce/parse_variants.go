package seduce

import (
	"regexp"
	"strings"
)

// Variants of rounds 6-7's English rules (issue 29, round 8): the same grammar read
// in its other inflections, marks and word orders.

// reasonDeclines is a JSON reason that opens by declining, in any inflection:
// "Declined: real-world violence", "Refused — graphic harm", "Declines to adjudicate;
// …". Declining to do something else ("Declined to specify the lock") is not one.
var reasonDeclines = regexp.MustCompile(`^(?:request\s+)?(?:declin(?:e|ed|es|ing)|refus(?:e|ed|es|ing)|abstain(?:s|ed|ing)?|withheld)(?:\s*[:—–]|\s+-\s|\s+to\s+(?:rule|adjudicate|judge|answer|engage|assist|help|participate|weigh\s+in|(?:give|make|provide|offer)\s+(?:a\s+|any\s+)?(?:ruling|call|decision|judgement|judgment|verdict)))`)

// declinedReason says a null decision's reason declines to rule.
func declinedReason(reason string) bool {
	return reasonDeclines.MatchString(strings.TrimLeft(foldLower(reason), " *_`\"'"))
}

// yesMarks and noMarks are the emoji and signs a table or list writes for yes and no.
var (
	yesMarks = []string{"✅", "✔️", "✔", "☑️", "☑", "✓", "👍", "🟢"}
	noMarks  = []string{"❌", "✖️", "✖", "✗", "✘", "❎", "🚫", "⛔", "👎", "🔴"}
)

// markedYesNo reads a yes or no written with a mark beside the word, in either order:
// "✅ Yes", "No ❌", "✔️ required". The mark and the word must agree; a mark with a
// word that says neither ("✅ Maybe") is not read.
func markedYesNo(w string) (bool, bool) {
	if f := strings.Fields(w); len(f) == 2 && f[0] == f[1] && (f[0] == "yes" || f[0] == "no") {
		// A table's tick or cross is read as its word before the cell is: "✅ Yes"
		// comes here as "yes yes".
		return f[0] == "yes", true
	}
	mark, yes := "", false
	for _, m := range yesMarks {
		if strings.Contains(w, m) {
			mark, yes = m, true
			break
		}
	}
	if mark == "" {
		for _, m := range noMarks {
			if strings.Contains(w, m) {
				mark = m
				break
			}
		}
	}
	if mark == "" {
		return false, false
	}
	rest := strings.TrimSpace(strings.ReplaceAll(w, mark, ""))
	rest = strings.Trim(rest, "\ufe0f *`\"'.!:")
	if rest == "" || strings.ContainsAny(rest, "✅✔☑✓❌✖✗✘❎") {
		return false, false
	}
	b, ok := yesNo(rest)
	if !ok || b != yes {
		return false, false
	}
	return b, true
}

// parenReason sets a check label's skill apart from a parenthesis after it that gives
// the reason, "First Aid (stabilise the bleeding)": the skill before it and the
// parenthesis closing the value. A parenthesis that is a specialisation ("Fighting
// (Brawl)") is read with its skill before this is tried.
var parenReason = regexp.MustCompile(`^([^()]+?)\s*\(([^()]*)\)\s*[.!]?\s*$`)

// skillBeforeReason is the skill of a check label's value that gives its reason in a
// parenthesis, when the reason neither names a roll nor leaves the ruling open.
func skillBeforeReason(v string, tax *Taxonomy) (string, bool) {
	m := parenReason.FindStringSubmatch(v)
	if m == nil || len(strings.Fields(m[1])) > 4 || reasonOpens.MatchString(foldLower(m[2])) {
		return "", false
	}
	if c, known := tax.Canonical(skillValue(strings.TrimSpace(m[1]), tax)); known {
		return c, true
	}
	return "", false
}
