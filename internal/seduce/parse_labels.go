package seduce

import "strings"

// calledCheck reads a label that calls for a check by naming its skill: "Check:
// Strength (Jump)", "Skill check: Handgun". The key must name a check and the value be
// a skill the taxonomy knows (through an alias, a specialisation or an Ability (Skill)
// form), with nothing after it but a reason set off by a dash, a comma or a stop.
func calledCheck(key, value string, tax *Taxonomy) (string, bool) {
	switch strings.ReplaceAll(strings.Trim(normWords(key), " ?"), " ", "_") {
	case "check", "skill_check", "check_needed", "check_required":
	default:
		return "", false
	}
	v := strings.TrimSpace(value)
	if i := strings.IndexAny(v, "—–,;.!"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	if v == "" || len(strings.Fields(v)) > 4 {
		return "", false
	}
	if c, known := tax.Canonical(skillValue(v, tax)); known {
		return c, true
	}
	return "", false
}
