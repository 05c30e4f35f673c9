package stats

import "math"

// McNemarExact returns the two-sided p-value of the exact McNemar test on paired
// outcomes, where b and c count the two kinds of discordant pair (A right and B wrong,
// A wrong and B right). Under the null hypothesis the b+c discordant pairs split as
// Binomial(b+c, 1/2), and p = min(1, 2·P(X ≤ min(b, c))). p is 1 when b+c is 0 and NaN
// when a count is negative.
//
// The tail is summed from its largest term downwards, starting from that term's
// logarithm, so the result neither overflows nor underflows for large b+c.
func McNemarExact(b, c int) (p float64) {
	if b < 0 || c < 0 {
		return math.NaN()
	}
	n, m := b+c, min(b, c)
	if 2*m >= n { // includes n == 0: an even split is as likely as anything
		return 1
	}
	// log P(X = m) = log C(n, m) − n·log 2; then P(X = k−1) = P(X = k)·k/(n−k+1), and each
	// ratio is below 1 because m < n/2, so the terms only shrink.
	logTop := logFactorial(n) - logFactorial(m) - logFactorial(n-m) - float64(n)*math.Ln2
	sum, term := 1.0, 1.0
	for k := m; k > 0; k-- {
		term *= float64(k) / float64(n-k+1)
		sum += term
		if term < sum*1e-17 {
			break
		}
	}
	return min(1, 2*math.Exp(logTop+math.Log(sum)))
}

func logFactorial(n int) float64 {
	v, _ := math.Lgamma(float64(n) + 1)
	return v
}
