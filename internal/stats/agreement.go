package stats

import (
	"errors"
	"fmt"
)

// PercentAgreement returns the share of items on which two raters gave the same answer.
// a[i] and b[i] are the two raters' answers on item i.
func PercentAgreement[T comparable](a, b []T) (float64, error) {
	if err := checkPaired(len(a), len(b)); err != nil {
		return 0, err
	}
	return observedAgreement(a, b), nil
}

// CohenKappa returns Cohen's kappa for two raters: (po − pe)/(1 − pe), with po the
// observed agreement and pe = Σ_k pA(k)·pB(k) the agreement expected from each rater's
// own marginal distribution. It is undefined, and an error, when pe is 1 (both raters gave
// one and the same answer throughout).
func CohenKappa[T comparable](a, b []T) (float64, error) {
	if err := checkPaired(len(a), len(b)); err != nil {
		return 0, err
	}
	pa, pb, _ := marginals(a, b)
	var pe float64
	for k := range pa {
		pe += pa[k] * pb[k]
	}
	if pe >= 1 {
		return 0, errors.New("cohen's kappa is undefined: both raters gave one and the same answer throughout")
	}
	return (observedAgreement(a, b) - pe) / (1 - pe), nil
}

// GwetAC1 returns Gwet's AC1 for two raters: (po − pe)/(1 − pe) with
// pe = Σ_k πk(1 − πk)/(q − 1), where πk is the mean of the two raters' shares of answer k
// and q the number of categories. Unlike kappa it stays meaningful when nearly every
// answer is the same, which is the usual case for a good judge.
//
// q is the number of distinct answers seen, at least 2 (right for yes/no data). When some
// categories went unused by both raters, use GwetAC1Counts with a column for each.
func GwetAC1[T comparable](a, b []T) (float64, error) {
	if err := checkPaired(len(a), len(b)); err != nil {
		return 0, err
	}
	pa, pb, q := marginals(a, b)
	q = max(q, 2)
	var s float64
	for k := range pa {
		pi := (pa[k] + pb[k]) / 2
		s += pi * (1 - pi)
	}
	pe := s / float64(q-1)
	return (observedAgreement(a, b) - pe) / (1 - pe), nil
}

// FleissKappa returns Fleiss' kappa from counts, a subjects × categories matrix where
// counts[i][k] is how many raters put subject i in category k. With the same number of
// raters on every subject it is Fleiss (1971); rows may differ in total, as when some
// raters skipped a subject, and then it is Gwet's generalisation: subjects with fewer than
// two ratings add nothing to the observed agreement but still count in the category
// shares. It is an error when the chance agreement is 1 (every rating in one category).
func FleissKappa(counts [][]int) (float64, error) {
	pa, pi, err := countAgreement(counts)
	if err != nil {
		return 0, fmt.Errorf("fleiss' kappa: %w", err)
	}
	var pe float64
	for _, p := range pi {
		pe += p * p
	}
	if pe >= 1 {
		return 0, errors.New("fleiss' kappa is undefined: every rating is in one category")
	}
	return (pa - pe) / (1 - pe), nil
}

// GwetAC1Counts returns Gwet's AC1 for any number of raters from counts, a subjects ×
// categories matrix as for FleissKappa; the number of columns is the number of categories
// q, used or not. Chance agreement is pe = Σ_k πk(1 − πk)/(q − 1).
func GwetAC1Counts(counts [][]int) (float64, error) {
	pa, pi, err := countAgreement(counts)
	if err != nil {
		return 0, fmt.Errorf("gwet's AC1: %w", err)
	}
	var s float64
	for _, p := range pi {
		s += p * (1 - p)
	}
	pe := s / float64(len(pi)-1)
	return (pa - pe) / (1 - pe), nil
}

func checkPaired(na, nb int) error {
	if na != nb {
		return fmt.Errorf("raters answered different numbers of items: %d and %d", na, nb)
	}
	if na == 0 {
		return errors.New("no items rated")
	}
	return nil
}

func observedAgreement[T comparable](a, b []T) float64 {
	same := 0
	for i := range a {
		if a[i] == b[i] {
			same++
		}
	}
	return float64(same) / float64(len(a))
}

// marginals returns each rater's share of every category seen (indexed alike) and the
// number of categories.
func marginals[T comparable](a, b []T) (pa, pb []float64, q int) {
	index := make(map[T]int)
	add := func(shares []float64, v T) []float64 {
		k, ok := index[v]
		if !ok {
			k = len(index)
			index[v] = k
		}
		for len(shares) <= k {
			shares = append(shares, 0)
		}
		shares[k]++
		return shares
	}
	for i := range a {
		pa = add(pa, a[i])
		pb = add(pb, b[i])
	}
	q = len(index)
	for len(pa) < q {
		pa = append(pa, 0)
	}
	for len(pb) < q {
		pb = append(pb, 0)
	}
	n := float64(len(a))
	for k := range q {
		pa[k] /= n
		pb[k] /= n
	}
	return pa, pb, q
}

// countAgreement returns the observed agreement pa over subjects with at least two
// ratings and each category's mean share πk over subjects with at least one, as in
// Gwet (2014) for ratings with gaps.
func countAgreement(counts [][]int) (pa float64, pi []float64, err error) {
	if len(counts) == 0 {
		return 0, nil, errors.New("no subjects")
	}
	q := len(counts[0])
	if q < 2 {
		return 0, nil, fmt.Errorf("%d categories: need at least 2", q)
	}
	pi = make([]float64, q)
	rated, paired := 0, 0
	for i, row := range counts {
		if len(row) != q {
			return 0, nil, fmt.Errorf("subject %d has %d categories, subject 0 has %d", i, len(row), q)
		}
		r := 0
		for k, c := range row {
			if c < 0 {
				return 0, nil, fmt.Errorf("subject %d, category %d: negative count %d", i, k, c)
			}
			r += c
		}
		if r == 0 {
			continue
		}
		rated++
		for k, c := range row {
			pi[k] += float64(c) / float64(r)
		}
		if r < 2 {
			continue
		}
		paired++
		var agree int
		for _, c := range row {
			agree += c * (c - 1)
		}
		pa += float64(agree) / float64(r*(r-1))
	}
	if paired == 0 {
		return 0, nil, errors.New("no subject has two ratings")
	}
	for k := range pi {
		pi[k] /= float64(rated)
	}
	return pa / float64(paired), pi, nil
}
