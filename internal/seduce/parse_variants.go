package seduce

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"
)

// Variants of rounds 6-7's English rules (issue 29, round 8): the same grammar read
// in its other inflections, marks and word orders.

// reasonDeclines is a JSON reason that opens by declining, in any inflection:
// "Declined: real-world violence", "Refused — graphic harm", "Declines to adjudicate;
// …". Declining to do something else ("Declined to specify the lock") is not one.
var reasonDeclines = regexp.MustCompile(`^(?:request\s+)?(?:declin(?:e|ed|es|ing)|refus(?:e|ed|es|ing)|abstain(?:s|ed|ing)?|withheld)(?:\s*[:—–]|\s+-\s|\s+to\s+(?:rule|adjudicate|judge|answer|engage|assist|help|participate|weigh\s+in|(?:give|make|provide|offer)\s+(?:a\s+|any\s+)?(?:ruling|call|decision|judgement|judgment|verdict)))`)

// declinedReason says a null decision's reason declines to rule.
func declinedReason(reason string) bool {
	return reasonDeclines.MatchString(strings.TrimLeft(foldLower(reason), " *_`\"'"))
}

// yesMarks and noMarks are the emoji and signs a table or list writes for yes and no.
var (
	yesMarks = []string{"✅", "✔️", "✔", "☑️", "☑", "✓", "👍", "🟢"}
	noMarks  = []string{"❌", "✖️", "✖", "✗", "✘", "❎", "🚫", "⛔", "👎", "🔴"}
)

// markedYesNo reads a yes or no written with a mark beside the word, in either order:
// "✅ Yes", "No ❌", "✔️ required". The mark and the word must agree; a mark with a
// word that says neither ("✅ Maybe") is not read.
func markedYesNo(w string) (bool, bool) {
	if f := strings.Fields(w); len(f) == 2 && f[0] == f[1] && (f[0] == "yes" || f[0] == "no") {
		// A table's tick or cross is read as its word before the cell is: "✅ Yes"
		// comes here as "yes yes".
		return f[0] == "yes", true
	}
	mark, yes := "", false
	for _, m := range yesMarks {
		if strings.Contains(w, m) {
			mark, yes = m, true
			break
		}
	}
	if mark == "" {
		for _, m := range noMarks {
			if strings.Contains(w, m) {
				mark = m
				break
			}
		}
	}
	if mark == "" {
		return false, false
	}
	rest := strings.TrimSpace(strings.ReplaceAll(w, mark, ""))
	rest = strings.Trim(rest, "\ufe0f *`\"'.!:")
	if rest == "" || strings.ContainsAny(rest, "✅✔☑✓❌✖✗✘❎") {
		return false, false
	}
	b, ok := yesNo(rest)
	if !ok || b != yes {
		return false, false
	}
	return b, true
}

// parenReason sets a check label's skill apart from a parenthesis after it that gives
// the reason, "First Aid (stabilise the bleeding)": the skill before it and the
// parenthesis closing the value. A parenthesis that is a specialisation ("Fighting
// (Brawl)") is read with its skill before this is tried.
var parenReason = regexp.MustCompile(`^([^()]+?)\s*\(([^()]*)\)\s*[.!]?\s*$`)

// skillBeforeReason is the skill of a check label's value that gives its reason in a
// parenthesis, when the reason neither names a roll nor leaves the ruling open.
func skillBeforeReason(v string, tax *Taxonomy) (string, bool) {
	m := parenReason.FindStringSubmatch(v)
	if m == nil || len(strings.Fields(m[1])) > 4 || reasonOpens.MatchString(foldLower(m[2])) {
		return "", false
	}
	if c, known := tax.Canonical(skillValue(strings.TrimSpace(m[1]), tax)); known {
		return c, true
	}
	return "", false
}

// terseRefusal is a refusal with its subject left out or spoken in character, the
// whole of a short reply: "Can't help.", "Won't rule on it.", "Sorry — can't do this
// one.", "*The Keeper sets down the screen.* \"No. I'm not running that.\"", "I shall
// not rule on this." A verb of helping or ruling must end its clause ("Can't help but
// think…" and "can't rule out" are no refusal).
var terseRefusal = regexp.MustCompile(`^(?:(?:sorry|nope|no|unfortunately|afraid\s+so)\W+)?(?:i\s+)?(?:can['’]t|cannot|can\s+not|won['’]t|will\s+not|shall\s+not|shan['’]t)\s+(?:help|assist|rule|judge|adjudicate|weigh\s+in|do\s+(?:this|that|it))(?:\s+(?:you|here|on\s+(?:this|that|it)|with\s+(?:this|that|it)|this|that|it))?(?:\s+one)?(?:\s*,\s*sorry)?\s*(?:[.!—–]|$)`)

// spokenRefusal is a Keeper's in-character refusal: "No. I'm not running that.", "Not
// this. Not at my table.", "\"Not tonight,\" he says".
var spokenRefusal = regexp.MustCompile(`^(?:no[.!,]\s+)?(?:i['’]m\s+not\s+running\s+(?:that|this)|not\s+(?:this|that|tonight|today|now)[.!,]|not\s+at\s+my\s+table)`)

// stageDirection is an action set in asterisks or a sentence about the Keeper before
// the spoken words: "*The Keeper shakes her head.*".
var stageDirection = regexp.MustCompile(`\*[^*\n]{1,120}\*`)

// shortRefusal says whether a short reply, its stage directions and quotation marks
// set aside, is no more than a terse refusal.
func shortRefusal(body string) bool {
	if len(body) > 240 {
		return false
	}
	framed := stageDirection.MatchString(body)
	s := stageDirection.ReplaceAllString(body, " ")
	s = strings.NewReplacer("\"", " ", "“", " ", "”", " ").Replace(s)
	s = strings.TrimSpace(foldLower(s))
	if len(strings.Fields(s)) > 14 || strings.Contains(s, "roll") || strings.Contains(s, "?") {
		return false
	}
	if terseRefusal.MatchString(strings.TrimLeft(s, " —–-*_")) {
		return true
	}
	return spokenRefusal.MatchString(s) && (framed || strings.Contains(s, "running") || strings.Contains(s, "nothing more"))
}

// rollWithIt is "roll with it", going along with what the player says: an idiom of
// no dice, with the speaker's "let's", "I'll" or "we'll" that carries it. Not when
// negated ("I won't roll with this": a refusal to go along, read by the gates).
var rollWithIt = regexp.MustCompile(`(?i)\b(?:(?:let['’]s|we['’]ll|i['’]ll|we\s+can|i\s+can|we\s+will|i\s+will)\s+(?:just\s+)?roll|(?:i['’]m|we['’]re|i\s+am|we\s+are)\s+(?:just\s+)?rolling)\s+with\s+(?:it|that|this|the\s+punches)\b`)

// mention is a chat's "@Name" set before a line's words: a vocative, no word of the
// sentence.
var mention = regexp.MustCompile(`(?:^|[\s:(])(@[A-Za-z0-9_.-]+)`)

// blankVariants blanks "roll with it", chat mentions, a speaker's frame ("if you ask
// me") and an "unless" condition the reply settles as false in b.
func blankVariants(b []byte) {
	if bytes.IndexByte(b, '@') >= 0 {
		for _, m := range mention.FindAllSubmatchIndex(b, -1) {
			for i := m[2]; i < m[3]; i++ {
				b[i] = ' '
			}
		}
	}
	if bytes.Contains(b, []byte("nless")) || bytes.Contains(b, []byte("NLESS")) {
		for _, loc := range settledUnless.FindAllIndex(b, -1) {
			for i := loc[0]; i < loc[1]; i++ {
				b[i] = ' '
			}
		}
	}
	if bytes.IndexByte(b, ',') >= 0 {
		for _, m := range tagQuestion.FindAllSubmatchIndex(b, -1) {
			from := bytes.LastIndexAny(b[:m[0]], ".!?\n") + 1
			if !negatedStatement.Match(bytes.ToLower(b[from:m[0]])) {
				continue
			}
			for i := m[0]; i < m[2]; i++ {
				b[i] = ' '
			}
			b[m[2]] = '.' // the statement before the tag, not a question
		}
	}
	if bytes.Contains(b, []byte(" me")) || bytes.Contains(b, []byte("p to")) || bytes.Contains(b, []byte(" my ")) {
		for _, loc := range speakerFrame.FindAllIndex(b, -1) {
			end := loc[1]
			if end > loc[0] && b[end-1] != ',' && b[end-1] != ':' {
				end = bytes.LastIndexFunc(b[:end], unicode.IsLetter) + 1 // keep the stop
			}
			for i := loc[0]; i < end; i++ {
				b[i] = ' '
			}
		}
	}
	if !bytes.Contains(b, []byte(" with ")) && !bytes.Contains(b, []byte(" WITH ")) && !bytes.Contains(b, []byte(" With ")) || !bytes.Contains(b, []byte("oll")) && !bytes.Contains(b, []byte("OLL")) {
		return
	}
	for _, loc := range rollWithIt.FindAllIndex(b, -1) {
		for i := loc[0]; i < loc[1]; i++ {
			b[i] = ' '
		}
	}
}

// skillWithReason reads a skill label's value that the taxonomy does not know whole
// as a skill and its reason: "Spot Hidden — the trapdoor is under a rug", "Listen
// (faint footsteps)". The reason must neither name a roll nor leave the ruling open.
func skillWithReason(read, value string, tax *Taxonomy) (string, bool) {
	if _, known := tax.Canonical(read); known {
		return "", false
	}
	if c, ok := skillBeforeReason(strings.TrimSpace(value), tax); ok {
		return c, true
	}
	if c, ok := rolledSkillReason(value, tax); ok {
		if _, known := tax.Canonical(c); known {
			return c, true
		}
	}
	return "", false
}

// tickedBox is a markdown task-list item ticked (group 1 its words).
var tickedBox = regexp.MustCompile(`(?m)^[ \t]*(?:[-*+][ \t]+)?\[[xX✓✔]\][ \t]*([^\n]*)$`)

// tickedDecision reads a task list whose one ticked item is a decision word alone,
// "- [x] Roll\n- [ ] No roll": the ruling the box chooses. Two ticked items, or an
// item that is more than a decision word, are not read here.
func tickedDecision(body string) (Decision, int, int) {
	if !strings.Contains(body, "]") {
		return "", -1, -1
	}
	ms := tickedBox.FindAllStringSubmatchIndex(body, 3)
	if len(ms) != 1 || !uncheckedBox.MatchString(body) {
		return "", -1, -1
	}
	w := strings.Trim(normWords(body[ms[0][2]:ms[0][3]]), " *_`\"'.!")
	switch {
	case rollWords[w]:
		return DecisionRoll, ms[0][0], ms[0][1]
	case passWords[w]:
		return DecisionPass, ms[0][0], ms[0][1]
	}
	return "", -1, -1
}

// interjection is a sentence of its own between a question the reply asks itself and
// its answer, saying nothing of the ruling: "Come on.", "Seriously.", "I mean,
// really."
var interjection = regexp.MustCompile(`^\s*(?:(?:oh|ah|i\s+mean|look|well)[,\s]+)?(?:come\s+on|c['’]mon|seriously|honestly|really|please|i\s+mean|look|think\s+about\s+it|let['’]s\s+be\s+real|be\s+serious)(?:[,\s]+(?:now|really|though|folks|guys))?\s*[.!…,]*\s*$`)

// settledUnless is an "unless" condition that the reply at once settles as false: "No
// roll unless someone's watching, and nobody is", "Stealth roll unless the guard's
// asleep — and he isn't". "X unless C" with C false is X, so the condition and its
// settling take nothing from the ruling. Only "unless": "X if C" with C false is not X.
var settledUnless = regexp.MustCompile(`(?i)\bunless\s+[^,.;:!?\n]{2,80}?\s*(?:,|\s[—–-]+)?\s+(?:and|but|which)\s+(?:(?:nobody|no\s*one|nothing|none|no\s+[a-z]+)\s+(?:is|are|was|were|does|did|has|have|can|will)\b|(?:it|he|she|they|there|that|this|[a-z]+)\s*(?:['’]s\s+not|['’]re\s+not|isn['’]t|aren['’]t|wasn['’]t|weren['’]t|doesn['’]t|don['’]t|didn['’]t|hasn['’]t|haven['’]t|can['’]t|won['’]t|is\s+not|are\s+not|does\s+not|do\s+not)\b)`)

// skillCorrection is a skill corrected in passing, its new name in group 1: "Fighting
// roll — sorry, I mean Dodge", "Spot Hidden, or rather Listen", "make that Climb".
var skillCorrection = regexp.MustCompile(`(?i)(?:^|[\s,.;:!—–-])(?:(?:sorry|oops|sorry\s+no|er+|um+)[,\s]+)?(?:i\s+mean|i\s+meant|or\s+rather|make\s+that)[,:\s]+(?:an?\s+)?([A-Z][A-Za-z]*(?:\s+[A-Z][A-Za-z]*){0,2})(?:\s+(?:roll|check))?\s*(?:[.!;:,]|$)`)

// correctedSkill is the skill a roll's reply corrects its first one to, when it names
// a skill of the taxonomy other than skill; "" otherwise.
func correctedSkill(orig, skill string, tax *Taxonomy) string {
	if !strings.Contains(orig, " mean") && !strings.Contains(orig, "rather") && !strings.Contains(orig, "make that") && !strings.Contains(orig, "Make that") {
		return ""
	}
	ms := skillCorrection.FindAllStringSubmatch(orig, -1)
	if len(ms) != 1 {
		return ""
	}
	c, known := tax.Canonical(ms[0][1])
	if !known || c == skill {
		return ""
	}
	return c
}

// questionAux is the auxiliary "do" that opens a yes-or-no question before its subject:
// "do you need a roll", "did she need to roll".
var questionAux = regexp.MustCompile(`^\s*(?:do|does|did)\s+(?:you|he|she|they|we|i|it|this|that|the\s+[a-z]+)\s`)

// declarative is a question clause with its opening auxiliary "do" blanked, the
// statement it asks about ("do you need a roll" → "you need a roll"), of the same
// length; the clause itself when it opens on none.
func declarative(clause string) string {
	loc := questionAux.FindStringIndex(clause)
	if loc == nil {
		return clause
	}
	i := strings.IndexAny(clause[loc[0]:], "dD") + loc[0]
	j := i + strings.IndexByte(clause[i:], ' ')
	return clause[:i] + strings.Repeat(" ", j-i) + clause[j:]
}

// speakerFrame is an "if" clause on the speaker being asked, not on the world: "if you
// ask me", "if you're asking me", "if it were up to me", "if it's my call", "if you
// want my take". It frames the ruling as the speaker's and leaves it firm. It must end
// its clause: "if you ask me twice" is a condition.
var speakerFrame = regexp.MustCompile(`(?i)\bif\s+(?:you\s+ask\s+me|you['’]re\s+asking\s+me|you\s+are\s+asking\s+me|it\s+(?:were|was|is|['’]s)\s+up\s+to\s+me|it\s+(?:were|was|is|['’]s)\s+my\s+call|you\s+want\s+my\s+(?:take|opinion|view|two\s+cents|honest\s+opinion))(?:\s*[,:]|\s*[.!;)—–]|\s+-|\s*$)`)

// concededMore are more words that grant the other ruling before a but overrules it:
// the player's or a habit's wish ("to want dice", "I keep wanting to ask for a roll",
// "you're asking for a roll"), understanding it ("I get why"), a gut or first instinct,
// "could go either way". Not the speaker's own "I want a Climb roll", which rules.
var concededMore = regexp.MustCompile(`\b(?:(?:to|keep|kept)\s+want(?:ing)?|wanting|(?:you|they|the\s+players?|players|he|she)\s+(?:want|wants|wanted|asked\s+for|ask\s+for|are\s+asking\s+for|['’]re\s+asking\s+for|is\s+asking\s+for|['’]s\s+asking\s+for)|not\s+unreasonable|i\s+(?:get|see|understand)\s+why|out\s+of\s+habit|(?:could|can)\s+go\s+either\s+way|my\s+gut|first\s+instinct|hesitant)\b`)

// leanPhrases are open phrases that only lean or doubt in passing, which a but and a
// firm ruling after overrule: "I'd lean toward a roll in most games, but here … No
// roll."
var leanPhrases = regexp.MustCompile(`^(?:i['’]d\s+lean|i\s+would\s+lean|i\s+lean|leaning|my\s+gut|hard\s+to\s+say|could\s+go\s+either\s+way|tempted|i['’]m\s+tempted)`)

// firmLast is a reply's last sentence that is a bare ruling: "No roll.", "Automatic.",
// "Swim it is.", "Roll Climb."
var firmLast = regexp.MustCompile(`(?:^|[.!:]\s+)(?:no\s+roll(?:\s+(?:needed|required|necessary))?|no\s+dice|automatic(?:\s+success)?|auto\s+success|(?:roll\s+)?[a-z]+(?:\s+[a-z]+)?\s+roll|roll\s+[a-z]+(?:\s+[a-z]+)?|[a-z]+(?:\s+[a-z]+)?\s+it\s+is)\s*[.!]?\s*$`)

// leanOverruled says whether the open phrase that opens rest only leans, a but follows
// it in its own sentence, no other open phrase follows, and the reply ends on a bare
// ruling.
func leanOverruled(rest, phrase string, lex *Lexicon) bool {
	if !leanPhrases.MatchString(rest) {
		return false
	}
	end := strings.IndexAny(rest, ".!?")
	if end < 0 {
		return false
	}
	but := strings.Index(rest[:end], " but ")
	if but < 0 {
		return false
	}
	after := rest[but:]
	return !lex.openIdx.has(after) && !strings.Contains(after, "?") && firmLast.MatchString(strings.TrimSpace(after))
}

// tagQuestion is a positive tag after a negative statement, asking only for agreement:
// "We don't need a Jump roll for that, do we?", "No need for dice, is there?". The
// statement before it is the reply's. A negative tag ("…, isn't it?") after a ruling
// may ask in earnest and is left a question. Group 1 is the question mark or stop.
var tagQuestion = regexp.MustCompile(`(?i),\s*(?:do|does|is|are|was|will|would|can|should|have|has)\s+(?:we|you|i|it|there|they|he|she|that)\s*([?.])`)

// negatedStatement is a statement holding a negation, before a tag question.
var negatedStatement = regexp.MustCompile(`\b(?:not|no|never|nothing|nobody|none)\b|n['’]t\b`)
