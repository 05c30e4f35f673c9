package seduce

import "testing"

// TestProbeFourthRoundTraps is the fourth probe table of the fourth round of issue 29:
// roll words in a pass, pass words in a roll, rulings left open behind firm-looking
// words, other people's rulings and echoed templates, in sentences of our own labelled
// before the parser read them (a skill cut short leaves the roll, as in the development
// sets).
func TestProbeFourthRoundTraps(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// roll words in a pass
		{"q4", "Rolling for this would be silly, she's done it a thousand times.", DecisionPass, ""},
		{"q5", "I'd rather not slow things down with a roll here, so she just does it.", DecisionPass, ""},
		{"q6", "The only roll here would be if someone were chasing him, and nobody is.", DecisionUnparsed, ""},
		{"q7", "A Spot Hidden roll is for things that are hidden. This letter is on the table in plain view.", DecisionUnparsed, ""},
		{"q8", "No one would make you roll to read a street sign.", DecisionPass, ""},
		{"q9", "Dice stay in the box for this one.", DecisionPass, ""},
		{"q10", "You've already succeeded at the Locksmith roll earlier, so the door is open: walk through.", DecisionUnparsed, ""},
		// pass words in a roll
		{"w1", "It's not automatic, not with the guard right there. Stealth.", DecisionRoll, "Stealth"},
		{"w2", "Far from automatic: the rope is frayed. Climb roll.", DecisionRoll, "Climb"},
		{"w3", "Nothing about this is automatic. Roll Dodge.", DecisionRoll, "Dodge"},
		{"w4", "I can't make this an automatic success, the lock is military grade: Locksmith roll.", DecisionRoll, "Locksmith"},
		{"w5", "There's no such thing as an automatic success when bullets are flying. Dodge roll.", DecisionRoll, "Dodge"},
		{"w6", "Success isn't guaranteed. Make a Swim roll.", DecisionRoll, "Swim"},
		{"w7", "You don't get this one for free: Listen roll.", DecisionRoll, "Listen"},
		// open / undecided with firm-looking cues
		{"u1", "Roll Climb or don't, honestly it's up to you.", DecisionUnparsed, ""},
		{"u2", "You could roll Jump, or you could take the bridge.", DecisionUnparsed, ""},
		{"u3", "Make a Stealth roll if you're sneaking, no roll if you just walk in.", DecisionUnparsed, ""},
		{"u4", "A Track roll might be in order, depending on how old the trail is.", DecisionUnparsed, ""},
		{"u5", "Whether she needs a Swim roll depends on the current, which you haven't told me.", DecisionUnparsed, ""},
		{"u6", "I'd need to know how high the wall is before saying whether it's a Climb roll.", DecisionUnparsed, ""},
		{"u7", "Automatic — unless the guard turns around, in which case Stealth.", DecisionUnparsed, ""},
		{"u8", "Climb roll, probably. Or maybe not. I don't know.", DecisionUnparsed, ""},
		{"u9", "No roll, I think? Hmm, actually I'm not sure.", DecisionUnparsed, ""},
		{"u10", "Roll Spot Hidden. Or no roll. Either is fine.", DecisionUnparsed, ""},
		// other people's words
		{"v1", "\"Roll Climb!\" shouts the other player. But I'm the Keeper, and there's a ladder: no roll.", DecisionPass, ""},
		{"v2", "Your player asked for a Luck roll. Sure, but the actual action needs no roll at all.", DecisionPass, ""},
		{"v3", "The module says 'Spot Hidden to notice the door'. I agree: Spot Hidden.", DecisionRoll, "Spot Hidden"},
		{"v4", "My co-Keeper thinks it's automatic. I think it's a Jump roll.", DecisionRoll, "Jump"},
		// truncated / template
		{"y1", "{\"decision\": \"<roll or automatic_success>\", \"skill\": \"<skill>\"}", DecisionUnparsed, ""},
		{"y2", "Decision: [roll/automatic_success]\nSkill: [skill name]", DecisionUnparsed, ""},
		{"y3", "My ruling: roll. Skill: Sw", DecisionRoll, ""},
		{"y4", "After careful thought, the ruling is an automatic succ", DecisionUnparsed, ""},
	})
}
