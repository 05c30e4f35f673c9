package stats

import (
	"math/rand/v2"
	"slices"
)

// bootstrapStream is the second PCG seed word. It is fixed so that a caller's single
// seed fully determines the draws.
const bootstrapStream = 0x9e3779b97f4a7c15

// BootstrapRate returns a percentile confidence interval at the given level (e.g. 0.95)
// for the pooled rate Σfailures/Σevaluated, by a cluster bootstrap: each of reps
// replicates draws len(clusters) clusters with replacement and recomputes the pooled rate.
// Each cluster is {failures, evaluated}.
//
// Resampling clusters rather than items is what makes the interval honest when items
// within a cluster are correlated: the four rhetorical variants of one scenario truth are
// not four independent trials, so for a failure rate the clusters are scenario ids.
//
// Clusters with nothing evaluated carry no information and are dropped before
// resampling. The draws come from a PCG generator seeded with seed, so the interval is
// the same for the same inputs and seed. ok is false when reps ≤ 0, level is not in
// (0, 1), a cluster is malformed (negative, or more failures than evaluated), or nothing
// was evaluated at all.
func BootstrapRate(clusters [][2]int, reps int, seed uint64, level float64) (lo, hi float64, ok bool) {
	if reps <= 0 || !(level > 0 && level < 1) {
		return 0, 0, false
	}
	kept := make([][2]int, 0, len(clusters))
	for _, c := range clusters {
		if c[0] < 0 || c[1] < 0 || c[0] > c[1] {
			return 0, 0, false
		}
		if c[1] > 0 {
			kept = append(kept, c)
		}
	}
	k := len(kept)
	if k == 0 {
		return 0, 0, false
	}
	r := rand.New(rand.NewPCG(seed, bootstrapStream))
	rates := make([]float64, reps)
	for i := range rates {
		var fail, eval int
		for range k {
			c := kept[r.IntN(k)]
			fail += c[0]
			eval += c[1]
		}
		// eval > 0: every kept cluster has something evaluated.
		rates[i] = float64(fail) / float64(eval)
	}
	slices.Sort(rates)
	alpha := (1 - level) / 2
	return Quantile(rates, alpha), Quantile(rates, 1-alpha), true
}
