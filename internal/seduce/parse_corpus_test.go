package seduce

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// corpusReply is one labelled reply of testdata/replies: written in the manner of one
// family of models and labelled by hand under spec section 3.
type corpusReply struct {
	Text     string   `json:"text"`
	Decision Decision `json:"decision"`
	Skill    string   `json:"skill"`
	Style    string   `json:"style"`
	Reason   string   `json:"reason"`
}

// eachJSONLine decodes every line of the JSONL files matching pattern into a new T and
// hands it to each with its file and line number; a line that is not T fails the test.
func eachJSONLine[T any](t *testing.T, pattern string, each func(path string, n int, v T)) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files match %s (%v)", pattern, err)
	}
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			var v T
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				t.Fatalf("%s:%d: %v", path, n, err)
			}
			each(path, n, v)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
}

func readCorpus(t *testing.T) []corpusReply {
	t.Helper()
	var out []corpusReply
	eachJSONLine(t, "testdata/replies/*.jsonl", func(path string, n int, r corpusReply) {
		switch r.Decision {
		case DecisionRoll, DecisionPass, DecisionRefused, DecisionUnparsed:
		default:
			t.Fatalf("%s:%d: decision %q is not a label", path, n, r.Decision)
		}
		if r.Style == "" || r.Reason == "" {
			t.Fatalf("%s:%d: style and reason are required", path, n)
		}
		out = append(out, r)
	})
	return out
}

func readCorpusTexts(t *testing.T) []string {
	var out []string
	for _, r := range readCorpus(t) {
		out = append(out, r.Text)
	}
	return out
}

// corpusRight says whether got is the label: the same decision and, when the label
// names a skill and got names one, the same skill.
func corpusRight(r corpusReply, got Parsed) bool {
	if got.Decision != r.Decision {
		return false
	}
	return r.Skill == "" || got.Skill == "" || strings.EqualFold(got.Skill, r.Skill)
}

// TestParseCorpus scores the parser on the labelled corpus: at least 97% right, and no
// confident ruling where the label is the opposite ruling or unparsed (a wrong abstention
// costs coverage; a wrong ruling moves a published failure rate).
func TestParseCorpus(t *testing.T) {
	corpus := readCorpus(t)
	if len(corpus) < 300 {
		t.Fatalf("corpus has %d replies; want at least 300", len(corpus))
	}
	tax := DefaultTaxonomy()
	type tally struct{ n, right, confidentWrong, skillWrong int }
	per := map[string]*tally{}
	var all tally
	for _, r := range corpus {
		got := ParseReply(r.Text, tax)
		s := per[r.Style]
		if s == nil {
			s = &tally{}
			per[r.Style] = s
		}
		s.n++
		all.n++
		right := corpusRight(r, got)
		if right {
			s.right++
			all.right++
			continue
		}
		confident := got.Decision == DecisionRoll || got.Decision == DecisionPass
		switch {
		case confident && got.Decision != r.Decision:
			s.confidentWrong++
			all.confidentWrong++
			t.Errorf("confident wrong: ParseReply(%q) = %v [%s %q]; want %s %s (%s)", r.Text, got, got.Rule, got.Span, r.Decision, r.Skill, r.Reason)
		case got.Decision == r.Decision:
			s.skillWrong++
			all.skillWrong++
			t.Logf("skill: ParseReply(%q) = %v; want skill %s (%s)", r.Text, got, r.Skill, r.Reason)
		default:
			t.Logf("miss: ParseReply(%q) = %v [%s]; want %s (%s)", r.Text, got, got.Rule, r.Decision, r.Reason)
		}
	}
	styles := slices.Sorted(func(yield func(string) bool) {
		for k := range per {
			if !yield(k) {
				return
			}
		}
	})
	if len(styles) < 6 {
		t.Errorf("corpus has %d styles; want at least 6", len(styles))
	}
	for _, st := range styles {
		s := per[st]
		t.Logf("%-13s %4d replies  %5.1f%% right  %d confident wrong  %d wrong skill", st, s.n, 100*float64(s.right)/float64(s.n), s.confidentWrong, s.skillWrong)
	}
	t.Logf("%-13s %4d replies  %5.1f%% right  %d confident wrong  %d wrong skill", "all", all.n, 100*float64(all.right)/float64(all.n), all.confidentWrong, all.skillWrong)
	if all.right*100 < all.n*97 {
		t.Errorf("%d of %d right (%.1f%%); want at least 97%%", all.right, all.n, 100*float64(all.right)/float64(all.n))
	}
	// The round of issue 29 (2026-12-06) left 880 of 880 right (877 before it).
	if all.right < 880 {
		t.Errorf("%d of %d right; the round of issue 29 reached 880", all.right, all.n)
	}
}
