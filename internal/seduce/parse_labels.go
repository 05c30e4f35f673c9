package seduce

import (
	"regexp"
	"strings"
)

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
	if c, ok := skillBeforeReason(v, tax); ok {
		return c, true // "Skill check: First Aid (stabilise the bleeding)"
	}
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

// reasonAfterSkill sets a roll label's skill apart from what follows it: a dash, a
// comma, a semicolon, a stop, or "vs" and the opposing side.
var reasonAfterSkill = regexp.MustCompile(`\s+[—–-]+\s+|\s*[—–]\s*|,\s+|;\s+|\.\s+|\s+(?:vs\.?|versus|against)\s+`)

// reasonOpens are words in a label's reason that may take the ruling back or leave it
// open; a reason holding one is not read by rolledSkillReason.
var reasonOpens = regexp.MustCompile(`\b(?:roll|rolls|rolling|check|checks|dice|die|auto|automatic|automatically|no|not|never|nothing|maybe|perhaps|probably|possibly|unless|if|or|either|whether|guess|think|unsure|sure|call)\b|n['’]t\b|\?`)

// rolledSkillReason reads a roll label's value that names the skill and then gives a
// reason or the opposing side: "Roll: Drive Auto — wet cobbles", "Roll: Fighting
// (Sword) vs. the cultist's Dodge", "ROLL NEEDED: Climb, the bricks are wet". The
// name before the break must be the taxonomy's skill or another of CoC's (kept as
// written); the reason must not name a roll, a negation or a hedge.
func rolledSkillReason(value string, tax *Taxonomy) (string, bool) {
	loc := reasonAfterSkill.FindStringIndex(value)
	if loc == nil || loc[0] == 0 {
		return "", false
	}
	head, rest := strings.TrimSpace(value[:loc[0]]), value[loc[1]:]
	if head == "" || reasonOpens.MatchString(foldLower(rest)) {
		return "", false
	}
	if c, known := tax.Canonical(skillValue(head, tax)); known {
		return c, true
	}
	if _, yn := yesNo(head); yn || decisionWord(head, tax) != "" || refusedValue(head) {
		return "", false
	}
	// A name the taxonomy does not know is kept as written only when it is one of
	// CoC's other skills ("Drive Auto", "Art (Painting)"): a capitalised name may be
	// any words ("Totally Fine").
	if n := otherSkill(head); n != "" {
		return n, true
	}
	return "", false
}

// otherSkill is name as written when it is one of otherSkills, capitalised as a
// skill's name is and not an everyday word alone ("Ride", "Law", "History", a bare
// "Language" or "Science": commonNames, familyOnly), or such a skill's family with a
// specialisation ("Art (Painting)", "Science (Chemistry)", "Pilot (Aircraft)",
// "Language (Latin)"); "" otherwise.
func otherSkill(name string) string {
	name = strings.TrimSpace(name)
	if !capitalised(name) {
		return ""
	}
	if k := otherSkillKey(name); k != "" && !commonNames[k] && !familyOnly[k] {
		return name
	}
	if specialised.MatchString(name) {
		return name
	}
	return ""
}

// familyOnly are the otherSkills keys of families that are read only with their
// specialisation.
var familyOnly = map[string]bool{"language": true, "science": true, "art/craft": true, "own language": true}

// specialised is a CoC skill family that is written with its specialisation.
var specialised = regexp.MustCompile(`^(?:Art|Craft|Art/Craft|Science|Pilot|Language|Language \(Other\)|Survival|Lore|Operate)\s*\([A-Z][A-Za-z /'’-]*\)$`)
