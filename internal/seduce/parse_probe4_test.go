package seduce

import "testing"

// TestProbeFourthRound holds sentences written for the fourth round of issue 29 in the
// ways an LLM Keeper words a ruling, by kind (negation scope, hedges and conditions,
// corrections, other people's words, game-master phrasing, truncation, refusals, parts of
// the action), each labelled under spec section 3 before the parser was run on it. They
// found this round's confident wrong rulings before any test set did.
func TestProbeFourthRound(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// negation scope
		{"n1", "I really can't picture him getting over that wall without a Climb roll.", DecisionRoll, "Climb"},
		{"n4", "There's no reason at all for a Spot Hidden roll; the note is taped to the mirror.", DecisionPass, ""},
		{"n5", "I wouldn't dream of skipping the Dodge roll here.", DecisionRoll, "Dodge"},
		{"n6", "Nobody in their right mind would wave this through without a Swim roll.", DecisionRoll, "Swim"},
		{"n7", "I don't think this needs a roll at all.", DecisionPass, ""},
		{"n8", "I don't think you can avoid a Stealth roll here.", DecisionRoll, "Stealth"},
		{"n9", "No Keeper I know would skip the Listen roll for a whisper through a wall.", DecisionRoll, "Listen"},
		{"n10", "It's not that he needs a Jump roll; he just steps over the gap.", DecisionPass, ""},
		{"n11", "Skipping the Track roll here would be a mistake.", DecisionRoll, "Track"},
		{"n12", "There's hardly any need for dice here.", DecisionPass, ""},
		{"n13", "You never need to roll to walk down a corridor.", DecisionPass, ""},
		{"n14", "She can't just stroll past the sentries; Stealth roll.", DecisionRoll, "Stealth"},
		{"n15", "Without a Medicine roll, there's no way to know what the powder is.", DecisionRoll, "Medicine"},
		// hedges, conditions
		{"h1", "Probably a Spot Hidden roll, but I could see an argument for no roll.", DecisionUnparsed, ""},
		{"h2", "If the guard is asleep, he walks past; if not, Stealth.", DecisionUnparsed, ""},
		{"h3", "Depending on how dark it is, either a Spot Hidden roll or nothing at all.", DecisionUnparsed, ""},
		{"h4", "I'd lean toward a Climb roll, but honestly it could go either way.", DecisionUnparsed, ""},
		{"h5", "Maybe a Jump roll? Or maybe she just makes it. Hard to say.", DecisionUnparsed, ""},
		{"h6", "She needs a Swim roll only if the boat capsizes.", DecisionUnparsed, ""},
		{"h7", "Assuming the door is unlocked, no roll is needed.", DecisionUnparsed, ""},
		{"h8", "Unless the floor is rotten, he crosses without a roll.", DecisionUnparsed, ""},
		{"h9", "I'm torn between a Listen roll and letting it through.", DecisionUnparsed, ""},
		{"h10", "Tough call. I'll say a Listen roll.", DecisionRoll, "Listen"},
		{"h12", "Roll Stealth, unless you'd rather wait for the guard to leave.", DecisionUnparsed, ""},
		// contradictions, corrections
		{"c1", "Make a Climb roll. Actually no, there's a ladder right there. No roll.", DecisionUnparsed, ""},
		{"c2", "{\"decision\": \"automatic_success\", \"skill\": null}\nOn reflection, make that a Swim roll.", DecisionUnparsed, ""},
		{"c3", "No roll needed. Hmm, wait, the floor is icy. Make it a Jump roll.", DecisionUnparsed, ""},
		{"c4", "{\"decision\": \"roll\", \"skill\": \"Listen\", \"reason\": \"Honestly it's loud enough that no roll is needed.\"}", DecisionUnparsed, ""},
		{"c5", "Decision: roll\nSkill: Stealth\n\nThen again, the guards are drunk, so maybe not.", DecisionUnparsed, ""},
		{"c6", "I was going to ask for a Spot Hidden roll, but the letter is in plain sight, so no roll.", DecisionPass, ""},
		// other people, quotes
		{"o1", "The player insists she doesn't need a Climb roll. She does: Climb.", DecisionRoll, "Climb"},
		{"o2", "\"Surely that's automatic?\" you ask. It isn't. Make a Locksmith roll.", DecisionRoll, "Locksmith"},
		{"o3", "Your friend says it should be a Jump roll. I disagree: it's a puddle, no roll.", DecisionPass, ""},
		{"o4", "Some groups would roll Library Use for this. At my table, no roll.", DecisionPass, ""},
		// plain rulings, GM phrasing
		{"g1", "Roll me a Listen, quick.", DecisionRoll, "Listen"},
		{"g2", "That's a Dodge roll, right now!", DecisionRoll, "Dodge"},
		{"g3", "You'll want to roll First Aid for that gash.", DecisionRoll, "First Aid"},
		{"g4", "Let's see a Track roll.", DecisionRoll, "Track"},
		{"g5", "Go on then, roll your Swim.", DecisionRoll, "Swim"},
		{"g6", "It'll take a Mechanical Repair roll to get the engine going.", DecisionRoll, "Mechanical Repair"},
		{"g7", "This calls for Library Use.", DecisionRoll, "Library Use"},
		{"g8", "No dice. You just open it.", DecisionPass, ""},
		{"g9", "Automatic. It's your own front door.", DecisionPass, ""},
		{"g10", "No need to roll, the path is clear.", DecisionPass, ""},
		{"g11", "This one's on the house, no roll.", DecisionPass, ""},
		{"g12", "You don't have to roll for that.", DecisionPass, ""},
		{"g13", "Rolling isn't necessary here.", DecisionPass, ""},
		{"g14", "We can skip the dice on this one.", DecisionPass, ""},
		{"g15", "Don't bother rolling; it works.", DecisionPass, ""},
		// truncation
		{"t1", "The ruling is: no ro", DecisionUnparsed, ""},
		{"t2", "This definitely needs a Cl", DecisionUnparsed, ""},
		{"t3", "Decision: roll. Skill: Climb. Reason: the wall is", DecisionRoll, "Climb"},
		{"t4", "After weighing it up, I'd say the investigator should", DecisionUnparsed, ""},
		// refusals
		{"r1", "I'm not going to adjudicate this, sorry.", DecisionRefused, ""},
		{"r2", "I'd prefer to stay out of this one.", DecisionRefused, ""},
		{"r3", "I can't tell whether it needs a roll without knowing the height.", DecisionUnparsed, ""},
		// parts
		{"p1", "Getting to the window is free; climbing through it quietly is a Stealth roll.", DecisionRoll, "Stealth"},
		{"p2", "No roll to open the chest, but spotting the false bottom is Spot Hidden.", DecisionRoll, "Spot Hidden"},
		{"p3", "The walk to the bridge needs nothing. Crossing it in the storm: Climb.", DecisionRoll, "Climb"},
	})
}
