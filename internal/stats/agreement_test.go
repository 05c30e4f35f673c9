package stats

import (
	"math"
	"testing"
)

// fromTable expands a two-rater contingency table (rows rater A, columns rater B) into
// paired answers.
func fromTable(table [][]int) (a, b []int) {
	for i, row := range table {
		for j, n := range row {
			for range n {
				a = append(a, i)
				b = append(b, j)
			}
		}
	}
	return a, b
}

func yesNo(table [2][2]int) (a, b []bool) {
	ia, ib := fromTable([][]int{table[0][:], table[1][:]})
	for i := range ia {
		a = append(a, ia[i] == 0)
		b = append(b, ib[i] == 0)
	}
	return a, b
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

func TestTwoRaterCoefficients(t *testing.T) {
	tests := []struct {
		name                   string
		table                  [][]int
		wantPA, wantK, wantAC1 float64
		tol                    float64
	}{
		{
			// 50 applications, yes/yes 20, yes/no 5, no/yes 10, no/no 15:
			// po = 0.7, pe = 0.5·0.6 + 0.5·0.4 = 0.5, κ = 0.4; π = 0.55, AC1 = (0.7−0.495)/0.505.
			name:  "textbook 2x2",
			table: [][]int{{20, 5}, {10, 15}}, wantPA: 0.7, wantK: 0.4, wantAC1: 0.205 / 0.505, tol: 1e-12,
		},
		{
			// The kappa paradox of Gwet (2008): 118/5/2/0 of 125. po = 0.944,
			// pe(κ) = 0.984·0.96 + 0.016·0.04 = 0.94528, pe(AC1) = 2·0.972·0.028 = 0.054432.
			name:  "high agreement paradox",
			table: [][]int{{118, 5}, {2, 0}}, wantPA: 0.944, wantK: (0.944 - 0.94528) / (1 - 0.94528),
			wantAC1: (0.944 - 0.054432) / (1 - 0.054432), tol: 1e-12,
		},
		{
			// irrCAC's cont3x3abstractors (Gwet 2014): κ 0.7964094, AC1 0.8493305, pa 0.89.
			name:  "irrCAC 3x3",
			table: [][]int{{13, 0, 0}, {0, 20, 7}, {0, 4, 56}}, wantPA: 0.89, wantK: 0.7964094, wantAC1: 0.8493305, tol: 5e-7,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := fromTable(tt.table)
			if got, err := PercentAgreement(a, b); err != nil || !near(got, tt.wantPA, tt.tol) {
				t.Errorf("PercentAgreement(%v) = %v, %v; want %v", tt.table, got, err, tt.wantPA)
			}
			if got, err := CohenKappa(a, b); err != nil || !near(got, tt.wantK, tt.tol) {
				t.Errorf("CohenKappa(%v) = %v, %v; want %v", tt.table, got, err, tt.wantK)
			}
			if got, err := GwetAC1(a, b); err != nil || !near(got, tt.wantAC1, tt.tol) {
				t.Errorf("GwetAC1(%v) = %v, %v; want %v", tt.table, got, err, tt.wantAC1)
			}
		})
	}
}

func TestYesNoSlices(t *testing.T) {
	a, b := yesNo([2][2]int{{20, 5}, {10, 15}})
	if got, err := CohenKappa(a, b); err != nil || !near(got, 0.4, 1e-12) {
		t.Errorf("CohenKappa(yes/no 20,5,10,15) = %v, %v; want 0.4", got, err)
	}
	// Both raters always yes: κ is undefined, AC1 is 1 (q = 2 for yes/no).
	all := []bool{true, true, true}
	if got, err := CohenKappa(all, all); err == nil {
		t.Errorf("CohenKappa(all yes) = %v, nil; want an error", got)
	}
	if got, err := GwetAC1(all, all); err != nil || got != 1 {
		t.Errorf("GwetAC1(all yes) = %v, %v; want 1", got, err)
	}
}

func TestPairedErrors(t *testing.T) {
	if _, err := CohenKappa([]bool{true}, []bool{true, false}); err == nil {
		t.Errorf("CohenKappa(1 item, 2 items) err = nil; want an error")
	}
	if _, err := PercentAgreement([]bool{}, []bool{}); err == nil {
		t.Errorf("PercentAgreement(empty) err = nil; want an error")
	}
}

// fleiss1971 is the psychiatric-diagnosis data of Fleiss (1971), 6 raters and 5
// categories, in the 15-subject form irrCAC ships as distrib.6raters.
var fleiss1971 = [][]int{
	{0, 0, 0, 6, 0}, {0, 3, 0, 0, 3}, {0, 1, 4, 0, 1}, {0, 0, 0, 0, 6}, {0, 3, 0, 3, 0},
	{2, 0, 4, 0, 0}, {0, 0, 4, 0, 2}, {2, 0, 3, 1, 0}, {2, 0, 0, 4, 0}, {0, 0, 0, 0, 6},
	{1, 0, 0, 5, 0}, {1, 1, 0, 4, 0}, {0, 3, 3, 0, 0}, {1, 0, 0, 5, 0}, {0, 2, 0, 3, 1},
}

// raw4raters is irrCAC's cac.raw4raters (Gwet 2014) as counts: 12 subjects, 4 raters with
// gaps, 5 categories; subject 12 has a single rating.
var raw4raters = [][]int{
	{3, 0, 0, 0, 0}, {0, 3, 1, 0, 0}, {0, 0, 4, 0, 0}, {0, 0, 4, 0, 0},
	{0, 4, 0, 0, 0}, {1, 1, 1, 1, 0}, {0, 0, 0, 4, 0}, {3, 1, 0, 0, 0},
	{0, 4, 0, 0, 0}, {0, 0, 0, 0, 3}, {2, 0, 0, 0, 0}, {0, 0, 1, 0, 0},
}

// wikipedia is the worked Fleiss' kappa example on Wikipedia: 10 subjects, 14 raters,
// 5 categories, P̄ = 0.378, P̄e = 0.213, κ = 0.210.
var wikipedia = [][]int{
	{0, 0, 0, 0, 14}, {0, 2, 6, 4, 2}, {0, 0, 3, 5, 6}, {0, 3, 9, 2, 0}, {2, 2, 8, 1, 1},
	{7, 7, 0, 0, 0}, {3, 2, 6, 3, 0}, {2, 5, 3, 2, 2}, {6, 5, 2, 1, 0}, {0, 2, 2, 3, 7},
}

func TestCountCoefficients(t *testing.T) {
	tests := []struct {
		name                string
		counts              [][]int
		wantFleiss, wantAC1 float64
		tol                 float64
	}{
		// irrCAC: fleiss.kappa.dist 0.4139265, gwet.ac1.dist 0.4448007.
		{"Fleiss 1971", fleiss1971, 0.4139265, 0.4448007, 5e-7},
		// irrCAC: fleiss.kappa.raw 0.76117, gwet.ac1.raw 0.77544 (printed to 5 places).
		{"raw ratings with gaps", raw4raters, 0.76117, 0.77544, 5e-6},
		// By hand: P̄ = 688/1820, Σpj² = 4170/19600, κ = (P̄ − Σpj²)/(1 − Σpj²) ≈ 0.210,
		// AC1 pe = (1 − Σpj²)/4.
		{"Wikipedia", wikipedia, (688.0/1820 - 4170.0/19600) / (1 - 4170.0/19600),
			(688.0/1820 - (1-4170.0/19600)/4) / (1 - (1-4170.0/19600)/4), 1e-12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := FleissKappa(tt.counts); err != nil || !near(got, tt.wantFleiss, tt.tol) {
				t.Errorf("FleissKappa(%s) = %v, %v; want %v", tt.name, got, err, tt.wantFleiss)
			}
			if got, err := GwetAC1Counts(tt.counts); err != nil || !near(got, tt.wantAC1, tt.tol) {
				t.Errorf("GwetAC1Counts(%s) = %v, %v; want %v", tt.name, got, err, tt.wantAC1)
			}
		})
	}
}

func TestCountsMatchTwoRaters(t *testing.T) {
	// With two raters the count form of AC1 is the two-rater AC1 (and Fleiss' kappa is
	// Scott's pi, not Cohen's kappa, so only AC1 is compared).
	table := [][]int{{13, 0, 0}, {0, 20, 7}, {0, 4, 56}}
	a, b := fromTable(table)
	counts := make([][]int, len(a))
	for i := range a {
		counts[i] = make([]int, 3)
		counts[i][a[i]]++
		counts[i][b[i]]++
	}
	want, _ := GwetAC1(a, b)
	if got, err := GwetAC1Counts(counts); err != nil || !near(got, want, 1e-12) {
		t.Errorf("GwetAC1Counts(3x3 as counts) = %v, %v; want %v", got, err, want)
	}
}

func TestCountErrors(t *testing.T) {
	tests := []struct {
		name   string
		counts [][]int
	}{
		{"no subjects", nil},
		{"one category", [][]int{{3}, {2}}},
		{"ragged", [][]int{{1, 1}, {1, 1, 0}}},
		{"negative", [][]int{{1, -1}}},
		{"no pairs", [][]int{{1, 0}, {0, 1}}},
		{"all in one category", [][]int{{3, 0}, {2, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := FleissKappa(tt.counts); err == nil {
				t.Errorf("FleissKappa(%v) = %v, nil; want an error", tt.counts, got)
			}
		})
	}
}
