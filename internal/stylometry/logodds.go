package stylometry

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// LogOddsTerm is a word and its z-scored log-odds ratio in one document against the others.
type LogOddsTerm struct {
	Term string  `json:"term"`
	Z    float64 `json:"z"`
}

// LogOdds scores each document's words by the z-scored log-odds ratio with an informative
// Dirichlet prior of Monroe, Colaresi and Quinn (2008, "Fightin' Words", section 3.5),
// document i against all the other documents pooled (j), and returns each document's top
// words, highest z first (ties by term). A document is its words' counts.
//
// For a word w with count y_iw in i (n_i words in all) and y_jw in the rest (n_j):
//
//	delta = ln((y_iw+a_w) / (n_i+a_0-y_iw-a_w)) - ln((y_jw+a_w) / (n_j+a_0-y_jw-a_w))
//	var   = 1/(y_iw+a_w) + 1/(y_jw+a_w)
//	z     = delta / sqrt(var)
//
// The prior is the whole corpus, an empirical-Bayes choice: a_w is w's count over all the
// documents and a_0 their total size in words, so every word is shrunk toward its overall
// rate. It needs no tuning constant and weighs as much as the data do, where a fixed
// a_0 (say 1000) would swamp a handful of statements and vanish under a corpus the
// paper's size.
//
// A document lists only words it uses; on a small corpus some of them may have a negative
// z (rarer in it than in the others). With fewer than two documents there is nothing to
// compare against and every list is empty; a word that is the whole corpus (its odds
// are infinite on both sides) is left out. Every key of docs gets a list, never nil.
func LogOdds[K comparable](docs map[K]map[string]int, top int) map[K][]LogOddsTerm {
	prior := map[string]int{}
	var a0 int
	size := make(map[K]int, len(docs))
	for k, d := range docs {
		for w, c := range d {
			prior[w] += c
			size[k] += c
			a0 += c
		}
	}
	out := make(map[K][]LogOddsTerm, len(docs))
	for k, d := range docs {
		terms := make([]LogOddsTerm, 0, len(d))
		if len(docs) < 2 {
			out[k] = terms
			continue
		}
		ni, nj := float64(size[k]), float64(a0-size[k])
		for w, c := range d {
			aw, yi, yj := float64(prior[w]), float64(c), float64(prior[w]-c)
			delta := math.Log((yi+aw)/(ni+float64(a0)-yi-aw)) - math.Log((yj+aw)/(nj+float64(a0)-yj-aw))
			z := delta / math.Sqrt(1/(yi+aw)+1/(yj+aw))
			if math.IsNaN(z) || math.IsInf(z, 0) {
				continue
			}
			terms = append(terms, LogOddsTerm{Term: w, Z: z})
		}
		slices.SortFunc(terms, func(a, b LogOddsTerm) int {
			return cmp.Or(cmp.Compare(b.Z, a.Z), strings.Compare(a.Term, b.Term))
		})
		if len(terms) > top {
			terms = terms[:top]
		}
		out[k] = terms
	}
	return out
}
