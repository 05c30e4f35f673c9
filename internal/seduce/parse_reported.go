package seduce

import (
	"bytes"
	"regexp"
	"strings"
)

// A game master's rulings that name no roll the way the prose grammar reads one
// (issue 29, round 7). They are read only when nothing else in the reply rules, so a
// reply that also says "no roll" is never read by them, and each asks for a skill the
// taxonomy knows (an alias or a specialisation counts), capitalised as a name is:
//
//   - a roll the Keeper reports: a skill, then a result set against a target, "Spot
//     Hidden for Ada: 31 vs 55", "Lockpicking for Marguerite... 55 vs her 60",
//     "Stealth (rolled for you): 27 vs 40", "I'll roll his Handgun for him: 22 vs 40";
//   - a roll the Keeper makes behind the screen and then gives for a player: a dice
//     marker ("*rolls*", "*rolls behind the screen*"), then a sentence opening on a
//     skill for someone, "Spot Hidden for Ada: you see nothing";
//   - a request that does not say "roll": "Gimme Tracking, Bree", "let's see a Listen,
//     everyone", or one that says it as advice, "you're gonna want to roll Medicine".
//
// None of them reads a line a player speaks ("[Jonah] Spot Hidden: 12 vs 55"), a
// sentence on a condition or a choice between skills, or a skill's value asked for
// ("give me your Stealth score").

// reportedResult is a skill (group 1), who it is rolled for or a note that it was
// rolled, then a result against a target.
var reportedResult = regexp.MustCompile(`(?:^|[^A-Za-z'’])([A-Z][A-Za-z'’/-]*(?:\s+(?:[A-Z][A-Za-z'’/-]*|of)){0,2}(?:\s*\([A-Z][A-Za-z /'’-]*\))?)(?:\s+for\s+(?:you|him|her|them|[A-Z][a-z]+))?(\s*\([^()\d]{0,30}\brol(?:l|ls|led|ling)\b[^()\d]{0,30}\))?\s*(?:[:,—–-]|\.{2,}|…)?\s*(?:🎲\s*)?\d{1,3}%?\s*(?:vs\.?|versus|against)\s+(?:(?:your|his|her|their)\s+)?(?:target\s+(?:of\s+)?)?\d{1,3}\b`)

// diceMarker is the Keeper rolling in the reply's own voice: "*rolls*", "*rolls
// behind the screen*", "*rolling dice*"; not "*rolls eyes*".
var diceMarker = regexp.MustCompile(`\*\s*(?:rolls|rolling|rolled|roll)(?:\s+(?:the\s+|some\s+|a\s+)?(?:dice|die|d100|percentiles?|behind\s+the\s+screen|secretly|quietly|in\s+secret|openly|for\s+(?:you|him|her|them)))*\s*\*`)

// skillForSomeone is a sentence opening on a skill given for someone (group 1), as
// the Keeper reports a roll just made: "Spot Hidden for Ada: ...".
var skillForSomeone = regexp.MustCompile(`(?:^\s*|[.!?:\n*]\s*)(?:(?:hmm+|okay|ok|right|so|alright|well)[.,!]*\s+)*([A-Z][A-Za-z'’/-]*(?:\s+[A-Z][A-Za-z'’/-]*){0,2}(?:\s*\([A-Z][A-Za-z /'’-]*\))?)\s+(?:check\s+|roll\s+)?for\s+(?:you|him|her|them|[A-Z][a-z]+)\s*[:—–]`)

// requestNoRoll is a request for a skill's roll by its name alone (group 1):
// "gimme a Spot Hidden before …", "Give me Track, Bree."
var requestNoRoll = regexp.MustCompile(`(?i:\b(?:gimme|give\s+me|lemme\s+see|let\s+me\s+see|let['’]s\s+see|let['’]s\s+have|let['’]s\s+get)\s+(?:an?\s+|one\s+|your\s+|that\s+)?)([A-Z][A-Za-z'’/-]*(?:\s+(?:[A-Z][A-Za-z'’/-]*|of)){0,2}(?:\s*\([A-Z][A-Za-z /'’-]*\))?)(?:\s*(?:[,.!;—–]|$)|\s+(?:before|to|for|now|please|first|then|quick|real\s+quick)\b)`)

// adviseRoll is a roll asked for as advice (group 1): "you're gonna want to roll
// Medicine", "you'll need to roll First Aid".
var adviseRoll = regexp.MustCompile(`(?i:\byou(?:['’]re|\s+are)\s+(?:gonna|going\s+to)\s+(?:want|need|have)\s+to\s+roll\s+(?:an?\s+|your\s+)?)([A-Z][A-Za-z'’/-]*(?:\s+(?:[A-Z][A-Za-z'’/-]*|of)){0,2}(?:\s*\([A-Z][A-Za-z /'’-]*\))?)`)

// askForRoll is the Keeper asking for a roll as a question (group 1): "Can I get a
// Fighting roll?", "could I see your Listen check, Ada?".
var askForRoll = regexp.MustCompile(`(?i:\b(?:can|could|may)\s+i\s+(?:get|have|see)\s+(?:an?\s+|one\s+|your\s+)?)([A-Z][A-Za-z'’/-]*(?:\s+(?:[A-Z][A-Za-z'’/-]*|of)){0,2}(?:\s*\([A-Z][A-Za-z /'’-]*\))?)(?i:\s+(?:roll|check|test)\b)`)

// skillHailed is a skill's name opening a sentence, then a word that hands it to the
// players (group 1): "Spot Hidden, everyone — the glyphs are worn", "Firearms, and
// make it Extreme.", "That's Fighting (Brawl), go." Skills that are also everyday
// verbs ("Listen, everyone: …", "Jump, now!") are left to the prose grammar; see
// verbSkills.
var skillHailed = regexp.MustCompile(`(?:^\s*|[.!?:\n]\s*|\]\s*|[—–]\s*)(?i:(?:that['’]s|that\s+is|it['’]s|so|okay|ok|right|alright)[,]?\s+)?([A-Z][A-Za-z'’/-]*(?:\s+(?:[A-Z][A-Za-z'’/-]*|of)){0,2}(?:\s*\([A-Z][A-Za-z /'’-]*\))?)\s*,\s*(?i:everyone|everybody|all\s+of\s+you|y['’]all|folks|guys|go|go\s+ahead|please|now|and\s+make\s+it\s+(?:good|count|quick|snappy|hard|extreme|a\s+good\s+one))\s*(?:[.!,;:—–-]|$)`)

// verbSkills are skills (and aliases) whose name is also an everyday verb or
// interjection, not read by skillHailed.
var verbSkills = map[string]bool{"listen": true, "climb": true, "jump": true, "swim": true, "track": true,
	"dodge": true, "throw": true, "spot": true, "fight": true, "brawl": true, "search": true, "hide": true, "run": true, "sneak": true}

// requestCue are words requestNoRoll, adviseRoll, askForRoll and skillHailed each
// need, in the folded reply: one of them.
var requestCue = [8][]string{{"gimme", "give me", "let", "lemme"}, {"to roll"}, {"can i ", "could i ", "may i "}, {","},
	{"roll to", "roll for", "check to", "check for"}, {"own", "each", "every"}, {"dice", "d100", "percentile"},
	{"someone", "anyone", "anybody", "somebody", "whoever", "who"}}

// openInvitation is a roll offered to whoever has the skill (group 1): "Someone with
// Mechanical Repair wanna roll for it?", "Whoever has First Aid, roll it."
var openInvitation = regexp.MustCompile(`(?i:\b(?:someone|anyone|anybody|somebody|whoever|who)\s+(?:with|has|have|got|['’]s\s+got)\s+(?:a\s+|the\s+|good\s+)?)([A-Z][A-Za-z'’/-]*(?:\s+(?:[A-Z][A-Za-z'’/-]*|of)){0,2}(?:\s*\([A-Z][A-Za-z /'’-]*\))?)(?i:\s+skill)?(?i:\s*[,?]?\s*(?:wanna|want\s+to|wants\s+to|care\s+to|willing\s+to|fancy|gonna|going\s+to|can|,)\s*(?:roll|make\s+the\s+roll|give\s+it\s+a\s+roll|take\s+the\s+roll)\b|\s*[,?]\s*roll\b)`)

// rollNounPhrase is a sentence that is nothing but a skill's roll and what it is for
// (group 1): "One Medicine roll to figure out what the powder is.", "A quick Library
// Use roll for the article, please."
var rollNounPhrase = regexp.MustCompile(`(?:^\s*|[.!:\n]\s*|[—–]\s*)(?i:(?:okay|ok|right|so|alright)[,]?\s+)?(?i:one|a|an)\s+(?i:(?:quick|single|fast|simple|regular|hard|extreme)\s+)?([A-Z][A-Za-z'’/-]*(?:\s+(?:[A-Z][A-Za-z'’/-]*|of)){0,2}(?:\s*\([A-Z][A-Za-z /'’-]*\))?)\s+(?i:roll|check)\s+(?i:to|for)\s`)

// eachOwnRoll is a series of rolls of one skill (group 1): "Each room gets its own
// Spot Hidden roll", "every guard needs a Stealth check".
var eachOwnRoll = regexp.MustCompile(`(?i:\b(?:each|every)\s+[a-z]+(?:\s+[a-z]+)?\s+(?:gets|needs|takes|requires|calls\s+for|means)\s+(?:its|their|his|her|a|an|one)\s+(?:own\s+|separate\s+|new\s+)?)([A-Z][A-Za-z'’/-]*(?:\s+(?:[A-Z][A-Za-z'’/-]*|of)){0,2}(?:\s*\([A-Z][A-Za-z /'’-]*\))?)(?i:\s+(?:roll|check|test)s?\b)`)

// diceOut is the dice called for, then the skill (group 1): "Grab your d100s,
// Fighting (Brawl) for the punch."
var diceOut = regexp.MustCompile(`(?i:\b(?:grab|get|pick\s+up|ready|bring\s+out)\s+(?:your|the)\s+(?:dice|d100s?|percentiles?|percentile\s+dice)(?:\s+ready)?\s*[,:;—–-]\s*)([A-Z][A-Za-z'’/-]*(?:\s+(?:[A-Z][A-Za-z'’/-]*|of)){0,2}(?:\s*\([A-Z][A-Za-z /'’-]*\))?)(?:\s*(?:[,.!;—–]|$)|\s+(?:for|to|now|please)\b)`)

// toldDone says the rest of the sentence from at tells a roll of the past or judges
// it, not calls for one: "A Spot Hidden roll for the hatch failed last session."
func toldDone(text string, at int) bool {
	end := len(text)
	if i := strings.IndexAny(text[at:], ".!?\n"); i >= 0 {
		end = at + i
	}
	return pastOrJudged.MatchString(text[at:end])
}

// pastOrJudged are the words toldDone looks for.
var pastOrJudged = regexp.MustCompile(`(?i)\b(?:failed|passed|succeeded|made|was|were|had|did|last|earlier|yesterday|before|pointless|overkill|useless|silly|unnecessary|needless)\b`)

// endsInQuestion says the sentence holding at ends in a question mark.
func endsInQuestion(body string, at int) bool {
	i := strings.IndexAny(body[at:], ".!?\n")
	return i >= 0 && body[at+i] == '?'
}

// containsAny says whether s holds one of subs.
func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// speakerTag is a line opened by someone's name or a bracketed tag: "[Jonah]",
// "**Player:**", "Bree:".
var speakerTag = regexp.MustCompile(`^[\s*_>]*(?:\[([^\]\n]{1,30})\]|([A-Za-z]+)\s*\**\s*:)`)

// keeperTags are speaker tags of the game master.
var keeperTags = map[string]bool{"keeper": true, "gm": true, "dm": true, "kp": true, "narrator": true, "the keeper": true, "ic": true, "ooc": true}

// offeredOpen are words that put a sentence on a condition, a choice or a negation.
var offeredOpen = regexp.MustCompile(`(?i)\b(?:if|unless|whether|would|could|might|maybe|perhaps|either|whichever|or|not|no|never|don['’]t|doesn['’]t|won['’]t|isn['’]t)\b|n['’]t\b`)

// keeperRoll reads a roll the Keeper reports, makes or asks for without the prose
// grammar's words (see the comment above) and returns the skill and the span read.
//
// plain is body with its formatting blanked, at the same offsets ("**Spot Hidden**"
// read as "  Spot Hidden  "); folded is body folded to lower case.
func keeperRoll(body, plain, folded string, tax *Taxonomy) (skill string, at, to int) {
	skill, at, to = keeperRollAt(body, plain, folded, tax)
	if at >= 0 && takenBack.MatchString(strings.ToLower(body[to:])) {
		// "Gimme Stealth, Bree. Wait, scratch that, the guard's asleep."
		return "", -1, -1
	}
	return skill, at, to
}

// takenBack are words after a ruling that may take it back.
var takenBack = regexp.MustCompile(`\b(?:wait|actually|scratch\s+that|never\s*mind|forget\s+(?:it|that)|just\s+kidding|j/?k|on\s+second\s+thoughts?|hold\s+on|strike\s+that|belay\s+that|ignore\s+that|no\s+roll|no\s+need|don['’]t\s+bother|not\s+needed)\b`)

// keeperRollAt is keeperRoll before the words after it are read.
func keeperRollAt(body, plain, folded string, tax *Taxonomy) (skill string, at, to int) {
	if strings.Contains(body, "vs") || strings.Contains(body, "against") || strings.Contains(body, "versus") {
		for _, m := range reportedResult.FindAllStringSubmatchIndex(body, -1) {
			if s := resolvedName(body[m[2]:m[3]], tax); s != "" && !spokenByPlayer(body, m[2]) && !openSentence(body, m[2], m[1], false) {
				return s, m[2], m[1]
			}
		}
	}
	var loc []int
	if strings.Contains(body, "*") {
		loc = diceMarker.FindStringIndex(body)
	}
	if loc != nil {
		rest := body[loc[1]:]
		for _, m := range skillForSomeone.FindAllStringSubmatchIndex(rest, -1) {
			if s := resolvedName(rest[m[2]:m[3]], tax); s != "" && !spokenByPlayer(body, loc[1]+m[2]) {
				return s, loc[0], loc[1] + m[1]
			}
		}
	}
	for i, re := range []*regexp.Regexp{requestNoRoll, adviseRoll, askForRoll, skillHailed, rollNounPhrase, eachOwnRoll, diceOut, openInvitation} {
		if !containsAny(folded, requestCue[i]) {
			continue // the words each form must hold, looked for cheaply first
		}
		for _, m := range re.FindAllStringSubmatchIndex(plain, -1) {
			if re == skillHailed && verbSkills[strings.ToLower(plain[m[2]:m[3]])] {
				continue
			}
			if i >= 4 && i <= 6 && (endsInQuestion(plain, m[1]) || toldDone(plain, m[1])) {
				continue // "Every room gets its own Spot Hidden roll? …" asks, not rules
			}
			if s := resolvedName(plain[m[2]:m[3]], tax); s != "" && !spokenByPlayer(body, m[0]) && !openSentence(plain, m[0], m[1], true) {
				return s, m[0], m[1]
			}
		}
	}
	return "", -1, -1
}

// resolvedName is the taxonomy's skill a capitalised name gives, trying its last
// three, two and one words (the words before may be a sentence's), a parenthesis that
// names no skill set aside; "" when none is a skill.
func resolvedName(name string, tax *Taxonomy) string {
	name = strings.TrimSpace(name)
	for _, n := range []string{name, strings.TrimSpace(name[:max(0, strings.IndexByte(name, '('))])} {
		if n == "" {
			continue
		}
		words := strings.Fields(n)
		for k := min(3, len(words)); k >= 1; k-- {
			cand := strings.Join(words[len(words)-k:], " ")
			if strings.EqualFold(words[len(words)-k], "of") {
				continue
			}
			if c, ok := tax.Canonical(cand); ok {
				return c
			}
			if c := otherSkill(cand); c != "" {
				return c // "Psychology for Mae: …", kept as written
			}
		}
	}
	return ""
}

// spokenByPlayer says the line holding at opens with a speaker tag that is not the
// game master's: a player's own report or request is no ruling.
func spokenByPlayer(body string, at int) bool {
	start := strings.LastIndexByte(body[:at], '\n') + 1
	m := speakerTag.FindStringSubmatch(body[start:at])
	if m == nil {
		return false
	}
	tag := strings.ToLower(strings.TrimSpace(m[1] + m[2]))
	return !keeperTags[tag]
}

// openSentence says the words of the sentence around [from, to), outside it, put the
// ruling on a condition, a choice or a negation; with after false, only its words up to to count (a reported
// roll's outcome may be told negated: "44 vs 60, you don't make it").
func openSentence(body string, from, to int, after bool) bool {
	start := strings.LastIndexAny(body[:from], ".!?\n") + 1
	end := to
	if i := strings.IndexAny(body[to:], ".!?\n"); after && i >= 0 {
		end = to + i
	} else if after {
		end = len(body)
	}
	// The match's own words are fixed grammar ("Could I see your …"); the rest of the
	// sentence is what may leave it open.
	return offeredOpen.MatchString(indirectIf.ReplaceAllString(body[start:from]+" "+body[to:end], " "))
}

// indirectIf is "if" opening what a roll finds out, not a condition: "see if you can
// still follow the marks".
var indirectIf = regexp.MustCompile(`(?i)\b(?:see|find\s+out|check|tell|know|learn|notice|figure\s+out|work\s+out)\s+(?:if|whether)\b`)

// errorObject is a reply that is nothing but an error object: {"error": "…"}.
var errorObject = regexp.MustCompile("^\\s*(?:```[a-z]*\\s*)?\\{\\s*\"error\"\\s*:\\s*(?:\"[^\"\\s]|\\{)")

// withheldText is a system's note in place of the reply: "[Response withheld: …]",
// "This reply has been removed …", "Output blocked: …", a bracket that is the whole
// reply ("[removed]", "[Blocked by safety filter]"), an error line that says the
// model declined ("Error: the model declined to respond."). A bare platform error,
// "Error: content filtered.", stays unparsed as the development set labels it.
var withheldText = regexp.MustCompile(`(?i)^\W{0,3}(?:(?:this\s+)?(?:response|reply|answer|output|completion)|this\s+(?:content|message))\s+(?:(?:was|has\s+been|is|have\s+been)\s+)?(?:withheld|blocked|removed|redacted|filtered|suppressed|censored)\b|^\s*[\[(]\s*(?:blocked|removed|withheld|redacted|filtered|suppressed|censored|deleted)\b[^\])\n]{0,60}[\])]\s*$|^\W{0,3}error\s*:[^\n]{0,60}\b(?:declin\w*|refus\w*)\b`)

// systemRefusal says the reply is an error object or a system's note withholding it.
func systemRefusal(body string) bool {
	return errorObject.MatchString(body) || withheldText.MatchString(body)
}

// A player asks to roll and the Keeper answers no need: "[Jonah] can I roll Spot
// Hidden for the key?\n[Keeper] nah, it's in the lock, you take it." The Keeper's
// line must open on the "no" and say nothing more of rolls, skills, conditions or of
// the action failing: "no, it's too far to jump at all" denies the action, not the
// roll.

// askedToRoll is a question about rolling.
var askedToRoll = regexp.MustCompile(`(?i)\b(?:roll|rolls|rolling|check|test|dice)\b[^?\n]*\?`)

// answeredNo is the Keeper's line opening on "no need".
var answeredNo = regexp.MustCompile(`(?i)^[\s,*_]*(?:nah|nope|naw|no|not\s+needed|no\s+need|don['’]t\s+bother|nah\s+no\s+need|no\s+roll)\b`)

// noMore are words that keep the Keeper's "no" from being a pass: a roll or a skill
// called instead, a condition, a question, the action denied or failing.
var noMore = regexp.MustCompile(`(?i)\b(?:roll|rolls|check|test|dice|die|but|unless|if|or|instead|can['’]t|cannot|won['’]t|impossible|too|fail|fails|failed|not\s+happening|no\s+way|wait)\b|\?`)

// waivedOnAsking reads a player's question about rolling answered "no need" by the
// Keeper on the next tagged line, and returns the span of the answer.
func waivedOnAsking(body string, tax *Taxonomy) (at, to int) {
	if !strings.Contains(body, "\n") || !askedToRoll.MatchString(body) {
		return -1, -1
	}
	asked := false
	start := 0
	for _, line := range strings.SplitAfter(body, "\n") {
		from := start
		start += len(line)
		m := speakerTag.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		tag := strings.ToLower(strings.TrimSpace(line[max(m[2], m[4]):max(m[3], m[5])]))
		rest := line[m[1]:]
		if !keeperTags[tag] {
			asked = askedToRoll.MatchString(rest)
			continue
		}
		if !asked {
			return -1, -1
		}
		loc := answeredNo.FindStringIndex(rest)
		if loc == nil || noMore.MatchString(rest[loc[1]:]) || namesSkill(rest, tax) || strings.TrimSpace(body[start:]) != "" {
			return -1, -1
		}
		return from + m[1], start
	}
	return -1, -1
}

// diceIdiom is "a roll of the dice": chance, not a call for a roll. "Scaling that
// face really is a roll of the dice, so: Climb roll, please" calls for Climb; the
// idiom itself rules nothing and names no skill.
var diceIdiom = regexp.MustCompile(`(?i)\b(?:a|the|one|another)\s+(?:single\s+|simple\s+|lucky\s+|mere\s+|real\s+|pure\s+|literal\s+)?(?:roll|throw|toss)\s+of\s+(?:the\s+)?(?:dice|die|bones)\b`)

// blankDiceIdiom blanks each "a roll of the dice" in b. "No roll of the dice" is left
// as it was: a negation the prose grammar reads.
func blankDiceIdiom(b []byte) {
	if !bytes.Contains(b, []byte(" of ")) && !bytes.Contains(b, []byte(" OF ")) && !bytes.Contains(b, []byte(" Of ")) {
		return
	}
	for _, loc := range diceIdiom.FindAllIndex(b, -1) {
		for i := loc[0]; i < loc[1]; i++ {
			b[i] = ' '
		}
	}
}

// closingQuotes is the end of up to three closing quotation marks at i in s: the
// straight ones and ” and ’.
func closingQuotes(s string, i int) int {
	for n := 0; n < 3 && i < len(s); n++ {
		switch {
		case s[i] == '"' || s[i] == '\'':
			i++
		case strings.HasPrefix(s[i:], "”") || strings.HasPrefix(s[i:], "’"):
			i += len("”")
		default:
			return i
		}
	}
	return i
}
