package seduce

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Precision gates of round 8 (issue 29): shapes in which a prose ruling read by the
// grammar is not the reply's ruling, which leave the reply unparsed rather than guessed.
//
//   - Idiom: "roll" or "check" inside a fixed expression ("rock and roll", "heads will
//     roll", "on a roll", "a spring roll", "roll call", "let's roll!", "a rain check")
//     names no roll of the dice.
//   - Cut off: a reply that stops, with no mark to end it, on the roll word of a
//     sentence that calls for a roll with no skill ("you're going to need to roll") was
//     cut before the skill that sentence was going to name.
//   - Turned: a roll, then, in a later sentence opened by a word that turns or concludes
//     ("Honestly though", "So", "Then again", "In the end"), no roll: the later words
//     take the first back or conclude against it, and are not another part of the action.
//   - Withdrawn: a roll, then a correction word ("actually, wait", "hmm") and words that
//     hand the call back ("you know your table better than I do") without ruling again.
//   - Refused: the speaker's "I will not roll for it" beside a refusal of the task
//     ("I'm not going to adjudicate this one") refuses; it rules no pass.
//   - Double negation: a "without a roll" whose clause has a negative subject ("personne
//     ne le franchit sans un jet", "nobody gets across without a Jump roll") rules the roll.

// rollIdiom is a fixed expression whose "roll" is no roll of the dice.
var rollIdiom = regexp.MustCompile(`\brock(?:\s*(?:and|&|['’]?n['’]?|-and-)\s*|\s+)roll(?:ing|s)?\b|\bheads\s+(?:will|would|are\s+going\s+to|gonna|shall|may|might)\s+roll\b|\bon\s+a\s+(?:real\s+)?roll\b|\b(?:egg|spring|bread|sausage|cinnamon|swiss|jam|toilet|kitchen|paper|honor|honour|drum|barrel)\s*-?\s*rolls?\b|\brolls?\s+call\b|\bready\s+to\s+roll\s*[.!]|\blet['’]?s\s+roll\s*(?:!|,\s*(?:folks|people|team|gang|everyone|everybody|guys|y['’]all|boys|girls|friends)\b|\s+out\b)|\b(?:rain|reality|gut|spell|vibe)\s*-?\s*checks?\b`)

// maskRollIdioms writes each roll idiom of s (folded) as one word of the same length,
// so that no rule reads a roll in it.
func maskRollIdioms(s string) string {
	if !strings.Contains(s, "roll") && !strings.Contains(s, "check") || !rollIdiomWords.MatchString(s) {
		return s
	}
	return rollIdiom.ReplaceAllStringFunc(s, func(m string) string {
		var b strings.Builder
		for _, r := range m {
			if unicode.IsLetter(r) {
				b.WriteRune(r)
			}
		}
		b.WriteString("_")
		return b.String() + strings.Repeat(" ", max(0, len(m)-b.Len()))
	})
}

// rollIdiomWords is a cheap test for the words every roll idiom holds one of.
var rollIdiomWords = regexp.MustCompile(`\b(?:rock|heads|on\s+a|egg|spring|bread|sausage|cinnamon|swiss|jam|toilet|kitchen|paper|honou?r|drum|barrel|call|ready|let['’]?s|rain|reality|gut|spell|vibe)\b`)

// cutRollEnd is a sentence that ends on a roll word after a verb of needing or making,
// the skill still to come: "you're going to need to roll", "he has to make a check".
var cutRollEnd = regexp.MustCompile(`\b(?:need|needs|needed|have|has|had|got|gotta|going|gonna|want|wanna|ask|asking|call|calling|make|making|require|requires)\s+(?:(?:to|you|him|her|them|for|a|an|one|some)\s+){0,3}(?:roll|check|test|throw)\s*$`)

// turnOpen opens a sentence that turns against or concludes past what came before.
var turnOpen = regexp.MustCompile(`^\W*(?:honestly|actually|really|so|then\s+again|though|but\s+(?:honestly|really|actually|then)|in\s+the\s+end|ultimately|on\s+reflection|on\s+second\s+thoughts?|all\s+(?:told|things\s+considered)|therefore|thus|in\s+short|bottom\s+line|that\s+said|having\s+said\s+that|either\s+way|after\s+all|overall|in\s+sum|to\s+sum\s+up|(?:my\s+|the\s+)?final\s+(?:answer|ruling|verdict|call|word)|(?:my\s+)?(?:verdict|ruling|conclusion|answer)\s*:|in\s+conclusion|second\s+thoughts?|on\s+balance)\b`)

// handedBack are words that leave the call to the one who asked.
var handedBack = regexp.MustCompile(`\b(?:you\s+know\s+(?:your|the)\s+(?:table|group|players|game)|(?:your|the)\s+(?:call|choice|decision)\s*[.!]|up\s+to\s+you|i['’]ll\s+leave\s+it\s+(?:to|with)\s+you|you\s+decide|you\s+(?:be|are)\s+the\s+judge)\b`)

// waverWord is a correction or a hesitation after a ruling.
var waverWord = regexp.MustCompile(`\b(?:actually|wait|hmm+|hm+|hold\s+on|hang\s+on|on\s+second\s+thoughts?|then\s+again|although|but\s+then)\b`)

// precisionGate8 reads the signs above for the prose ruling p whose deciding vote is
// first, after round 7's gates found nothing; folded is body folded to lower case.
func precisionGate8(body, folded string, p Parsed, first vote, t *cueTally, lex *Lexicon) (Parsed, bool) {
	trimmed := strings.TrimRight(folded, " \t\n")
	if r, _ := utf8.DecodeLastRuneInString(trimmed); p.Decision == DecisionRoll && p.Skill == "" && unicode.IsLetter(r) &&
		first.to >= len(trimmed)-8 && cutRollEnd.MatchString(trimmed) {
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleTruncated, Span: cutSpan(body[max(0, len(trimmed)-60):len(trimmed)])}, true
	}
	if p.Rule == RuleAnyPart && t.hasRoll && t.hasPass && t.passCue.from > t.rollCue.to {
		if start := sentenceStart(folded, t.passCue.from); start > t.rollCue.to && turnOpen.MatchString(folded[start:t.passCue.from]) {
			return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction,
				Span: cutSpan(body[t.rollCue.from:t.rollCue.to]) + " | " + cutSpan(body[t.passCue.from:t.passCue.to])}, true
		}
	}
	if p.Decision == DecisionRoll {
		rest := folded[first.to:]
		if loc := waverWord.FindStringIndex(rest); loc != nil && handedBack.MatchString(rest[loc[1]:]) {
			return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleHedge, Span: cutSpan(body[first.to+loc[0]:])}, true
		}
	}
	if p.Decision == DecisionRoll {
		if loc := rollTakenBack.FindStringIndex(folded[first.to:]); loc != nil && !rollWordAgain.MatchString(folded[first.to+loc[1]:]) {
			// "I'd call for a Climb roll. Nah, forget it, it's a ladder.": the roll taken
			// back, and none ruled after.
			return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: cutSpan(body[first.from:first.to]) + " | " + cutSpan(body[first.to+loc[0]:first.to+loc[1]])}, true
		}
		if otherThought.MatchString(folded[sentenceStart(folded, first.from):first.from]) {
			// "Tu pourrais penser qu'il faut un jet de Discrétion. Non : …": the roll is
			// what one might think, in a lexicon's language.
			return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: cutSpan(body[first.from:first.to])}, true
		}
	}
	if p.Decision == DecisionRoll && sarcasmMark.MatchString(folded[first.from:]) {
		// "Sure, roll Climb to walk up the stairs. /s": the reply marks its words as
		// sarcasm.
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: cutSpan(body[first.from:first.to])}, true
	}
	if p.Decision == DecisionRoll && optionalRoll(folded, first.from, first.to) {
		// "Feel free to roll Spot Hidden if you like": a roll the player may make, not
		// one the ruling asks for.
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleHedge, Span: cutSpan(body[first.from:first.to])}, true
	}
	if p.Decision == DecisionPass && p.Rule == RuleProseNegated &&
		speakerWontRoll.MatchString(folded[sentenceStart(folded, first.from):min(len(folded), first.to+24)]) && lex.declines(folded) {
		// "I will not roll for it. … (Out of character: I'm not going to adjudicate
		// this one.)": the speaker's own roll refused beside a refusal of the task.
		return Parsed{Decision: DecisionRefused, How: HowRefusal, Rule: RuleRefusal, Span: cutSpan(body)}, true
	}
	return p, false
}

// rollTakenBack opens words after a roll that take it back and end there: "Nah, forget
// it.", "— kidding,", "Or, you know, don't —" (not "don't bother with a rope").
var rollTakenBack = regexp.MustCompile(`(?:^|[.!?…]+\s*|\s[—–-]+\s*|,\s*)(?:(?:nah|nope|no|actually|wait|hmm+|ugh|or)\s*[,.!…]*\s*)*(?:forget\s+(?:it|that|the\s+roll|about\s+it)|scrap\s+(?:that|it)|strike\s+that|skip\s+it|don['’]t\s+bother|never\s*mind|(?:just\s+)?kidding|j/?k|you\s+know\s*,?\s*don['’]t)(?:\s*[,.!…;:—–-]|\s*$)`)

// rollWordAgain is a roll word or a yes after a taking back: the reply rules again.
var rollWordAgain = regexp.MustCompile(`\b(?:roll|rolls|check|test|dice|yes|yeah)\b`)

// otherThought opens a sentence with what one might think, in the lexicons'
// languages: "tu pourrais penser que", "man könnte meinen", "podrías pensar que".
var otherThought = regexp.MustCompile(`(?:\b(?:tu\s+pourrais|vous\s+pourriez|on\s+pourrait)\s+(?:penser|croire)|\bman\s+(?:könnte|würde)\s+(?:meinen|denken|glauben)|\bdu\s+könntest\s+(?:meinen|denken|glauben)|\b(?:podrías|podría|uno\s+podría|se\s+podría)\s+(?:pensar|creer)|\b(?:potresti|si\s+potrebbe|verrebbe\s+da)\s+(?:pensare|credere)|\b(?:você\s+poderia|poderia\s+se|pode-se|poderíamos)\s+(?:pensar|achar)|\bje\s+zou\s+(?:kunnen\s+)?denken|\bmożna\s+by\s+(?:pomyśleć|sądzić))`)

// sarcasmMark marks words as sarcasm: "/s", "(sarcasm)".
var sarcasmMark = regexp.MustCompile(`(?:^|\s)/s(?:\s|$)|\((?:sarcasm|sarcastic|not\s+serious)\)`)

// optionalBefore and optionalAfter make a roll one the player may make if they like:
// "feel free to roll", "nothing stops you from rolling", "roll Listen if you want".
var (
	optionalBefore = regexp.MustCompile(`\b(?:feel\s+free\s+to|you['’]re\s+(?:welcome|free)\s+to|you\s+are\s+(?:welcome|free)\s+to|nothing\s+stops\s+you\s+from|no\s+one\s+stops\s+you\s+from|you\s+can\s+always|you\s+could\s+always|you\s+may\s+always)\s+(?:[a-z'’]+\s+){0,3}$`)
	optionalAfter  = regexp.MustCompile(`^[^.;:!?]{0,40}?\bif\s+(?:you|they|he|she|the\s+player)\s+(?:really\s+)?(?:want(?:s)?(?:\s+to)?|like|likes|wish(?:es)?|insists?|feels?\s+like\s+it|must)\s*(?:[.,;:!?—–-]|$)`)
)

// optionalRoll says whether the roll cue at [from, to) of folded is offered as one the
// player may make if they like.
func optionalRoll(folded string, from, to int) bool {
	s := sentenceStart(folded, from)
	return optionalBefore.MatchString(folded[max(s, from-60):from]) || optionalAfter.MatchString(folded[to:])
}

// speakerWontRoll is the speaker refusing to roll for the act: "I will not roll for
// it", "I won't roll on this".
var speakerWontRoll = regexp.MustCompile(`\bi\s+(?:will\s+not|won['’]t|shall\s+not|refuse\s+to|am\s+not\s+going\s+to|['’]m\s+not\s+going\s+to)\s+(?:even\s+)?roll\s+(?:for|on)\s+(?:it|this|that)\b`)

// sentenceStart is where the sentence that holds at starts in folded.
func sentenceStart(folded string, at int) int {
	return strings.LastIndexAny(folded[:at], ".!?\n") + 1
}

// nobodyWithout is a negative subject before a "without" in its clause: "personne ne
// le franchit sans", "nobody crosses it without", "niemand komt erover zonder". Such
// a "without" is denied: the roll is needed.
var nobodyWithout = regexp.MustCompile(`(?:^|[\s,;:])(?:personne\s+(?:ne\s|n['’])|nul\s+ne\s|nobody|no\s+one|no-one|niemand|nikt|nadie|nessuno|ningu[ée]m)\b`)

// rollsInGeneral is a roll cue that speaks of what rolls of a kind are for ("Swim
// rolls in 7e are meant for real risk", "Spot Hidden checks exist for hidden things"),
// or that judges the asking for one a waste ("Asking for Mechanical Repair would just be
// a speed bump"): talk about rolls, not a ruling.
var rollsInGeneral = regexp.MustCompile(`^[^.;:!?]{0,30}?\b(?:rolls|checks|tests)\s+(?:(?:in|under)\s+[^\s.;:!?]+(?:\s+(?:edition|rules))?\s+)?(?:are|exist)\s+(?:(?:only|really|mostly|usually|generally|normally|typically|meant|intended|designed|reserved|supposed|there|best)\s+)*(?:for|about)\b|^(?:asking|calling|requiring|demanding)\s+(?:for\s+)?[^.;:!?,]{0,40}?\s(?:would|will|is|was)\s+(?:(?:just|only|simply|really|be|a|an)\s+)*(?:speed\s*-?\s*bump|overkill|pointless|unnecessary|needless|silly|absurd|waste|busywork|padding|pedantic|stall|roadblock)\b`)

// rollsTalk says whether the roll cue at [from, to) of clause is talk about rolls.
func rollsTalk(clause string, from, to int) bool {
	return rollsInGeneral.MatchString(clause[from:min(len(clause), to+60)])
}

// otherFrame sets a ruling in someone else's thought or in another scene than this one:
// "you might think this needs a Stealth roll", "my players would demand a Luck roll", "in
// a different scene I'd want a Jump roll". The ruling is mentioned, not made; a clause
// that answers it ("It doesn't.") is the reply's.
var otherFrame = regexp.MustCompile(`\b(?:(?:you|one|they|some|people|players)\s+(?:might|may|would|could)\s+(?:well\s+)?(?:think|expect|assume|imagine|suppose|say|argue)|you['’]d\s+(?:think|expect|assume|imagine)|it\s+(?:might|may|could)\s+(?:seem|look)\s+like|(?:my|the|your|our)\s+(?:players?|group|table)\s+(?:would|might|will|always)\s+(?:want|demand|ask\s+for|insist\s+on|beg\s+for)|(?:in|under|on)\s+(?:a\s+different|another|other|different)\s+(?:scene|situation|circumstances|day|game|campaign|case|context))\b`)
