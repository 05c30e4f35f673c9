package reference

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// The text measures below are the ones the reference set's quality tests apply (see
// docs/dataset.md); they are exported so that a report or a command can compute the same
// numbers on another dataset.

// Words splits text into lower-case words: apostrophes are dropped ("Sal's" -> "sals",
// "can't" -> "cant") and every other rune that is not a letter or a digit separates words.
func Words(text string) []string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == '\'' || r == '\u2019' || r == '\u2018':
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		default:
			b.WriteByte(' ')
		}
	}
	return strings.Fields(b.String())
}

// Trigrams returns the word trigrams of text (Words, three at a time, joined by a space),
// in order and with repeats. A text of fewer than three words has none.
func Trigrams(text string) []string {
	w := Words(text)
	if len(w) < 3 {
		return nil
	}
	out := make([]string, 0, len(w)-2)
	for i := range len(w) - 2 {
		out = append(out, w[i]+" "+w[i+1]+" "+w[i+2])
	}
	return out
}

// Jaccard is the word-trigram Jaccard similarity of two texts: shared distinct trigrams
// over all distinct trigrams of either. Two texts without trigrams score 0.
func Jaccard(a, b string) float64 {
	sa := map[string]bool{}
	for _, g := range Trigrams(a) {
		sa[g] = true
	}
	sb := map[string]bool{}
	for _, g := range Trigrams(b) {
		sb[g] = true
	}
	shared := 0
	for g := range sb {
		if sa[g] {
			shared++
		}
	}
	union := len(sa) + len(sb) - shared
	if union == 0 {
		return 0
	}
	return float64(shared) / float64(union)
}

// DistinctTrigrams counts the word trigrams of texts: how many are distinct and how many
// there are in all. distinct/total is the distinct-n diversity measure (1 when no
// trigram repeats anywhere in texts).
func DistinctTrigrams(texts []string) (distinct, total int) {
	seen := map[string]bool{}
	for _, t := range texts {
		for _, g := range Trigrams(t) {
			total++
			seen[g] = true
		}
	}
	return len(seen), total
}

// Pair is two texts, by index into the slice they came from (A < B), and their
// word-trigram Jaccard similarity.
type Pair struct {
	A, B    int
	Jaccard float64
}

// NearDuplicates compares every two texts of different groups (groups[i] is the group of
// texts[i]; nil puts every text in a group of its own) and returns the pairs whose
// Jaccard exceeds limit, most similar first, and the most similar pair of all (zero when
// no two texts of different groups share a trigram). An inverted index on trigrams means
// only pairs that share at least one trigram are ever compared, so a set of a few
// thousand texts takes milliseconds rather than millions of set intersections.
func NearDuplicates(texts, groups []string, limit float64) (over []Pair, most Pair) {
	if groups != nil && len(groups) != len(texts) {
		panic("reference.NearDuplicates: groups and texts differ in length")
	}
	ids := map[string]int{}
	sets := make([][]int, len(texts)) // distinct trigram ids per text, ascending
	for i, t := range texts {
		for _, g := range Trigrams(t) {
			id, ok := ids[g]
			if !ok {
				id = len(ids)
				ids[g] = id
			}
			sets[i] = append(sets[i], id)
		}
		slices.Sort(sets[i])
		sets[i] = slices.Compact(sets[i])
	}
	postings := make([][]int, len(ids)) // trigram id -> texts holding it, ascending
	for i, set := range sets {
		for _, id := range set {
			postings[id] = append(postings[id], i)
		}
	}
	shared := make([]int, len(texts))
	var touched []int
	for i, set := range sets {
		touched = touched[:0]
		for _, id := range set {
			for _, j := range postings[id] {
				if j <= i || (groups != nil && groups[j] == groups[i]) {
					continue
				}
				if shared[j] == 0 {
					touched = append(touched, j)
				}
				shared[j]++
			}
		}
		for _, j := range touched {
			p := Pair{A: i, B: j, Jaccard: float64(shared[j]) / float64(len(set)+len(sets[j])-shared[j])}
			shared[j] = 0
			if p.Jaccard > most.Jaccard {
				most = p
			}
			if p.Jaccard > limit {
				over = append(over, p)
			}
		}
	}
	slices.SortFunc(over, func(x, y Pair) int {
		return cmp.Or(cmp.Compare(y.Jaccard, x.Jaccard), cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
	})
	return over, most
}

// Lexicon finds whole-word phrases in text, case-insensitively: "so" matches "So," but
// not "also", and "as a" matches "as  a" across any run of white space. A phrase written
// all in capitals (an acronym such as "LED") matches only in capitals, so that the verb
// "led" is not taken for it. Curly apostrophes in the text count as straight ones.
type Lexicon struct {
	phrases []string
	res     []*regexp.Regexp
}

// NewLexicon returns a Lexicon of the given phrases.
func NewLexicon(phrases ...string) *Lexicon {
	l := &Lexicon{phrases: slices.Clone(phrases)}
	for _, p := range phrases {
		words := strings.Fields(p)
		for i, w := range words {
			words[i] = regexp.QuoteMeta(w)
		}
		flags := "(?i)"
		if p == strings.ToUpper(p) && p != strings.ToLower(p) {
			flags = ""
		}
		l.res = append(l.res, regexp.MustCompile(flags+`\b`+strings.Join(words, `\s+`)+`\b`))
	}
	return l
}

// Find returns the phrases of the lexicon that occur in text, in lexicon order.
func (l *Lexicon) Find(text string) []string {
	text = strings.NewReplacer("\u2019", "'", "\u2018", "'").Replace(text)
	var found []string
	for i, re := range l.res {
		if re.MatchString(text) {
			found = append(found, l.phrases[i])
		}
	}
	return found
}
