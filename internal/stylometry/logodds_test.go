package stylometry

import (
	"math"
	"slices"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/seduce"
)

func checkLogOdds(t *testing.T, got, want map[string][]LogOddsTerm) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("LogOdds = %v; want %v", got, want)
	}
	for k, w := range want {
		g := got[k]
		ok := len(g) == len(w)
		for i := 0; ok && i < len(w); i++ {
			ok = g[i].Term == w[i].Term && near(g[i].Z, w[i].Z)
		}
		if !ok {
			t.Errorf("LogOdds[%s] = %v; want %v", k, g, w)
		}
	}
}

// samplesOf makes one sample per statement, all of one style: the word measures do not
// look at the style.
func samplesOf(statements map[string][]string) []seduce.Sample {
	var out []seduce.Sample
	for gen, stmts := range statements {
		for i, s := range stmts {
			out = append(out, seduce.Sample{ID: seduce.SampleID(gen + string(rune('a'+i))), Generator: gen, Style: seduce.StyleNeutral, Statement: s})
		}
	}
	return out
}

// TestSharedWordsNeverRank is the case: every generator says "check", "gate" and
// "expert" equally often and "shadow" at different rates, and each has one word of its
// own. The smoothed idf listed the shared words; ln(N/df) gives them 0, and the planted
// word leads both lists.
func TestSharedWordsNeverRank(t *testing.T) {
	rep, err := Measure(samplesOf(map[string][]string{
		"ann": {"Check the gate, expert: crimson, crimson.", "Check the gate, expert. Crimson shadow, lantern."},
		"bob": {"Check the gate, expert: azure, azure.", "Check the gate, expert. Azure shadow, shadow, lantern."},
		"cy":  {"Check the gate, expert: verdant, verdant.", "Check the gate, expert. Verdant shadow, shadow, shadow."},
	}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	shared := []string{"check", "gate", "expert", "shadow"}
	for gen, planted := range map[string]string{"ann": "crimson", "bob": "azure", "cy": "verdant"} {
		t.Run(gen, func(t *testing.T) {
			terms := rep.Terms[gen]
			for _, term := range terms {
				if slices.Contains(shared, term.Term) {
					t.Errorf("Terms[%s] = %v; lists %q, which every generator uses", gen, terms, term.Term)
				}
				if term.Score <= 0 {
					t.Errorf("Terms[%s] = %v; lists %q with score %v", gen, terms, term.Term, term.Score)
				}
			}
			if len(terms) == 0 || terms[0].Term != planted {
				t.Errorf("Terms[%s] = %v; want %s first", gen, terms, planted)
			}
			if odds := rep.LogOdds[gen]; len(odds) == 0 || odds[0].Term != planted || odds[0].Z <= 0 {
				t.Errorf("LogOdds[%s] = %v; want %s first with a positive z", gen, odds, planted)
			}
		})
	}
}

// TestLogOddsHandComputed checks every z of a three-generator toy set against the
// paper's formula written out with the counts. ann: crimson 2, gate 1, check 1 (n 4);
// bob: gate 1, check 1, azure 1 (n 3); cy: gate 1, check 1, azure 2 (n 4). The prior is
// the corpus: a_0 = 11; a_w = crimson 2, gate 3, check 3, azure 3. For ann's crimson:
// (2+2)/(4+11-2-2) = 4/11 against the others' (0+2)/(7+11-0-2) = 2/16, variance
// 1/(2+2) + 1/(0+2).
func TestLogOddsHandComputed(t *testing.T) {
	rep, err := Measure(samplesOf(map[string][]string{
		"ann": {"crimson gate", "crimson check"},
		"bob": {"gate check", "azure"},
		"cy":  {"gate check azure azure"},
	}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// gate and check have the same counts everywhere, so they tie and go by name; bob's
	// three words have the same counts too.
	annShared := (math.Log(4.0/11) - math.Log(5.0/13)) / math.Sqrt(1.0/4+1.0/5)
	bob := (math.Log(4.0/10) - math.Log(5.0/14)) / math.Sqrt(1.0/4+1.0/5)
	cyShared := (math.Log(4.0/11) - math.Log(5.0/13)) / math.Sqrt(1.0/4+1.0/5)
	want := map[string][]LogOddsTerm{
		"ann": {{"crimson", (math.Log(4.0/11) - math.Log(2.0/16)) / math.Sqrt(1.0/4+1.0/2)}, {"check", annShared}, {"gate", annShared}},
		"bob": {{"azure", bob}, {"check", bob}, {"gate", bob}},
		"cy":  {{"azure", (math.Log(5.0/10) - math.Log(4.0/14)) / math.Sqrt(1.0/5+1.0/4)}, {"check", cyShared}, {"gate", cyShared}},
	}
	checkLogOdds(t, rep.LogOdds, want)
	// Spot values worked out apart (Python), so the test and the code cannot share a slip.
	if z := rep.LogOdds["ann"][0].Z; math.Abs(z-1.2330) > 1e-4 {
		t.Errorf("z(ann, crimson) = %.6f; want 1.2330", z)
	}
	if z := rep.LogOdds["cy"][0].Z; math.Abs(z-0.8342) > 1e-4 {
		t.Errorf("z(cy, azure) = %.6f; want 0.8342", z)
	}
}

// TestNothingToCompare covers the lists that must come out empty (and not null): one
// document has no other to be set apart from, and a corpus of a single word has odds
// of infinity against infinity.
func TestNothingToCompare(t *testing.T) {
	tests := []struct {
		name string
		docs map[string]map[string]int
	}{
		{"one document", map[string]map[string]int{"solo": {"gate": 3, "crimson": 1}}},
		{"one word in all", map[string]map[string]int{"ann": {"gate": 2}, "bob": {"gate": 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			terms, odds := TFIDF(tt.docs, 20), LogOdds(tt.docs, 20)
			for k := range tt.docs {
				if terms[k] == nil || len(terms[k]) != 0 {
					t.Errorf("TFIDF[%s] = %#v; want an empty list", k, terms[k])
				}
				if odds[k] == nil || len(odds[k]) != 0 {
					t.Errorf("LogOdds[%s] = %#v; want an empty list", k, odds[k])
				}
			}
		})
	}
}
