package seduce

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// verdictMinWords is how long a reply must be for its closing verdict to settle it.
const verdictMinWords = 150

// verdictMaxBytes and verdictTries bound the work: the closing verdict is read in
// replies of a few pages at most, from one of its last few conclusions, so that a reply
// of any length costs a bounded number of parses more.
const (
	verdictMaxBytes = 16000
	verdictTries    = 4
)

// verdictMarker opens a reply's conclusion: a sentence or paragraph that begins with a
// word of concluding ("So:", "So, to sum up", "Therefore", "In short", "Bottom line",
// "That's why") or names itself the ruling ("My ruling, then:", "Verdict:", "Final
// call —"). Matched in folded text.
var verdictMarker = regexp.MustCompile(`(?:^|\n|[.!?]["')]? +)(?:so(?: then)?[:,.]? +|therefore\b|thus\b|hence\b|in short\b|in sum\b|to sum (?:it )?up\b|to summari[sz]e\b|all told\b|in the end\b|bottom line\b|the upshot\b|long story short\b|(?:and )?that(?:'s| is) why\b|which is why\b|(?:my|the|final|keeper'?s?) (?:final )?(?:ruling|verdict|call|answer|decision)\b|(?:ruling|verdict|decision|conclusion)\s*[:—–-])`)

// verdictHeading is a line that heads the reply's ruling section and says nothing else
// ("## 6. Ruling", "**Verdict**", "### Final call").
var verdictHeading = regexp.MustCompile(`(?m)^[ \t>#*_]*(?:\d+[.)]?[ \t]*)?(?:(?:final|my|the|keeper['’]?s?)[ \t]+)?(?:ruling|verdict|decision|conclusion|call|adjudication)[ \t*_:]*$`)

// openVerdict are words by which a conclusion leaves the ruling open: a choice that
// depends on something, a ruling that could or might be, one left open or to be given.
var openVerdict = regexp.MustCompile(`\bdepend|\b(?:could|might|may) (?:well )?be\b|\b(?:leave|leaving|left) (?:it|this|that|the (?:ruling|call|decision)) (?:open|up to)|\bunsure\b|\bnot sure\b|\b(?:either|or) way\b|\bfirm answer\b|\bget back to you\b`)

// closingVerdict reads the verdict of a long reply that p, the whole reply's reading,
// leaves unparsed because its ruling words disagree or are hedged (spec section 3): a
// reply of 150 words or more that ends in a conclusion opened by a marker of
// concluding (verdictMarker), whose words from the marker to the end rule firmly on
// their own, rules that way. What comes before is the reply's explanation: the
// player's claims, the case for the other ruling, what some Keepers would do, what a
// roll would mean. A conclusion that is itself open, hedged, conditional, mere
// narration or a refusal beside rulings leaves the reply as p left it; the last
// marker whose conclusion rules is read, so nothing after it takes the verdict back.
func closingVerdict(text string, p Parsed, tax *Taxonomy, lex *Lexicon) Parsed {
	if p.Decision != DecisionUnparsed || !verdictRule(p.Rule) {
		return p
	}
	body := strings.TrimSpace(stripReasoning(text))
	if len(body) < verdictMinWords*4 || len(body) > verdictMaxBytes || len(strings.Fields(body)) < verdictMinWords {
		return p
	}
	folded := foldLower(body)
	if len(folded) != len(body) {
		return p // offsets would not line up
	}
	var starts []int
	for _, l := range verdictMarker.FindAllStringIndex(folded, -1) {
		starts = append(starts, l[0])
	}
	for _, l := range verdictHeading.FindAllStringIndex(folded, -1) {
		starts = append(starts, l[0])
	}
	starts = append(starts, lex.conclusions(folded)...)
	slices.Sort(starts)
	for i := len(starts) - 1; i >= max(0, len(starts)-verdictTries); i-- {
		at := starts[i]
		for at < len(body) && strings.ContainsRune(".!?\"') \n", rune(body[at])) {
			at++
		}
		if at < len(body)/3 {
			break // a conclusion closes the reply
		}
		tail := folded[at:]
		if lex.openIdx.has(tail) || openVerdict.MatchString(tail) {
			continue // "So I'll leave it open: it could be no roll, or Spot Hidden"
		}
		v := parseReplyOnce(body[at:], tax, lex)
		if v.Decision != DecisionRoll && v.Decision != DecisionPass {
			continue
		}
		if v.Rule == RuleNarrated {
			continue
		}
		v.Rule = RuleVerdict
		return v
	}
	return p
}

// verdictRule says whether an unparsed reading with rule r is one a closing verdict may
// settle: rulings that disagree, are hedged, left on a condition or unexplained, or a
// label whose value says neither ruling ("# Keeper Ruling: The Séance Room").
func verdictRule(r string) bool {
	switch r {
	case RuleContradiction, RuleHedge, RuleConditional, RuleUnexplained, RuleUnreadable:
		return true
	}
	return false
}

// conclusions are where a conclusion word of the lexicons opens a sentence of folded:
// at its start, after a line break or after a sentence's end, markdown marks aside,
// and followed by no letter ("Also: kein Wurf", "Donc, pas de jet", "**Kortom:**").
func (l *Lexicon) conclusions(folded string) []int {
	var at []int
	for _, p := range l.conclusion {
		for from := 0; ; {
			i := strings.Index(folded[from:], p)
			if i < 0 {
				break
			}
			i += from
			from = i + len(p)
			if r, _ := utf8.DecodeRuneInString(folded[from:]); from < len(folded) && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				continue
			}
			if opensSentence(folded, i) {
				at = append(at, i)
			}
		}
	}
	return at
}

// opensSentence says whether s[i:] opens a sentence: only spaces and markdown marks
// stand between it and the text's start, a line break or a sentence's end.
func opensSentence(s string, i int) bool {
	j := i
	for j > 0 && strings.IndexByte(" \t*#>_-", s[j-1]) >= 0 {
		j--
	}
	if j == 0 || s[j-1] == '\n' {
		return true
	}
	return j < i && strings.IndexByte(".!?", s[j-1]) >= 0
}

// declineManner sets aside the words a decline may hold between its subject and its
// verb, which say how or how reluctantly, not whether: "I'm going to (have to)
// (respectfully) decline" is "I'm going to decline".
var declineManner = strings.NewReplacer(
	" going to have to ", " going to ", " gonna have to ", " going to ",
	" respectfully ", " ", " politely ", " ", " regretfully ", " ", " reluctantly ", " ",
	" humbly ", " ", " gently ", " ", " firmly ", " ", " sadly ", " ", " unfortunately ", " ")
