package seduce

import (
	"slices"
	"testing"
)

// TestParseDev measures the parser on testdata/replies-dev: replies written blind, like
// the held-out sets, but for developing the rules against (issue 29). It logs every
// failure and the figures per family, and fails below the figures the round reached, so
// that a later change cannot lose them unseen.
func TestParseDev(t *testing.T) {
	all := devFigures(t, "testdata/replies-dev/*.jsonl")
	// The figures the rounds of issue 29 reached (2026-12-06). Before them, the parser read
	// 464 of 640 right, with 37 confident wrong rulings and 370 of 462 stated rulings ruled;
	// the second round left 634 and 456, the third 635 and 457.
	const wantRight, wantStatedRuled = 635, 457
	if all.right < wantRight || all.confidentWrong > 0 || all.statedRuled < wantStatedRuled {
		t.Errorf("development figures fell: %d of %d right (was %d), %d confident wrong (was 0), %d of %d stated ruled (was %d)",
			all.right, all.n, wantRight, all.confidentWrong, all.statedRuled, all.stated, wantStatedRuled)
	}
}

// devFigures parses every reply of the files matching pattern, logs each failure and the
// figures per family, and returns the figures of the whole set.
func devFigures(t *testing.T, pattern string) heldoutFigures {
	t.Helper()
	tax := DefaultTaxonomy()
	per := map[string]*heldoutFigures{}
	var all heldoutFigures
	eachJSONLine(t, pattern, func(_ string, _ int, r heldoutReply) {
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
	t.Logf("%-13s %4d  %5.1f%% right  %d confident wrong  %d wrong skill  %5.1f%% of stated ruled", "all", all.n, pct(all.right, all.n),
		all.confidentWrong, all.wrongSkill, pct(all.statedRuled, all.stated))
	return all
}

// TestParseDev2 measures the parser on testdata/replies-dev-2, a second development set
// written blind by another writer (issue 29, third round), the same way as TestParseDev.
func TestParseDev2(t *testing.T) {
	all := devFigures(t, "testdata/replies-dev-2/*.jsonl")
	// First look (2026-12-06), the parser of the round's start: 495 of 640 right, 22
	// confident wrong, 374 of 458 stated ruled; with this round's first rules, written
	// before the set was complete: 518, 11, 375. The round of issue 29 left 607, 1, 433;
	// the one confident wrong (chatty-prose-043) flips twice and lands where it began.
	const wantRight, wantWrong, wantStatedRuled = 607, 1, 433
	if all.right < wantRight || all.confidentWrong > wantWrong || all.statedRuled < wantStatedRuled {
		t.Errorf("development figures fell: %d of %d right (was %d), %d confident wrong (was %d), %d of %d stated ruled (was %d)",
			all.right, all.n, wantRight, all.confidentWrong, wantWrong, all.statedRuled, all.stated, wantStatedRuled)
	}
}
