package stats

import (
	"math"
	"math/big"
	"testing"
)

func TestMcNemarExact(t *testing.T) {
	tests := []struct {
		name string
		b, c int
		want float64
	}{
		// Hand-computed: p = 2·Σ_{k≤min} C(n,k)/2^n.
		{"no discordant pairs", 0, 0, 1},
		{"even split", 3, 3, 1},
		{"one pair", 0, 1, 1},
		{"0 vs 5: 2·1/32", 0, 5, 2.0 / 32},
		{"1 vs 5: 2·(1+6)/64", 1, 5, 14.0 / 64},
		{"2 vs 8: 2·(1+10+45)/1024", 2, 8, 112.0 / 1024},
		{"symmetric: 8 vs 2", 8, 2, 112.0 / 1024},
		{"0 vs 20: 2/2^20", 0, 20, 2.0 / (1 << 20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := McNemarExact(tt.b, tt.c)
			if math.Abs(got-tt.want) > 1e-12*math.Max(1, tt.want) {
				t.Errorf("McNemarExact(%d, %d) = %v; want %v", tt.b, tt.c, got, tt.want)
			}
		})
	}
	if got := McNemarExact(-1, 3); !math.IsNaN(got) {
		t.Errorf("McNemarExact(-1, 3) = %v; want NaN", got)
	}
}

// exactMcNemar sums the binomial tail in exact rational arithmetic.
func exactMcNemar(b, c int) float64 {
	n, m := b+c, min(b, c)
	sum := new(big.Int)
	coef := big.NewInt(1) // C(n, 0)
	for k := 0; k <= m; k++ {
		sum.Add(sum, coef)
		coef.Mul(coef, big.NewInt(int64(n-k)))
		coef.Quo(coef, big.NewInt(int64(k+1)))
	}
	p := new(big.Rat).SetFrac(sum.Lsh(sum, 1), new(big.Int).Lsh(big.NewInt(1), uint(n)))
	f, _ := p.Float64()
	return math.Min(f, 1)
}

func TestMcNemarExactLarge(t *testing.T) {
	tests := []struct {
		name string
		b, c int
	}{
		{"moderate", 40, 70},
		{"tiny p", 10, 300},
		{"large n near even", 1480, 1520},
		{"large n lopsided", 900, 1400},
		{"underflows naive 2^-n", 3, 2500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, want := McNemarExact(tt.b, tt.c), exactMcNemar(tt.b, tt.c)
			if math.Abs(got-want) > 1e-9*want {
				t.Errorf("McNemarExact(%d, %d) = %v; want %v", tt.b, tt.c, got, want)
			}
		})
	}
}

func TestMcNemarExactHuge(t *testing.T) {
	// n = 10^6: compare with the continuity-corrected normal approximation, which is
	// accurate here, and check that nothing overflowed to NaN or Inf.
	b, c := 499000, 501000
	got := McNemarExact(b, c)
	z := (math.Abs(float64(b-c)) - 1) / math.Sqrt(float64(b+c))
	want := math.Erfc(z / math.Sqrt2)
	if math.IsNaN(got) || math.Abs(got-want) > 0.01*want {
		t.Errorf("McNemarExact(%d, %d) = %v; want ≈ %v", b, c, got, want)
	}
}
