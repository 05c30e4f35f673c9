package seduce

import "testing"

// TestProbeFourthRoundLongReplies is the sixth probe table of the fourth round of
// issue 29: replies of several sentences, where a ruling considered and dropped, a first
// instinct overruled, a ruling for each choice of the player, or a ruling taken back and
// put on a condition stand beside the reply's own, in sentences of our own labelled
// before the parser read them.
func TestProbeFourthRoundLongReplies(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"L1", "What a great moment! So, the investigator wants to read the inscription on the tomb. It's in Latin, which she studied at Miskatonic, and the letters are deeply carved and well lit by her lantern. I don't see any real uncertainty here. She reads it. No roll.", DecisionPass, ""},
		{"L2", "Okay, let me think about this one. The gap between the rooftops is about two metres, it's raining, and the tiles are slick. On a dry day I might let a fit investigator just make the jump, but not tonight. Jump roll, please.", DecisionRoll, "Jump"},
		{"L3", "Hmm. So there are two things going on. First, getting into the library after hours: the side door is propped open, so that's free. Second, finding the right book in the restricted section without a catalogue: that's a Library Use roll.", DecisionRoll, "Library Use"},
		{"L4", "I thought about calling for a Stealth roll, since the cultists are nearby. But they're deep in their chanting and facing the altar, and the investigator is at the back of a dark crypt. I'll let this one go: no roll.", DecisionPass, ""},
		{"L5", "There's an argument for a Listen roll here, because the voices are muffled. There's also an argument that the door is thin and they're shouting. I genuinely can't pick one.", DecisionUnparsed, ""},
		{"L7", "The investigator is bleeding badly from a gash on the thigh, and her companion wants to stop the bleeding. This is exactly what First Aid is for. Roll it, and if you fail, she loses another hit point.", DecisionRoll, "First Aid"},
		{"L11", "Two options. If she tries to force the window, that's a STR roll; if she picks the lock instead, Locksmith. Up to her.", DecisionUnparsed, ""},
		{"L12", "The investigator has lived in this house for twenty years. Finding the light switch in the dark is not a Spot Hidden roll, it's muscle memory.", DecisionPass, ""},
		{"L13", "So the player says their character 'obviously' knows the cult's symbol from a previous session. They did see it, but that was six months ago in game time. I'd want a Know roll or an Occult roll for this, not a freebie.", DecisionRoll, ""},
		{"L14", "Ruling: roll.\n\nThe tracks are fresh but the ground is rocky, so Track it is. If the player has the tracking dog with them, give a bonus die.", DecisionRoll, "Track"},
		{"L15", "My first instinct was automatic success, but on reflection the guard dog changes things. Stealth roll.", DecisionRoll, "Stealth"},
		{"L16", "The ruling is pretty simple: no roll for walking down the hall, and no roll for opening the unlocked door. Both are automatic.", DecisionPass, ""},
		{"L17", "Honestly, if it were up to me I wouldn't bother with dice here. But you asked for a ruling, so: automatic success.", DecisionPass, ""},
		{"L18", "I'm going to call for a Spot Hidden roll, but only to see how much detail she notices; she'll find the letter regardless.", DecisionRoll, "Spot Hidden"},
		{"L19", "Normally, swimming across a calm pond is automatic. This pond is frozen over with thin ice, and she's wearing a heavy coat. That changes everything: Swim.", DecisionRoll, "Swim"},
		{"L20", "No roll. Wait — is the door locked? You didn't say. If it's locked, Locksmith. If not, no roll.", DecisionUnparsed, ""},
	})
}
