package seduce

import "testing"

// TestProbeFourthRoundDeclinesAndValues is the eighth probe table of the fourth round of
// issue 29: first-person "can't" and "won't" that rule, refusals and requests for more,
// reasoning blocks, and decision values that hedge or wait on a condition, in sentences
// of our own labelled before the parser read them.
func TestProbeFourthRoundDeclinesAndValues(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"r1", "I can't help but think this needs a Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		{"r2", "I won't lie, this one's a Climb roll.", DecisionRoll, "Climb"},
		{"r3", "I refuse to let her waltz past the guards: Stealth roll.", DecisionRoll, "Stealth"},
		{"r4", "I'm not able to see the map you mentioned, but from the description, no roll is needed.", DecisionPass, ""},
		{"r5", "I cannot stress enough how dangerous this is. Dodge roll.", DecisionRoll, "Dodge"},
		{"r6", "Sorry, I can't make that call without knowing how far the jump is.", DecisionUnparsed, ""},
		{"r7", "I'd rather not say. It's your table.", DecisionRefused, ""},
		{"r8", "I decline. Next question.", DecisionRefused, ""},
		{"r9", "I won't help with content like this, but if you change the scene I'm happy to rule.", DecisionRefused, ""},
		{"r10", "I'm sorry, but I can't determine that.", DecisionUnparsed, ""},
		{"k1", "<think>They need a Climb roll. Or no roll? The wall is low.</think>\n\nNo roll; the wall is waist-high.", DecisionPass, ""},
		{"k2", "<think>Climb.</think>\n{\"decision\": \"roll\", \"skill\": \"Climb\"}", DecisionRoll, "Climb"},
		{"k3", "<thinking>\nIs it risky? Not really.\n</thinking>\nDecision: automatic_success", DecisionPass, ""},
		{"k4", "<think>\nOkay the ruling should be", DecisionUnparsed, ""},
		{"k5", "</think>\nRoll Listen.", DecisionRoll, "Listen"},
		{"d1", "Decision: roll (probably)\nSkill: Climb", DecisionUnparsed, ""},
		{"d2", "Decision: roll, though I could be persuaded otherwise\nSkill: Climb", DecisionUnparsed, ""},
		{"d3", "Decision: automatic success — unless she's carrying the idol\nSkill: none", DecisionUnparsed, ""},
		{"d4", "Decision: roll\nSkill: Climb\nDecision: roll\nSkill: Climb", DecisionRoll, "Climb"},
		{"d5", "Decision: roll\nSkill: Jump or Climb", DecisionRoll, ""},
		{"d6", "DECISION - ROLL\nSKILL - SWIM", DecisionRoll, "Swim"},
		{"d7", "Verdict: no roll. Reason: she has done it a hundred times.", DecisionPass, ""},
		{"d8", "Result: Roll required (Stealth)", DecisionRoll, "Stealth"},
		{"d9", "Answer: it depends", DecisionUnparsed, ""},
	})
}
