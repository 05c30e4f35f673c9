package seduce

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
)

// English rulings the ninth round of issue 29 reads, each as a family rather than a
// phrasing (area B: stated rulings the parser abstained on).
//
//   - A question the reply answers itself is that answer, whatever stands before the
//     answer's yes or no: a stance word ("Honestly, no.", "Frankly? Yes."), an opinion
//     frame ("I'd say no", "I mean, no"), an answer's label ("**A:** No.", "Answer:
//     yes"). The question may be asked with an inverted modal ("Should she need to
//     roll?", "Would he have to roll Swim?"), which is no condition on the world, or be
//     a roll named alone with what it is for ("Roll to see if the train's on time?",
//     "a roll to open a door?", "Dice for this?").
//   - A game master's request in the table's idiom is a request: "throw me", "toss
//     me", "chuck me", "hit me with", "sling me" a roll are "give me" one; "landing
//     on", "settling on", "coming down on the side of", "plumping for" a roll are
//     "going with" it. The idioms are folded to the words the grammar reads, at the
//     same length, so every rule that reads "give me" or "go with" reads them.
//   - A roll reported by its result: "Your Spot Hidden came up 14", "his Stealth comes
//     in at 03", "Track came out at 41".
//   - A name said to a player after a ruling ("Still a Climb roll, Dave.") is no part
//     of the ruling: a capitalised word alone after a comma, ending the sentence, that
//     names no skill, is blanked.
//   - A task list whose boxes are all unticked and whose items each name a part of the
//     action and its ruling ("- [ ] Search the shed: Spot Hidden") is a checklist, not
//     options left unchosen: its items rule (see taskOptions).

// requestIdioms maps a game master's idioms to the words the grammar reads for them,
// each pair of the same length so that offsets hold.
var requestIdioms = [][2]string{
	{"throw me ", "give  me "},
	{"toss me ", "give me "},
	{"chuck me ", "give  me "},
	{"sling me ", "give  me "},
	{"hit me with ", "give me     "},
	{"hit us with ", "give us     "},
	{"throw us ", "give  us "},
	{"toss us ", "give us "},
	{"landing on ", "going with "},
	{"settling on ", "going with  "},
	{"coming down on the side of ", "going with                 "},
	{"come down on the side of ", "go with                  "},
	{"plumping for ", "going with   "},
	{"plump for ", "go with   "},
	{"let me get ", "give me    "},
	{"have to go with ", "        go with "},
	{"has to go with ", "       go with "},
	{"have to call for ", "        call for "},
	{"has to call for ", "       call for "},
	{"have to ask for ", "        ask for "},
	{"so yes, ", "        "},
	{"and yes, ", "         "},
	{"nope, still ", "      still "},
	{"no, still ", "    still "},
	{"sorry, still ", "       still "},
	{"we need to bother with ", "we need                "},
	{"you need to bother with ", "you need                "},
	{"they need to bother with ", "they need                "},
	{"i need to bother with ", "i need                "},
	{"she needs to bother with ", "she needs                "},
	{"he needs to bother with ", "he needs                "},
	{"let me have ", "give me     "},
}

// idiomGates are words one of which every idiom of requestIdioms holds.
var idiomGates = [...]string{"me ", "us ", "ing on ", "side of ", "plump", "to go with ", "to call for ", "to ask for ", "to bother with ", ", still ", "yes, "}

// foldRequestIdioms rewrites the idioms of requestIdioms in lowercased s where each
// opens a word.
func foldRequestIdioms(s string) string {
	// Each idiom holds one of idiomGates: a text is searched for each idiom only when
	// it holds that idiom's gate, a few passes instead of one for every idiom.
	var present [len(idiomGates)]bool
	anyGate := false
	for k, g := range idiomGates {
		present[k] = strings.Contains(s, g)
		anyGate = anyGate || present[k]
	}
	if !anyGate {
		return s
	}
	var b []byte
	for _, p := range requestIdioms {
		gated := false
		for k, g := range idiomGates {
			if present[k] && strings.Contains(p[0], g) {
				gated = true
				break
			}
		}
		if !gated {
			continue
		}
		for from := 0; ; {
			i := strings.Index(s[from:], p[0])
			if i < 0 {
				break
			}
			i += from
			from = i + len(p[0])
			if i > 0 && isLetter(s[i-1]) {
				continue
			}
			if b == nil {
				b = []byte(s)
			}
			copy(b[i:], p[1])
		}
		if b != nil {
			s = string(b)
			b = nil
		}
	}
	return s
}

// answerLeads are words that may stand before an answer's yes or no without changing
// it: stance adverbs, opinion frames, fillers.
var answerLeads = []string{"honestly", "frankly", "truthfully", "really", "seriously",
	"realistically", "in this case", "here", "for this", "for that", "i mean", "i'd say",
	"i would say", "i think", "i reckon", "i'm going to say", "i'll say", "i'm gonna say",
	"short answer", "simple answer", "in short", "lol", "haha", "look",
	"to be honest", "tbh", "to be fair", "no offence", "sorry", "i'm afraid"}

// trimAnswerLead strips answerLeads (each followed by a comma or a space) from the
// start of an answer, as often as they stand there. A rhetorical "why would you?" is
// the answer no.
func trimAnswerLead(answer string) string {
	if rhetoricalNo(answer) {
		return "no"
	}
	for {
		s := strings.TrimLeft(answer, " \t\n,")
		cut := false
		for _, w := range answerLeads {
			if rest, ok := strings.CutPrefix(s, w); ok && rest != "" && (rest[0] == ' ' || rest[0] == ',' || w[len(w)-1] == ',') {
				answer, cut = rest, true
				break
			}
		}
		if !cut {
			return s
		}
	}
}

// answerLabels are labels that open an answer: "**A:** No.", "Answer: yes".
var answerLabels = map[string]bool{"a": true, "answer": true, "my answer": true,
	"short answer": true, "the answer": true, "keeper": true, "gm": true, "ans": true}

// answerLabel says whether a clause is only an answer's label, its colon cut off.
func answerLabel(clause, sep string) bool {
	return strings.Contains(sep, ":") && answerLabels[strings.TrimSpace(clause)]
}

// interrogative blanks the modal that opens a question ("should she need to roll",
// "would he have to roll Swim"): asked, it is no condition on the world.
func interrogative(clause string) string {
	s := strings.TrimLeft(clause, " \t\n")
	for _, m := range []string{"should ", "would ", "will ", "shall ", "must "} {
		if strings.HasPrefix(s, m) {
			i := len(clause) - len(s)
			return clause[:i] + blankOut(m) + clause[i+len(m):]
		}
	}
	return clause
}

// rollNouns are the words a question that names a roll alone asks about.
var rollNouns = map[string]bool{"roll": true, "rolls": true, "check": true, "test": true, "dice": true, "rolling": true}

// rollPurpose are the words that may follow a roll named alone in a question: what it
// is for.
var rollPurpose = map[string]bool{"to": true, "for": true, "on": true, "here": true, "now": true,
	"again": true, "just": true, "against": true, "with": true, "at": true, "over": true, "in": true}

// askedRoll reads a question that names a roll alone, with what it is for after the
// last comma: "roll to see if the train's on time", "you want, a roll to open a door",
// "a Jump roll for a kerb", "dice for this". It gives the roll cue the question asks
// about, with the skill named before the roll word.
func askedRoll(clause, orig string, at int, tax *Taxonomy) (cue, bool) {
	from := strings.LastIndexByte(clause, ',') + 1
	words := strings.Fields(clause[from:])
	k := 0
	for k < len(words) && (words[k] == "so" || words[k] == "just" || words[k] == "really" || words[k] == "an" || words[k] == "a" || words[k] == "any" || words[k] == "another" || words[k] == "actual") {
		k++
	}
	n := k
	for n < len(words) && n <= k+3 && !rollNouns[words[n]] {
		n++
	}
	if n >= len(words) || n > k+3 || !rollNouns[words[n]] || n+1 < len(words) && !rollPurpose[words[n+1]] {
		return cue{}, false
	}
	skill := ""
	if n > k && asker(words[k:n]) && words[n] == "roll" {
		// "should they roll", "do I roll": the roll asked of someone, no skill named
		return cue{decision: DecisionRoll, from: at, to: at + len(clause)}, true
	}
	if n > k {
		// The words between the article and the roll must name a skill: "a Jump roll",
		// not "a hard roll" nor "the usual roll".
		name := strings.Join(strings.Fields(orig[from:])[k:n], " ")
		s, ok := tax.Canonical(name)
		if !ok {
			return cue{}, false
		}
		skill = s
	}
	return cue{decision: DecisionRoll, skill: skill, from: at, to: at + len(clause)}, true
}

// rollRules9 are this round's roll cue rules, read after rollRules.
var rollRules9 = []cueRule{
	// "Your Spot Hidden came up 14", "his Stealth comes in at 03": a roll reported by its
	// result, the skill's name its subject.
	// "Final answer: roll (Firearms (Rifle))": a roll and its skill in parentheses, the
	// whole clause.
	newCueRule(`^\s*(?:roll|check|test)\s*\(\s*(?P<skill>[a-z][a-z'’/ -]*(?:\([a-z /'’-]+\))?)\s*\)\s*$`),
	// "Roll a d100 for me.": a roll with no skill, asked for by the dice alone, opening
	// its clause.
	newCueRule(`^\s*(?:(?:ok|okay|so|right|now|then|just|please|alright)[,]?\s+)*roll\s+(?:me\s+)?(?:an?\s+|one\s+)?(?:d100|1d100|d%|percentiles?|percentile\s+dice)\b`),
	// "that's something I'd test", "not something I'd roll for": the speaker's own
	// habit of testing, said of this action (a negation before it denies it).
	newCueRule(`\b(?:something|a\s+thing|one)\s+(?:i['’]d|i\s+would|i['’]ll|i\s+will|we['’]d)\s+(?:(?:ever|normally|usually|bother\s+to)\s+)?(?:test|roll\s+for|roll\s+on|ask\s+(?:a\s+)?roll\s+for|call\s+(?:a\s+)?roll\s+(?:for|on))\b`),
	withWords(newCueRule(`(?:\b(?:your|the|his|her|their)\s+)?(?P<skill>[a-z(][a-z0-9'’/()%-]*(?:\s+[a-z(][a-z0-9'’/()%-]*){0,2}?)\s+(?:roll\s+|check\s+)?(?:came|comes|come)\s+(?:up|in|out)(?:\s+(?:at|as|with))?\s+(?:an?\s+)?\d{1,3}(?:\s*(?:[.,!;:)—–-]|$)|\s+(?:against|vs|versus|under|over|on|for|and|so|which|that)\b)`), digits...),
}

// blankVocative blanks a name said to a player after a ruling: a capitalised word,
// alone after a comma, that ends its sentence and names no skill ("Still a Climb roll,
// Dave.", "No roll, Mia!").
func blankVocative(b []byte, tax *Taxonomy) {
	for i := 0; i+2 < len(b); i++ {
		if b[i] != ',' || b[i+1] != ' ' {
			continue
		}
		j := i + 2
		if b[j] < 'A' || b[j] > 'Z' {
			continue
		}
		k := j + 1
		for k < len(b) && b[k] >= 'a' && b[k] <= 'z' {
			k++
		}
		if k-j < 2 || k-j > 12 || k < len(b) && b[k] != '.' && b[k] != '!' && b[k] != '\n' {
			continue
		}
		word := string(b[j:k])
		if _, ok := tax.Canonical(word); ok || otherSkill(word) != "" || notSkill[strings.ToLower(word)] || vocativeNot[strings.ToLower(word)] {
			continue
		}
		copy(b[i:k], blankOut(string(b[i:k])))
	}
}

// vocativeNot are capitalised words after a comma that are no one's name.
var vocativeNot = wordSet(`automatic automatically roll rolls dice check test success pass fine
	done granted sorted easy free nope nah yes no`)

// askers are the words of a question's auxiliary and subject before a bare "roll":
// "should they roll", "do I roll", "can he just roll".
var askers = wordSet(`should would will shall must can could do does did i we you he she they
	the player investigator just still also`)

func asker(words []string) bool {
	for _, w := range words {
		if !askers[w] {
			return false
		}
	}
	return true
}

// passRules9 are this round's pass cue rules, read after passRules.
var passRules9 = []cueRule{
	// Dice idioms of no roll: "the dice stay in the cup", "leave your dice in the tray",
	// "nothing here to roll for", "there's nothing to throw them for".
	withWords(newCueRule(`\bdice\s+(?:stay|stays|remain|remains|can\s+stay|rest|sit|get\s+to\s+stay)\s+(?:(?:right|safely)\s+)?(?:in|on)\s+(?:the|your|my|their)\s+(?:cup|tower|tray|pouch|bag|box|pocket|pockets|drawer|tin|case|sack|table)\b|\b(?:keep|leave)\s+(?:the|your|those)\s+dice\s+(?:in|on)\s+(?:the|your)\s+(?:cup|tower|tray|pouch|drawer|tin|case|sack|table)\b|\bnothing\s+(?:here\s+|there\s+|in\s+(?:this|that|it)\s+)?to\s+(?:roll|throw|toss)\s+(?:for|them\s+for|the\s+dice\s+for|dice\s+for)\b`),
		"dice", "nothing"),
}

// deliberations are open phrases that tell the speaker weighed the ruling, not that it
// stays open: "I went back and forth on this, but: no roll."
var deliberations = map[string]bool{"back and forth": true, "on the fence": true, "i'm torn": true,
	"i am torn": true, "tough call": true, "hard to call": true, "borderline": true,
	"toss-up": true, "toss up": true, "judgment call": true, "judgement call": true}

// deliberationEnded says whether the deliberation phrase that opens rest is ended, in
// its own sentence, by a but and a firm ruling, with nothing open or asked after it.
func deliberationEnded(rest, phrase string, lex *Lexicon, tax *Taxonomy) bool {
	if !deliberations[phrase] {
		return false
	}
	end := len(rest)
	if i := strings.IndexAny(rest, ".!?"); i >= 0 {
		end = i
	}
	but := strings.Index(rest[:end], " but")
	if but < 0 {
		return false
	}
	after := rest[but+len(" but"):]
	if lex.openIdx.has(after) || strings.Contains(after, "?") {
		return false
	}
	sent := after
	if i := strings.IndexAny(after, ".!\n"); i >= 0 {
		sent = after[:i+1]
	}
	if firmLast.MatchString(strings.TrimSpace(sent)) || decidedAfter.MatchString(sent) {
		return true
	}
	t := proseTally(sent, tax, lex)
	return t.n > 0 && t.hasRoll != t.hasPass && !t.hedgedRoll && !t.hedgedPass && !t.conditional
}

// rhetoricalNo says whether an answer is a short question that denies: "Why would
// you?", "Why would anyone bother?", "What for?".
func rhetoricalNo(answer string) bool {
	s := strings.TrimSpace(answer)
	if len(strings.Fields(s)) > 4 {
		return false
	}
	for _, p := range []string{"why would ", "why should ", "why on earth would ", "why bother", "what for", "who would "} {
		if strings.HasPrefix(s, p) || s+" " == p {
			return true
		}
	}
	return false
}

// notRulingOpen says whether the open phrase at at in folded leaves no ruling open: it
// speaks of the action's outcome (outcomeOpen) or is meant literally ("the bottle on
// the fence post").
func notRulingOpen(folded string, at int, phrase string) bool {
	if phrase == "on the fence" {
		w := firstWord(folded[at+len(phrase):])
		if rest := strings.TrimLeft(folded[at+len(phrase):], " "); rest != "" && isLetter(rest[0]) && !fenceFollows[w] {
			return true // "on the fence post", "on the fence rail"
		}
	}
	return quotedAt(folded, at) || outcomeOpen(folded, at, phrase)
}

// quotedAt says whether at stands inside double quotes on its line: the words of
// someone quoted ("> \"I lean on the bar and listen.\""), not the reply's own hedge.
func quotedAt(s string, at int) bool {
	lo := max(0, at-400) // bounded: a reply of one long line is read in linear time
	from := lo + strings.LastIndexByte(s[lo:at], '\n') + 1
	n := strings.Count(s[from:at], "\"") + strings.Count(s[from:at], "“") - strings.Count(s[from:at], "”")
	return n%2 == 1
}

// fenceFollows are words after "on the fence" that keep it the idiom of doubt.
var fenceFollows = wordSet(`about on with here there regarding over between for i but so and this that
	it whether if as when though still myself`)

// outcomeOpens are open phrases that may speak of the action's outcome, not of the
// ruling.
var outcomeOpens = map[string]bool{"could go either way": true, "go either way": true,
	"could go both ways": true, "toss-up": true, "toss up": true, "50/50": true,
	"fifty-fifty": true, "fifty fifty": true}

// rollsAgain says whether an answer "no" goes on to name a roll itself ("No, a roll
// for the guard: Stealth"): the no swaps what the roll is for, and the answer speaks for
// itself.
func rollsAgain(answer string) bool {
	_, rest, _ := strings.Cut(answer, " ")
	for _, w := range strings.Fields(rest) {
		if rollNouns[strings.Trim(w, ".,!:;")] {
			return true
		}
	}
	return false
}

// rollsForChance are words that give an uncertain outcome as the reason to roll:
// "which is exactly why we roll", "that's what dice are for".
var rollsForChance = []string{"why we roll", "why you roll", "why she rolls", "why he rolls",
	"why they roll", "why there's a roll", "why it's a roll", "why it needs a roll",
	"what dice are for", "what the dice are for", "so roll", "so we roll", "hence the roll",
	"so it's a roll", "which means a roll", "which means dice"}

// outcomeOpen says whether the open phrase at at in folded speaks of the action's
// outcome: its subject is whether the action succeeds ("Whether she manages it could go
// either way"), with no roll in it, or the sentence gives it as the reason to roll.
func outcomeOpen(folded string, at int, phrase string) bool {
	if !outcomeOpens[phrase] {
		return false
	}
	lo, hi := max(0, at-400), min(len(folded), at+400) // bounded, as in quotedAt
	from := lo + strings.LastIndexAny(folded[lo:at], ".!?\n") + 1
	end := hi
	if i := strings.IndexAny(folded[at:hi], ".!?\n"); i >= 0 {
		end = at + i
	}
	if holdsAny(folded[at:end], rollsForChance) {
		return true
	}
	subject := strings.TrimSpace(folded[from:at])
	return strings.HasPrefix(subject, "whether ") && !holdsAny(subject, []string{"roll", "dice", "check", "test", "automatic"})
}

// diceSounds are the words of a dice sound or a roll marker in asterisks: "*clatter*",
// "*rattle rattle*", "*dice tumble*".
var diceSounds = []string{"clatter", "rattle", "clack", "clink", "tumble", "shake", "shakes", "rolls", "rolling", "dice"}

// keeperSounded reads a roll the Keeper makes for the player and gives at once: a dice
// sound in asterisks, then a result ("Listen for Bertie... *clatter* ... 63. Against
// your 45, that's a failure."), the result told to the player. The skill is the one
// named in the sentence before the sound, or none when the reply says the Keeper rolls
// for the player ("behind the screen"); a sound and a number alone tell no roll. A roll
// made for someone named by a noun ("Stealth for the cultist") is the Keeper's own.
func keeperSounded(body string, tax *Taxonomy) (skill string, at, to int) {
	for from := 0; from < len(body); {
		i := strings.IndexByte(body[from:], '*')
		if i < 0 {
			return "", -1, -1
		}
		i += from
		j := strings.IndexByte(body[i+1:min(len(body), i+32)], '*')
		if j < 0 || j > 30 {
			from = i + 1
			continue
		}
		j += i + 1
		inner := strings.ToLower(body[i+1 : j])
		from = j + 1
		if !holdsAny(inner, diceSounds) || strings.ContainsAny(inner, "0123456789") {
			continue
		}
		k := j + 1
		for k < len(body) && (strings.IndexByte(" .\t", body[k]) >= 0 || strings.HasPrefix(body[k:], "…")) {
			if strings.HasPrefix(body[k:], "…") {
				k += len("…")
				continue
			}
			k++
		}
		if strings.HasPrefix(body[k:], "a ") || strings.HasPrefix(body[k:], "an ") {
			k += strings.IndexByte(body[k:], ' ') + 1
		}
		d := k
		for d < len(body) && d-k < 4 && body[d] >= '0' && body[d] <= '9' {
			d++
		}
		if d == k || d-k > 3 || d < len(body) && isLetter(body[d]) {
			continue
		}
		tail := strings.ToLower(body[d:min(len(body), d+400)])
		if !strings.Contains(tail, "you") {
			continue // the result is not told to the player
		}
		lo := max(0, i-100)
		window := body[lo:i]
		if s := lastSentenceStart(window); s > 0 {
			window = window[s:]
		}
		lw := strings.ToLower(window)
		if holdsAny(lw, []string{" for the ", " for his ", " for her ", " for their ", " for a ", " for an "}) {
			continue
		}
		skill := firstSkill(window, tax, false)
		if skill == "" && !holdsAny(strings.ToLower(body[max(0, i-400):i]), keeperRolls) {
			continue // a sound and a number, and no word of whose roll it is
		}
		return skill, lo + len(body[lo:i]) - len(window), d
	}
	return "", -1, -1
}

// keeperRolls are words of the Keeper rolling for the player.
var keeperRolls = []string{"behind the screen", "for you", "i'll roll", "i'll make this", "i will roll", "let me roll", "rolling for you", "in secret", "secretly"}

// lastSentenceStart is where the last sentence of s starts: after the last full stop,
// exclamation or question mark that is no part of an ellipsis, or a line break.
func lastSentenceStart(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case '\n', '!', '?':
			return i + 1
		case '.':
			if (i == 0 || s[i-1] != '.') && (i+1 >= len(s) || s[i+1] != '.') {
				return i + 1
			}
		}
	}
	return 0
}

// taskOptions says whether the task list of b offers options to choose from: a box is
// ticked, or an unticked item is no part of the action with its ruling ("- [ ] Roll"
// rather than "- [ ] Cross the yard: no roll"). A list of parts with nothing ticked is
// a checklist of the action, each item ruling on its part.
func taskOptions(b []byte) bool {
	s := string(b)
	if strings.Contains(s, "[x]") || strings.Contains(s, "[X]") || strings.Contains(s, "[✓]") || strings.Contains(s, "[✔]") {
		return true
	}
	for _, line := range strings.Split(s, "\n") {
		_, item, ok := strings.Cut(line, "[ ]")
		if !ok {
			continue
		}
		part, _, ok := strings.Cut(item, ":")
		if !ok {
			part, _, ok = strings.Cut(item, " — ")
		}
		if !ok || len(strings.Fields(part)) < 2 {
			return true
		}
	}
	return false
}

// boldLeadSkill is the skill a line opens with in bold ("**Mechanical Repiar**: the
// winch gears are stripped", "**Perception**, just roll it"): the taxonomy's when it
// knows the name or its one misspelling, the name as written when it is another CoC
// skill; "" when no line opens so.
func boldLeadSkill(body string, tax *Taxonomy) string {
	for _, line := range strings.Split(body[:min(len(body), 2000)], "\n") {
		var name string
		if h, ok := strings.CutPrefix(strings.TrimLeft(line, " \t"), "#"); ok {
			// "### 🐾 Tracking": a header that is a skill's name alone
			name = strings.TrimFunc(h, func(r rune) bool { return !unicode.IsLetter(r) && r != ')' })
		} else {
			s := strings.TrimLeft(line, " \t>")
			for _, marker := range []string{"- ", "* ", "+ ", "• "} {
				s = strings.TrimLeft(strings.TrimPrefix(s, marker), " \t")
			}
			rest, ok := strings.CutPrefix(s, "**")
			if !ok {
				continue
			}
			end := strings.Index(rest, "**")
			if end <= 0 || end > 40 {
				continue
			}
			name = strings.Trim(rest[:end], " :")
			if after := strings.TrimLeft(rest[end+2:], " "); after != "" && !hasAnyPrefix(after, ":", ",", "—", "–", "-") {
				continue
			}
		}
		if n := len(strings.Fields(name)); n == 0 || n > 3 || !capitalised(name) {
			continue
		}
		if c, ok := tax.Canonical(name); ok {
			return c
		}
		if otherSkillKey(name) != "" {
			return name
		}
		if c, ok := misspelt(name, tax); ok {
			return c
		}
	}
	return ""
}

// keptBeforeCut reads a reply cut off after a complete ruling ("Yes, this one needs a
// Track roll. … and if she fails, the—"): the sentence cut off holds no ruling's word, no
// contrast and no condition other than the roll's outcome, and what stands before it
// rules. README-set3: a truncation after a complete ruling keeps the ruling.
func keptBeforeCut(body string, tax *Taxonomy, lex *Lexicon) (Parsed, bool) {
	start := lastSentenceStart(strings.TrimRight(body, " \t\r\n—–-"))
	if start <= 0 || strings.TrimSpace(body[:start]) == "" {
		return Parsed{}, false
	}
	cut := foldLower(body[start:])
	if lex.headIdx.has(cut) || lex.openIdx.has(cut) || lex.correctionIdx.has(cut) || holdsAny(" "+cut+" ", cutTurns) {
		return Parsed{}, false
	}
	if strings.Contains(" "+cut, " if ") && !outcomeIf(cut) {
		return Parsed{}, false
	}
	p := parseReplyOnce(body[:start], tax, lex)
	if p.Decision != DecisionRoll && p.Decision != DecisionPass {
		return Parsed{}, false
	}
	return p, true
}

// cutTurns are words that may turn a ruling in the sentence a reply is cut off in.
var cutTurns = []string{" but ", " unless ", " however", " though", " although", " otherwise",
	" except", " instead", " actually", " wait", " or ", " maybe", " perhaps", " unl", " rather",
	" on second", " then again", " correction", " scratch", " tho", " not sure", " probably",
	" i think", " hmm", " unsure", " depends", " if the", " if it", " if there"}

// outcomeIf says whether every "if" of s puts the roll's outcome ("if she fails").
func outcomeIf(s string) bool {
	for _, part := range strings.Split(" "+s, " if ")[1:] {
		f := strings.Fields(part)
		if len(f) < 2 || !outcomeVerbs[strings.Trim(f[1], ",.")] {
			return false
		}
	}
	return true
}

// outcomeVerbs are the verbs of a roll's outcome.
var outcomeVerbs = wordSet(`fails fail succeeds succeed fumbles fumble misses miss passes pass botches botch blows`)

// hasAnyPrefix says whether s starts with one of prefixes.
func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// capitalMisspelt is the one skill a capitalised name in mid-sentence misspells ("Let's
// have them roll their Libary Use"), or "": read only for a roll that named no skill
// the taxonomy knows. Like capitalAlias it reads no word that opens a sentence.
func capitalMisspelt(text string, tax *Taxonomy) string {
	text = text[:min(len(text), 400)]
	locs := skillWord.FindAllStringIndex(text, -1)
	for i, loc := range locs {
		if c := text[loc[0]]; c < 'A' || c > 'Z' || i == 0 || strings.ContainsAny(text[locs[i-1][1]:loc[0]], ".!?\n") {
			continue
		}
		for n := min(2, len(locs)-i); n > 0; n-- {
			end := locs[i+n-1][1]
			name := text[loc[0]:end]
			if !capitalised(name) || strings.ContainsAny(name, ",;:") {
				continue
			}
			if _, ok := tax.Canonical(name); ok || otherSkillKey(name) != "" {
				break
			}
			if c, ok := misspelt(name, tax); ok {
				return c
			}
		}
	}
	return ""
}

// skillItem says whether the list item that opens b names a skill first, with no roll
// word after it ("- **Climb** — the loft has a ladder"): a list of skills, each with what is said of it, which may
// be skills called for or set aside; its bullet is kept, so that no skill's name alone
// is read as a ruling.
func skillItem(b []byte, tax *Taxonomy) bool {
	end := len(b)
	if k := strings.IndexByte(string(b[:min(len(b), 200)]), '\n'); k >= 0 {
		end = k
	}
	line := strings.TrimLeft(string(b[min(2, end):end]), " *_")
	words := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '*' || r == '_' })
	for n := min(3, len(words)); n > 0; n-- {
		name := strings.Trim(strings.Join(words[:n], " "), ":,.—–")
		if _, ok := tax.Canonical(name); ok && capitalised(name) {
			// "- Throw roll" calls for it: a roll word after the name is a ruling
			return n == len(words) || !rollNouns[strings.ToLower(strings.Trim(words[n], ".,!:"))]
		}
	}
	return false
}

// arrows are pointers a list writes before its ruling ("- **→ Throw roll**"): no words.
var arrows = []string{"→", "⇒", "⟶", "➔", "➜", "➡"}

// blankEnglish9 blanks, in a reply's prose, a name said to a player after a ruling
// (blankVocative), arrows, and the bullets that open list items ("- Throw roll"): a
// list item is read as a clause of its own, like a line.
func blankEnglish9(b []byte, tax *Taxonomy) {
	blankVocative(b, tax)
	for i := 0; i+1 < len(b); i++ {
		if i > 0 && b[i-1] != '\n' || b[i] != '-' && b[i] != '+' && b[i] != 0xE2 || skillItem(b[i:], tax) {
			continue
		}
		if (b[i] == '-' || b[i] == '+') && b[i+1] == ' ' {
			b[i] = ' '
		} else if strings.HasPrefix(string(b[i:min(len(b), i+4)]), "• ") {
			copy(b[i:], "   ")
		}
	}
	for _, a := range arrows {
		for from := 0; ; {
			i := bytes.Index(b[from:], []byte(a))
			if i < 0 {
				break
			}
			copy(b[from+i:], blankOut(a))
			from += i + len(a)
		}
	}
}

// callsForOne are the speaker's own calls for "one", a roll named just before: "I
// wouldn't say no to a Library Use roll; in fact, I'm calling for one."
var callsForOne = []string{"i'm calling for one", "i am calling for one", "i'm asking for one",
	"i am asking for one", "i'll call for one", "i will call for one", "i'll ask for one",
	"i will ask for one", "i'm requesting one", "i'm going to ask for one", "i'm going to call for one",
	"i’m calling for one", "i’m asking for one", "i’ll call for one", "i’ll ask for one"}

// calledForOne reads a call for "one" whose antecedent is a roll named in the 200 bytes
// before it: the roll, with the skill named there. folded is body lowercased at the
// same offsets (asciiLower).
func calledForOne(body string, tax *Taxonomy) (skill string, at, to int) {
	if !strings.Contains(body, "for one") && !strings.Contains(body, "requesting one") {
		return "", -1, -1 // every phrase holds one of these
	}
	folded := asciiLower(body)
	at, phrase := anyPhrase(folded, callsForOne)
	if at < 0 {
		return "", -1, -1
	}
	window := folded[max(0, at-200):at]
	if !holdsAny(window, []string{" roll", " check", " test"}) {
		return "", -1, -1
	}
	return firstSkill(body[max(0, at-200):at], tax, true), at, min(len(body), at+len(phrase))
}

// notEveryOne reads a rule of thumb that not every action needs a roll, and the reply
// saying this is one of them: "Not every action needs a check, and this is one of
// them." at is -1 when there is none.
func notEveryOne(folded string) (at, to int) {
	at, _ = anyPhrase(folded, []string{"not every", "not all"})
	if at < 0 {
		return -1, -1
	}
	end := min(len(folded), at+200)
	if !holdsAny(folded[at:end], []string{" roll", " check", " dice", " test"}) {
		return -1, -1
	}
	k, phrase := anyPhrase(folded[at:end], []string{"this is one of them", "this is one of those", "this one is one of them", "this is one of those times", "this is one of those cases"})
	if k < 0 {
		return -1, -1
	}
	to = at + k + len(phrase)
	if rest := strings.TrimLeft(folded[to:], " "); rest != "" && !strings.ContainsAny(rest[:1], ".!;\n") {
		return -1, -1 // "this is one of those that does": the phrase must end its sentence
	}
	return at, to
}

// proseUnderHeader says whether the line under a ruling's header is a sentence of its
// own ("### Keeper ruling\n\nNobody gets over this gorge unless they roll Jump."):
// more than six words, read as prose after a heading, not as the header's value.
func proseUnderHeader(value string) bool {
	return len(strings.Fields(value)) > 6
}

// lowerRolls are CoC rolls outside the taxonomy that a casual reply writes in lower
// case after "roll": "roll luck lol", "ok roll sanity".
var lowerRolls = []string{"luck", "sanity", "idea"}

// lowerRollOther reads a sentence that opens with "roll" and one of lowerRolls, in a
// reply that rules nothing else: the roll, with the name as written. at is -1 when
// there is none.
func lowerRollOther(body string) (skill string, at, to int) {
	folded := asciiLower(body[:min(len(body), 400)])
	for from := 0; from < len(folded); {
		i := strings.Index(folded[from:], "roll ")
		if i < 0 {
			return "", -1, -1
		}
		i += from
		from = i + len("roll ")
		if lead := strings.TrimRight(folded[:i], " "); lead != "" && !strings.ContainsAny(lead[len(lead)-1:], ".!:\n") && !strings.HasSuffix(lead, "ok") && !strings.HasSuffix(lead, "okay") {
			continue // "roll" opens a sentence, or follows "ok"
		}
		w := firstWord(folded[from:])
		if !slices.Contains(lowerRolls, w) || !strings.HasPrefix(folded[from:], w) {
			continue
		}
		return body[from : from+len(w)], i, from + len(w)
	}
	return "", -1, -1
}
