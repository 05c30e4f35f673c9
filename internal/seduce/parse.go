package seduce

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// The ways a reply can be read, recorded in Parsed.How.
const (
	HowJSON    = "json"    // the requested JSON object (fenced, in prose, or slightly broken)
	HowLines   = "lines"   // "Decision: … / Skill: …" lines
	HowProse   = "prose"   // a plain-language ruling
	HowRefusal = "refusal" // the model declined
	HowNone    = "none"    // nothing readable
)

// Parsed is the ruling read from one reply.
type Parsed struct {
	Decision Decision
	// Skill is the taxonomy's name for the skill the reply named, the reply's own words
	// when the taxonomy does not know it, or "" when it named none.
	Skill string
	// How says which reading produced the ruling: json, lines, prose, refusal or none.
	// A reply that used a format but whose ruling is unclear or contradicts itself keeps
	// that format's How with Decision unparsed.
	How string
	// Reason is the reply's own "reason" field, when it gave one.
	Reason string
	// Rule names what decided: one of the Rule constants.
	Rule string
	// Span is the text the deciding rule read (for a contradiction, the two rulings
	// that disagree, joined by " | "), cut to maxSpan bytes.
	Span string
}

// String reads "roll Climb (json)".
func (p Parsed) String() string {
	s := string(p.Decision)
	if p.Skill != "" {
		s += " " + p.Skill
	}
	return s + " (" + p.How + ")"
}

// FromReply parses a model's reply. A provider-reported refusal or content filter is
// refused whatever the text says.
func FromReply(r *llm.Reply, tax *Taxonomy) Parsed {
	if r == nil {
		return Parsed{Decision: DecisionUnparsed, How: HowNone}
	}
	if r.Finish == llm.FinishRefusal || r.Finish == llm.FinishContentFilter {
		return Parsed{Decision: DecisionRefused, How: HowRefusal}
	}
	if strings.TrimSpace(r.Text) == "" && strings.TrimSpace(r.Refusal) != "" {
		return Parsed{Decision: DecisionRefused, How: HowRefusal}
	}
	return ParseReply(r.Text, tax)
}

// ParseReply reads the ruling in a model's reply (spec section 3). It tries, in order,
// the requested JSON object, "Decision:" lines, and plain prose; the first format the
// reply uses decides, so a JSON answer is not second-guessed by the prose around it.
// Reasoning blocks (<think>, <thinking>, <reasoning>) are skipped. A reply with no
// ruling but a refusal is refused; anything unclear or self-contradictory is unparsed.
// A nil tax means DefaultTaxonomy.
func ParseReply(text string, tax *Taxonomy) Parsed {
	if tax == nil {
		tax = DefaultTaxonomy()
	}
	text = strings.TrimSpace(stripReasoning(text))
	if text == "" {
		return Parsed{Decision: DecisionUnparsed, How: HowNone}
	}
	if p, ok := parseJSONReply(text, tax); ok {
		return p
	}
	if p, ok := parseLooseJSON(text, tax); ok {
		return p
	}
	if p, ok := parseLines(text, tax); ok {
		return p
	}
	if p, ok := parseProse(text, tax); ok {
		return p
	}
	if isRefusal(text) {
		return Parsed{Decision: DecisionRefused, How: HowRefusal}
	}
	return Parsed{Decision: DecisionUnparsed, How: HowNone}
}

var (
	reasoningBlock = regexp.MustCompile(`(?is)<(?:think|thinking|reasoning)\b[^>]*>.*?</(?:think|thinking|reasoning)\s*>`)
	// A closing tag with no opening one: the opening tag was part of the prompt template.
	reasoningTail = regexp.MustCompile(`(?is)^.*</(?:think|thinking|reasoning)\s*>`)
	// An opening tag never closed: the model stopped while still thinking.
	reasoningOpen = regexp.MustCompile(`(?is)<(?:think|thinking|reasoning)\b[^>]*>.*$`)
)

func stripReasoning(text string) string {
	text = reasoningBlock.ReplaceAllString(text, "")
	text = reasoningTail.ReplaceAllString(text, "")
	return reasoningOpen.ReplaceAllString(text, "")
}

// ruling gathers the decisions one reply states; more than one distinct decision, or a
// value that cannot be read, makes the reply unparsed.
type ruling struct {
	votes  []Decision
	bad    bool
	skill  string
	reason string
}

func (r *ruling) vote(d Decision) { r.votes = append(r.votes, d) }

func (r *ruling) found() bool { return len(r.votes) > 0 || r.bad }

func (r *ruling) parsed(how string) Parsed {
	p := Parsed{Decision: DecisionUnparsed, How: how, Skill: r.skill, Reason: r.reason}
	if r.bad || len(r.votes) == 0 {
		return p
	}
	for _, v := range r.votes[1:] {
		if v != r.votes[0] {
			return p
		}
	}
	p.Decision = r.votes[0]
	return p
}

// keyKind classifies a JSON or "Key: value" key.
type keyKind int

const (
	keyOther    keyKind = iota
	keyDecision         // a word: roll, automatic_success, pass, …
	keyMaybe            // a key that holds a decision word only sometimes ("result")
	keyNeedRoll         // a yes/no: true means roll
	keyAuto             // a yes/no: true means automatic success
	keySkill
	keyReason
)

func classifyKey(k string) keyKind {
	k = strings.Trim(normWords(k), " ?")
	k = strings.ReplaceAll(k, " ", "_")
	switch k {
	case "decision", "ruling", "verdict", "adjudication":
		return keyDecision
	case "outcome", "result", "resolution", "call", "answer":
		return keyMaybe
	case "requires_roll", "require_roll", "roll_required", "needs_roll", "need_roll", "roll_needed",
		"roll", "dice_roll", "requires_dice_roll", "dice_roll_required", "requires_a_roll",
		"requires_check", "check_required", "skill_check_required", "needs_check", "roll_necessary",
		"skill_roll_required", "mandatory_roll", "is_roll_required", "needs_a_roll":
		return keyNeedRoll
	case "automatic_success", "auto_success", "automatic", "succeeds_automatically",
		"automatically_succeeds", "no_roll", "no_roll_needed", "auto_pass", "automatic_pass":
		return keyAuto
	case "skill", "skill_name", "relevant_skill", "skill_check", "skill_used", "skill_roll",
		"gold_skill", "applicable_skill":
		return keySkill
	case "reason", "reasoning", "rationale", "justification", "explanation":
		return keyReason
	}
	for _, suffix := range []string{"_decision", "_ruling", "_verdict"} {
		if strings.HasSuffix(k, suffix) {
			return keyDecision
		}
	}
	return keyOther
}

// normWords lowercases and reads dashes and underscores as spaces.
func normWords(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if r == '-' || r == '_' {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

var (
	rollWords = map[string]bool{
		"roll": true, "roll required": true, "requires roll": true, "requires a roll": true,
		"roll needed": true, "needs roll": true, "needs a roll": true, "dice roll": true,
		"skill roll": true, "check": true, "skill check": true, "roll check": true, "test": true,
		"skill test": true, "mandatory roll": true, "required": true, "make a roll": true,
		"must roll": true, "roll for it": true, "dice": true, "requires dice roll": true,
		"requires a dice roll": true, "roll the dice": true, "needs a check": true, "check required": true,
	}
	passWords = map[string]bool{
		"automatic success": true, "automatic": true, "automatically": true, "auto": true,
		"auto success": true, "autosuccess": true, "automatic pass": true, "auto pass": true,
		"automatically succeeds": true, "succeeds automatically": true, "automatically successful": true,
		"pass": true, "passes": true, "no roll": true, "no roll needed": true, "no roll required": true,
		"no roll necessary": true, "no check": true, "no check needed": true, "no dice": true,
		"success": true, "succeed": true, "succeeds": true, "no roll automatic success": true,
		"not required": true, "direct success": true, "automatic successes": true, "no_roll": true,
	}
	// decisionCut ends a decision word where an explanation starts.
	decisionCut = regexp.MustCompile(`\s+[-–—]\s+|[(,.;:!]|\s+because\s`)
)

// decisionWord reads a decision value: roll, automatic_success and their synonyms, or a
// short ruling in prose. It returns "" when the value says neither.
func decisionWord(v string, tax *Taxonomy) Decision {
	w := strings.Trim(normWords(v), " *`\"'.!")
	if rollWords[w] {
		return DecisionRoll
	}
	if passWords[w] {
		return DecisionPass
	}
	if loc := decisionCut.FindStringIndex(w); loc != nil {
		head := strings.Trim(w[:loc[0]], " *`\"'")
		if rollWords[head] {
			return DecisionRoll
		}
		if passWords[head] {
			return DecisionPass
		}
	}
	if p, ok := parseProse(v, tax); ok {
		return p.Decision
	}
	return ""
}

// yesNo reads a boolean value from JSON or text.
func yesNo(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case string:
		w := strings.Trim(normWords(x), " *`\"'.!")
		if i := decisionCut.FindStringIndex(w); i != nil && i[0] > 0 {
			w = strings.TrimSpace(w[:i[0]])
		}
		switch w {
		case "true", "yes", "y", "required", "needed", "mandatory", "necessary":
			return true, true
		case "false", "no", "n", "not required", "not needed", "unnecessary", "none":
			return false, true
		}
	}
	return false, false
}

var noSkill = map[string]bool{"": true, "null": true, "none": true, "n/a": true, "na": true, "nil": true,
	"-": true, "no skill": true, "not applicable": true, "no roll": true, "nothing": true}

var (
	skillDecoration = regexp.MustCompile(`(?i)^(?:an?\s+|the\s+)?(?:(?:hard|extreme|regular|opposed|difficult)\s+)?|\s+(?:skill\s+)?(?:roll|check|test|skill)$|\s*\(\s*\d+\s*%?\s*\)$|\s*\d+\s*%$`)
)

// skillValue reads a skill named in a field: canonical when the taxonomy knows it, else
// the reply's own words, "" for none.
func skillValue(v string, tax *Taxonomy) string {
	v = strings.Trim(strings.TrimSpace(v), "*`\"'.")
	if noSkill[strings.ToLower(v)] {
		return ""
	}
	if c, ok := tax.Canonical(v); ok {
		return c
	}
	bare := strings.TrimSpace(skillDecoration.ReplaceAllString(v, ""))
	if c, ok := tax.Canonical(bare); ok {
		return c
	}
	if bare == "" || noSkill[strings.ToLower(bare)] {
		return ""
	}
	return bare
}

// readObject adds what one JSON object says to r. It descends into nested objects so
// {"ruling": {"decision": "roll"}} is read too.
func readObject(m map[string]any, r *ruling, tax *Taxonomy) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		if sub, ok := v.(map[string]any); ok {
			readObject(sub, r, tax)
			continue
		}
		switch classifyKey(k) {
		case keyMaybe:
			if s, ok := v.(string); ok {
				if d := decisionWord(s, tax); d != "" {
					r.vote(d)
				}
			}
		case keyDecision:
			s, isString := v.(string)
			if !isString {
				// "decision": true says nothing about which way.
				r.bad = true
				continue
			}
			if d := decisionWord(s, tax); d != "" {
				r.vote(d)
			} else {
				r.bad = true
			}
		case keyNeedRoll, keyAuto:
			b, ok := yesNo(v)
			if !ok {
				r.bad = true
				continue
			}
			if classifyKey(k) == keyAuto {
				b = !b
			}
			if b {
				r.vote(DecisionRoll)
			} else {
				r.vote(DecisionPass)
			}
		case keySkill:
			if s, ok := v.(string); ok && r.skill == "" {
				r.skill = skillValue(s, tax)
			}
		case keyReason:
			if s, ok := v.(string); ok && r.reason == "" {
				r.reason = strings.TrimSpace(s)
			}
		}
	}
}

// maxObjectStarts bounds the work spent looking for JSON in a long reply.
const maxObjectStarts = 200

// parseJSONReply finds the JSON objects in text (bare, fenced or in prose) and reads the
// ruling of those that state one.
func parseJSONReply(text string, tax *Taxonomy) (Parsed, bool) {
	var r ruling
	starts := 0
	for i := 0; i < len(text) && starts < maxObjectStarts; {
		j := strings.IndexByte(text[i:], '{')
		if j < 0 {
			break
		}
		start := i + j
		starts++
		dec := json.NewDecoder(strings.NewReader(text[start:]))
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			i = start + 1
			continue
		}
		var one ruling
		readObject(m, &one, tax)
		if one.found() {
			r.votes = append(r.votes, one.votes...)
			r.bad = r.bad || one.bad
			if r.skill == "" {
				r.skill = one.skill
			}
			if r.reason == "" {
				r.reason = one.reason
			}
		}
		i = start + int(dec.InputOffset())
	}
	if !r.found() {
		return Parsed{}, false
	}
	return r.parsed(HowJSON), true
}

// loosePair matches a quoted key and its value in JSON that does not decode: single
// quotes, trailing commas, a missing brace.
var loosePair = regexp.MustCompile(`["']([A-Za-z][A-Za-z_ -]{0,30})["']\s*:\s*("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|true|false|null|[A-Za-z_]+)`)

func parseLooseJSON(text string, tax *Taxonomy) (Parsed, bool) {
	m := map[string]any{}
	var r ruling
	for _, sm := range loosePair.FindAllStringSubmatch(text, -1) {
		var v any
		switch raw := sm[2]; {
		case raw == "true" || raw == "false":
			v = raw == "true"
		case raw == "null":
			v = nil
		case strings.HasPrefix(raw, `"`):
			var s string
			if json.Unmarshal([]byte(raw), &s) != nil {
				s = strings.Trim(raw, `"`)
			}
			v = s
		default:
			v = strings.Trim(raw, `'`)
		}
		if _, dup := m[sm[1]]; dup {
			// A repeated key is another object: read what is gathered so far.
			readObject(m, &r, tax)
			m = map[string]any{}
		}
		m[sm[1]] = v
	}
	readObject(m, &r, tax)
	if !r.found() {
		return Parsed{}, false
	}
	return r.parsed(HowJSON), true
}

var (
	// lineDecor is what markdown puts around a "Key: value" line.
	lineDecor = regexp.MustCompile("[*`]+")
	keyLine   = regexp.MustCompile(`^\s*(?:#+\s*|>\s*|[-+•]\s+|\d+[.)]\s+)*["']?([A-Za-z][A-Za-z' _/-]{0,40}?)["']?\s*\??\s*[:=]\s*(.+?)\s*,?\s*$`)
)

// parseLines reads "Decision: roll" / "Skill: Climb" lines, in any case and with
// markdown decoration.
func parseLines(text string, tax *Taxonomy) (Parsed, bool) {
	var r ruling
	var decisionText []string
	for _, line := range splitPairs(strings.Split(text, "\n")) {
		m := keyLine.FindStringSubmatch(lineDecor.ReplaceAllString(line, ""))
		if m == nil {
			continue
		}
		value := strings.Trim(m[2], ` "'`)
		switch kind := classifyKey(m[1]); kind {
		case keyMaybe:
			if d := decisionWord(value, tax); d != "" {
				decisionText = append(decisionText, value)
				r.vote(d)
			}
		case keyDecision:
			decisionText = append(decisionText, value)
			if d := decisionWord(value, tax); d != "" {
				r.vote(d)
			} else {
				r.bad = true
			}
		case keyNeedRoll, keyAuto:
			decisionText = append(decisionText, value)
			b, ok := yesNo(value)
			if !ok {
				r.bad = true
				continue
			}
			if (kind == keyNeedRoll) == b {
				r.vote(DecisionRoll)
			} else {
				r.vote(DecisionPass)
			}
		case keySkill:
			if r.skill == "" {
				r.skill = skillValue(value, tax)
			}
		case keyReason:
			if r.reason == "" {
				r.reason = value
			}
		}
	}
	if !r.found() {
		return Parsed{}, false
	}
	if r.skill == "" {
		// "Decision: Roll (Climb)" names the skill in the decision itself.
		for _, t := range decisionText {
			if s := firstSkill(t, tax, true); s != "" {
				r.skill = s
				break
			}
		}
	}
	return r.parsed(HowLines), true
}

// pairSep separates "Key: value" pairs written on one line: "Decision: roll / Skill: Climb".
var pairSep = regexp.MustCompile(`\s+[/|]\s+`)

// splitPairs splits a line at pairSep when every piece after the first is a "Key: value"
// pair with a key parseLines reads; any other line is kept whole.
func splitPairs(lines []string) []string {
	var out []string
	for _, line := range lines {
		parts := pairSep.Split(line, -1)
		for _, p := range parts[1:] {
			m := keyLine.FindStringSubmatch(lineDecor.ReplaceAllString(p, ""))
			if m == nil || classifyKey(m[1]) == keyOther {
				parts = []string{line}
				break
			}
		}
		out = append(out, parts...)
	}
	return out
}

// refusal matches a reply that opens by declining the task.
var refusal = regexp.MustCompile(`(?i)^\W*(?:(?:i['’]m|i\s+am|i)\s+(?:sorry|afraid|apologi[sz]e)|sorry|unfortunately)?[^.!?]{0,30}?\b(?:i\s+(?:can['’]t|cannot|can\s+not|won['’]t|will\s+not|must\s+decline|(?:must\s+)?refuse(?:\s+to)?|am\s+unable\s+to|am\s+not\s+able\s+to|do\s+not\s+feel\s+comfortable|don['’]t\s+feel\s+comfortable)|i['’]m\s+(?:unable\s+to|not\s+able\s+to|not\s+comfortable))(?:\s*[.!]|\s+(?:help|assist|comply|continue|participate|provide|do\s+(?:that|this)|engage|fulfil|fulfill|answer|adjudicate|support|create|generate|write|produce|play|role|take\s+part|go\s+along|be\s+of\s+help|proceed|with\s+that)\b)`)

func isRefusal(text string) bool {
	if len(text) > 400 {
		text = text[:400]
	}
	return refusal.MatchString(text)
}
