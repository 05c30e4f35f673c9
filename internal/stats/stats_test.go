package stats

import (
	"math"
	"testing"
)

func TestRate(t *testing.T) {
	tests := []struct {
		name     string
		num, den int
		want     float64
		wantOK   bool
	}{
		{"half", 1, 2, 0.5, true},
		{"zero failures", 0, 7, 0, true},
		{"empty is undefined", 0, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Rate(tt.num, tt.den)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Rate(%d, %d) = %v, %v; want %v, %v", tt.num, tt.den, got, ok, tt.want, tt.wantOK)
			}
			p := RatePtr(tt.num, tt.den)
			if (p != nil) != tt.wantOK || (p != nil && *p != tt.want) {
				t.Errorf("RatePtr(%d, %d) = %v; want %v (defined %v)", tt.num, tt.den, p, tt.want, tt.wantOK)
			}
		})
	}
}

func TestMean(t *testing.T) {
	if got, ok := Mean([]float64{1, 2, 6}); got != 3 || !ok {
		t.Errorf("Mean([1 2 6]) = %v, %v; want 3, true", got, ok)
	}
	if _, ok := Mean(nil); ok {
		t.Errorf("Mean(nil) ok = true; want false")
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{1, 2, 3, 4}
	tests := []struct {
		name string
		q    float64
		want float64
	}{
		{"min", 0, 1},
		{"median interpolates", 0.5, 2.5},
		{"p95 type 7", 0.95, 3.85},
		{"max", 1, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Quantile(xs, tt.q); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Quantile(%v, %v) = %v; want %v", xs, tt.q, got, tt.want)
			}
		})
	}
	if got := Quantile(nil, 0.5); !math.IsNaN(got) {
		t.Errorf("Quantile(nil, 0.5) = %v; want NaN", got)
	}
	if got := Quantile(xs, 1.5); !math.IsNaN(got) {
		t.Errorf("Quantile(%v, 1.5) = %v; want NaN", xs, got)
	}
}
