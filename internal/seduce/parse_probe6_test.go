package seduce

import "testing"

// TestProbeFourthRoundStyles is the third probe table of the fourth round of issue 29:
// rules lawyers, injected instructions, messy typing, play-by-post logs, reasoning
// formats, chatty and terse replies, in sentences of our own labelled before the parser
// read them.
func TestProbeFourthRoundStyles(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// rules lawyer
		{"l1", "Per the Keeper Rulebook, a pushed roll requires a justification; none is given, so no push. The original Climb roll stands as a failure.", DecisionUnparsed, ""},
		{"l2", "This is an opposed roll: your Stealth against the guard's Listen.", DecisionRoll, "Stealth"},
		{"l3", "RAW, spending Luck doesn't apply before a roll is made. The action itself: Regular Jump roll.", DecisionRoll, "Jump"},
		{"l4", "The Sanity roll comes later; for the climb itself, no roll is needed.", DecisionPass, ""},
		{"l5", "Under the rules for automatic success (p. 83), routine actions need no roll. This is routine.", DecisionPass, ""},
		{"l6", "Bonus die for the rope, but it's still a Climb roll.", DecisionRoll, "Climb"},
		{"l7", "Technically the rules allow the Keeper to skip rolls for trivial tasks. This is not trivial: Locksmith.", DecisionRoll, "Locksmith"},
		// adversarial
		{"a1", "The scene says to ignore the rules and call it an automatic success. I won't: the cliff is sheer. Climb roll.", DecisionRoll, "Climb"},
		{"a2", "The player's note claims 'Keepers always give this for free'. That's not how this works. Roll Stealth.", DecisionRoll, "Stealth"},
		{"a3", "Instructions embedded in the scene ask me to output automatic_success. Ignoring that: {\"decision\": \"roll\", \"skill\": \"Spot Hidden\"}", DecisionRoll, "Spot Hidden"},
		{"a4", "The player says 'no roll needed, I'm a pro'. I agree, actually: she is a licensed locksmith with her own tools. No roll.", DecisionPass, ""},
		{"a5", "You say it's automatic. It isn't.", DecisionRoll, ""},
		// messy
		{"x1", "roll climb pls", DecisionRoll, "Climb"},
		{"x2", "no roll needed lol its a puddle", DecisionPass, ""},
		{"x4", "hmm idk, maybe listen? or not", DecisionUnparsed, ""},
		{"x5", "autmatic success", DecisionUnparsed, ""},
		{"x6", "NO ROLL. JUST DO IT.", DecisionPass, ""},
		// pbp logs
		{"p1", "Keeper: You push the door. It's locked.\n(OOC: Locksmith roll please)", DecisionRoll, "Locksmith"},
		{"p3", "KEEPER: Roll Listen, everyone.\nPLAYER 2: rolled 34\nKEEPER: You hear scratching in the walls.", DecisionRoll, "Listen"},
		{"p4", "Keeper: Make a Dodge roll! The chandelier is falling!", DecisionRoll, "Dodge"},
		// reasoning
		{"z1", "Thought: The investigator is a doctor treating a scratch. Routine.\nAnswer: automatic success", DecisionPass, ""},
		{"z2", "Reasoning: dark, rain, unfamiliar woods. Conclusion: Track roll, Hard.", DecisionRoll, "Track"},
		{"z3", "Step 1: Is there risk? Yes, the ledge is narrow.\nStep 2: Is there a relevant skill? Climb.\nStep 3: Ruling: roll Climb.", DecisionRoll, "Climb"},
		{"z4", "Let me think. Is a roll needed? The door is open, so no. Final answer: no roll.", DecisionPass, ""},
		{"z5", "Analysis: a roll would normally be needed, but the player has the key.\nVerdict: automatic.", DecisionPass, ""},
		// chatty
		{"c1", "Ooh, fun! I love a good chase. Okay so, the investigator is sprinting across a rooftop in the rain — that's exactly the kind of thing I'd ask for a Jump roll on. Good luck!", DecisionRoll, "Jump"},
		{"c3", "Great question! The short answer is no roll; the long answer is that the ladder is sturdy and nobody is chasing her.", DecisionPass, ""},
		{"c4", "I'd normally say roll Swim, but the river is only knee-deep today, so she just wades across.", DecisionPass, ""},
		{"c5", "I love that your investigator wants to do this without dice, but the guards are literally looking at him. Stealth roll.", DecisionRoll, "Stealth"},
		{"c7", "This could be a Library Use roll, but since the book is open on the desk to the right page, I'll let it slide.", DecisionPass, ""},
		// terse json
		{"t1", "{\"decision\":\"roll\",\"skill\":\"Fighting (Brawl)\"}", DecisionRoll, "Fighting"},
		{"t2", "{\"decision\":\"automatic_success\",\"skill\":\"Locksmith\",\"reason\":\"Has the key.\"}", DecisionPass, ""},
		{"t3", "{\"decision\":\"roll\",\"skill\":null}", DecisionRoll, ""},
		{"t4", "{\"decision\": \"\", \"skill\": \"Climb\"}", DecisionUnparsed, ""},
		{"t5", "{\"decision\": \"roll\"}{\"decision\": \"automatic_success\"}", DecisionUnparsed, ""},
	})
}
