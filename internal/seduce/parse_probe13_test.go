package seduce

import "testing"

// TestProbeFourthRoundPartsAndQuestions is the tenth probe table of the fourth round of
// issue 29: rulings on parts of the action, questions the reply answers itself, and
// other people's words, in sentences of our own labelled before the parser read them.
func TestProbeFourthRoundPartsAndQuestions(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"p1", "Opening the gate: free. Crossing the yard unseen: Stealth.", DecisionRoll, "Stealth"},
		{"p2", "The first part is automatic; the second part needs a Jump roll.", DecisionRoll, "Jump"},
		{"p3", "No roll to find the house. Once inside, though, spotting the hidden safe is a Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		{"p4", "He doesn't need to roll to swim out to the boat, but climbing aboard in the swell does take a Climb roll.", DecisionRoll, "Climb"},
		{"q1", "Does she need a roll? No. Does she need luck? Also no.", DecisionPass, ""},
		{"q3", "Would I ask for a Climb roll here? Absolutely.", DecisionRoll, "Climb"},
		{"q5", "Why would anyone roll for that?", DecisionUnparsed, ""},
		{"q6", "Roll for it? Hmm... yes, Library Use.", DecisionRoll, "Library Use"},
		{"q7", "A Stealth roll? Not needed — everyone's asleep.", DecisionPass, ""},
		{"q8", "What do you think, Climb? Yeah, Climb.", DecisionRoll, "Climb"},
		{"s1", "She says, \"I don't need to roll for this.\" She's wrong: Climb roll.", DecisionRoll, "Climb"},
		{"s2", "'No roll needed,' says the player. Agreed.", DecisionUnparsed, ""},
		{"s3", "As the rulebook puts it, 'roll only when failure is interesting.' Failure isn't interesting here. No roll.", DecisionPass, ""},
		{"s4", "Your friend shouted \"Dodge!\" but the car is fifty metres away. No roll.", DecisionPass, ""},
	})
}
