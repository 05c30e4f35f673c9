// Package stats holds the pure statistics arbiter reports: rates and their summaries, a
// seeded cluster bootstrap for confidence intervals, the exact McNemar test for comparing
// two models on the same samples, and inter-rater agreement (percent agreement, Cohen's
// and Fleiss' kappa, Gwet's AC1) for checking a judge against people.
//
// Nothing here does I/O or keeps state. Every random draw comes from a seed the caller
// passes, so the same inputs always give the same numbers. A rate over nothing is
// undefined, never 0: functions say so with an ok result or a nil pointer.
package stats

import "math"

// Rate returns num/den, with ok false when den is 0.
func Rate(num, den int) (r float64, ok bool) {
	if den == 0 {
		return 0, false
	}
	return float64(num) / float64(den), true
}

// RatePtr is Rate as a pointer that is nil when the rate is undefined: the shape a JSON
// report needs to print null.
func RatePtr(num, den int) *float64 {
	r, ok := Rate(num, den)
	if !ok {
		return nil
	}
	return &r
}

// Mean returns the arithmetic mean of xs, with ok false when xs is empty.
func Mean(xs []float64) (mean float64, ok bool) {
	if len(xs) == 0 {
		return 0, false
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs)), true
}

// Quantile returns the q-quantile (0 ≤ q ≤ 1) of sorted, an ascending slice, interpolating
// linearly between the two closest ranks (Hyndman and Fan's type 7, the default of R and
// NumPy). It returns NaN when sorted is empty or q is out of range.
func Quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 || !(q >= 0 && q <= 1) {
		return math.NaN()
	}
	h := q * float64(n-1)
	i := int(h)
	if i >= n-1 {
		return sorted[n-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}
