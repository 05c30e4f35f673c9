package seduce

import (
	"regexp"
	"strings"
)

// cutField is what follows the last whole field of a JSON answer cut off: a comma and
// the start of a later field, its key (group 1, maybe cut itself) and what there is
// of its value (group 2).
var cutField = regexp.MustCompile(`^\s*,\s*["']([A-Za-z_ -]*)(?:["']\s*:\s*["']?((?s).*))?$`)

// fenceOnly is what may follow a JSON answer that lost only its closing brace: space
// and the end of a code fence.
var fenceOnly = regexp.MustCompile("^[\\s,]*(?:```\\s*)?$")

// maxCutReason bounds the cut reason truncatedAfterRuling reads, to keep the parser
// linear in a reply's length.
const maxCutReason = 2000

// truncatedAfterRuling reads a JSON answer cut off after its ruling was complete (the
// labelling rules: "a truncation after a complete ruling keeps the ruling"). The cut
// must fall after the decision's value and, for a roll, the skill's, inside a later
// field or in place of the closing brace; the cut field must not be the decision or
// the skill, and what there is of a cut reason must not rule the other way. It
// returns the object with its span running to the end of the reply's JSON.
func truncatedAfterRuling(body string, o jsonObj, tax *Taxonomy, lex *Lexicon) (jsonObj, bool) {
	if len(o.r.votes) != 1 || o.r.bad || o.r.refused {
		return o, false
	}
	d := o.r.votes[0]
	if d == DecisionRoll && o.r.skill == "" {
		return o, false // the roll's skill may be what was cut
	}
	rest := body[o.to:]
	end := len(body)
	switch m := cutField.FindStringSubmatchIndex(rest); {
	case fenceOnly.MatchString(rest):
	case m != nil:
		key := normWords(rest[m[2]:m[3]])
		if key == "" || strings.HasPrefix("skill", key) || strings.HasPrefix("decision", key) {
			return o, false
		}
		switch classifyKey(key) {
		case keyDecision, keyMaybe, keyNeedRoll, keyAuto, keySkill:
			return o, false
		}
		if m[4] >= 0 {
			part := rest[m[4]:]
			if len(part) > maxCutReason {
				return o, false // a long cut reason is not read, and may turn
			}
			if strings.Trim(part, ".…\" \n") == "" && strings.ContainsAny(part, ".…") {
				return o, false // "reason": "...: the template's placeholder, not an answer
			}
			if i := strings.Index(part, "```"); i >= 0 {
				part, end = part[:i], o.to+m[4]+i
			}
			if t := proseTally(part, tax, lex); t.n > 0 {
				if pd, _, _, _ := t.outcome(false); pd != d {
					return o, false
				}
			}
			if o.r.reason == "" {
				o.r.reason = strings.TrimSpace(part)
			}
		}
	default:
		return o, false
	}
	o.to, o.truncated = end, false
	return o, true
}
