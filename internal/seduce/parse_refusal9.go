package seduce

import "strings"

// Refusals read as a small grammar (the ninth round of issue 29). A reply that rules
// nothing declines to adjudicate when it hands the ruling to someone else ("ask your
// Keeper", "this is a decision for the humans at your table", "das ist Sache eurer
// Spielleitung"): a frame of the lexicon's defer list with one of its deferees in the
// frame's place. The first-person declines ("I don't think I should be ruling on this")
// are the decline, unable and task lists read by Lexicon.declines; this file adds the
// deferral, a few fixed refusals in scripts the lexicons do not hold, and the gate that
// keeps a refusal that offers a ruling unsure ("I'd rather not say outright, but I'd
// lean toward a roll") from being read as a refusal.

// refusesByDeferral says whether folded (a reply that rules nothing, lowercased) declines
// by handing the ruling over, in its first or last 400 bytes (where a reply declines),
// or in a fixed refusal of another script.
func refusesByDeferral(folded string, lex *Lexicon) bool {
	if len(folded) <= 800 {
		return lex.defers(folded) || otherScriptRefusal(folded)
	}
	return lex.defers(folded[:400]) || lex.defers(folded[len(folded)-400:])
}

// defers says whether folded hands the ruling to someone else in a frame of the defer
// list with a deferee in its place ("ask {}" + "your keeper"). Not in a question ("did
// you ask your Keeper?"), after a negation in the frame's clause ("no need to ask the
// Keeper"), in a sentence that asks for more first ("ask your Keeper how deep the
// water is"), nor in a reply that says the ruling depends on something.
func (l *Lexicon) defers(folded string) bool {
	if len(l.deferTo) == 0 || holdsAny(folded, l.depend) {
		return false
	}
	folded = strings.ReplaceAll(folded, "’", "'")
	return l.eachDeferral(folded, func(at, end int, post string) bool { return l.deferFits(folded, at, end, post) })
}

// defersQuestion says whether folded hands over the question of the ruling itself:
// "ask your Keeper whether a roll is needed", "demande à ton gardien s'il faut un jet".
// The whether is no condition left open on the world, and the reply is refused.
func (l *Lexicon) defersQuestion(folded string) bool {
	if len(l.deferTo) == 0 || holdsAny(folded, l.depend) {
		return false
	}
	folded = strings.ReplaceAll(folded, "’", "'")
	return l.eachDeferral(folded, func(at, end int, post string) bool {
		next := strings.TrimLeft(folded[end:], " ,")
		if post != "" || !hasPhrase(firstWordsOf(next, 1), l.whether) {
			return false
		}
		return l.deferFits(folded, at, end, post)
	})
}

// firstWordsOf is the first n words of s.
func firstWordsOf(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// eachDeferral calls fits for each frame of the defer list found in folded with a
// deferee in its place, with where the frame starts, where its deferee ends and the
// frame's rest after it, until fits says yes. It looks for the deferees first, in one
// pass over the words, and then at the frames around each.
func (l *Lexicon) eachDeferral(folded string, fits func(at, end int, post string) bool) bool {
	for from := 0; from < len(folded); {
		i, _ := l.defereeIdx.first(folded[from:])
		if i < 0 {
			return false
		}
		pos := from + i
		if who := l.defereeAt(folded, pos); who != "" {
			head := strings.TrimRight(folded[:pos], " ")
			for _, frame := range l.deferTo {
				pre, post, ok := strings.Cut(frame, "{}")
				if !ok {
					continue
				}
				pre, post = strings.TrimSpace(pre), strings.TrimRight(post, " ")
				at := pos
				if pre != "" {
					if !strings.HasSuffix(head, pre) {
						continue
					}
					at = len(head) - len(pre)
					if at > 0 && isLetter(pre[0]) && isLetter(folded[at-1]) {
						continue
					}
				}
				if fits(at, pos+len(who), post) {
					return true
				}
			}
		}
		from = pos + 1
		for from < len(folded) && isLetter(folded[from]) {
			from++ // past the rest of the word
		}
	}
	return false
}

// defereeAt is the longest deferee that stands at folded[from:] as whole words, or "".
func (l *Lexicon) defereeAt(folded string, from int) string {
	best := ""
	for _, who := range l.deferee {
		if len(who) > len(best) && strings.HasPrefix(folded[from:], who) {
			end := from + len(who)
			if end == len(folded) || !isLetter(who[len(who)-1]) || !isLetter(folded[end]) {
				best = who
			}
		}
	}
	return best
}

// deferFits says whether a frame found at folded[at:] whose deferee ends at end goes on
// with the frame's rest, post, and stands where a deferral counts: see defers.
func (l *Lexicon) deferFits(folded string, at, end int, post string) bool {
	if post != "" {
		rest := folded[end:]
		if !strings.HasPrefix(post, "'") {
			rest = strings.TrimLeft(rest, " ")
			post = strings.TrimLeft(post, " ")
		}
		if !strings.HasPrefix(rest, post) || len(rest) > len(post) && isLetter(post[len(post)-1]) && isLetter(rest[len(post)]) {
			return false
		}
		end = len(folded) - len(rest) + len(post)
	}
	if next, _, _ := strings.Cut(strings.TrimLeft(folded[end:], " "), " "); next == "of" || post == "" && strings.HasPrefix(folded[end:], "'s") {
		return false // "the keeper of the inn", "ask the keeper's daughter": someone in the scene
	}
	start, stop := sentenceAround(folded, at, end)
	if stop < len(folded) && folded[stop] == '?' || hasPhrase(folded[start:stop], l.stall) {
		return false
	}
	if w, rest, _ := strings.Cut(strings.TrimLeft(folded[end:stop], " ,:"), " "); askWhat[w] && !(w == "about" && aboutThis[firstWord(rest)]) {
		return false // "ask your Keeper how deep the water is": asking for more
	}
	before := folded[max(start, clauseStart(folded, at)):at]
	if f := strings.Fields(before); len(f) > 0 && narrator[f[len(f)-1]] && (len(f) == 1 || !wishFor[f[len(f)-2]]) {
		return false // "You ask someone else in the bar": the action told, not a deferral
	}
	return !hasPhrase(before, l.negation) && !hasPhrase(before, deferNegation)
}

// askWhat are the words that open a question put to the deferee about the scene.
var askWhat = map[string]bool{"how": true, "what": true, "where": true, "when": true, "who": true, "which": true, "about": true}

// aboutThis are the matter itself after "ask … about": "ask a human about this" hands
// the ruling over.
var aboutThis = map[string]bool{"this": true, "that": true, "it": true}

// narrator are the subjects of an action told: a frame right after one is no deferral.
var narrator = map[string]bool{"you": true, "he": true, "she": true, "they": true, "we": true, "i": true}

// wishFor are the words before a subject that make its action wished, not told: "I'd
// rather you ask a human".
var wishFor = map[string]bool{"rather": true, "suggest": true, "recommend": true, "prefer": true, "want": true}

// deferNegation are the English words that, before a deferral in its clause, deny it.
var deferNegation = []string{"not", "no", "never", "don't", "doesn't", "needn't", "won't", "no need to", "without"}

// otherScriptRefusal says whether folded holds one of a few fixed refusals of the
// scripts the lexicons do not hold (Japanese, Chinese, Korean, Russian), matched as
// plain text since those scripts set no spaces between words.
func otherScriptRefusal(folded string) bool {
	for _, p := range otherScriptRefusals {
		if strings.Contains(folded, p) {
			return true
		}
	}
	return false
}

// otherScriptRefusals are refusals to help or to answer and deferrals to the Keeper,
// whole phrases only, lowercased as foldLower leaves them.
var otherScriptRefusals = []string{
	"お手伝いすることはできません", "お手伝いできません", "お答えすることはできません", "お答えできません", "判定をお手伝い",
	"キーパーに聞いて", "キーパーに確認して", "gmに聞いて", "gmに確認して",
	"我无法帮助", "我不能帮助", "我无法协助", "我不能协助", "请询问你的守秘人", "请询问你的gm",
	"도와드릴 수 없습니다",
	"не могу помочь", "не могу с этим помочь", "не буду решать",
}

// offersUnsure says whether a reply read as a refusal also offers a ruling unsure: a
// sentence that holds a ruling's word and a hedge or a lean ("Maybe a roll, maybe
// not.", "I'd lean toward a roll", "in most games this would be a Stealth roll"), or
// two questions about rolling in a row ("A roll? Not a roll?"). Half a refusal and half
// a hedge is no refusal: the reply is unparsed. Only a short reply is read so: a long
// refusal explains itself, and tells what rolls are for, as a matter of course.
func offersUnsure(folded string, lex *Lexicon) bool {
	if len(folded) > 400 {
		return false
	}
	questions := 0
	for from := 0; from < len(folded); {
		start, stop := sentenceAround(folded, from, from)
		s := folded[start:stop]
		from = stop + 1
		if !hasPhrase(s, unsureRulingWords) && !lex.namesHead(s) {
			continue
		}
		if stop < len(folded) && folded[stop] == '?' {
			if questions++; questions == 2 {
				return true
			}
			continue
		}
		if hedgeWord.MatchString(s) || hasPhrase(s, leanWords) || hasPhrase(s, lex.hedge) {
			return true
		}
	}
	return false
}

// unsureRulingWords are the words of a ruling offered unsure ("check" is left out:
// "maybe check with your Keeper" hands the ruling over; "rolls" too: "many Keepers call
// for rolls when …" is no ruling offered).
var unsureRulingWords = []string{"roll", "dice", "automatic", "automatically", "no check", "a check"}

// namesHead says whether s holds a word a ruling is made of in a lexicon's language
// other than English's verbs and "check" or "test" ("jet", "Probe", "tirada").
func (l *Lexicon) namesHead(s string) bool {
	for _, h := range l.heads {
		if !notUnsureHead[h] && phraseAt(s, h, 0) >= 0 {
			return true
		}
	}
	return false
}

// notUnsureHead are the English heads left out of namesHead: see unsureRulingWords.
var notUnsureHead = map[string]bool{"check": true, "checks": true, "test": true, "tests": true, "rolls": true, "rolled": true, "rolling": true, "reroll": true}

// leanWords lean toward a ruling or report what others rule.
var leanWords = []string{"lean", "leans", "leaning", "i'd say", "i would say", "most games", "most keepers", "most tables", "most groups",
	"some keepers", "some tables", "some groups", "many keepers", "other keepers"}

// decidesFor says whether the open phrase at folded[at:] is "can't decide" said of
// deciding for someone ("I can't decide this for your table"): a refusal of the role,
// not indecision between two rulings. A ruling after it, turned to with "that said" or
// "but", is the reply's ruling (refusedBefore).
func decidesFor(folded string, at int, phrase string) bool {
	if !strings.HasSuffix(phrase, "decide") {
		return false
	}
	rest := strings.TrimLeft(folded[at+len(phrase):], " ")
	for _, obj := range []string{"this ", "that ", "it ", "one "} {
		rest = strings.TrimPrefix(rest, obj)
	}
	return strings.HasPrefix(rest, "for you") || strings.HasPrefix(rest, "for the table") || strings.HasPrefix(rest, "on behalf of")
}

// deniedRollRequest finds a request to roll denied, in a reply that rules nothing else:
// "Denied. Your request to roll, I mean: you don't need one.", "Roll request denied —
// you simply climb the ladder." Refusal's words with a roll as their object are a pass,
// not a refusal to adjudicate. Not where a skill is named ("Your request to roll Luck
// instead of Climb is denied" keeps the Climb roll), nor beside a condition, a contrast
// or a question. It returns the span of the denial, or -1.
func deniedRollRequest(folded, body string, tax *Taxonomy) (at, to int) {
	at, to = -1, -1
	for _, req := range rollRequests {
		if i := strings.Index(folded, req); i >= 0 && (at < 0 || i < at) {
			at, to = i, i+len(req)
		}
	}
	if at < 0 || len(folded) > 300 || strings.ContainsAny(folded, "?") || hasPhrase(folded, requestCaveats) || firstSkill(body, tax, true) != "" {
		return -1, -1
	}
	near := folded[max(0, at-40):min(len(folded), to+40)]
	if !hasPhrase(near, denialWords) || hasPhrase(near, pastDenial) {
		return -1, -1 // "was denied last session": a denial told, not made
	}
	return max(0, at-40), min(len(folded), to+40)
}

// rollRequests are a request or a permission to roll, as the object of a denial.
var rollRequests = []string{"request to roll", "roll request", "request for a roll", "permission to roll", "request for dice", "dice request"}

// denialWords deny the request they stand by.
var denialWords = []string{"denied", "rejected", "declined", "refused", "not granted", "overruled"}

// pastDenial tell of a denial made before.
var pastDenial = []string{"was denied", "were denied", "been denied", "got denied", "was rejected", "was refused", "was declined"}

// requestCaveats keep a denial from being a pass: a condition, a contrast, another roll.
var requestCaveats = []string{"if", "unless", "but", "instead", "however", "until", "rather"}

// deniedRollRequestAt is where deniedRollRequest's span starts, or -1.
func deniedRollRequestAt(folded, body string, tax *Taxonomy) int {
	at, _ := deniedRollRequest(folded, body, tax)
	return at
}

// skillWordAt is phraseAt(s, p, from) for a skill's name p of a lexicon, passing over
// a name that is also the language's verb of rolling dice ("lancer", "werfen") where it
// is written in lowercase: "Tu dois lancer un jet" rolls dice, "un jet de Lancer" names
// the skill. s is orig folded, at the same offsets.
func (l *Lexicon) skillWordAt(s, orig, p string, from int) int {
	for {
		i := phraseAt(s, p, from)
		if i < 0 || !l.diceVerb[p] || i < len(orig) && orig[i] >= 'A' && orig[i] <= 'Z' || l.rollBefore(s[:i]) {
			return i // "un jet de lancer": the skill, after the roll's preposition
		}
		from = i + len(p)
	}
}

// rollBefore says whether s ends with a roll's word and the preposition that joins it
// to its skill's name: "jet de", "Probe auf", "tiro di".
func (l *Lexicon) rollBefore(s string) bool {
	s = strings.TrimRight(s, " ")
	for _, r := range l.rollJoin {
		if strings.HasSuffix(s, r) {
			return true
		}
	}
	return false
}

// deicticRest are the words after a refusal phrase that point at the matter itself: "I
// won't rule on this." declines the ruling, and a ruling after it is a second stance
// (refusedBefore).
var deicticRest = map[string]bool{"this": true, "that": true, "it": true, "this one": true, "that one": true, "here": true, "this here": true}
