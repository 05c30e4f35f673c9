package seduce

import "testing"

// TestProbeFourthRoundHedges is the ninth probe table of the fourth round of issue 29:
// hedged rulings beside firm ones ("no doubt", "little doubt" affirm; "most likely" and
// "I'm not confident" hedge) and a game master's banter, in sentences of our own
// labelled before the parser read them.
func TestProbeFourthRoundHedges(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"h1", "I'd probably call for a Climb roll.", DecisionUnparsed, ""},
		{"h3", "A Listen roll, I suppose, though the radio is loud.", DecisionUnparsed, ""},
		{"h4", "Could be a Jump roll. Could be nothing. Your call.", DecisionUnparsed, ""},
		{"h5", "It's borderline. I lean towards no roll.", DecisionUnparsed, ""},
		{"h6", "I'm inclined to say Stealth.", DecisionUnparsed, ""},
		{"h7", "If pressed, I'd say automatic.", DecisionUnparsed, ""},
		{"h8", "Arguably a Spot Hidden roll.", DecisionUnparsed, ""},
		{"h9", "It seems like it should be a Track roll, but I'm not confident.", DecisionUnparsed, ""},
		{"h10", "Most likely no roll.", DecisionUnparsed, ""},
		{"h11", "Definitely a Dodge roll. No question.", DecisionRoll, "Dodge"},
		{"h12", "I'm confident: no roll.", DecisionPass, ""},
		{"h14", "No doubt about it: automatic.", DecisionPass, ""},
		{"h15", "I have no doubt she needs a Swim roll.", DecisionRoll, "Swim"},
		{"h16", "There's little doubt this is a Climb roll.", DecisionRoll, "Climb"},
		{"h17", "I doubt a roll is needed.", DecisionPass, ""},
		{"h18", "I'm fairly sure no roll is needed.", DecisionPass, ""},
		{"h19", "It's hard to say whether this needs a roll.", DecisionUnparsed, ""},
		{"h20", "Roll? Eh. Fine. Roll Climb.", DecisionRoll, "Climb"},
		{"b1", "Bro it's a door. Open it.", DecisionUnparsed, ""},
		{"b2", "LOL no. Walk in.", DecisionUnparsed, ""},
		{"b3", "Roll it, coward.", DecisionRoll, ""},
		{"b6", "Give it a go — Jump!", DecisionRoll, "Jump"},
		{"b8", "Not this time, no dice. It's a puddle.", DecisionPass, ""},
	})
}
