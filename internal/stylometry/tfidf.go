package stylometry

import (
	"bufio"
	"bytes"
	"cmp"
	_ "embed"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode"
)

//go:embed stopwords.txt
var stopWordsFile []byte

// DefaultStopWords returns the built-in stop-word list (stopwords.txt), a fresh map the
// caller may change.
func DefaultStopWords() map[string]bool {
	words, err := ParseStopWords(bytes.NewReader(stopWordsFile), "stopwords.txt")
	if err != nil {
		panic(err) // the embedded file is tested
	}
	return words
}

// ParseStopWords reads a stop-word list: one word a line, '#' to the end of a line is a
// comment, blank lines are skipped. A word is letters only; it is lowercased. name labels
// errors.
func ParseStopWords(r io.Reader, name string) (map[string]bool, error) {
	words := map[string]bool{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		w := strings.TrimSpace(line)
		if w == "" {
			continue
		}
		if strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
			return nil, fmt.Errorf("stop words %s: line %d: %q is not a word of letters only", name, n, w)
		}
		words[strings.ToLower(w)] = true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("stop words %s: %w", name, err)
	}
	return words, nil
}

// Words splits text into the TF-IDF vocabulary's words: maximal runs of letters,
// lowercased, leaving out runs of one letter and the stop words. "Scientifically, the
// 1920s' man-made" gives scientifically, man, made (with "the" a stop word).
func Words(text string, stop map[string]bool) []string {
	var out []string
	for w := range strings.FieldsFuncSeq(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len([]rune(w)) < 2 {
			continue
		}
		w = strings.ToLower(w)
		if !stop[w] {
			out = append(out, w)
		}
	}
	return out
}

// TFIDF scores each document's words against all the documents and returns each
// document's top terms, highest score first (ties by term). A document is its words'
// counts. tf is the raw count and idf = ln(N/df), with N documents of which df hold the
// word; each document's tf×idf vector is scaled to unit length. The idf is deliberately
// not scikit-learn's smoothed ln((1+N)/(1+df)) + 1: that gives a word every document
// uses a weight of 1, so with a few documents (one per generator) the most frequent
// shared words ("check", "gate") led every list. Here such a word scores 0 and is left
// out, so a list holds only words that set its document apart, and it may be empty (a
// single document, or one whose every word is in all the others). Every key of docs
// gets a list, never nil.
func TFIDF[K comparable](docs map[K]map[string]int, top int) map[K][]Term {
	df := map[string]int{}
	for _, d := range docs {
		for w := range d {
			df[w]++
		}
	}
	n := float64(len(docs))
	out := make(map[K][]Term, len(docs))
	for k, d := range docs {
		terms := make([]Term, 0, len(d))
		for w, c := range d {
			if df[w] == len(docs) {
				continue // idf ln(N/N) = 0: compared, not computed, so no rounding lets it in
			}
			terms = append(terms, Term{Term: w, Score: float64(c) * math.Log(n/float64(df[w]))})
		}
		// Sum in term order: map order would change the norm's last bits from run to run.
		slices.SortFunc(terms, func(a, b Term) int { return strings.Compare(a.Term, b.Term) })
		var norm float64
		for _, t := range terms {
			norm += t.Score * t.Score
		}
		norm = math.Sqrt(norm)
		for i := range terms {
			terms[i].Score /= norm
		}
		slices.SortFunc(terms, func(a, b Term) int {
			return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.Term, b.Term))
		})
		if len(terms) > top {
			terms = terms[:top]
		}
		out[k] = terms
	}
	return out
}
