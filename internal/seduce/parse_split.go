package seduce

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"
)

// Split rulings (issue 29, round 6): a reply that passes one part of the action and
// rolls for another is a roll (spec section 3), and must not read as two rulings that
// disagree.

// partDeixis ends the words before a roll cue that point to one part of the action as
// its subject: "that part", "the rest", "the second bit". A roll so placed is about a
// part, so a pass the reply gives something it names is about another.
var partDeixis = regexp.MustCompile(`\b(?:(?:that|this|the\s+(?:other|second|last|next|final|hard|harder|tricky|trickier|risky|riskier|dangerous|difficult))\s+(?:part|bit|half|step|stage)|the\s+rest(?:\s+of\s+it)?)\s*(?:,\s*though\s*,?\s*|,\s*however\s*,?\s*)?$`)

// actuallyGerund is "actually" before a gerund that is no verb of ruling: "Actually
// stopping the bleeding is another story" puts the act against a lesser one; it takes
// nothing back.
var actuallyGerund = regexp.MustCompile(`\bactually\s+([a-z]+ing)\b`)

// rulingGerunds are gerunds after which "actually" may still correct a ruling.
var rulingGerunds = map[string]bool{"rolling": true, "making": true, "skipping": true, "needing": true,
	"asking": true, "calling": true, "requiring": true, "waiving": true, "thinking": true, "nothing": true}

// adverbActually blanks in folded each "actually" that is an adverb of a gerund (see
// actuallyGerund), so that it is not read as a self-correction.
func adverbActually(folded string) string {
	locs := actuallyGerund.FindAllStringSubmatchIndex(folded, -1)
	if locs == nil {
		return folded
	}
	b := []byte(folded)
	for _, m := range locs {
		if !rulingGerunds[folded[m[2]:m[3]]] {
			copy(b[m[0]:m[0]+len("actually")], "        ")
		}
	}
	return string(b)
}

// cannotRollDice is the model saying it cannot throw dice itself ("I can't roll dice
// for you — I'm a text model"): a word on what it can do, no ruling on the action.
var cannotRollDice = regexp.MustCompile(`(?i)\bi\s*(?:can['’]t|cannot|can\s+not|am\s+unable\s+to|['’]m\s+unable\s+to|am\s+not\s+able\s+to|['’]m\s+not\s+able\s+to|don['’]t\s+have\s+the\s+ability\s+to)\s+(?:actually\s+|physically\s+|literally\s+|really\s+)?(?:roll|throw)\s+(?:(?:the|any|real|physical|actual)\s+)?dice(?:\s+for\s+(?:you|anyone|the\s+table))?\b|(?i)\bi\s*(?:can['’]t|cannot)\s+(?:actually\s+|physically\s+)?roll\s+for\s+you\b`)

// blankAside blanks in b the words about the model's own abilities that read like a
// ruling and are none (cannotRollDice).
func blankAside(b []byte) {
	if !bytes.Contains(b, []byte("ice")) && !bytes.Contains(b, []byte("ICE")) && !bytes.Contains(b, []byte(" for you")) {
		return // no "dice", no "roll for you"
	}
	for _, loc := range cannotRollDice.FindAllIndex(b, -1) {
		for i := loc[0]; i < loc[1]; i++ {
			b[i] = ' '
		}
	}
}

// decidedAfter closes a reply's musing with a decision, as its last words: "I went back
// and forth on this. ... Okay, I've decided: Mechanical Repair roll.", "I was leaning
// toward a roll, but on reflection: no roll needed."
var decidedAfter = regexp.MustCompile(`(?:^|[.!:;]\s+|,\s*)(?:(?:okay|ok|alright|right|so|well|but|and)[,.]?\s+)?(?:i['’]ve\s+decided|i\s+have\s+decided|i['’]ve\s+made\s+up\s+my\s+mind|i['’]m\s+landing\s+on|i\s+land\s+on|i['’]m\s+settling\s+on|i['’]ve\s+settled\s+on|i['’]ll\s+stick\s+with|i['’]m\s+sticking\s+with|decision\s+made|on\s+reflection|on\s+second\s+thoughts?|having\s+thought\s+(?:about\s+)?it\s+(?:over|through)|thinking\s+it\s+(?:over|through)|after\s+(?:some\s+|more\s+)?thought|thinking\s+about\s+it\s+(?:more|again))\b[^?]*$`)

// detailOnOpen is what follows an open phrase that hands over a detail of the roll, not
// the ruling: "your call on the difficulty", "not sure whether it should be Regular or
// Hard".
var detailOnOpen = regexp.MustCompile(`^\s*(?:on|about|for|as\s+to|regarding)\s+(?:the\s+|its\s+)?(?:difficulty|difficulty\s+level|penalty\s+die|bonus\s+die|level|regular\s+or\s+hard|hard\s+or\s+regular)\b` +
	`|^\s*(?:(?:on|about|as\s+to)\s+)?(?:whether|if)\s+(?:it|that|this|the\s+roll)\s*(?:['’]s|is|should\s+be|would\s+be|['’]d\s+be|needs\s+to\s+be|ought\s+to\s+be)\s+(?:a\s+|an\s+)?(?:regular|hard|extreme)(?:\s+(?:roll|one))?\s+or\s+(?:a\s+|an\s+)?(?:regular|hard|extreme)\b`)

// detailBeforeOpen is what precedes an open phrase that hands over the difficulty:
// "the difficulty is your call".
var detailBeforeOpen = regexp.MustCompile(`\b(?:difficulty|penalty\s+die|bonus\s+die)\s+(?:is|['’]s|level\s+is)\s+$`)

// clearPartAfter follows an open phrase in its own sentence to say the matter at hand
// is clear: "I'm not sure the scene needs a chase at all, but this part is easy: …".
var clearPartAfter = regexp.MustCompile(`^[^.!?]*\bbut\s+(?:this|that|the\s+(?:action|question|ruling|call))(?:\s+(?:part|bit|one))?\s+(?:is|['’]s)\s+(?:easy|clear|simple|straightforward|certain|obvious|clear-cut)\b`)

// detailOpen says whether the open phrase at in folded hands over only the roll's
// difficulty, or doubts something other than the matter at hand.
func detailOpen(folded string, at int, phrase string) bool {
	rest := folded[at+len(phrase):]
	return detailOnOpen.MatchString(rest) || detailBeforeOpen.MatchString(folded[max(0, at-40):at]) || clearPartAfter.MatchString(rest)
}

// openPastDetail is openAt, passing over the open phrases that hand over only the
// difficulty.
func openPastDetail(folded string, lex *Lexicon) (int, string) {
	for from := 0; from < len(folded); {
		at, phrase := openAt(folded[from:], lex)
		if at < 0 {
			return -1, ""
		}
		at += from
		if !detailOpen(folded, at, phrase) && !decidesFor(folded, at, phrase) && !notRulingOpen(folded, at, phrase) { // parse_english9.go
			return at, phrase
		}
		from = at + len(phrase)
	}
	return -1, ""
}

// plainYes is a bare yes; "sure" and "of course" often open a concession.
var plainYes = regexp.MustCompile(`^\s*(?:yes|yeah|yep|yup|aye)\b`)

// answerHedged is a condition or a contrast in an answer's sentence: "Climb? Yes, if
// you want to."
var answerHedged = regexp.MustCompile(`\b(?:if|unless|but|though|although|maybe|perhaps|probably|might|could)\b`)

// skillAsked reads a question that is a skill's name alone, answered at once by the
// reply itself: "Spot Hidden? No — it's in plain sight." is a pass, "Listen? Yes." a
// Listen roll (spec section 3: a question the reply answers itself is that answer).
// origClause is the question without its mark, ends the clause ends of lower, i the
// question's, from where its answer starts and at where the question starts.
func skillAsked(origClause, lower string, ends [][]int, i, from, at int, tax *Taxonomy) (cue, bool) {
	name := strings.TrimFunc(origClause, func(r rune) bool {
		return !unicode.IsLetter(r) && r != '(' && r != ')'
	})
	if name == "" || len(name) > 40 || i+1 >= len(ends) {
		return cue{}, false
	}
	sk, ok := tax.Canonical(name)
	if !ok {
		return cue{}, false
	}
	answer := lower[from:ends[i+1][0]]
	yes, no := skillYes.MatchString(answer) || plainYes.MatchString(answer), skillNo.MatchString(answer) || answerNo.MatchString(answer)
	sentence := lower[from:]
	if k := strings.IndexAny(sentence, ".!?\n"); k >= 0 && strings.TrimSpace(sentence[:k]) != "" {
		sentence = sentence[:k]
	}
	if yes == no || answerHedged.MatchString(sentence) {
		return cue{}, false
	}
	c := cue{decision: DecisionRoll, skill: sk, from: at, to: at + len(origClause)}
	if no {
		c.decision, c.negated, c.skill = DecisionPass, true, ""
	}
	return c, true
}

// seriesDismissed are the words that, before a series of rolls in its clause, judge or
// dismiss it rather than call for it: judged's, and the verbs of setting aside ("forget
// the two Climb rolls").
var seriesDismissed = regexp.MustCompile(judged.String() + `|\b(?:forget|skip|skipping|drop|dropping|scrap|ditch|ignore|ignoring|waive|waiving|without|instead|rather|spare|save|avoid|avoiding|need|needed|wants?|asks?|asked|requests?|requested|hopes?|says|claims?|insists?|suggests?|proposes?|demands?|player|players)\b`)
