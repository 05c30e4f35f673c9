package seduce

import (
	"regexp"
	"strings"
	"testing"
)

// TestRequiredWordsSound: every match of every prose rule holds a word of each group
// requiredWords gives it, on every line of the corpus and the development replies (as
// written and lower-cased), so the shortcut never keeps a rule from a text it matches.
// Broken on purpose (a concatenation's optional part taken as required, "(?:no\s+)?roll"
// giving [[no] [roll]]), it fails.
func TestRequiredWordsSound(t *testing.T) {
	var res []*regexp.Regexp
	for _, rules := range [][]cueRule{passRules, rollRules, doubleNegation, moreDoubleNegation, doubleNegationAfter} {
		for _, r := range rules {
			res = append(res, r.re)
		}
	}
	res = append(res, alternative, otherKeeperRoll, trailingHedge)
	var texts []string
	for _, glob := range []string{"testdata/replies/*.jsonl", "testdata/replies-dev/*.jsonl", "testdata/replies-dev-2/*.jsonl"} {
		eachJSONLine(t, glob, func(_ string, _ int, r heldoutReply) {
			for _, line := range strings.Split(r.Text, "\n") {
				texts = append(texts, line, strings.ToLower(line))
			}
		})
	}
	matched := 0
	for _, re := range res {
		words := requiredWords(re)
		for _, x := range texts {
			if !re.MatchString(x) {
				continue
			}
			matched++
			if !mayMatch(x, words) {
				t.Fatalf("%s matches %q but requiredWords gives %q", re, x, words)
			}
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d matches checked; the test reads too little", matched)
	}
	// The groups of a concatenation are all required; an optional part gives none.
	got := requiredWords(regexp.MustCompile(`\b(?:no\s+)?(?:roll|check)\s+(?:is\s+)?needed`))
	if want := [][]string{{"roll", "check"}, {"needed"}}; !equalGroups(got, want) {
		t.Errorf("requiredWords = %q; want %q", got, want)
	}
}

func equalGroups(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "|") != strings.Join(b[i], "|") {
			return false
		}
	}
	return true
}
