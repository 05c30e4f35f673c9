package seduce

import "testing"

// TestProbeSeventhRoundReported is a probe table of issue 29's seventh round (helper
// B): a roll the Keeper makes or reports for the player, in the shape of a result
// against a target ("Spot Hidden for Ada: 31 vs 55"). Sentences of our own, labelled
// before the parser read them.
func TestProbeSeventhRoundReported(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// A skill, then a result against a target.
		{"r1", "Rolling it for you since you're AFK. Listen: 81 vs 45, you hear nothing over the wind.", DecisionRoll, "Listen"},
		{"r2", "Climb for Percy... 🎲 12 against his 50. He's over the wall.", DecisionRoll, "Climb"},
		{"r3", "Medicine (I rolled it secretly): 67 vs 35. The powder means nothing to you.", DecisionRoll, "Medicine"},
		{"r4", "I'll roll your Rifle for you — 08 vs 55, clean hit. The ghoul drops.", DecisionRoll, "Firearms"},
		{"r5", "🎲 Swim (rolled for you): 44 vs 60 — you make the far bank, spluttering.", DecisionRoll, "Swim"},
		{"r6", "Tracking for Bree: 71 vs her 40. The trail goes cold at the creek.", DecisionRoll, "Track"},
		{"r7", "Quick one behind the screen — Library Use, 23 vs 70. You find the clipping.", DecisionRoll, "Library Use"},
		// A Keeper's roll marker, then the skill given for a named player.
		{"r8", "*rolls quietly* Right. Listen for Harold: the house is silent.", DecisionRoll, "Listen"},
		{"r9", "*rolls behind the screen* Spot for Mae: the study looks undisturbed.", DecisionRoll, "Spot Hidden"},

		// Must not fire: numbers that are not a roll's result.
		{"rx1", "Her sheet: Spot Hidden 55, Listen 40, Stealth 30.", DecisionUnparsed, ""},
		{"rx2", "The score is 3 vs 2 and the crowd is roaring.", DecisionUnparsed, ""},
		{"rx3", "Climb is her best skill at 70, versus Jump at 20.", DecisionUnparsed, ""},
		{"rx4", "The odds are 30 vs 70 that the bridge holds; anyway, you cross.", DecisionUnparsed, ""},
		// Must not fire: the player's own report, with no word of the Keeper's.
		{"rx5", "[Mira] Climb for Mira... 12 vs 55, nice", DecisionUnparsed, ""},
		{"rx6", "[Jonah] Spot Hidden: 12 vs 55, nice", DecisionUnparsed, ""},
		// Must not fire: a skill for a name with no roll marker (a list of who does what).
		{"rx7", "Listen for Harold: he's on watch tonight.", DecisionUnparsed, ""},
		// Must not fire: the Keeper's marker, and a skill named in a sheet or a question.
		{"rx8", "*rolls eyes* Fine. What's your Stealth for Ada: 40 or 50?", DecisionUnparsed, ""},
	})
}

// TestProbeSeventhRoundRequests: a request for a roll that does not say "roll",
// "Gimme Tracking, Bree".
func TestProbeSeventhRoundRequests(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"q1", "Gimme a Listen, Carla, the scratching's getting closer.", DecisionRoll, "Listen"},
		{"q2", "Ice on the rungs. Give me Climb, Sam.", DecisionRoll, "Climb"},
		{"q3", "Let's see a Spot Hidden, everyone — is anything off about the altar?", DecisionRoll, "Spot Hidden"},
		{"q4", "Alright, lemme see your Stealth before you get near the tent.", DecisionRoll, "Stealth"},
		{"q5", "You're gonna want to roll First Aid on that arm, Doc.", DecisionRoll, "First Aid"},
		{"q6", "You're going to need to roll Swim, the current's strong.", DecisionRoll, "Swim"},

		// "if" that opens what the roll finds out is no condition.
		{"q7", "Gimme Spot Hidden, Ivo, see whether the wallpaper was glued back recently.", DecisionRoll, "Spot Hidden"},
		// The Keeper asking for a roll as a question.
		{"q8", "Could I see your Locksmith check, Ada? The padlock is rusted.", DecisionRoll, "Locksmith"},
		{"q9", "Can I get a First Aid roll? He's bleeding badly.", DecisionRoll, "First Aid"},
		// A skill hailed to the table: the skill, then "everyone", "go", "please".
		{"q10", "Library Use, everyone — the archive is a mess.", DecisionRoll, "Library Use"},
		{"q11", "Right. That's Mechanical Repair, go.", DecisionRoll, "Mechanical Repair"},
		{"q12", "Stealth, and make it count; the sentry is awake.", DecisionRoll, "Stealth"},
		{"q13", "Fighting (Knife), please. He's in your face.", DecisionRoll, "Fighting"},
		{"q14", "**[GM]** First Aid, everyone — the driver is pinned and bleeding.", DecisionRoll, "First Aid"},

		// Must not fire: the skill's value asked for, or the word as a noun.
		{"qx1", "Give me your Stealth score before we start.", DecisionUnparsed, ""},
		{"qx2", "Gimme a medicine bottle from the shelf, says the nurse.", DecisionUnparsed, ""},
		{"qx3", "Let's see a Psychology degree, then, says the dean.", DecisionUnparsed, ""},
		{"qx4", "Give me Listen or Spot Hidden, whichever you prefer.", DecisionUnparsed, ""},
		// Must not fire: a question about a roll on a condition, a skill's name inside a
		// sentence, a quoted cry.
		{"qx5", "Can I get a Stealth roll if the dog wakes up?", DecisionUnparsed, ""},
		{"qx6", "Stealth, everyone agrees, is her strong suit.", DecisionUnparsed, ""},
		{"qx7", "\"Medicine, please!\" the nurse cries from the ward.", DecisionUnparsed, ""},
		{"qx8", "Could I see your Locksmith skill on the sheet before we start?", DecisionUnparsed, ""},
	})
}

// TestProbeSeventhRoundRefusals: declining the role, claiming inability, error
// objects and system texts that withhold the reply are refused.
func TestProbeSeventhRoundRefusals(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// Declining the role.
		{"f1", "As an AI, I don't take on the role of a referee in tabletop games.", DecisionRefused, ""},
		{"f2", "I do not act as a Keeper for games like this one.", DecisionRefused, ""},
		{"f3", "I don't play the part of a game master, sorry.", DecisionRefused, ""},
		// Claiming inability.
		{"f4", "I don't have the ability to referee tabletop games.", DecisionRefused, ""},
		{"f5", "I'm not capable of adjudicating game scenes.", DecisionRefused, ""},
		{"f6", "I lack the ability to act as a game master.", DecisionRefused, ""},
		// Error objects.
		{"f7", `{"error": "safety_block", "detail": "Output suppressed."}`, DecisionRefused, ""},
		{"f8", "```json\n{\"error\": {\"code\": 400, \"type\": \"policy\"}}\n```", DecisionRefused, ""},
		// System texts that withhold the reply.
		{"f9", "[Reply withheld by the moderation system.]", DecisionRefused, ""},
		{"f10", "(This response has been removed for violating the usage policy.)", DecisionRefused, ""},
		{"f11", "Output blocked: the content filter was triggered.", DecisionRefused, ""},

		{"f12", "[Blocked by safety filter]", DecisionRefused, ""},
		{"f13", "Error: the assistant declined to answer this request.", DecisionRefused, ""},
		{"f14", "This content has been censored.", DecisionRefused, ""},
		// Capability as a noun phrase.
		{"f15", "Refereeing tabletop games is outside what I can do.", DecisionRefused, ""},
		{"f16", "Sorry, acting as the Keeper is beyond my capabilities.", DecisionRefused, ""},
		{"f17", "Refereeing your scene isn't something I can do, I'm afraid.", DecisionRefused, ""},
		{"f18", "Running tabletop games is not something I am able to do here.", DecisionRefused, ""},

		// Must not fire: the role or an error named while ruling, or narration.
		{"fx1", "I don't take on the role of the dice lightly, but here: Climb roll.", DecisionRoll, "Climb"},
		{"fx2", `{"decision": "roll", "skill": "Stealth", "error": null}`, DecisionRoll, "Stealth"},
		{"fx3", "The clerk says the telegram was withheld by the censor.", DecisionUnparsed, ""},
		{"fx4", `{"error": null}`, DecisionUnparsed, ""},
		{"fx5", "You don't have the ability to read Aklo, so the page means nothing.", DecisionUnparsed, ""},
		{"fx6", "Error: the lantern is out of oil, so you're in the dark.", DecisionUnparsed, ""},
		{"fx7", "This message was scrawled in blood on the cellar wall.", DecisionUnparsed, ""},
		{"fx8", "Climbing that face is beyond his abilities without a rope.", DecisionUnparsed, ""},
		{"fx9", "Flying isn't something I can do for her, but the stairs are right there: no roll.", DecisionPass, ""},
	})
}

// TestProbeSeventhRoundLabelReason: a roll label whose value is the skill and then a
// reason or the opposing side, "**Roll:** Drive Auto — wet cobbles".
func TestProbeSeventhRoundLabelReason(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"l1", "**Roll:** Climb — the gutter is slick with moss.", DecisionRoll, "Climb"},
		{"l2", "### 🐎 Chase\n**Roll:** Animal Handling, the horse is spooked.", DecisionRoll, "Animal Handling"},
		{"l3", "Roll: Spot (hard) — the seam in the panel is hairline thin.", DecisionRoll, "Spot Hidden"},
		{"l4", "**Roll:** Firearms (Rifle) vs. the sniper's cover", DecisionRoll, "Firearms"},
		{"l5", "ROLL NEEDED: Sleight of Hand; the bartender is watching.", DecisionRoll, "Sleight of Hand"},
		{"l6", "**Roll:** Science (Chemistry) — what is the residue?", DecisionUnparsed, ""},

		// Must not fire: a reason that takes the roll back or leaves it open.
		{"lx1", "**Roll:** Swim — or maybe not, the pool is shallow.", DecisionUnparsed, ""},
		{"lx2", "**Roll:** Jump — unless she takes the stairs.", DecisionUnparsed, ""},
		// Must not fire: a word that is no skill's name before the dash.
		{"lx3", "**Roll:** Totally Fine — the door is ajar.", DecisionUnparsed, ""},
		{"lx4", "**Roll:** Skipped — she has the key.", DecisionUnparsed, ""},
		{"lx5", "**Roll:** See Below — long story.", DecisionUnparsed, ""},
		{"lx6", "**Roll:** Player Choice, whatever suits.", DecisionUnparsed, ""},
	})
}

// TestProbeSeventhRoundOtherSkills: CoC's skills outside the taxonomy, kept as
// written, in the Keeper's reports and requests; everyday words stay words.
func TestProbeSeventhRoundLabelOtherSkills(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"o1", "*rolls behind the screen* Psychology for Mae: the butler seems honest enough.", DecisionRoll, "Psychology"},
		{"o2", "Fog's thick. Give me Navigate, Sam.", DecisionRoll, "Navigate"},
		{"o3", "Occult for Ingrid... 🎲 19 vs her 35. You know this sigil.", DecisionRoll, "Occult"},
		{"ox1", "Gimme a Ride, Sam, the station is miles off.", DecisionUnparsed, ""},
		{"ox2", "Give me History, she says, not gossip.", DecisionUnparsed, ""},
	})
}

// TestProbeSeventhRoundAskedWaived: a player asks to roll and the Keeper answers no
// need on the next tagged line.
func TestProbeSeventhRoundAskedWaived(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"w1", "[Mira] can I roll Library Use to find the right shelf?\n[Keeper] nope, the librarian walks you straight to it.", DecisionPass, ""},
		{"w2", "**Tom:** do I need a Climb check for the stepladder?\n**GM:** no need, it's three rungs. You're up.", DecisionPass, ""},
		{"w3", "Player: should I roll Swim to cross?\nKeeper: Nah. The water is ankle-deep. You splash across.", DecisionPass, ""},

		// Must not fire: the action denied, a question not about rolling, another skill
		// or roll called instead, or talk after the answer.
		{"wx1", "[Mira] can I open the door?\n[Keeper] no, it's locked.", DecisionUnparsed, ""},
		{"wx2", "[Mira] can I roll to jump the gap?\n[Keeper] no, it's far too wide to jump at all.", DecisionUnparsed, ""},
		{"wx3", "[Mira] can I roll Stealth?\n[Keeper] no, Listen for you, the guard is coming.", DecisionUnparsed, ""},
		{"wx4", "[Mira] can I roll Stealth?\n[Keeper] nah, but give me a Dodge.", DecisionRoll, "Dodge"},
		{"wx5", "[Mira] can I roll Stealth?\n[Keeper] nah, you're fine.\n[Mira] sweet, and the next room?", DecisionUnparsed, ""},
	})
}

// TestProbeSeventhRoundDiceIdiom: "a roll of the dice" is chance, not a call; the call
// beside it is the ruling.
func TestProbeSeventhRoundDiceIdiom(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"d1", "Life's a roll of the dice in Arkham. Give me a Stealth roll.", DecisionRoll, "Stealth"},
		{"d2", "Call it a roll of the dice if you like, but it's a Swim roll.", DecisionRoll, "Swim"},
		{"d3", "Every heist is one roll of the die after another; this one is Locksmith, roll it.", DecisionRoll, "Locksmith"},
		{"d4", "A toss of the dice, this plan. Make a Drive Auto roll, Frank.", DecisionRoll, "Drive Auto"},
		// Must not fire: the idiom alone calls for nothing and names no skill.
		{"dx1", "It's a roll of the dice whether the rope holds.", DecisionUnparsed, ""},
		{"dx2", "Honestly, the whole evening was a roll of the dice.", DecisionUnparsed, ""},
	})
}

// TestProbeSeventhRoundRollNouns: a skill's roll as a sentence of its own, a series of
// them, and the dice called for before the skill.
func TestProbeSeventhRoundRollNouns(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"n1", "One Medicine roll to work out what the tincture is. Go.", DecisionRoll, "Medicine"},
		{"n2", "Right, a single Locksmith check to get the strongbox open.", DecisionRoll, "Locksmith"},
		{"n3", "### The cellars\nEach barrel gets its own **Spot Hidden** roll, one after the other.", DecisionRoll, "Spot Hidden"},
		{"n4", "Every hedge row takes a separate Track roll — the dogs lost the scent twice.", DecisionRoll, "Track"},
		{"n5", "Pick up your percentiles: Dodge, the beam is coming down.", DecisionRoll, "Dodge"},
		{"n6", "Get the dice ready — First Aid for the constable.", DecisionRoll, "First Aid"},

		// Must not fire: judged needless, left open, asked, or told of the past.
		{"nx1", "A Medicine roll to identify it would be pointless; she reads the label.", DecisionUnparsed, ""},
		{"nx2", "One Climb roll for the whole wall, or maybe two.", DecisionUnparsed, ""},
		{"nx3", "Every room gets its own Spot Hidden roll? Nah, that's tedious.", DecisionUnparsed, ""},
		{"nx4", "One Swim check to cross was plenty last time.", DecisionUnparsed, ""},
	})
}

// TestProbeSeventhRoundQuotedStop: a stop inside closing quotation marks ends the
// sentence, so the ruling after it opens a sentence of its own.
func TestProbeSeventhRoundQuotedStop(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"s1", "She claims she 'never misses.' Firearms roll.", DecisionRoll, "Firearms"},
		{"s2", "The player says he \"knows every alley.\" Track roll.", DecisionRoll, "Track"},
		{"s3", "Apparently it's 'just a little hop.’ Jump roll, please.", DecisionRoll, "Jump"},
		// Must not fire: a quoted pass is the player's, not the Keeper's ruling.
		{"sx1", "The player insists 'no roll is needed.' I disagree: Climb roll.", DecisionRoll, "Climb"},
		{"sx2", "Her note reads, 'Meet me at the pier.' Nothing more.", DecisionUnparsed, ""},
	})
}

// TestProbeSeventhRoundInvitation: a roll offered to whoever has the skill.
func TestProbeSeventhRoundInvitation(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"i1", "The boiler is hissing. Someone with Mechanical Repair wanna roll for it?", DecisionRoll, "Mechanical Repair"},
		{"i2", "Anyone with Locksmith care to roll? The chest is stuck fast.", DecisionRoll, "Locksmith"},
		{"i3", "Somebody with Track want to give it a roll before the rain washes it out?", DecisionRoll, "Track"},
		// Must not fire: the skill named with no roll offered.
		{"ix1", "Anyone with Medicine would know this is arsenic.", DecisionUnparsed, ""},
		{"ix2", "Somebody with Swim skill drowned here last year.", DecisionUnparsed, ""},
	})
}

// TestProbeSeventhRoundTakenBack: a Keeper's roll taken back after it is no ruling.
func TestProbeSeventhRoundTakenBack(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"tx1", "Gimme Stealth, Bree. Wait, scratch that, the guard's asleep.", DecisionUnparsed, ""},
		{"tx2", "Gimme Listen, Carla. Actually, forget it, you hear it anyway.", DecisionUnparsed, ""},
		{"tx3", "Drive Auto, and make it good. On second thought, the road is empty.", DecisionUnparsed, ""},
		{"tx4", "Swim for Otto: 33 vs 50. Hold on, the river's frozen, never mind.", DecisionUnparsed, ""},
	})
}
