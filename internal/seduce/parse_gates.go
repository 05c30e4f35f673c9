package seduce

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Precision gates of round 7: signs in a reply that its prose ruling is not the
// reply's ruling, which leave it unparsed (or refused) rather than guessed.
//
//   - Cut off: a reply that stops mid-sentence on a word that cannot end one ("the
//     investigator will need to make a", "The skill is") has lost the ruling that
//     sentence held; a roll whose skill was still to come is no ruling either.
//   - Rejected: a roll, then a sentence that opens with "No," and rules no roll ("No, of
//     course he doesn't need to roll"), is the reply rejecting its own words; and a roll
//     "to breathe" or "to sit down" is mockery, not a call.
//   - Options: rulings named side by side as what one would choose between ("decline to
//     choose between a roll and automatic success") offer both and rule neither.
//   - Idiom: "No dice" beside a refusal ("No dice, friend. I'm not running this scene")
//     is the refusal's idiom, not a ruling that no dice are needed.
//   - Unsure: a ruling and then a closing sentence that only says the speaker does not
//     know ("No estoy seguro.", "Je ne sais plus.") leaves it open.

// unendingWords cannot end a sentence: a reply that stops on one was cut off.
var unendingWords = map[string]bool{
	"a": true, "an": true, "the": true, "is": true, "are": true, "was": true, "were": true,
	"of": true, "with": true, "and": true, "but": true, "your": true, "his": true,
	"their": true, "its": true, "my": true, "than": true, "into": true, "because": true,
	"un": true, "une": true, "de": true, "du": true, "des": true, "le": true, "les": true,
	"el": true, "los": true, "las": true, "una": true, "del": true, "que": true, "y": true,
	"et": true, "ou": true, "est": true, "con": true, "por": true, "para": true,
	"pour": true, "avec": true, "ein": true, "eine": true, "einen": true, "der": true,
	"das": true, "uno": true, "di": true, "il": true, "per": true, "een": true, "het": true,
}

// cutOff says whether body stops mid-sentence on a dangling word, and where that last
// sentence starts.
func cutOff(body string) (start int, ok bool) {
	body = strings.TrimRight(body, " \t")
	r, _ := utf8.DecodeLastRuneInString(body)
	if !unicode.IsLetter(r) {
		return 0, false
	}
	k := strings.LastIndexAny(body, " \t\n")
	if !unendingWords[foldLower(body[k+1:])] {
		return 0, false
	}
	return strings.LastIndexAny(body, ".!?\n") + 1, true
}

// rulingGoesOn is a word of ruling after the cue in a cut sentence: the ruling was
// still being made ("let this slide, so she will need to make a"), not explained ("No
// roll needed because the").
var rulingGoesOn = regexp.MustCompile(`\b(?:need|needs|make|makes|roll|rolls|call|check|test|require|requires|ask|give|gimme|want)\b`)

// rejectingNo opens a sentence that rejects what came before: "No, of course not".
var rejectingNo = regexp.MustCompile(`(?:^|[.!?]\s+|\n\s*)(?:no|nah|nope|of course not)\s*[,.!—–-]`)

// mockRoll is a roll for what anyone does without thinking: "a roll for breathing".
var mockRoll = regexp.MustCompile(`\b(?:roll|check|test)s?\s+(?:to|for)\s+(?:(?:him|her|them|you)\s+)?(?:breath(?:e|ing)?|blink(?:ing)?|sit(?:ting)?\s+down|stand(?:ing)?\s+up|walk(?:ing)?\s+across\s+the\s+room|tie|tying|exist(?:ing)?|swallow(?:ing)?|chew(?:ing)?|wake\s+up|his\s+own\s+name|her\s+own\s+name)\b`)

// optionsBetween names a roll and no roll side by side as what one chooses between.
var optionsBetween = regexp.MustCompile(`\bbetween\s+(?:[^.;:!?]{0,40}?\b(?:rolls?|checks?|dice|tests?)\b[^.;:!?]{0,40}?\band\s+[^.;:!?]{0,30}?\b(?:automatic|auto|no\s+roll|no\s+check|no\s+dice|narrat\w*|pass\w*|success)|[^.;:!?]{0,40}?\b(?:automatic|auto|no\s+roll|no\s+check|narrat\w*|success)\b[^.;:!?]{0,40}?\band\s+[^.;:!?]{0,30}?\b(?:rolls?|checks?|dice|tests?))\b`)

// refusalIdioms are idioms of refusal that read like a ruling of no dice.
var refusalIdioms = []string{"no dice"}

// runRefusal is the speaker declining to run the scene or sending the player elsewhere.
var runRefusal = regexp.MustCompile(`\b(?:i['’]m\s+not|i\s+am\s+not|i\s+won['’]t\s+be|i\s+will\s+not\s+be)\s+(?:running|keeping|refereeing|adjudicating|judging|ruling\s+on)\b|\b(?:find|get|ask)\s+(?:another|a\s+different|some\s+other)\s+(?:keeper|gm|dm|referee|game\s*master)\b|\b(?:ask|consult|check\s+with)\s+(?:your|the)\s+(?:keeper|gm|dm|referee|game\s*master)\b|\byour\s+(?:keeper|gm|dm)\s+can\s+help\b`)

// precisionGate reads the signs above for a prose ruling p whose deciding vote is first:
// it returns the reply's reading and true when one of them holds.
func precisionGate(body string, p Parsed, first vote, t *cueTally, lex *Lexicon) (Parsed, bool) {
	if !first.prose {
		return p, false
	}
	folded := foldLower(body)
	span := cutSpan(body[first.from:first.to])
	if start, ok := cutOff(body); ok && (first.from >= start && rulingGoesOn.MatchString(folded[first.to:]) || p.Decision == DecisionRoll && p.Skill == "") {
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleTruncated, Skill: p.Skill, Span: cutSpan(body[max(0, len(body)-60):])}, true
	}
	if p.Decision == DecisionRoll {
		if loc := mockRoll.FindStringIndex(folded); loc != nil {
			if t.hasPass && t.passCue.from > loc[1] && !t.passCue.part {
				// "… maybe a roll for breathing while we're at it. No, of course he
				// doesn't need to roll.": the mockery, then the ruling it mocks toward.
				return Parsed{Decision: DecisionPass, How: HowProse, Rule: RuleProse, Span: cutSpan(body[t.passCue.from:t.passCue.to])}, true
			}
			return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: cutSpan(body[loc[0]:loc[1]])}, true
		}
		if t.hasPass {
			for _, m := range rejectingNo.FindAllStringIndex(folded[first.to:], -1) {
				if at := first.to + m[0]; t.passCue.from >= at {
					return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: span + " | " + cutSpan(body[t.passCue.from:t.passCue.to])}, true
				}
			}
		}
	}
	if cue := strings.TrimRight(folded[first.from:first.to], " "); p.Skill == "" && (strings.HasSuffix(cue, "roll") || strings.HasSuffix(cue, "rolling")) && rollWith.MatchString(folded[first.to:]) {
		// "I'm not going to roll with this request": to roll with is to go along with.
		return refusedOr(body, folded, lex, RuleContradiction, span), true
	}
	// "Options: (a) roll Climb, (b) automatic success.": rulings set out as options, two
	// markers or more and one just before a ruling, offer both and rule neither.
	if marks := optionMarks(folded); len(marks) >= 2 {
		near := func(c int) bool {
			for _, m := range marks {
				if m[1] <= c && c-m[1] <= 16 {
					return true
				}
			}
			return false
		}
		if near(first.from) || t.hasRoll && near(t.rollCue.from) || t.hasPass && near(t.passCue.from) {
			return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleHedge, Span: cutSpan(body[marks[0][0]:marks[0][1]])}, true
		}
	}
	if m := answerBack.FindStringSubmatchIndex(folded[first.to:]); m != nil && answerAgainst(folded[first.to+m[2]:first.to+m[3]], p.Decision) &&
		answeredOther(folded[first.to+m[1]:min(len(folded), first.to+m[1]+80)], p.Decision) {
		// "Pas de jet. Enfin, si, un jet de Grimper.", "Una tirada de Trepar. Bueno, no,
		// sin tirada.": a yes or no that answers the reply's own ruling back.
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: span}, true
	}
	if w := folded[first.to:min(len(folded), first.to+120)]; strings.Contains(w, "what") && whatOthersSay.MatchString(w) {
		// "Make a Climb roll... is what a lazy Keeper would say.": the ruling is
		// quoted as someone else's, not made.
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: span}, true
	}
	if loc := jokeTaken.FindStringIndex(folded[first.to:]); loc != nil {
		// "You need a Dodge roll to avoid a falling feather. Not really, of course.",
		// "… Seriously though, you see it.": the reply takes its ruling for a joke.
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: span + " | " + cutSpan(body[first.to+loc[0]:first.to+loc[1]])}, true
	}
	if p.Rule == RuleAnyPart && strings.Contains(folded, "technically") && frameContrast.MatchString(folded) {
		// "Technically the rules want a Drive Auto roll; practically, no roll.": two
		// frames on one action, not two parts of it.
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleContradiction, Span: span}, true
	}
	if sentenceBoth(folded, first.from) {
		// "A Climb roll and an automatic success are both reasonable here.", "Roll or
		// don't roll, it's all the same to me.": both rulings granted, neither made.
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleHedge, Span: span}, true
	}
	if p.Decision == DecisionRoll && p.Skill != "" && cutSkill(body, p.Skill) {
		// "Roll Spot Hid": the reply stops inside the skill's name; only the roll is sure.
		p.Skill = ""
		return p, true
	}
	if p.Decision == DecisionRoll && orAutomatic(folded, first.to) {
		// "Podría ser una tirada de Saltar o podría ser automático": a roll and the
		// automatic success offered side by side in one sentence.
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleHedge, Span: span}, true
	}
	if idiomRuling(folded, first.from, first.to) {
		// "Gonna roll my eyes at this one", "That's not my roll to make", "I don't get
		// to roll the dice on this", "no roll and no pass from me": the words of a
		// ruling in an idiom, or both rulings denied, rule nothing.
		return refusedOr(body, folded, lex, RuleContradiction, span), true
	}
	for _, m := range betweens(folded) {
		if first.from < m[1] && m[0] < first.to {
			if declinesChoice.MatchString(folded[:m[0]]) {
				return Parsed{Decision: DecisionRefused, How: HowRefusal, Rule: RuleRefusal, Span: cutSpan(body)}, true
			}
			return refusedOr(body, folded, lex, RuleHedge, cutSpan(body[m[0]:m[1]])), true
		}
	}
	if p.Decision == DecisionPass {
		for _, idiom := range refusalIdioms {
			if strings.HasPrefix(foldLower(span), idiom) && (runRefusal.MatchString(folded) || lex.refusalIdx.has(folded)) {
				return Parsed{Decision: DecisionRefused, How: HowRefusal, Rule: RuleRefusal, Span: cutSpan(body)}, true
			}
		}
	}
	if at, ok := unsureEnd(folded, lex); ok && at > first.from {
		return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: RuleHedge, Span: cutSpan(body[at:])}, true
	}
	return precisionGate8(body, folded, p, first, t, lex) // round 8's gates (parse_precision8.go)
}

// refusedOr is refused when the reply declines (in a lexicon's words or the English
// opening refusal), else unparsed by rule.
func refusedOr(body, folded string, lex *Lexicon, rule, span string) Parsed {
	head := folded[:min(len(folded), 400)]
	if isRefusal(body) || lex.refusalIdx.has(head) || lex.declines(head) || runRefusal.MatchString(folded) {
		return Parsed{Decision: DecisionRefused, How: HowRefusal, Rule: RuleRefusal, Span: cutSpan(body)}
	}
	return Parsed{Decision: DecisionUnparsed, How: HowProse, Rule: rule, Span: span}
}

// unsureEnd says whether the reply's last sentence is no more than a hedge of a
// lexicon ("I'm not sure.", "No estoy seguro.", "Je ne sais plus."), and where it starts.
func unsureEnd(folded string, lex *Lexicon) (int, bool) {
	s := strings.TrimRight(folded, " \t\n.!?…")
	at := strings.LastIndexAny(s, ".!?\n") + 1
	last := strings.Trim(s[at:], " \t,;:—–-")
	if last == "" || len(strings.Fields(last)) > 6 {
		return 0, false
	}
	if k := strings.LastIndex(last, ","); k >= 0 {
		last = strings.TrimSpace(last[k+1:]) // "Non, attendez, je ne sais plus"
	}
	if loc := unsureAdverb.FindStringIndex(last); loc != nil {
		last = last[loc[1]:] // "Honestly I can't tell"
	}
	for _, list := range [][]string{lex.hedge, lex.undetermined, unsureWords} {
		for _, h := range list {
			if strings.HasPrefix(last, h) && len(last)-len(h) <= 12 {
				return at, true
			}
		}
	}
	return 0, false
}

// unsureAdverb opens a sentence with a word of candour before what it says.
var unsureAdverb = regexp.MustCompile(`^(?:(?:honestly|frankly|truthfully|really|tbh|but|and|so|well|i\s+(?:honestly|really|truly))\s+)+`)

// unsureWords say the speaker does not know, in the languages of the lexicons.
var unsureWords = []string{
	"i'm not sure", "i am not sure", "not sure", "i don't know", "i dunno", "no idea",
	"dunno", "who knows", "i can't tell", "i cannot tell", "i can't say", "i can't decide",
	"hard to tell", "can't tell", "can't say", "no clue", "i'm not certain", "i'm torn", "or not", "or don't", "or maybe not",
	"no estoy seguro", "no estoy segura", "no sé", "ya no sé", "no lo sé",
	"je ne sais pas", "je ne sais plus", "je ne suis pas sûr", "pas sûr",
	"we'll see", "ya veremos", "veremos", "on verra", "vedremo", "mal sehen", "we zien wel",
	"non lo so", "non sono sicuro", "non sono sicura", "non so",
	"ich weiß nicht", "ich bin nicht sicher", "keine ahnung",
	"não sei", "não tenho certeza", "nie wiem", "ik weet het niet", "geen idee",
}

// reasonDenied is a negated "reason", "need" or "motive" for what follows, in the
// lexicons' languages: "no veo motivo para una tirada", "tampoco hay razón para",
// "je ne vois aucune raison de faire un jet".
var reasonDenied = regexp.MustCompile(`(?:^|[^\p{L}])(?:no|tampoco|ne|n['’]|non|nie|não|nao|niet|nicht|kein\p{L}*|geen|aucune?|ningún|ninguna|nessun\p{L}*|nenhum\p{L}*|żadnego|żadnej)\s+(?:[^\s,;:.]+\s+){0,3}?(?:motivo|motivos|razón|razon|razones|raison|raisons|motif|motifs|ragione|ragioni|motivi|reden|grund|anlass|powodu|necesidad|nécessité|necessità|necessidade|potrzeby|intérêt|sentido|sens)\s+(?:para|de|d['’]|pour|per|di|por|voor|für|dla|a|à)\s[^;:,.]{0,60}$`)

// needDenied is a negated verb of needing or asking whose object is the roll phrase
// after it, in the lexicons' languages: "tampoco hace falta una tirada de", "não
// precisa de um teste de", "il ne faut pas de jet de".
var needDenied = regexp.MustCompile(`(?:^|[^\p{L}])(?:no|tampoco|ne|n['’]|non|nemmeno|neanche|não|nao|nem|tampouco|nicht|niet|nie)\s+(?:(?:me|te|se|le|lo|la|ci|ti|mi|si|ya|y|en|lui|leur|vous|nous|você|lhe|mais|más|più|plus|hay|a)\s+)?(?:hace\s+falta|hacen\s+falta|precisa|precisas|precisam|necesita|necesitas|necesitan|requiere|requer|exige|exigem|pide|pido|serve|servono|richiede|occorre|faut|demande|demanderai|demanderais|braucht|brauchst|erfordert|verlangt|nodig|vereist|wymaga|potrzeba|potrzebujesz)\s+(?:pas\s+|nicht\s+|niet\s+)?(?:de\s+|d['’]|di\s+|del\s+|do\s+|da\s+)?(?:(?:un|una|um|uma|une|ein|eine|einen|een|ningún|ninguna|aucun|aucune|nessun|nessuna|nenhum|nenhuma|kein|keine|keinen)\s+)?$`)

// deniedReason says whether the text before a roll phrase ends in a negated reason
// for it, or a negated verb of needing it.
func deniedReason(before string) bool {
	before = before[max(0, len(before)-160):]
	return reasonDenied.MatchString(before) || needDenied.MatchString(before)
}

// declinesChoice ends in the speaker declining to choose: "I'd rather not pick".
var declinesChoice = regexp.MustCompile(`\b(?:i|i['’]d|i['’]ll|i\s+will|i\s+would|i['’]m)\s+(?:\w+\s+){0,3}?(?:not|n['’]t|never|decline\s+to|refuse\s+to)\s+(?:\w+\s+){0,2}?(?:choose|pick|decide|choosing|picking|deciding)\s*$`)

// withoutEnded says whether a match that opens with "without" has a verb of its clause
// between the "without" and the roll ("without a sound means a Stealth roll"): the
// "without" phrase is the subject's, and the verb calls for the roll.
func withoutEnded(match string) bool {
	if !strings.HasPrefix(match, "without ") {
		return false
	}
	words := polarityWords(match)
	for _, w := range words[1 : len(words)-1] {
		if w == "" {
			return false
		}
		if clauseVerbs[w] {
			return true
		}
	}
	return false
}

// rollWith is the idiom "roll with" (go along with) after a roll word: "roll with this
// request", "rolling with it", "roll with the punches".
var rollWith = regexp.MustCompile(`^\s+with\s+(?:(?:it|this|that|them)(?:\s+(?:one|request|plan|idea))?\s*(?:[.,;:!?—–-]|$)|(?:the|your)\s+(?:request|plan|idea|punches|flow|story|scene)\b)`)

// optionList sets rulings out as options: "Options: (a) …, (b) …", "Option 1: …",
// "Alternatively, …".
var optionList = regexp.MustCompile(`\boptions?\s*(?:[:(]|[1-9a-c]\b|are\b|here\b)|(?:^|[\s,;:])\(?[a-c]\)\s|\balternatively\b|\bplan\s+[ab]\b`)

// optionMarks are the matches of optionList in folded, looked for only when a word of
// one is there.
func optionMarks(folded string) [][]int {
	if !strings.Contains(folded, "option") && !strings.Contains(folded, ")") && !strings.Contains(folded, "alternatively") && !strings.Contains(folded, "plan ") {
		return nil
	}
	return optionList.FindAllStringIndex(folded, -1)
}

// betweens are the matches of optionsBetween in folded.
func betweens(folded string) [][]int {
	if !strings.Contains(folded, "between") {
		return nil
	}
	return optionsBetween.FindAllStringIndex(folded, -1)
}

// idiomAfter follows a roll word in an idiom that is no roll of the dice: "roll my
// eyes", "roll up his sleeves", "no roll of mine", and a denial of both rulings side by
// side: "no roll and no pass", "no roll or automatic success".
var idiomAfter = regexp.MustCompile(`^\s*(?:(?:my|his|her|their|your|our)\s+(?:eyes|sleeves)|up\s+(?:my|his|her|their|your|our)\s+sleeves|of\s+(?:mine|yours|ours)\b|(?:,|and|or|nor)\s+(?:no\s+|any\s+)?(?:pass|automatic\s+success|auto-success|success)\s+(?:from|by)\s+me\b)`)

// notMine is the speaker saying the roll or the ruling is not theirs to make: "not my
// roll to make", "not my dice to roll", "I don't get to roll the dice", "no ruling".
var notMine = regexp.MustCompile(`\bnot\s+(?:my|mine)\s+(?:roll|dice|die|call)(?:\s+to\s+(?:make|roll|call|give))?\b|\bi\s+(?:don['’]t|do\s+not|won['’]t|will\s+not)\s+get\s+to\s+(?:roll|call)\b|\bnot\s+(?:for\s+me|up\s+to\s+me|mine)\s+to\s+(?:roll|call\s+for)\b|\bno\s+roll,?\s+no\s+(?:ruling|verdict|decision)\b`)

// idiomRuling says whether the ruling cue at [from, to) of folded is part of an
// idiom or of the speaker's saying the ruling is not theirs.
func idiomRuling(folded string, from, to int) bool {
	after := folded[to:min(len(folded), to+60)]
	if (strings.Contains(after, "eye") || strings.Contains(after, "sleeve") || strings.Contains(after, " of ") || strings.Contains(after, " me")) && idiomAfter.MatchString(after) {
		return true
	}
	lo, hi := max(0, from-24), min(len(folded), to+24)
	if w := folded[lo:hi]; !strings.Contains(w, "not my") && !strings.Contains(w, "not mine") && !strings.Contains(w, "get to") &&
		!strings.Contains(w, " me to") && !strings.Contains(w, "no ruling") && !strings.Contains(w, "no verdict") && !strings.Contains(w, "no decision") {
		return false
	}
	for _, m := range notMine.FindAllStringIndex(folded[lo:hi], -1) {
		if lo+m[0] < to && lo+m[1] > from {
			return true
		}
	}
	return false
}

// jokeTaken is a sentence after a ruling (after a stop, not a question) that takes
// what came before for a joke: "Not really, of course.", "Kidding.", "Seriously though,
// …", "Joking aside, …".
var jokeTaken = regexp.MustCompile(`[.!…]\s+(?:(?:not\s+really|of\s+course\s+not|(?:just\s+|i['’]m\s+)?(?:kidding|joking)|jk|not\s+seriously)\s*(?:[,.!…]|$)|(?:seriously\s+though|but\s+seriously|in\s+all\s+seriousness|(?:all\s+)?(?:joking|kidding|jokes)\s+aside)\b)`)

// frameContrast sets what the rules technically want against what happens in play.
var frameContrast = regexp.MustCompile(`\btechnically\b[^.!?]*?[,;:—–-]\s*(?:but\s+)?(?:practically|in\s+practice|realistically|in\s+reality|really)\b`)

// orAutomaticNext is an "or" in a lexicon's language and, a few words on in its
// sentence, the automatic success or no roll: "o podría ser automático", "ou ça
// pourrait être automatique", "oder auch automatisch", "or it could just be automatic".
var orAutomaticNext = regexp.MustCompile(`^[^.;!?]*?[\s,](?:o|ou|oder|of|lub|albo|or|oppure|ovvero)\s+(?:[^\s.;!?]+\s+){0,4}?(?:autom[aá]tic\p{L}*|automatique\p{L}*|automatisch\p{L}*|automatyczn\p{L}*|sin\s+tirada|pas\s+de\s+jet|senza\s+tiro|sem\s+teste|kein(?:e|en)?\s+(?:wurf|probe)|geen\s+(?:worp|rol)|bez\s+rzutu|no\s+roll|free\s+pass|auto-?success|(?:que\s+)?no\s+(?:haga|hace)\s+falta|não\s+(?:precise|seja\s+preciso)|ne\s+(?:soit|faille)\s+pas|non\s+serva|nicht\s+nötig|niet\s+nodig|not\s+(?:be\s+)?(?:needed|necessary))\b`)

// orAutomatic says whether the sentence of the roll cue that ends at to goes on with an
// "or" and the automatic success.
func orAutomatic(folded string, to int) bool {
	rest := folded[to:min(len(folded), to+200)]
	m := orAutomaticNext.FindStringSubmatchIndex(rest)
	if m == nil {
		return false
	}
	tail := rest[m[1]:]
	return !failsAfter.MatchString(tail)
}

// failsAfter follows "automatically" when it is a failure, not a success: "or she
// fails automatically" is said of the roll's outcome.
var failsAfter = regexp.MustCompile(`^\s*(?:fails?|failure|fracasa|échoue|fallisce|scheitert)`)

// bothGranted grants both rulings of a sentence: "both reasonable", "either is fine",
// and a roll set beside its own denial: "roll or don't roll", "roll or not".
var bothGranted = regexp.MustCompile(`\b(?:both|either)\b[^.!?]{0,30}?\b(?:reasonable|fine|valid|ok|okay|acceptable|defensible|legit\w*|works?|good|sensible|justifiable|fair)\b|\broll\s*,?\s+or\s+(?:don['’]t(?:\s+roll)?|not|no\s+roll)\b`)

// sentenceBoth says whether the sentence around at names a roll and the automatic
// success (or a roll and its denial) and grants both.
func sentenceBoth(folded string, at int) bool {
	from := strings.LastIndexAny(folded[:at], ".!?\n") + 1
	to := strings.IndexAny(folded[at:], ".!?\n")
	if to < 0 {
		to = len(folded) - at
	}
	sent := folded[from : at+to]
	if !strings.Contains(sent, "roll") && !strings.Contains(sent, "check") && !strings.Contains(sent, "dice") {
		return false
	}
	if !strings.Contains(sent, "both") && !strings.Contains(sent, "either") && !strings.Contains(sent, " or ") && !strings.Contains(sent, ", or") {
		return false
	}
	m := bothGranted.FindStringIndex(sent)
	if m == nil || from+m[0] < at {
		return false // "Both doors are fine, so no roll": the both is not the rulings'
	}
	if strings.HasPrefix(sent[m[0]:], "roll") {
		return true
	}
	return strings.Contains(sent, "automatic") || strings.Contains(sent, "no roll") || strings.Contains(sent, "free") || strings.Contains(sent, "narrat")
}

// cutSkill says whether body stops, without a stop, inside the last word of skill:
// "Roll Spot Hid".
func cutSkill(body, skill string) bool {
	body = strings.TrimRight(body, " \t")
	r, _ := utf8.DecodeLastRuneInString(body)
	if !unicode.IsLetter(r) {
		return false
	}
	last := body[strings.LastIndexAny(body, " \t\n")+1:]
	words := strings.Fields(skill)
	if len(words) == 0 {
		return false
	}
	w := words[len(words)-1]
	return len(last) < len(w) && strings.HasPrefix(foldLower(w), foldLower(last)) && !strings.Contains(foldLower(body), foldLower(skill))
}

// whatOthersSay follows a ruling that is quoted as what someone would say: "… is what
// a lazy Keeper would say", "— that's what I'd say if the guard were awake".
var whatOthersSay = regexp.MustCompile(`^[^.!?]{0,40}?(?:\.\.\.|…|—|–|-|,)?\s*(?:is|was|that['’]s|that\s+is|would\s+be)\s+what\s+[^.!?]{0,50}?(?:would|['’]d|might|could|will|used\s+to)\s+(?:have\s+)?(?:say|said|call|called|ask|asked|rule|ruled|do|demand)\b`)

// jokedAfter says whether the words after a structured answer (votes) take it for a
// joke: "Decision: roll (Climb). Not really, of course; it's a ladder."
func jokedAfter(body string, votes []vote) (Parsed, bool) {
	end := 0
	for _, v := range votes {
		end = max(end, v.to)
	}
	if end == 0 || end > len(body) {
		return Parsed{}, false
	}
	// the match needs the stop before it: start at the structured answer's last byte
	tail := foldLower(body[max(0, end-1):])
	if loc := jokeTaken.FindStringIndex(tail); loc != nil {
		return withSkill(Parsed{Decision: DecisionUnparsed, How: votes[0].how, Rule: RuleContradiction, Span: cutSpan(body[end:])}, votes), true
	}
	return Parsed{}, false
}

// answerBack opens a sentence after a stop with a filler and a yes or no set off by a
// comma: "Enfin, si,", "Bueno, no,", "Anzi, sì,", "Doch,", "Well, yes,".
var answerBack = regexp.MustCompile(`[.!…]\s+(?:(?:enfin|bon|bueno|anzi|well|ok|okay|quer\s+dizer|je\s+veux\s+dire|i\s+mean|o\s+sea|cioè|na\s+ja|nou|hmm|eh)\s*,?\s+)?(si|sí|sì|doch|sim|yes|oui|ja|no|non|nein|não|nee|nie)\s*,`)

// answerAgainst says whether the answer word w turns against a ruling d: a yes after a
// pass, a no after a roll.
func answerAgainst(w string, d Decision) bool {
	switch w {
	case "si", "sí", "sì", "doch", "sim", "yes", "oui", "ja":
		return d == DecisionPass
	}
	return d == DecisionRoll
}

// answeredRuling is a word of a ruling in a lexicon's language.
var answeredRuling = regexp.MustCompile(`\b(?:roll|check|test|dice|automatic\w*|jet|tirada|tiro|wurf|probe|teste|rzut|worp|automatique|automático|automatico|automatisch)\b|-probe\b`)

// noRollWords rule no roll in a lexicon's language: "sin tirada", "pas de jet", "no roll",
// "automatic".
var noRollWords = regexp.MustCompile(`\b(?:sin|pas\s+de|kein\p{L}*|nessun\p{L}*|sem|no|without|not|geen|bez)\s+(?:\p{L}+\s+)?(?:rolls?|jet|tirada|tiro|wurf|probe|teste|rzut\p{L}*|worp|check|dice)\b|\bautom\p{L}*`)

// answeredOther says whether the words after an answer word rule the other way from
// d, and do not keep it ("no, still roll", "no, I'll stick with it").
func answeredOther(after string, d Decision) bool {
	if strings.Contains(after, "still") || strings.Contains(after, "stick") || strings.Contains(after, "stand") || strings.Contains(after, "keep") {
		return false
	}
	if d == DecisionRoll {
		return noRollWords.MatchString(after)
	}
	return answeredRuling.MatchString(after) && !noRollWords.MatchString(after)
}
