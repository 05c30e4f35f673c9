package seduce

import (
	"slices"
	"strings"
	"sync"
)

// Precision gates of round 9 (issue 29): shapes in which a prose ruling read by the
// grammar is not the reply's ruling, which leave the reply unparsed rather than guessed.
//
//   - Granted: a ruling, then a clause that grants the other ruling as acceptable too
//     ("Leaning automatic success, though a Swim roll wouldn't be crazy either", "I'd say
//     roll, but I wouldn't argue with anyone who said otherwise", "Eher keine Probe, aber
//     ein Schwimmen-Wurf wäre auch vertretbar"): the reply leans, and concedes the other
//     side; it rules neither. A grant before the ruling it gives way to ("A Climb roll
//     wouldn't be crazy, but it's a stepladder: no roll") is a concession, and the ruling
//     stands; so does a grant taken back in its own sentence ("…, but I'd still make
//     them roll").

// rollAnaphors are a roll named by "one" after a pass: "a Keeper who wanted one".
var rollAnaphors = []string{"wanted one", "wants one", "want one", "asked for one", "asks for one", "called for one", "calls for one",
	"insisted on one", "insists on one", "demanded one", "prefers one", "preferred one", "prefer one"}

// grantTries and grantReach bound the work on a long reply: the first few grants are
// read, each within a few hundred bytes of its sentence.
const (
	grantTries = 4
	grantReach = 400
)

// granted says whether the reply, ruled p by the prose cue first, grants the other
// ruling after it (see the head of this file), and where the grant's clause starts.
func granted(folded, orig string, p Parsed, first vote, t *cueTally, tax *Taxonomy, lex *Lexicon) (int, bool) {
	if p.Decision != DecisionRoll && p.Decision != DecisionPass {
		return 0, false
	}
	for from, tries := 0, 0; from < len(folded) && tries < grantTries; tries++ {
		i, phrase := lex.grantIdx.first(folded[from:])
		if i < 0 {
			return 0, false
		}
		at := from + i
		from = at + len(phrase)
		start, end := sentenceAround(folded, at, at+len(phrase))
		start, end = max(start, at-grantReach), min(end, from+grantReach)
		if k := strings.LastIndexAny(folded[start:at], ";:—–("); k >= 0 {
			start += k + 1
		}
		if k, _ := lastPhrase(folded[start:at], lex.grantOpen); k >= 0 {
			start += k
		}
		if k, _ := anyPhrase(folded[from:end], lex.grantTurn); k >= 0 {
			continue // "…, but I'd still make them roll"
		}
		scope := folded[start:end]
		x := grantLeans(scope, orig[start:end], tax, lex)
		if first.from >= start && first.from < end && x == p.Decision && len(orig) <= verdictMaxBytes {
			// "Tirerei Nuotare, ma anche il successo automatico andrebbe bene": the ruling
			// read is only granted; it stands if the rest of the reply makes it.
			rest := orig[:start] + blankOut(orig[start:end]) + orig[end:]
			q := proseTally(rest, tax, lex)
			if p.Decision == DecisionRoll && q.hasRoll || p.Decision == DecisionPass && q.hasPass {
				continue
			}
			if q.hasRoll || q.hasPass || hasPhrase(folded[start:end], lex.additive) {
				// "Automatic success would also be fine.": granted as one choice of two.
				return start, true
			}
			continue // "Nobody at my table would fault you for calling for a Jump roll."
		}
		if x == DecisionUnparsed && hasPhrase(scope, lex.otherWay) {
			x = other(p.Decision)
		}
		if x == DecisionUnparsed {
			continue
		}
		// The ruling the grant concedes against stands before the grant's clause, and is
		// not made again after it ("… In the end, roll Stealth.").
		against := other(x)
		if p.Decision == against && first.from < start ||
			against == DecisionRoll && t.hasRoll && t.rollCue.from < start ||
			against == DecisionPass && t.hasPass && t.passCue.from < start {
			if strings.TrimSpace(orig[end:]) != "" {
				if q := proseTally(orig[end:min(len(orig), end+verdictMaxBytes/4)], tax, lex); against == DecisionRoll && q.hasRoll && !q.hasPass || against == DecisionPass && q.hasPass && !q.hasRoll {
					continue
				}
			}
			return start, true
		}
	}
	return 0, false
}

// grantLeans is the ruling the words of a grant's clause name (folded, and as written
// in orig), or DecisionUnparsed when they name neither or both.
func grantLeans(scope, orig string, tax *Taxonomy, lex *Lexicon) Decision {
	pass := towardPass.MatchString(scope) || hasPhrase(scope, lex.skip) || hasPhrase(scope, lex.pass)
	if pass {
		// "skipping the roll", "no roll": the roll word is the pass's own.
		b, o := []byte(scope), []byte(orig)
		blank := func(from, to int) {
			copy(b[from:to], blankOut(scope[from:to]))
			copy(o[from:to], blankOut(scope[from:to]))
		}
		for _, m := range deniedRoll.FindAllStringIndex(scope, -1) {
			blank(m[0], m[1])
		}
		for _, w := range []string{"skip", "skipping", "waive", "waiving"} {
			if k := phraseAt(scope, w, 0); k >= 0 {
				blank(k, k+len(w)+len(rollObject(scope[k+len(w):])))
			}
		}
		scope, orig = string(b), string(o)
	}
	roll := towardRoll.MatchString(scope) || hasPhrase(scope, rollAnaphors) || lex.namesRoll(scope) ||
		firstSkill(orig, tax, false) != "" || lex.lexSkill(scope, orig, 0, tax) != ""
	switch {
	case roll && !pass:
		return DecisionRoll
	case pass && !roll:
		return DecisionPass
	}
	return DecisionUnparsed
}

// rollObject is the object of a verb of skipping that opens s, up to its roll word:
// " the Climb roll" of "skipping the Climb roll"; "" when s opens with none.
func rollObject(s string) string {
	words := strings.Fields(s[:min(len(s), 40)])
	n := 0
	for k, w := range words {
		if k > 3 {
			break
		}
		n = strings.Index(s[n:], w) + n + len(w)
		switch strings.Trim(w, ".,;:!?") {
		case "roll", "rolls", "check", "checks", "dice", "test", "it":
			return s[:n]
		}
	}
	return ""
}

// lastPhrase is where the last of phrases occurs in s as whole words, or -1.
func lastPhrase(s string, phrases []string) (at int, phrase string) {
	at = -1
	for _, p := range phrases {
		for i := phraseAt(s, p, 0); i >= 0; i = phraseAt(s, p, i+1) {
			if i > at {
				at, phrase = i, p
			}
		}
	}
	return at, phrase
}

// precisionGate9 reads the signs above for the prose ruling p whose deciding vote is
// first, after the gates of rounds 7 and 8 found nothing.
func precisionGate9(body string, p Parsed, first vote, t *cueTally, tax *Taxonomy, lex *Lexicon) (Parsed, bool) {
	if !first.prose {
		return p, false
	}
	folded := foldLower(body)
	roll, hasRoll := t.rollCue, t.hasRoll
	if !hasRoll && t.hasBare && p.Decision == DecisionPass {
		roll, hasRoll = t.bare, true // "When it's in: Swim."
	}
	if (p.Rule == RuleAnyPart || p.Decision == DecisionPass) && hasRoll && t.hasPass &&
		branches(branchHead(folded, roll.from), branchHead(folded, t.passCue.from), lex) {
		// "When the tide is out: no roll. When it's in: Swim.": a ruling for each state
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleConditional, Span: cutSpan(body[t.passCue.from:t.passCue.to]) + " | " + cutSpan(body[roll.from:roll.to])}, true
	}
	if leanOpens(folded, first.from, first.to) && !finalWord.MatchString(folded[first.to:]) && !decidedAfter.MatchString(folded[first.to:]) {
		// "Leaning Firearms roll.", "Lean: Stealth roll."
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleHedge, Span: cutSpan(body[sentenceStart(folded, first.from):first.to])}, true
	}
	if pastRuling(folded, first.from) {
		// "Last session I made them roll Climb for this exact wall.": the rest of the
		// reply, that sentence set aside, rules if anything does.
		start, end := sentenceAround(folded, first.from, first.to)
		if k := strings.IndexAny(folded[first.to:end], ",;—–"); k >= 0 {
			end = first.to + k // "…, but since the door is open now, no roll": the clause only
		}
		if rest := parseReplyOnce(body[:start]+blankOut(body[start:end])+body[end:], tax, lex); rest.Decision != DecisionUnparsed || rest.Rule != RuleNone {
			return rest, true
		}
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: cutSpan(body[start:first.to])}, true
	}
	if at, ok := framed(folded, body, p, first.from, t, tax, lex); ok {
		// "I'd rather not call for dice, but the rules say Climb."
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: cutSpan(body[first.from:first.to]) + " | " + cutSpan(body[at:])}, true
	}
	if p.Decision == DecisionRoll && mocked(folded, first.from) {
		// "Sure, and I'll have you roll Swim in the bath too."
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: cutSpan(body[first.from:first.to])}, true
	}
	if p.Decision == DecisionRoll && rollOrNot(folded, first.from) {
		// "Either roll Climb or don't bother", "Roll Climb (or not, honestly)."
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleHedge, Span: cutSpan(body[first.from:first.to])}, true
	}
	if oddsGiven(folded, body) {
		// "70% no roll, 30% Spot Hidden", "I'm 80% sure it's a roll"
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleHedge, Span: cutSpan(body[first.from:first.to])}, true
	}
	if at, ok := flipFlop(folded, body, p, first, tax, lex); ok {
		// "Würfeln? Nein. Oder doch, Ausweichen (Dodge)? Hm, eher doch nicht ..."
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: cutSpan(body[first.from:first.to]) + " | " + cutSpan(body[at:])}, true
	}
	if at, ok := granted(folded, body, p, first, t, tax, lex); ok {
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleHedge, Span: cutSpan(body[first.from:first.to]) + " | " + cutSpan(body[at:])}, true
	}
	return p, false
}

// withCurlyApostrophes is phrases, and each phrase that holds an apostrophe once more
// with it written curly (’), as replies often write it.
func withCurlyApostrophes(phrases []string) []string {
	out := phrases
	for _, p := range phrases {
		if strings.Contains(p, "'") {
			if out == nil || len(out) == len(phrases) && &out[0] == &phrases[0] {
				out = append([]string(nil), phrases...)
			}
			out = append(out, strings.ReplaceAll(p, "'", "’"))
		}
	}
	return out
}

// negatedInClause says whether a negation word of l stands in the clause (folded) of
// the phrase at [from, to), outside it: no but word or concessive stands between them.
// "Sin tirada, pero una tirada de Nadar tampoco sería descabellada": the "tampoco" is
// another clause's, and the "sin" is no roll.
func (l *Lexicon) negatedInClause(clause string, from, to int) bool {
	lo, hi := max(0, from-polarityReach), min(len(clause), to+polarityReach)
	for lo > 0 && isLetter(clause[lo]) {
		lo-- // start at a word's start
	}
	for _, list := range [][]string{l.but, l.concessive} {
		for _, p := range list {
			for i := phraseAt(clause[:hi], p, lo); i >= 0; i = phraseAt(clause[:hi], p, i+1) {
				if i+len(p) <= from {
					lo = max(lo, i+len(p))
				} else if i >= to {
					hi = min(hi, i)
				}
			}
		}
	}
	for _, w := range wordsAt(clause[lo:hi]) {
		at := lo + w.at
		if at >= from && at < to {
			continue
		}
		if slices.Contains(l.negation, strings.Trim(w.text, "-,.;:!?¿¡'’\"")) {
			return true
		}
	}
	return false
}

// Struck rulings (round 9). Struck-through words are words the reply wrote: formatting
// is not meaning. A struck ruling before a standing ruling of the other kind is the
// reply correcting its ruling in view ("**Decision:** ~~Roll~~ Automatic success",
// "~~No roll needed~~ **Roll Jump**"): two rulings, unparsed. A struck ruling after the
// standing one is an alternative named and set aside ("**Decision: NO ROLL** ~~Roll
// Listen~~ — the scream is loud"): the standing ruling holds. A struck ruling of the
// same kind, or a struck skill's name ("Roll ~~Spot Hidden~~ Listen"), is withdrawn.

// struckRulings reads body's struck-through words as above: the reply's reading and
// true when a struck ruling decides it, or false to read body the usual way.
func struckRulings(body string, tax *Taxonomy, lex *Lexicon) (Parsed, bool) {
	spans := struckSpans(body)
	if len(spans) == 0 || len(spans) > 8 || len(body) > verdictMaxBytes {
		return Parsed{}, false // a long reply, or many strikes: read the usual way
	}
	standing := []byte(body)
	for _, s := range spans {
		copy(standing[s[0]:s[1]], blankOut(body[s[0]:s[1]]))
	}
	sp := parseReplyOnce(string(standing), tax, lex)
	if sp.Decision != DecisionRoll && sp.Decision != DecisionPass {
		kinds := map[Decision]string{}
		for _, s := range spans {
			struck := strings.Trim(body[s[0]+2:s[1]-2], " *_")
			if d := struckDecision(struck, tax, lex); d != "" {
				kinds[d] = struck
			}
		}
		if len(kinds) == 2 {
			// "**Decision:** ~~roll~~ ~~automatic success~~": both struck, none stands
			return Parsed{Decision: DecisionUnparsed, How: HowLines, Rule: RuleContradiction,
				Span: cutSpan(kinds[DecisionRoll]) + " | " + cutSpan(kinds[DecisionPass])}, true
		}
		return Parsed{}, false
	}
	for _, s := range spans {
		struck := strings.Trim(body[s[0]+2:s[1]-2], " *_")
		d := struckDecision(struck, tax, lex)
		if d == "" || d == sp.Decision {
			continue
		}
		if before := parseReplyOnce(string(standing[:s[0]]), tax, lex); before.Decision != sp.Decision {
			// the standing ruling comes after the struck one: a correction in view
			return Parsed{Decision: DecisionUnparsed, How: sp.How, Rule: RuleContradiction, Span: cutSpan(struck) + " | " + strings.Join(strings.Fields(sp.Span), " ")}, true
		}
	}
	return sp, true
}

// struckSpans are the ~~struck~~ spans of body, marks included, each within one line.
func struckSpans(body string) [][2]int {
	var spans [][2]int
	for from := 0; ; {
		i := strings.Index(body[from:], "~~")
		if i < 0 {
			return spans
		}
		i += from
		j := strings.Index(body[i+2:], "~~")
		if j < 0 {
			return spans
		}
		j += i + 2
		if strings.Contains(body[i:j], "\n") {
			from = i + 2
			continue
		}
		spans = append(spans, [2]int{i, j + 2})
		from = j + 2
	}
}

// struckDecision is the ruling struck-through words make ("Roll", "Automatic success",
// "Needs a Climb roll"), or "" for a name or other words.
func struckDecision(struck string, tax *Taxonomy, lex *Lexicon) Decision {
	if !struckRuling.MatchString(struck) {
		return ""
	}
	if d := decisionWord(struck, tax); d == DecisionRoll || d == DecisionPass {
		return d
	}
	if t := proseTally(struck, tax, lex); t.n > 0 {
		if d, _, _, _ := t.outcome(false); d == DecisionRoll || d == DecisionPass {
			return d
		}
	}
	return ""
}

// Held rulings (round 9). A ruling hedged, or set beside the other ruling conceded or
// granted, and then held in the reply's last words by a word of holding or certainty
// ("I'd say a roll is needed, although you could make a case that it's automatic. I'll
// stick with the roll though.", "Probably a First Aid roll. Definitely a First Aid
// roll, actually.") is that ruling: the reply settles its own doubt. The held words
// must rule firmly on their own, and what comes before them must have offered the same
// ruling and ruled the other way only unsure; a ruling held after a firm ruling the
// other way is a self-correction, and stays unparsed.

// holdWords open the words that hold a ruling.
var holdWords = []string{"i'll stick with", "i will stick with", "i'm sticking with", "i am sticking with", "i'll stay with",
	"i'm staying with", "i'll keep", "i'm keeping", "i'll hold", "i'm holding", "i'll stand by", "i stand by", "my ruling stands",
	"the ruling stands", "definitely", "certainly", "for sure", "i'm sure", "i am sure", "i'm confident", "i am confident",
	"i'm certain", "i am certain", "no doubt", "without a doubt", "still,",
	"ich bleibe bei", "bleibe ich bei", "definitiv", "je maintiens", "je reste sur", "définitivement", "sans aucun doute",
	"me quedo con", "mantengo", "definitivamente", "sin duda", "resto con", "mantengo", "sicuramente", "senza dubbio",
	"fico com", "mantenho", "sem dúvida", "ik blijf bij", "zeker weten", "zostaję przy", "zdecydowanie", "na pewno"}

// heldRuling reads a reply that p, its reading, leaves hedged or open, for a ruling
// held in its last words (see above).
func heldRuling(text string, p Parsed, tax *Taxonomy, lex *Lexicon) Parsed {
	if p.Decision != DecisionUnparsed || p.Rule != RuleHedge && p.Rule != RuleConditional {
		return p
	}
	body := strings.TrimSpace(stripReasoning(text))
	if len(body) > verdictMaxBytes {
		return p
	}
	folded := strings.ReplaceAll(foldLower(body), "’", "'")
	if len(folded) != len(body) {
		return p // offsets would not line up
	}
	at, phrase := lastPhrase(folded, holdWords)
	if at <= 0 {
		return p
	}
	start, _ := sentenceAround(folded, at, at)
	if start == 0 {
		return p // the held words are the whole first sentence: nothing was hedged before
	}
	if lex.openIdx.has(folded[start:]) || lex.correctionIdx.has(folded[:start]) {
		return p
	}
	v := heldWords(body, folded, start, at, phrase, tax, lex)
	if v.Decision != DecisionRoll && v.Decision != DecisionPass || v.Rule == RuleNarrated {
		return p
	}
	prefix := folded[:start]
	q := proseTally(body[:start], tax, lex)
	offered := v.Decision == DecisionRoll && (q.hasRoll || q.hedgedRoll || towardRoll.MatchString(deniedRoll.ReplaceAllString(prefix, " "))) ||
		v.Decision == DecisionPass && (q.hasPass || q.hedgedPass || towardPass.MatchString(prefix))
	firmOther := v.Decision == DecisionRoll && q.hasPass && !q.allPassPart || v.Decision == DecisionPass && q.hasRoll
	if !offered || firmOther {
		return p
	}
	if v.Decision == DecisionRoll && v.Skill == "" {
		v.Skill = q.rollSkill
		if v.Skill == "" {
			v.Skill = firstSkill(body[:start], tax, false)
		}
	}
	return v
}

// heldWords is the ruling the words that hold one make: the reply from the sentence
// that holds the hold word at [at, at+len(phrase)) of folded, or that clause alone
// ("Definitely a First Aid roll, actually, given the blood loss"), or the ruling a verb
// of holding takes as its object ("I'll stick with the roll though").
func heldWords(body, folded string, start, at int, phrase string, tax *Taxonomy, lex *Lexicon) Parsed {
	if v := parseReplyOnce(body[start:], tax, lex); v.Decision == DecisionRoll || v.Decision == DecisionPass {
		return v
	}
	end := len(folded)
	if k := strings.IndexAny(folded[at+len(phrase):], ",;:—–.!?("); k >= 0 {
		end = at + len(phrase) + k
	}
	if v := parseReplyOnce(body[start:end], tax, lex); v.Decision == DecisionRoll || v.Decision == DecisionPass {
		return v
	}
	obj := strings.Fields(folded[at+len(phrase) : end])
	for len(obj) > 0 && (obj[0] == "the" || obj[0] == "a" || obj[0] == "an" || obj[0] == "my") {
		obj = obj[1:]
	}
	for len(obj) > 0 && (obj[len(obj)-1] == "though" || obj[len(obj)-1] == "then" || obj[len(obj)-1] == "anyway") {
		obj = obj[:len(obj)-1]
	}
	if len(obj) == 0 || len(obj) > 3 {
		return Parsed{Decision: DecisionUnparsed}
	}
	switch d := decisionWord(strings.Join(obj, " "), tax); d {
	case DecisionRoll, DecisionPass:
		return Parsed{Decision: d, How: HowProse, Rule: RuleProse, Span: cutSpan(body[at:end])}
	}
	return Parsed{Decision: DecisionUnparsed}
}

// condLead says whether lead, the words before a colon or dash, is a condition on the
// world that holds the ruling after it: "If this is in the game, then yes: Locksmith
// roll", and as a list item's head ("- If it's gone out: **Spot Hidden**") or in a
// lexicon's language ("Si elle est éteinte : jet de Trouver Objet Caché", "Wenn sie aus
// ist: Verborgenes erkennen").
func condLead(lead string, lex *Lexicon) bool {
	l := strings.TrimLeft(lead, " \t-*•+>#")
	if k := strings.IndexAny(l, ".)"); k > 0 && k <= 3 && strings.Trim(l[:k], "0123456789abcdefghi") == "" {
		l = strings.TrimLeft(l[k+1:], " \t") // "1. If …", "b) If …"
	}
	if leadingCond.MatchString(l) {
		return !intent.MatchString(l) && !modalShould.MatchString(l)
	}
	if lex == nil {
		return false
	}
	for _, c := range lex.condition {
		if c == "ob" || c == "selon que" {
			continue // "whether": a question, not a condition
		}
		if strings.HasPrefix(l, c) && (len(l) == len(c) || !isLetter(l[len(c)])) {
			return true
		}
	}
	return false
}

// Branches (round 9). A roll for one part of the action and none for another is a
// roll; but a roll and no roll each headed by a state of the world are branches, the
// ruling left open on which state holds: "When the tide is out: no roll. When it's in:
// Swim.", "With a rope — no roll. Without one — Climb.", "- Door locked: Locksmith
// roll\n- Door unlocked: no roll". The heads are branches when both open with a word
// of condition or time ("if", "when", "whenever", "once", "with", "without", "in
// case"), one the other's with a "not", "no", "un-" or "without" put in, or when one
// opens with a condition and the other with "otherwise", "if not" or "else".

// branchHead is the head before the cue at at in folded: the words from the start of
// its line or sentence, list marks aside, up to a colon, dash, arrow or comma that ends
// them right before the cue; "" when the cue has none.
func branchHead(folded string, at int) string {
	start := strings.LastIndexAny(folded[:at], ".!?;\n") + 1
	head := strings.TrimRight(folded[start:at], " \t*_")
	ends := false
	for _, mark := range []string{":", "—", "–", "→", "->", "=>", ","} {
		if strings.HasSuffix(head, mark) {
			head, ends = strings.TrimSuffix(head, mark), true
			break
		}
	}
	if !ends {
		return ""
	}
	head = strings.Trim(head, " \t-*•+>#_")
	if k := strings.IndexAny(head, ".)"); k > 0 && k <= 3 && strings.Trim(head[:k], "0123456789abcdefghi") == "" {
		head = strings.TrimLeft(head[k+1:], " \t")
	}
	if head == "" || len(head) > 80 || strings.ContainsAny(head, ":,") {
		return ""
	}
	return head
}

// branches says whether heads a and b name states of the world that rule apart (see
// above).
func branches(a, b string, lex *Lexicon) bool {
	if a == "" || b == "" {
		return false
	}
	_, oa := anyPhrase(a, lex.branch)
	_, ob := anyPhrase(b, lex.branch)
	if oa != "" && ob != "" && strings.HasPrefix(a, oa) && strings.HasPrefix(b, ob) {
		// "when she climbs …", "when she jumps …": times of the action, its parts; a
		// time is a state of the world when its head says how things are
		return !timeWords[oa] && !timeWords[ob] || stateHead(a) && stateHead(b)
	}
	wa, wb := strings.Fields(a), strings.Fields(b)
	if len(wa) > len(wb) {
		wa, wb = wb, wa
	}
	if len(wb) != len(wa) && len(wb) != len(wa)+1 || len(wa) == 0 || len(wa) > 6 {
		return false
	}
	// one head the other's, denied: "door locked" and "door unlocked", "lantern lit" and
	// "lantern not lit"
	diff := 0
	for i, j := 0, 0; i < len(wa) || j < len(wb); {
		switch {
		case i < len(wa) && j < len(wb) && wa[i] == wb[j]:
			i, j = i+1, j+1
		case j < len(wb) && (wb[j] == "not" || wb[j] == "no" || wb[j] == "without" || wb[j] == "nicht" || wb[j] == "pas" || wb[j] == "non" || wb[j] == "niet" || wb[j] == "nie") && len(wb) == len(wa)+1:
			j, diff = j+1, diff+1
		case i < len(wa) && j < len(wb) && (wb[j] == "un"+wa[i] || wa[i] == "un"+wb[j] || wb[j] == "in"+wa[i] || wa[i] == "in"+wb[j]):
			i, j, diff = i+1, j+1, diff+1
		default:
			return false
		}
	}
	return diff == 1
}

// timeWords open a head that may name a moment of the action rather than a state.
var timeWords = map[string]bool{"when": true, "whenever": true, "once": true, "while": true, "quand": true, "lorsque": true,
	"cuando": true, "quando": true, "wanneer": true, "gdy": true, "kiedy": true, "wenn": true}

// stateHead says whether a head says how things are: it holds a verb of being or having.
func stateHead(head string) bool {
	for _, w := range strings.Fields(strings.ReplaceAll(head, "’", "'")) {
		switch w {
		case "is", "are", "was", "were", "isn't", "aren't", "wasn't", "weren't", "has", "have", "hasn't", "haven't", "gets",
			"it's", "he's", "she's", "they're", "there's", "est", "sont", "ist", "sind", "está", "es", "están", "è", "sono", "é", "estiver", "zijn", "jest":
			return true
		}
	}
	return false
}

// Flip-flops (round 9). A ruling, then an "or" that offers the other ruling ("Kein
// Wurf. Oder doch, Ausweichen?", "No roll. Or maybe Climb?", "Pas de jet. Ou plutôt :
// jet de Grimper."), is the reply going back on its ruling. Unless a firm ruling
// settles it after the offer ("Nein, kein Wurf.", "No, no roll."), with no word of doubt
// ("Hm, eher doch nicht ...", "maybe not", "I think"), the reply rules neither.

// ruleFrameIdx indexes ruleFrames, searched in whole replies.
var ruleFrameIdx = sync.OnceValue(func() *phraseIndex { return newPhraseIndex(ruleFrames) })

// flipFlop says whether the reply offers the other ruling after its prose ruling p, cue
// first, with nothing firm after to settle it; and where the offer starts.
func flipFlop(folded, orig string, p Parsed, first vote, tax *Taxonomy, lex *Lexicon) (int, bool) {
	rest := folded[first.to:]
	k, phrase := lex.orOfferIdx.first(rest)
	if k < 0 {
		return 0, false
	}
	at := first.to + k
	if s := strings.LastIndexAny(folded[:at], ".!?\n¿"); strings.TrimSpace(folded[s+1:at]) != "" && !strings.HasSuffix(strings.TrimSpace(folded[:at]), ",") {
		return 0, false // "roll or not, it's the same to me": no sentence of its own
	}
	end := len(folded)
	if e := strings.IndexAny(folded[at+len(phrase):], ".!?\n"); e >= 0 {
		end = at + len(phrase) + e
	}
	end = min(end, at+len(phrase)+grantReach)
	if grantLeans(folded[at+len(phrase):end], orig[at+len(phrase):end], tax, lex) != other(p.Decision) {
		return 0, false
	}
	settle := strings.TrimSpace(strings.TrimLeft(folded[end:], ".!?"))
	if settle == "" || hasPhrase(settle, lex.doubt) || strings.HasSuffix(settle, "...") || strings.HasSuffix(settle, "…") {
		return at, true
	}
	return 0, false
}

// Leans and odds (round 9). A ruling in a sentence that opens with "Leaning" or "Lean:"
// ("Leaning Firearms roll.", "Lean: Stealth roll.") is a lean, unless a word of deciding
// after it settles the matter; a ruling given odds ("70% no roll, 30% Spot Hidden", "I'm
// 80% sure it's a roll") is a hedge.

// notLeanAfter are the words after "leaning" that make it a body leaning, not a ruling.
var notLeanAfter = map[string]bool{"on": true, "against": true, "over": true, "in": true, "into": true, "out": true,
	"back": true, "forward": true, "forwards": true, "heavily": true, "hard": true, "closer": true, "across": true, "down": true}

// leanOpens says whether the sentence that holds the cue [at, to) of folded opens
// with a lean.
func leanOpens(folded string, at, to int) bool {
	s := strings.TrimLeft(folded[sentenceStart(folded, at):to], " \t*_#>-")
	if strings.HasPrefix(s, "lean:") || strings.HasPrefix(s, "lean —") || strings.HasPrefix(s, "lean -") {
		return true
	}
	rest, ok := strings.CutPrefix(s, "leaning")
	if !ok || rest != "" && isLetter(rest[0]) {
		return false
	}
	next := strings.Fields(strings.TrimLeft(rest, " :*_—–-"))
	return len(next) == 0 || !notLeanAfter[next[0]]
}

// oddsGiven says whether folded gives its ruling odds: two percentages that make a
// hundred, or a percentage short of a hundred of being sure.
func oddsGiven(folded, body string) bool {
	if !strings.Contains(folded, "%") {
		return false
	}
	var pcts []int
	for i := strings.IndexByte(folded, '%'); i >= 0; {
		j := i
		for j > 0 && folded[j-1] == ' ' {
			j--
		}
		k := j
		for k > 0 && folded[k-1] >= '0' && folded[k-1] <= '9' {
			k--
		}
		if k < j && j-k <= 3 {
			n := 0
			for _, c := range folded[k:j] {
				n = n*10 + int(c-'0')
			}
			named := strings.TrimLeft(body[i+1:min(len(body), i+4)], " ") // "30% Spot Hidden"
			if after := strings.Fields(folded[i+1 : min(len(folded), i+24)]); len(after) > 0 && (oddsOf[strings.Trim(after[0], ",.;:")] || named != "" && named[0] >= 'A' && named[0] <= 'Z') {
				pcts = append(pcts, n) // "70% no roll", not "60% skill" or "40% of the time"
			}
			after := strings.Fields(folded[i+1 : min(len(folded), i+24)])
			if n < 100 && len(after) > 0 && (after[0] == "sure" || after[0] == "certain" || after[0] == "confident" || after[0] == "likely" || after[0] == "chance") {
				return true
			}
		}
		next := strings.IndexByte(folded[i+1:], '%')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	for a := range pcts {
		for b := a + 1; b < len(pcts); b++ {
			if pcts[a]+pcts[b] == 100 && pcts[a] > 0 && pcts[b] > 0 {
				return true
			}
		}
	}
	return false
}

// oddsOf are the words after a percentage that make it odds on a ruling.
var oddsOf = map[string]bool{"no": true, "roll": true, "rolls": true, "automatic": true, "auto": true, "pass": true, "dice": true,
	"check": true, "yes": true, "a": true, "an": true, "it's": true, "skip": true, "let": true, "narrate": true, "for": true, "on": true}

// Another time (round 9). A ruling the speaker made in another session ("Last session I
// made them roll Climb for this exact wall", "The other week I had her roll Swim") is
// told, not made: it is no ruling of this reply's.

// pastTimes set a clause in another session than this one.
var pastTimes = []string{"last session", "last time", "last week", "last game", "last month", "last night", "last campaign",
	"previous session", "previous game", "earlier session", "the other day", "the other week", "the other night", "once before",
	"years ago", "in the past", "back when"}

// pastRulingVerbs are verbs of ruling in the past tense.
var pastRulingVerbs = []string{"made", "had", "asked", "called", "required", "let", "gave", "rolled", "demanded", "insisted", "waved", "allowed"}

// pastRuling says whether the cue [from, to) of folded is a ruling made in another
// session: a past time and a past verb of ruling stand before it in its sentence.
func pastRuling(folded string, from int) bool {
	s := folded[sentenceStart(folded, from):from]
	k, _ := anyPhrase(s, pastTimes)
	if k < 0 || strings.ContainsAny(s[k:], ",;—–") || phraseAt(s[k:], "but", 0) >= 0 {
		return false // "Last session I'd have called for a Listen roll, but … no roll"
	}
	for _, w := range strings.Fields(s[k:]) {
		if slices.Contains(pastRulingVerbs, strings.Trim(w, ",;:")) {
			return true
		}
	}
	return false
}

// Frames (round 9). A ruling and the other ruling put in the rules' mouth ("I'd rather
// not call for dice, but the rules say Climb", "Honestly no dice, but by the book it's
// Climb", "No roll, although technically Climb applies") are two frames on one action,
// the rules' and the speaker's: the reply rules neither.

// ruleFrames put what follows them in the rules' mouth.
var ruleFrames = []string{"the rules say", "the rules want", "the rules call for", "the rules require", "the rules would say",
	"rules say", "the book says", "the book would say", "by the book", "raw,", "raw it's", "by raw", "per raw", "rules as written",
	"technically", "strictly speaking", "by the rules", "per the rules", "officially", "by the letter", "the rulebook says",
	"the core rules say", "by the rules as written", "the scenario calls for", "the scenario says", "the scenario wants",
	"the module calls for", "the module says", "the module wants", "the adventure calls for", "the adventure says",
	"the book calls for", "the text says", "the text calls for", "per the scenario", "according to the scenario",
	"according to the module", "according to the rules", "the published adventure"}

// contrastFrames set the rules' letter against practice: the roll in one is the rules'
// only, not conceded.
var contrastFrames = map[string]bool{"technically": true, "strictly speaking": true, "by the letter": true, "by the book": true,
	"raw,": true, "raw it's": true, "by raw": true, "per raw": true, "rules as written": true, "by the rules as written": true}

// framed says whether the reply, ruled p by a cue at from, puts the other ruling in
// the rules' mouth after it.
func framed(folded, orig string, p Parsed, from int, t *cueTally, tax *Taxonomy, lex *Lexicon) (int, bool) {
	if p.Rule == RuleAnyPart && t.hasPass {
		from = min(from, t.passCue.from)
	}
	if k, phrase := ruleFrameIdx().first(folded[sentenceStart(folded, from):min(len(folded), from+24)]); k >= 0 && sentenceStart(folded, from)+k <= from {
		// "The scenario calls for a Spot Hidden roll, but I'd skip it.": the ruling read
		// is the frame's, and the speaker's own words after a but lean the other way
		k += sentenceStart(folded, from)
		_, end := sentenceAround(folded, k, k+len(phrase))
		end = min(end, from+grantReach)
		if b := phraseAt(folded[from:end], "but", 0); b >= 0 && grantLeans(folded[from+b:end], orig[from+b:end], tax, lex) == other(p.Decision) {
			return k, true
		}
	}
	k, phrase := ruleFrameIdx().first(folded[from:])
	if k < 0 {
		return 0, false
	}
	k += from
	start, end := sentenceAround(folded, k, k+len(phrase))
	start, end = max(start, k-grantReach), min(end, k+len(phrase)+grantReach)
	if j, _ := lastPhrase(folded[start:k], lex.grantOpen); j >= 0 {
		start += j
	}
	scope := folded[start:k] + strings.Repeat(" ", len(phrase)) + folded[k+len(phrase):end]
	x := grantLeans(scope, orig[start:end], tax, lex)
	if x == DecisionUnparsed && p.Decision == DecisionPass && firstSkill(orig[k+len(phrase):end], tax, false) != "" {
		x = DecisionRoll // "but the rules say Climb"
	}
	if p.Rule == RuleAnyPart && x == DecisionRoll && t.hasPass && t.passCue.from < start && t.rollCue.from >= start && contrastFrames[phrase] {
		// "Honestly no dice, but by the book it's Climb.": the roll is the rules'; not
		// "…, but that's what the rules want: Fighting", the rules' roll conceded
		return k, true
	}
	return k, x != DecisionUnparsed && p.Decision == other(x) && k > from
}

// Mockery (round 9). A roll in a sentence that opens with sarcastic assent ("Oh sure,",
// "Sure, and", "Yeah, right,") or that escalates ("while we're at it", "next you'll
// want") is a roll mocked, not called for.

// mockOpens open a sentence of sarcastic assent.
var mockOpens = []string{"oh sure", "sure, and", "yeah, right", "yeah right", "oh yeah, and", "right, and", "oh yes, and",
	"oh, absolutely", "oh, definitely", "oh, of course"}

// mockWords escalate a roll into mockery anywhere in its sentence.
var mockWords = []string{"while we're at it", "while we’re at it", "next you'll want", "next you’ll want", "next you'll ask",
	"next you’ll ask", "next you'll be asking", "might as well roll for", "may as well roll for"}

// mocked says whether the cue at from sits in a sentence of mockery.
func mocked(folded string, from int) bool {
	start, end := sentenceAround(folded, from, from)
	s := strings.TrimLeft(folded[start:end], " \t*_\"“")
	for _, o := range mockOpens {
		if strings.HasPrefix(s, o) {
			// "Oh sure, I see why you'd ask, but no: it's a Climb roll": the assent turned
			return phraseAt(folded[start:from], "but", 0) < 0
		}
	}
	return hasPhrase(s, mockWords)
}

// Negated requests (round 9). A negation before a verb of asking or making, in a
// lexicon's language, denies the roll that verb takes as its object, however many words
// stand between: "No voy a pedirte una tirada de Nadar", "Non ti chiederò un tiro di
// Nuotare", "Não vou pedir um teste de Natação", "No te voy a hacer tirar Nadar", as
// "I won't ask you for a Swim roll" does in English.

// requestStems begin the verbs of asking, requiring or making a roll in the lexicons'
// languages; requestWords are forms too short to find by a stem.
var (
	requestStems = []string{"ped", "chied", "richied", "exig", "demand", "verlang", "wymag", "każ", "kaz", "prosz", "pros"}
	requestWords = map[string]bool{"hacer": true, "hacerte": true, "haceros": true, "haré": true, "hago": true, "faccio": true,
		"fare": true, "farò": true, "farti": true, "fazer": true, "farei": true, "faço": true, "faire": true, "ferai": true,
		"fais": true, "lasse": true, "lassen": true, "vragen": true, "vraag": true, "laten": true, "laat": true}
)

// negatedRequest says whether before, the words of a clause (folded) before a roll
// phrase of l, ends in a negation, a verb of asking or making within three words after
// it, and the verb's object: at most four words, no comma between.
func (l *Lexicon) negatedRequest(before string) bool {
	words := wordsAt(before[lastWordsStart(before, 9):])
	verb := -1
	for k := len(words) - 1; k >= 0 && k >= len(words)-5; k-- {
		w := strings.Trim(words[k].text, "'’")
		if strings.ContainsAny(words[k].text, ",;:") {
			return false
		}
		if requestWords[w] || slices.ContainsFunc(requestStems, func(s string) bool { return strings.HasPrefix(w, s) }) {
			verb = k
			break
		}
	}
	if verb < 0 {
		return false
	}
	for k := verb - 1; k >= 0 && k >= verb-4; k-- {
		w := strings.Trim(words[k].text, "'’")
		if strings.ContainsAny(words[k].text, ",;:") || slices.ContainsFunc(l.implicative, func(s string) bool { return strings.HasPrefix(w, s) }) {
			return false // "No dudaré en pedirte una tirada": not to hesitate is to ask
		}
		if (strings.HasPrefix(w, "deix") || strings.HasPrefix(w, "dej")) && k+1 < len(words) && words[k+1].text == "de" {
			return false // "Não vou deixar de pedir um teste": not to stop asking is to ask
		}
		if slices.Contains(l.negation, w) || w == "ne" || w == "no" {
			return true
		}
	}
	return false
}

// Roll or not (round 9). A roll offered with its own denial as the alternative in the
// same sentence ("Either roll Climb or don't bother", "Roll Climb (or not, honestly)",
// "roll Listen or just let it go") rules neither.

// orNot are the words after an "or" that deny the roll before it.
var orNot = []string{"don't", "don’t", "dont", "not", "skip", "no roll", "no dice", "no check", "just let", "let it", "wave",
	"narrate", "nothing", "none", "no need", "forget"}

// rollOrNot says whether the roll cue starting at to of folded is followed, in its
// sentence, by an "or" that offers not rolling.
func rollOrNot(folded string, to int) bool {
	_, end := sentenceAround(folded, to, to)
	s := folded[to:end]
	for k := phraseAt(s, "or", 0); k >= 0; k = phraseAt(s, "or", k+2) {
		rest := strings.TrimLeft(s[k+2:], " ,(")
		for _, w := range []string{"maybe ", "perhaps ", "just ", "you know, ", "honestly, "} {
			rest = strings.TrimPrefix(rest, w)
		}
		for _, n := range orNot {
			if strings.HasPrefix(rest, n) && (len(rest) == len(n) || !isLetter(rest[len(n)])) {
				return true
			}
		}
	}
	return false
}

// Answers that doubt themselves (round 9). A structured answer rules nothing when it
// says in its own fields that it is unsure: a confidence field below one half ("confidence":
// 0.4, "confidence": "low"), a decision value that names both rulings ("Decision: roll /
// automatic success"), or a reason that leaves the ruling open in a lexicon's words
// ("reason": "Leaning roll; could go either way").

// doubtedAnswer reads p, the reading of text, for the signs above.
func doubtedAnswer(text string, p Parsed, lex *Lexicon) Parsed {
	if p.Decision != DecisionRoll && p.Decision != DecisionPass || p.How != HowJSON && p.How != HowLines {
		return p
	}
	unsure := Parsed{Decision: DecisionUnparsed, How: p.How, Rule: RuleHedge, Skill: p.Skill, Span: p.Span}
	if p.How == HowJSON && (lowConfidenceField(text) || p.Reason != "" && lex.openIdx.has(foldLower(p.Reason))) {
		return unsure
	}
	if p.How == HowLines && (bothInValue(foldLower(p.Span)) || hedgedValue(foldLower(p.Span))) {
		return unsure // "Roll: yes (probably)", "Roll: likely (Climb)"
	}
	return p
}

// lowConfidenceField says whether text holds a JSON "confidence" field whose value is
// below one half (0.4, 40) or a word of low confidence.
func lowConfidenceField(text string) bool {
	folded := foldLower(text)
	k := strings.Index(folded, `"confidence"`)
	if k < 0 {
		return false
	}
	v := strings.TrimLeft(folded[k+len(`"confidence"`):], " \t\n:")
	v = strings.TrimLeft(v, `"`)
	for _, w := range []string{"low", "very low", "unsure", "uncertain", "not sure", "medium-low", "poor"} {
		if strings.HasPrefix(v, w) {
			return true
		}
	}
	end := 0
	for end < len(v) && (v[end] >= '0' && v[end] <= '9' || v[end] == '.') {
		end++
	}
	if end == 0 {
		return false
	}
	n, dot, scale := 0.0, false, 1.0
	for _, c := range v[:end] {
		if c == '.' {
			dot = true
			continue
		}
		if dot {
			scale /= 10
			n += float64(c-'0') * scale
		} else {
			n = n*10 + float64(c-'0')
		}
	}
	if n > 1 {
		n /= 100 // a percentage
	}
	return n < 0.5
}

// bothInValue says whether a label's value names both rulings side by side ("roll /
// automatic success", "roll or no roll").
func bothInValue(span string) bool {
	i := strings.IndexAny(span, ":=")
	if i < 0 {
		return false
	}
	v := span[i+1:]
	for _, sep := range []string{"/", " or ", "|"} {
		if k := strings.Index(v, sep); k >= 0 {
			a, b := v[:k], v[k+len(sep):]
			ra, rb := towardRoll.MatchString(deniedRoll.ReplaceAllString(a, " ")), towardRoll.MatchString(deniedRoll.ReplaceAllString(b, " "))
			pa, pb := towardPass.MatchString(a), towardPass.MatchString(b)
			if ra && pb && !pa || pa && rb && !ra {
				return true
			}
		}
	}
	return false
}

// valueHedges are words that make a label's value unsure.
var valueHedges = []string{"probably", "likely", "maybe", "possibly", "perhaps", "i think", "i guess", "sort of", "kind of", "kinda",
	"sorta", "(?)", "?)"}

// hedgedValue says whether a label's value (after its colon) holds a word that makes it
// unsure.
func hedgedValue(span string) bool {
	i := strings.IndexAny(span, ":=")
	if i < 0 {
		return false
	}
	v := span[i+1:]
	if k := strings.IndexAny(v, ".;—–\n"); k >= 0 {
		v = v[:k] // the decision's own words, not its reason: "roll — the guard is probably awake"
	}
	if k := strings.Index(v, " because "); k >= 0 {
		v = v[:k]
	}
	return hasPhrase(v, valueHedges)
}

// branchHeaders head a table's first column with states of the world, not parts of
// the action.
var branchHeaders = map[string]bool{"condition": true, "conditions": true, "situation": true, "situations": true, "if": true,
	"case": true, "cases": true, "circumstance": true, "circumstances": true, "when": true, "state": true, "scenario": true}

// branchRow says whether a table row, its first column headed head, names a state of
// the world rather than a part of the action ("| If it's gone out | Spot Hidden |", a
// column headed "Condition"): its ruling is a branch, not a part's.
func branchRow(head, cell string) bool {
	return branchHeaders[strings.Trim(foldLower(strings.TrimSpace(head)), " *_:?")] || condLead(foldLower(strings.TrimSpace(cell)), DefaultLexicon())
}
