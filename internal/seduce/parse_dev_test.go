package seduce

import "testing"

// TestParseDev measures the parser on testdata/replies-dev: replies written blind, like
// the held-out sets, but for developing the rules against (issue 29). It logs every
// failure and the figures per family, and fails below the figures the round reached, so
// that a later change cannot lose them unseen.
func TestParseDev(t *testing.T) {
	all := measureReplies(t, "testdata/replies-dev/*.jsonl")
	// The figures the rounds of issue 29 reached (2026-12-06). Before them, the parser read
	// 464 of 640 right, with 37 confident wrong rulings and 370 of 462 stated rulings ruled;
	// the second round left 634 and 456, the third 635 and 457; the fourth (which added
	// grammar, not rules for this set's misses) left 635 and 457 too, and so did the
	// fifth (a precision gate and grammar for kinds of the other sets). The sixth to
	// eighth rounds left 636 and 458, the ninth 637 and 459.
	const wantRight, wantStatedRuled = 637, 459
	if all.right < wantRight || all.confidentWrong > 0 || all.statedRuled < wantStatedRuled {
		t.Errorf("development figures fell: %d of %d right (was %d), %d confident wrong (was 0), %d of %d stated ruled (was %d)",
			all.right, all.n, wantRight, all.confidentWrong, all.statedRuled, all.stated, wantStatedRuled)
	}
}

// TestParseDev2 measures the parser on testdata/replies-dev-2, a second development set
// written blind by another writer (issue 29, third round), the same way as TestParseDev.
func TestParseDev2(t *testing.T) {
	all := measureReplies(t, "testdata/replies-dev-2/*.jsonl")
	// First look (2026-12-06), the parser of the round's start: 495 of 640 right, 22
	// confident wrong, 374 of 458 stated ruled; with this round's first rules, written
	// before the set was complete: 518, 11, 375. The round of issue 29 left 607, 1, 433;
	// the one confident wrong (chatty-prose-043) flips twice and lands where it began.
	// The fourth round left 607, 1, 433: its remaining misses are labels that disagree
	// with the corpus's (JSON cut in its reason is unparsed there, a ruling here) or
	// kinds no grammar of this round reads. The fifth round left 607, 1, 433: the one
	// confident wrong corrects itself twice and rules last as it began. The sixth to
	// eighth rounds left 614, 0, 437; the ninth 618, 0, 438 (it relabelled markdown-052,
	// "~~Roll~~ Automatic success", unparsed as set 8 labels the same reply).
	const wantRight, wantWrong, wantStatedRuled = 618, 0, 438
	if all.right < wantRight || all.confidentWrong > wantWrong || all.statedRuled < wantStatedRuled {
		t.Errorf("development figures fell: %d of %d right (was %d), %d confident wrong (was %d), %d of %d stated ruled (was %d)",
			all.right, all.n, wantRight, all.confidentWrong, wantWrong, all.statedRuled, all.stated, wantStatedRuled)
	}
}
