package stats

import (
	"math/rand/v2"
	"testing"
)

// randomClusters builds k clusters of 4 items with a cluster-level failure tendency, the
// shape of scenario variants.
func randomClusters(seed uint64, k int) [][2]int {
	r := rand.New(rand.NewPCG(seed, 1))
	cs := make([][2]int, k)
	for i := range cs {
		p := r.Float64() * 0.4
		eval := 1 + r.IntN(4)
		fail := 0
		for range eval {
			if r.Float64() < p {
				fail++
			}
		}
		cs[i] = [2]int{fail, eval}
	}
	return cs
}

func pooled(cs [][2]int) float64 {
	var f, e int
	for _, c := range cs {
		f += c[0]
		e += c[1]
	}
	return float64(f) / float64(e)
}

func TestBootstrapRateContainsEstimate(t *testing.T) {
	for seed := range uint64(20) {
		cs := randomClusters(seed, 50+int(seed)*20)
		lo, hi, ok := BootstrapRate(cs, 500, seed, 0.95)
		p := pooled(cs)
		if !ok || lo > p || p > hi || lo >= hi {
			t.Errorf("BootstrapRate(seed %d) = [%v, %v], %v; want an interval around %v", seed, lo, hi, ok, p)
		}
	}
}

func TestBootstrapRateDeterministic(t *testing.T) {
	cs := randomClusters(7, 300)
	lo1, hi1, _ := BootstrapRate(cs, 1000, 42, 0.95)
	lo2, hi2, _ := BootstrapRate(cs, 1000, 42, 0.95)
	if lo1 != lo2 || hi1 != hi2 {
		t.Errorf("BootstrapRate twice with seed 42 = [%v, %v] then [%v, %v]; want equal", lo1, hi1, lo2, hi2)
	}
	lo3, hi3, _ := BootstrapRate(cs, 1000, 43, 0.95)
	if lo1 == lo3 && hi1 == hi3 {
		t.Errorf("BootstrapRate with seeds 42 and 43 both = [%v, %v]; want the seed to matter", lo1, hi1)
	}
}

func TestBootstrapRateWidth(t *testing.T) {
	cs := randomClusters(3, 400)
	lo95, hi95, _ := BootstrapRate(cs, 2000, 1, 0.95)
	lo50, hi50, _ := BootstrapRate(cs, 2000, 1, 0.50)
	if !(lo95 <= lo50 && hi50 <= hi95) {
		t.Errorf("BootstrapRate 95%% = [%v, %v], 50%% = [%v, %v]; want the 50%% interval inside", lo95, hi95, lo50, hi50)
	}
}

func TestBootstrapRateEdges(t *testing.T) {
	tests := []struct {
		name           string
		clusters       [][2]int
		reps           int
		level          float64
		wantLo, wantHi float64
		wantOK         bool
	}{
		{"no failures", [][2]int{{0, 4}, {0, 3}}, 100, 0.95, 0, 0, true},
		{"single cluster", [][2]int{{1, 4}}, 100, 0.95, 0.25, 0.25, true},
		{"empty clusters dropped", [][2]int{{0, 0}, {2, 4}, {0, 0}}, 100, 0.95, 0.5, 0.5, true},
		{"nothing evaluated", [][2]int{{0, 0}}, 100, 0.95, 0, 0, false},
		{"no clusters", nil, 100, 0.95, 0, 0, false},
		{"no reps", [][2]int{{1, 4}}, 0, 0.95, 0, 0, false},
		{"bad level", [][2]int{{1, 4}}, 100, 1, 0, 0, false},
		{"more failures than evaluated", [][2]int{{5, 4}}, 100, 0.95, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi, ok := BootstrapRate(tt.clusters, tt.reps, 1, tt.level)
			if lo != tt.wantLo || hi != tt.wantHi || ok != tt.wantOK {
				t.Errorf("BootstrapRate(%v, %d, 1, %v) = %v, %v, %v; want %v, %v, %v",
					tt.clusters, tt.reps, tt.level, lo, hi, ok, tt.wantLo, tt.wantHi, tt.wantOK)
			}
		})
	}
}
