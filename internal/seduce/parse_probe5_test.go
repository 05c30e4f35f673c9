package seduce

import "testing"

// Probe tables of the fifth round of issue 29, whose priority is precision on replies
// nobody has shown the parser: sentences written by kind, each labelled under spec
// section 3 before the parser read it.

// TestProbeFifthRoundGate holds replies whose prose ruling is followed by words no rule
// reads, or by a correction: the precision gate leaves them unparsed rather than guess,
// and leaves alone the ruling whose deliberation comes before it, a counterfactual
// beside it and an amendment that keeps it.
func TestProbeFifthRoundGate(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// a ruling, then ruling words no rule reads: the last word is unread
		{"u1", "No roll for the stairs. Though the dice might still get a look in once the lights go out, if he lingers.", DecisionUnparsed, ""},
		{"u2", "Automatic success. Dice, though, when the floorboards start to give.", DecisionUnparsed, ""},
		{"u3", "Roll Climb. Automatic for anyone with a rope, of course, and she has two.", DecisionUnparsed, ""},
		// deliberation before the ruling: the ruling after it stands
		{"d1", "My gut said dice at first. Thinking it over, the ledge is wide and dry. No roll.", DecisionPass, ""},
		{"d2", "The fog rolls in thick off the river. Give me a Stealth roll to get past the watchman.", DecisionRoll, "Stealth"},
		{"d3", "Sorry to the dice fans at the table, but this one is automatic.", DecisionPass, ""},
		// a counterfactual about another world beside the ruling
		{"c1", "No roll: the map is in English. If it were in Aklo we'd be talking about a Cthulhu Mythos roll.", DecisionPass, ""},
		// a correction after the ruling that takes it back, or that keeps it
		{"r1", "Roll Dodge. Actually, no — the cart is still fifty yards off, he just steps aside.", DecisionUnparsed, ""},
		{"r2", "No roll needed. Wait, the rope is frayed — that's a Climb roll after all.", DecisionUnparsed, ""},
		{"r3", "Jet de Discrétion. Non, attendez : le garde dort, aucun jet.", DecisionUnparsed, ""},
		{"r4", "Roll Listen. Actually, make that Listen with a penalty die, the storm is loud.", DecisionRoll, "Listen"},
		{"r5", "Roll Spot Hidden — actually, on second thought, it really is a Spot Hidden roll, the note is tucked away.", DecisionRoll, "Spot Hidden"},
		{"r6", "Roll Stealth. Post your rolls when you can, I'll update the thread tonight.", DecisionRoll, "Stealth"},
	})
}
