package seduce

import (
	"strings"
	"testing"
)

// Probe tables of the ninth round of issue 29, area B: English replies that state a
// ruling in a family the parser did not read (parse_english9.go). Every sentence is
// this round's own, labelled under README-set3's rules before the parser read it; each
// table holds cases the rule must not fire on.

// TestProbeNinthRoundAnsweredQuestion holds questions the reply answers itself, with a
// stance word, an opinion frame or a label before the answer, asked with an inverted
// modal or as a roll named alone with what it is for.
func TestProbeNinthRoundAnsweredQuestion(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"honestly no", "Does wading the brook need a Swim roll? Honestly, no. It's ankle deep.", DecisionPass, ""},
		{"frankly yes", "Would sneaking past the butler take a Stealth roll? Frankly, yes. He's wide awake.", DecisionRoll, "Stealth"},
		{"truthfully no", "Does he need dice to light the lamp? Truthfully, no.", DecisionPass, ""},
		{"i'd say no", "Do I need to roll to read the menu? I'd say no, it's in English.", DecisionPass, ""},
		{"i mean no", "Does she have to roll? I mean, no. It's her own front door.", DecisionPass, ""},
		{"lol no", "you want a roll to sit down? lol no. sit.", DecisionPass, ""},
		{"to be honest yes", "Does this call for a Track roll? To be honest, yes: the rain has been at the prints.", DecisionRoll, "Track"},
		{"should inverted no", "Should he need to roll? No. The ladder is bolted to the wall.", DecisionPass, ""},
		{"should inverted yes", "Should she roll Climb? Yes. The drainpipe is loose.", DecisionRoll, "Climb"},
		{"would inverted no", "Would they have to roll for the stairs? Nope, they just walk up.", DecisionPass, ""},
		{"must inverted no", "Must he roll? Nah. It's a light switch.", DecisionPass, ""},
		{"should they roll", "Should they roll? No, the door is wide open.", DecisionPass, ""},
		{"roll to see if", "Roll to see if the tram is running? Nah. It's running. Hop on.", DecisionPass, ""},
		{"a roll to open", "A roll to open a cupboard? Nope.", DecisionPass, ""},
		{"skill roll for", "A Jump roll for a puddle? No. Step over it.", DecisionPass, ""},
		{"dice for this", "Dice for this? Not at all.", DecisionPass, ""},
		{"roll to yes skill after", "A roll to get across the ice? Yes, Dodge, it's cracking.", DecisionRoll, "Dodge"},
		{"q and a labels", "**Q:** Does lifting the latch need a roll?\n**A:** No.", DecisionPass, ""},
		{"question answer labels", "Question: does bandaging the cut take a check?\nAnswer: yes, First Aid.", DecisionRoll, "First Aid"},
		// must not fire
		{"answer that hedges", "Does she need a Swim roll? Honestly, I'm not sure.", DecisionUnparsed, ""},
		{"answer on a condition", "Should he roll? Honestly, it depends on whether the dog wakes.", DecisionUnparsed, ""},
		{"label then hedge", "Q: Does the gate need a roll?\nA: Depends on whether it's locked.", DecisionUnparsed, ""},
		{"question left unanswered", "Should the rope snap? Then he falls.", DecisionUnparsed, ""},
		{"no then another roll", "A roll for the door? No, a roll for the dog behind it: Listen.", DecisionRoll, "Listen"},
		{"a hard roll is no skill", "A hard roll for this? No.", DecisionUnparsed, ""},
	})
}

// TestProbeNinthRoundRequestIdioms holds a game master's requests in the table's idiom
// ("throw me", "hit me with") and a ruling settled on ("landing on", "coming down on
// the side of").
func TestProbeNinthRoundRequestIdioms(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"throw me", "Throw me a Dodge roll, the cart's coming straight at you.", DecisionRoll, "Dodge"},
		{"toss me", "Okay, toss me a Library Use check.", DecisionRoll, "Library Use"},
		{"chuck me", "Chuck me a Listen roll, everyone.", DecisionRoll, "Listen"},
		{"hit me with", "Hit me with a Psychology roll before she leaves.", DecisionRoll, "Psychology"},
		{"sling me", "Sling me a Throw roll for the grenade.", DecisionRoll, "Throw"},
		{"let me get", "Let me get a Locksmith roll for that padlock.", DecisionRoll, "Locksmith"},
		{"landing on", "Tricky one, but I'm landing on a Medicine roll.", DecisionRoll, "Medicine"},
		{"settling on", "I'm settling on a Track roll; the trail is a day old.", DecisionRoll, "Track"},
		{"coming down on the side of", "I'm coming down on the side of a Swim roll here.", DecisionRoll, "Swim"},
		{"plumping for", "After all that, I'm plumping for a Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		{"landing on no roll", "I'm landing on no roll: the gate is open.", DecisionPass, ""},
		// must not fire
		{"throw me a rope", "The sailor throws me a rope and I climb aboard.", DecisionUnparsed, ""},
		{"landing on the roof", "The crow is landing on the roof.", DecisionUnparsed, ""},
		{"don't throw me a roll", "Don't throw me a Fighting roll, nobody's fighting. No roll.", DecisionPass, ""},
	})
}

// TestProbeNinthRoundReportedResult holds rolls reported by their result ("came up",
// "comes in at") and rolls the Keeper makes with a dice sound.
func TestProbeNinthRoundReportedResult(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"came up", "Your Listen came up 09. You hear the key turn.", DecisionRoll, "Listen"},
		{"comes in at", "Her Library Use comes in at 33, under her 60.", DecisionRoll, "Library Use"},
		{"came out at", "His Climb check came out at 97. He slides back down.", DecisionRoll, "Climb"},
		{"came up alone", "Spot Hidden came up 71, so you see nothing.", DecisionRoll, "Spot Hidden"},
		{"sound then result", "Track for Morwenna... *clack clack* ... 22. You find the prints easily.", DecisionRoll, "Track"},
		{"behind the screen no skill", "I'll roll this for you behind the screen... *rattle* ... 80. You don't notice anything.", DecisionRoll, ""},
		// must not fire
		{"came up times", "Spot Hidden came up 3 times last session, but tonight nobody rolls anything. No roll.", DecisionPass, ""},
		{"sound without whose roll", "*clatter* ... 51. You slip into the alley.", DecisionUnparsed, ""},
		{"npc roll", "Stealth for the cultist... *rattle* ... 12. You don't see him.", DecisionUnparsed, ""},
		{"rolls eyes", "*rolls eyes* ... 5 minutes later you're at the docks.", DecisionUnparsed, ""},
	})
}

// TestProbeNinthRoundDiceIdioms holds dice idioms that rule no roll.
func TestProbeNinthRoundDiceIdioms(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"stay in the cup", "The dice stay in the cup tonight; he just sits down.", DecisionPass, ""},
		{"remain in the tray", "Dice remain in the tray for this. The door's unlocked.", DecisionPass, ""},
		{"leave in the tower", "Leave your dice in the tower, she simply reads the letter.", DecisionPass, ""},
		{"nothing here to roll for", "Nothing here to roll for. You walk in.", DecisionPass, ""},
		{"nothing to throw them for", "Love the dice, but there's nothing to throw them for: the hatch is open.", DecisionPass, ""},
		// must not fire
		{"keep dice in hand", "Keep your dice in your hand, you'll need them: Climb roll.", DecisionRoll, "Climb"},
		{"nothing to throw", "There's nothing to throw at the ghoul. Dodge roll.", DecisionRoll, "Dodge"},
	})
}

// TestProbeNinthRoundFirmAfterDeliberation holds rulings that end a deliberation ("I
// went back and forth, but …"), an uncertain outcome given as the reason to roll, a
// ruling held against a player's pushback with the player's name after it, and a
// verdict with its skill in parentheses.
func TestProbeNinthRoundFirmAfterDeliberation(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"back and forth but no roll", "I went back and forth on it, but: automatic.", DecisionPass, ""},
		{"torn but ruling", "I'm torn, but I'll call for a Stealth roll.", DecisionRoll, "Stealth"},
		{"tough call but", "Tough call, but no roll. The ledge is wide.", DecisionPass, ""},
		{"outcome either way", "Whether he lands it could go either way, which is why we roll: Jump.", DecisionRoll, "Jump"},
		{"outcome toss-up so roll", "It's a toss-up whether the lock gives, so roll: Locksmith.", DecisionRoll, "Locksmith"},
		{"still a roll name", "I hear you, but it's still a Swim roll, Priya.", DecisionRoll, "Swim"},
		{"still name exclaimed", "Still a Dodge roll, Tomasz!", DecisionRoll, "Dodge"},
		{"final answer parenthesis", "Tricky. Final answer: roll (Medicine).", DecisionRoll, "Medicine"},
		{"verdict specialisation", "Verdict: roll (Fighting (Brawl)).", DecisionRoll, "Fighting"},
		// must not fire
		{"back and forth undecided", "I went back and forth on it, but I still can't decide.", DecisionUnparsed, ""},
		{"back and forth then condition", "I went back and forth, but if the rope is wet, Climb.", DecisionUnparsed, ""},
		{"either way about the ruling", "Whether it needs a roll could go either way. Roll Climb, or don't.", DecisionUnparsed, ""},
		{"name that is a skill", "Make a roll, Listen.", DecisionRoll, "Listen"},
	})
}

// TestProbeNinthRoundSkillForms holds skills written as a list's bold lead, misspelt or
// outside the taxonomy, and task lists with no box ticked, read as lists.
func TestProbeNinthRoundSkillForms(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"bold misspelt", "## Roll\n\n**Libary Use**: the archive is a mess.", DecisionRoll, "Library Use"},
		{"bold off taxonomy", "**Sanity**, and it's going to hurt. Roll it.", DecisionRoll, "Sanity"},
		{"unticked list", "- [ ] Open the door: no roll\n- [ ] Pick the safe: **Locksmith**", DecisionRoll, "Locksmith"},
		{"unticked list passes", "- [ ] Walk to the car: no roll\n- [ ] Drive to the inn: no roll", DecisionPass, ""},
		// must not fire
		{"ticked box chooses", "- [x] Roll\n- [ ] No roll\n\nSkill: Listen", DecisionRoll, "Listen"},
		{"nothing ticked two rulings", "- [ ] Roll\n- [ ] Automatic success", DecisionUnparsed, ""},
		{"lower case luck", "roll luck, and pray", DecisionRoll, "luck"},
		{"ok roll sanity", "ok roll sanity. 0/1d4", DecisionRoll, "sanity"},
		// must not fire
		{"luck in passing", "no need to roll luck here, the door's open. No roll.", DecisionPass, ""},
		{"bold word no skill", "## Roll\n\n**Careful**: the beam is rotten.", DecisionRoll, ""},
	})
}

// TestProbeNinthRoundCutAfterRuling holds replies cut off after a complete ruling (the
// ruling stands) and cut off where the ruling may still turn (unparsed), rhetorical
// answers ("Why would you?"), "on the fence" meant literally, and "have to go with".
func TestProbeNinthRoundCutAfterRuling(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"cut on a dash", "Roll Spot Hidden. The ledger is tucked behind the clock, and if he misses it, the—", DecisionRoll, "Spot Hidden"},
		{"cut mid word", "No roll: she just buys the ticket. The clerk counts out her change more slowly than is strictly necess", DecisionPass, ""},
		{"cut mid pass sentence", "A Listen roll, please. The wind is howling round the eaves and the floorboa", DecisionRoll, "Listen"},
		{"why would you", "A roll to open the fridge? Why would you? It's your fridge.", DecisionPass, ""},
		{"why bother", "Dice for climbing the porch steps? Why bother? Up you go.", DecisionPass, ""},
		{"fence literal", "Spotting the cat on the fence rail in the dark? That's a Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		{"have to go with", "I'm going to have to go with a Dodge roll on this one.", DecisionRoll, "Dodge"},
		{"have to call for", "Sorry, I have to call for a Swim roll.", DecisionRoll, "Swim"},
		{"need to bother with", "I don't think you need to bother with a Swim roll for a paddling pool.", DecisionPass, ""},
		{"not something i'd test", "Tying her own bootlace is not something I'd test.", DecisionPass, ""},
		{"something i'd roll for", "Forging a signature under the clerk's nose is something I'd roll for: Art/Craft.", DecisionRoll, ""},
		{"not every and this is one", "Not every step needs dice, and this is one of them.", DecisionPass, ""},
		{"nope still", "Nope, still a Jump roll. It's four metres.", DecisionRoll, "Jump"},
		{"not every then one that does", "Not every step needs dice. This is one of those that does.", DecisionUnparsed, ""},
		{"calling for one", "I'd happily see a Track roll here; in fact, I'm calling for one.", DecisionRoll, "Track"},
		{"not calling for one", "Other tables might want a Climb roll. I'm not calling for one.", DecisionUnparsed, ""},
		// must not fire
		{"cut in a contrast", "No roll needed. Although if the guard is awake, that's a Stealth ro", DecisionUnparsed, ""},
		{"cut in a condition", "Automatic success. If the rope is frayed, though, she'd—", DecisionUnparsed, ""},
		{"cut in the ruling", "The answer is no ro", DecisionUnparsed, ""},
		{"fence idiom", "I'm on the fence about this one. Maybe a Climb roll.", DecisionUnparsed, ""},
		{"why would because", "Should she roll? Why would she need to roll, with the rope frayed like that? Because it could snap. Yes: Climb.", DecisionRoll, "Climb"},
	})
}

// TestProbeNinthRoundListsAndHeaders holds rulings in markdown lists and headers: a
// bullet or an arrow before the ruling, a header that is the skill's name, a bold skill
// before a dash, a misspelt skill in mid-sentence, the dice alone asked for, and a
// quoted player's hedge that is not the reply's.
func TestProbeNinthRoundListsAndHeaders(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"bullet roll", "- Distance: 4 m\n- Ground: wet\n- Jump roll", DecisionRoll, "Jump"},
		{"arrow roll", "Bolted hatch, rusted.\n⇒ Mechanical Repair roll", DecisionRoll, "Mechanical Repair"},
		{"bullet arrow bold", "- Light: none\n- **→ Listen roll**", DecisionRoll, "Listen"},
		{"header alias", "## 🔎 Spot\nRoll it, the seam in the panelling is faint.", DecisionRoll, "Spot Hidden"},
		{"header misspelt", "### Stelth\nRoll it, the guard is awake.", DecisionRoll, "Stealth"},
		{"bold dash off taxonomy", "#### Check required\n- **Drive Auto** — the road is black ice", DecisionRoll, "Drive Auto"},
		{"mid sentence misspelt", "Have her roll her Medecine before the fever climbs.", DecisionRoll, "Medicine"},
		{"d100 alone", "Okay, roll a d100 for me. Don't ask why.", DecisionRoll, ""},
		{"quoted hedge", "> \"I think I'll just lean against the wall and wait.\"\n\nNo roll, you wait.", DecisionPass, ""},
		// must not fire
		{"d100 explained", "In CoC you roll a d100 under your skill, but this needs no roll at all.", DecisionPass, ""},
		{"own hedge unquoted", "I lean towards no roll, but I'm not sure.", DecisionUnparsed, ""},
		{"bullet pass and roll", "- Cross the hall: no roll\n- Open the safe: Locksmith roll", DecisionRoll, "Locksmith"},
		{"skills set aside in a list", "**Decision:** automatic\n\nSkills weighed and dropped:\n- **Swim** — the pool is waist deep.\n- **Dodge** — nothing is thrown.", DecisionPass, ""},
		{"condition list stays open", "## Ruling\n\n- If the gate is open: automatic.\n- If it's chained: **Climb**.", DecisionUnparsed, ""},
	})
}

// TestProbeNinthRoundNarratedYield holds narration of a thing giving way to the
// action, told done with no subject of the player's (lexicon "narration"): "the gate
// groans open", "the key turns". A failure, an attempt or a roll beside it keeps it
// from ruling.
func TestProbeNinthRoundNarratedYield(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"groans open", "The cellar door groans open. Cold air, and the smell of apples.", DecisionPass, ""},
		{"key turns", "The key turns. Inside, dust sheets over everything.", DecisionPass, ""},
		{"springs open", "The shutter springs open at a shove and moonlight floods the attic.", DecisionPass, ""},
		{"turns it over", "He simply turns it over: the ace of spades.", DecisionPass, ""},
		// must not fire
		{"turns then sticks", "You try the key. It turns halfway and sticks.", DecisionUnparsed, ""},
		{"key turns but shut", "The key turns, but the door stays shut.", DecisionUnparsed, ""},
		{"yield then roll", "The latch lifts. Make a Listen roll for what's on the stairs.", DecisionRoll, "Listen"},
	})
}

// TestProbeNinthRoundHeaderProse holds a ruling's header followed by a sentence of its
// own, read as prose, and a confirming "so yes," before a skill named alone.
func TestProbeNinthRoundHeaderProse(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"header then sentence", "### Keeper's ruling\n\nThere is no way across that ice without a Dodge roll.", DecisionRoll, "Dodge"},
		{"header then pass sentence", "## Ruling\n\nThe rope is sound and the wall is dry, so no roll.", DecisionPass, ""},
		{"so yes skill", "It's a poison nobody in town has seen before. So yes, Medicine.", DecisionRoll, "Medicine"},
		// must not fire
		{"header then condition", "## Verdict\n\nIf the lantern is still lit, automatic; if it has gone out, Spot Hidden.", DecisionUnparsed, ""},
		{"header short value", "## Decision\n\nRoll.\n\n## Skill\n\nClimb", DecisionRoll, "Climb"},
	})
}

// TestRequestIdiomsFold holds every idiom of requestIdioms to its replacement's length
// (offsets must hold) and to a gate of idiomGates (it is searched only then).
func TestRequestIdiomsFold(t *testing.T) {
	for _, p := range requestIdioms {
		if len(p[0]) != len(p[1]) {
			t.Errorf("idiom %q folds to %q of another length", p[0], p[1])
		}
		gated := false
		for _, g := range idiomGates {
			gated = gated || strings.Contains(p[0], g)
		}
		if !gated {
			t.Errorf("idiom %q holds no gate of idiomGates", p[0])
		}
	}
}
