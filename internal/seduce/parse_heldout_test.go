package seduce

import (
	"slices"
	"strings"
	"testing"
)

// heldoutReply is one reply of testdata/replies-heldout: written blind, by a writer who
// never read the parser, its rules, lexicons or tests, and labelled under spec section 3.
type heldoutReply struct {
	ID       string   `json:"id"`
	Style    string   `json:"style"`
	Text     string   `json:"text"`
	Decision Decision `json:"decision"`
	Skill    string   `json:"skill"`
	Stated   bool     `json:"stated"`
	Kind     string   `json:"kind"`
	Reason   string   `json:"reason"`
}

// heldoutFigures are the parser's figures on a set of labelled replies.
type heldoutFigures struct {
	n, right, confidentWrong, wrongSkill int
	stated, statedRuled                  int
}

func (f *heldoutFigures) add(r heldoutReply, got Parsed) (right, confidentWrong bool) {
	f.n++
	ruled := got.Decision == DecisionRoll || got.Decision == DecisionPass
	if r.Stated {
		f.stated++
		if ruled {
			f.statedRuled++
		}
	}
	switch {
	case got.Decision != r.Decision:
		if ruled {
			f.confidentWrong++
			return false, true
		}
		return false, false
	case r.Skill != "" && !strings.EqualFold(got.Skill, r.Skill):
		f.wrongSkill++
		return false, false
	}
	f.right++
	return true, false
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// TestParseHeldout measures the parser on the held-out reply sets, which nobody tunes
// the rules to: each is read once at the end of a round. It logs the figures per style
// (right, confident rulings against the label, wrong skills, stated rulings ruled) and
// fails below the figures the round measured, so that a later change cannot lose what
// was reached without anyone seeing it. Issue 29's targets are higher: 97% right, no
// confident wrong ruling and 95% of stated rulings ruled. testdata/replies-heldout-10 is
// read by no test: it is kept for measuring the next round, once.
func TestParseHeldout(t *testing.T) {
	for _, set := range []struct {
		name, glob string
		// the figures a round measured: at least right and stated ruled, at most
		// confident wrong
		right, confidentWrong, statedRuled int
	}{
		// Set 1, measured at the end of the first round of issue 29: 395 of 507 right, 17
		// confident wrong, 305 of 366 stated ruled (before that round's rules: 366, 22,
		// 284); after the second round: 429, 8, 321; after the third: 445, 8, 327. The
		// fourth round developed on it (it is no longer held out): 494, 0, 356; after the
		// sixth and seventh rounds: 499, 0, 360 and 503, 0, 362; after the eighth and ninth:
		// 504, 0, 363 and 505, 0, 364.
		{"set1", "testdata/replies-heldout/*.jsonl", 505, 0, 364},
		// Set 2, measured once at the end of the second round: 378 of 448 right, 11
		// confident wrong, 296 of 330 stated ruled (the first round's rules: 356, 14, 284);
		// after the third round: 395, 9, 303. The fourth round developed on it (it is no
		// longer held out): 435, 0, 319; after the sixth and seventh rounds: 438, 0, 322
		// and 441, 0, 324; after the ninth: 443, 0, 326.
		{"set2", "testdata/replies-heldout-2/*.jsonl", 443, 0, 326},
		// Set 3, measured once at the end of the third round: 416 of 480 right, 14
		// confident wrong, 320 of 355 stated ruled (the second round's rules: 404, 15,
		// 317; the first round's: 360, 17, 288). Sets 1 and 2 after the third round: 445,
		// 8, 327 and 395, 9, 303. The fourth round measured it without reading it, at its
		// middle (422, 14, 322) and end (427, 11, 324). The fifth round measured it at its
		// middle and end without change (427, 11, 324); a failing run of that round
		// printed its misses once, late, after the rules were written: no rule was
		// written from them, but it is no longer wholly unseen. The sixth round developed on
		// it: 456, 1, 336; the seventh: 463, 0, 341; the eighth: 465, 0, 343; the ninth: 470, 0,
		// 346.
		{"set3", "testdata/replies-heldout-3/*.jsonl", 470, 0, 346},
		// Set 4, written blind in the third round's stop and measured once at the end of
		// the fourth round: 411 of 480 right, 18 confident wrong, 314 of 350 stated ruled
		// (the third round's rules: 402, 22, 310). The fifth round developed on it (it is
		// no longer held out): 427, 3, 313 — a name struck through is withdrawn now, which
		// costs 2 ruled (markdown-005, a roll read with the struck skill; markdown-026) for
		// 1 confident wrong fewer (markdown-026, read as a roll of the struck skill). The
		// sixth round: 446, 0, 319; the seventh: 451, 0, 322; the eighth: 452, 0, 323. The
		// ninth relabelled markdown-043 ("~~Roll~~ Automatic success", a struck ruling before
		// another: a visible self-correction, as set 8 labels the same reply) unparsed, so
		// 349 rulings are stated now: 457, 0, 326.
		{"set4", "testdata/replies-heldout-4/*.jsonl", 457, 0, 326},
		// Set 5, written blind in the fourth round's stop and measured once at the end of
		// the fifth round: 435 of 480 right, 11 confident wrong, 318 of 347 stated ruled
		// (the fourth round's rules: 434, 12, 318). The sixth round developed on it: 472,
		// 0, 340; the seventh to ninth: 477, 0, 344.
		{"set5", "testdata/replies-heldout-5/*.jsonl", 477, 0, 344},
		// Set 6, written blind in the fifth round's stop and measured once at the end of
		// the sixth round: 436 of 480 right, 9 confident wrong, 325 of 351 stated ruled
		// (the fifth round's rules: 420, 11, 312). The seventh round developed on it: 464,
		// 0, 337; the eighth: 467, 0, 340; the ninth: 471, 0, 343.
		{"set6", "testdata/replies-heldout-6/*.jsonl", 471, 0, 343},
		// Set 7, written blind in the sixth round's stop and measured once at the end of
		// the seventh round: 433 of 480 right, 9 confident wrong, 327 of 355 stated ruled
		// (the sixth round's rules: 430, 12, 327; the fifth's: 423, 12, 322). One of its
		// lines (refusals-022, an error object) was seen by a seventh-round helper whose
		// grep reached it; the rule for error objects came from set 6. The eighth round
		// developed on it: 466, 0, 343; the ninth: 468, 0, 344.
		{"set7", "testdata/replies-heldout-7/*.jsonl", 468, 0, 344},
		// Set 8, written blind in the seventh round's stop and measured once at the end of
		// the eighth round: 435 of 480 right, 6 confident wrong, 321 of 347 stated ruled
		// (the seventh round's rules: 434, 6, 320; the sixth's: 428, 6, 317; the fifth's:
		// 413, 11, 308). The ninth round developed on it: 476, 0, 343.
		{"set8", "testdata/replies-heldout-8/*.jsonl", 476, 0, 343},
		// Set 9, written blind in the eighth round's stop and measured once at the end of
		// the ninth round: 435 of 480 right, 6 confident wrong, 312 of 348 stated ruled. The
		// eighth round's rules read it better: 438, 6, 315. The ninth round's hedges ("I
		// might be wrong …, but", "My instinct says Jump, and I'll commit to that") cost two
		// rulings the reply makes firm, and a player's "no roll?" beside the Keeper's "no
		// roll" reads as two rulings: the first round whose rules lost ground on a set
		// nobody had seen.
		{"set9", "testdata/replies-heldout-9/*.jsonl", 435, 6, 312},
	} {
		t.Run(set.name, func(t *testing.T) {
			all := measureReplies(t, set.glob)
			if all.right < set.right || all.confidentWrong > set.confidentWrong || all.statedRuled < set.statedRuled {
				t.Errorf("held-out figures fell: %d right (was %d), %d confident wrong (was %d), %d of %d stated ruled (was %d)",
					all.right, set.right, all.confidentWrong, set.confidentWrong, all.statedRuled, all.stated, set.statedRuled)
			}
		})
	}
}

// measureReplies parses every labelled reply of the files matching glob with the default
// taxonomy, logs each failure, the figures per style and the whole set's figures, and
// returns the last. The held-out and development tests share it.
func measureReplies(t *testing.T, glob string) heldoutFigures {
	t.Helper()
	tax := DefaultTaxonomy()
	per := map[string]*heldoutFigures{}
	var all heldoutFigures
	eachJSONLine(t, glob, func(_ string, _ int, r heldoutReply) {
		got := ParseReply(r.Text, tax)
		s := per[r.Style]
		if s == nil {
			s = &heldoutFigures{}
			per[r.Style] = s
		}
		s.add(r, got)
		right, wrong := all.add(r, got)
		switch {
		case wrong:
			t.Logf("confident wrong %s [%s]: ParseReply(%q) = %v [%s %q]; want %s %s (%s)", r.ID, r.Kind, r.Text, got, got.Rule, got.Span, r.Decision, r.Skill, r.Reason)
		case !right:
			t.Logf("miss %s [%s]: ParseReply(%q) = %v [%s %q]; want %s %s (%s)", r.ID, r.Kind, r.Text, got, got.Rule, got.Span, r.Decision, r.Skill, r.Reason)
		}
	})
	for _, st := range slices.Sorted(mapKeys(per)) {
		s := per[st]
		t.Logf("%-13s %4d  %5.1f%% right  %d confident wrong  %d wrong skill  %5.1f%% of stated ruled", st, s.n, pct(s.right, s.n),
			s.confidentWrong, s.wrongSkill, pct(s.statedRuled, s.stated))
	}
	t.Logf("%-13s %4d  %5.1f%% right (%d)  %d confident wrong  %d wrong skill  %5.1f%% of stated ruled (%d of %d)", "all", all.n,
		pct(all.right, all.n), all.right, all.confidentWrong, all.wrongSkill, pct(all.statedRuled, all.stated), all.statedRuled, all.stated)
	return all
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
