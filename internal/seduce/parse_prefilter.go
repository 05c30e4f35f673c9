package seduce

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// The prose rules are regular expressions with submatches, which Go runs on an NFA at a
// few hundred nanoseconds a byte each: run every rule over every clause of a 5 MB reply
// and a report takes minutes. Most clauses cannot match most rules at all, since each
// rule needs one of a few words ("roll", "check", "auto", …). A rule's required words
// are worked out from its own syntax tree, so the shortcut cannot drift from the rules.

// requiredWords returns groups of strings such that every match of re contains at least
// one string of each group, or nil when re promises none (then the rule always runs). A
// rule's words are thus all it needs, not only one of them: "no (roll|check) (is )?needed"
// is not tried on a clause that says "roll" but neither "no" nor "needed".
func requiredWords(re *regexp.Regexp) [][]string {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	return required(t.Simplify())
}

func required(t *syntax.Regexp) [][]string {
	switch t.Op {
	case syntax.OpLiteral:
		if t.Flags&syntax.FoldCase != 0 {
			return nil
		}
		return [][]string{{string(t.Rune)}}
	case syntax.OpCapture, syntax.OpPlus:
		return required(t.Sub[0])
	case syntax.OpRepeat:
		if t.Min < 1 {
			return nil
		}
		return required(t.Sub[0])
	case syntax.OpConcat:
		// Every part is in every match, so every part's groups are required.
		var all [][]string
		for _, s := range t.Sub {
			all = append(all, required(s)...)
		}
		return all
	case syntax.OpAlternate:
		// A match holds one of the alternatives: one group of a word from each (the
		// group of each that rules out the most).
		var any []string
		for _, s := range t.Sub {
			best := bestGroup(required(s))
			if best == nil {
				return nil
			}
			any = append(any, best...)
		}
		return [][]string{any}
	}
	return nil
}

// bestGroup is the group whose shortest word is longest: the likeliest to be absent.
func bestGroup(groups [][]string) []string {
	var best []string
	for _, g := range groups {
		if best == nil || shortest(g) > shortest(best) {
			best = g
		}
	}
	return best
}

func shortest(words []string) int {
	n := -1
	for _, w := range words {
		if n < 0 || len(w) < n {
			n = len(w)
		}
	}
	return n
}

// mayMatch reports whether s holds a word of every group; with no groups it is true.
func mayMatch(s string, groups [][]string) bool {
	for _, g := range groups {
		if !holdsAny(s, g) {
			return false
		}
	}
	return true
}

// holdsAny reports whether s holds one of words.
func holdsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// isRESpace is Go's \s: the only bytes a \s+ between words may hold.
func isRESpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// lastWordsStart is where the window for an end-anchored look-back starts in b: one byte
// before the n-th last run of non-space bytes (the separating space, for \b), or 0. The
// look-back patterns (negatedRoll, negatedAuto) are a negation word, then at most n-1
// further words, each followed by \s+, then the end; so every match of them lies
// within that window, and the window's first byte gives \b the context it needs.
func lastWordsStart[T string | []byte](b T, n int) int {
	i := len(b)
	for ; n > 0; n-- {
		for i > 0 && isRESpace(b[i-1]) {
			i--
		}
		if i == 0 {
			return 0
		}
		for i > 0 && !isRESpace(b[i-1]) {
			i--
		}
	}
	return max(0, i-1)
}
