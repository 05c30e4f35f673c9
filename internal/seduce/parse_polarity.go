package seduce

import (
	"regexp"
	"slices"
	"strings"
)

// Polarity as composition. A ruling mention is read under every negation whose scope
// covers it in its clause: each one flips it, so two cancel. "You're not clearing that
// gap without a Jump roll" (not, without), "I can't see any reason not to ask for a
// Listen roll" (can't, not) and "can't not roll Dodge" call for the roll; "I can't in good
// conscience ask for a roll" (can't) is a pass. A negation's scope runs to the end of its
// clause, or to the first comma, coordinating or subordinating conjunction after it
// ("he doesn't need help and climbs without a roll": the "and" ends the "doesn't").

// polarityReach is how far back, in bytes, a negation is looked for.
const polarityReach = 200

// scopeBarrier ends the scope of the negations before it.
var scopeBarrier = map[string]bool{
	"and": true, "or": true, "but": true, "so": true, "because": true, "since": true,
	"while": true, "whilst": true, "whereas": true, "though": true, "although": true,
	"then": true, "if": true, "unless": true, "until": true, "whether": true, "when": true,
	"once": true, "otherwise": true, "yet": true, "except": true, "instead": true,
	"however": true, "plus": true, "also": true,
}

// negators are words that each deny what their clause says after them.
var negators = map[string]bool{
	"not": true, "never": true, "nobody": true, "nothing": true, "none": true,
	"nowhere": true, "neither": true, "nor": true, "hardly": true, "scarcely": true,
	"barely": true, "without": true, "cannot": true, "unable": true,
	"doubt": true, "doubts": true, "doubtful": true, "refuse": true, "refuses": true,
	"refused": true, "refusing": true, "decline": true, "declines": true, "declining": true,
	"no-one": true, "rarely": true, "seldom": true,
	"nobody's": true, "no-one's": true, "nothing's": true,
}

// judgedWrong are judgements that what follows them is wrong to do, when what follows
// is their complement ("unreasonable to", "wrong of me to", "nothing wrong with"): "it's
// not unreasonable to ask for a Jump roll" (not, unreasonable: the roll stands). Before a
// noun ("the wrong parts", "an impossible leap") they deny nothing.
var judgedWrong = map[string]bool{
	"unreasonable": true, "unfair": true, "unnecessary": true, "unneeded": true,
	"pointless": true, "needless": true, "silly": true, "absurd": true, "ridiculous": true,
	"wrong": true, "excessive": true, "overkill": true, "pedantic": true, "daft": true,
	"petty": true, "harsh": true, "cruel": true, "mistake": true, "unwise": true,
	"unlikely": true, "foolish": true, "reckless": true, "madness": true, "suicidal": true,
	"suicide": true, "crazy": true, "insane": true, "impossible": true, "hurt": true,
	"hurts": true, "harm": true,
}

// badWords make "idea", "call" or "move" a judgement that what follows is wrong: "never
// a bad idea to call for Spot Hidden" (never, bad idea: the call stands).
var badWords = map[string]bool{"bad": true, "terrible": true, "poor": true, "awful": true, "dumb": true, "stupid": true}

// emphatic verbs make a negation before them emphasis, not denial: "I can't stress
// enough how much this needs a Stealth roll".
var emphatic = map[string]bool{"stress": true, "overstate": true, "emphasise": true, "emphasize": true, "overemphasise": true, "overemphasize": true}

// implicativeNot are verbs that deny their complement: "forget to roll" is not rolling,
// so "don't forget to roll Stealth" (don't, forget) calls for the roll.
var implicativeNot = map[string]bool{
	"forget": true, "forgets": true, "forgot": true, "forgetting": true, "hesitate": true,
	"hesitates": true, "neglect": true, "neglects": true, "refrain": true, "fail": true,
	"fails": true, "failing": true,
}

// subjects are subject pronouns, which open a clause.
var subjects = map[string]bool{
	"i": true, "you": true, "he": true, "she": true, "we": true, "they": true, "i'm": true,
	"you're": true, "he's": true, "she's": true, "we're": true, "they're": true, "i'll": true,
	"you'll": true, "he'll": true, "she'll": true, "we'll": true, "they'll": true, "i'd": true,
	"you'd": true, "he'd": true, "she'd": true, "we'd": true, "they'd": true, "it's": true,
}

// itVerbs after "it" make it a subject: "it doesn't need a roll".
var itVerbs = map[string]bool{
	"doesn't": true, "does": true, "needs": true, "is": true, "isn't": true, "won't": true,
	"will": true, "would": true, "wouldn't": true, "requires": true, "calls": true,
	"needn't": true, "was": true, "wasn't": true, "can": true, "can't": true, "should": true,
	"shouldn't": true, "must": true, "doesnt": true, "isnt": true, "wont": true,
}

// subjectOpener are the words after which a subject's clause stays in the scope of a
// negation before them: the clause a verb of thinking or a "like", "how", "way" takes
// ("I don't think you need a roll", "no way he needs one"), or a verb's object ("won't
// make you roll").
var subjectOpener = map[string]bool{
	"think": true, "believe": true, "reckon": true, "suppose": true, "expect": true,
	"imagine": true, "see": true, "say": true, "guess": true, "feel": true, "know": true,
	"like": true, "that": true, "how": true, "why": true, "mean": true, "sure": true,
	"certain": true, "way": true, "chance": true, "hope": true, "wish": true, "want": true,
	"let": true, "make": true, "get": true, "have": true, "need": true, "ask": true,
	"as": true, "where": true, "what": true, "convinced": true, "thought": true,
	"said": true, "would": true, "could": true, "can": true, "will": true, "should": true,
	"must": true, "might": true, "do": true, "does": true, "did": true, "whether": true,
	"is": true, "are": true, "was": true, "were": true, "am": true, "if": true, "though": true,
	// the causative and asking verbs in their other forms: "I'm not having you roll Swim"
	"having": true, "letting": true, "making": true, "getting": true, "asking": true, "forcing": true,
	"force": true, "lets": true, "makes": true, "made": true, "had": true, "asked": true,
	"telling": true, "tell": true, "told": true, "expecting": true, "needing": true, "wanting": true,
}

// complementOf opens the complement of a judgement.
var complementOf = map[string]bool{"to": true, "of": true, "with": true, "about": true, "in": true}

// blameVerbs deny what they blame someone for, after a modal: "nobody would fault you
// for calling for a roll" (nobody, fault: the call stands).
var blameVerbs = map[string]bool{"fault": true, "blame": true, "criticise": true, "criticize": true}

// modals come before a verb of blaming.
var modals = map[string]bool{"would": true, "could": true, "can": true, "will": true, "should": true, "might": true, "to": true}

// clauseVerbs end the phrase a "without" heads: in "without being noticed would need a
// roll" the "without" denies only "being noticed".
var clauseVerbs = map[string]bool{
	"would": true, "will": true, "could": true, "should": true, "must": true, "might": true,
	"may": true, "can": true, "is": true, "are": true, "was": true, "were": true,
	"needs": true, "requires": true, "calls": true, "'d": true, "'ll": true, "it's": true,
	"that's": true, "you'll": true, "he'll": true, "she'll": true, "they'll": true,
	"you'd": true, "he'd": true, "she'd": true, "i'd": true, "i'll": true, "we'll": true,
	"means": true, "takes": true, "demands": true, "involves": true, "warrants": true,
	"merits": true, "entails": true, "deserves": true,
}

// fools are the people only whom a ruling would be denied by: "only a fool would ask".
var fools = map[string]bool{"fool": true, "idiot": true, "madman": true, "lunatic": true, "reckless": true}

// focusAfterNot are the words that make "not" a focus on one word rather than a denial
// of the clause ("not just a lock", "not only tall"), or a hedge ("not sure"), which the
// hedge rules read.
var focusAfterNot = map[string]bool{
	"just": true, "only": true, "merely": true, "simply": true, "least": true,
	"sure": true, "certain": true, "confident": true, "convinced": true, "quite": true,
	"exactly": true, "necessarily": true,
}

// affirmingAfter are the words that make a negator part of an affirming idiom: "nothing
// but", "nothing short of", "without question", "without a doubt".
var affirmingAfter = map[string]map[string]bool{
	"nothing": {"but": true, "short": true, "less": true, "else": true},
	"without": {"question": true, "doubt": true, "fail": true},
}

// noNouns are the nouns after which "no" denies its clause ("no way", "no reason", "no
// Keeper would"): elsewhere "no" denies only its own noun phrase ("no bonus die on the
// Climb roll").
var noNouns = map[string]bool{
	"way": true, "chance": true, "reason": true, "need": true, "point": true,
	"excuse": true, "grounds": true, "justification": true, "call": true, "cause": true,
	"hope": true, "keeper": true, "gm": true, "dm": true, "referee": true, "sane": true,
	"decent": true, "fair": true, "reasonable": true, "one": true, "longer": true,
	"basis": true, "case": true, "circumstances": true, "circumstance": true, "account": true,
	"means": true, "condition": true,
}

// noApostrophe are negative contractions typed without their apostrophe.
var noApostrophe = map[string]bool{
	"dont": true, "doesnt": true, "didnt": true, "isnt": true, "arent": true, "wasnt": true,
	"werent": true, "cant": true, "wont": true, "shouldnt": true, "wouldnt": true,
	"couldnt": true, "neednt": true, "mustnt": true, "havent": true, "hasnt": true,
}

// scopedNegations counts the negations whose scope reaches at in clause (folded): the
// negators before at with no scope barrier between them and at.
func scopedNegations(clause string, at int) int {
	from := max(0, at-polarityReach)
	if from > 0 {
		// start at a word's start
		for from < at && clause[from] != ' ' {
			from++
		}
	}
	words := polarityWords(clause[from:at])
	n := 0
	neither := false
	without := false // whether the last negation counted is an open "without"
	paren := false   // whether a parenthesis after a negative auxiliary is open
	for i, w := range words {
		if w == "" && (paren || i > 0 && negAux(words[i-1])) {
			// "I won't, in all fairness, be calling for dice": a parenthesis opens after
			// the auxiliary and closes at the next comma.
			paren = !paren
			continue
		}
		if scopeBarrier[w] && i > 0 && (words[i-1] == "as" || words[i-1] == "even") {
			continue // "not as if", "even though": no condition
		}
		if (subjects[w] || w == "it" && i+1 < len(words) && itVerbs[words[i+1]]) && i > 0 && !subjectOpener[words[i-1]] && !negators[words[i-1]] {
			// "nah not happening you need a Climb roll": a new subject after a predicate
			// opens a clause of its own
			n, neither, without, paren = 0, false, false, false
			continue
		}
		if w == "" || scopeBarrier[w] {
			n, neither, without, paren = 0, false, false, false // punctuation ends a scope
			continue
		}
		if without && clauseVerbs[w] {
			n, without = n-1, false
		}
		next, third := "", ""
		if i+1 < len(words) {
			next = words[i+1]
		}
		if i+2 < len(words) {
			third = words[i+2]
		}
		neg := false
		switch {
		case w == "not" || strings.HasSuffix(w, "n't") || noApostrophe[w]:
			neg = !focusAfterNot[next] && !emphatic[next]
		case w == "no":
			neg = noNouns[next] || strings.HasSuffix(next, "ing") // "no sneaking past"
		case w == "too":
			neg = third == "to" // "too easy to call for a roll"
		case w == "only":
			neg = (next == "a" || next == "an" || next == "the") && fools[third]
		case implicativeNot[w]:
			neg = next == "to" || next == "from" || strings.HasPrefix(w, "forg") && next != "it" && next != "about"
		case (w == "idea" || w == "call" || w == "move") && i > 0 && badWords[words[i-1]]:
			neg = complementOf[next]
		case w == "problem" || w == "issue":
			neg = next == "to" // "not a problem to cross without a roll"; not "the problem with"
		case judgedWrong[w]:
			neg = complementOf[next] || next == "" && i == len(words)-1
		case blameVerbs[w]:
			neg = i > 0 && modals[words[i-1]]
		case negators[w]:
			neg = !affirmingAfter[w][next] && !emphatic[next] && !(w == "nor" && neither) && !(w == "doubt" && i > 0 && words[i-1] == "no")
			neither = neither || w == "neither"
		}
		if neg {
			n++
			without = w == "without"
		}
	}
	if without && clauseVerbs[firstPolarityWord(clause[at:])] {
		n-- // "without killing him is a Medicine roll": the ruling's own verb ends it
	}
	return n
}

// firstPolarityWord is the first word of s, folded as polarityWords folds it.
func firstPolarityWord(s string) string {
	s = strings.TrimLeft(s, " ")
	end := strings.IndexAny(s, " ,.;:!?")
	if end < 0 {
		end = len(s)
	}
	return strings.ReplaceAll(s[:end], "’", "'")
}

// speakerCannotRoll is the speaker denying that they roll dice themselves ("as an AI I
// cannot actually roll dice", "I'm not able to roll real dice"): the speaker's ability,
// not a ruling on the action.
var speakerCannotRoll = regexp.MustCompile(`\bi(?:\s+am|['’]m)?\s+(?:(?:really|actually|physically|literally|just|simply)\s+)?(?:can['’]?t|cannot|can\s+not|not\s+able\s+to|unable\s+to|don['’]t\s+have\s+(?:the\s+ability|a\s+way)\s+to)\s+(?:(?:really|actually|physically|literally)\s+)?(?:roll|throw)\s+(?:(?:any|real|physical|actual|the|your|real-world)\s+)*(?:dice|die|for\s+you)\b`)

// deniesOwnRoll says whether the roll phrase at [from, to) in clause is the speaker
// denying they roll dice themselves.
func deniesOwnRoll(clause string, from, to int) bool {
	if !strings.Contains(clause[max(0, from-80):min(len(clause), to+30)], "i") {
		return false
	}
	for _, m := range speakerCannotRoll.FindAllStringIndex(clause[max(0, from-80):min(len(clause), to+30)], -1) {
		if m[1] > from-max(0, from-80) {
			return true
		}
	}
	return false
}

// polarityWords splits s into lowercase words with ’ read as ', and an empty word for
// each run of punctuation that ends a scope (a comma, a stop, a colon, a dash between
// spaces, a bracket or a quotation mark).
func polarityWords(s string) []string {
	var out []string
	start := -1
	flush := func(i int) {
		if start >= 0 {
			out = append(out, strings.ReplaceAll(s[start:i], "’", "'"))
			start = -1
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '\'' || c >= 0x80:
			if start < 0 {
				start = i
			}
		case c == '-' && start >= 0:
			// inside a word: "no-one"
		case c == ' ' || c == '\t' || c == '*' || c == '_':
			flush(i)
		default:
			flush(i)
			if len(out) == 0 || out[len(out)-1] != "" {
				out = append(out, "")
			}
		}
	}
	flush(len(s))
	return out
}

// negAux is a negative auxiliary, which a parenthesis may part from its verb.
func negAux(w string) bool {
	return w == "cannot" || strings.HasSuffix(w, "n't") && w != "n't"
}

// deniedWithout says whether a double-negation match at [from, to) of clause that holds
// a "without" has an even number of negations before that "without": then the "without"
// stands undenied ("I don't see why he can't do it without a roll": don't, can't).
func deniedWithout(clause string, from, to int) bool {
	k := strings.Index(clause[from:to], "without")
	if k < 0 {
		return false
	}
	n := scopedNegations(clause, from+k)
	return n >= 2 && n%2 == 0
}

// complementisers open a clause of their own inside a sentence ("aucune raison de ne
// pas", "no es que no", "ningún motivo para no"): a negation word after one is a new
// negation, while one after a negation in the same clause agrees with it ("no veo
// ninguna razón" is one negation, as "je ne vois aucune" is).
var complementisers = map[string]bool{
	"de": true, "d'": true, "que": true, "qu'": true, "para": true, "pour": true, "per": true,
	"di": true, "che": true, "zu": true, "om": true, "te": true, "por": true, "dass": true,
	"daß": true, "żeby": true, "aby": true, "to": true,
}

// outerNegations counts, in a lexicon's language, the negations before from in clause
// (folded) whose scope reaches from: negation words after the last comma, but or
// condition word, with the words of one negative concord counted once, the one at from
// among them.
func (l *Lexicon) outerNegations(clause string, from int) int {
	words := polarityWords(clause[max(0, from-polarityReach):from])
	n := 0
	agree := false // whether a negation word now agrees with the one before
	for _, w := range words {
		switch {
		case w == "" || slices.Contains(l.but, w) || slices.Contains(l.condition, w):
			n, agree = 0, false
		case complementisers[w]:
			agree = false
		case slices.Contains(l.negation, w):
			if !agree {
				n++
			}
			agree = true
		}
	}
	if agree {
		n-- // the last agrees with the negation at from: "no se requiere ninguna tirada"
	}
	return n
}

// speakerOptionBefore is the speaker saying what they could or might do, just before a
// ruling: "I could make you roll", "I might just ask for a Stealth roll".
var speakerOptionBefore = regexp.MustCompile(`\b(?:i|we)\s+(?:could|might)\s+(?:(?:just|always|technically|still|also|even|easily|probably)\s+)?$`)

// speakerOption says whether the ruling at at in clause is an option the speaker says
// they hold, not a ruling they make.
func speakerOption(clause string, at int) bool {
	return speakerOptionBefore.MatchString(clause[lastWordsStart(clause[:at], 4):at])
}

// reasonLeftOpen says whether a structured decision d's own reason leaves it on a
// condition: a sentence of the reason holds a condition word ("if", "unless",
// "otherwise") and leans to the other ruling ("Or automatic success if the rope is
// knotted", "otherwise Climb"). A condition on another world ("only automatic if the
// river were calm") leaves it standing.
func reasonLeftOpen(reason string, d Decision, tax *Taxonomy) bool {
	folded := foldLower(reason)
	if !holdsAny(folded, condWords) || !condMarker.MatchString(folded) {
		return false
	}
	start := 0
	for i := 0; i <= len(folded); i++ {
		if i < len(folded) && !strings.ContainsRune(".;!?", rune(folded[i])) {
			continue
		}
		if sentence := folded[start:i]; condMarker.MatchString(sentence) && !irrealis.MatchString(sentence) && leansOther(sentence, reason[start:i], d, tax) {
			return true
		}
		start = i + 1
	}
	return false
}

// genericRollsAt is a request for rolls in the bare plural, with no skill, number or
// determiner: "asking for rolls on routine tasks", "when to call for rolls".
// So are the rolls one asks for in general: "what makes the rolls you do call for feel
// weighty".
var genericRollsAt = regexp.MustCompile(`^(?:(?:call|calls|calling|called|ask|asks|asking|asked|request|requesting|demand|demanding)\s+for\s+(?:rolls|checks|dice\s+rolls)\b|(?:make|makes|making)\s+the\s+rolls\s+(?:that\s+|which\s+)?(?:you|we|they|i)\s+(?:do\s+)?(?:call|ask)\s+for\b)`)

// genericRolls says whether the roll cue at [from, to) in clause speaks of rolls in
// general rather than ruling one: a talk about rolling, not a ruling.
func genericRolls(clause string, from, to int) bool {
	return genericRollsAt.MatchString(clause[from:min(len(clause), to+40)])
}

// turnWords turn from a refusal to a ruling given anyway: "I can't decide this for
// your table. That said, …", "I won't rule, but …".
var turnWords = regexp.MustCompile(`\b(?:but|however|that\s+said|that\s+being\s+said|still|though|nevertheless|nonetheless|even\s+so|anyway|if\s+you\s+want|in\s+game\s+terms|in-game|in\s+the\s+game)\b`)

// refusedBefore finds a refusal phrase of lex, of the task itself (nothing after it in
// its sentence, or a task word of lex), that comes before every ruling in votes,
// in a sentence before theirs, with no word that turns from it to a ruling between: the
// reply takes two stances.
// at is where the phrase starts in body, or -1.
func refusedBefore(body string, votes []vote, lex *Lexicon) (at int, phrase string) {
	from := len(body)
	for _, v := range votes {
		from = min(from, v.from)
	}
	if from == 0 {
		return -1, ""
	}
	folded := foldLower(body[:from])
	at, phrase = lex.refusalIdx.first(folded)
	if at < 0 || !strings.ContainsAny(folded[at+len(phrase)-1:], ".!?\n") || turnWords.MatchString(folded[at+len(phrase):]) || turnWords.MatchString(folded[:at]) {
		// one sentence: "I decline to make you roll" denies the roll
		return -1, ""
	}
	rest := folded[at+len(phrase):]
	if strings.ContainsAny(phrase[len(phrase)-1:], ".!?") {
		rest = "" // the phrase ends its sentence: "not going to rule."
	}
	if end := strings.IndexAny(rest, ".!?\n"); end >= 0 {
		rest = rest[:end]
	}
	if rulingWord.MatchString(rest) {
		return -1, "" // "I'm going to decline the request to skip the roll": a ruling
	}
	if strings.TrimSpace(rest) != "" && !slices.ContainsFunc(lex.task, func(p string) bool { return phraseAt(rest, p, 0) >= 0 }) && !deicticRest[strings.TrimSpace(rest)] {
		return -1, "" // "I must decline to give medical advice": something else declined
	}
	return at, phrase
}

// rulingWord is a word a ruling is made of.
var rulingWord = regexp.MustCompile(`\b(?:rolls?|rolling|checks?|dice|tests?|automatic(?:ally)?)\b`)

// leanedAgainst says whether one of the clauses in unexplained (words no rule read,
// after the ruling the tally held at read) offers, unsure ("maybe", "perhaps"), a
// ruling's words that lean against that ruling: the reply wavered between it and the
// other.
func leanedAgainst(unexplained [][2]int, read tallyMark, lower, orig string, tax *Taxonomy, lex *Lexicon) bool {
	if read.n == 0 || read.hasRoll == read.hasPas || lex == nil {
		return false
	}
	d := DecisionPass
	if read.hasRoll {
		d = DecisionRoll
	}
	for _, u := range unexplained {
		clause := lower[u[0]:u[1]]
		if hedgeWord.MatchString(clause) && lex.headIdx.has(clause) && !irrealis.MatchString(clause) && leansOther(clause, orig[u[0]:u[1]], d, tax) {
			return true
		}
	}
	return false
}

// backAfterAll is a ruling taken back to after a correction: "I'll say roll after
// all", "a Climb roll after all".
var backAfterAll = regexp.MustCompile(`\b(?:rolls?|checks?|dice|automatic|no\s+roll)\b[^.!?\n]{0,30}?\bafter\s+all\b`)

// correctedBack says whether folded (a reply, lowercased) corrects itself with a
// correction phrase of lex and, after it, goes back to a ruling "after all": two
// flips, whatever the last one says.
func correctedBack(folded string, lex *Lexicon) bool {
	if !strings.Contains(folded, "after all") {
		return false
	}
	at, phrase := lex.correctionIdx.first(folded)
	return at >= 0 && backAfterAll.MatchString(folded[at+len(phrase):])
}

// keeperRollsFor is the Keeper saying they roll a skill for someone: "I'm rolling
// Stealth for the cultist". What follows "for" says whose roll it is.
var keeperRollsFor = regexp.MustCompile(`\b(?:i['’]m|i\s+am|i['’]ll\s+be|i\s+will\s+be|i['’]ll|i\s+will|i)\s+(?:(?:just|also|secretly|quietly)\s+)?(?:rolling|roll)\s+(?:[a-z'’()-]+\s+){1,4}?for\s+(?:the|that|this|his|her|their|its|our|each)\s+([a-z'’-]+)`)

// playerSide are the words for the one the ruling is about: a roll the Keeper makes for
// them is still the player's roll ("rolling Spot Hidden for the investigator").
var playerSide = map[string]bool{"player": true, "players": true, "investigator": true,
	"investigators": true, "character": true, "characters": true, "pc": true, "pcs": true,
	"party": true, "group": true, "team": true}

// othersRoll says whether the roll cue at [from, to) in clause is one the Keeper makes
// for someone other than the player's side (an opposed roll's other half): no ruling
// on the player's action.
func othersRoll(clause string, from, to int) bool {
	if !strings.Contains(clause[from:min(len(clause), to+60)], "for") {
		return false
	}
	lo := lastWordsStart(clause[:from], 4)
	m := keeperRollsFor.FindStringSubmatchIndex(clause[lo:min(len(clause), to+60)])
	if m == nil || lo+m[0] > from || lo+m[1] < to {
		return false
	}
	return !playerSide[clause[lo+m[2]:lo+m[3]]]
}

// negRaise is a negated verb of opinion and the clause it takes, up to a roll phrase:
// the negation reaches into that clause ("no creo que haga falta tirar", "je ne pense
// pas qu'il faille un jet", "ich glaube nicht, dass man würfeln muss").
var negRaise = regexp.MustCompile(`(?:\b(?:no|non|ne|n['’]|nie|não|nao|niet)\s*(?:[^\s,;:]+\s+){0,2}?(?:creo|pienso|pense|crois|trouve|penso|credo|acho|creio|myślę|sądzę|uważam|denk|geloof|vind)\s+(?:pas\s+|niet\s+)?|\b(?:glaube|denke|finde|meine|denk|geloof|vind)\s+(?:[^\s,;:]+\s+)?(?:nicht|niet)\s*,?\s*)(?:que|qu['’]|dass|daß|che|że|dat)\b[^;:,]{0,80}$`)

// negRaised says whether the text before a roll phrase ends in a negated verb of
// opinion and the clause it takes.
func negRaised(before string) bool {
	before = before[max(0, len(before)-160):]
	return strings.Contains(before, "n") && negRaise.MatchString(before) || deniedReason(before)
}

// skippedBefore says whether a word of l's without list (a verb of skipping, "sans")
// stands among the last words of before: a second negation, which cancels a raised one
// ("je ne crois pas qu'on puisse éviter un jet d'Esquive").
func (l *Lexicon) skippedBefore(before string) bool {
	for _, w := range wordsAt(before[lastWordsStart(before, 5):]) {
		if slices.Contains(l.without, strings.Trim(w.text, "-,'’")) {
			return true
		}
	}
	return false
}

// quantifiedNo says whether a pass phrase opens with a negative determiner or
// quantifier ("no roll", "no need", "nothing here needs"). In chat such a phrase opens a
// clause of its own ("its not dangerous no roll needed"), and after a negated verb it
// agrees with it ("don't need no roll"): a negation before it does not deny it.
func quantifiedNo(phrase string) bool {
	for _, q := range []string{"no ", "no-", "nothing", "none", "nobody", "neither"} {
		if strings.HasPrefix(phrase, q) {
			return true
		}
	}
	return false
}

// condWords are what every match of condMarker holds one of.
var condWords = []string{"if", "unless", "whether", "otherwise", "case", "long as", "provid", "assum", "only when"}

// optionModal offers the player what they could do: "you could make a Climb roll".
var optionModal = regexp.MustCompile(`\b(?:you|he|she|they|we)\s+(?:could|can|may|might)\s+(?:(?:just|always|also|either)\s+)?$`)

// orVerb is an "or" and a verb of another course of action after it: ", or take the
// stairs". An article, a roll word or a hedge after "or" is another thing.
var orVerb = regexp.MustCompile(`^\s*or\s+(?:(?:just|simply|else)\s+)?([a-z]+)\b`)

// notAction are words after "or" that do not open another course of action.
var notAction = map[string]bool{"a": true, "an": true, "the": true, "roll": true, "check": true,
	"no": true, "not": true, "maybe": true, "perhaps": true, "rather": true, "possibly": true,
	"even": true, "two": true, "both": true, "with": true, "at": true, "if": true, "so": true}

// optionOr says whether a roll offered as what the player could do (before is the
// clause up to the roll) is followed by ", or" and another course of action (after):
// "you could make a Climb roll, or take the stairs" leaves the ruling open.
func optionOr(before, after string) bool {
	if !optionModal.MatchString(before[lastWordsStart(before, 4):]) {
		return false
	}
	m := orVerb.FindStringSubmatch(after)
	return m != nil && !notAction[m[1]]
}
