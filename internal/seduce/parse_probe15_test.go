package seduce

import "testing"

// TestProbeFourthRoundTerse is the twelfth probe table of the fourth round of issue 29:
// rulings in a word or two, with emoji and bars, in sentences of our own labelled before
// the parser read them.
func TestProbeFourthRoundTerse(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"t1", "Roll.", DecisionRoll, ""},
		{"t2", "No.", DecisionUnparsed, ""},
		{"t3", "Auto.", DecisionPass, ""},
		{"t4", "Climb.", DecisionRoll, "Climb"},
		{"t5", "Skill: Climb", DecisionUnparsed, ""},
		{"t6", "Roll — Listen (Hard).", DecisionRoll, "Listen"},
		{"t7", "🎲 Spot Hidden", DecisionRoll, "Spot Hidden"},
		{"t8", "✅ Automatic", DecisionPass, ""},
		{"t9", "No roll ✅", DecisionPass, ""},
		{"t10", "roll: no", DecisionPass, ""},
		{"t11", "Needs roll: no. Skill: n/a.", DecisionPass, ""},
		{"t12", "automatic_success", DecisionPass, ""},
		{"t13", "roll | Stealth", DecisionRoll, "Stealth"},
		{"t15", "Yes, roll. Swim.", DecisionRoll, "Swim"},
		{"t16", "No roll. Yes.", DecisionPass, ""},
		{"t17", "Roll? No. Auto.", DecisionPass, ""},
		{"t18", "Dodge!!!", DecisionRoll, "Dodge"},
		{"t20", "Neither.", DecisionUnparsed, ""},
		{"t21", "Roll, no roll... roll.", DecisionUnparsed, ""},
		{"t22", "N/A", DecisionUnparsed, ""},
		{"t23", "Pass.", DecisionPass, ""},
		{"t24", "Skip the roll.", DecisionPass, ""},
		{"t25", "Don't skip the roll.", DecisionRoll, ""},
	})
}
