package seduce

import (
	"regexp"
	"slices"
	"strings"
)

// Reading a ruling in prose. The reply is cut into clauses (at sentence ends, semicolons,
// colons, dashes, "but", "however", table bars); each clause is read on its own for
// "cues", and the cues of the reply are then combined.
//
// A cue is a ruling head (a roll, check, test or dice mention, or an automatic-success
// phrase) with what governs it in its clause:
//   - polarity: the negations in its scope flip it, one by one. Negated phrases are
//     searched first and blanked, so "no Climb roll is needed" is a pass and never also
//     a roll; two negations are a roll ("there's no way across without a Swim roll",
//     "the roll can't be waived", "I don't see him managing it without a Dodge roll");
//     "doubt" and a negated opinion ("I don't think it needs a roll") negate too, and
//     so does a negation whose scope is the whole statement, with no comma between
//     ("there's no way anyone needs a roll", "it's not like she hears it automatically"),
//     unless a condition or "without" stands between ("no way he reads it unless he
//     passes a Library Use check" is a roll).
//   - modality: a demand (make, call for, needs, give me, that'll be, go ahead and roll,
//     a skill's name alone as the answer) rules; a possibility someone else holds ("a
//     different Keeper might ask for dice") or a request the player makes does not.
//   - condition: a condition on the world, before the cue ("should the branch hold") or
//     after it ("she rolls if the dog wakes"), leaves the ruling open and the reply
//     unparsed; a condition whose body is making the roll ("unless he makes a Stealth
//     roll", "if you make a Jump roll you clear it") is the roll; the player's intent
//     ("if you want to cross, roll Jump") leaves it firm. A clause after a dash or a
//     comma that opens with a condition or another route ("— unless the plank is still
//     there", "— or walk round by the ford") leaves the ruling before it open; a roll's
//     outcome ("— if you fail, you fall") or a threat ("— or else") does not.
//   - concession: a clause granted and then overruled ("one could wave it through,
//     yet …") does not count; a counterfactual one ("a garden fence wouldn't need dice,
//     but this one …") implies the other ruling when nothing else rules.
//   - questions: a question's cue counts only through the reply's own answer to it
//     ("Needs a roll? It does: Track" is a roll, "Automatic? No." a roll), also when
//     the question is quoted as someone asks it ("\"Does this need a roll?\" you ask.
//     It does not.").
//   - leads: a clause after a colon or a dash that rules nothing itself names what the
//     next clause rules on ("Getting through the hedge: Stealth."), so a roll and a
//     pass about two such things are a roll for part of the action.
//   - skills: a skill's own name, an alias, a specialisation in parentheses or an
//     "Ability (Skill)" form gives the taxonomy's skill; a capitalised name the taxonomy
//     does not know is kept as written ("Roll Luck", "Drive Auto roll!"); a roll of one
//     skill or another ("Make a Spot Hidden or Listen roll") is a roll without a skill,
//     unparsed when the reply says the choice depends on something.
//
//   - CoC's own words: a difficulty and a skill ("Hard Stealth"), bonus or penalty dice
//     on a skill, one skill against another ("your Stealth against his Listen"), a skill
//     named to a player ("Jenny, Throw."), a result reported as "your Track check".
//   - misspellings: a name one letter from a skill's (two in a long name), never in its
//     first letter, is that skill ("Lisen", "roll stelth"); a reply cut inside a skill's
//     name is truncated.
//   - other languages (lexicon data): a pass before a "but" word is about another part
//     ("pas de jet pour la porte, mais un jet d'Escalade"), a contrast grants a roll
//     ("pero sí Esquivar"), "neither A nor B" of two skills is a pass, a verb of skipping
//     reads as "without", questions are answered in the language's yes and no.
//
// The fourth round of issue 29 added, as grammar rather than phrasings:
//   - polarity: a denied reason cancels the negation after it ("I see no reason not to
//     call for Track"); a negative quantifier as subject denies ("nothing about this
//     needs dice", "no one would make you roll"); a negation reaches a verb of skipping
//     past a few words ("don't even think about skipping the Climb roll"); "no doubt"
//     affirms; a fronted "Without a Swim roll, …" leaves the ruling to its main clause.
//   - no ruling at all: a rule of thumb ("not every door needs …", "a Keeper only asks
//     for rolls when …"), a ruling considered and dropped ("I was going to ask for …",
//     "my first instinct was …"), a third person's opinion ("the player thinks …").
//   - open rulings: the other branch of a condition (lexicon "otherwise": "…; otherwise,
//     roll it"), another route offered ("…, or you could take the bridge"), a ruling
//     for each choice the player may make, a concession that the other ruling could be
//     argued.
//   - answers: a clause that answers a ruling set aside ("… whether the wall needs a
//     Climb roll. It doesn't."), and answers opened by an interjection ("Oh,
//     absolutely.").
//   - corrections (see ParseReplyWith): a retraction with no ruling after it, a ruling
//     taken back onto a condition, words conceded after a structured answer that lean
//     the other way.
//
// The fifth round of issue 29 put precision first, with a gate read after the grammar
// (see ParseReplyWith): a prose ruling stands only if the reply's last word on the
// ruling is explained. Every clause after the last one that ruled and that holds a
// ruling's words (the lexicons' "heads": roll, check, dice, automatic, jet, Probe,
// tirada …) must be read by some rule, or lean no other way than the ruling; and a
// correction word after a ruling (lexicon "correction") must be followed by the same
// ruling, or by words that do not lean the other way. What comes before the last ruling
// is the deliberation it ends, and a clause of another world ("if it were in Latin,
// we'd …") is no part of the scene's ruling. It added, as grammar: negative quantifiers
// as subject over more words ("nothing in this action needs the dice"); a roll granted
// by ellipsis after a but ("…, but past the breakers, that absolutely is one", "pero
// forzar la cerradura sí: Locksmith"); assumptions on the world as conditions
// ("automatic, assuming the rope holds"), unless they restate the given; replies cut
// off in a condition word ("automatic unl"); a name struck through as withdrawn; "or
// don't" and "arguably" as both rulings offered; markup tags as sentence ends.
//
// A reply that rules nothing is refused when a first-person verb of declining or being
// unable (lexicon "decline", "unable") has the ruling, the role, the scene or the
// request as its object in the same clause (lexicon "task", "choice"): "I'd rather not
// act as the Keeper here", "je ne peux pas arbitrer cette scène"; not when the decline
// waits on something ("until I know"), nor "I can't decide".
//
// The reply's cues then combine (outcome): one kind only is that ruling; a roll and a
// pass about different parts or things ("the ditch is nothing, no dice; the cliff is a
// Climb roll") are a roll; any other mix, or a self-correction, is a contradiction. A
// hedge phrase of the lexicon ("your call", "I'd lean") or a reply cut inside a ruling
// word ("the answer is no ro") leaves a prose ruling unparsed (see ParseReplyWith).

// Regular expression pieces over ASCII-lowercased text.
const (
	reArt  = `(?:an?|any|the|your|another|one|some|this|that|a\s+few|a\s+couple\s+(?:of\s+)?|an?\s+(?:series|number|pair|round|string|sequence)\s+of|several|multiple|two|three|repeated)\s+`
	reWord = `[a-z0-9(][a-z0-9'’/()%-]*`
	// reCountArt is the article of a roll called for after a copula: "a", or a count
	// of rolls ("several Stealth rolls", "a series of", "three").
	reCountArt = `(?:an?|one|several|multiple|two|three|four|five|a\s+(?:series|couple|pair|few|number|string|sequence)\s+of)\s+`
	reSlot     = `(?:` + reWord + `\s+){0,4}?`
	reRollAny  = `(?:roll|rolls|rolling|check|checks|checking|test|tests|testing|dice)`
	reRollNoun = `(?:rolls?|checks?|tests?|dice(?:\s+rolls?)?|skill\s+checks?|skill\s+rolls?)`
	reNegation = `(?:\bnot|n['’]t|\bnever|\bno\s+longer)`
	// reAskFor is the verb of "no reason to call for a roll".
	reAskFor   = `(?:(?:call|ask|make|request|require|demand|bother\s+with|have|take|bring\s+(?:out|in)|pull\s+out|break\s+out|get\s+out|reach\s+for|use|impose|add|involve|throw\s+in)\s+(?:for\s+)?)?`
	reNeedWord = `(?:needed|required|necessary|warranted|called\s+for|appropriate|mandatory|essential)`
)

// reSkillWords are the words of a skill's name, up to three.
const reSkillWords = `[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?`

// cueRule is one phrase pattern. A "slot" group holds the words that may name a skill and
// is checked against stopWords; a "skill" group must name a skill the taxonomy knows.
type cueRule struct {
	re *regexp.Regexp
	// negatable rules are automatic-success phrases that a nearby "not" turns into a
	// roll ("this is not an automatic success").
	negatable bool
	// words are the groups of which every match holds a word of each (see
	// requiredWords).
	words [][]string
	// negated rules read their ruling from a negation ("no roll is needed", "no way
	// across without a roll"): the rule that decides is prose:negated.
	negated bool
	// firstSkill rules take the first skill the match names, not the slot's.
	firstSkill bool
	// weak rules rule only when nothing else in the reply does: a skill's name alone
	// is a roll ("Library Use."), but beside "Automatic success — Climb" it is the
	// skill of the pass.
	weak bool
	// capital rules take a skill only when the reply writes it with a capital.
	capital bool
	// innerCapital rules need a capital past the clause's first word: they are not
	// tried on a clause without one.
	innerCapital bool
	// keepUnknown rules keep a capitalised skill the taxonomy does not know.
	keepUnknown bool
	// lead rules read only a clause after a colon or a dash that names what it rules on.
	lead bool
	// tailCapital rules end with a skill's name: they are tried only on a clause whose
	// last word is capitalised.
	tailCapital bool
	// unless, when set, holds words that make a match no ruling.
	unless *regexp.Regexp
	// unmasked rules match only where the clause as written reads the same: an end of
	// the clause they match may not be words another rule blanked.
	unmasked bool
}

func newCueRule(expr string) cueRule {
	re := regexp.MustCompile(expr)
	return cueRule{re: re, words: requiredWords(re)}
}

func newNegatedRule(expr string) cueRule {
	r := newCueRule(expr)
	r.negated = true
	return r
}

func firstSkillRule(expr string) cueRule {
	r := newNegatedRule(expr)
	r.firstSkill = true
	return r
}

// firstWord is the first run of letters of s.
func firstWord(s string) string {
	i := 0
	for i < len(s) && !isLetter(s[i]) {
		i++
	}
	j := i
	for j < len(s) && isLetter(s[j]) {
		j++
	}
	return s[i:j]
}

// digits are the words of a rule that reads a number: one of them stands in every match.
var digits = []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}

// maxBareClause bounds the clauses a weak rule reads: a skill's name alone, with a
// difficulty, is short; the rule has no word to look for first, so it would otherwise
// run on every clause.
const maxBareClause = 60

// withWords adds a group of words a rule's matches hold when the regular expression's
// own syntax gives only a poor choice (an alternation factored to its shared prefix).
func withWords(r cueRule, words ...string) cueRule {
	r.words = append(r.words, words)
	return r
}

// capitalRule is a rule whose skill must be written with a capital, as a skill's name
// is and an everyday word ("it's a climb") is not.
func capitalRule(expr string) cueRule {
	r := newCueRule(expr)
	r.capital, r.innerCapital = true, true
	return r
}

// withUnless sets words that, in a match, make it no ruling.
func withUnless(r cueRule, unless *regexp.Regexp) cueRule {
	r.unless = unless
	return r
}

// judged are words that judge a roll rather than call for it: "a Climb roll to get up
// there would be overkill".
var judged = regexp.MustCompile(`\b(?:would|could|might|should|is|are|was|be|been|seems?|feels?|sounds?|not|never|no|overkill|silly|pointless|unnecessary|needless|excessive|if|unless|whether)\b|n['’]t\b`)

// capitalTailRule is a capitalRule whose skill ends the clause.
func capitalTailRule(expr string) cueRule {
	r := capitalRule(expr)
	r.tailCapital = true
	return r
}

// lastWordCapital says whether the last word of s starts with a capital letter.
func lastWordCapital(s string) bool {
	s = strings.TrimRight(s, " \t\n.!,;:)*_\"'’”")
	i := len(s)
	for i > 0 && (isLetter(s[i-1]) || s[i-1] == '(' || s[i-1] == '-') {
		i--
	}
	return i < len(s) && s[i] >= 'A' && s[i] <= 'Z'
}

// capitalNegatedRule is a capitalRule that reads its ruling from a negation.
func capitalNegatedRule(expr string) cueRule {
	r := capitalRule(expr)
	r.negated = true
	return r
}

// capitalStartRule is a capitalRule whose skill may open its clause ("First Aid it is").
func capitalStartRule(expr string) cueRule {
	r := newCueRule(expr)
	r.capital = true
	return r
}

// keepUnknownRule is a rule whose skill, when the taxonomy does not know it, is kept as
// written if it is capitalised as a skill's name is ("Drive Auto roll!").
func keepUnknownRule(expr string) cueRule {
	r := newCueRule(expr)
	r.keepUnknown = true
	return r
}

// leadStartRule is a capitalStartRule read only after a colon or a dash, on the clause
// as written: its words after the skill may not have been set aside by another rule.
func leadStartRule(expr string) cueRule {
	r := capitalStartRule(expr)
	r.lead, r.unmasked = true, true
	return r
}

// leadRule is a capitalRule read only after a colon or a dash.
func leadRule(expr string) cueRule {
	r := capitalRule(expr)
	r.lead = true
	return r
}

func weakRule(expr string) cueRule {
	r := newCueRule(expr)
	r.weak = true
	return r
}

func newNegatableRule(expr string) cueRule {
	r := newCueRule(expr)
	r.negatable = true
	return r
}

var (
	// doubleNegation rules a roll: "there is no way to do this without a Climb roll".
	doubleNegation = []cueRule{
		newNegatedRule(`\b(?:not\s+|never\s+)without\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)` + reRollAny + `\b`),
		// A negation of whether it can be done, not of any verb: "I don't see him
		// managing it without a Dodge roll", but not "he doesn't need help and climbs
		// without a roll".
		newNegatedRule(`(?:\bno\s+(?:way|chance|hope|[a-z]+ing)|\bnobody|\bno\s+one|\bcannot|\bcan\s+not|\bimpossible|\bnot\s+(?:possible|likely|going\s+to|a\s+chance|letting|let|allowing|something|anything|a\s+thing)|\b(?:ca|could|wo|would|is|are|was)n['’]t|\b(?:do|does|did)n['’]t\s+(?:see|think|believe|reckon|expect|imagine)|\bdo\s+not\s+(?:see|think|believe)|\bnever|\bdoubt|\bdoubtful|\bhardly|\bunlikely|\bonly\s+(?:a\s+fool|an\s+idiot|a\s+madman|the\s+reckless)|\brefuse\s+to|\brefusing\s+to|\bfoolish|\breckless|\bmadness|\bsuicid(?:e|al)|\bcrazy|\binsane)\b[^;,]{0,60}?\bwithout\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)` + reRollAny + `\b`),
		// "I refuse to accept 'I'm a professional' as a reason to skip the dice"
		newNegatedRule(`\b(?:refuse\s+to|won['’]t|will\s+not|don['’]t|do\s+not|can['’]t|cannot)\s+(?:accept|buy|take)\b[^.;]{0,80}?\bas\s+(?:a\s+|an\s+|any\s+)?(?:reason|excuse|grounds|justification)\s+(?:to|for)\s+(?:skip|skipping|waive|waiving|forgo|drop|dropping|ignore|avoid|avoiding)\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)` + reRollAny + `\b`),
		// "I see no grounds to skip the roll", "you can't waive the Climb check"
		newNegatedRule(`\b(?:no\s+(?:grounds|reason|justification|basis|excuse|case|call|way|need|point)\s+(?:to|for|in)|(?:can['’]t|cannot|couldn['’]t)\s+(?:think\s+of|see|find)\s+(?:a|any)\s+(?:good\s+)?(?:reason|excuse|grounds|justification)\s+to|(?:do|does|did|would|could|should)n['’]t|(?:do|does|did)\s+not|cannot|can['’]t|can\s+not|won['’]t|will\s+not|shouldn['’]t|should\s+not|must\s+not|mustn['’]t|not|never|unable\s+to|refuse\s+to|nobody|no\s+one|no-one|no\s+(?:keeper|gm|dm|referee|sane|decent|good|fair)\b)\s+(?:[a-z'’]+\s+){0,4}?(?:skip|skipping|waive|waiving|forgo|forgoing|dispense\s+with|drop|dropping|ignore|ignoring|omit|omitting)\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)` + reRollAny + `\b`),
	}
	// "it's not that there's no need for a roll", "there's no Swim roll I'd skip here"
	moreDoubleNegation = []cueRule{
		// "Nothing but a Dodge roll will save him", "nothing short of a Jump roll"
		newCueRule(`\bnothing(?:-but|\s+short\s+of|\s+less\s+than)\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)(?:roll|check|test)\b`),
		// "Not a Climb roll, a Jump roll": one roll denied for another.
		newCueRule(`\bnot\s+an?\s+(?:[a-z0-9(][a-z0-9'’/()%-]*\s+){1,3}?(?:roll|check|test)\s*,\s*(?:but\s+|rather\s+|instead\s+)?an?\s+(?:(?:hard|extreme|regular)\s+)?(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s+(?:roll|check|test)\b`),
		newNegatedRule(`(?:\bnot|n['’]t)\s+that\s+(?:[a-z'’]+\s+){0,3}?(?:no|not|[a-z]*n['’]t)\s+(?:[a-z'’]+\s+){0,6}?` + reRollAny + `\b`),
		// "there's no way around a Swim roll", "you can't get past the Stealth check"
		withWords(newNegatedRule(`\b(?:no\s+(?:way|getting)\s+(?:around|round|past|out\s+of)|(?:there['’]s\s+)?no\s+(?:avoiding|escaping|dodging)|(?:can['’]t|cannot|can\s+not|(?:(?:do|does|did)n['’]t|not)\s+(?:think|believe|see\s+how)\s+(?:you|he|she|they|we|anyone|anybody)\s+(?:can|could))\s+(?:avoid|escape|get\s+(?:around|round|past|out\s+of)))\s+(?:`+reArt+`)?(?P<slot>`+reSlot+`)`+reRollAny+`\b`), "way", "getting", "avoid", "escap", "dodging", "around", "round", "past"),
		newNegatedRule(`\bno\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)(?:roll|check|test)s?\s+(?:that\s+)?(?:i['’]d|i\s+would|i['’]ll|i\s+will|we['’]d|you\s+can|you\s+could|anyone\s+can|anyone\s+could|i\s+can|i\s+could)\s+(?:(?:ever|happily|just|possibly|safely)\s+)?(?:skip|waive|forgo|drop|ignore|overlook)\b`),
		// "no Spot Hidden roll can be skipped here"
		newNegatedRule(`\bno\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)(?:roll|check|test)s?\s+(?:can|could|should|may|will|is\s+to)\s+be\s+(?:skipped|waived|ignored|dropped|forgone|dispensed\s+with|omitted)\b`),
		// "not rolling here would be a mistake", "refusing to roll would be silly"
		newNegatedRule(`\b(?:not|never|refusing\s+to|declining\s+to|failing\s+to)\s+(?:(?:ask|call)\s+(?:for\s+)?(?:` + reArt + `)?(?P<slot>` + reSlot + `))?(?:roll|rolling|rolls|check|checking|dice)\s+(?:(?:here|now|for\s+(?:this|that|it))\s+)?(?:would|will|is)\s+(?:be\s+)?(?:a\s+mistake|wrong|unwise|a\s+bad\s+idea|silly|absurd|ridiculous|foolish|crazy|too\s+generous|unfair|out\s+of\s+the\s+question|not\s+an\s+option)\b`),
		// "it would be wrong not to make her roll Listen": a pass judged wrong.
		withWords(newNegatedRule(`\b(?:wrong|silly|weird|odd|strange|absurd|ridiculous|unfair|a\s+mistake|negligent|irresponsible|madness|crazy|foolish|reckless|too\s+generous)\s+(?:of\s+me\s+)?not\s+to\s+(?:make|have|ask|call\s+for|demand|require|roll)\b`), "not"),
	}
	// "the roll can't be waived", "skipping the roll would be a mistake"
	doubleNegationAfter = []cueRule{
		// "Without a Medicine roll, there's no way to know": a fronted "without" and a
		// negated main clause.
		newNegatedRule(`\bwithout\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)` + reRollAny + `\s*,?\s+(?:there['’]s\s+no\s+way|there\s+is\s+no\s+way|no\s+way|nobody|no\s+one|it['’]s\s+(?:impossible|hopeless)|(?:you|he|she|they|we|it|nobody)\s+(?:can['’]t|cannot|won['’]t|will\s+not|don['’]t|do\s+not|doesn['’]t|does\s+not|never|couldn['’]t|wouldn['’]t))`),
		newNegatedRule(`(?P<pre>(?:` + reWord + `\s+){0,2})(?:roll|rolls|check|checks|test|tests|dice)\s+(?:can['’]t|cannot|can\s+not|shouldn['’]t|should\s+not|won['’]t|will\s+not|must\s+not|mustn['’]t|is\s+not\s+to)\s+be\s+(?:waived|skipped|ignored|dispensed\s+with|omitted|dropped|avoided)\b`),
		newNegatedRule(`\b(?:skip|skipping|waive|waiving|forgo|forgoing|dropping|ignoring|omitting)\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)(?:roll|rolls|check|checks|test|tests|dice)\s+(?:(?:here|now|this\s+time|for\s+(?:this|that|it))\s+)?(?:(?:would|will|is|seems)\s+(?:be\s+)?)?(?:a\s+mistake|wrong|unwise|a\s+bad\s+idea|too\s+generous|unfair|off\s+the\s+table|out\s+of\s+the\s+question|not\s+an\s+option|not\s+on)\b`),
	}
	passRules = []cueRule{
		// "it just works", "there's nothing to it", "nothing stands in the way"
		newCueRule(`\b(?:it|this|that)\s+(?:just|simply)\s+(?:works|opens)\b`),
		withWords(newCueRule(`\bnothing\s+to\s+it\b|\bnothing\s+(?:stands|is|gets)\s+in\s+(?:the|your|his|her|their)\s+way\b|\bnothing\s+in\s+the\s+way\b`),
			"nothing to it", "nothing stands", "nothing is in", "nothing gets in", "nothing in the way"),
		// "this needs neither a Jump nor a Climb roll"
		firstSkillRule(`\bneither\s+(?:` + reArt + `)?(?:[a-z0-9'’/()%-]+\s+){0,3}?nor\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)` + reRollAny + `\b`),
		// "no part of this calls for dice", "nothing here needs a roll"
		newNegatedRule(`\b(?:no\s+part|none|nothing|no\s+step|no\s+aspect)\s+(?:(?:of|in|here|there|about|really|at|all|else|th[a-z]+|it|his|her|your|one|[a-z]+ing|scene|action|task|attempt|plan|part|step|bit|situation|case|whole)\s+){0,6}(?:calls?\s+for|needs?|requires?|warrants?|merits?|demands?|justif(?:y|ies)|involves?)\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)` + reRollAny + `\b`),
		// "not one step of this plan needs dice"
		newNegatedRule(`\b(?:not\s+(?:one|a\s+single)\s+(?:step|part|bit|thing|moment|stage))\s+(?:[a-z'’]+\s+){0,4}?(?:calls?\s+for|needs?|requires?|warrants?|merits?|demands?|justif(?:y|ies)|involves?)\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)` + reRollAny + `\b`),
		// "I will waive the Climb roll", "skip the check"
		newNegatedRule(`\b(?:waive|waives|waived|waiving|skip|skips|skipped|skipping|forgo|forgoes|dispense\s+with|pass\s+on|passing\s+on)\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)` + reRollAny + `\b`),
		newNegatableRule(`\bwave\s+(?:it|this|that|them|him|her)\s+through\b`),
		// "I'll let it slide"; "I won't let it slide" is a roll. ("Just let them do it"
		// may grant the attempt, not the success: no ruling.)
		newNegatableRule(`\blet\s+(?:it|this|that)(?:\s+one)?\s+slide\b`),
		// "I'm waiving this one"; "I'm not waiving this one" is a roll
		newNegatableRule(`\b(?:waive|waiving|waived)\s+(?:this|that|it)(?:\s+one)?\b`),
		// "there's nothing uncertain about flipping a switch"
		newCueRule(`\bnothing\s+(?:uncertain|risky|chancy|tricky)\s+about\b`),
		// "I don't think there's any reason to roll"
		newNegatedRule(`(?:\bnot|n['’]t)\s+(?:[a-z'’]+\s+){0,3}?any\s+(?:need|reason|call|point|cause)\s+(?:for|to)\s+` + reAskFor + `(?:` + reArt + `)?(?P<slot>` + reSlot + `)` + reRollAny + `\b`),
		newNegatedRule(`(?:\bno|(?:can['’]t|cannot|couldn['’]t|don['’]t|do\s+not)\s+(?:think\s+of|see|find)\s+(?:a|any))\s+(?:good\s+)?(?:need|reason|point|requirement|call|cause|grounds)\s+(?:(?:at\s+all|whatsoever)\s+)?(?:for|of|to)\s+` + reAskFor + `(?:` + reArt + `)?(?P<slot>` + reSlot + `)` + reRollAny + `\b`),
		newNegatedRule(`\bno\s+(?P<slot>` + reSlot + `)` + reRollAny + `\b`),
		newNegatedRule(reNegation + `\s+(?:(?:really|actually|even|need|needs|needed|require|requires|required|requiring|call|calls|called|for|warrant|warrants|warranted|necessary|necessitate|necessitates|involve|involves|have|has|had|to|ask|asking|make|making|worth|be|any|bother|going|see|seeing|a|an|the|any)\s+){0,5}(?P<slot>` + reSlot + `)` + reRollAny + `\b`),
		newNegatedRule(`(?P<pre>(?:` + reWord + `\s+){0,2})(?:roll|rolls|rolling|check|checks|test|tests|dice)\s+(?:(?:is|are|was|will|would|be)\s+)*(?:not|never)\s+(?:(?:really|strictly|actually|even|be)\s+)?` + reNeedWord + `\b`),
		newNegatedRule(`(?P<pre>(?:` + reWord + `\s+){0,2})(?:roll|rolls|rolling|check|checks|test|tests|dice)\s+(?:is|are|was|were|wo)n['’]t\s+(?:(?:really|strictly|actually|even|be)\s+)?` + reNeedWord + `\b`),
		newCueRule(`(?P<pre>(?:` + reWord + `\s+){0,2})(?:roll|rolls|rolling|check|checks|test|tests|dice)\s+(?:(?:is|are|seems|would\s+be)\s+)?(?:unnecessary|unneeded|superfluous|pointless)\b`),
		newNegatedRule(`\bwithout\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)` + reRollAny + `\b`),
		newNegatedRule(`\bwithout\s+(?:needing|having|the\s+need)\s+(?:to|for)\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)` + reRollAny + `\b`),
		newCueRule(`\bnothing\s+to\s+(?:roll|check)\b`),
		// a compound that denies the roll it names: "a roll-free moment", "the no-dice camp"
		newCueRule(`\b(?:roll|dice|check)-(?:free|less)\b|\bno-(?:roll|dice|check)\b`),
		// "nobody rolls anything for walking to the market"
		newCueRule(`\b(?:nobody|no\s+one|no-one)\s+(?:(?:needs|has|gets)\s+to\s+|should\s+|will\s+|is\s+)?(?:rolls?|rolling)\b`),
		// "Not necessary — it's a puddle": the whole clause answers a roll asked for.
		newCueRule(`^\s*(?:not\s+(?:necessary|needed|required)|unnecessary|no\s+need)\s*(?:,|$)`),
		newCueRule(`\b(?:you|he|she|they|we|the\s+(?:investigator|player|character|pc)|your\s+(?:investigator|character))\s+(?:just|simply)\s+(?:do|does|manage|manages|pull\s+off|pulls\s+off)\s+it\b`),
		// "it would be wrong to make her roll", "not even the stingiest Keeper would make
		// you roll for that": a demand for a roll judged wrong.
		newNegatedRule(`\b(?:wrong|silly|weird|odd|strange|daft|pedantic|absurd|ridiculous|overkill|unfair|pointless|needless|excessive|a\s+waste(?:\s+of\s+time)?|cruel|petty|harsh|unnecessary)\s+(?:of\s+me\s+)?to\s+(?:make|have|ask|force|get|call\s+for|demand|require|request)\s+(?:for\s+)?(?:(?:her|him|them|you|anyone|anybody|everyone|the\s+(?:player|investigator|party))\s+)?(?:(?:to\s+)?(?:make\s+)?(?:` + reArt + `)?(?P<slot>` + reSlot + `))?(?:roll|rolls|check|checks|dice)\b`),
		newNegatedRule(`\bnot\s+even\s+[^,;]{0,50}?\b(?:would|will|could)\s+(?:make|have|ask|force|get)\s+(?:you|him|her|them|anyone)\s+(?:to\s+)?roll\b`),
		// "No way a roll is needed here."
		newNegatedRule(`\bno\s+(?:way|chance)\s+(?:(?:that|is|would|will|does)\s+)?(?:` + reArt + `)?(?P<slot>` + reSlot + `)(?:roll|check|test|dice)s?\s+(?:(?:is|are|would\s+be|will\s+be|gets?)\s+)?(?:needed|required|necessary|called\s+for|warranted|asked\s+for)\b`),
		// "asking for a Listen roll would be silly here": a roll of a skill judged needless.
		withWords(newNegatedRule(`\b(?:asking|calling)\s+for\s+(?:`+reArt+`)?(?P<slot>`+reSlot+`)(?:roll|check)s?\s+(?:(?:here|now|for\s+(?:this|that|it))\s+)?(?:would|will|is|seems|feels)\s+(?:(?:just|only|really|honestly|frankly|simply|be|a\s+(?:bit|little|touch)|kind\s+of|rather|pretty|quite|somewhat)\s+){0,3}(?:overkill|excessive|pointless|silly|weird|odd|absurd|ridiculous|redundant|superfluous|needless|gratuitous)\b`), "asking", "calling"),
		// "don't even reach for the dice", "no need to pick up your dice"
		newNegatedRule(`(?:\bdon['’]t|\bdo\s+not|\bno\s+need\s+to|\bnever)\s+(?:(?:even|bother\s+to)\s+)?(?:reach\s+for|pick\s+up|touch|grab|get\s+out|break\s+out)\s+(?:the|your|any|those)\s+dice\b`),
		// "there's no question of a roll", "the dice stay in the bag"
		newNegatedRule(`\bno\s+question\s+of\s+(?:` + reArt + `)?(?P<slot>` + reSlot + `)` + reRollAny + `\b`),
		newCueRule(`\bdice\s+(?:stay|stays|remain|remains|can\s+stay)\s+(?:in\s+(?:the|your|my)\s+(?:bag|box|pocket)|on\s+the\s+table|put)\b`),
		newNegatableRule(`\b(?:put|keep|leave)\s+(?:the|your|those)\s+dice\s+(?:away|down|in\s+(?:the|your)\s+(?:bag|box|pocket))\b`),
		// "you need neither Climb nor Jump for that"
		newNegatedRule(`\b(?:need|needs|require|requires|call\s+for|calls\s+for|warrants?)\s+neither\b`),
		// "Neither Jump nor Climb is needed"
		newCueRule(`\bneither\s+(?:an?\s+)?[a-z][a-z'’/() -]{0,30}?\s+nor\s+(?:an?\s+)?[a-z][a-z'’/() -]{0,30}?\s+(?:is|are)\s+(?:really\s+)?(?:needed|required|necessary|called\s+for|warranted)\b`),
		// "a Swim roll seems reasonable, though not strictly necessary": a roll called
		// needless in the same breath.
		newCueRule(`\b(?:though|but|if)\s+not\s+(?:strictly|really|absolutely|entirely)\s+(?:necessary|needed|required)\b`),
		// "a roll would be overkill", "asking for a roll here would just slow the game
		// down": a roll judged needless.
		newCueRule(`\b(?:(?:asking|calling)\s+for\s+|requiring\s+|demanding\s+|making\s+(?:them|him|her|you)\s+|to\s+(?:ask|call)\s+for\s+)?(?:` + reArt + `)?(?:roll|rolls|rolling|check|checks|dice)\s+(?:(?:here|for\s+(?:this|that|it)|now|at\s+all)\s+)?(?:(?:would|will|is|seems|feels)\s+)(?:(?:just|only|really|honestly|frankly|simply|be|a\s+(?:bit|little|touch)|kind\s+of|rather|pretty|quite|somewhat)\s+){0,3}(?:overkill|excessive|pointless|silly|weird|odd|absurd|ridiculous|a\s+waste|wasted|a\s+formality|slow|bog|drag|redundant|superfluous|needless|gratuitous)\b`),
		newCueRule(`^\s*(?:(?:actually|rather|instead|no|nah|nope|wait|make\s+that|correction|yes|yep|yeah|sure|okay|ok|so|eh|meh|well|fine|easy)[,:]?\s+)*(?:pass|no\s+roll|automatic|auto)\s*$`),
		// "No Spot Hidden needed.": a skill's name, capitalised, denied as a roll is.
		capitalNegatedRule(`\bno\s+(?P<wholeskill>` + reSkillWords + `)\s+(?:(?:is\s+|are\s+)?(?:needed|required|necessary|called\s+for)|for)\b`),
		// "that's free", "Free action.": no roll asked.
		newCueRule(`\b(?:that['’]s|it['’]s|this\s+is|that\s+is|that\s+one['’]s)\s+(?:a\s+)?free(?:bie)?\s*$|^\s*(?:a\s+)?free\s+action\s*$`),
		// "No need for First Aid."
		capitalRule(`\bno\s+need\s+(?:for|to)\s+(?:an?\s+)?(?P<skillname>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})`),
		newNegatableRule(`\bautomatic\s+(?:success|successes|successful|pass)\b`),
		newNegatableRule(`\bautomatically\b(?:\s+(?:succeeds?|successful|passes|pass))?`),
		newNegatableRule(`\bauto[- ]?(?:success|succeeds?|pass)\b`),
		newNegatableRule(`\b(?:is|it['’]s|that['’]s|this['’]s|be|is\s+(?:it|this|that)|call\s+(?:it|that|this))\s+(?:not\s+|far\s+from\s+|anything-but\s+)?(?:(?:just|simply|basically|clearly|obviously|pretty\s+much)\s+)?automatic\b`),
		// "that's a freebie"; "it isn't a gimme" is a roll
		newNegatableRule(`\ban?\s+(?:freebie|gimme)\b|(?:^|,)\s*freebie\s*(?:,|$)`),
		newNegatableRule(`\b(?:simply|just)\s+succeeds?\b`),
		// "the investigator simply finds the diary"; "she can't simply walk in" is a roll
		newNegatableRule(`\bsimply\s+(?:finds?|opens?|reads?|crosses|cross|spots?|sees?|hears?|walks?\s+(?:in|through|across|over|up|down)|climbs?\s+(?:up|over|in|down)|gets?\s+(?:in|through|across|over))\b`),
		newNegatableRule(`\bsucceeds?\s+(?:outright|by\s+default)\b`),
	}
	rollRules = []cueRule{
		// "We'll do it as three Stealth rolls back to back": several rolls of one skill,
		// in a clause that does not judge them (spec section 3: a series is that roll).
		withUnless(newCueRule(`^[^;:]*?\b(?:several|multiple|two|three|four|five|six|a\s+(?:series|couple|string|sequence|handful)\s+of)\s+(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s+(?:rolls|checks)\b`), seriesDismissed),
		// "d100, under your Jump": the dice and the skill they are read against, opening
		// a clause (an elliptic call; "no need for d100 under …" is none).
		withWords(newCueRule(`^\s*(?:(?:right|okay|ok|so|then|now|alright|right\s+then)\s*[,:]?\s+)*(?:roll\s+)?(?:an?\s+|your\s+)?d100s?\s*,?\s*(?:roll\s+)?(?:under|against|below|vs\.?)\s+(?:your\s+|his\s+|her\s+|their\s+)?(?:(?:hard|extreme|regular|half)\s+)?(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})`), "d100"),
		newCueRule(`\b(?:make|makes|making|take|takes|attempt|attempts|post|need\s+for|costs?|(?:i['’]d|i\s+would|we['’]d)\s+like|give|gives|gimme|ask|asks|asking|(?:i['’]m|i\s+am)\s+ruling|i\s+rule|(?:comes?|coming|boils?|boiling)\s+down\s+to|worth|worthy\s+of|(?:seems|sounds|looks|feels)\s+like|give\s+me|give\s+us|deserves?|deserving|earns?|go\s+with|going\s+with|opt\s+for|settle\s+on|call\s+(?:it|that|this)|calling\s+(?:it|that|this)|treat\s+(?:it|that|this)\s+as|rule\s+(?:it|that|this)|let['’]s\s+(?:have|see|get)|have|has|see|want|need|needs|needed|require|requires|required|requiring|call\s+for|calls\s+for|calling\s+for|ask\s+for|asks\s+for|asking\s+for|request|requests|requesting|warrant|warrants|demand|demands|necessitate|necessitates|merit|merits|trigger|triggers|pass|passes|succeed\s+(?:at|on|in)|perform|do|mandate|mandates|prompt|prompts|roll|rolls|go\s+for|involve|involves|invoke|invokes|resolved?\s+(?:with|by|using|via|through|as)|using|try|tries|attempting)\s+(?:(?:me|you|us|him|her|them|it|anyone|anybody|everyone|everybody|the\s+player|the\s+investigator)\s+)?(?:to\s+(?:make|roll|attempt|pass|see)\s+|for\s+)?(?:` + reArt + `)?(?P<slot>` + reSlot + `)` + reRollNoun + `\b`),
		newCueRule(`\broll(?:s|ing|ed)?\s+(?:me\s+(?:an?\s+|some\s+)?|to\s+hit\s+(?:with\s+)?|for\s+|to\s+|your\s+|on\s+|with\s+(?:your\s+)?|against\s+(?:your\s+)?|under\s+(?:your\s+)?|using\s+(?:your\s+)?)?(?:(?:hard|extreme|regular|opposed)\s+)?(?P<skill>[a-z0-9(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})`),
		newCueRule(`(?P<pre>(?:` + reWord + `\s+){0,2})(?:roll|rolls|rolling|check|checks|test|tests|dice|dice\s+roll|skill\s+check)\s+(?:itself\s+)?(?:(?:is|are|was|were|will\s+be|would\s+be|seems|remains)\s+)?(?:(?:definitely|clearly|absolutely|still|therefore|indeed|certainly|really|very\s+much)\s+)?(?:required|needed|necessary|mandatory|warranted|called\s+for|in\s+order|appropriate|unavoidable|essential|due)\b`),
		newCueRule(`\b(?:must|need\s+to|needs\s+to|have\s+to|has\s+to|got\s+to|gotta|will\s+need\s+to|(?:['’]ll|will)\s+want\s+to)\s+roll\b`),
		newCueRule(`\b(?:tell|tells|telling|ask|asks|asking|want|wants|get|getting|need|needs)\s+(?:you|him|her|them|everyone|everybody|anyone|the\s+player|the\s+investigator)\s+to\s+roll\b`),
		// a causative: "make you roll", "have them roll"
		newCueRule(`\b(?:make|makes|making|have|has|having)\s+(?:you|him|her|them|everyone|everybody|anyone|the\s+player|the\s+investigator)\s+roll\b`),
		keepUnknownRule(`^\s*(?:(?:[a-z]+\s+){0,3}[a-z]+,\s+)?\(?(?:(?:hard|extreme|regular|opposed)\s+)?(?P<skill>[a-z][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})\s+(?:rolls?|checks?|tests?)\b`),
		newCueRule(`^\s*(?:(?:yes|yeah|yep|so|okay|ok|then|right|alright)[,:]?\s+)*(?:roll|roll\s+required|roll\s+needed|requires\s+a\s+roll|dice\s+roll(?:\s+required)?|dice|a\s+roll|needs\s+a\s+roll|roll\s+it)\s*$`),
		// A game master's own words: "go ahead and roll", "roll away", "grab your dice".
		newCueRule(`\b(?:go\s+ahead\s+and\s+roll|roll\s+(?:it|them|away|now|please)\b|let['’]s\s+roll|grab\s+(?:the|your|some)\s+dice|dice\s+out|roll\s+when\s+(?:you['’]re|ready))`),
		// "Spot Hidden result: 14", "that's going to be Stealth", "Quick Listen for me, please"
		newCueRule(`^\s*(?:(?:okay|ok|so|right|alright|well|and)[,]?\s+)*(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})\s+(?:result|results|outcome)\s*$`),
		withWords(newCueRule(`\b(?:that|it|this)\s*(?:['’]s|\s+is)\s+(?:going\s+to|gonna)\s+be\s+(?:an?\s+)?(?P<skillname>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})`), "going", "gonna"),
		// "I'll roll this one behind the screen": the Keeper rolls for the player.
		newCueRule(`\b(?:i['’]ll|i\s+will|i['’]m\s+going\s+to|let\s+me)\s+roll\s+(?:this|that|it)(?:\s+one)?\s+(?:for\s+(?:you|her|him|them)|behind\s+the\s+screen|secretly|in\s+secret)\b`),
		// "Roll one of them.": a roll whose skill is left open.
		newCueRule(`\broll\s+(?:one\s+of\s+(?:them|the\s+two|those|these)|either(?:\s+one)?)\b`),
		// "I'll say roll after all": a verdict said in one word.
		newCueRule(`\b(?:i['’]ll|i\s+will|i['’]d|i\s+would|i|let['’]s)\s+(?:just\s+)?(?:say|call\s+it|go\s+with)\s+(?:a\s+)?roll\b`),
		// "I'd say Stealth", "I'd go with Jump", "a job for Library Use"
		newCueRule(`\b(?:i['’]d|i\s+would|i['’]ll|i\s+will|let['’]s\s+(?:just\s+)?)\s*(?:say|go\s+with|call\s+(?:it|that|this)|pick|choose|want)\s+(?:an?\s+)?(?P<skillname>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})`),
		newCueRule(`\b(?:a\s+job\s+for|a\s+case\s+for|a\s+matter\s+for|one\s+for)\s+(?:your\s+|their\s+|his\s+|her\s+)?(?P<skillname>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})`),
		// "This one's a Jump.", "That's Stealth.": a skill's own name, capitalised, ends the clause.
		capitalRule(`\b(?:this|that|it)(?:\s+one)?\s*(?:['’]s|\s+is|\s+will\s+be|['’]ll\s+be)\s+(?:an?\s+)?(?:(?:hard|extreme|regular)\s+)?(?P<wholeskill>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s*(?:,?\s*(?:and\s+)?(?:an?\s+)?(?:hard|extreme|tough|difficult|regular)(?:\s+one|\s+difficulty)?)?(?:,?\s*(?:i['’]m\s+afraid|i\s+think|i['’]d\s+say|then|please))?\s*$`),
		newCueRule(`^\s*(?:(?:a\s+)?quick\s+)?(?P<skillname>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}),?\s+(?:for\s+me|please)\b`),
		// A clause that is a skill's own name and nothing else: "Library Use.", "Track, at
		// Hard difficulty".
		weakRule(`^\s*(?P<wholeskill>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s*(?:,?\s*(?:at\s+)?(?:hard|extreme|regular)(?:\s+difficulty)?)?(?:,?\s*(?:obviously|of\s+course|clearly|surely|naturally|definitely|then|please|now|everyone|everybody|all\s+of\s+you|folks|i\s+think|i['’]d\s+say|i['’]m\s+afraid))?\s*$`),
		// "…, so Track at Hard difficulty."
		capitalRule(`,\s*so\s+(?:an?\s+)?(?P<wholeskill>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s*(?:,?\s*(?:at\s+)?(?:hard|extreme|regular)(?:\s+difficulty)?)?\s*$`),
		// "a Dodge roll would be most fair", "a Stealth roll seems right"
		newCueRule(`\ban?\s+(?P<slot>` + reSlot + `)(?:roll|check|test)\s+(?:would|seems|feels|is|sounds)\s+(?:be\s+)?(?:(?:most|the\s+most|more|only|quite|very|about)\s+)?(?:fair|fairest|right|appropriate|reasonable|best|sensible|proper)\b`),
		// "/r 1d100 Spot Hidden": a dice command.
		newCueRule(`(?:^|\s)/r(?:oll)?\s+(?:1?d100|d%)\s+(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})`),
		// "spotting the false bottom is Spot Hidden": a skill's own name, capitalised, as
		// what the clause's subject is.
		capitalTailRule(`\b(?:is|will\s+be|would\s+be|becomes)\s+(?:an?\s+)?(?:(?:hard|extreme|regular)\s+)?(?P<wholeskill>` + reSkillWords + `)\s*$`),
		// "Mechanically: a Medicine roll." A roll the clause names and nothing else.
		newCueRule(`^\s*(?:(?:still|just|simply|one|an?|(?:so\s+)?it['’]s\s+an?)\s+)*(?:(?:hard|extreme|regular|opposed|simple|straight|plain|normal)\s+)?(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})\s+(?:roll|check|test)\s*(?:,?\s*(?:please|then|now|though)|\s+at\s+(?:regular|hard|extreme)(?:\s+difficulty)?|\s+against\s+(?:regular|hard|extreme|the\s+[a-z]+(?:\s+[a-z]+)?|(?:his|her|their|its)\s+[a-z]+))?(?:,?\s+(?:because|since|given)\s+[^;]*)?\s*$`),
		// a roll named with what it is for: "One Medicine roll to identify the powder.",
		// "But a DEX roll to keep his balance, yes." (a judgement after it, "… would be
		// overkill", is no ruling: see calmPurpose)
		withUnless(keepUnknownRule(`^\s*(?:(?:but|and|so|then|still|just|one|an?)\s+)*(?:(?:hard|extreme|regular|opposed)\s+)?(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s+(?:roll|check|test)\s+to\s+[a-z]+(?:\s+[a-z0-9'’]+){0,8}(?:\s*,?\s*(?:yes|please|then|now|go))?\s*$`), judged),
		// "Quick Locksmith roll for the filing cabinet, Iris.": a roll named for its object,
		// as a clause of its own, is called for.
		withUnless(newCueRule(`^\s*(?:(?:but|and|so|then|still|just|one|an?|quick|another|right)\s+)*(?:(?:hard|extreme|regular|opposed)\s+)?(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s+(?:roll|check)\s+(?:for|on)\s+(?:the|this|that|your|his|her|their|it|him|them)\b(?:\s+[a-z0-9'’-]+){0,8}(?:\s*,?\s*[a-z]+)?\s*$`), judged),
		// a skill called and the player sent on: "Mechanical Repair, go.", "Locksmith then, and be quick"
		capitalStartRule(`^\s*(?:(?:okay|ok|right|alright|so)[,]?\s+)?(?P<skill>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)(?:\s*,\s*go\b|\s+then\s*,)`),
		// "Bob: Stealth, he's in plain sight.": after a lead naming who or what, a skill's
		// own name opens the clause.
		leadStartRule(`^\s*(?:(?:hard|extreme|regular)\s+)?(?P<wholeskill>` + reSkillWords + `)\s*(?:,|$)`),
		// "The guard behind it — Fighting (Brawl) to put him down."
		leadRule(`^\s*(?:an?\s+)?(?:(?:hard|extreme|regular)\s+)?(?P<wholeskill>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s+(?:roll\s+|check\s+)?to\s+[a-z]+`),
		// "Roll Electrical Repair.": a roll the clause names and nothing else, its skill
		// capitalised, kept as written when the taxonomy does not know it.
		capitalRule(`^\s*(?:\[[a-z ]+\]\s*)?(?:(?:now|so|then|ok|okay|alright|right|everybody|everyone|keeper|gm|all\s+of\s+you|you\s+all|y['’]all|folks|guys)[,:]?\s+)?(?:please\s+)?roll\s+(?:me\s+)?(?:for\s+|your\s+)?(?:(?:hard|extreme|regular)\s+)?(?P<anyskill>[a-z][a-z'’/-]*(?:\s+(?:of\s+)?[a-z(][a-z0-9'’/()%-]*){0,2}?)\s*(?:,?\s*(?:please|now)|\s+to\s+[a-z].*)?\s*$`),
		// "Gimme Spot.", "Everyone give me Sanity."
		newCueRule(`\b(?:let['’]s\s+(?:see|have|get)|show\s+me)\s+(?:an?\s+|that\s+|your\s+)?(?P<skillname>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s*(?:,?\s*(?:please|now))?\s*$`),
		capitalRule(`\b(?:give\s+me|gimme)\s+(?:an?\s+)?(?P<anyskill>[a-z][a-z'’/-]*(?:\s+(?:of\s+)?[a-z(][a-z0-9'’/()%-]*){0,2}?)\s*(?:,?\s*(?:please|now)|\s+to\s+[a-z].*)?\s*$`),
		// "*rolls* 41 on Spot Hidden", "Your Spot Hidden result was 12": a roll reported.
		newCueRule(`\b(?:roll|rolls|rolled|rolling)\s+(?:an?\s+)?\d+\s+(?:on|for|against)\s+(?:your\s+|the\s+)?(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})`),
		newCueRule(`(?:\b(?:your|the|his|her|their)\s+)?(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s+(?:check\s+|roll\s+)?result\s+(?:was|is|of|came\s+(?:up|in)(?:\s+at)?)\s+(?:an?\s+)?\d+`),
		// "38 on your Spot Hidden, under your 60"
		withWords(capitalRule(`\b\d{1,3}\s+(?:on|for|against)\s+(?:(?:your|his|her|their|the)\s+)?(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})`), digits...),
		// "Spot Hidden 34/60", "(Listen 12 vs 55)": a roll reported against its target.
		withWords(capitalStartRule(`(?P<tailskill>[a-z(][a-z0-9'’/()-]*(?:\s+[a-z(][a-z0-9'’/()-]*){0,2})\s*[:(,]?\s*\d{1,3}\s*(?:/|vs\.?|against|of)\s*(?:(?:your|his|her|their)\s+)?\d{1,3}\b`), digits...),
		// "Your Dodge roll was a 14", "the Swim check came up 67"
		withWords(newCueRule(`(?:\b(?:your|the|his|her|their)\s+)?(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s+(?:roll|check)\s+(?:was|came\s+(?:up|in\s+at|out\s+at))\s+(?:an?\s+)?\d{1,3}\b`), digits...),
		// "Result of your Listen check: 12."
		newCueRule(`\bresults?\s+(?:of|for|on)\s+(?:your|the|his|her|their)\s+(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s+(?:check|roll|test)\b`),
		// "grab your Handgun skill and roll"
		newCueRule(`\b(?:grab|use|take|get)\s+(?:your\s+)?(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s+(?:skill\s+)?and\s+roll\b`),
		// "you need to Dodge": a skill's name, capitalised, as the verb of a demand; "you
		// don't even have to Track" is its negation.
		capitalRule(`\b(?:need\s+to|needs\s+to|have\s+to|has\s+to|must|gotta|got\s+to)\s+(?P<skillname>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})`),
		// "First Aid it is."
		capitalStartRule(`(?:^\s*|,\s*)(?:so\s+|then\s+)?(?P<wholeskill>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s+it\s+is\s*$`),
		// "Spot Hidden to find out if …", "Track, to tell whether …": a skill named for what
		// the roll finds out.
		capitalStartRule(`^\s*(?P<wholeskill>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s*,?\s+to\s+(?:see|find\s+out|tell|check|notice|spot|hear|determine|learn|know|discover)\s+(?:if|whether|what|who|where|how)\b`),
		// "Spot, please.": an alias written as a skill's name is, asked for alone.
		capitalStartRule(`^\s*(?:your\s+)?(?P<skill>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?),?\s+(?:please|for\s+me)\s*$`),
		// "Fighting (Axe), obviously.": a specialisation names a skill.
		capitalStartRule(`^\s*(?P<wholeskill>[a-z][a-z'’/-]*(?:\s+[a-z][a-z'’/-]*)?\s*\([a-z /'’-]+\))\s*(?:,|$)`),
		// CoC's own words for a roll: a difficulty and a skill ("Hard Stealth.", "Extreme
		// difficulty Firearms (Handgun)"), a skill with bonus or penalty dice ("Firearms,
		// one penalty die"), a skill set against another ("your Stealth against his
		// Listen", "Fighting (Brawl) vs Fighting (Brawl)").
		capitalRule(`(?:^|[^a-z])(?:regular|hard|extreme)\s+(?:difficulty\s+)?(?P<wholeskill>` + reSkillWords + `)\s*(?:,|\(|$|\s+(?:roll|check|test|at|with|for|to|against|vs\b))`),
		capitalStartRule(`(?:^|,\s*|:\s*)(?:an?\s+)?(?P<wholeskill>` + reSkillWords + `)\s*(?:,\s*|\s+(?:roll\s+|check\s+)?(?:with|at)\s+)(?:one|two|a|an|1|2)\s+(?:more\s+)?(?:penalty|bonus)\s+di(?:e|ce)\b`),
		withWords(capitalStartRule(`^\s*(?:opposed(?:\s+(?:roll|check))?\s*,?\s*)?(?:(?:the\s+(?:investigator|player|character)['’]s|your|his|her|their)\s+)?(?P<wholeskill>`+reSkillWords+`)\s+(?:vs\.?|versus|against)(?:\s+[a-z(][a-z0-9'’()/-]*){1,3}\s*$`), "vs", "versus", "against"),
		// "two penalty dice on the First Aid roll"
		newCueRule(`\b(?:penalty|bonus)\s+di(?:e|ce)\s+(?:on|for|to)\s+(?:the|your|his|her|their|this)\s+(?P<slot>` + reSlot + `)(?:roll|check|test)\b`),
		// "That's your Track check, by the way": a roll reported as made.
		newCueRule(`\b(?:that['’]s|that\s+was|this\s+is|it['’]s|it\s+was)\s+(?:your|his|her|their|the)\s+(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s+(?:check|roll|test)\b`),
		// "three rooms, three Stealth rolls", "a series of Stealth rolls", "two Listen checks"
		newCueRule(`(?:^|,\s*)(?:a\s+few|a\s+couple\s+(?:of\s+)?|an?\s+(?:series|number|pair|round|string|sequence)\s+of|several|multiple|two|three|four|five|repeated)\s+(?:(?:hard|extreme|regular|opposed)\s+)?(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})\s+(?:rolls|checks|tests)\b`),
		// "Jenny, Throw.", "Maria, Locksmith, and you've got a penalty die": a skill named to a player.
		capitalRule(`^\s*(?:[a-z]+,\s+)+(?P<wholeskill>` + reSkillWords + `)\s*(?:,|$)`),
		// "a series of Stealth rolls", "two Listen checks"
		newCueRule(`^\s*(?:a\s+few|a\s+couple\s+(?:of\s+)?|an?\s+(?:series|number|pair|round|string|sequence)\s+of|several|multiple|two|three|repeated)\s+(?:(?:hard|extreme|regular|opposed)\s+)?(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})\s+(?:rolls|checks|tests)\b`),
		newCueRule(`\b(?:is|are|['’]s|remains|becomes|means|counts\s+as|(?:will|['’]ll|should|must|shall|gonna|going\s+to|has\s+to|have\s+to|needs\s+to|need\s+to|got\s+to|ought\s+to)\s+(?:(?:definitely|certainly|clearly|surely)\s+)?be)\s+(?:(?:definitely|clearly|certainly|still|therefore|plainly|simply|squarely|always|absolutely|obviously|undoubtedly|unquestionably|totally|surely|very\s+much|100%)\s+)?` + reCountArt + `(?P<slot>` + reSlot + `)` + reRollNoun + `\b`),
		// "Following the prints would be a Tracking roll for me": "would be" is the
		// speaker's ruling when "for me", "in my book" or "at my table" owns it.
		withWords(newCueRule(`\b(?:would|['’]d)\s+(?:(?:definitely|certainly|clearly)\s+)?be\s+`+reCountArt+`(?P<slot>`+reSlot+`)`+reRollNoun+`\s+(?:for\s+me|in\s+my\s+book|at\s+my\s+table|as\s+far\s+as\s+i['’]m\s+concerned)\b`), "for me", "my book", "my table", "concerned"),
		newCueRule(`(?P<pre>(?:` + reWord + `\s+){0,2})(?:must|has\s+to|have\s+to|needs\s+to|need\s+to|should)\s+(?:still\s+)?be\s+(?:rolled|tested|checked)\b`),
		newCueRule(`\ban?\s+(?P<slot>` + reSlot + `)` + reRollNoun + `\s+(?:decides|determines|resolves|settles|governs)\b`),
		newCueRule(`^\s*only\s+an?\s+(?P<slot>` + reSlot + `)(?:roll|check|test)\s+(?:gets|will|can|opens|lets|does|works)\b`),
		newCueRule(`\bonly\s+(?:with|by|through|on)\s+(?:an?\s+)?(?:successful\s+)?(?P<slot>` + reSlot + `)` + reRollNoun + `\b`),
		// "Absolutely a roll." "Definitely a Dodge check."
		newCueRule(`^\s*(?:(?:absolutely|definitely|clearly|certainly|yes|so|it['’]s|it\s+is|this\s+is|that['’]s|that\s+is|this\s+needs|that\s+needs|i\s+think|i\s+reckon|i\s+believe|i\s+guess|i['’]d\s+say|tentatively|honestly|frankly)[,:]?\s+)+an?\s+(?P<slot>` + reSlot + `)(?:roll|check|dice\s+roll)\s*$`),
		newCueRule(`\b(?:time\s+to\s+roll|pick\s+up\s+(?:the|your)\s+dice|roll\s+for\s+it)\b`),
		newCueRule(`\b(?:call|calls|calling|ask|asks|asking)\s+for\s+(?:an?\s+)?(?:(?:hard|extreme|regular|opposed)\s+)?(?P<skillname>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})`),
		newCueRule(`\b(?:requires|needs|require|need|test|tests|testing)\s+(?:your\s+|their\s+|his\s+|her\s+)?(?P<skillname>[a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2})`),
	}

	// stopWords may not stand where a skill name belongs: they show the phrase is about
	// something else ("no doubt you must roll", "I have to check").
	stopWords = map[string]bool{
		"you": true, "i": true, "we": true, "they": true, "he": true, "she": true, "it": true,
		"must": true, "need": true, "needs": true, "should": true, "will": true, "would": true,
		"can": true, "could": true, "may": true, "might": true, "shall": true, "to": true,
		"have": true, "has": true, "is": true, "are": true, "was": true, "be": true, "doubt": true,
		// a verb, not a skill: "I wouldn't argue with a roll"
		"argue":  true,
		"matter": true, "one": true, "way": true, "forget": true, "skip": true, "fail": true,
		"miss": true, "that": true, "which": true,
		// a verb of skipping: "nothing justifies skipping the Stealth roll"
		"skipping": true, "waiving": true, "waive": true, "forgo": true, "forgoing": true,
		// a preposition or focus word, never in a skill's name: "not happening without a
		// Jump roll", "this isn't just a grab. Roll Fighting"
		"without": true, "just": true, "for": true, "not": true, "no": true,
		"if": true, "but": true, "when": true, "because": true, "so": true, "then": true,
		"failed": true, "failing": true, "bad": true, "good": true, "lucky": true, "high": true,
		"low": true, "result": true, "outcome": true,
		// opinion verbs: "I don't think a roll is needed"
		"think": true, "believe": true, "feel": true, "suppose": true, "guess": true, "reckon": true,
		// not knowing: "I can't decide whether it's a roll"
		"whether": true, "decide": true, "tell": true, "say": true, "know": true, "sure": true,
		"determine": true,
		// a verb or a frame, not a skill: "without question this requires a roll", "a
		// situation where a roll …"
		"question": true, "requires": true, "require": true, "required": true, "calls": true,
		"call": true, "demands": true, "warrants": true, "where": true, "situation": true,
		"case": true,
		// pronouns and numbers: "I wouldn't make them roll", "Three checks"
		"them": true, "him": true, "her": true, "me": true, "us": true, "i'll": true, "i’ll": true,
		"i'm": true, "i’m": true, "i'd": true, "i’d": true, "two": true, "three": true, "four": true,
		"five": true, "six": true, "rule": true, "rules": true,
	}
	diceWords = map[string]bool{"d100": true, "1d100": true, "d%": true, "percentile": true,
		"percentiles": true, "dice": true}

	// clauseEnd is what ends a clause; clauseEnds finds its matches without it.
	clauseEnd = regexp.MustCompile(`[.!?;:]+(?:["'”’]{1,3})?(?:\s+|$)|\n+|,?\s+but\s+|,\s*yet\s+|\s+[-–—]+\s+|\s+however,?\s+|\|`)
	// contrast is a clause end that sets what comes before against what follows.
	contrast = regexp.MustCompile(`\bbut\b|\byet\b|\bhowever\b`)
	// conceded marks a clause granted only to be overruled: "one could wave it
	// through, yet …".
	// overruling opens a sentence that sets aside the one before: "There's a case for no
	// roll. Still, …".
	overruling = regexp.MustCompile(`^\s*(?:still|nonetheless|nevertheless|even\s+so|that\s+said|however|but|yet)\b`)
	conceded   = regexp.MustCompile(`\b(?:could|might|may|tempting|tempted|temptation|lean|leaning|a\s+case\s+for|arguably|admittedly|granted|in\s+principle|on\s+paper|at\s+first\s+glance|would|wouldn['’]t|normally|ordinarily|usually|typically)\b`)
	// counterfactual is a concession about other circumstances, whose ruling the reply
	// then sets aside: what it implies is the other ruling.
	concessionWord = regexp.MustCompile(`\b(?:normally|ordinarily|usually|typically)\b`)
	// restated is an assumption that restates what was given rather than a condition.
	restated      = regexp.MustCompile(`\b(?:assuming|provided|if)\s+(?:[a-z'’]+\s+){1,6}?as\s+(?:described|stated|given|written|(?:you|they|the\s+player)\s+(?:say|said|describe|described))\b`)
	restatedWords = []string{"as described", "as stated", "as given", "as written", "as you s", "as they s", "as you describe", "as the player"}
	// irrealis speaks of another world than the scene's ("If it were in Latin, we'd be
	// talking about a Language roll"): its ruling words are not the reply's ruling.
	irrealis       = regexp.MustCompile(`\bif\s+(?:[a-z'’]+\s+){0,4}(?:were|had)\b|\bwould(?:n['’]t)?\b|['’]d\s+(?:be|have|need|call|ask|want)\b`)
	counterfactual = regexp.MustCompile(`\b(?:would|wouldn['’]t|normally|ordinarily|usually|typically)\b`)
	// answerYes and answerNo open the reply's own answer to its question.
	answerYes = regexp.MustCompile(`^\s*(?:(?:oh|ah|well|hmm+|um+|uh+|erm|ha|heh|lol|so)\s*,?\s+)*(?:yes|yeah|yep|yup|aye|it\s+does|it\s+is|they\s+do|it\s+sure\s+does|absolutely|definitely|indeed|sure|of\s+course|certainly|correct|you\s+bet|(?:i['’]m\s+)?afraid\s+so)\b`)
	// rollKind asks which kind of roll, not whether: "Combined roll? No."
	rollKind = regexp.MustCompile(`^\s*(?:is\s+(?:it|this)\s+)?(?:an?\s+)?(?:combined|opposed|pushed|contested|group|secret|bonus|penalty)\s+(?:roll|check|die|dice)s?\s*$`)
	// answerYesLex and answerNoLex open an answer in the lexicons' languages.
	answerYesLex = regexp.MustCompile(`^\s*(?:sì|sí|oui|ja|jawohl|sim|tak|claro|certo|bien\s+sûr|natürlich|klar)(?:[\s,.!:;]|$)`)
	answerNoLex  = regexp.MustCompile(`^\s*(?:non|não|nao|nein|nee|nie)(?:[\s,.!:;]|$)` + answerNoMore)
	// askedIf reports a question as a statement: "You ask if this needs a roll."
	askedIf  = regexp.MustCompile(`^\s*(?:you|they|the\s+player|the\s+players|he|she)\s+(?:ask|asks|asked|wonder|wonders|want\s+to\s+know)\s+(?:if|whether)\b`)
	answerNo = regexp.MustCompile(`^\s*(?:(?:oh|ah|well|hmm+|um+|uh+|erm|ha|heh|lol|so)\s*,?\s+)*(?:not\s+a\s+chance|no\s+chance|no\s+way|never|(?:(?:of\s+)?course|certainly|absolutely|definitely|surely|sure|obviously|clearly)\s+not|no|nope|nah|it\s+doesn['’]t|it\s+does\s+not|you\s+(?:don['’]t|wouldn['’]t|won['’]t|do\s+not)|it\s+isn['’]t|it\s+is\s+not|not\s+at\s+all|not\s+really|not\s+this\s+time|(?:i['’]m\s+)?afraid\s+not)\b`)
	// leadingCond is a condition that opens a clause and leaves its ruling open ("should
	// the branch hold, no roll is needed"); intent is one about what the player chooses
	// to do, which leaves the ruling firm ("if you want to cross, make a Jump roll").
	leadingCond = regexp.MustCompile(`^\s*(?:should|were|had|provided|providing|assuming|as\s+long\s+as|so\s+long\s+as|if|unless|in\s+case|only\s+if|depending\s+on)\b`)
	// modalShould is "should" as a modal, not a condition: "should be a Stealth roll".
	modalShould = regexp.MustCompile(`^\s*should\s+(?:be|probably|definitely|likely|just|still|need|needs|require|call|make|roll|take|get|go)\b`)
	intent      = regexp.MustCompile(`^\s*(?:if|should)\s+(?:you|he|she|they|we|the\s+(?:player|investigator|character|pc))\s+(?:(?:still|really|truly|do|does|actually)\s+)?(?:wants?|wish(?:es)?|intends?|chooses?|decides?|tries|try|insists?|plans?|means?|goes|go|attempts?|opts?|elects?)\b`)
	// partWords show a clause rules on one part of the action ("walking there needs no
	// roll, but the climb itself …"): a roll for another part is then no contradiction.
	partWords  = regexp.MustCompile(`\b(?:part|parts|portion|half|first|second|step|stage|leg|bit|rest|remainder|approach|approaching|walk|walking|getting\s+(?:to|there)|reaching|initial|start|beginning|itself)\b`)
	condMarker = regexp.MustCompile(`\b(?:if|unless|whether|otherwise|in\s+case|as\s+long\s+as|so\s+long\s+as|provided|providing|assuming|only\s+when)\b`)
	// concession marks a clause about other circumstances: "while a climber might
	// normally do this automatically, …".
	concession  = regexp.MustCompile(`^\s*(?:while|whilst)\b|\b(?:although|though|normally|ordinarily|usually|typically|under\s+normal\s+circumstances)\b`)
	negatedNext = regexp.MustCompile(`^\s*(?:(?:is|would\s+be|will\s+be|does)\s+not\b|(?:is|does|would|wo)n['’]?t\b|(?:is|would\s+be|seems)\s+(?:wrong|too\s+generous|inappropriate|a\s+mistake|unfair|unwarranted|out\s+of\s+the\s+question|off\s+the\s+table)\b)`)
	// notCond is what holds a condition word without a condition: "even if", "as though",
	// and an "if" or "whether" that is what a roll finds out ("roll to see whether").
	notCond     = regexp.MustCompile(`\bif\s+(?:i['’]ve|i\s+have)\s+ever\s+(?:seen|heard|met)\b|\byou(?:['’]ll|\s+will)\s+(?:(?:definitely|certainly|probably)\s+)?want\s+to\b|\bunless\s+i['’]m\s+(?:missing|mistaken|wrong|misreading)\b|\bif\s+you\s+ask\s+me\b|\bif\s+you['’]re\s+(?:curious|wondering)\b|\bif\s+you\s+(?:must|want\s+to)\s+know\b|\bif\s+anything\b|\b(?:let['’]s|i['’]d|i['’]ll|i\s+would|i\s+will|i\s+can|i\s+must|i)\s+(?:(?:just|only|still|also)\s+)?say\b|\b(?:i['’]m|i\s+am)\s+(?:happy|glad)\s+to\s+say\b|\b(?:it['’]s|it\s+is)\s+(?:safe|fair)\s+to\s+say\b|\b(?:even|as)\s+(?:if|though)\b|\bto\s+(?:see|find\s+out|learn|discover|notice)\s+(?:if|whether)\b`)
	modal       = regexp.MustCompile(`\b(?:would|could|might)\b|['’]d\b`)
	reported    = regexp.MustCompile(`\b(?:(?:was|were|been|am|are|is)\s+told|instructed|claims?|claiming|says?|saying|argues?|arguing|insists?|insisting|suggests?|asserts?|hopes?|thinks|believes|reckons|asks?\s+(?:(?:me|us)\s+to|to|for|if|whether)|asking\s+(?:to|for|if|whether)|requests?|requesting|proposes?|proposing|tries\s+to|trying\s+to|implies|implying|narrates?|narrating|describes?|describing|framing|frames|assumes?|assuming|wants?\s+to)\b`)
	negatedAuto = regexp.MustCompile(`(?:\bnot|n['’]t|` + reNoApostrophe + `|\bno|\bnever|\bcannot|\bhardly|\bnothing|\bnobody|\banything-but|\bfar\s+from|\btoo\s+[a-z]+\s+to)\s+(?:[a-z'’]+\s+){0,3}$`)
	// negatedAbility denies the ability an automatic success needs: "she's not able to
	// do this automatically", "he can't just walk through it automatically".
	negatedAbility = regexp.MustCompile(`(?:\bnot\s+able\s+to|\bunable\s+to|\bcan['’]?t|\bcannot|\bcan\s+not|\bcouldn['’]t|\bwon['’]t\s+be\s+able\s+to|\bno\s+such\s+thing\s+as|(?:\bwon['’]t|\bwill\s+not|\bwouldn['’]t|\bdon['’]t|\bdo\s+not|\bnot)\s+(?:allow|let|permit))\s+(?:[a-z'’]+\s+){0,4}$`)
	// saidAfter follows a quote someone is said to speak: `"…," the player insists`.
	saidAfter = regexp.MustCompile(`^\s*,?\s*(?:(?:the\s+[a-z]+|he|she|they|you|i|[a-z]+)\s+)?(?:says?|said|insists?|insisted|claims?|claimed|argues?|argued|asks?|asked|suggests?|suggested|protests?|protested|objects?|objected|pleads?|pleaded)\b`)
	// saidBefore comes before a quote someone is said to speak: `the player insists: "…"`.
	saidBefore = regexp.MustCompile(`\b(?:says?|said|insists?|insisted|claims?|claimed|argues?|argued|asks?|asked|suggests?|suggested|protests?|protested|objects?|objected|pleads?|pleaded|writes?|wrote|posts?|posted)\s*[:,]?\s*$`)
	// singleQuoted is a quote in single marks: opened after a space, closed before one or
	// a stop, with apostrophes inside words ("I'm") allowed.
	singleQuoted = regexp.MustCompile(`(?:^|[\s(])('(?:[^'\n]|'[a-z]){1,300}?')(?:[\s.,!?;:)]|$)`)
	quoted       = regexp.MustCompile(`"[^"\n]{0,300}"|“[^”\n]{0,300}”`)
	// preNegation is a negation among the words a rule captured before its ruling.
	preNegation = regexp.MustCompile(`\bnot\b|n['’]t\b|` + reNoApostrophe + `|\bno\b|\bnever\b|\bdoubt\b`)
	// hedge marks a ruling the reply itself is unsure of: "I'm not sure a roll is needed".
	hedge = regexp.MustCompile(`\b(?:not\s+(?:sure|certain|confident)|tempted|unsure|uncertain|unclear|perhaps|maybe|possibly|probably|presumably|likely|arguably)\b`)
	// hedgeWord is a hedge on the ruling itself, not on why someone says it.
	hedgeWord = regexp.MustCompile(`\b(?:perhaps|maybe|possibly|probably|likely|arguably)\b`)
	// alternative offers both rulings at once: "an automatic success or a roll".
	alternative      = regexp.MustCompile(`\b(?:roll|check|test)\b[^.;!?]{0,40}?,?\s+or\s+(?:don['’]t|do\s+not)\s*(?:[,!]|$)|\bor\s+no\s+(?:roll|check|dice)\b|\bno\s+(?:roll|check|dice)\s+or\s+(?:an?\s+)?(?:[a-z]+\s+){0,2}(?:roll|check|test)\b|\b(?:roll|check|test)s?\s+or\s+(?:an?\s+)?(?:automatic|auto\b|pass\b)|\b(?:automatic(?:ally)?(?:\s+success(?:ful)?)?|auto[- ]?success|pass)\s+or\s+(?:an?\s+)?(?:skill\s+)?(?:roll|check|test|dice)\b`)
	alternativeWords = requiredWords(alternative)
	quoteMarks       = []string{"\"", "”"}
)

// cue is one ruling phrase found in a reply.
type cue struct {
	decision Decision
	skill    string
	// negAt, when above zero, is where to look back from for a negation instead of the
	// ruling's start: before the words a rule captured only for their skill, so that
	// "don't think a Climb roll is needed" sees its "don't".
	negAt int
	// from and to are where the cue stands in the reply.
	from, to int
	// negated says the ruling was read through a negation.
	negated bool
	// part says the cue's clause speaks of one part of the action.
	part bool
	// end, when above zero, is where the cue's own words end in its clause, when the
	// rule's match reached past the skill it names ("roll Stealth if the …").
	end int
	// either says the cue offers two skills to choose from ("roll Swim or Climb"):
	// the roll is left open.
	either bool
	// topic is the content words before the cue in its clause ("the cliff after it"
	// for "the cliff after it is a Climb roll"): what the ruling is about.
	topic []string
}

// reNoApostrophe is a negative contraction typed without its apostrophe ("dont",
// "isnt"), spelled out so that words merely ending in "nt" ("want", "point") are not read
// as negations.
const reNoApostrophe = `\b(?:do|does|did|is|are|was|were|ca|wo|should|would|could|need|must|have|has)nt\b`

// parseProse reads a ruling stated in plain language with the built-in lexicon. ok is
// false when the text holds no ruling phrase at all.
func parseProse(text string, tax *Taxonomy) (Parsed, bool) {
	t := proseTally(text, tax, DefaultLexicon())
	if t.n == 0 {
		return Parsed{}, false
	}
	d, skill, _, _ := t.outcome(false)
	if d == DecisionUnparsed {
		skill = ""
	}
	return Parsed{Decision: d, How: HowProse, Skill: skill}, true
}

// proseTally finds the prose cues of text. Quoted words are usually the player's: they
// are read only if nothing else rules.
func proseTally(text string, tax *Taxonomy, lex *Lexicon) cueTally {
	if holdsAny(text, quoteMarks) && strings.Contains(text, "?") {
		text = unquoteAsked(text)
	}
	var quotes [][]int
	unquoted := text
	if holdsAny(text, quoteMarks) {
		quotes = quoted.FindAllStringIndex(text, -1)
	}
	if strings.Contains(text, " '") || strings.HasPrefix(text, "'") {
		// 'Single quotes' hold words too: the group is the quote, without what bounds it.
		for _, m := range singleQuoted.FindAllStringSubmatchIndex(text, -1) {
			quotes = append(quotes, m[2:4])
		}
		slices.SortFunc(quotes, func(a, b []int) int { return a[0] - b[0] })
	}
	if quotes != nil {
		unquoted = blankSpans(text, quotes, func([]int) bool { return true })
	}
	t := proseCues(unquoted, text, tax, lex)
	if t.n == 0 && !t.conditional {
		// Quoted words said by someone ("'No roll is needed,' the player insists") stay
		// set aside; a quote nobody is said to speak may be the reply's own ruling.
		said := blankSpans(text, quotes, func(q []int) bool {
			return saidAfter.MatchString(asciiLower(text[q[1]:min(len(text), q[1]+40)])) ||
				saidBefore.MatchString(asciiLower(text[max(0, q[0]-40):q[0]]))
		})
		t = proseCues(said, text, tax, lex)
	}
	switch {
	case t.n > 0 && t.hasRoll && !t.hasPass && t.rollSkill == "" && t.hasBare && t.bare.decision == DecisionRoll && !t.either &&
		!strings.Contains(asciiLower(text[t.bare.from:min(len(text), t.bare.to+40)]), " or "):
		// "Brawl! Roll it!": a roll without a skill, and a skill's name alone beside it.
		t.rollSkill = t.bare.skill
	case t.n > 0 || t.conditional:
	case t.hasConceded:
		t.add(t.conceded)
	case t.hasBare:
		t.add(t.bare)
	}
	return t
}

// askedQuote is a question quoted as someone asks it: `"Does this need a roll?" you ask.`
var askedQuote = regexp.MustCompile(`["“]([^"”\n]{1,300}\?)["”]\s*,?\s*(?:you|he|she|they|the\s+players?|the\s+investigators?)\s+(?:ask|asks|asked|wonder|wonders|wondered)\b`)

// askedBefore is the same question with its asker first: `The player writes: "Do I need
// to roll?"`.
var askedBefore = regexp.MustCompile(`\b(?:asks?|asked|writes?|wrote|wonders?|wondered|posts?|posted)\s*[:,]?\s*["“]([^"”\n]{1,300}\?)["”]`)

// unquoteAsked keeps a quoted question someone asks as a question of the reply, so that
// its answer ("It does not.") is read against it; the quote marks and "you ask" go.
func unquoteAsked(text string) string {
	locs := append(askedQuote.FindAllStringSubmatchIndex(text, -1), askedBefore.FindAllStringSubmatchIndex(text, -1)...)
	if locs == nil {
		return text
	}
	b := []byte(text)
	for _, m := range locs {
		copy(b[m[0]:m[2]], blankOut(text[m[0]:m[2]]))
		copy(b[m[3]:m[1]], blankOut(text[m[3]:m[1]]))
	}
	return string(b)
}

// cueTally is what the cues of a reply add up to: the first roll and the first pass
// cue, the first skill each names, and whether every pass cue rules on one part of the
// action only. It lets the search skip cues that cannot change the outcome.
type cueTally struct {
	n                int
	hasRoll, hasPass bool
	rollCue, passCue cue
	rollSkill        string
	passSkill        string
	allPassPart      bool
	conditional      bool // a cue was set aside as open on a condition
	// hedgedRoll and hedgedPass are rulings set aside as unsure ("perhaps a Spot Hidden
	// roll would be fair"): beside a firm ruling the other way, the reply hedges between both.
	hedgedRoll, hedgedPass bool
	openRuling             bool // a ruling was left open on a condition after it
	// conceded is the ruling a counterfactual concession implies ("a garden fence
	// wouldn't need dice, but this one …" implies a roll): it counts only when
	// nothing else in the reply rules.
	conceded    cue
	hasConceded bool
	either      bool // a roll cue offers two skills to choose from
	// bare is the first weak cue: a skill's name alone, a roll only if nothing else rules.
	bare    cue
	hasBare bool
	// mention is the first ruling set aside as no ruling of the reply's own (another
	// table's, a condition's, a question put as "whether"): a clause that answers it
	// ("It doesn't.", "I don't think it's warranted") is the reply's ruling.
	mention    cue
	hasMention bool
	// unexplained are the clauses after the last one that ruled that hold a ruling's
	// words (a lexicon's heads) and that no rule read, neither as a ruling nor as one
	// set aside: the reply's last word on the ruling, unread (the precision gate).
	unexplained [][2]int
	// wavered says words no rule read leaned against a ruling before another was made:
	// "No roll. Well — maybe a Listen roll, if you want to be strict. No, no roll."
	wavered bool
}

// tallyMark is what a clause may change in a tally: a clause that changes none of it
// was read by no rule.
type tallyMark struct {
	n                                          int
	bare, conditional, open, hedgedR, hedgedP  bool
	mention, conceded, either, hasRoll, hasPas bool
}

func (t *cueTally) mark() tallyMark {
	return tallyMark{t.n, t.hasBare, t.conditional, t.openRuling, t.hedgedRoll, t.hedgedPass,
		t.hasMention, t.hasConceded, t.either, t.hasRoll, t.hasPass}
}

func (t *cueTally) add(c cue) {
	t.n++
	t.either = t.either || c.either && c.decision == DecisionRoll
	switch c.decision {
	case DecisionRoll:
		if !t.hasRoll {
			t.hasRoll, t.rollCue = true, c
		}
		if t.rollSkill == "" {
			t.rollSkill = c.skill
		}
	default:
		if !t.hasPass {
			t.hasPass, t.passCue, t.allPassPart = true, c, c.part
		} else if !c.part {
			t.allPassPart = false
		}
		if t.passSkill == "" {
			t.passSkill = c.skill
		}
	}
}

// matters says whether adding c, whatever its skill, could change the tally.
func (t *cueTally) matters(c cue) bool {
	if c.decision == DecisionRoll {
		return !t.hasRoll
	}
	return !t.hasPass || t.allPassPart && !c.part
}

// mattersWithSkill says whether c would matter for the skill it may name.
func (t *cueTally) mattersWithSkill(c cue) bool {
	if c.decision == DecisionRoll {
		return t.rollSkill == ""
	}
	return t.passSkill == ""
}

// settled says no later cue can change the outcome.
func (t *cueTally) settled() bool {
	return t.hasRoll && t.hasPass && !t.allPassPart && t.rollSkill != "" && t.passSkill != ""
}

// outcome is the tally's ruling. Cues both ways are a roll when the pass cues speak of
// another part of the action (or another skill) and the reply does not correct itself;
// otherwise a contradiction. cues are the deciding cue, or the two that disagree.
func (t *cueTally) outcome(corrected bool) (d Decision, skill, rule string, cues []cue) {
	switch {
	case t.n == 0:
		return DecisionUnparsed, "", RuleNone, nil
	case t.hasRoll && !t.hasPass && t.hedgedPass, t.hasPass && !t.hasRoll && t.hedgedRoll:
		// "I'd say no roll, but perhaps a Spot Hidden roll would be fair"
		return DecisionUnparsed, "", RuleHedge, []cue{t.rollCue, t.passCue}[:1]
	case t.hasRoll && !t.hasPass:
		rule := RuleProse
		if t.rollCue.negated {
			rule = RuleProseNegated
		}
		return DecisionRoll, t.rollSkill, rule, []cue{t.rollCue}
	case t.hasPass && !t.hasRoll:
		rule := RuleProse
		if t.passCue.negated {
			rule = RuleProseNegated
		}
		return DecisionPass, t.passSkill, rule, []cue{t.passCue}
	}
	otherSkill := t.rollSkill != "" && t.passSkill != "" && t.rollSkill != t.passSkill
	if !corrected && (t.allPassPart || otherSkill || otherTopic(t.rollCue.topic, t.passCue.topic)) {
		return DecisionRoll, t.rollSkill, RuleAnyPart, []cue{t.rollCue, t.passCue}
	}
	first, second := t.rollCue, t.passCue
	if second.from < first.from {
		first, second = second, first
	}
	return DecisionUnparsed, "", RuleContradiction, []cue{first, second}
}

// topicStop are words that say nothing of what a ruling is about.
var topicStop = wordSet(`the and but yet for nor with without from into onto upon over under
	about above after before this that these those there here then than its it's his her hers their
	theirs your yours our ours you she him they them who whom which what when where while whilst
	though although however also just simply really actually quite very much more most some any
	all each every both either neither none nothing not no never don't doesn't isn't aren't won't
	can't cannot wouldn't shouldn't would should could might may must will shall can need needs
	needed require requires required requiring call calls called make makes making take takes
	have has had was were are is be been being does did doing get gets got one ones thing things
	part step bit whole action task attempt situation scene case way time moment roll rolls
	rolling check checks test tests dice skill ruling rule decision verdict answer call so well
	okay yes yeah sure fine think guess say said i'd i'm i've you'd you're you'll he's she's
	they're it'll that's there's here's let's let me my mine like even still only already`)

func wordSet(words string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}

// topicWords are the content words of s: three letters or more, not in topicStop.
func topicWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r == '\'' || r == '’' || r >= 0x80)
	}) {
		w = strings.ReplaceAll(strings.Trim(w, "'’"), "’", "'")
		if len(w) >= 3 && !topicStop[w] {
			out = append(out, w)
		}
	}
	return out
}

// otherTopic says whether two rulings speak of different things: each names one, and
// they share no word ("the ditch is nothing, no dice; the cliff is a Climb roll").
func otherTopic(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	for _, w := range a {
		if slices.Contains(b, w) {
			return false
		}
	}
	return true
}

// rulingWords are the words a ruling turns on; a reply that stops inside one ("the
// answer is no ro") is cut off mid-ruling.
var rulingWords = []string{"roll", "rolls", "check", "test", "dice", "automatic", "automatically",
	"success", "successful", "succeeds", "required", "needed", "necessary", "decision", "verdict",
	// a condition on the ruling cut off: "it's automatic unl"
	"unless", "provided", "providing", "assuming", "except"}

// danglingWords end a reply only when it was cut off before an alternative.
var danglingWords = wordSet(`or`)

// truncatedRuling reports whether text stops inside a ruling word: no closing
// punctuation, and its last word is the start of one of rulingWords but not the word.
func truncatedRuling(text string) bool {
	text = strings.TrimRight(text, " \t\r\n")
	i := len(text)
	for i > 0 && text[i-1] >= 'a' && text[i-1] <= 'z' || i > 0 && text[i-1] >= 'A' && text[i-1] <= 'Z' {
		i--
	}
	last := asciiLower(text[i:])
	if danglingWords[last] && (i == 0 || text[i-1] == ' ') {
		return true // "… since the wound is minor... or"
	}
	if len(last) < 2 || i < len(text)-12 || slices.Contains(rulingWords, last) {
		return false
	}
	for _, w := range rulingWords {
		if len(last) < len(w) && strings.HasPrefix(w, last) {
			return true
		}
	}
	return false
}

// answered adds the ruling of a question clause the reply answers itself: "Needs a
// roll? Yes: Stealth" is a roll, "Automatic? No." a roll, "Dice? Nope." a pass. The
// answer is the next clause that is no question; its skill, or one named just after,
// is the ruling's.
func answered(clause, origClause string, at int, lower, orig string, next [][]int, from int, tax *Taxonomy, lex *Lexicon, t *cueTally) {
	for k := 0; k < len(next) && k < 3; k++ {
		answer := lower[from:next[k][0]]
		if strings.TrimSpace(answer) == "" {
			from = next[k][1]
			continue
		}
		if strings.Contains(lower[next[k][0]:next[k][1]], "?") && !rhetoricalNo(answer) {
			from = next[k][1]
			continue // "A roll? For this? Yes."
		}
		if interjection.MatchString(answer) {
			from = next[k][1]
			continue // "Do you need to roll to hear the bell? Come on. No."
		}
		if answerLabel(answer, lower[next[k][0]:next[k][1]]) {
			from = next[k][1]
			continue // "**Q:** … **A:** No." (parse_english9.go)
		}
		if rollKind.MatchString(clause) {
			return // "Opposed roll? No.": which kind of roll, not whether to roll
		}
		answer = trimAnswerLead(answer) // "Honestly, no." (parse_english9.go)
		no := answerNo.MatchString(answer) || answerNoLex.MatchString(answer)
		yes := !no && (answerYes.MatchString(answer) || answerYesLex.MatchString(answer))
		if !yes && !no {
			return
		}
		var q cueTally
		clauseCues(interrogative(askedIf.ReplaceAllStringFunc(clause, blankOut)), origClause, at, func() bool { return false }, tax, nil, "", &q)
		if q.n == 0 && lex != nil {
			// "Serve un tiro? Sì: Furtività.", "Teste de Rastrear? Não."
			lex.lexCues(clause, origClause, at, tax, &q, func() bool { return false })
		}
		if q.n == 0 && lex != nil {
			lex.askedRoll(clause, at, &q) // "Faut-il un jet pour monter ? Non."
		}
		if q.n == 0 {
			if d := declarative(clause); d != clause {
				clauseCues(d, origClause, at, func() bool { return false }, tax, nil, "", &q) // "Do you need a roll? No."
			}
		}
		if c, ok := askedRoll(clause, origClause, at, tax); q.n == 0 && ok && !(no && rollsAgain(answer)) {
			q.add(c) // "Roll to see if the train's on time? Nah." (parse_english9.go)
		}
		if q.n == 0 || q.hasRoll == q.hasPass {
			return
		}
		c := q.rollCue
		if q.hasPass {
			c = q.passCue
		}
		if no && c.decision == DecisionRoll && c.skill != "" && k+1 < len(next) {
			// "Roll Jump? No — Climb.": the answer swaps the skill, not the ruling.
			if other := strings.TrimSpace(orig[next[k][1]:next[k+1][0]]); len(other) <= 30 && !strings.ContainsAny(other, "?") {
				if sk, ok := tax.Canonical(strings.Trim(other, " .!")); ok && sk != c.skill {
					c.skill = sk
					t.add(c)
					return
				}
			}
		}
		if no {
			c.decision = other(c.decision)
		}
		if c.skill == "" || c.decision == DecisionRoll && c.skill == "" {
			c.skill = firstSkill(orig[from:min(len(orig), from+80)], tax, true)
		}
		if c.skill == "" && c.decision == DecisionRoll && lex != nil {
			c.skill = lex.lexSkill(lower[:min(len(lower), from+80)], orig[:min(len(orig), from+80)], from, tax) // "Sí: Esquivar"
		}
		if c.decision != DecisionRoll {
			c.skill = ""
		}
		t.add(c)
		return
	}
}

// concede reads a counterfactual concession ("a garden fence wouldn't need dice") and
// keeps the other ruling, with a skill named in the rest of its sentence, for when
// nothing else rules.
func concede(clause, origClause string, at int, orig string, from int, tax *Taxonomy, t *cueTally) {
	var q cueTally
	// The concession's own "normally" is what is set aside, not its ruling.
	clause = concessionWord.ReplaceAllStringFunc(clause, blankOut)
	clauseCues(clause, origClause, at, func() bool { return false }, tax, nil, "", &q)
	if q.n == 0 || q.hasRoll == q.hasPass {
		return
	}
	c := q.rollCue
	if q.hasPass {
		c = q.passCue
	}
	c.decision, c.negated, c.skill = other(c.decision), true, ""
	if c.decision == DecisionRoll {
		rest := orig[from:min(len(orig), from+120)]
		if end := strings.IndexAny(rest, ".!?\n"); end >= 0 {
			rest = rest[:end]
		}
		c.skill = firstSkill(rest, tax, false)
	}
	t.conceded, t.hasConceded = c, true
}

func other(d Decision) Decision {
	if d == DecisionRoll {
		return DecisionPass
	}
	return DecisionRoll
}

// blankSpans blanks the spans of text that keep says to.
func blankSpans(text string, spans [][]int, keep func([]int) bool) string {
	var b []byte
	for _, sp := range spans {
		if !keep(sp) {
			continue
		}
		if b == nil {
			b = []byte(text)
		}
		copy(b[sp[0]:sp[1]], blankOut(text[sp[0]:sp[1]]))
	}
	if b == nil {
		return text
	}
	return string(b)
}

func blankOut(s string) string { return strings.Repeat(" ", len(s)) }

// proseCues tallies the cues of every clause. text is searched; orig (same length)
// gives the reply's own spelling of an unknown skill.
func proseCues(text, orig string, tax *Taxonomy, lex *Lexicon) cueTally {
	lower := joinIdioms(keepAbbreviations(foldLower(text)))
	if strings.Contains(lower, "¿") || strings.Contains(lower, "¡") {
		// Spanish opening marks are no part of the word after them ("¿Tirada de Sigilo?").
		lower = invertedMarks.Replace(lower)
	}
	var t cueTally
	start := 0
	ends := append(clauseEnds(lower), []int{len(lower), len(lower)})
	starts := tax.starts
	lead, othersRoll := "", false
	// condBefore says the clause before opened with a condition on the world.
	condBefore, wasCond := false, false
	// intentRuled says a clause that opened with the player's choice ruled; intentAt is
	// the tally's count before the clause being read, when it opens with one.
	intentRuled, intentAt := false, -1
	// choiceOpen says a clause that opened with the player's choice left its ruling open.
	choiceOpen := false
	// read is the tally as the clause before left it: a clause that changes it rules,
	// and words no rule read before a ruling are the deliberation it ends.
	read := t.mark()
	for i, loc := range ends {
		if m := t.mark(); m != read {
			t.wavered = t.wavered || leanedAgainst(t.unexplained, read, lower, orig, tax, lex)
			read, t.unexplained = m, t.unexplained[:0]
		}
		condBefore, wasCond = wasCond, false
		afterBut := start > 0 && strings.Contains(lower[max(0, start-6):start], "but")
		clause := lower[start:loc[0]]
		sep := lower[loc[0]:loc[1]]
		question := strings.Contains(sep, "?") || askedIf.MatchString(clause)
		origClause := orig[start:loc[0]]
		at := start
		start = loc[1]
		if strings.TrimSpace(clause) == "" {
			continue
		}
		wasCond = leadingCond.MatchString(clause) && !intent.MatchString(clause) && !modalShould.MatchString(clause)
		if question {
			if c, ok := skillAsked(origClause, lower, ends, i, loc[1], at, tax); ok {
				t.add(c) // "Spot Hidden? No — it's in plain sight."
				lead = ""
				continue
			}
			// "Needs a roll? It does: Stealth." — a question the reply answers itself.
			if !t.hasRoll || !t.hasPass {
				answered(clause, origClause, at, lower, orig, ends[i+1:], loc[1], tax, lex, &t)
			}
			continue
		}
		if i+1 < len(ends) && lex != nil && lex.labelHedged(clause, sep, lower[loc[1]:ends[i+1][0]]) {
			t.conditional, t.openRuling = true, true // "Jet requis : peut-être."
			continue
		}
		if i+1 < len(ends) && labelAnswer(clause, sep, lower[loc[1]:ends[i+1][0]]) {
			// "Jet nécessaire : non", "Probe nötig: ja (Schwimmen)": a ruling's label
			// answered yes or no is that question answered.
			n := t.n
			if answered(clause, origClause, at, lower, orig, ends[i+1:], loc[1], tax, lex, &t); t.n > n {
				continue
			}
		}
		overruled := contrast.MatchString(sep)
		for k := i + 1; !overruled && k < len(ends) && k <= i+2; k++ {
			// "There's a case for no roll; he knows the woods. Still, …"
			overruled = overruling.MatchString(lower[ends[k-1][1]:ends[k][0]])
		}
		if overruled && (conceded.MatchString(clause) || concededMore.MatchString(clause)) {
			if !t.hasConceded && counterfactual.MatchString(clause) {
				concede(clause, origClause, at, orig, loc[1], tax, &t)
			}
			continue // "one could wave it through, yet …": granted, then overruled
		}
		// A clause names the part of the action it rules on in its own words or in the
		// words just before it on the same line ("- Part 1 (the walk): no roll").
		lo := max(0, at-120)
		if nl := strings.LastIndexByte(lower[lo:at], '\n'); nl >= 0 {
			lo += nl
		}
		// Whether the clause is about a part is asked only of a clause that rules.
		partWindow, known, isPart := lower[lo:loc[0]], false, false
		part := func() bool {
			if !known {
				known, isPart = true, partWords.MatchString(partWindow)
			}
			return isPart
		}
		if i+1 < len(ends) && strings.Contains(sep, ":") {
			// "First Aid: no. Medicine: yes": a skill's name answered yes or no.
			if sk, ok := tax.Canonical(strings.TrimSpace(origClause)); ok && len(clause) <= maxBareClause {
				next := lower[loc[1]:ends[i+1][0]]
				yes, no := skillYes.MatchString(next), skillNo.MatchString(next)
				if yes || no {
					c := cue{decision: DecisionRoll, skill: sk, from: at, to: loc[0]}
					if no {
						c.decision, c.negated = DecisionPass, true
					}
					t.add(c)
					lead = ""
					continue
				}
			}
		}
		orSkill := false
		if i+1 < len(ends) && (leadsOn(sep) || strings.Contains(sep, "...")) {
			if m := orOther.FindStringIndex(lower[loc[1]:ends[i+1][0]]); m != nil {
				orSkill = leadingSkill(orig[loc[1]+m[1]:ends[i+1][0]], tax)
			}
		}
		if orSkill {
			t.either = true // "Roll First Aid — or, hmm, Medicine": the skill is left open, not the roll
		} else if i+1 < len(ends) && (leadsOn(sep) || strings.Contains(sep, "...")) && openNext(lower[loc[1]:ends[i+1][0]]) {
			// "Roll Jump — unless the plank is still there": the ruling is left open.
			var q cueTally
			clauseCues(clause, origClause, at, part, tax, starts, "", &q)
			if q.n > 0 || q.hasBare {
				t.conditional, t.openRuling = true, true
			}
			lead = ""
			continue
		}
		if m := hedgedSkill.FindStringSubmatchIndex(clause); m != nil {
			if _, ok := tax.Canonical(origClause[m[2]:m[3]]); ok {
				t.conditional, t.openRuling = true, true // "…: maybe Stealth"
				lead = ""
				continue
			}
		}
		if t.hasMention && t.n == 0 && (anaphoricNo.MatchString(clause) || anaphoricYes.MatchString(clause)) && !anaphorOpen(clause) {
			// "I considered whether the wall needs a Climb roll. It doesn't.": the answer
			// rules on what the clause before set aside.
			c := t.mention
			c.from, c.to, c.negated, c.topic = at, loc[0], true, nil
			if anaphoricNo.MatchString(clause) {
				c.decision = other(c.decision)
			}
			if c.decision == DecisionPass {
				c.skill = ""
			}
			t.add(c)
			continue
		}
		if afterBut && t.n == 1 && t.hasPass && grantedOne.MatchString(clause) {
			// "You don't need a Swim roll to paddle, but getting past the breakers, that
			// absolutely is one.": after a but, "is one" or "does" grants the roll just
			// denied, for another part of the action.
			t.passCue.part, t.allPassPart = true, true
			t.add(cue{decision: DecisionRoll, skill: t.passSkill, from: at, to: loc[0]})
			continue
		}
		if othersRoll && ownNo.MatchString(clause) {
			// "Some Keepers would roll Throw here. I wouldn't.": the reply's own ruling.
			t.add(cue{decision: DecisionPass, from: at, to: loc[0], negated: true})
			othersRoll = false
			continue
		}
		othersRoll = othersRoll || mayMatch(clause, otherKeeperWords) && otherKeeperRoll.MatchString(clause)
		if lead != "" && condLead(lead, lex) {
			// "If this is in the game, then yes: Locksmith roll.": the condition before
			// the colon holds the ruling after it.
			var q cueTally
			clauseCues(clause, origClause, at, part, tax, starts, "", &q)
			if lex != nil && q.n == 0 {
				lex.lexCues(clause, origClause, at, tax, &q, part) // "Si elle est éteinte : jet de …"
				q.hasBare = q.hasBare || len(clause) <= maxBareClause && lex.bareSkill(clause, tax) != ""
			}
			if q.n > 0 || q.hasBare {
				t.conditional, t.openRuling = true, true
				lead = ""
				continue
			}
		}
		if (t.conditional || condBefore) && lex != nil && opensWith(clause, lex.otherwise) {
			// "Should the guards be drunk, no roll; otherwise, roll it.": the other branch
			// of a condition is as open as the first.
			var q cueTally
			clauseCues(clause, origClause, at, part, tax, starts, "", &q)
			if lex.lexCues(clause, origClause, at, tax, &q, part); q.n > 0 || q.hasBare {
				t.openRuling = true
				lead = ""
				continue
			}
		}
		if intent.MatchString(clause) || (intentRuled || choiceOpen) && choiceCond.MatchString(clause) && !nextFirm.MatchString(clause) {
			if intentRuled || choiceOpen {
				// "If she forces the window, a STR roll; if she picks the lock, Locksmith":
				// a ruling for each choice the player may make leaves the ruling open.
				t.conditional, t.openRuling = true, true
				lead = ""
				continue
			}
			intentAt = t.n
		}
		n, bare := t.n, t.hasBare
		before := t.mark()
		wasOpen := t.conditional
		if clauseCues(clause, origClause, at, part, tax, starts, lead, &t); t.settled() {
			break
		}
		if lex != nil {
			if lex.lexCues(clause, origClause, at, tax, &t, part); t.settled() {
				break
			}
			if t.mark() == before && !leadsOn(sep) {
				t.unexplained = append(t.unexplained, [2]int{at, loc[0]})
			}
			if !t.hasBare && len(clause) <= maxBareClause {
				if sk := lex.bareSkill(clause, tax); sk != "" {
					// "… renoncer au jet : Nager.": a skill's name alone, in the lexicon's words
					t.bare, t.hasBare = cue{decision: DecisionRoll, skill: sk, from: at, to: loc[0]}, true
				}
			}
		}
		intentRuled = intentRuled || intentAt >= 0 && t.n > intentAt
		// "If he takes the fire escape, Climb roll; if he goes down the stairs, no roll":
		// a ruling left open on one choice of the player's, then one for another.
		choiceOpen = choiceOpen || t.n == n && (!wasOpen && t.conditional || lex != nil && lex.headIdx.has(clause)) && choiceCond.MatchString(clause)
		intentAt = -1
		lead = ""
		if t.n == n && t.hasBare == bare && leadsOn(sep) {
			lead = clause[max(0, len(clause)-80):]
		}
	}
	if t.mark() != read {
		t.unexplained = t.unexplained[:0]
	}
	// The tally skips cues that cannot change it: read each clause kept alone, from the
	// last, to tell a ruling made again from words no rule reads. What stands before a
	// ruling made again is deliberation it ends.
	var kept [][2]int
	for k := len(t.unexplained) - 1; k >= 0; k-- {
		u := t.unexplained[k]
		if !lex.headIdx.has(lower[u[0]:u[1]]) || irrealis.MatchString(lower[u[0]:u[1]]) {
			continue // no ruling's words, or words of another world
		}
		var q cueTally
		clauseCues(lower[u[0]:u[1]], orig[u[0]:u[1]], u[0], func() bool { return false }, tax, starts, "", &q)
		if lex.lexCues(lower[u[0]:u[1]], orig[u[0]:u[1]], u[0], tax, &q, func() bool { return false }); q.mark() != (tallyMark{}) {
			t.wavered = t.wavered || leanedAgainst(t.unexplained[:k], read, lower, orig, tax, lex)
			break
		}
		kept = append(kept, u)
	}
	t.unexplained = kept
	return t
}

// anaphorOpen says whether an answer goes on, after a comma, to a condition: "It
// doesn't, unless the dog barks."
func anaphorOpen(clause string) bool {
	i := strings.IndexByte(clause, ',')
	return i >= 0 && (openNext(clause[i+1:]) || condMarker.MatchString(clause[i+1:]))
}

// couldArgue offers a ruling as arguable: "you could argue for a Spot Hidden roll".
var couldArgue = regexp.MustCompile(`\b(?:could|might|may)\s+(?:well\s+)?(?:argue|make\s+(?:a|the)\s+case|say)\b`)

// concessiveHedge grants, after a ruling, that the other one could be argued: "…,
// though you could argue it's automatic".
var concessiveHedge = regexp.MustCompile(`\b(?:though|although|but|then\s+again)\b[^.;]*\b(?:could|might|arguably|argue)\b[^.;]*$`)

// worldCond is a condition on the world, which an answer after it does not settle:
// "If the rope holds, no roll. It doesn't." is no ruling.
var worldCond = regexp.MustCompile(`\b(?:if|unless|provided|providing|assuming|in\s+case|as\s+long\s+as|so\s+long\s+as|only\s+when|otherwise)\b|^\s*should\s+(?:the|a|an|it|he|she|they|you|we|there)\b`)

var (
	// anaphoricNo denies what a clause before set aside: "It doesn't.", "I don't think
	// it's warranted.", "I wouldn't."
	anaphoricNo = regexp.MustCompile(`^\s*(?:but\s+|and\s+|no\s*,\s*)?(?:(?:it|that|this|one)\s+(?:doesn['’]t|does\s+not|isn['’]t|is\s+not|won['’]t|will\s+not)(?:\s+(?:really\s+)?(?:need\s+(?:one|it)|needed|warranted|necessary|required|called\s+for))?|i\s+(?:don['’]t|do\s+not)\s+(?:think|believe|reckon)\s+(?:it['’]s|it\s+is|that['’]s|one['’]s|one\s+is|it\s+needs\s+one|it\s+does)(?:\s+(?:really\s+)?(?:warranted|needed|necessary|required|called\s+for))?|i\s+(?:wouldn['’]t|won['’]t|would\s+not|will\s+not)(?:\s+bother)?)\s*(?:$|,)`)
	// anaphoricYes grants it: "It does."
	// grantedOne ends a clause with a roll granted by ellipsis: "that absolutely is one",
	// "the lock does".
	grantedOne   = regexp.MustCompile(`\b(?:(?:absolutely|definitely|certainly|really|surely|very\s+much|sure)\s+)?(?:is\s+one|does|needs\s+one|calls\s+for\s+one|requires\s+one|warrants\s+one)\s*$`)
	anaphoricYes = regexp.MustCompile(`^\s*(?:and\s+|yes\s*,?\s*)?(?:it|that|this)\s+does\s*(?:$|,)`)
)

// frontedWithout says whether the match at [from, to) is a "without … roll" that opens
// its clause and is set off by a comma: the clause after it, not the "without", says
// whether the roll is wanted ("Without a Swim roll, he drowns" calls for one), and a
// negated one is read by the double-negation rules.
func frontedWithout(clause string, from, to int) bool {
	return strings.HasPrefix(clause[from:], "without") && strings.TrimSpace(clause[:from]) == "" &&
		strings.HasPrefix(strings.TrimLeft(clause[to:], " "), ",")
}

// choiceCond opens a clause with what the player does: "if she picks the lock instead".
var choiceCond = regexp.MustCompile(`^\s*(?:and\s+|or\s+)?if\s+(?:you|he|she|they|we|the\s+(?:player|investigator|character))\s+[a-z]+`)

// opensWith says whether clause opens with one of phrases, after spaces and filler
// ("and", "but").
func opensWith(clause string, phrases []string) bool {
	if loc := fillerPrefix.FindStringIndex(clause); loc != nil {
		clause = clause[loc[1]:]
	}
	clause = strings.TrimLeft(clause, " \t\n,")
	for _, p := range phrases {
		if phraseAt(clause, p, 0) == 0 {
			return true
		}
	}
	return false
}

// invertedMarks blanks Spanish opening question and exclamation marks, keeping offsets.
var invertedMarks = strings.NewReplacer("¿", "  ", "¡", "  ")

// abbreviations end in a full stop that ends no sentence: "Dr. Harrow".
var abbreviations = wordSet(`dr mr mrs ms mx prof st mt jr sr capt sgt lt col gen rev fr vs etc`)

// keepAbbreviations blanks the full stop after an abbreviation, so that "If Dr. Harrow's
// lantern is lit, …" stays one clause.
func keepAbbreviations(s string) string {
	var b []byte
	for i := strings.IndexByte(s, '.'); i >= 0; {
		j := i
		for j > 0 && s[j-1] >= 'a' && s[j-1] <= 'z' {
			j--
		}
		if i-j >= 2 && abbreviations[s[j:i]] && (j == 0 || !isLetter(s[j-1])) && i+1 < len(s) && s[i+1] == ' ' {
			if b == nil {
				b = []byte(s)
			}
			b[i] = ' '
		}
		k := strings.IndexByte(s[i+1:], '.')
		if k < 0 {
			break
		}
		i += k + 1
	}
	if b == nil {
		return s
	}
	return string(b)
}

var (
	skillYes = regexp.MustCompile(`^\s*(?:yes|yep|needed|required|roll|roll\s+it)\b`)
	skillNo  = regexp.MustCompile(`^\s*(?:no|nope|not\s+needed|not\s+required|none|no\s+roll)\b`)
)

// hedgedSkill is a clause that offers a skill unsure: "maybe Stealth", "perhaps a Climb
// roll".
var hedgedSkill = regexp.MustCompile(`^\s*(?:(?:in|for|on)\s+(?:this|that|the|your)\s+(?:case|one|instance|situation|scene)\s*,?\s+)?(?:maybe|perhaps|possibly|probably)\s+(?:an?\s+)?([a-z][a-z'’/-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)(?:\s+(?:roll|check|test))?\s*[?]?\s*$`)

var (
	// otherKeeperRoll is a roll another table would call for: "Some Keepers would roll
	// Throw here."
	otherKeeperRoll  = regexp.MustCompile(`\b(?:keepers?|gms?|dms?|referees?|tables?|groups?|people|others|folks)\s+(?:(?:might|may|could|would|will|often|usually|sometimes|probably)\s+)+(?:roll|call\s+for|ask\s+for|want|require|demand)\b`)
	otherKeeperWords = requiredWords(otherKeeperRoll)
	// ownNo is the reply's own answer to it, in one clause: "I wouldn't", "not me".
	ownNo = regexp.MustCompile(`^\s*(?:but\s+)?(?:i\s+(?:wouldn['’]t|would\s+not|won['’]t|will\s+not|don['’]t|do\s+not|shouldn['’]t)|not\s+me|i['’]d\s+not)\s*$`)
)

// joinIdioms joins "anything but" with a hyphen: its "but" joins no two clauses
// ("anything but automatic" is a roll).
func joinIdioms(s string) string {
	s = maskRollIdioms(s) // "Rock and roll, folks" (parse_precision8.go)
	// "Throw me a Fighting roll" (parse_english9.go)
	s = foldRequestIdioms(s)
	if strings.Contains(s, "anything but ") {
		s = strings.ReplaceAll(s, "anything but ", "anything-but ")
	}
	if strings.Contains(s, "nothing but ") {
		s = strings.ReplaceAll(s, "nothing but ", "nothing-but ") // "nothing but a Dodge roll will do"
	}
	if strings.Contains(s, "doubt") {
		// "no doubt", "little doubt", "without a doubt" affirm: their "doubt" negates
		// nothing. (Same length, so offsets hold.)
		s = affirmingDoubt.Replace(s)
	}
	return s
}

// affirmingDoubt joins the idioms whose "doubt" affirms into words no negation reads.
var affirmingDoubt = strings.NewReplacer("no doubt", "nodoubt ", "little doubt", "littledoubt ",
	"without a doubt", "withoutadoubt  ", "without doubt", "withoutdoubt ", "beyond doubt", "beyonddoubt ")

// leadsOn says whether a clause end sets what follows as what it leads into: a colon
// or a dash.
func leadsOn(sep string) bool {
	return strings.ContainsAny(sep, ":-–—")
}

// reFiller are words that open a clause without changing what it says: "— well, only if
// the car swerves".
const reFiller = `(?:(?:well|that\s+is|i\s+mean|mind\s+you|of\s+course|but|though|and|at\s+least|then\s+again|actually)\s*,?\s+)*(?:but\s+)?(?:only\s+)?`

var (
	// nextCond opens a clause that leaves the ruling before it open: "— unless the plank
	// is still there", "— or take the long way round".
	nextCond = regexp.MustCompile(`^\s*` + reFiller + `(?:unless|if|when|except\s+(?:if|when)|provided|providing|as\s+long\s+as|so\s+long\s+as|assuming|only\s+if|or)\b`)
	// nextFirm opens a clause that leaves it firm: a roll's outcome ("if you fail, …"),
	// the player's intent, a threat ("or else").
	nextFirm = regexp.MustCompile(`^\s*` + reFiller + `(?:if|unless)\s+(?:you|he|she|they|it|we)\s+(?:fail|fails|succeed|succeeds|miss|misses|botch|botches|fumble|fumbles|make\s+it|makes\s+it|pass|passes|roll|rolls|get\s+it|gets\s+it)\b|^\s*or\s+(?:else|you|he|she|they|the|it)\b`)
)

// openNext says whether a clause after a dash leaves the ruling before it open.
func openNext(next string) bool {
	if otherRoute.MatchString(next) {
		return true // "…, or you could take the bridge"
	}
	if !nextCond.MatchString(next) || nextFirm.MatchString(next) {
		return false
	}
	if loc := fillerPrefix.FindStringIndex(next); loc != nil {
		next = next[loc[1]:] // "— and, if you want to stay quiet, …": the intent after the filler
	}
	return !intent.MatchString(next)
}

// otherRoute offers the player another way: "or you could take the bridge", "or just
// walk round".
var otherRoute = regexp.MustCompile(`^\s*(?:well\s*,?\s*)?or\s+(?:(?:you|he|she|they|we)\s+(?:could|can|may|might|just|simply|instead)|just|simply|instead)\b`)

// orOther opens a clause that offers another choice: "— or, hmm, Medicine".
var orOther = regexp.MustCompile(`^\s*or\s*,?\s*(?:(?:hmm+|um+|uh+|well|maybe|perhaps|rather)\s*,?\s*)*`)

// leadingSkill says whether s, up to a comma, opens with a skill's name of up to three
// words.
func leadingSkill(s string, tax *Taxonomy) bool {
	if i := strings.IndexAny(s, ",;?!"); i >= 0 {
		s = s[:i]
	}
	words := strings.Fields(strings.TrimRight(s, ". "))
	for n := min(3, len(words)); n > 0; n-- {
		if _, ok := tax.Canonical(strings.Trim(strings.Join(words[:n], " "), ".")); ok {
			return true
		}
	}
	return false
}

// fillerPrefix is the filler that opens a clause.
var fillerPrefix = regexp.MustCompile(`^\s*(?:(?:well|that\s+is|i\s+mean|mind\s+you|of\s+course|but|though|and|at\s+least|then\s+again|actually)\s*,?\s+)+`)

// clauseCues adds the cues of one lowercased clause at offset at of the reply to t, in
// the order of the rules and, within a rule, of the text.
// starts are the first words of the taxonomy's skill names: a weak rule (a skill's name
// alone) is tried only on a short clause that opens with one; nil tries none.
// lead is the clause before, when it ends in a colon or a dash and rules nothing itself
// ("Getting through the hedge: Stealth."): what the clause's ruling is about.
func clauseCues(clause, orig string, at int, part func() bool, tax *Taxonomy, starts map[string]bool, lead string, t *cueTally) {
	if mayMatch(clause, alternativeWords) && alternative.MatchString(clause) {
		return // "this could be an automatic success or a roll" rules neither way
	}
	masked := []byte(clause)
	// cond is hypothetical's test of the whole clause, the same for every cue in it.
	cond := -1
	open := -1     // whether the clause opens with a condition on the world
	innerCap := -1 // whether a word past the clause's first is capitalised
	var sc scopeCache
	// noCond is the clause with what holds a condition word without a condition
	// ("even if", "to see whether") blanked, made once and only when asked for.
	var blankedCond string
	noCond := func() string {
		if blankedCond == "" {
			blankedCond = notCond.ReplaceAllStringFunc(clause, blankOut)
			if holdsAny(clause, restatedWords) {
				// "assuming the lock is as rusted as described": the given, not a condition
				blankedCond = restated.ReplaceAllStringFunc(blankedCond, blankOut)
			}
		}
		return blankedCond
	}
	// onWorld says whether the clause holds a condition on the world, asked once.
	world := -1
	onWorld := func() bool {
		if world < 0 {
			world = 0
			if worldCond.MatchString(clause) {
				world = 1
			}
		}
		return world == 1
	}
	// text is masked as a string, made again only after a match has blanked words.
	text, dirty := clause, false
	find := func(rules []cueRule, d Decision) {
		for _, r := range rules {
			if r.weak && (len(masked) > maxBareClause || !starts[firstWord(clause)]) {
				continue // a skill's name alone is a short clause that opens with one
			}
			if r.lead && lead == "" || r.tailCapital && !lastWordCapital(orig) {
				continue
			}
			if r.innerCapital {
				if innerCap < 0 {
					innerCap = 0
					if hasInnerCapital(orig) {
						innerCap = 1
					}
				}
				if innerCap == 0 {
					continue
				}
			}
			if dirty {
				text, dirty = string(masked), false
			}
			if !mayMatch(text, r.words) {
				continue
			}
			for _, m := range r.re.FindAllStringSubmatchIndex(text, -1) {
				if r.unless != nil && r.unless.MatchString(text[m[0]:m[1]]) || r.unmasked && text[m[0]:] != clause[m[0]:] {
					continue
				}
				c, cat, ok := matchCue(r, m, text, masked, orig, d, tax)
				if !ok {
					continue
				}
				copy(masked[m[0]:m[1]], blankOut(clause[m[0]:m[1]]))
				dirty = true
				if d == DecisionPass && frontedWithout(clause, m[0], m[1]) {
					continue // "Without a Swim roll, he drowns": what follows says which way
				}
				if d == DecisionPass && r.negated && withoutEnded(clause[m[0]:m[1]]) {
					c.decision = DecisionRoll // "without a sound means a Stealth roll"
				}
				negAt := cat
				if c.negAt > 0 {
					negAt = c.negAt
				}
				if d == DecisionPass && r.negated && deniesOwnRoll(clause, m[0], m[1]) {
					continue // "I can't roll dice for you — I'm a text model": the speaker's dice
				}
				if d == DecisionPass && r.negated && !quantifiedNo(clause[m[0]:m[1]]) && scopedNegations(clause, m[0])%2 == 1 {
					// "It's not like she could walk past without a Stealth roll", "I can't
					// see any way this isn't a Track roll": a denial denied.
					c.decision = DecisionRoll
				}
				c.negated = c.negated || r.negated
				if d == DecisionRoll && r.negated && deniedWithout(clause, m[0], m[1]) {
					c.decision = DecisionPass // "I don't see why he can't do it without a roll"
				}
				if d == DecisionRoll && !r.negatable {
					if n := scopedNegations(clause, max(negAt, cat)); n%2 == 1 {
						if deniesOwnRoll(clause, m[0], m[1]) {
							continue
						}
						c.decision = DecisionPass // "the Keeper should not call for Stealth"
						c.negated = true
					} else if n > 0 {
						c.negated = true // "can't not roll Dodge": two negations cancel
					}
				}
				if c.decision == DecisionRoll && othersRoll(clause, m[0], m[1]) {
					continue // "I'm rolling Stealth for the cultist": the Keeper's roll for another
				}
				if c.decision == DecisionRoll && c.skill == "" && genericRolls(clause, m[0], m[1]) {
					continue // "asking for rolls on routine tasks teaches players …": rolls in general
				}
				if c.decision == DecisionRoll && rollsTalk(clause, m[0], m[1]) {
					continue // "Swim rolls are meant for real risk" (parse_precision8.go)
				}
				if speakerOption(clause, min(negAt, cat)) {
					// "I could make you roll for it", "I might ask for Stealth": an option
					// the speaker holds, not the ruling.
					if c.decision == DecisionRoll {
						t.hedgedRoll = true
					} else {
						t.hedgedPass = true
					}
					continue
				}
				c.from, c.to = at+m[0], at+m[1]
				// Whether a pass is about one part matters only while every pass so far is.
				c.part = c.decision == DecisionPass && t.hasPass && t.allPassPart
				if !t.matters(c) && !(c.skill != "" && t.mattersWithSkill(c)) {
					continue
				}
				if cond < 0 {
					cond = 0
					// Blanking what holds a condition word without a condition can only
					// take condition words away: a clause with none needs no blanking.
					if condMarker.MatchString(clause) && condMarker.MatchString(noCond()) {
						cond = 1
					}
				}
				end := m[1]
				if c.end > 0 {
					end = c.end // the words after the skill are not the ruling's
				}
				if hypothetical(clause, cat, end, cond == 1, &sc) {
					if comma := sc.commaBefore(clause, cat); hedgeWord.MatchString(clause[comma:end]) && !reported.MatchString(clause[comma:end]) || concessiveHedge.MatchString(clause[max(0, cat-60):cat]) || couldArgue.MatchString(clause[comma:cat]) {
						if c.decision == DecisionRoll {
							t.hedgedRoll = true
						} else {
							t.hedgedPass = true
						}
					}
					if onWorld() {
						t.conditional = true // "If not, no roll.": a ruling left on a condition
					}
					if !t.hasMention && !onWorld() {
						// "whether", another table, reported words: no condition on the world
						t.mention, t.hasMention = c, true
					}
					continue
				}
				if k := strings.IndexByte(clause[end:min(len(clause), end+100)], ','); k >= 0 && (otherRoute.MatchString(clause[end+k+1:]) || optionOr(clause[:cat], clause[end+k+1:])) {
					// "you could roll Jump, or you could take the bridge": the roll is one
					// way among others the reply leaves open.
					t.conditional, t.openRuling = true, true
					continue
				}
				if cond == 1 && trailingCondition(clause[end:min(len(clause), end+100)]) {
					// "she makes a Swim roll if she falls in": the ruling is left open,
					// and so is the reply's, whatever else it says.
					t.conditional, t.openRuling = true, true
					continue
				}
				if open < 0 {
					open = 0
					if leadingCond.MatchString(noCond()) && !intent.MatchString(clause) && !modalShould.MatchString(clause) && !requirement.MatchString(clause[max(0, m[1]-120):m[1]]) {
						open = 1
					}
				}
				if open == 1 {
					t.conditional = true // "should the branch bear his weight, he needs no roll"
					continue
				}
				if c.decision == DecisionPass && (!t.hasPass || t.allPassPart) {
					c.part = part()
				}
				if c.decision == DecisionRoll && !t.hasRoll || c.decision == DecisionPass && !t.hasPass {
					c.topic = topicWords(clause[max(0, m[0]-80):m[0]])
					if len(c.topic) == 0 && lead != "" {
						c.topic = topicWords(lead)
					}
					if len(c.topic) == 0 {
						after := clause[m[1]:min(len(clause), m[1]+80)]
						if k := strings.IndexByte(after, ','); k >= 0 {
							after = after[:k]
						}
						c.topic = topicWords(after) // "no roll for the door"
					}
					if len(c.topic) == 0 && partDeixis.MatchString(clause[max(0, m[0]-40):m[0]]) {
						c.topic = []string{"#part"} // "That part needs a First Aid roll."
					}
				}
				if r.weak && (lead == "" || len(topicWords(lead)) == 0) {
					if !t.hasBare {
						t.bare, t.hasBare = c, true
					}
					continue
				}
				if t.add(c); t.settled() {
					return
				}
			}
		}
	}
	find(doubleNegation, DecisionRoll)
	find(doubleNegationAfter, DecisionRoll)
	find(moreDoubleNegation, DecisionRoll)
	find(passRules, DecisionPass)
	find(passRules9, DecisionPass) // parse_english9.go
	find(rollRules, DecisionRoll)
	find(rollRules9, DecisionRoll) // parse_english9.go
}

// sentenceNegation is a negation that takes a whole statement in its scope: "there's no
// way anyone needs a roll", "it's not like she'll hear it automatically", "following a
// road is never something that needs a roll".
var sentenceNegation = regexp.MustCompile(`\b(?:no\s+way|not\s+like|only\s+(?:a\s+fool|an\s+idiot|a\s+madman)\s+would|(?:do|does|did)n['’]?t\s+(?:think|believe|reckon|imagine|expect|see)|(?:do|does|did)\s+not\s+(?:think|believe|reckon|imagine|expect|see)|can['’]?t\s+imagine|cannot\s+imagine|(?:can['’]?t|cannot)\s+see\s+(?:any\s+)?(?:way|how|reason\s+why)|never\s+(?:something|a\s+(?:thing|case|situation))|not\s+(?:something|a\s+(?:thing|case|situation)))\b`)

// sententialNegation says whether a negation with the clause's statement in its scope
// stands before at, with no comma between.
func sententialNegation(clause string, at int) bool {
	from := max(0, at-100)
	if k := strings.LastIndexAny(clause[from:at], ",;"); k >= 0 {
		from += k + 1
	}
	loc := sentenceNegation.FindStringIndex(clause[from:at])
	// "no way he reads it unless he passes a Library Use check": the roll is the way.
	return loc != nil && !condOrWithout.MatchString(clause[from+loc[1]:at])
}

var condOrWithout = regexp.MustCompile(`\b(?:unless|if|without|until|except)\b`)

// matchCue checks one match against its rule's groups and works out its skill. at is
// where the ruling itself starts, after any words captured only for their skill. text
// is the clause as the rule searched it; masked is the same with the rule's earlier
// matches blanked out, which is what a look-back before the match sees.
func matchCue(r cueRule, m []int, text string, masked []byte, orig string, d Decision, tax *Taxonomy) (c cue, at int, ok bool) {
	c = cue{decision: d}
	at = m[0]
	if r.negatable {
		if text[m[0]:m[1]] == "automatically" && strings.HasPrefix(strings.TrimSpace(text[m[1]:]), "fail") {
			return cue{}, 0, false
		}
		before := string(masked[lastWordsStart(masked[:m[0]], 4):m[0]])
		wide := string(masked[lastWordsStart(masked[:m[0]], 7):m[0]])
		if negatedAuto.MatchString(before) || negatedAbility.MatchString(wide) || strings.Contains(text[m[0]:m[1]], "not") || strings.Contains(text[m[0]:m[1]], "far from") || strings.Contains(text[m[0]:m[1]], "anything-but") || negatedNext.MatchString(text[m[1]:]) || sententialNegation(text, m[0]) {
			c.decision, c.negated = DecisionRoll, true
		}
		return c, at, true
	}
	for i, name := range r.re.SubexpNames() {
		if name == "" || m[2*i] < 0 {
			continue
		}
		group, origGroup := text[m[2*i]:m[2*i+1]], orig[m[2*i]:m[2*i+1]]
		switch name {
		case "slot":
			for _, w := range strings.Fields(group) {
				if stopWords[w] {
					return cue{}, 0, false
				}
			}
			c.skill = slotSkill(origGroup, tax)
			c.either = eitherSkill(origGroup, tax)
		case "pre":
			c.skill = firstSkill(origGroup, tax, true)
			at = m[2*i+1]
			c.negAt = m[2*i]
			if preNegation.MatchString(group) {
				c.negAt = m[2*i+1] // the negation is inside the captured words
			}
		case "anyskill":
			if !capitalised(origGroup) {
				return cue{}, 0, false
			}
			if s, known := tax.Canonical(origGroup); known {
				c.skill = s
			} else {
				c.skill = skillValue(origGroup, tax)
			}
			return c, at, true
		case "tailskill":
			words := strings.Fields(strings.Trim(origGroup, "("))
			for k := range words {
				if r.capital && !capitalised(strings.Trim(words[k], "(")) {
					continue
				}
				if s, known := tax.Canonical(strings.Trim(strings.Join(words[k:], " "), "(")); known {
					c.skill = s
					return c, at, true
				}
			}
			return cue{}, 0, false
		case "wholeskill":
			if r.capital && !capitalised(origGroup) {
				return cue{}, 0, false
			}
			s, known := tax.Canonical(origGroup)
			if !known || !ownName(origGroup, s) {
				return cue{}, 0, false
			}
			c.skill = s
			return c, at, true
		case "skill", "skillname":
			if r.capital && !capitalised(strings.Fields(origGroup + " x")[0]) {
				return cue{}, 0, false
			}
			words := strings.Fields(origGroup)
			if name == "skill" && len(words) > 0 && isDice(words) {
				c.skill = firstSkill(orig[m[2*i]:], tax, false)
				return c, at, true
			}
			for n := len(words); n > 0; n-- {
				s, known := tax.Canonical(strings.Join(words[:n], " "))
				if am := abilitySkill.FindStringSubmatch(strings.Join(words[:n], " ")); !known && am != nil {
					s, known = tax.Canonical(am[1]) // "Dexterity (Stealth)"
				}
				if known && (name == "skill" || ownName(strings.Join(words[:n], " "), s)) {
					c.skill = s
					c.end = m[2*i] + fieldsEnd(origGroup, n)
					c.either = orSkill.MatchString(strings.Join(words[n:], " ")) && eitherSkill(orig[m[2*i]:min(len(orig), m[2*i+1]+40)], tax)
					return c, at, true
				}
			}
			if name == "skill" && len(words) > 0 && !stopWords[strings.ToLower(words[0])] {
				for n := len(words); n > 0; n-- {
					if s, ok := misspelt(strings.Join(words[:n], " "), tax); ok {
						c.skill = s // "roll stelth"
						c.end = m[2*i] + fieldsEnd(origGroup, n)
						return c, at, true
					}
				}
			}
			if s, n := otherSkillPrefix(words); s != "" {
				c.skill = s // "I'd call for Drive Auto here": another CoC skill, as written
				c.end = m[2*i] + fieldsEnd(origGroup, n)
				return c, at, true
			}
			if s := knownTail(words, tax); r.keepUnknown && s != "" {
				c.skill = s // "Secret Stealth roll"
				return c, at, true
			}
			if r.keepUnknown && len(words) > 0 && capitalised(origGroup) && !stopWords[strings.ToLower(words[0])] && !skillModifiers[strings.ToLower(words[0])] && !notSkill[strings.ToLower(words[0])] {
				c.skill = skillValue(origGroup, tax)
				return c, at, true
			}
			return cue{}, 0, false
		}
	}
	if c.skill == "" || r.firstSkill {
		if s := firstSkill(orig[m[0]:m[1]], tax, true); s != "" || c.skill == "" {
			c.skill = s
		}
	}
	if m1 := text[m[0]:m[1]]; strings.HasSuffix(m1, "one of them") || strings.HasSuffix(m1, "one of the two") || strings.HasSuffix(m1, "either") || strings.HasSuffix(m1, "either one") {
		c.either = true // "Roll one of them."
	}
	return c, at, true
}

// hasInnerCapital says whether a word of s other than its first starts with a capital.
func hasInnerCapital(s string) bool {
	seenWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) {
			continue
		}
		if (i == 0 || !isLetter(s[i-1]) && s[i-1] != '\'' && s[i-1] < 0x80) && seenWord && c >= 'A' && c <= 'Z' {
			return true
		}
		seenWord = true
	}
	return false
}

// knownTail is the skill the last words of words name when every word before them is
// capitalised ("Secret Stealth"), or "".
func knownTail(words []string, tax *Taxonomy) string {
	if otherSkillKey(strings.Join(words, " ")) != "" {
		return "" // "Electrical Repair" is a skill of its own
	}
	for k := 1; k < len(words); k++ {
		w := strings.ToLower(words[k-1])
		if !capitalised(words[k-1]) || skillModifiers[w] || notSkill[w] || stopWords[w] {
			return "" // "A Climb roll" opens a sentence; it names no skill "A Climb"
		}
		if c, ok := tax.Canonical(strings.Join(words[k:], " ")); ok {
			return c
		}
	}
	return ""
}

// capitalised says whether every word of a name starts with a capital letter, small
// words ("of") aside, as the names of skills are written.
func capitalised(name string) bool {
	for _, w := range strings.Fields(name) {
		if w == "of" || w == "and" {
			continue
		}
		if c := strings.TrimLeft(w, "("); c == "" || c[0] < 'A' || c[0] > 'Z' {
			return false
		}
	}
	return name != ""
}

// fieldsEnd is where the first n fields of s end.
func fieldsEnd(s string, n int) int {
	i := 0
	for k := 0; k < n; k++ {
		for i < len(s) && isRESpace(s[i]) {
			i++
		}
		for i < len(s) && !isRESpace(s[i]) {
			i++
		}
	}
	return i
}

// orSkill is what follows a skill that offers another: "Swim or Climb".
var orSkill = regexp.MustCompile(`^,?\s*(?:or|and/or)\b`)

// eitherSkill reports whether s offers two different skills to choose from: "Swim or
// Climb", "a Spot Hidden or Listen roll".
func eitherSkill(s string, tax *Taxonomy) bool {
	lower := asciiLower(s)
	i := strings.Index(lower, " or ")
	if i < 0 {
		return false
	}
	left := firstSkill(s[:i], tax, true)
	right := strings.Fields(s[i+4:])
	if left == "" || len(right) == 0 {
		return false
	}
	if a := strings.ToLower(right[0]); a == "a" || a == "an" || a == "the" {
		right = right[1:]
	}
	other := firstSkill(strings.Join(right[:min(3, len(right))], " "), tax, true)
	return other != "" && other != left
}

// isDice reports whether words start with dice rather than a skill: "d100", "the dice".
func isDice(words []string) bool {
	first := strings.ToLower(words[0])
	return diceWords[first] || first == "the" && len(words) > 1 && strings.ToLower(words[1]) == "dice"
}

// ownName reports whether name is the skill's own name (or a specialisation of it)
// rather than an alias: aliases like "repair" or "spot" are everyday words.
func ownName(name, canonical string) bool {
	if m := specialisation.FindStringSubmatch(name); m != nil {
		name = m[1]
	}
	return normSkill(name) == normSkill(canonical)
}

// notSkill are capitalised words that open a sentence, not a skill's name.
var notSkill = wordSet(`everybody everyone all ok okay now so then please right alright well first next
	just quick go let let's time this that it keeper gm dm final last second third another initial
	extra same single reaction saving skill ability attribute stat group secret opposed maybe perhaps
	possibly probably unclear unsure undecided depends tbd unknown pending optional none yes no
	nope nah yep yeah yup sure absolutely definitely nothing never`)

// skillModifiers are slot words that qualify a roll rather than name its skill.
var skillModifiers = map[string]bool{"hard": true, "extreme": true, "regular": true, "normal": true,
	"opposed": true, "difficult": true, "pushed": true, "quick": true, "successful": true,
	"skill": true, "dice": true, "d100": true, "1d100": true, "percentile": true, "single": true,
	"separate": true, "make": true, "attempt": true, "do": true, "a": true, "an": true, "the": true,
	"any": true, "your": true, "another": true, "some": true, "this": true, "real": true,
	"proper": true, "full": true, "difficulty": true, "me": true, "us": true}

// slotSkill names the skill in the words before "roll": canonical when known, else the
// reply's words without modifiers ("Persuade"), else "".
func slotSkill(words string, tax *Taxonomy) string {
	if s := firstSkill(words, tax, true); s != "" {
		return s
	}
	var kept []string
	for _, w := range strings.Fields(words) {
		if !skillModifiers[strings.ToLower(w)] {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 || len(kept) > 3 {
		return ""
	}
	for _, w := range kept {
		if !isWordy(w) {
			return ""
		}
	}
	return slotMisspelt(strings.Join(kept, " "), tax)
}

func isWordy(w string) bool {
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '(' || r == ')' || r == '/' || r == '-' || r == '\'') {
			return false
		}
	}
	return true
}

// hypothetical reports whether the cue at [from, to) sits under a condition, a
// concession or a hedge, or in reported speech. Each reaches to the next comma
// ("if you want to cross, make a Jump roll" is a ruling); "even if" is none. cond says
// whether the clause, "even if"s aside, holds a condition at all; sc remembers scopes
// already known to hold a condition.
func hypothetical(clause string, from, to int, cond bool, sc *scopeCache) bool {
	comma := sc.commaBefore(clause, from)
	if cond && requirement.MatchString(clause[max(comma, to-120):to]) {
		return false // "he won't slip past unless he makes a Stealth roll": the roll is the way
	}
	if reportedThat.MatchString(clause[max(0, from-200):from]) {
		return true // "the player argues that, being a climber, she shouldn't need to roll"
	}
	if thirdParty.MatchString(clause[max(comma, from-40):from]) && askVerb.MatchString(clause[from:to]) {
		return true // "the player asks for a Jump roll": a request reported, not a ruling
	}
	if otherFrame.MatchString(clause[max(0, from-80):min(len(clause), from+20)]) {
		return true // "you might think this needs a Stealth roll" (parse_precision8.go)
	}
	if otherKeeper.MatchString(clause[max(comma, from-60):from]) || otherKeepers.MatchString(clause[max(comma, from-60):from]) {
		return true // "some Keepers would roll Throw here": another table's ruling
	}
	if generic.MatchString(clause[comma:from]) || mayMatch(clause, habitWords) && habit.MatchString(clause) {
		return true // "not every door needs a Locksmith roll", "the Keeper only calls for rolls when …": a rule of thumb, not this ruling
	}
	if abandoned.MatchString(clause[max(comma, from-40):from]) {
		return true // "I was going to ask for a Spot Hidden roll, but …"
	}
	if possibleStart.MatchString(clause[comma:from]) {
		return true // "could be automatic": a possibility nobody holds
	}
	if m := possibility.FindStringSubmatch(clause[max(comma, from-40):from]); m != nil && m[1] != "you" && m[1] != "i" {
		return true // "a different Keeper might ask for dice": a possibility, not a ruling
	}
	if sc.known(comma, from) || sc.check(clause, comma, from) {
		return true
	}
	// A hedge may sit inside the cue itself: "not sure a roll" matches as a negated roll.
	if loc := hedge.FindStringIndex(clause[comma:to]); loc != nil && !strings.HasSuffix(clause[comma:comma+loc[0]], "nothing ") {
		return true // but "nothing uncertain about it" is sure
	}
	if !cond {
		return false
	}
	// "a roll would be needed if …": a condition after a modal cue.
	lo := max(0, from-15)
	return modal.MatchString(clause[lo:to])
}

var (
	// generic is a statement about actions in general: "not every action needs dice".
	generic = regexp.MustCompile(`\bnot\s+(?:every|all|each|any\s+old)\b`)
	// habit states when rolls are called for in general: "the Keeper only calls for
	// rolls when failure is interesting", "rolls are for when it matters".
	habit      = regexp.MustCompile(`\bonly\s+(?:[a-z'’]+\s+){1,4}(?:when|where|if)\b|\bwhenever\b|\brolls?\s+(?:are|is)\s+(?:only\s+)?for\s+(?:when|things|moments|situations)\b`)
	habitWords = requiredWords(habit)
	// abandoned is an intention given up: "I was going to", "I'd planned to".
	abandoned = regexp.MustCompile(`\b(?:thought\s+about|considered|toyed\s+with|flirted\s+with)\s+(?:[a-z'’]+\s+){0,2}$|\b(?:first|initial|gut)\s+(?:instinct|thought|reaction|impulse|call|feeling)\s+(?:was|is)\s+(?:to\s+)?(?:[a-z'’]+\s+){0,2}$|\b(?:was|were)\s+(?:going|about|tempted)\s+to\s+(?:[a-z'’]+\s+){0,2}$|\b(?:had|i['’]d)\s+(?:planned|meant|intended|wanted)\s+to\s+(?:[a-z'’]+\s+){0,2}$|\bi\s+(?:almost|nearly)\s+(?:[a-z'’]+\s+){0,2}$`)
	// requirement is a condition whose body is making the roll itself: the roll is
	// what the action takes, whatever the main clause says of success.
	requirement = regexp.MustCompile(`\b(?:if|unless|only\s+if|until)\s+(?:(?:he|she|they|you|we|i|the\s+(?:investigator|player|character))\s+)?(?:rolls?|rolled|passes)\s+(?:[a-z'’()]+\s*){1,3}$|\b(?:if|unless|only\s+if|provided|as\s+long\s+as|until)\s+(?:(?:he|she|they|you|we|i|the\s+(?:investigator|player|character|pc|pcs|party))\s+)?(?:(?:can|could|manages?\s+to|first)\s+)?(?:make|makes|pass|passes|succeed\s+(?:at|on|in)|succeeds\s+(?:at|on|in)|roll|rolls|beat|beats|win|wins|fail|fails|get|gets)\s+(?:` + reArt + `)?(?:[a-z0-9'’/()%-]+\s+){0,3}?(?:roll|check|test)s?\s*$`)
	// possibility is a "might" or "could" just before a ruling, with the word before it:
	// "you might want to make a Climb roll" still rules, "another Keeper might ask for
	// dice" does not.
	otherKeeper  = regexp.MustCompile(`\b(?:keepers?|gms?|dms?|referees?|tables?|groups?|people|others|folks|someone|somebody|some)\s+(?:(?:might|may|could|would|will|often|usually|sometimes|probably)\s+)+(?:(?:well|also|still|even|just)\s+)?$`)
	reportedThat = regexp.MustCompile(`\b(?:player|players|investigator|investigators|character|pc|he|she|they|who)\s+(?:(?:also|still|now|just|clearly)\s+)?(?:claims?|says?|argues?|insists?|suggests?|asserts?|believes?|feels?|thinks?|reckons?|contends?|maintains?)\s+that\s+(?:since|because|as|given|being|with)\b[^;]*$`)
	// otherKeepers are other tables as a class, whatever their verb's mood: "some Keepers
	// call for Library Use whenever reading comes up".
	otherKeepers  = regexp.MustCompile(`\b(?:some|many|other|most|plenty\s+of|a\s+lot\s+of|lots\s+of)\s+(?:keepers|gms|dms|referees|tables|groups|people|players)\s+(?:(?:might|may|could|would|will|often|usually|sometimes|probably|always|just)\s+)*$`)
	possibleStart = regexp.MustCompile(`^\s*(?:might|may|could)\s+(?:(?:well|also|still|even|be)\s+)*$`)
	possibility   = regexp.MustCompile(`([a-z'’]+)\s+(?:might|may|could)\s+(?:(?:well|also|still|even)\s+)?$`)
	// thirdParty and askVerb make a request someone else makes: "the player asks for a
	// Jump roll".
	thirdParty = regexp.MustCompile(`\b(?:player|players|investigator|investigators|character|pc|he|she|they)\s+(?:(?:now|then|also|still|just)\s+)?$`)
	askVerb    = regexp.MustCompile(`^(?:asks?|asking|asked|requests?|requesting|requested|wants?|wanted|wanting|demands?|demanded)\b`)
	// condAfter is a condition after a ruling; condFrame is what before it makes it no
	// condition on the ruling ("roll to see if", "even if").
	aside     = regexp.MustCompile(`^\s*(?:i['’]d\s+say|i\s+think|i\s+reckon|i\s+guess|i\s+suppose|i\s+would\s+say|of\s+course|though|then)\s*$`)
	condAfter = regexp.MustCompile(`\b(?:if|unless|provided|providing|in\s+case|as\s+long\s+as|so\s+long\s+as|assuming|only\s+when)\b`)
	condFrame = regexp.MustCompile(`\b(?:see|tell|notice|check|determine|know|learn|discover|decide|find\s+out|even|as|wonder|whether|what)\s*$`)
)

// trailingCondition reports whether the words after a ruling leave it open on a
// condition: "… if the dog wakes", but not "… to see if the tracks are fresh" or "… if
// you want to cross".
func trailingCondition(after string) bool {
	// An aside ("…, I'd say, as long as …") does not end the ruling's words.
	for {
		end := strings.IndexAny(after, ",;")
		if end < 0 {
			break
		}
		if after[end] == ',' && openNext(after[end+1:]) {
			return true // "…doesn't take a Throw roll, unless she's throwing it"
		}
		next := strings.IndexAny(after[end+1:], ",;")
		if after[end] == ',' && next >= 0 && aside.MatchString(after[end+1:end+1+next]) {
			after = after[:end] + " " + after[end+1+next+1:]
			continue
		}
		after = after[:end]
		break
	}
	loc := condAfter.FindStringIndex(after)
	if loc == nil {
		return false
	}
	return !condFrame.MatchString(after[:loc[0]]) && !intent.MatchString(after[loc[0]:])
}

// scopeCache spares hypothetical from searching the same words again for every cue of
// a long clause without commas. Once the words since the comma at comma, up to from,
// hold a condition, reported speech or a concession that ends before the last two words,
// every later cue after the same comma sees the same words in the same context, so its
// scope holds it too (the only text that can differ is an "even if" cut off by from).
type scopeCache struct {
	set         bool
	comma, from int
	// commas are the clause's comma positions, found once: looking back for the last
	// one from every cue would read a long clause again for each.
	commas []int
	found  bool
}

// commaBefore is where the words after the last comma before from begin (0 if none).
func (c *scopeCache) commaBefore(clause string, from int) int {
	if !c.found {
		for i := 0; i < len(clause); i++ {
			if clause[i] == ',' {
				c.commas = append(c.commas, i)
			}
		}
		c.found = true
	}
	i, _ := slices.BinarySearch(c.commas, from)
	if i == 0 {
		return 0
	}
	return c.commas[i-1] + 1
}

func (c *scopeCache) known(comma, from int) bool {
	return c.set && c.comma == comma && from >= c.from
}

// check is the scope test itself, on the words from comma to from.
func (c *scopeCache) check(clause string, comma, from int) bool {
	// No "even if" holds a comma, so blanking them in the words since the last comma is
	// blanking them in the whole clause before the cue.
	scope := notCond.ReplaceAllStringFunc(clause[comma:from], blankOut)
	end := -1
	for _, re := range []*regexp.Regexp{reported, condMarker, concession} {
		if loc := re.FindStringIndex(scope); loc != nil && (end < 0 || loc[1] < end) {
			end = loc[1]
		}
	}
	if end < 0 {
		return false
	}
	if end+1 <= lastWordsStart(scope, 2) {
		c.set, c.comma, c.from = true, comma, from
	}
	return true
}

var skillWord = regexp.MustCompile(`[A-Za-z][A-Za-z'’/-]*`)

// firstSkill returns the first skill the text mentions, trying three-word names before
// shorter ones. With aliases false only the taxonomy's own names count, so ordinary words
// that are also aliases ("spot", "repair") do not.
func firstSkill(text string, tax *Taxonomy, aliases bool) string {
	// The words are found three ahead at a time, not all at once: the first skill is
	// usually near the start of a long text.
	heads := tax.heads
	var locs [][]int
	next := 0
	more := func() bool {
		loc := skillWord.FindStringIndex(text[next:])
		if loc == nil {
			next = len(text)
			return false
		}
		locs = append(locs, []int{next + loc[0], next + loc[1]})
		next += loc[1]
		return true
	}
	for i := 0; ; i++ {
		for len(locs) < i+3 && next < len(text) && more() {
		}
		if i >= len(locs) {
			return ""
		}
		if !heads[keyHead(text[locs[i][0]:locs[i][1]])] {
			continue // no name the taxonomy knows starts with this word
		}
		for n := min(3, len(locs)-i); n > 0; n-- {
			end := locs[i+n-1][1]
			name := text[locs[i][0]:end]
			if rest := text[end:]; strings.HasPrefix(strings.TrimLeft(rest, " "), "(") {
				if j := strings.IndexByte(rest[:min(len(rest), 40)], ')'); j >= 0 {
					name = text[locs[i][0] : end+j+1]
				}
			}
			c, ok := tax.Canonical(name)
			if !ok {
				continue
			}
			if i > 0 && inOtherSkill(text, locs[i-1], end) {
				break // "Electrical Repair": another skill's name, not Mechanical Repair
			}
			if !aliases && !ownName(name, c) {
				continue
			}
			return c
		}
	}
}

// keyHead is the first word of a name as normSkill reads it: lowercased, up to a space,
// dash, underscore or slash.
func keyHead(w string) string {
	if i := strings.IndexAny(w, " -_/"); i >= 0 {
		w = w[:i]
	}
	return strings.ToLower(w)
}

// asciiLower lowercases A-Z only, so offsets in the result are offsets in s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// clauseEnds is clauseEnd.FindAllStringIndex(s, -1), scanned by hand: the regular
// expression engine spent a third of a long reply's time here. TestClauseEnds holds the
// two to the same answers.
func clauseEnds(s string) [][]int {
	var out [][]int
	spaces := func(i int) int { // the end of the run of \s from i
		for i < len(s) && isRESpace(s[i]) {
			i++
		}
		return i
	}
	word := func(i int, w string) int { // the end of w and one or more spaces at i, or -1
		if !strings.HasPrefix(s[i:], w) {
			return -1
		}
		if j := spaces(i + len(w)); j > i+len(w) {
			return j
		}
		return -1
	}
	for i := 0; i < len(s); {
		end := -1
		switch c := s[i]; {
		case c == '.' || c == '!' || c == '?' || c == ';' || c == ':':
			j := i
			for j < len(s) && strings.IndexByte(".!?;:", s[j]) >= 0 {
				j++
			}
			j = closingQuotes(s, j) // "he 'knows the place.' Roll.": the stop ends the sentence
			if k := spaces(j); j == len(s) || k > j {
				end = k
			}
		case c == '\n':
			end = i + 1
			for end < len(s) && s[end] == '\n' {
				end++
			}
		case c == '|':
			end = i + 1
		case c == ',':
			if j := spaces(i + 1); j > i+1 {
				end = word(j, "but")
			}
			if end < 0 {
				end = word(spaces(i+1), "yet")
			}
		}
		if end < 0 && isRESpace(s[i]) {
			j := spaces(i)
			if end = word(j, "but"); end < 0 {
				if k := dashes(s, j); k > j {
					if m := spaces(k); m > k {
						end = m
					}
				}
			}
			if end < 0 && strings.HasPrefix(s[j:], "however") {
				k := j + len("however")
				if k < len(s) && s[k] == ',' {
					if m := spaces(k + 1); m > k+1 {
						end = m
					}
				}
				if end < 0 {
					if m := spaces(k); m > k {
						end = m
					}
				}
			}
		}
		if end < 0 {
			i++
			continue
		}
		out = append(out, []int{i, end})
		i = end
	}
	return out
}

// dashes is the end of the run of -, – and — at i.
func dashes(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == '-':
			i++
		case strings.HasPrefix(s[i:], "–"), strings.HasPrefix(s[i:], "—"):
			i += len("–")
		default:
			return i
		}
	}
	return i
}
