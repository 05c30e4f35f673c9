package seduce

import "testing"

// TestProbeSixthRoundNarration is a probe table of issue 29's sixth round (helper B):
// a game master's narration of the action done is a pass, read narrowly. Sentences
// of our own, labelled before the parser read them.
func TestProbeSixthRoundNarration(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// The action told as done, with "you" as its subject and any verb of acting.
		{"n1", "You unscrew the lid of the jar. Inside, a folded letter.", DecisionPass, ""},
		{"n2", "You fold the map and tuck it into your coat.", DecisionPass, ""},
		{"n3", "You wipe the dust off the plaque. It reads 'Founded 1891'.", DecisionPass, ""},
		{"n4", "Okay, you untie the rowing boat and push off from the jetty.", DecisionPass, ""},
		{"n5", "You hail a cab outside the hotel. What do you do next?", DecisionPass, ""},
		// A name as the subject, doing an act.
		{"n6", "Margaret climbs onto the cart and settles in among the sacks.", DecisionPass, ""},
		{"n7", "**Keeper:** Tobias unlocks the shed with his own key.", DecisionPass, ""},
		// A lexicon phrase: the action done with no subject of the player's.
		{"n8", "The porter glances at the ticket and waves you through to the platform.", DecisionPass, ""},
		{"n9", "The hatch swings open on greased hinges; stale air drifts out.", DecisionPass, ""},
		{"n10", "The old Ford coughs to life on the first crank.", DecisionPass, ""},
		{"n11", "Stool's right there, up you go. The shelf is within reach now.", DecisionPass, ""},
		{"n12", "You pick out her voice in the crowd without even trying.", DecisionPass, ""},
		{"n13", "You lift the trapdoor, no fuss. Cold air rolls up from the cellar.", DecisionPass, ""},

		// Must not fire: a failure, an attempt, harm, being seen.
		{"x1", "You reach for the rope and miss it by an inch.", DecisionUnparsed, ""},
		{"x2", "You wrench at the bolt; it won't budge.", DecisionUnparsed, ""},
		{"x3", "You tiptoe past the kitchen. The cook turns and sees you.", DecisionUnparsed, ""},
		{"x4", "You vault the railing and twist your ankle on the landing, taking 2 damage.", DecisionUnparsed, ""},
		{"x5", "You stumble on the loose stones halfway up.", DecisionUnparsed, ""},
		// Must not fire: a question or a call for a roll after the narration.
		{"x6", "You approach the gate. The guard squints at you. Are you sure you want to do this?", DecisionUnparsed, ""},
		{"x7", "You reach the wall. Climb.", DecisionRoll, "Climb"},
		{"x8", "You reach the foot of the cliff. Give me a roll.", DecisionRoll, ""},
		// Must not fire: the outcome of a roll reported.
		{"x9", "Success. You pick the lock and the door clicks open.", DecisionUnparsed, ""},
		{"x10", "Rolled a 23, so you slip the cuffs off.", DecisionUnparsed, ""},
		{"x11", "*rattle* ... 44. You sneak past the dozing guard.", DecisionUnparsed, ""},
		{"x12", "Hard success! The door swings open.", DecisionUnparsed, ""},
		// Must not fire: the scene described without the action, or perceiving.
		{"x13", "The hallway stretches into darkness. Portraits line the walls.", DecisionUnparsed, ""},
		{"x14", "You see a light flickering in the tower window.", DecisionUnparsed, ""},
		{"x15", "You wait by the door for the clerk to return.", DecisionUnparsed, ""},
		// Must not fire: the game master speaking as themself, the future, a condition,
		// a negation.
		{"x16", "I think you unlock it with the spare key, honestly.", DecisionUnparsed, ""},
		{"x17", "You'll open it eventually, given time.", DecisionUnparsed, ""},
		{"x18", "You open the crate only if the guard is gone.", DecisionUnparsed, ""},
		{"x19", "You push the door, not that it matters.", DecisionUnparsed, ""},
		{"x20", "You asked to cross the bridge.", DecisionUnparsed, ""},
		// Must not fire: a narration cut off.
		{"x21", "You pull the lever and the", DecisionUnparsed, ""},
		{"x22", "Elsie walks into the shop and", DecisionUnparsed, ""},
		// Must not fire: a verb with nothing after it hands the choice back.
		{"x25", "You pick.", DecisionUnparsed, ""},
		{"x26", "Your table, your rules. You choose, then.", DecisionUnparsed, ""},
		// Must not fire: no act but an ease word.
		{"x23", "No biggie.", DecisionUnparsed, ""},
		{"x24", "The cart rolls downhill toward you.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundNarrationSkills: a skill named beside a narration keeps it from
// ruling unless the skill is denied.
func TestProbeSixthRoundNarrationSkills(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"k1", "Nah, no Climb, nothing like that. You just follow the path up.", DecisionPass, ""},
		{"k2", "You cross the yard. Stealth, by the way.", DecisionUnparsed, ""},
		{"k3", "You cross the yard, Stealth style.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundRefusals: ways of declining to rule, and declines of something
// else beside a ruling, which stay the ruling.
func TestProbeSixthRoundRefusals(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"r1", "I'm going to hold off on giving any ruling for this table.", DecisionRefused, ""},
		{"r2", "\"I'll not be the one deciding this,\" the old Keeper mutters.", DecisionRefused, ""},
		{"r3", "Honestly, I'd really rather not rule on scenes like this.", DecisionRefused, ""},
		{"r4", "As a support assistant I don't act as a referee for games.", DecisionRefused, ""},
		{"r5", "Sorry, I don't provide rulings for tabletop sessions.", DecisionRefused, ""},
		{"r6", "{\"decision\": null, \"skill\": null, \"reason\": \"Declining: this asks for graphic violence.\"}", DecisionRefused, ""},
		{"r7", "That's frankly above my pay grade, friend.", DecisionRefused, ""},
		{"r8", "Afraid I can only help with character sheets and session notes.", DecisionRefused, ""},
		{"r9", "Thanks for the long write-up of the manor, the storm, the butler with the limp and the locked study; it is a vivid scene and I enjoyed reading about the portrait gallery and the servants' stair and the cellar full of wine. The group sounds like a lot of fun to run for, and the mystery of the missing heir has some nice twists.\n\nStill, the action involves hurting a captive in detail.\n\nSo for this one, I won't give a ruling either way.", DecisionRefused, ""},
		// Must not fire: a side request declined while the action is ruled.
		{"r10", "I'd rather not describe the wound in detail, but stitching it needs a First Aid roll.", DecisionRoll, "First Aid"},
		{"r11", "I don't make players roll for opening unlocked doors. No roll.", DecisionPass, ""},
		{"r12", "Can't help with the map, sorry, but the climb is a Climb roll.", DecisionRoll, "Climb"},
		// Must not fire: unable to decide is indecision, not a refusal.
		{"r13", "Not something I can decide without knowing how wide the gap is.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundTruncatedJSON: a JSON answer cut off after its ruling is complete
// keeps the ruling; one cut inside the decision or the skill, or whose cut reason rules
// the other way, does not.
func TestProbeSixthRoundTruncatedJSON(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"t1", "{\"decision\": \"roll\", \"skill\": \"Swim\", \"reason\": \"The current near the weir is", DecisionRoll, "Swim"},
		{"t2", "{\"decision\": \"roll\", \"skill\": \"Listen\", \"rea", DecisionRoll, "Listen"},
		{"t3", "{\"decision\": \"automatic_success\", \"skill\": null, \"reason\": \"She owns the", DecisionPass, ""},
		{"t4", "```json\n{\"decision\": \"roll\", \"skill\": \"Track\"\n```", DecisionRoll, "Track"},
		{"t5", "{\"decision\": \"automatic_success\", \"skill\": \"\", \"reason\": \"A plain stroll.\"", DecisionPass, ""},
		// Must not fire.
		{"t6", "{\"decision\": \"roll\", \"skill\": \"Mechanical Rep", DecisionUnparsed, ""},
		{"t7", "{\"decision\": \"roll\", \"ski", DecisionUnparsed, ""},
		{"t8", "{\"decision\": \"automatic_suc", DecisionUnparsed, ""},
		{"t9", "{\"decision\": \"roll\", \"skill\": \"Climb\", \"reason\": \"Actually no roll is needed, the", DecisionUnparsed, ""},
		{"t10", "{\"decision\": \"roll\", \"skill\": \"Climb\", \"reason\": \"…", DecisionUnparsed, ""},
		{"t11", "{\"decision\": \"roll\", \"reason\": \"The ledge is", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundCopulaRolls: a roll as the predicate of a copula, with an adverb
// of certainty, a modal of necessity ("has to be") or a count of rolls.
func TestProbeSixthRoundCopulaRolls(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"c1", "Forcing a rusted hatch in a gale is obviously a Mechanical Repair roll.", DecisionRoll, "Mechanical Repair"},
		{"c2", "I'd say tracking him across the moor has to be a Track roll.", DecisionRoll, "Track"},
		{"c3", "Getting through the kitchen unseen means two Stealth rolls, one per door.", DecisionRoll, "Stealth"},
		{"c4", "Reading the whole archive is a series of Library Use rolls.", DecisionRoll, "Library Use"},
		{"c5", "That ought to be a Listen roll.", DecisionRoll, "Listen"},
		// Must not fire as a roll.
		{"c6", "This doesn't have to be a Climb roll; she takes the stairs.", DecisionPass, ""},
		{"c7", "It would be a Swim roll, but the river is dry.", DecisionUnparsed, ""},
		{"c8", "It isn't absolutely a Jump roll, no, it's a step.", DecisionPass, ""},
	})
}

// TestProbeSixthRoundSplits: a pass for one part and a roll for "that part" or "the
// rest" is a roll; "actually" before a gerund is an adverb, not a correction.
func TestProbeSixthRoundSplits(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"p1", "Opening the gate is automatic. Getting the horse through it quietly is trickier; that part needs a Stealth roll.", DecisionRoll, "Stealth"},
		{"p2", "Finding the book on the shelf is automatic. The rest needs a Library Use roll.", DecisionRoll, "Library Use"},
		{"p3", "Lighting the stove is automatic. Actually cooking something edible on it is another matter: Cook roll.", DecisionRoll, ""},
		// Must not fire: a correction stays a correction.
		{"p4", "Climbing the ladder is automatic. Actually, no: that part needs a Climb roll.", DecisionUnparsed, ""},
		{"p5", "That part needs a Climb roll. Actually, scratch that, the ladder is fine, no roll.", DecisionUnparsed, ""},
		{"p6", "No roll for the ladder. Actually rolling Climb would be fairer.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundSettledHedges: a hedge that hands over only the difficulty, a
// musing closed by "I've decided", and the model saying it cannot throw dice itself
// leave the ruling standing; a hedge on the ruling itself does not.
func TestProbeSixthRoundSettledHedges(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"h1", "Climb roll, no question. Regular or Hard? Your call on the difficulty.", DecisionRoll, "Climb"},
		{"h2", "It needs a Track roll; the difficulty is up to you.", DecisionRoll, "Track"},
		{"h3", "I've gone back and forth on this one. The rope is old, the wall is wet. Right, I've decided: Climb roll.", DecisionRoll, "Climb"},
		{"h4", "Hmm, tough call. She knows the house well... okay, I'm landing on no roll.", DecisionPass, ""},
		{"h5", "I cannot physically roll dice for you, but the swim across needs a Swim roll.", DecisionRoll, "Swim"},
		{"h6", "I can't roll for you. That said, it's a Listen roll.", DecisionRoll, "Listen"},
		// Must not fire.
		{"h7", "Your call on the difficulty. Swim roll, or maybe not, the river is calm.", DecisionUnparsed, ""},
		{"h8", "Swim roll, though honestly your call.", DecisionUnparsed, ""},
		{"h9", "I've decided: no roll. Or maybe a Climb roll? Your call.", DecisionUnparsed, ""},
		{"h10", "I can't roll dice for you.", DecisionUnparsed, ""},
		{"h11", "I've decided it's your call.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundCheckLabels: a label that names the check ("Check: Dexterity
// (Stealth)") calls for it when no other label rules; an unticked box rules nothing.
func TestProbeSixthRoundCheckLabels(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"l1", "**Check:** Dexterity (Stealth)\n**Difficulty:** Hard", DecisionRoll, "Stealth"},
		{"l2", "Skill check: Rifle\nThe deer is 200 yards off.", DecisionRoll, "Firearms"},
		{"l3", "**Check:** Spot — the glyph is faint.", DecisionRoll, "Spot Hidden"},
		{"l4", "## Call\n- [ ] Roll needed\n- [x] No roll — the gate is open.", DecisionPass, ""},
		{"l5", "## Call\n- [x] Roll needed: Swim\n- [ ] No roll", DecisionRoll, "Swim"},
		// Must not fire: another label rules, or the value is no skill.
		{"l6", "**Skill check:** Climb\n**Needed:** no, there are stairs.", DecisionPass, ""},
		{"l7", "Check: the stove is still warm.", DecisionUnparsed, ""},
		{"l8", "**Check:** Climb\n\nNo roll is needed, there are stairs.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundPercentile: "d100 under your X" calls for X.
func TestProbeSixthRoundPercentile(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"d1", "Right then: d100 under your Swim, everyone.", DecisionRoll, "Swim"},
		{"d2", "d100 against Hard Climb, go!", DecisionRoll, "Climb"},
		// Must not fire as a roll.
		{"d3", "No need for d100 under your Climb here, it's a ladder.", DecisionUnparsed, ""},
		{"d4", "Forget the d100 under your Climb; it's a ladder, you just go up.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundSkillAsked: a skill's name asked and answered at once by the
// reply is that answer; a hedged or swapped answer is not read.
func TestProbeSixthRoundSkillAsked(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"q1", "## Track?\nNo — the footprints in the snow lead straight to the shed.", DecisionPass, ""},
		{"q2", "Swim? Yes. The current is strong tonight.", DecisionRoll, "Swim"},
		{"q3", "Library Use? Nope, the book is on the desk.", DecisionPass, ""},
		// Must not fire.
		{"q4", "Swim? Yes, if she falls in.", DecisionUnparsed, ""},
		{"q5", "Track? Sure, but the snow makes it trivial.", DecisionUnparsed, ""},
		{"q6", "Track? Why would anyone?", DecisionUnparsed, ""},
		{"q7", "Listen? Maybe.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundDoubtElsewhere: a doubt about something else than the matter at
// hand, or closed by a decision, leaves the ruling standing.
func TestProbeSixthRoundDoubtElsewhere(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"e1", "I'm not sure the whole heist needs planning rolls, but this part is simple: no roll to buy the train tickets.", DecisionPass, ""},
		{"e2", "Tough call, but I've decided: Dodge roll. The cart is fast.", DecisionRoll, "Dodge"},
		// Must not fire.
		{"e3", "I'm not sure, but this part is probably a Climb roll.", DecisionUnparsed, ""},
		{"e4", "I'm not sure this needs a roll. But that part is easy: the door opens. Or maybe Locksmith?", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundNamedFor: a roll named for its object, as a clause of its own, is
// called for; judged or denied, it is not.
func TestProbeSixthRoundNamedFor(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"f1", "Okay. Quick Spot Hidden roll for the loose floorboard, Marta.", DecisionRoll, "Spot Hidden"},
		{"f2", "Another Stealth roll for the second corridor.", DecisionRoll, "Stealth"},
		// Must not fire as a roll.
		{"f3", "A Listen roll for this would be overkill.", DecisionPass, ""},
		{"f4", "Jump roll for the puddle? Nah.", DecisionPass, ""},
		{"f5", "Climb roll for the wall, if it's wet.", DecisionUnparsed, ""},
		{"f6", "A Track roll for the trail isn't needed.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundNarratedFailure: narrations in which the action fails or turns
// against the player without a failing word are no pass.
func TestProbeSixthRoundNarratedFailure(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"y1", "You leap for the branch and your hands close on empty air.", DecisionUnparsed, ""},
		{"y2", "You heave at the trapdoor; it holds fast.", DecisionUnparsed, ""},
		{"y3", "You wade in. The undertow drags you out past the rocks.", DecisionUnparsed, ""},
		{"y4", "You reach the roof. Across the street, two watchmen spot you.", DecisionUnparsed, ""},
		{"y5", "You vault the wall and land badly, twisting your knee.", DecisionUnparsed, ""},
		{"y6", "You open the crate. The hound lunges at you.", DecisionUnparsed, ""},
		{"y7", "You knock twice. No answer.", DecisionUnparsed, ""},
		{"y9", "You step out onto the frozen lake. It cracks.", DecisionUnparsed, ""},
		{"y10", "Hollis strides into the saloon and is shot.", DecisionUnparsed, ""},
		{"y11", "You shoulder the shed door and it splinters open.", DecisionPass, ""},
		{"y12", "You dial the number. Nothing happens.", DecisionUnparsed, ""},
		{"y13", "You turn the key. Nothing.", DecisionUnparsed, ""},
		// Someone helping the player is no turn against them.
		{"y8", "You cross to the desk. The porter hands you the key to room nine.", DecisionPass, ""},
	})
}

// TestProbeSixthRoundSeries: several rolls of one skill, called for, are that roll;
// judged, dismissed or asked for by someone else, they are not.
func TestProbeSixthRoundSeries(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"s1", "Long swim. We'll handle it as three Swim rolls, one per buoy.", DecisionRoll, "Swim"},
		{"s2", "One Listen roll per door, so four Listen rolls in total.", DecisionRoll, "Listen"},
		// Must not fire as a roll.
		{"s3", "Scrap the two Climb rolls; the ladder is right there.", DecisionUnparsed, ""},
		{"s4", "The players asked for several Spot Hidden rolls, but the note is in plain view: no roll.", DecisionPass, ""},
	})
}
