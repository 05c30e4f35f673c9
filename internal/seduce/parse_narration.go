package seduce

import (
	"regexp"
	"strings"
)

// Narration as a ruling (issue 29, round 6). A game master often answers "can I do
// this?" by telling it done: "You light the lamp.", "The guard waves you through.",
// "Eleanor lifts the latch." The labelling rules make such a reply a pass, but only
// when it is nothing but the action told as done: no word of a ruling, no question
// put to the player, no refusal, hedge or condition, no failure or hurt, no roll's
// result. narratedDone reads that narrowly, after narratedSuccess's fixed verbs found
// nothing:
//
//   - a sentence whose subject is "you" and whose verb is in the present tense and is
//     an act (not a modal, an auxiliary, a verb of perceiving or thinking, nor one of
//     failing), "You flick through the register.";
//   - a sentence whose subject is a name and whose verb is an act of the fixed list,
//     "Beatrice walks into the shop";
//   - a phrase of a lexicon's narration list: the action told as done without a
//     subject of the player's ("the door swings open", "up you go", "no biggie").
//
// Whatever the cue, any block word anywhere in the reply keeps it unparsed.

// youActs is a sentence opening on "you" and the word after it (group 1).
var youActs = regexp.MustCompile(`(?:^|[.!;:\n]\s*|\)\s*|\s[—–-]+\s*|,\s*)(?:(?:keeper|gm)\s*:\s*|(?:sure|okay|ok|alright|right|so|okay\s+so|ok\s+so)[,\s]\s*)?you\s+(?:just\s+|easily\s+|quickly\s+|simply\s+|calmly\s+|carefully\s+|slowly\s+|then\s+)?([a-z]+)\b`)

// notActs are the words after "you" that do not tell an act done: auxiliaries and
// modals, verbs of perceiving, thinking and wanting (a scene described, a player
// asked), verbs of failing or of harm, and words that are no verb.
var notActs = map[string]bool{
	"are": true, "were": true, "was": true, "is": true, "be": true, "been": true, "have": true, "had": true, "has": true,
	"do": true, "did": true, "does": true, "can": true, "could": true, "will": true, "would": true, "shall": true,
	"should": true, "may": true, "might": true, "must": true, "need": true, "needs": true, "want": true, "wanna": true,
	"wish": true, "hope": true, "try": true, "attempt": true, "get": true, "got": true, "see": true, "hear": true,
	"feel": true, "sense": true, "smell": true, "taste": true, "think": true, "know": true, "believe": true,
	"remember": true, "recall": true, "realise": true, "realize": true, "wonder": true, "notice": true, "spot": true,
	"look": true, "seem": true, "appear": true, "watch": true, "wait": true, "stand": true, "sit": true, "stay": true,
	"find": true, "mean": true, "say": true, "ask": true, "tell": true, "guess": true, "decide": true, "choose": true,
	"pass": true, "roll": true, "make": true, "take": true, "lose": true, "miss": true, "fail": true, "fall": true,
	"slip": true, "drop": true, "trip": true, "stumble": true, "hit": true, "kill": true, "die": true, "faint": true,
	"freeze": true, "panic": true, "scream": true, "flee": true, "hurt": true, "cut": true, "wake": true, "go": true,
	"all": true, "two": true, "three": true, "both": true, "guys": true, "lot": true, "and": true, "or": true,
	"there": true, "here": true, "too": true, "again": true, "not": true, "never": true, "only": true, "alone": true,
	"first": true, "now": true, "still": true, "already": true, "also": true, "yourself": true, "the": true, "a": true,
	"an": true, "to": true, "in": true, "on": true, "at": true, "of": true, "for": true, "with": true, "by": true,
}

// namedActs is a sentence whose subject is a name (group 1) doing an act of a fixed
// list, in the original text: "Eleanor lifts the latch."
var namedActs = regexp.MustCompile(`(?:^|[.!;:\n]\s*|\*\s*|\]\s*)([A-Z][a-z]+)\s+(?:just\s+|easily\s+|quickly\s+|simply\s+|calmly\s+)?(?:lifts|walks|climbs|opens|unlocks|reaches|crosses|enters|steps|strolls|picks|reads|follows|wades|swims|hops|vaults|leaps|lights|buys|heads|strides|boards|unties|unbolts|pushes|pulls|slips\s+inside|clambers|scrambles|flicks|leafs|tightens|bandages|straps)\b`)

// notNames are capitalised words that open a sentence and are no one's name.
var notNames = map[string]bool{"The": true, "A": true, "An": true, "This": true, "That": true, "It": true, "There": true,
	"Nobody": true, "No": true, "Someone": true, "Something": true, "Nothing": true, "Everyone": true, "Anyone": true,
	"If": true, "When": true, "Then": true, "And": true, "But": true, "Or": true, "So": true, "Who": true, "What": true,
	"Roll": true, "Keeper": true, "Player": true}

// narrationFails are words that keep any narration from ruling, beside
// narrationBlock's: a roll's result or difficulty, a negation, failing, being hurt,
// being seen, and anything else acting on the player ("the current drags you under",
// "the dog lunges at you").
var narrationFails = regexp.MustCompile(`\b(?:success|successful|successfully|succeed|succeeds|succeeded|critical|crit|fumble|fumbles|fumbled|extreme|regular|difficulty|penalty|bonus|miss|misses|missed|stumbles?|trips?|drops?|hurts?|injur\w*|wound\w*|damage|bleed\w*|budge|budges|spotted|caught|alarm|alerts?|notices\s+you|sees\s+you|hears\s+you|spots\s+you|spot\s+you|see\s+you|dead|dies|died|sanity|pushed|pushing|result|outcome|not|never|holds?\s+fast|nothing\s+(?:happens|happened|changes|moves|at\s+all)|empty\s+air|stays?\s+(?:shut|closed|put)|no\s+(?:luck|answer|sign|use|good))\b|\b(?:twist|twists|twisting|twisted|sprain\w*|bruis\w*|graz(?:e|es|ed|ing)|cut|cuts|cutting|scrap(?:e|es|ed|ing)|bang\w*|hurt\w*|burn\w*)\s+your\b|\b[a-z]+s\s+you\b|(?:^|[.!;]\s+)nothing\s*[.!]|\b(?:cracks|cracked|snaps|snapped|collapses|collapsed|crumbles|crumbled|shatters|shattered|breaks|broke|splinters|splintered|tears|tore|buckles|buckled)\b|\b(?:is|are|was|were|gets?|got)\s+(?:shot|hit|stabbed|bitten|caught|seen|spotted|heard)\b|\b(?:at|towards?)\s+you\b`)

// narrationVoice are words that keep the wider narration of narratedDone from ruling:
// the game master speaking as themself, the future, a negation, a skill or difficulty
// word, nothing found, "what now?".
var narrationVoice = regexp.MustCompile(`\b(?:hard|skill|skills|i|i['’]d|i['’]ll|i['’]m|me|my|we|let['’]s|maybe|perhaps|probably|likely|will|['’]ll|['’]d|have\s+to|has\s+to|not|no|never|nor|nothing|san|luck|what\s+now)\b|n['’]t\b`)

// thingRolls is "roll" as a thing's motion, not dice: "cold air rolls up the stairs".
var thingRolls = regexp.MustCompile(`\b(?:air|fog|mist|smoke|thunder|clouds?|waves?|tide|water|darkness|sweat|tears?|barrels?|boulders?|stones?|coins?|wheels?|bottles?)\s+rolls?\b`)

// effortless is an act done with no effort, not an attempt: "without even trying".
var effortless = regexp.MustCompile(`\bwithout\s+(?:even\s+)?trying\b`)

// noFuss is "no" in an idiom of ease, which denies nothing: "no biggie", "no drama".
var noFuss = regexp.MustCompile(`\bno\s+(?:biggie|drama|fuss|problem|problems|trouble|bother)\b`)

// helpsYou is someone acting on the player to help: "the clerk hands you the register".
var helpsYou = regexp.MustCompile(`\b(?:hands|gives|shows|offers|brings|lends|lets|waves|tosses|passes|leads|points)\s+you\b`)

// breaksOpen is a thing giving way to the player's act: "the door splinters open".
var breaksOpen = regexp.MustCompile(`\b(?:cracks|cracked|snaps|snapped|breaks|broke|splinters|splintered|tears|tore)\s+(?:open|free|loose)\b`)

// narratedDone finds the action told as done in a reply that rules nothing else (see
// the comment at the top of this file); at is -1 when there is none.
func narratedDone(body, folded string, tax *Taxonomy, lex *Lexicon) (at, to int) {
	if len(folded) > 1200 {
		return -1, -1
	}
	// The cues of the lexicons, found and set aside: "no biggie" holds a negation that
	// is part of the cue, not a denial.
	at, to = -1, -1
	scan := folded
	for _, p := range lex.narration {
		for from := 0; ; {
			i := phraseAt(scan, p, from)
			if i < 0 {
				break
			}
			if at < 0 || i < at {
				at, to = i, i+len(p)
			}
			scan = scan[:i] + blankOut(p) + scan[i+len(p):]
			from = i + len(p)
		}
	}
	if at < 0 {
		at, to = actNarrated(body, folded)
	}
	if at < 0 {
		return -1, -1 // nothing told done: the blocks need not be read
	}
	if strings.Contains(scan, "?") {
		scan = nextAction.ReplaceAllStringFunc(scan, func(s string) string { return blankOut(s[:len(s)-1]) + "." })
	}
	if end := strings.TrimRight(scan, " \t\r\n*_)"); end == "" || !strings.ContainsRune(".!\"”'’", rune(end[len(end)-1])) && !strings.HasSuffix(end, "”") && !strings.HasSuffix(end, "’") {
		return -1, -1 // a narration cut off, or one that ends on a question, is no ruling
	}
	scan = maskRollIdioms(narrationScan(scan)) // "Rock and roll, folks — …" (parse_precision8.go)
	if narrationBlocked(scan, body, tax) || narrationVoice.MatchString(scan) || lex.headIdx.has(scan) ||
		hasPhrase(scan, lex.negation) || hasPhrase(scan, lex.condition) || hasPhrase(scan, lex.hedge) {
		return -1, -1
	}
	return at, to
}

// actNarrated finds a sentence that tells an act done, with "you" or a name as its
// subject (youActs, namedActs); at is -1 when there is none.
func actNarrated(body, folded string) (at, to int) {
	for _, m := range youActs.FindAllStringSubmatchIndex(folded, -1) {
		w := folded[m[2]:m[3]]
		if notActs[w] || strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ly") {
			continue
		}
		if !hasComplement(folded, m[3]) {
			continue
		}
		return m[0], m[3]
	}
	for _, m := range namedActs.FindAllStringSubmatchIndex(body, -1) {
		if !notNames[body[m[2]:m[3]]] {
			return m[2], m[1]
		}
	}
	return -1, -1
}

// narrationScan sets aside in folded the words that look like block words and are
// not: a thing that rolls, an act done without trying, "no" in "no biggie", an
// obstacle denied.
func narrationScan(folded string) string {
	folded = thingRolls.ReplaceAllStringFunc(folded, blankOut)
	folded = effortless.ReplaceAllStringFunc(folded, blankOut)
	folded = noFuss.ReplaceAllStringFunc(folded, blankOut)
	folded = helpsYou.ReplaceAllStringFunc(folded, blankOut)
	folded = breaksOpen.ReplaceAllStringFunc(folded, blankOut)
	if strings.Contains(folded, " with ") && strings.Contains(folded, "roll") {
		folded = rollWithIt.ReplaceAllStringFunc(folded, blankOut) // "let's roll with it"
	}
	return notObstacle.ReplaceAllString(folded, " ")
}

// narrationBlocked says whether scan (a reply folded, through narrationScan) holds a
// word that keeps any narration from ruling: narrationBlock's and narrationFails', a
// number that may be a roll's result, a skill named.
func narrationBlocked(scan, body string, tax *Taxonomy) bool {
	return narrationBlock.MatchString(scan) || narrationFails.MatchString(scan) || rollNumber(scan) || namesSkill(body, tax)
}

// hasComplement says whether the verb ending at to in folded has an object or a
// complement after it: "You pick." hands a choice back, "You pick the lock." tells an
// act done. "You make it." holds its object.
func hasComplement(folded string, to int) bool {
	if strings.HasSuffix(folded[:to], " it") || strings.HasSuffix(folded[:to], "yourself") {
		return true
	}
	rest := strings.TrimLeft(folded[to:], " ")
	return rest != "" && !strings.ContainsRune(".!?,;:", rune(rest[0]))
}

// rollNumber says whether folded holds a number that may be a roll's result: one to
// three digits standing alone, not a count of something ("10 feet") nor a room's or
// a page's number.
func rollNumber(folded string) bool {
	for i := 0; i < len(folded); i++ {
		if folded[i] < '0' || folded[i] > '9' || i > 0 && (isLetter(folded[i-1]) || folded[i-1] >= '0' && folded[i-1] <= '9') {
			continue
		}
		j := i
		for j < len(folded) && folded[j] >= '0' && folded[j] <= '9' {
			j++
		}
		n := j - i
		i = j
		if n > 3 || j < len(folded) && isLetter(folded[j]) {
			continue
		}
		rest := strings.TrimLeft(folded[j:], " ")
		if rest != "" && rest[0] >= 'a' && rest[0] <= 'z' {
			continue // "10 feet", "3 guards"
		}
		before := strings.TrimRight(folded[:j-n], " ")
		if strings.HasSuffix(before, "#") {
			continue // "Post #214"
		}
		if strings.HasSuffix(before, "room") || strings.HasSuffix(before, "page") || strings.HasSuffix(before, "no.") ||
			strings.HasSuffix(before, "number") || strings.HasSuffix(before, "chapter") || strings.HasSuffix(before, "p.") {
			continue
		}
		return true
	}
	return false
}

// namesSkill says whether body names a skill of the taxonomy with a capital, other
// than as a sentence's first word with more of the sentence after it ("Listen closely:
// ...") or after a negation ("no Track"): a narration that names a skill may be
// calling for it ("You reach the wall. Climb.").
func namesSkill(body string, tax *Taxonomy) bool {
	text := body[:min(len(body), 1200)]
	locs := skillWord.FindAllStringIndex(text, -1)
	for i, loc := range locs {
		if c := text[loc[0]]; c < 'A' || c > 'Z' {
			continue
		}
		for n := min(3, len(locs)-i); n > 0; n-- {
			if _, ok := tax.Canonical(text[loc[0]:locs[i+n-1][1]]); !ok {
				continue
			}
			opens := i == 0 || strings.ContainsAny(text[locs[i-1][1]:loc[0]], ".!?\n:")
			end := locs[i+n-1][1]
			goesOn := i+n < len(locs) && !strings.ContainsAny(text[end:locs[i+n][0]], ".!?\n,:;—–-") &&
				text[locs[i+n][0]] >= 'a' && text[locs[i+n][0]] <= 'z'
			before := strings.ToLower(strings.TrimRight(text[:loc[0]], " "))
			denied := false
			for _, w := range []string{" no", " not", " without", " nor", " neither"} {
				denied = denied || strings.HasSuffix(" "+before, w)
			}
			if !denied && (!opens || !goesOn) {
				return true
			}
		}
	}
	return false
}
