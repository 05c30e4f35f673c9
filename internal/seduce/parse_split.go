package seduce

import "regexp"

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
