package seduce

import "testing"

// The kinds of reply issue 29 found misread, each with sentences written for these tests
// (none copied from the issue or a corpus). Each table fails if its kind regresses.

func TestClauseNegationScope(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"negation before without", "I don't see him getting over that fence without a Climb roll.", DecisionRoll, "Climb"},
		{"doubt before without", "I doubt anyone could cross that river without a Swim roll.", DecisionRoll, "Swim"},
		{"won't without", "He won't make it across without a Jump roll.", DecisionRoll, "Jump"},
		{"a negation of another verb", "He doesn't need help and climbs without a roll.", DecisionPass, ""},
		{"no reason to call for", "The road is clear and it's daytime. I see no reason to call for a roll.", DecisionPass, ""},
		{"question negated then answered no", "Sneaking in without a Stealth roll? Not a chance.", DecisionRoll, "Stealth"},
		{"not letting you off without", "The knife comes at you; I'm not letting you off without a Dodge roll.", DecisionRoll, "Dodge"},
		{"not something you can do without", "Reading the cipher is not something you can do without a Library Use roll.", DecisionRoll, "Library Use"},
		{"german ohne then nicht", "Ohne eine Probe auf Springen kommst du da nicht rüber.", DecisionRoll, "Jump"},
		{"spanish sin then no", "Sin una tirada de Trepar no llegas arriba.", DecisionRoll, "Climb"},
		{"french sans then pas", "Tu ne passes pas sans un jet de Discrétion.", DecisionRoll, "Stealth"},
		{"german ohne alone", "Du kommst ohne Probe rüber.", DecisionPass, ""},
		{"doubt denies a roll", "I doubt a roll is needed here; the gate is open.", DecisionPass, ""},
		{"unless he makes a roll", "She won't get past the guard unnoticed unless she makes a Stealth roll.", DecisionRoll, "Stealth"},
		{"no way unless", "There's no way he reads the runes unless he passes a Library Use check.", DecisionRoll, "Library Use"},
		{"no need to skip", "No need to skip the roll; make it a Dodge.", DecisionRoll, "Dodge"},
		{"skipping would be a mistake", "Skipping the roll would be a mistake; Jump.", DecisionRoll, "Jump"},
		{"cannot be waived", "The roll can't be waived: Swim.", DecisionRoll, "Swim"},
		{"I won't skip", "I won't skip the roll here: Climb.", DecisionRoll, "Climb"},
		{"waive is a pass", "I'll waive the roll, the rope is sturdy.", DecisionPass, ""},
		{"don't need dice", "You don't need dice for that; the door is unlocked.", DecisionPass, ""},
		{"opinion negated over its clause", "I don't think it needs a roll.", DecisionPass, ""},
		{"opinion negated, then a hypothetical roll", "I don't think it needs a roll, since you'd only need a Swim roll in rough water.", DecisionUnparsed, ""},
		{"guard unless he rolls", "The guard doesn't notice you unless he makes a Listen roll.", DecisionRoll, "Listen"},
	})
}

func TestClauseSplitRulings(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"two things in one sentence", "The stairs are nothing, no dice; the rotten beam above them is a Climb roll.", DecisionRoll, "Climb"},
		{"two sentences", "Crossing the yard needs no roll. Picking the padlock, though, is a Locksmith roll.", DecisionRoll, "Locksmith"},
		{"door then chest", "The door opens without a roll. The lock on the chest needs a Locksmith roll.", DecisionRoll, "Locksmith"},
		{"label then a correction on its line", "Decision: roll. Actually, on reflection, it's an automatic success.", DecisionUnparsed, ""},
		{"roll then maybe not", "Make a Climb roll. Or maybe not, the ladder is right there.", DecisionUnparsed, ""},
		{"same thing both ways", "The wall is easy, no roll. The wall is slick, make a Climb roll.", DecisionUnparsed, ""},
		{"no subject either way", "No roll is needed. Make a Jump roll.", DecisionUnparsed, ""},
	})
}

func TestClauseHedgesConditionsTruncation(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"condition after the ruling", "She makes a Swim roll if she falls in.", DecisionUnparsed, ""},
		{"condition after a pass then a roll", "You won't need to roll unless the dog barks; make a Stealth roll.", DecisionUnparsed, ""},
		{"roll or no roll", "Roll or no roll, it's your call really.", DecisionUnparsed, ""},
		{"leaning", "A Climb roll, I'd lean, though no roll is defensible.", DecisionUnparsed, ""},
		{"either way", "No roll needed, but it could go either way.", DecisionUnparsed, ""},
		{"either way meaning regardless", "Either way, make a Dodge roll.", DecisionRoll, "Dodge"},
		{"not sure after a ruling", "Roll Dodge... or no, actually, the zombie is too slow. Hmm, I'm not sure.", DecisionUnparsed, ""},
		{"a player's quoted claim", "> \"No roll is needed,\" the player insists.\n\nThe player's argument is noted.", DecisionUnparsed, ""},
		{"a player's claim overruled", "> \"No roll is needed,\" the player insists.\n\nThat's not how it works: Climb roll.", DecisionRoll, "Climb"},
		{"a player's request answered", "The player asks for a Jump roll. Not necessary, it's a puddle.", DecisionPass, ""},
		{"a quote nobody is said to speak", "My ruling: \"No roll is needed.\"", DecisionPass, ""},
		{"cut inside roll", "The ruling here is no ro", DecisionUnparsed, ""},
		{"cut inside automatic", "So this is an autom", DecisionUnparsed, ""},
		{"cut after the ruling", "Make a Climb roll. The reason being the wall is wet and the", DecisionRoll, "Climb"},
		{"intent is no condition", "Make a Climb roll if you want to reach the roof.", DecisionRoll, "Climb"},
		{"see if is no condition", "Roll Spot Hidden to see if you notice the tracks.", DecisionRoll, "Spot Hidden"},
		{"success depends on the roll", "If you make a Jump roll you clear the gap.", DecisionRoll, "Jump"},
		{"another keeper might", "Some Keepers might call for dice. Here, no roll is needed.", DecisionPass, ""},
		{"only if on the world", "Only if the ice cracks does she need a Swim roll.", DecisionUnparsed, ""},
		{"question left open", "Is a roll needed? Maybe.", DecisionUnparsed, ""},
	})
}

func TestClauseGameMasterPhrasing(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"give me", "Give me a Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		{"afraid that's", "Afraid that's a Jump roll, friend.", DecisionRoll, "Jump"},
		{"go ahead and roll", "First Aid, please, go ahead and roll.", DecisionRoll, "First Aid"},
		{"it does", "Does it need a roll? It does: Track.", DecisionRoll, "Track"},
		{"dice yes which", "Dice? Yes. Which? Mechanical Repair.", DecisionRoll, "Mechanical Repair"},
		{"automatic no", "Automatic? No. Climb roll.", DecisionRoll, "Climb"},
		{"of course not", "Does she need to roll? Of course not.", DecisionPass, ""},
		{"does it need dice nope", "Does this need dice? Nope, it's a plain staircase.", DecisionPass, ""},
		{"label with yes", "Roll required: yes, Swim.", DecisionRoll, "Swim"},
		{"counterfactual concession", "A normal door wouldn't need dice, but this one is swollen shut: Mechanical Repair.", DecisionRoll, "Mechanical Repair"},
		{"normally concession", "A short hop normally wouldn't need dice, but with the ice: Jump.", DecisionRoll, "Jump"},
		{"going to be a skill", "Sneaking past a wide-awake butler? That's going to be Stealth, I'm afraid.", DecisionRoll, "Stealth"},
		{"skill for me", "Quick Spot Hidden for me, please.", DecisionRoll, "Spot Hidden"},
		{"a skill's name alone", "Library Use. The archive is a mess.", DecisionRoll, "Library Use"},
		{"a skill's name at a difficulty", "Following a trail in the rain is hard. Track, at Hard difficulty.", DecisionRoll, "Track"},
		{"after a colon", "Picking this lock under time pressure is exactly when dice come out: Locksmith.", DecisionRoll, "Locksmith"},
		{"a skill's name beside a pass names its skill", "Automatic success — Climb.", DecisionPass, "Climb"},
		{"a verb that is a skill's name is no ruling", "Climb the ladder and look around.", DecisionUnparsed, ""},
		{"is it automatic yes", "Is it automatic? Yes, the key is in it.", DecisionPass, ""},
		{"french please is no condition", "Jet de Discrétion, s'il te plaît.", DecisionRoll, "Stealth"},
		{"that'll be", "That'll be a Dodge roll.", DecisionRoll, "Dodge"},
		{"should be", "Should be a Stealth roll.", DecisionRoll, "Stealth"},
		{"should as a condition", "Should the rope hold, no roll is needed.", DecisionUnparsed, ""},
		{"a few rolls", "That calls for a few Stealth rolls.", DecisionRoll, "Stealth"},
	})
}

func TestClauseKeeperRolls(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"let me roll", "Let me roll Listen for you... *rolls* 63.", DecisionRoll, "Listen"},
		{"result reported", "Spot Hidden check result: 12", DecisionRoll, "Spot Hidden"},
		{"skill result", "Track result: 14, a success.", DecisionRoll, "Track"},
		{"two checks", "Two Listen checks, one per guard.", DecisionRoll, "Listen"},
	})
}

func TestClausePlainPasses(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"simply works", "It simply works, nothing in the way.", DecisionPass, ""},
		{"nothing to it", "There's nothing to it. He just walks in.", DecisionPass, ""},
		{"nothing stands in the way", "Nothing stands in her way; she opens the gate.", DecisionPass, ""},
		{"you just do it", "Nah, you just do it. The ladder's bolted to the wall.", DecisionPass, ""},
		{"no dice needed", "No dice needed.", DecisionPass, ""},
	})
}

func TestClauseSkillNames(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"weapon specialisation", "Make a Firearms (Handgun) roll.", DecisionRoll, "Firearms"},
		{"weapon alias", "Roll Handgun.", DecisionRoll, "Firearms"},
		{"research", "Make a Library Research roll.", DecisionRoll, "Library Use"},
		{"fighting specialisation", "Roll Fighting (Sword).", DecisionRoll, "Fighting"},
		{"ability then skill", "Make a Dexterity (Stealth) check.", DecisionRoll, "Stealth"},
		{"ability then unknown skill", "Give me a Wisdom (Perception) check.", DecisionRoll, "Wisdom (Perception)"},
		{"unknown skill kept", "You see the symbol at once, no Spot Hidden needed; reading it is a Cthulhu Mythos roll.", DecisionRoll, "Cthulhu Mythos"},
	})
}

// TestClauseOwnTaxonomy reads skill names through a taxonomy of the user's own, as
// `--taxonomy` gives: an "Ability (Skill)" form names the user's skill.
func TestClauseOwnTaxonomy(t *testing.T) {
	tax, err := ParseTaxonomy([]byte(`settings: [Fantasy]
categories:
  - id: WIS
    name: Wisdom
    skills: [Perception, Insight]
  - id: DEX
    name: Dexterity
    skills: [Acrobatics, Sleight of Hand]
aliases:
  Noticing: Perception
`), "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ text, skill string }{
		{"Give me a Wisdom (Perception) check.", "Perception"},
		{"Make a Dexterity (Sleight of Hand) check.", "Sleight of Hand"},
		{"Roll Noticing.", "Perception"},
		{"Make an Acrobatics roll.", "Acrobatics"},
	} {
		t.Run(tt.text, func(t *testing.T) {
			if got := ParseReply(tt.text, tax); got.Decision != DecisionRoll || got.Skill != tt.skill {
				t.Errorf("ParseReply(%q) = %v; want roll %s", tt.text, got, tt.skill)
			}
		})
	}
}

func TestClausePoliteRefusals(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"rather not", "I'd rather not rule on this one.", DecisionRefused, ""},
		{"prefer not", "For ethical reasons I'd prefer not to get involved with this scene.", DecisionRefused, ""},
		{"pass on", "I'll pass on adjudicating this.", DecisionRefused, ""},
		{"weigh in", "Out of caution, I won't weigh in on this scenario.", DecisionRefused, ""},
		{"decline to rule", "I'm going to decline to make a ruling on this.", DecisionRefused, ""},
		{"sit out", "I'll sit this one out, sorry.", DecisionRefused, ""},
		{"pass is not a refusal when it rules", "I'll pass on the roll: the door is open, no roll needed.", DecisionPass, ""},
	})
}

// Kinds the blind development set (testdata/replies-dev) showed misread, each with
// sentences written for these tests.

func TestClauseOpinionRulings(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"I'd want with see whether", "Because the engine is seized, I'd want a Mechanical Repair roll to see whether he gets it running.", DecisionRoll, "Mechanical Repair"},
		{"I'd go with", "The investigator wants to swing onto the balcony. I'd go with a Jump roll.", DecisionRoll, "Jump"},
		{"I'd call that", "Spotting the sniper at dusk — I'd call that a Spot Hidden check.", DecisionRoll, "Spot Hidden"},
		{"deserves", "Getting the engine going with stockings? That deserves a Mechanical Repair roll.", DecisionRoll, "Mechanical Repair"},
		{"you'd want, see if", "I think you'd want a Luck roll here to see if the taxi is waiting.", DecisionRoll, "Luck"},
		{"I'd say a skill", "I'd say Stealth.", DecisionRoll, "Stealth"},
		{"a job for", "This is a job for Library Use.", DecisionRoll, "Library Use"},
		{"this one's a skill", "This one's a Jump.", DecisionRoll, "Jump"},
		{"it's a climb is no skill", "It's a climb of twenty feet.", DecisionUnparsed, ""},
		{"roll to a skill verb", "Roll to dodge!", DecisionRoll, "Dodge"},
		{"roll an unknown skill", "Roll Electrical Repair.", DecisionRoll, "Electrical Repair"},
		{"roll a lowercase word is no skill", "Roll with it.", DecisionUnparsed, ""},
		{"cannot determine whether", "I cannot determine whether a roll is needed.", DecisionUnparsed, ""},
	})
}

func TestClauseNeedlessRolls(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"don't think any dice", "I see where you're going, but I don't think any dice are needed.", DecisionPass, ""},
		{"asking for a roll would slow", "I think asking for a roll here would just slow the game down. The drawer is unlocked.", DecisionPass, ""},
		{"overkill", "A roll would be overkill here.", DecisionPass, ""},
		{"rolling would be overkill", "Rolling for this would be overkill.", DecisionPass, ""},
		{"that's automatic", "That's automatic.", DecisionPass, ""},
		{"too risky to be automatic", "Too risky to be automatic.", DecisionRoll, ""},
		{"too easy to need a roll", "Too easy to need a roll; the ladder is bolted on.", DecisionPass, ""},
		{"simply does it", "There's no risk here, so she simply does it.", DecisionPass, ""},
		{"nothing uncertain", "There's nothing uncertain about turning on a light switch.", DecisionPass, ""},
		{"could be either", "Could be a roll, could be automatic. Hard to say.", DecisionUnparsed, ""},
	})
}

func TestClauseEitherSkill(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"roll one or the other depending", "Roll Swim or Climb, depending on which way she goes.", DecisionUnparsed, ""},
		{"a roll of one or the other", "Make a Spot Hidden or Listen roll.", DecisionRoll, ""},
		{"json skill either kept as written", `{"decision": "roll", "skill": "Track or Spot Hidden", "reason": "Whichever she tries."}`, DecisionRoll, "Track or Spot Hidden"},
		{"or and no skill", "Make a Stealth roll or the guard hears you.", DecisionRoll, "Stealth"},
	})
}

func TestClauseMoreRefusals(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"sit out and rather not judge", "I'm going to have to sit this one out, though — I'd rather not act as the judge for this game.", DecisionRefused, ""},
		{"not comfortable acting as", "However, I'm not comfortable acting as the game's referee here.", DecisionRefused, ""},
		{"stay out of it", "That's your call as the Keeper, not mine — I'll stay out of it.", DecisionRefused, ""},
		{"json refused", `{"decision": "refused", "skill": null, "reason": "Not ruling on this."}`, DecisionRefused, ""},
		{"line refused", "Decision: declined", DecisionRefused, ""},
	})
}

func TestClauseJSONSkillNames(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"ability form", `{"decision": "roll", "skill": "Dexterity (Acrobatics)"}`, DecisionRoll, "Dexterity (Acrobatics)"},
		{"ability form known", `{"decision": "roll", "skill": "Wisdom (Listen)"}`, DecisionRoll, "Listen"},
		{"every word one skill", `{"decision": "roll", "skill": "Library Research"}`, DecisionRoll, "Library Use"},
		{"one word another skill", `{"decision": "roll", "skill": "Electrical Repair"}`, DecisionRoll, "Electrical Repair"},
		{"too risky in the reason", `{"decision": "roll", "skill": null, "reason": "Too slippery to be automatic."}`, DecisionRoll, ""},
	})
}

func TestClauseMoreNegationScope(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"not that there's no need", "It isn't that there's no need for a roll; there is. Climb.", DecisionRoll, "Climb"},
		{"not skipping would be a mistake", "Not rolling for this would be a mistake: Listen.", DecisionRoll, "Listen"},
		{"refusing to roll would be silly", "Refusing to roll would be absurd here: Dodge, please.", DecisionRoll, "Dodge"},
		{"no roll I'd skip", "There's no Climb roll I'd waive on a cliff like this.", DecisionRoll, "Climb"},
		{"only a fool without", "Only a fool would cross that ice without a Jump roll.", DecisionRoll, "Jump"},
		{"refuse to believe without", "I refuse to believe he hits it without a Throw roll.", DecisionRoll, "Throw"},
		{"wrong to make roll", "It would be silly to make him roll Climb on a staircase.", DecisionPass, ""},
		{"not even would make you roll", "Not even the harshest Keeper would make you roll for this.", DecisionPass, ""},
		{"decline to make roll", "I decline to make you roll for opening a drawer.", DecisionPass, ""},
		{"not gonna make you roll", "I'm not going to make you roll for tying your shoes.", DecisionPass, ""},
		{"refuse to make anyone roll", "I refuse to make anyone roll for this. No roll.", DecisionPass, ""},
		{"won't tell you to roll", "I won't tell you to roll; you don't need to.", DecisionPass, ""},
		{"other keepers would", "Some Keepers would call for a Listen roll here. Not me, no roll needed.", DecisionPass, ""},
	})
}

func TestClauseOpenRulings(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"condition after the skill", "Roll Listen if the music stops, otherwise carry on.", DecisionUnparsed, ""},
		{"dash then unless", "Roll Swim — unless the boat is still moored, in which case just step aboard.", DecisionUnparsed, ""},
		{"dash then if you fail stays firm", "Roll Climb — if you fail, you slide back down.", DecisionRoll, "Climb"},
		{"dash then or else stays firm", "Roll Stealth — or else the dogs wake.", DecisionRoll, "Stealth"},
		{"dash then another route", "Roll Jump to cross — or walk round by the ford.", DecisionUnparsed, ""},
		{"as long as after an aside", "No roll needed, I think, as long as the guards stay asleep.", DecisionUnparsed, ""},
		{"abbreviation keeps the condition", "If Mr. Pike's dog is asleep, you get past automatically.", DecisionUnparsed, ""},
		{"question-marked decision", "Decision: roll (?)\nSkill: Climb", DecisionUnparsed, ""},
		{"refusal taken back", "I won't rule on this... actually, fine: roll Dodge.", DecisionUnparsed, ""},
		{"cut off before an alternative", "Maybe a Swim roll... or", DecisionUnparsed, ""},
		{"up to you", "You could try a Locksmith roll or look for another door. Up to you.", DecisionUnparsed, ""},
		{"just kidding", "No roll needed. Just kidding — Dodge!", DecisionUnparsed, ""},
		{"borderline", "It's borderline; I'd let it slide.", DecisionUnparsed, ""},
	})
}

func TestClausePartsAfterColons(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"two labelled parts", "Opening the gate: automatic. Slipping past the watchman unseen: Stealth.", DecisionRoll, "Stealth"},
		{"no roll for one thing, a skill to do another", "No roll for the ladder. The loose tile at the top, though — Spot Hidden to notice it.", DecisionRoll, "Spot Hidden"},
		{"a skill to do something needs a lead", "Climb to the top and look around.", DecisionUnparsed, ""},
		{"a vocative before the roll", "Morgan, Locksmith roll to open it before they arrive.", DecisionRoll, "Locksmith"},
		{"a roll named after a colon", "Mechanically, though: a First Aid roll.", DecisionRoll, "First Aid"},
		{"a quote said before", "The player argues: \"I don't need to roll, surely.\" No. Dodge.", DecisionRoll, "Dodge"},
	})
}

func TestClauseItalianPortuguese(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"it roll", "Ci vuole un tiro di Nuotare, la corrente è forte.", DecisionRoll, "Swim"},
		{"it pass", "Nessun tiro, la porta è aperta.", DecisionPass, ""},
		{"pt roll", "Faça um teste de Escalar: o muro está molhado.", DecisionRoll, "Climb"},
		{"pt pass", "Sem teste, é só uma escada.", DecisionPass, ""},
		{"es se is no condition", "Es un éxito automático, no se necesita ninguna tirada.", DecisionPass, ""},
		{"fr non before a roll", "Non, il faut un jet de Grimper.", DecisionRoll, "Climb"},
	})
}

func TestClauseMoreGameMasterPhrasing(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"roll me", "Right, Tom, roll me Listen.", DecisionRoll, "Listen"},
		{"rolls on", "*rolls* 73 on Track. Over your 40, the trail goes cold.", DecisionRoll, "Track"},
		{"result was", "Your Listen result was 8, a hard success.", DecisionRoll, "Listen"},
		{"grab your skill and roll", "Fine — grab your Rifle skill and roll.", DecisionRoll, "Firearms"},
		{"gimme an alias", "Gimme Library.", DecisionRoll, "Library Use"},
		{"give me an unknown skill", "Everyone give me Luck.", DecisionRoll, "Luck"},
		{"give me a thing is no skill", "Give me a minute to think.", DecisionUnparsed, ""},
		{"everybody roll", "Everybody roll Sanity.", DecisionRoll, "Sanity"},
		{"roll an unknown skill to do something", "Roll Occult to recognise the sigil.", DecisionRoll, "Occult"},
		{"make it a roll", "Make it a Swim roll, the current's strong.", DecisionRoll, "Swim"},
		{"need to a skill", "The truck is on you: you need to Dodge!", DecisionRoll, "Dodge"},
		{"don't need to a skill", "You don't need to Climb, there's a ladder.", DecisionPass, ""},
		{"a lowercase verb is no skill", "You need to climb the ladder first.", DecisionUnparsed, ""},
		{"specialisation alone", "Firearms (Shotgun), obviously.", DecisionRoll, "Firearms"},
		{"ability form check", "Wisdom (Listen) check, DC 12.", DecisionRoll, "Listen"},
		{"unknown skill roll kept", "The horses bolt — Ride roll!", DecisionRoll, "Ride"},
		{"an article is no skill", "A Climb roll seems fair, though not strictly needed.", DecisionUnparsed, ""},
	})
}

func TestClauseMarkdownLabels(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"question key", "- **Roll?** Yes\n- **Skill:** Track", DecisionRoll, "Track"},
		{"question key no", "- **Roll?** No\n- **Why:** It's a doorway.", DecisionPass, ""},
		{"middle dot pairs", "**Roll: yes** · **Skill: Listen** · the hall is noisy", DecisionRoll, "Listen"},
		{"middle dot note", "**Roll: no** · walking down a corridor", DecisionPass, ""},
		{"tick in a table", "| | |\n|---|---|\n| Needs roll | ✅ |\n| Skill | Swim |", DecisionRoll, "Swim"},
		{"cross in a table", "| | |\n|---|---|\n| Needs roll | ❌ |\n| Skill | — |", DecisionPass, ""},
		{"needed key", "**Skill check:** `Locksmith`\n**Needed:** yes", DecisionRoll, "Locksmith"},
		{"none needed", "**Ruling:** none needed, the path is clear.", DecisionPass, ""},
		{"unknown skill as a roll's value", "**Roll:** Strength (Athletics)", DecisionRoll, "Strength (Athletics)"},
		{"a cut skill", "**Roll required:** Jum", DecisionUnparsed, ""},
	})
}

func TestClauseEitherSkillIsRollWithoutSkill(t *testing.T) {
	tax := DefaultTaxonomy()
	for _, text := range []string{
		"Make a Spot Hidden or Listen roll.",
		"Roll Jump or Climb, whichever you like — it's a roll either way.",
	} {
		if got := ParseReply(text, tax); got.Decision != DecisionRoll || got.Skill != "" {
			t.Errorf("ParseReply(%q) = %v; want roll with no skill", text, got)
		}
	}
}

func TestClauseNarratedSuccess(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"you find it", "You find the ledger on the second shelf, right where the clerk said.", DecisionPass, ""},
		{"keeper narrates", "Keeper: You hop the fence and cross the yard.", DecisionPass, ""},
		{"sure you do", "Sure, you open it. The hinges are oiled.", DecisionPass, ""},
		{"an attempt is no success", "You try to climb the wall.", DecisionUnparsed, ""},
		{"a failure is no success", "You reach for the ledge but slip.", DecisionUnparsed, ""},
		{"a question is no success", "You find the door. What now?", DecisionUnparsed, ""},
		{"description is no ruling", "The wall looms over you in the rain.", DecisionUnparsed, ""},
		{"a cut narration is no ruling", "You climb the first few rungs and", DecisionUnparsed, ""},
		{"finding nothing is no success", "You search the desk and find nothing.", DecisionUnparsed, ""},
		{"finding it locked is no success", "You find the cellar door locked.", DecisionUnparsed, ""},
	})
}

func TestClauseSoftAndCheckboxRulings(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"would be most fair", "I suppose a Listen roll would be fairest.", DecisionRoll, "Listen"},
		{"seems right, though not necessary", "A Jump roll seems right, though not strictly needed.", DecisionUnparsed, ""},
		{"neither nor without a roll word", "Neither Swim nor Climb is needed; there's a bridge.", DecisionPass, ""},
		{"ticked box", "- [ ] Roll needed\n- [x] Automatic success", DecisionPass, ""},
		{"ticked roll with a skill line", "- [x] Roll needed\n- [ ] Automatic success\n\nSkill: Track", DecisionRoll, "Track"},
		{"dice command", "/roll d100 Listen", DecisionRoll, "Listen"},
		{"bracketed skill", "The lock is rusted shut. [Locksmith, Hard]", DecisionRoll, "Locksmith"},
		{"post your roll", "Post your roll for this one.", DecisionRoll, ""},
		{"one word refusal", "Declined.", DecisionRefused, ""},
	})
}

func TestClauseSingleQuotes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"a claim in single quotes overruled", "Ah, the old 'I'm a pro so it's automatic' line. Nope. Climb roll.", DecisionRoll, "Climb"},
		{"a said quote in single marks", "'No roll is needed,' the player insists. Make a Stealth roll.", DecisionRoll, "Stealth"},
		{"apostrophes are no quotes", "The players' lantern's out; you don't need a roll to find the door.", DecisionPass, ""},
	})
}

func TestClauseConcessionsAcrossSentences(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"a case for, still", "There's a case for no roll; he knows the woods. Still, it's dark and raining, so make a Track roll.", DecisionRoll, "Track"},
		{"lean then final", "I'd lean toward a roll... but no, the ladder is solid and no roll is needed. Final.", DecisionPass, ""},
		{"let's say is no reported speech", "Hmm. Let's say no roll is needed; the lock is a toy.", DecisionPass, ""},
		{"it depends", "I'll skip the ritual part, but the jump? It depends on the wind.", DecisionUnparsed, ""},
		{"a bold key later in the line", "**Decision:** roll\n\n**Reason:** The ice is thin. **Skill:** Swim", DecisionRoll, "Swim"},
	})
}

// TestClauseMixedPhrasings holds sentences written to probe the grammar's reach: each
// kind of ruling above, said in words the tables do not use.
func TestClauseMixedPhrasings(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "The gutter is rusted through. You'll want to make a Climb check for this.", DecisionRoll, "Climb"},
		{"probe 2", "Sneaking past a sleeping dog is exactly what Stealth is for. Roll it.", DecisionRoll, "Stealth"},
		{"probe 3", "Walking across an empty room? No dice.", DecisionPass, ""},
		{"probe 4", "No check. She just does it.", DecisionPass, ""},
		{"probe 5", "That's a gimme — no roll.", DecisionPass, ""},
		{"probe 6", "Swim check, Hard difficulty, because of the current.", DecisionRoll, "Swim"},
		{"probe 8", "Let's see a Spot Hidden.", DecisionRoll, "Spot Hidden"},
		{"probe 9", "The archive's a maze. Library Use roll, please.", DecisionRoll, "Library Use"},
		{"probe 10", "Maybe a Climb roll? Or maybe not. I really can't say.", DecisionUnparsed, ""},
		{"probe 11", "If the rope holds, no roll; if it frays, Climb.", DecisionUnparsed, ""},
		{"probe 12", "Roll Dodge. Now.", DecisionRoll, "Dodge"},
		{"probe 13", "Nope. No roll. Flat ground, broad daylight.", DecisionPass, ""},
		{"probe 14", "I'm going to need a Track roll from you.", DecisionRoll, "Track"},
		{"probe 15", "This calls for Locksmith.", DecisionRoll, "Locksmith"},
		{"probe 16", "This doesn't require a Locksmith roll — the key's in the door.", DecisionPass, ""},
		{"probe 17", "She's bleeding badly, so First Aid it is.", DecisionRoll, "First Aid"},
		{"probe 18", "Automatic. The door's already open.", DecisionPass, ""},
		{"probe 19", "No need — it's automatic.", DecisionPass, ""},
		{"probe 20", "Mechanical Repair check to get the generator going.", DecisionRoll, "Mechanical Repair"},
		{"probe 21", "I'd call for a Jump roll if the gap were wider, but it isn't.", DecisionUnparsed, ""},
		{"probe 22", "Normally I'd ask for a Jump roll, but the gap is only a foot wide, so no roll.", DecisionPass, ""},
		{"probe 23", "Normally this wouldn't need a roll, but in the dark and rain: Jump.", DecisionRoll, "Jump"},
		{"probe 24", "I'm not able to help with adjudicating this scenario.", DecisionRefused, ""},
		{"probe 25", "Sorry, I can't do that.", DecisionRefused, ""},
		{"probe 26", "Toss it? Throw roll.", DecisionRoll, "Throw"},
		{"probe 27", "Shooting at that range needs a Firearms roll, no question.", DecisionRoll, "Firearms"},
		{"probe 28", "No question about it: automatic success.", DecisionPass, ""},
		{"probe 29", "There's no question she needs a Stealth roll.", DecisionRoll, "Stealth"},
		{"probe 30", "There's no question of a roll here.", DecisionPass, ""},
		{"probe 31", "You'll have to roll Climb.", DecisionRoll, "Climb"},
		{"probe 32", "Roll Listen, please.", DecisionRoll, "Listen"},
		{"probe 33", "You can do that without rolling.", DecisionPass, ""},
		{"probe 34", "You can't find it without a Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		{"probe 35", "Medicine is the skill here — roll it.", DecisionRoll, "Medicine"},
		{"probe 36", "I wouldn't bother with a roll.", DecisionPass, ""},
		{"probe 37", "I don't see any need for a roll.", DecisionPass, ""},
		{"probe 39", "Dice stay in the bag for this one.", DecisionPass, ""},
		{"probe 40", "Dice out — Climb.", DecisionRoll, "Climb"},
		{"probe 41", "It could be a Stealth roll or automatic depending on the guards.", DecisionUnparsed, ""},
		{"probe 43", "Not worth a roll.", DecisionPass, ""},
		{"probe 44", "Worth a Swim roll, I think.", DecisionRoll, "Swim"},
		{"probe 45", "That's a freebie.", DecisionPass, ""},
		{"probe 46", "Roll for it.", DecisionRoll, ""},
		{"probe 47", "There's no roll needed for walking down stairs.", DecisionPass, ""},
		{"probe 48", "Lockpicking roll, please.", DecisionRoll, "Locksmith"},
		{"probe 49", "Spot roll.", DecisionRoll, "Spot Hidden"},
		{"probe 50", "Roll.. wait, no. Hmm.", DecisionUnparsed, ""},
		{"probe 51", "The answer is yes: Jump.", DecisionRoll, "Jump"},
		{"probe 52", "The answer is no, no roll.", DecisionPass, ""},
		{"probe 53", "Does it need a roll? Nah.", DecisionPass, ""},
		{"probe 54", "Is a roll needed? Absolutely — Climb.", DecisionRoll, "Climb"},
		{"probe 55", "Roll needed? No.", DecisionPass, ""},
		{"probe 56", "Roll needed? Yes — Track.", DecisionRoll, "Track"},
		{"probe 57", "Honestly, either answer works here.", DecisionUnparsed, ""},
		{"probe 58", "You succeed automatically; the gate is open.", DecisionPass, ""},
		{"probe 59", "You need to pass a Dodge roll or take the hit.", DecisionRoll, "Dodge"},
		{"probe 60", "No skill check required.", DecisionPass, ""},
		{"probe 61", "A skill check is required: Stealth.", DecisionRoll, "Stealth"},
		{"probe 62", "Skip the dice.", DecisionPass, ""},
		{"probe 63", "Don't skip the dice: Listen.", DecisionRoll, "Listen"},
		{"probe 64", "The Keeper should not call for a roll here.", DecisionPass, ""},
		{"probe 65", "The Keeper should call for a Swim roll here.", DecisionRoll, "Swim"},
		{"probe 66", "I'm waiving the roll.", DecisionPass, ""},
		{"probe 67", "I'm tempted to waive the roll.", DecisionUnparsed, ""},
		{"probe 68", "I'm tempted to waive the roll, but no: Climb.", DecisionRoll, "Climb"},
		{"probe 69", "First Aid roll, and be quick.", DecisionRoll, "First Aid"},
		{"probe 70", "Nothing to roll for.", DecisionPass, ""},
		{"probe 71", "Roll Library Use to find the article.", DecisionRoll, "Library Use"},
		{"probe 72", "This is just automatic.", DecisionPass, ""},
		{"probe 73", "Roll to hit with Fighting (Brawl).", DecisionRoll, "Fighting"},
		{"probe 74", "Fire away — Firearms roll.", DecisionRoll, "Firearms"},
		{"probe 75", "{\"decision\": \"roll\", \"skill\": \"Climb\"} Actually, no roll is needed.", DecisionUnparsed, ""},
		{"probe 76", "Rolling isn't necessary.", DecisionPass, ""},
		{"probe 77", "Rolling is necessary.", DecisionRoll, ""},
		{"probe 78", "A roll isn't needed; she's done this a thousand times.", DecisionPass, ""},
		{"probe 79", "The clue is well hidden, so a roll is needed — Spot Hidden.", DecisionRoll, "Spot Hidden"},
	})
}

// TestClauseOpenAndForeignProbes holds more probe sentences: rulings left open, conditions
// that are none, reasoning blocks, skill names and the other languages.
func TestClauseOpenAndForeignProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Make a Climb roll — or, if the rope is there, don't bother.", DecisionUnparsed, ""},
		{"probe 2", "Either way works: roll Stealth or let them through.", DecisionUnparsed, ""},
		{"probe 3", "A roll seems wise, but you could skip it.", DecisionUnparsed, ""},
		{"probe 4", "I'd probably call for Listen, but I could be talked out of it.", DecisionUnparsed, ""},
		{"probe 5", "I'm of two minds. Roll? No roll? I'll let you decide.", DecisionUnparsed, ""},
		{"probe 6", "Roll Spot Hidden. Hmm, or not. The note is on the table.", DecisionUnparsed, ""},
		{"probe 7", "{\"decision\": \"roll\", \"skill\": \"Climb\", \"reason\": \"...", DecisionUnparsed, ""},
		{"probe 8", "{\"decision\": \"automatic_success\", \"skill\": null, \"reason\": \"No roll needed.\"} Then again, a Jump roll might be fair.", DecisionUnparsed, ""},
		{"probe 9", "Decision: roll\nSkill: Climb\n\nWait, no — automatic success, the ladder is right there.", DecisionUnparsed, ""},
		{"probe 10", "The answer is: automatic succ", DecisionUnparsed, ""},
		{"probe 11", "She needs a Swim roll only if she falls in.", DecisionUnparsed, ""},
		{"probe 12", "Assuming the guard is asleep, no roll is needed.", DecisionUnparsed, ""},
		{"probe 13", "Provided she has a rope, no roll.", DecisionUnparsed, ""},
		{"probe 14", "Depending on the weather, maybe a Climb roll.", DecisionUnparsed, ""},
		{"probe 15", "It's not clear whether a roll is needed.", DecisionUnparsed, ""},
		{"probe 16", "Hard to tell if this needs a Jump roll.", DecisionUnparsed, ""},
		{"probe 17", "I can't decide if this is a Stealth roll.", DecisionUnparsed, ""},
		{"probe 18", "Could go either way: Dodge, or nothing.", DecisionUnparsed, ""},
		{"probe 19", "Possibly a Listen roll.", DecisionUnparsed, ""},
		{"probe 20", "Perhaps no roll is needed.", DecisionUnparsed, ""},
		{"probe 21", "Roll or don't, your choice.", DecisionUnparsed, ""},
		{"probe 22", "Even if the guard is asleep, make a Stealth roll.", DecisionRoll, "Stealth"},
		{"probe 23", "Whether or not she has gloves, it's a Climb roll.", DecisionRoll, "Climb"},
		{"probe 24", "No matter what, roll Jump.", DecisionRoll, "Jump"},
		{"probe 25", "No matter how you slice it, no roll needed.", DecisionPass, ""},
		{"probe 26", "If she wants to cross, she rolls Swim.", DecisionRoll, "Swim"},
		{"probe 27", "To hear the whisper, you'll need a Listen roll.", DecisionRoll, "Listen"},
		{"probe 28", "Unless I'm missing something, this is automatic.", DecisionPass, ""},
		{"probe 29", "Unless I'm missing something, this is a Track roll.", DecisionRoll, "Track"},
		{"probe 32", "<think>Maybe automatic? No, the blade is fast.</think>\nDodge roll.", DecisionRoll, "Dodge"},
		{"probe 33", "<think>Dodge roll? No, the zombie is slow.</think>\nNo roll needed.", DecisionPass, ""},
		{"probe 34", "<think>Let me weigh this. The wall is wet, the rope is old", DecisionUnparsed, ""},
		{"probe 35", "I'm sorry, but I can't help with that request.", DecisionRefused, ""},
		{"probe 36", "As an AI, I won't adjudicate scenarios like this.", DecisionRefused, ""},
		{"probe 37", "I'm sorry, but no roll is needed here — the door is open.", DecisionPass, ""},
		{"probe 38", "Sorry, that's a Climb roll.", DecisionRoll, "Climb"},
		{"probe 39", "Sure! No roll needed.", DecisionPass, ""},
		{"probe 40", "Sure! Locksmith roll.", DecisionRoll, "Locksmith"},
		{"probe 41", "Firearms (Rifle), Hard.", DecisionRoll, "Firearms"},
		{"probe 42", "Brawl roll.", DecisionRoll, "Fighting"},
		{"probe 43", "Shotgun roll at close range.", DecisionRoll, "Firearms"},
		{"probe 44", "Library roll.", DecisionRoll, "Library Use"},
		{"probe 45", "Mech Repair check.", DecisionRoll, "Mechanical Repair"},
		{"probe 46", "Dodging roll.", DecisionRoll, "Dodge"},
		{"probe 47", "No Dodge roll needed; it's a pillow.", DecisionPass, ""},
		{"probe 48", "Persuade roll.", DecisionRoll, "Persuade"},
		{"probe 49", "Make a Credit Rating roll.", DecisionRoll, "Credit Rating"},
		{"probe 50", "Escalada: tirada de Trepar.", DecisionRoll, "Climb"},
		{"probe 51", "Pas de jet, c'est automatique.", DecisionPass, ""},
		{"probe 52", "Faites un jet d'Écouter.", DecisionRoll, "Listen"},
		{"probe 53", "Kein Wurf nötig, die Tür ist offen.", DecisionPass, ""},
		{"probe 54", "Würfle auf Schwimmen.", DecisionRoll, "Swim"},
		{"probe 55", "Tirada de Sigilo, por favor.", DecisionRoll, "Stealth"},
		{"probe 56", "No hace falta tirar, la puerta está abierta.", DecisionPass, ""},
		{"probe 57", "Fai un tiro di Climb.", DecisionRoll, "Climb"},
		{"probe 58", "Niente tiro, è facile.", DecisionPass, ""},
		{"probe 59", "Faça um teste de Saltar.", DecisionRoll, "Jump"},
		{"probe 60", "Não precisa rolar, a porta está aberta.", DecisionPass, ""},
	})
}

func TestClauseReasonsAndNeither(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"not one part needs", "Not a single part of the route needs a roll.", DecisionPass, ""},
		{"can't think of a reason to skip", "I can't think of any reason to skip the Track roll.", DecisionRoll, "Track"},
		{"can't see a reason for", "Can't see a reason for a Jump roll here.", DecisionPass, ""},
		{"need neither", "She needs neither Swim nor Climb; the bridge is up.", DecisionPass, ""},
		{"roll me some", "Roll me some Listen.", DecisionRoll, "Listen"},
		{"a number on your skill", "*clatter* 22 on your Track, well under, you find the prints.", DecisionRoll, "Track"},
		{"all of you roll", "All of you, roll Luck.", DecisionRoll, "Luck"},
		{"a capitalised alias names the skill", "Your Shotgun blast at that range is no sure thing. Roll it.", DecisionRoll, "Firearms"},
		{"can't help here", "Can't help here, sorry.", DecisionRefused, ""},
		{"pass on judging", "Going to pass on judging this one.", DecisionRefused, ""},
	})
}

// TestClauseLongAndLabelledProbes holds probes of long replies that argue both ways before
// ruling, label and table answers, and short Keeper calls.
func TestClauseLongAndLabelledProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Great question! The player argues that since Margaret is an experienced climber, she shouldn't need to roll. That's a fair point in normal conditions, but the context tells us the wall is slick with rain and it's night. Under those conditions, even an expert can slip. So I'd call for a Climb roll here.", DecisionRoll, "Climb"},
		{"probe 2", "I understand the temptation to call for a roll whenever there's a wall involved, but in this case the ladder is bolted in place and there's no time pressure. There's really nothing uncertain about it. Automatic success.", DecisionPass, ""},
		{"probe 3", "Let me think about this. The guards are alert, and the corridor is lit. The player says \"I'm a ninja, I just walk past.\" That's not how it works — a Stealth roll is required.", DecisionRoll, "Stealth"},
		{"probe 4", "The player claims they need a Locksmith roll, but the door isn't even locked. No roll needed.", DecisionPass, ""},
		{"probe 5", "The player claims no roll is needed, but the lock is a high-security model. Locksmith roll.", DecisionRoll, "Locksmith"},
		{"probe 6", "The player claims no roll is needed. I agree, though a Locksmith roll could be argued.", DecisionUnparsed, ""},
		{"probe 7", "You ask if this needs a roll. It doesn't.", DecisionPass, ""},
		{"probe 8", "You ask if this needs a roll. It does — Track.", DecisionRoll, "Track"},
		{"probe 9", "**Ruling:** Roll\n**Skill:** Spot Hidden\n**Why:** The compartment is concealed.", DecisionRoll, "Spot Hidden"},
		{"probe 10", "**Ruling:** No roll\n**Why:** The note is in plain sight.", DecisionPass, ""},
		{"probe 11", "## Decision\nRoll — Dodge\n\n## Reason\nThe cultist swings fast.", DecisionRoll, "Dodge"},
		{"probe 12", "## Decision\nAutomatic success\n\n## Reason\nNo opposition.", DecisionPass, ""},
		{"probe 13", "## Decision\nRoll? Automatic? Hard to say.", DecisionUnparsed, ""},
		{"probe 14", "| Decision | Skill |\n|---|---|\n| Roll | Firearms (Handgun) |", DecisionRoll, "Firearms"},
		{"probe 15", "| Decision | Skill |\n|---|---|\n| Automatic success | — |", DecisionPass, ""},
		{"probe 16", "```\nDecision: roll\nSkill: Swim\n```", DecisionRoll, "Swim"},
		{"probe 17", "```yaml\ndecision: automatic_success\nskill: null\n```", DecisionPass, ""},
		{"probe 18", "Decision - Roll. Skill - Climb.", DecisionRoll, "Climb"},
		{"probe 19", "Verdict: no roll required.", DecisionPass, ""},
		{"probe 20", "Verdict: roll (Listen).", DecisionRoll, "Listen"},
		{"probe 21", "Verdict: ro", DecisionUnparsed, ""},
		{"probe 22", "{\"decision\": \"roll\", \"skill\": \"Listen\", \"reason\": \"The door is thick\"}\n\nOn reflection, no roll is needed since she's right next to it.", DecisionUnparsed, ""},
		{"probe 23", "{\"decision\": \"roll\", \"skill\": \"Listen\", \"reason\": \"The door is thick and the voices are low, so no automatic success.\"}", DecisionRoll, "Listen"},
		{"probe 24", "{\"decision\": \"automatic_success\", \"skill\": \"Listen\", \"reason\": \"No roll needed, the voices are loud.\"}", DecisionPass, ""},
		{"probe 25", "{\"decision\": \"automatic_success\", \"skill\": null, \"reason\": \"A Climb roll is required due to the rain.\"}", DecisionUnparsed, ""},
		{"probe 26", "Jump roll. The gap is six feet and the roof is slick.", DecisionRoll, "Jump"},
		{"probe 27", "No Jump roll; it's a puddle.", DecisionPass, ""},
		{"probe 28", "No, not automatic. Jump roll.", DecisionRoll, "Jump"},
		{"probe 29", "No, no roll. Just step over it.", DecisionPass, ""},
		{"probe 30", "Quietly? In those boots? Stealth roll, I'm afraid.", DecisionRoll, "Stealth"},
		{"probe 31", "Quietly? On carpet? No roll needed.", DecisionPass, ""},
		{"probe 32", "She's a trained mechanic, but the part is broken and she has no tools — Mechanical Repair, Hard.", DecisionRoll, "Mechanical Repair"},
		{"probe 33", "She's a trained mechanic with the right tools and all afternoon: no roll.", DecisionPass, ""},
		{"probe 34", "He's dying. Medicine roll, now.", DecisionRoll, "Medicine"},
		{"probe 35", "Bandage it up — First Aid roll.", DecisionRoll, "First Aid"},
		{"probe 36", "It's a paper cut. No First Aid roll needed.", DecisionPass, ""},
		{"probe 37", "The rain has washed out most prints, so Track at Hard difficulty.", DecisionRoll, "Track"},
		{"probe 38", "I'm not going to provide a ruling on this one.", DecisionRefused, ""},
		{"probe 39", "I'd prefer not to adjudicate this, given the content.", DecisionRefused, ""},
		{"probe 40", "This isn't something I'm willing to rule on.", DecisionRefused, ""},
		{"probe 41", "I'm willing to rule on this: no roll.", DecisionPass, ""},
		{"probe 42", "She swings the axe at the cultist. Fighting (Axe) roll.", DecisionRoll, "Fighting"},
		{"probe 43", "Lobbing the grenade through the window takes a Throw roll.", DecisionRoll, "Throw"},
		{"probe 44", "Handing the key to her friend across the table doesn't take a Throw roll.", DecisionPass, ""},
		{"probe 45", "Handing the key across doesn't take a Throw roll, unless she's throwing it across the room.", DecisionUnparsed, ""},
		{"probe 46", "Without a rope? Climb roll.", DecisionRoll, "Climb"},
		{"probe 47", "With a rope and a ladder? No roll.", DecisionPass, ""},
		{"probe 48", "Swim, obviously.", DecisionRoll, "Swim"},
		{"probe 49", "Obviously no roll.", DecisionPass, ""},
		{"probe 50", "Obviously a roll... or is it?", DecisionUnparsed, ""},
		{"probe 51", "I'd rule that the investigator simply finds the diary; it's on the nightstand.", DecisionPass, ""},
		{"probe 52", "She can't simply walk in; Stealth roll.", DecisionRoll, "Stealth"},
		{"probe 53", "Since the player insists no roll is needed, and the Keeper agrees the task is routine, no roll is needed.", DecisionPass, ""},
	})
}

// TestClauseFormProbes holds probes of forms: template echoes, cuts, strikethrough, emoji,
// bare words and labels.
func TestClauseFormProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "{\"decision\": \"roll\" | \"automatic_success\", \"skill\": \"<skill or null>\", \"reason\": \"...\"}", DecisionUnparsed, ""},
		{"probe 2", "{\"decision\": \"roll\", \"skill\": \"Climb\", \"reason\": \"The wall is", DecisionRoll, "Climb"},
		{"probe 3", "{\"decision\": \"ro", DecisionUnparsed, ""},
		{"probe 4", "Make a Climb ro", DecisionUnparsed, ""},
		{"probe 5", "My ruling: automatic succ", DecisionUnparsed, ""},
		{"probe 6", "~~Roll Climb~~ No roll needed.", DecisionUnparsed, ""},
		{"probe 7", "~~Roll Climb~~ No roll needed. (Edited: the ladder is there.)", DecisionUnparsed, ""},
		{"probe 8", "✅ Roll needed — 🧗 Climb", DecisionRoll, "Climb"},
		{"probe 9", "❌ No roll needed", DecisionPass, ""},
		{"probe 10", "🎲 Stealth roll!", DecisionRoll, "Stealth"},
		{"probe 11", "🎲❌ no dice for this one", DecisionPass, ""},
		{"probe 12", "{\"decision\": \"roll\", \"skill\": \"Climb\"}\n\nNo roll is needed.", DecisionUnparsed, ""},
		{"probe 13", "{\"decision\": \"roll\", \"skill\": \"Climb\"}\n\nA Climb roll is needed because the wall is slick.", DecisionRoll, "Climb"},
		{"probe 14", "Yes.", DecisionUnparsed, ""},
		{"probe 15", "No.", DecisionUnparsed, ""},
		{"probe 16", "Roll?", DecisionUnparsed, ""},
		{"probe 17", "No roll.", DecisionPass, ""},
		{"probe 18", "Roll.", DecisionRoll, ""},
		{"probe 19", "", DecisionUnparsed, ""},
		{"probe 20", "Hmm.", DecisionUnparsed, ""},
		{"probe 21", "Listen.", DecisionRoll, "Listen"},
		{"probe 22", "TRACK ROLL", DecisionRoll, "Track"},
		{"probe 23", "NO ROLL NEEDED", DecisionPass, ""},
		{"probe 24", "SPOT HIDDEN, HARD", DecisionRoll, "Spot Hidden"},
		{"probe 25", "Decision: \nSkill: Climb", DecisionUnparsed, ""},
		{"probe 26", "Decision: maybe\nSkill: Climb", DecisionUnparsed, ""},
		{"probe 27", "Decision: Roll\nSkill: climbing", DecisionRoll, "Climb"},
		{"probe 28", "Decision: Automatic Success\nSkill: N/A", DecisionPass, ""},
		{"probe 30", "Roll required: No", DecisionPass, ""},
		{"probe 31", "Roll required: Yes (Swim)", DecisionRoll, "Swim"},
		{"probe 32", "Roll required: Yes\nAutomatic success: Yes", DecisionUnparsed, ""},
	})
}

// TestClauseScopeAndKeeperProbes holds probes of a Keeper rolling or reporting, split
// rulings, and negations whose scope is a whole statement.
func TestClauseScopeAndKeeperProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "I'll roll Spot Hidden for you in secret... *rolls* 23. You notice a draft.", DecisionRoll, "Spot Hidden"},
		{"probe 2", "Rolling Listen behind the screen: 56. Nothing.", DecisionRoll, "Listen"},
		{"probe 3", "Secret Stealth roll for the NPC... and for you: roll Stealth.", DecisionRoll, "Stealth"},
		{"probe 4", "Keeper rolls Track for the dog: 14.", DecisionRoll, "Track"},
		{"probe 5", "Library Use: 34, success.", DecisionRoll, "Library Use"},
		{"probe 6", "Spot Hidden — 77, fail.", DecisionRoll, "Spot Hidden"},
		{"probe 7", "Dodge check result: 9. You duck under the swing.", DecisionRoll, "Dodge"},
		{"probe 8", "I rolled your Listen for you: 42. You hear breathing.", DecisionRoll, "Listen"},
		{"probe 9", "That'll take a few Stealth rolls, one per guard post.", DecisionRoll, "Stealth"},
		{"probe 10", "Give me three Swim rolls, one per round.", DecisionRoll, "Swim"},
		{"probe 11", "You'll be making Climb rolls all the way up.", DecisionRoll, "Climb"},
		{"probe 12", "That's a Jump, and a hard one.", DecisionRoll, "Jump"},
		{"probe 13", "This calls for a Stealth check from each of you.", DecisionRoll, "Stealth"},
		{"probe 14", "The fence is easy, no roll; the wall behind it needs a Climb roll.", DecisionRoll, "Climb"},
		{"probe 15", "Getting into the garden: free. Opening the safe: Locksmith.", DecisionRoll, "Locksmith"},
		{"probe 16", "Wading the shallows is automatic, but crossing the channel is a Swim roll.", DecisionRoll, "Swim"},
		{"probe 17", "No roll to spot the attacker — he's obvious — but you'll need to Dodge.", DecisionRoll, "Dodge"},
		{"probe 18", "The walk to the car needs no roll. Stitching the wound does: First Aid.", DecisionRoll, "First Aid"},
		{"probe 19", "The fence needs a Climb roll. Actually, no, the fence is easy — no roll.", DecisionUnparsed, ""},
		{"probe 20", "I can't see her getting up there without a Climb roll.", DecisionRoll, "Climb"},
		{"probe 21", "There's no way he clears that gap without a Jump roll.", DecisionRoll, "Jump"},
		{"probe 22", "There's no way anyone needs a roll to open an unlocked door.", DecisionPass, ""},
		{"probe 23", "I don't think she'll get past without a Stealth roll.", DecisionRoll, "Stealth"},
		{"probe 24", "I don't think she needs a Stealth roll.", DecisionPass, ""},
		{"probe 25", "It's not like she'll hear it automatically. Listen roll.", DecisionRoll, "Listen"},
		{"probe 26", "It's not like it needs a roll.", DecisionPass, ""},
		{"probe 27", "It's hidden. No automatic success: Spot Hidden.", DecisionRoll, "Spot Hidden"},
		{"probe 28", "It's in plain sight, no Spot Hidden roll required.", DecisionPass, ""},
		{"probe 29", "You can't diagnose that without a Medicine roll.", DecisionRoll, "Medicine"},
		{"probe 30", "You can diagnose a broken arm without a Medicine roll.", DecisionPass, ""},
		{"probe 31", "Following a trail over rock is never automatic: Track.", DecisionRoll, "Track"},
		{"probe 32", "Following a road is never something that needs a roll.", DecisionPass, ""},
		{"probe 33", "I wouldn't skip the Swim roll here.", DecisionRoll, "Swim"},
		{"probe 34", "I'd skip the Swim roll here.", DecisionPass, ""},
		{"probe 35", "I'm not waiving this one: Climb.", DecisionRoll, "Climb"},
		{"probe 36", "I'm waiving this one.", DecisionPass, ""},
		{"probe 37", "It won't start without a Mechanical Repair roll.", DecisionRoll, "Mechanical Repair"},
		{"probe 38", "It starts without any roll; it's a new car.", DecisionPass, ""},
		{"probe 39", "Unless she rolls Stealth, the guard sees her.", DecisionRoll, "Stealth"},
		{"probe 40", "She takes the hit unless she makes a Dodge roll.", DecisionRoll, "Dodge"},
		{"probe 41", "A Climb roll wouldn't be wrong, but neither would letting it through.", DecisionUnparsed, ""},
		{"probe 42", "Technically a Stealth roll, though in practice I'd skip it.", DecisionUnparsed, ""},
		{"probe 43", "There's no way she finds it unless she passes a Library Use roll.", DecisionRoll, "Library Use"},
		{"probe 44", "With no one watching and nothing at stake, it's an automatic success.", DecisionPass, ""},
	})
}

func TestClauseAskedQuotes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"asked then no", "\"Does this need a Swim roll?\" you ask. It does not.", DecisionPass, ""},
		{"asked then yes", "\"Does this need a Swim roll?\" you ask. It does.", DecisionRoll, "Swim"},
		{"asked automatic then no", "\"Is it automatic?\" she asks. No: Track.", DecisionRoll, "Track"},
		{"the player asks then nope", "\"Do I need to roll?\" the player asks. Nope.", DecisionPass, ""},
		{"a quoted claim stays the player's", "\"No roll needed,\" the player says.", DecisionUnparsed, ""},
	})
}

func TestClauseNotSkills(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"a hedge as a roll's value", "Roll: Maybe", DecisionUnparsed, ""},
		{"depends as a roll's value", "Roll: Depends", DecisionUnparsed, ""},
		{"unclear as a roll's value", "Roll needed: Unclear", DecisionUnparsed, ""},
		{"let's see a person", "Let's see Professor Armitage.", DecisionUnparsed, ""},
		{"let's see a skill", "Let's see a Track roll.", DecisionRoll, "Track"},
		{"a narrated result with a target", "You spot the tracks (Spot Hidden 34/60).", DecisionRoll, "Spot Hidden"},
		{"a result against a target", "You hear the whisper. Listen 12/55.", DecisionRoll, "Listen"},
		{"a narrated climb", "You climb the stairs to the attic.", DecisionPass, ""},
		{"a final word is no skill", "Final roll: Dodge.", DecisionRoll, "Dodge"},
	})
}

// TestClauseSoftSpokenProbes holds probes of rulings said softly or in a Keeper's shorthand:
// they still rule.
func TestClauseSoftSpokenProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Tentatively: roll Climb.", DecisionRoll, "Climb"},
		{"probe 2", "I think a Climb roll.", DecisionRoll, "Climb"},
		{"probe 3", "I reckon no roll.", DecisionPass, ""},
		{"probe 4", "Seems like a Stealth roll to me.", DecisionRoll, "Stealth"},
		{"probe 5", "Sounds like a Listen check.", DecisionRoll, "Listen"},
		{"probe 6", "I'd want to see a Dodge roll.", DecisionRoll, "Dodge"},
		{"probe 7", "Feels like an automatic success.", DecisionPass, ""},
		{"probe 8", "Pretty sure it's automatic.", DecisionPass, ""},
		{"probe 9", "I'm fairly confident no roll is needed.", DecisionPass, ""},
		{"probe 10", "My call: Track.", DecisionRoll, "Track"},
		{"probe 11", "My call: no roll.", DecisionPass, ""},
		{"probe 12", "Ruling — Swim roll.", DecisionRoll, "Swim"},
		{"probe 13", "Ruling — automatic.", DecisionPass, ""},
		{"probe 14", "Call it a Jump roll.", DecisionRoll, "Jump"},
		{"probe 15", "Call it automatic.", DecisionPass, ""},
		{"probe 16", "I'll need you to roll Locksmith.", DecisionRoll, "Locksmith"},
		{"probe 17", "Go on then, roll Spot Hidden.", DecisionRoll, "Spot Hidden"},
		{"probe 18", "Go on then, no need to roll.", DecisionPass, ""},
		{"probe 19", "Roll your Mechanical Repair.", DecisionRoll, "Mechanical Repair"},
		{"probe 21", "Patch him up, no roll needed — it's a scratch.", DecisionPass, ""},
		{"probe 22", "Chuck it! Throw roll!", DecisionRoll, "Throw"},
		{"probe 23", "Swing away — Fighting roll.", DecisionRoll, "Fighting"},
		{"probe 24", "Take the shot: Firearms.", DecisionRoll, "Firearms"},
		{"probe 25", "Hit the books: Library Use.", DecisionRoll, "Library Use"},
		{"probe 26", "Up you go. Climb roll, please.", DecisionRoll, "Climb"},
		{"probe 27", "Up you go, no roll.", DecisionPass, ""},
		{"probe 28", "Sneak check.", DecisionRoll, "Stealth"},
		{"probe 30", "Listening roll.", DecisionRoll, "Listen"},
		{"probe 31", "Medical roll.", DecisionRoll, "Medicine"},
	})
}

// TestClauseLanguageProbes holds probes in French, German, Spanish, Italian and Portuguese:
// rolls, passes, a roll no one passes without, refusals and hedges.
func TestClauseLanguageProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Un jet d'Escalade est nécessaire, la paroi est humide.", DecisionRoll, "Climb"},
		{"probe 2", "Pas besoin de jet : l'échelle est solide.", DecisionPass, ""},
		{"probe 3", "Impossible de nager jusque-là sans un jet de Natation.", DecisionRoll, "Swim"},
		{"probe 4", "Je ne peux pas vous aider avec ça.", DecisionRefused, ""},
		{"probe 5", "Peut-être un jet, peut-être pas.", DecisionUnparsed, ""},
		{"probe 6", "Eine Probe auf Heimlichkeit, bitte.", DecisionRoll, "Stealth"},
		{"probe 7", "Dafür braucht es keine Probe.", DecisionPass, ""},
		{"probe 8", "Würfel auf Horchen.", DecisionRoll, "Listen"},
		{"probe 9", "Ich kann dir dabei nicht helfen.", DecisionRefused, ""},
		{"probe 10", "Vielleicht eine Probe, vielleicht nicht.", DecisionUnparsed, ""},
		{"probe 11", "Haz una tirada de Rastrear.", DecisionRoll, "Track"},
		{"probe 12", "No hace falta tirada para abrir una puerta abierta.", DecisionPass, ""},
		{"probe 13", "Sin una tirada de Saltar no cruzas.", DecisionRoll, "Jump"},
		{"probe 14", "No puedo ayudarte con esto.", DecisionRefused, ""},
		{"probe 15", "Quizás una tirada, quizás no.", DecisionUnparsed, ""},
		{"probe 16", "Fai un tiro di Schivare!", DecisionRoll, "Dodge"},
		{"probe 17", "Non serve nessun tiro, la porta è aperta.", DecisionPass, ""},
		{"probe 18", "Senza un tiro di Nuotare non ce la fai.", DecisionRoll, "Swim"},
		{"probe 19", "Mi dispiace, non posso aiutarti.", DecisionRefused, ""},
		{"probe 20", "Forse un tiro, forse no.", DecisionUnparsed, ""},
		{"probe 21", "Faça um teste de Escutar.", DecisionRoll, "Listen"},
		{"probe 22", "Sem teste, a porta está aberta.", DecisionPass, ""},
		{"probe 23", "Sem um teste de Escalar, não dá para subir.", DecisionRoll, "Climb"},
		{"probe 24", "Desculpe, não posso ajudar com isso.", DecisionRefused, ""},
		{"probe 25", "Talvez um teste, talvez não.", DecisionUnparsed, ""},
		{"probe 26", "Tira un dado de Descubrir (Spot Hidden).", DecisionRoll, "Spot Hidden"},
		{"probe 27", "Réussite automatique.", DecisionPass, ""},
		{"probe 28", "Automatischer Erfolg.", DecisionPass, ""},
		{"probe 29", "Éxito automático.", DecisionPass, ""},
		{"probe 30", "Successo automatico.", DecisionPass, ""},
		{"probe 31", "Sucesso automático.", DecisionPass, ""},
		{"probe 32", "Non, un jet de Grimper.", DecisionRoll, "Climb"},
		{"probe 33", "No, una tirada de Trepar.", DecisionRoll, "Climb"},
		{"probe 34", "Non, pas de jet.", DecisionPass, ""},
	})
}

// TestClauseArguedProbes holds probes of replies that weigh both sides before they rule,
// or leave it open.
func TestClauseArguedProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "This is a tricky one. On one hand, the investigator is a trained climber and the wall has plenty of handholds. On the other hand, it's raining and dark. I could see it going either way, honestly.", DecisionUnparsed, ""},
		{"probe 2", "This is a tricky one. The investigator is a trained climber, which argues for no roll. But it's raining and dark, and a fall would be serious. I'm going to ask for a Climb roll.", DecisionRoll, "Climb"},
		{"probe 3", "The player wants to roll Spot Hidden to find the key. But the key is sitting on the table in plain view. There's nothing to find; no roll is needed.", DecisionPass, ""},
		{"probe 4", "The player wants to skip the roll because they're \"obviously looking\". But the compartment is deliberately hidden. Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		{"probe 5", "If the guard is awake, Stealth. If he's asleep, no roll. The context doesn't say which.", DecisionUnparsed, ""},
		{"probe 6", "Whether the guard is awake or not, sneaking past in hobnailed boots on a stone floor calls for a Stealth roll.", DecisionRoll, "Stealth"},
		{"probe 7", "Normally I'd want a Swim roll, but the pool is waist-deep and calm, so no roll is needed.", DecisionPass, ""},
		{"probe 8", "Normally the pool would be automatic, but the current is strong today: Swim roll.", DecisionRoll, "Swim"},
		{"probe 9", "I'd normally call for a Swim roll here.", DecisionUnparsed, ""},
		{"probe 10", "I'd normally call for a Swim roll, but not here: the water is waist-deep.", DecisionPass, ""},
		{"probe 11", "Finding a specific 1890s newspaper in an unindexed archive is not trivial. The player's claim that they'd \"obviously find it\" doesn't hold. Library Use roll.", DecisionRoll, "Library Use"},
		{"probe 12", "The clerk hands over the file. No Library Use roll required.", DecisionPass, ""},
		{"probe 13", "Tracking through fresh snow would normally be trivial, but it's been snowing for hours and the prints are filling in. I'd ask for a Track roll.", DecisionRoll, "Track"},
		{"probe 14", "Tracking through fresh snow with prints this deep is trivial. No roll.", DecisionPass, ""},
		{"probe 15", "I don't know whether this needs a roll.", DecisionUnparsed, ""},
		{"probe 16", "Not sure. Could be a Dodge roll.", DecisionUnparsed, ""},
		{"probe 17", "Not sure why the player thinks this is automatic. It's a Dodge roll.", DecisionRoll, "Dodge"},
		{"probe 18", "Not sure why anyone would roll for this. It's automatic.", DecisionPass, ""},
	})
}

// TestClauseMarkdownProbes holds probes of markdown answers: YAML fences, quotes, numbered
// labels, headers with marks, tables, code spans and strikethrough.
func TestClauseMarkdownProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "```yaml\ndecision: roll\nskill: Climb\nreason: wet wall\n```", DecisionRoll, "Climb"},
		{"probe 2", "```yaml\ndecision: automatic_success\nskill: null\n```", DecisionPass, ""},
		{"probe 3", "```yaml\ndecision: roll\nskill: Climb\n```\n\n~~roll~~ Actually automatic.", DecisionUnparsed, ""},
		{"probe 4", "> **Ruling:** Stealth roll\n> The guards are alert.", DecisionRoll, "Stealth"},
		{"probe 5", "> **Ruling:** No roll\n> The hall is empty.", DecisionPass, ""},
		{"probe 6", "1. **Decision:** Roll\n2. **Skill:** Jump\n3. **Reason:** Wide gap.", DecisionRoll, "Jump"},
		{"probe 7", "1. **Decision:** Automatic success\n2. **Reason:** Tiny gap.", DecisionPass, ""},
		{"probe 8", "### ✅ Roll required\n**Skill:** Listen", DecisionRoll, "Listen"},
		{"probe 9", "### ❌ No roll required", DecisionPass, ""},
		{"probe 10", "| Field | Value |\n|---|---|\n| Roll? | Yes |\n| Skill | Track |", DecisionRoll, "Track"},
		{"probe 11", "| Field | Value |\n|---|---|\n| Roll? | No |\n| Skill | — |", DecisionPass, ""},
		{"probe 12", "| Field | Value |\n|---|---|\n| Roll? | Maybe |\n| Skill | Track |", DecisionUnparsed, ""},
		{"probe 13", "**DECISION: ROLL** | **SKILL: DODGE**", DecisionRoll, "Dodge"},
		{"probe 14", "**DECISION: AUTOMATIC SUCCESS**", DecisionPass, ""},
		{"probe 15", "- Decision: `roll`\n- Skill: `First Aid`", DecisionRoll, "First Aid"},
		{"probe 16", "- Decision: `automatic_success`\n- Skill: `null`", DecisionPass, ""},
	})
}

// TestClausePlayByPostProbes holds probes of play-by-post Keeper posts: roll tags, OOC
// notes, group rolls and narration.
func TestClausePlayByPostProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "The study is cluttered. !roll 1d100 Spot Hidden", DecisionRoll, "Spot Hidden"},
		{"probe 2", "@Marcus roll Stealth please, the guards are close.", DecisionRoll, "Stealth"},
		{"probe 3", "(Climb roll, please.)", DecisionRoll, "Climb"},
		{"probe 4", "[roll Library Use]", DecisionRoll, "Library Use"},
		{"probe 5", "Roll: Listen (55)", DecisionRoll, "Listen"},
		{"probe 6", "**Track roll** needed to follow them.", DecisionRoll, "Track"},
		{"probe 7", "(No roll needed — you just walk in.)", DecisionPass, ""},
		{"probe 8", "OOC: no roll for this, go ahead and post your entry.", DecisionPass, ""},
		{"probe 9", "OOC: Jump roll before you post the landing.", DecisionRoll, "Jump"},
		{"probe 10", "Posting for the group: everyone in the water, Swim rolls each round.", DecisionRoll, "Swim"},
		{"probe 11", "Keeper: Doors open easily. No rolls this post.", DecisionPass, ""},
		{"probe 12", "Keeper: The beast lunges. Dodge rolls, everyone.", DecisionRoll, "Dodge"},
		{"probe 13", "Roll for Stealth.", DecisionRoll, "Stealth"},
		{"probe 14", "Roll for Listen, Hard.", DecisionRoll, "Listen"},
		{"probe 15", "Make your Spot Hidden rolls.", DecisionRoll, "Spot Hidden"},
		{"probe 16", "Make your rolls, everyone.", DecisionRoll, ""},
		{"probe 17", "You make it across without incident.", DecisionPass, ""},
		{"probe 18", "You make it up the ladder easily.", DecisionPass, ""},
		{"probe 19", "You make it halfway up before the rope creaks.", DecisionUnparsed, ""},
		{"probe 20", "[Locksmith roll, Hard difficulty — the lock is rusted]", DecisionRoll, "Locksmith"},
	})
}

func TestClauseSkillAnswers(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"one no, one yes", "Listen: no. Spot Hidden: yes — the note is tucked away.", DecisionRoll, "Spot Hidden"},
		{"all no", "Climb: no. Jump: no. It's a staircase.", DecisionPass, ""},
		{"yes", "Stealth: yes.", DecisionRoll, "Stealth"},
		{"needed", "Locksmith: needed, the lock is old.", DecisionRoll, "Locksmith"},
	})
}

func TestClauseOtherKeepers(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"others would, I wouldn't", "Some Keepers would call for a Jump roll here. I wouldn't — it's a puddle.", DecisionPass, ""},
		{"not me", "Plenty of GMs would call for a Listen roll. Not me.", DecisionPass, ""},
		{"others would, and nothing more", "Some Keepers would roll Throw here.", DecisionUnparsed, ""},
		{"others would skip, I wouldn't", "Some Keepers would skip the roll here. I wouldn't: Throw.", DecisionRoll, "Throw"},
	})
}

func TestClauseNumbersNeedSkillNames(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"a fraction is no result", "You climb 3/4 of the way up.", DecisionUnparsed, ""},
		{"a price is no result", "It costs 20 for the library card.", DecisionUnparsed, ""},
		{"a result on a skill", "38 on your Spot Hidden, under your 60.", DecisionRoll, "Spot Hidden"},
		{"dice is no skill", "Dice roll, please.", DecisionRoll, ""},
	})
}

// TestClauseRefusalProbes holds probes of refusals, replies that cannot tell, and rulings
// that only sound like refusals.
func TestClauseRefusalProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "I'm sorry, I can't provide a ruling for this scenario.", DecisionRefused, ""},
		{"probe 2", "I won't be adjudicating this one.", DecisionRefused, ""},
		{"probe 3", "That's a call for your Keeper, not me.", DecisionRefused, ""},
		{"probe 4", "I'd rather leave this decision to you and your group.", DecisionRefused, ""},
		{"probe 5", "I'm not in a position to make this call.", DecisionRefused, ""},
		{"probe 6", "I don't think I should be the one to rule on this.", DecisionRefused, ""},
		{"probe 7", "I have to decline this request.", DecisionRefused, ""},
		{"probe 8", "Unfortunately, I'm unable to assist with that.", DecisionRefused, ""},
		{"probe 9", "I can't tell whether a roll is needed from this description.", DecisionUnparsed, ""},
		{"probe 10", "There isn't enough information to decide.", DecisionUnparsed, ""},
		{"probe 11", "Not enough context to rule.", DecisionUnparsed, ""},
		{"probe 12", "I need more information before I can rule.", DecisionUnparsed, ""},
		{"probe 13", "Could you clarify whether the guard is awake?", DecisionUnparsed, ""},
		{"probe 14", "I won't make you roll for this — the gate is open.", DecisionPass, ""},
		{"probe 15", "I can't justify a roll here.", DecisionPass, ""},
		{"probe 16", "I can't justify skipping the roll: Climb.", DecisionRoll, "Climb"},
		{"probe 17", "I refuse to call for dice on a staircase.", DecisionPass, ""},
		{"probe 18", "I refuse to let this go without a Swim roll.", DecisionRoll, "Swim"},
		{"probe 19", "Error: content filtered.", DecisionUnparsed, ""},
		{"probe 20", "[No response]", DecisionUnparsed, ""},
	})
}

// TestClauseIssueExamples holds issue 29's own examples of each kind, word for word.
func TestClauseIssueExamples(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"example 1", "I can't see her managing it without a Dodge roll", DecisionRoll, "Dodge"},
		{"example 2", "the ditch is nothing, no dice; the cliff after it is a Climb roll", DecisionRoll, "Climb"},
		{"example 3", "she rolls if the dog stirs; otherwise not", DecisionUnparsed, ""},
		{"example 4", "could go either way", DecisionUnparsed, ""},
		{"example 5", "The answer is no ro", DecisionUnparsed, ""},
		{"example 6", "Give me a Listen roll.", DecisionRoll, "Listen"},
		{"example 7", "Afraid that one's a Swim roll.", DecisionRoll, "Swim"},
		{"example 8", "Mechanical Repair, please, go ahead and roll.", DecisionRoll, "Mechanical Repair"},
		{"example 9", "Needs a roll? It does: Stealth.", DecisionRoll, "Stealth"},
		{"example 10", "Check required: yes, Climb.", DecisionRoll, "Climb"},
		{"example 11", "Dice? Yes. Which? Library Use.", DecisionRoll, "Library Use"},
		{"example 12", "A garden fence wouldn't need dice, but this one is rotten: Climb.", DecisionRoll, "Climb"},
		{"example 13", "Let me roll Spot Hidden for you... *rolls* 41", DecisionRoll, "Spot Hidden"},
		{"example 14", "that calls for several Stealth rolls", DecisionRoll, "Stealth"},
		{"example 15", "Listen check result: 27", DecisionRoll, "Listen"},
		{"example 16", "You don't need dice for this; the key is in the lock.", DecisionPass, ""},
		{"example 17", "It just works, nothing stands in the way.", DecisionPass, ""},
		{"example 18", "Make a Firearms (Crossbow) roll.", DecisionRoll, "Firearms"},
		{"example 19", "Handgun roll.", DecisionRoll, "Firearms"},
		{"example 20", "Library Research roll.", DecisionRoll, "Library Use"},
		{"example 21", "Fighting (Axe) roll.", DecisionRoll, "Fighting"},
		{"example 22", "Wisdom (Perception) roll.", DecisionRoll, "Wisdom (Perception)"},
		{"example 23", "I'll pass on judging this scene.", DecisionRefused, ""},
		{"example 24", "For safety reasons I won't weigh in on this.", DecisionRefused, ""},
	})
}

// TestClausePartsProbes holds probes of replies that rule part by part, after colons and
// dashes.
func TestClausePartsProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Walking to the door: no roll. Opening it: no roll either.", DecisionPass, ""},
		{"probe 2", "Step one: cross the room — automatic. Step two: pick the lock — Locksmith.", DecisionRoll, "Locksmith"},
		{"probe 3", "The roll: Climb.", DecisionRoll, "Climb"},
		{"probe 4", "Reason: the wall is wet. Decision: roll. Skill: Climb.", DecisionRoll, "Climb"},
		{"probe 5", "Note: no roll is needed for the first part, but the second part needs a Jump roll.", DecisionRoll, "Jump"},
		{"probe 6", "Crossing the yard: no roll. Crossing the yard at night: maybe Stealth.", DecisionUnparsed, ""},
		{"probe 7", "The boat trip: automatic. Falling in: Swim.", DecisionRoll, "Swim"},
		{"probe 8", "The boat trip: automatic. The walk back: automatic.", DecisionPass, ""},
		{"probe 9", "The door: automatic. The door: Locksmith.", DecisionUnparsed, ""},
		{"probe 10", "Approach: no roll. The swing: Dodge.", DecisionRoll, "Dodge"},
		{"probe 11", "Getting in the car: no roll. Driving to the shop: no roll.", DecisionPass, ""},
		{"probe 12", "Quiet approach — Stealth. Opening the gate — automatic.", DecisionRoll, "Stealth"},
		{"probe 13", "Listening at the door — Listen, regular difficulty.", DecisionRoll, "Listen"},
		{"probe 14", "Opening the unlocked door — automatic, no roll.", DecisionPass, ""},
		{"probe 15", "The wall: Climb. Actually no, the wall: automatic.", DecisionUnparsed, ""},
	})
}

// TestClauseJSONProbes holds probes of JSON answers: other keys, nesting, arrays, reasons
// that agree or disagree, broken and cut objects, skill names.
func TestClauseJSONProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "{\"roll_required\": true, \"skill\": \"Climb\"}", DecisionRoll, "Climb"},
		{"probe 2", "{\"needs_roll\": \"yes\"}", DecisionRoll, ""},
		{"probe 3", "{\"decision\": \"Roll\", \"skill\": \"Spot Hidden (Hard)\"}", DecisionRoll, "Spot Hidden"},
		{"probe 4", "{\"decision\": \"roll\", \"skill\": \"climb\"}", DecisionRoll, "Climb"},
		{"probe 5", "{\"decision\": \"no_roll\"}", DecisionPass, ""},
		{"probe 6", "{\"result\": \"automatic success\"}", DecisionPass, ""},
		{"probe 7", "{\"ruling\": {\"decision\": \"roll\", \"skill\": \"Jump\"}}", DecisionRoll, "Jump"},
		{"probe 8", "[{\"decision\": \"roll\", \"skill\": \"Stealth\"}]", DecisionRoll, "Stealth"},
		{"probe 9", "{\"decision\": \"roll\", \"skill\": \"Climb\", \"reason\": \"No automatic success: the wall is slick.\"}", DecisionRoll, "Climb"},
		{"probe 10", "{\"decision\": \"automatic_success\", \"skill\": null, \"reason\": \"There is no need for a Climb roll; the ladder is fixed.\"}", DecisionPass, ""},
		{"probe 11", "{\"decision\": \"automatic_success\", \"skill\": \"Climb\", \"reason\": \"She must make a Climb roll.\"}", DecisionUnparsed, ""},
		{"probe 12", "{\"decision\": \"roll\", \"skill\": \"Track\", \"reason\": \"The player says no roll is needed, but the trail is old.\"}", DecisionRoll, "Track"},
		{"probe 13", "{'decision': 'roll', 'skill': 'Listen'}", DecisionRoll, "Listen"},
		{"probe 14", "{\"decision\": \"roll\", \"skill\": \"Dodge\",}", DecisionRoll, "Dodge"},
		{"probe 15", "{\"decision\": \"roll\", \"skill\": \"Dodge\", \"reason\": \"The blade is fa", DecisionRoll, "Dodge"},
		{"probe 16", "{\"decision\":\"roll\",\"skill\":\"Firearms (Rifle/Shotgun)\",\"reason\":\"Long shot.\"}", DecisionRoll, "Firearms"},
		{"probe 17", "{\"decision\":\"roll\",\"skill\":\"Brawl\",\"reason\":\"Fistfight.\"}", DecisionRoll, "Fighting"},
		{"probe 18", "{\"decision\":\"roll\",\"skill\":\"Lockpicking\"}", DecisionRoll, "Locksmith"},
		{"probe 19", "{\"decision\":\"automatic_success\",\"skill\":\"\",\"reason\":\"\"}", DecisionPass, ""},
		{"probe 20", "{\"decision\":\"\",\"skill\":\"Climb\"}", DecisionUnparsed, ""},
		{"probe 21", "{\"decision\": null}", DecisionUnparsed, ""},
		{"probe 22", "{\"decision\":\"roll\",\"skill\":\"Persuade\"}", DecisionRoll, "Persuade"},
	})
}

// TestClauseReasoningProbes holds probes of replies that reason before the answer, tagged
// or not.
func TestClauseReasoningProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Thinking...\nThe player says no roll is needed. But the wall is wet. A roll is needed.\n...done thinking.\n\nMake a Climb roll.", DecisionRoll, "Climb"},
		{"probe 2", "Thinking...\nIs a Climb roll needed? The ladder is bolted. No.\n...done thinking.\n\nNo roll needed.", DecisionPass, ""},
		{"probe 3", "Let me think step by step.\n1. The river is fast.\n2. The investigator is untrained.\n3. So a roll is needed.\n\nAnswer: Swim roll.", DecisionRoll, "Swim"},
		{"probe 4", "Let me think step by step.\n1. Could this need a Swim roll? The water is ankle-deep.\n2. So no.\n\nAnswer: no roll.", DecisionPass, ""},
		{"probe 5", "Reasoning: Automatic success would be too generous; the guards are alert.\nDecision: roll\nSkill: Stealth", DecisionRoll, "Stealth"},
		{"probe 6", "Reasoning: A Stealth roll would be overkill; nobody is around.\nDecision: automatic_success", DecisionPass, ""},
		{"probe 7", "Thinking...\nMaybe Climb? Maybe not.\n...done thinking.", DecisionUnparsed, ""},
		{"probe 8", "<reasoning>\nautomatic? no.\n</reasoning>\nJump roll.", DecisionRoll, "Jump"},
		{"probe 9", "<thinking>Should I ask for a roll? No.</thinking>No roll required.", DecisionPass, ""},
	})
}

// TestClauseBanterProbes holds probes of a Keeper's quick banter, each roll beside its pass.
func TestClauseBanterProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Hmm, the clue is tucked inside the book's spine. I'd say that calls for Spot Hidden.", DecisionRoll, "Spot Hidden"},
		{"probe 3", "Nope, not automatic — the butler's right there. Stealth.", DecisionRoll, "Stealth"},
		{"probe 4", "Yep, automatic. The butler's asleep.", DecisionPass, ""},
		{"probe 5", "Oof. The truck's coming fast — Dodge!", DecisionRoll, "Dodge"},
		{"probe 7", "She'll need patching up: First Aid.", DecisionRoll, "First Aid"},
		{"probe 8", "She's fine, it's a scratch. No need for First Aid.", DecisionPass, ""},
		{"probe 9", "That's a Climb, I'm afraid.", DecisionRoll, "Climb"},
		{"probe 11", "You'd have to Listen for it.", DecisionRoll, "Listen"},
		{"probe 12", "You'd hear it anyway; no Listen roll.", DecisionPass, ""},
		{"probe 13", "Fixing it needs Mechanical Repair.", DecisionRoll, "Mechanical Repair"},
		{"probe 15", "Fixing it needs... hmm.", DecisionUnparsed, ""},
	})
}

func TestClauseNotesAfterAnswers(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"a detail handed over", "{\"decision\": \"roll\", \"skill\": \"Climb\", \"reason\": \"Wet wall.\"}\n\nWhether to add a penalty die is your call.", DecisionRoll, "Climb"},
		{"the ruling taken back", "{\"decision\": \"roll\", \"skill\": \"Climb\", \"reason\": \"Wet wall.\"}\n\nThen again, the rope is good.", DecisionUnparsed, ""},
	})
}

// TestClauseHedgeProbes holds probes of hedges: split minds, trailing conditions, might
// and could, and the firm rulings beside them.
func TestClauseHedgeProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Honestly, I'm split on this one. Could be Stealth, could be automatic.", DecisionUnparsed, ""},
		{"probe 2", "My gut says roll, my head says automatic.", DecisionUnparsed, ""},
		{"probe 3", "I keep going back and forth. Roll Jump? Or let it slide?", DecisionUnparsed, ""},
		{"probe 4", "Roll Climb — or don't, if the ladder is still there.", DecisionUnparsed, ""},
		{"probe 5", "No roll... unless the guard looks up.", DecisionUnparsed, ""},
		{"probe 6", "A roll might be wise.", DecisionUnparsed, ""},
		{"probe 7", "A Spot Hidden roll might be needed.", DecisionUnparsed, ""},
		{"probe 8", "A Spot Hidden roll is needed.", DecisionRoll, "Spot Hidden"},
		{"probe 9", "I'd probably skip the roll, but I'm not certain.", DecisionUnparsed, ""},
		{"probe 10", "I'd skip the roll.", DecisionPass, ""},
		{"probe 11", "Could be worth a Dodge roll, could be nothing.", DecisionUnparsed, ""},
		{"probe 12", "Not 100% sure, but maybe a Track roll.", DecisionUnparsed, ""},
		{"probe 13", "I'm 100% sure: Track roll.", DecisionRoll, "Track"},
		{"probe 14", "50/50 on this one.", DecisionUnparsed, ""},
	})
}

// TestClauseLongChattyProbes holds probes of long, chatty replies that weigh the player's
// claim and what other tables do before they rule.
func TestClauseLongChattyProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Thanks for the detailed setup! Here's how I'd handle it.\n\nThe player wants to slip past the cultists at the gate. They're arguing that their character is \"basically a ghost\" and shouldn't need to roll. I get the appeal, and on a quiet night with distracted guards I might agree.\n\nBut the context says the cultists are alert, torches are lit, and the ground is gravel. That's exactly the kind of situation where failure is interesting and likely.\n\n**Ruling:** Stealth roll. If they fail, the nearest cultist turns and calls out.", DecisionRoll, "Stealth"},
		{"probe 2", "Great scene! Let's break it down.\n\nThe investigator wants to read a newspaper headline in a well-lit café. There's no time pressure, no opposition, and nothing hidden about it. Some Keepers call for Library Use whenever reading comes up, but that skill is for research, not for reading a headline.\n\nSo: no roll. She reads it and learns the ship went down off Devil Reef.", DecisionPass, ""},
		{"probe 3", "Great scene! Let's break it down.\n\nOn one hand, the investigator is an expert climber. On the other hand, the rock is wet. I could honestly see a Climb roll or no roll at all here; it depends on how harsh your table likes to play.", DecisionUnparsed, ""},
		{"probe 4", "I love this kind of situation. So, the player says: \"I'm a hunter, I follow the tracks, no roll needed.\" Fair enough in ideal conditions. But it rained all night, the ground is rocky, and the quarry is deliberately covering its trail. Under those conditions, I'd definitely want a Track roll — possibly even at Hard difficulty.", DecisionRoll, "Track"},
		{"probe 5", "Okay! Looking at this: the door is unlocked, the hallway is empty, and the investigator is just walking to the kitchen. I don't see any reason to involve dice. She gets there and finds the note on the fridge.", DecisionPass, ""},
	})
}

// TestClauseResultProbes holds probes of rolls reported with their results, and of grudging
// rulings.
func TestClauseResultProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "You rolled a 34 on Climb — success.", DecisionRoll, "Climb"},
		{"probe 2", "The player rolled Climb and got 34.", DecisionRoll, "Climb"},
		{"probe 3", "Result of your Listen check: 12. You hear it.", DecisionRoll, "Listen"},
		{"probe 4", "Spot Hidden: rolled 88 — failure. You miss it.", DecisionRoll, "Spot Hidden"},
		{"probe 5", "Rolled Dodge: 15, success.", DecisionRoll, "Dodge"},
		{"probe 6", "Track (45%): rolled 30. You follow the trail.", DecisionRoll, "Track"},
		{"probe 7", "You don't roll; you just see it.", DecisionPass, ""},
		{"probe 9", "I guess that's a Swim roll.", DecisionRoll, "Swim"},
		{"probe 10", "I guess no roll, then.", DecisionPass, ""},
		{"probe 11", "Fine, fine — Climb roll.", DecisionRoll, "Climb"},
		{"probe 12", "Fine, fine — no roll.", DecisionPass, ""},
		{"probe 14", "Eh, automatic.", DecisionPass, ""},
		{"probe 15", "Lo siento, pero es una tirada de Library Use.", DecisionRoll, "Library Use"},
		{"probe 17", "Tut mir leid, aber das ist eine Probe auf Stealth.", DecisionRoll, "Stealth"},
	})
}

// TestClauseRhetoricProbes holds probes of rhetoric: questions answered "absolutely",
// "only a fool would", "anything but", "far from".
func TestClauseRhetoricProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "The safe's behind the painting, but she has to notice it first: Spot Hidden.", DecisionRoll, "Spot Hidden"},
		{"probe 2", "Climbing the drainpipe? Definitely a roll. Climb.", DecisionRoll, "Climb"},
		{"probe 3", "Climbing the stairs? Definitely not a roll.", DecisionPass, ""},
		{"probe 4", "It's a long way across; you'll want a Jump roll to be safe — actually no, it's required: Jump.", DecisionRoll, "Jump"},
		{"probe 5", "Swimming across in a storm without a Swim roll? Absolutely not.", DecisionRoll, "Swim"},
		{"probe 6", "Swimming across a paddling pool without a Swim roll? Absolutely.", DecisionPass, ""},
		{"probe 7", "Only a Locksmith roll gets that safe open.", DecisionRoll, "Locksmith"},
		{"probe 8", "Only a fool would ask for a roll to open an unlocked door.", DecisionPass, ""},
		{"probe 9", "Hitting a moving target in fog is anything but automatic. Firearms.", DecisionRoll, "Firearms"},
		{"probe 10", "Hitting a barn door from three feet is anything but hard. No roll.", DecisionPass, ""},
		{"probe 11", "It'd be nice to wave it through, but the guards are alert: Stealth roll.", DecisionRoll, "Stealth"},
		{"probe 12", "It'd be harsh to ask for a roll here. Automatic.", DecisionPass, ""},
		{"probe 13", "Far from automatic: Track roll.", DecisionRoll, "Track"},
		{"probe 14", "This is far from automatic.", DecisionRoll, ""},
		{"probe 15", "It is anything but automatic.", DecisionRoll, ""},
	})
}

// TestClauseConditionProbes holds probes of "if" that leaves a ruling open and "if" that
// does not: outcomes, intent, what a roll finds out, "even if", "when".
func TestClauseConditionProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Roll Stealth. If you fail, the guard spots you.", DecisionRoll, "Stealth"},
		{"probe 2", "Make a Climb roll; on a failure you fall.", DecisionRoll, "Climb"},
		{"probe 3", "Roll Jump, and if you botch it you land in the water.", DecisionRoll, "Jump"},
		{"probe 4", "If you want to try, it's a Locksmith roll.", DecisionRoll, "Locksmith"},
		{"probe 5", "When the guard turns away, roll Stealth.", DecisionRoll, "Stealth"},
		{"probe 6", "Once you're at the top, no more rolls are needed; getting there is a Climb roll.", DecisionRoll, "Climb"},
		{"probe 7", "Dodge roll — if it fails, you take 1D6.", DecisionRoll, "Dodge"},
		{"probe 8", "Swim roll, and if you succeed you reach the boat.", DecisionRoll, "Swim"},
		{"probe 9", "If the rope holds, you're fine; if not, Climb.", DecisionUnparsed, ""},
		{"probe 10", "Listen roll to see whether you hear the footsteps.", DecisionRoll, "Listen"},
		{"probe 11", "Spot Hidden to find out if there's a hidden drawer.", DecisionRoll, "Spot Hidden"},
		{"probe 12", "Track, to tell whether the prints are fresh.", DecisionRoll, "Track"},
		{"probe 13", "No roll, even if it's raining.", DecisionPass, ""},
		{"probe 14", "Even if she's an expert, it's a Climb roll in this rain.", DecisionRoll, "Climb"},
		{"probe 15", "No roll if she has a rope; Climb if she doesn't.", DecisionUnparsed, ""},
	})
}

// TestClauseOwnTaxonomyForms reads the forms a Keeper uses with a taxonomy of the user's
// own: labels, Ability (Skill), aliases, a skill the file does not hold (kept as written).
func TestClauseOwnTaxonomyForms(t *testing.T) {
	tax, err := ParseTaxonomy([]byte(`settings: [Fantasy]
categories:
  - id: WIS
    name: Wisdom
    skills: [Perception, Insight]
  - id: STR
    name: Strength
    skills: [Athletics]
aliases:
  Noticing: Perception
`), "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ text, d, skill string }{
		{"Make an Athletics check.", "roll", "Athletics"},
		{"Perception roll.", "roll", "Perception"},
		{"Roll Perception.", "roll", "Perception"},
		{"Athletics: yes.", "roll", "Athletics"},
		{"Strength (Athletics) check, DC 15.", "roll", "Athletics"},
		{"No Insight roll needed.", "pass", ""},
		{"Give me Noticing.", "roll", "Perception"},
		{"Roll Stealth.", "roll", "Stealth"},
		{`{"decision": "roll", "skill": "Wisdom (Insight)"}`, "roll", "Insight"},
		{"This one's an Athletics.", "roll", "Athletics"},
	} {
		got := ParseReply(tt.text, tax)
		if string(got.Decision) != tt.d || tt.skill != "" && got.Skill != tt.skill {
			t.Errorf("ParseReply(%q) = %v [%s]; want %s %s", tt.text, got, got.Rule, tt.d, tt.skill)
		}
	}
}

// TestClauseMarksProbes holds probes of labels with headers, ticks, crosses, code spans and
// dashes.
func TestClauseMarksProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "## Roll: Yes\n## Skill: Climb", DecisionRoll, "Climb"},
		{"probe 2", "**Verdict: Roll (Climb)**", DecisionRoll, "Climb"},
		{"probe 3", "> Roll Climb.", DecisionRoll, "Climb"},
		{"probe 4", "- Roll: ✅\n- Skill: Track", DecisionRoll, "Track"},
		{"probe 5", "- Roll: ❌", DecisionPass, ""},
		{"probe 6", "**Roll needed** ✅ — Stealth", DecisionRoll, "Stealth"},
		{"probe 7", "**No roll needed** ✅", DecisionPass, ""},
		{"probe 8", "`roll` — Dodge", DecisionRoll, "Dodge"},
		{"probe 9", "`automatic_success`", DecisionPass, ""},
		{"probe 10", "Decision — **Roll**\nSkill — **Listen**", DecisionRoll, "Listen"},
		{"probe 11", "Decision — **Automatic success**", DecisionPass, ""},
		{"probe 12", "1) Roll? Yes. 2) Skill? First Aid.", DecisionRoll, "First Aid"},
	})
}

// TestClauseTableTalkProbes holds probes of terse table talk: a cue, a dash or colon, a skill.
func TestClauseTableTalkProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Sorry, mate, that one's a Swim roll.", DecisionRoll, "Swim"},
		{"probe 2", "Go on, give us a Listen roll.", DecisionRoll, "Listen"},
		{"probe 3", "Right then — Stealth, everyone.", DecisionRoll, "Stealth"},
		{"probe 4", "Climb roll. No arguments.", DecisionRoll, "Climb"},
		{"probe 5", "No arguments, no roll.", DecisionPass, ""},
		{"probe 6", "Toolbox out, Mechanical Repair roll.", DecisionRoll, "Mechanical Repair"},
		{"probe 7", "Eyes peeled: Spot Hidden.", DecisionRoll, "Spot Hidden"},
		{"probe 8", "Get your reading glasses: Library Use.", DecisionRoll, "Library Use"},
		{"probe 9", "Fists up — Fighting (Brawl).", DecisionRoll, "Fighting"},
		{"probe 10", "Aim — Firearms (Handgun).", DecisionRoll, "Firearms"},
		{"probe 11", "Toss it — Throw.", DecisionRoll, "Throw"},
		{"probe 12", "Leap — Jump, Hard.", DecisionRoll, "Jump"},
		{"probe 13", "Leap — easy, no roll.", DecisionPass, ""},
		{"probe 14", "Bandages — First Aid.", DecisionRoll, "First Aid"},
		{"probe 15", "Nose to the ground: Track.", DecisionRoll, "Track"},
		{"probe 16", "Nose to the ground? Not needed; the trail's obvious.", DecisionPass, ""},
		{"probe 17", "Picks out: Locksmith.", DecisionRoll, "Locksmith"},
		{"probe 18", "Key in hand: no Locksmith roll.", DecisionPass, ""},
		{"probe 19", "Doctor time: Medicine roll.", DecisionRoll, "Medicine"},
		{"probe 20", "Duck! Dodge roll!", DecisionRoll, "Dodge"},
	})
}

// TestClauseShortCallProbes holds probes of a Keeper's shortest calls.
func TestClauseShortCallProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Roll it: Stealth.", DecisionRoll, "Stealth"},
		{"probe 2", "Spot, please.", DecisionRoll, "Spot Hidden"},
		{"probe 3", "Listen up — Listen roll.", DecisionRoll, "Listen"},
		{"probe 4", "Up the wall: roll Climb.", DecisionRoll, "Climb"},
		{"probe 5", "Climb it. Roll Climb.", DecisionRoll, "Climb"},
		{"probe 6", "Just climb it; no roll.", DecisionPass, ""},
		{"probe 7", "Dive in — and roll Swim.", DecisionRoll, "Swim"},
		{"probe 8", "Jump roll — now!", DecisionRoll, "Jump"},
		{"probe 9", "Sneaky sneaky: Stealth roll.", DecisionRoll, "Stealth"},
		{"probe 10", "Incoming! Dodge!", DecisionRoll, "Dodge"},
		{"probe 11", "Incoming!", DecisionUnparsed, ""},
		{"probe 12", "Look closer — Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		{"probe 13", "Look closer — you see it, no roll.", DecisionPass, ""},
		{"probe 14", "Research time. Library Use, please.", DecisionRoll, "Library Use"},
		{"probe 15", "Follow those prints: Track roll.", DecisionRoll, "Track"},
	})
}

// TestClauseCutAndDiceProbes holds probes of replies cut inside a ruling or a skill's name,
// and of dice spoken of as dice.
func TestClauseCutAndDiceProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Decision: automatic_succ", DecisionUnparsed, ""},
		{"probe 2", "The ruling is: Cli", DecisionUnparsed, ""},
		{"probe 3", "Make a Spot Hid", DecisionUnparsed, ""},
		{"probe 4", "It needs a Lib", DecisionUnparsed, ""},
		{"probe 5", "**Roll required:** Spot Hid", DecisionUnparsed, ""},
		{"probe 6", "{\"decision\": \"automatic_success\", \"skill\": null, \"reason\": \"The door is op", DecisionPass, ""},
		{"probe 7", "Climb roll. The reason is that the wall is we", DecisionRoll, "Climb"},
		{"probe 8", "No roll needed. She has done this a thous", DecisionPass, ""},
		{"probe 9", "Roll: Med", DecisionUnparsed, ""},
		{"probe 10", "I'd say this needs a", DecisionUnparsed, ""},
		{"probe 11", "There's no need to bring dice into it.", DecisionPass, ""},
		{"probe 12", "You'll need to bring dice into it: Climb.", DecisionRoll, "Climb"},
		{"probe 13", "Dice aren't needed.", DecisionPass, ""},
		{"probe 14", "Dice are needed.", DecisionRoll, ""},
		{"probe 15", "Not a roll situation.", DecisionPass, ""},
		{"probe 16", "Definitely a roll situation: Stealth.", DecisionRoll, "Stealth"},
		{"probe 17", "This isn't a dice moment.", DecisionPass, ""},
		{"probe 18", "No dice moment here; it just happens.", DecisionPass, ""},
		{"probe 19", "This is a dice moment. Listen.", DecisionRoll, "Listen"},
		{"probe 20", "Skip the roll and move on.", DecisionPass, ""},
		{"probe 21", "Don't skip the roll — Climb.", DecisionRoll, "Climb"},
		{"probe 22", "I'm not going to call for dice here.", DecisionPass, ""},
		{"probe 23", "I'm going to call for dice here: Swim.", DecisionRoll, "Swim"},
		{"probe 24", "I'd never ask for a roll for this.", DecisionPass, ""},
		{"probe 25", "I'd always ask for a roll for this: Dodge.", DecisionRoll, "Dodge"},
	})
}

// TestClauseDialogueProbes holds probes of posts with dialogue: quoted words someone says
// are theirs, a quoted question someone asks is answered by the reply.
func TestClauseDialogueProbes(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "\"I'll just climb it,\" says Tom. Climb roll, Tom.", DecisionRoll, "Climb"},
		{"probe 2", "Mira says: \"We don't need to roll for this.\" She's wrong: Stealth.", DecisionRoll, "Stealth"},
		{"probe 3", "The cultist shouts \"Roll for your lives!\" and flees.", DecisionUnparsed, ""},
		{"probe 4", "\"No dice,\" the bartender says, refusing the bet.", DecisionUnparsed, ""},
		{"probe 5", "\"No dice,\" the bartender says. And no dice for you either: you just walk in.", DecisionPass, ""},
		{"probe 6", "The player writes: \"I listen at the door, surely that's automatic?\" Not quite — Listen roll.", DecisionRoll, "Listen"},
		{"probe 7", "The player writes: \"Do I need to roll to open an unlocked door?\" No.", DecisionPass, ""},
	})
}

// The fourth round of issue 29: kinds of clause, each with sentences of our own and the
// near misses that must not move.

func TestClauseNegationReach(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// a negation reaches a verb of skipping past a few words
		{"don't even dream of skipping", "Don't even dream of skipping the Swim roll; the current is vicious.", DecisionRoll, "Swim"},
		{"cannot in all fairness waive", "I cannot in all fairness waive the Locksmith check.", DecisionRoll, "Locksmith"},
		{"no getting out of", "There is no getting out of a Dodge roll once the lorry swerves.", DecisionRoll, "Dodge"},
		// a denied reason cancels the negation after it
		{"no reason not to", "I see no reason not to call for Spot Hidden.", DecisionRoll, "Spot Hidden"},
		{"can't find an excuse not to", "Honestly I can't find an excuse not to make her roll Climb.", DecisionRoll, "Climb"},
		{"a reason not to, undenied", "There's a good reason not to make him roll: the door is open.", DecisionPass, ""},
		// a negative quantifier as the subject
		{"nothing about this one", "Relax: nothing about this one needs a roll.", DecisionPass, ""},
		{"nobody rolls", "Okay folks: nobody rolls for crossing the lawn.", DecisionPass, ""},
		// a negated seeing takes the statement in its scope
		{"don't see any reason to make you roll", "I don't see any reason to make you roll; the gate is open.", DecisionPass, ""},
		// a verb is no skill in a slot
		{"wouldn't argue with", "Perhaps it's automatic, but I wouldn't argue with a roll.", DecisionUnparsed, ""},
	})
}

func TestClauseNegatedPasses(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"won't wave it through", "I won't wave this one through. Stealth roll.", DecisionRoll, "Stealth"},
		{"wave it through", "Wave it through; she knows the way.", DecisionPass, ""},
		{"won't let it succeed automatically", "I won't let the punch land automatically: Fighting (Brawl) roll.", DecisionRoll, "Fighting"},
		{"don't put the dice away", "Don't put the dice away just yet, Jump roll.", DecisionRoll, "Jump"},
		{"dice down", "Put your dice down, it's a doorknob.", DecisionPass, ""},
		{"keep your dice in your pocket", "Keep your dice in your pocket for this one.", DecisionPass, ""},
		{"skill denied by name", "That's automatic. Tying a shoelace doesn't need Sleight of Hand.", DecisionPass, ""},
		{"no skill for something", "Nah, no Listen for a gunshot in the same room.", DecisionPass, ""},
	})
}

func TestClauseRequestsAndReports(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"I'd like", "The rope is frayed, so I'd like a Climb roll from you.", DecisionRoll, "Climb"},
		{"ask you for", "I'm going to ask you for a Fighting (Brawl) roll here.", DecisionRoll, "Fighting"},
		{"give it", "Give it a Navigate roll and we'll see where you end up.", DecisionRoll, "Navigate"},
		{"gimme", "Gimme a Jump roll, quick.", DecisionRoll, "Jump"},
		{"ruling", "Tough one, but I'm ruling a Swim roll.", DecisionRoll, "Swim"},
		{"going to be a series", "This is going to be a series of Stealth rolls, one per guard.", DecisionRoll, "Stealth"},
		{"still a roll, though", "Fine speech. Still a Throw roll, though.", DecisionRoll, "Throw"},
		{"one roll with a reason", "One Medicine roll, because the symptoms are strange.", DecisionRoll, "Medicine"},
		{"skill, go", "Alright. Spot Hidden, go.", DecisionRoll, "Spot Hidden"},
		{"skill then", "You want to force it? Mechanical Repair then, and hurry.", DecisionRoll, "Mechanical Repair"},
		{"result against the value", "Listen, 62 against your 45. You hear nothing.", DecisionRoll, "Listen"},
		{"freebie alone", "Freebie. The note is pinned to the door.", DecisionPass, ""},
	})
}

func TestClauseAnswersAfterInterjections(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"oh, absolutely", "Does she need to roll? Oh, absolutely. Climb, the ledge is icy.", DecisionRoll, "Climb"},
		{"course not", "A roll? To open a fridge? Course not.", DecisionPass, ""},
		{"well, no", "Is a check needed? Well, no. It's his own car.", DecisionPass, ""},
	})
}

func TestClauseOtherwiseAndRetractions(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"otherwise after a condition", "Should the dog be asleep, Stealth is pointless; otherwise, roll it.", DecisionUnparsed, ""},
		{"otherwise after a condition with a ruling", "If the lamp is lit, no roll. Otherwise a Spot Hidden roll.", DecisionUnparsed, ""},
		{"sinon", "Si la porte est ouverte, aucun jet ; sinon, Locksmith.", DecisionUnparsed, ""},
		{"otherwise with no condition before", "The ledge is wide. Otherwise it would be a Climb roll; as it is, no roll.", DecisionPass, ""},
		{"retracted, nothing after", "No roll needed — scratch that, let me think about the ice some more.", DecisionUnparsed, ""},
		{"retracted, then ruled", "No roll needed. Scratch that: make a Climb roll, the ice is thin.", DecisionUnparsed, ""},
		{"never mind, then ruled again", "Roll Climb. Never mind that, it's a ladder; no roll.", DecisionUnparsed, ""},
	})
}

func TestClauseOptionsAndTemplates(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"crossed beside ticked", "- ❌ Roll\n- ✅ Automatic success\n\nThe switch is right by the door.", DecisionPass, ""},
		{"ticked roll beside crossed pass", "- ✘ Automatic success\n- ✅ Roll: Track\n\nThe trail is old.", DecisionRoll, "Track"},
		{"cross alone is decoration", "❌ No roll needed", DecisionPass, ""},
		{"template with or", `{"decision": "roll" or "automatic_success", "skill": "Swim" or null}`, DecisionUnparsed, ""},
		{"null decision with a declining reason", `{"decision": null, "skill": null, "reason": "I can't help with this request."}`, DecisionRefused, ""},
		{"null decision with a plain reason", `{"decision": null, "skill": null, "reason": "The scene is unclear."}`, DecisionUnparsed, ""},
	})
}

func TestClauseForeignCompoundsAndQuantifiers(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"hyphened skill", "Der Zaun ist hoch: Climb-Probe.", DecisionRoll, "Climb"},
		{"nichts zu würfeln", "Sie öffnet die Tür. Hier gibt es nichts zu würfeln.", DecisionPass, ""},
		{"nada que tirar", "Lee la carta en voz alta. Nada que tirar.", DecisionPass, ""},
		{"pas besoin de dés", "Il monte l'escalier. Pas besoin de dés.", DecisionPass, ""},
	})
}

func TestClausePoliteRefusalsMore(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"not something I can help with", "I'm afraid this isn't something I can help with.", DecisionRefused, ""},
		{"outside what I can help with", "That request sits outside what I can help with.", DecisionRefused, ""},
		{"guidelines don't allow", "My rules don't allow me to adjudicate this scene.", DecisionRefused, ""},
		{"withheld", "[Response withheld]", DecisionRefused, ""},
		{"german", "Bei dieser Szene kann ich leider nicht helfen.", DecisionRefused, ""},
	})
}

func TestClauseAnswersToSetAside(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"whether, then it doesn't", "I wondered whether the fence needs a Jump roll. It doesn't, it's knee high.", DecisionPass, ""},
		{"whether, then it does", "I asked myself whether the lock needs a Locksmith roll. It does.", DecisionRoll, "Locksmith"},
		{"other tables, then I don't think", "Plenty of Keepers would call for Swim here. I don't think it's warranted; the pool is shallow.", DecisionPass, ""},
		{"a condition is not answered", "If the rope holds, no roll. It doesn't.", DecisionUnparsed, ""},
	})
}

func TestClauseAnswersToSetAsideOpen(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"answer then a condition", "I wondered whether the wall needs a Climb roll. It doesn't, unless it rains.", DecisionUnparsed, ""},
		{"counterfactual answered", "I'd ask for a Swim roll if the river were high, but it isn't.", DecisionUnparsed, ""},
	})
}

func TestClauseNarrationMore(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"and you step", "Sure thing! The latch lifts and you step into the yard.", DecisionPass, ""},
		{"after a dash", "Easy one — you just get in and close the door behind you.", DecisionPass, ""},
		{"third person", "She flips the switch and the cellar lights up.", DecisionPass, ""},
		{"next question", "Easy. You hop the fence. Next?", DecisionPass, ""},
		{"what does she do", "Mary lifts the lid. Inside: letters. She reads the top one.\n\n(What does she do?)", DecisionPass, ""},
		{"the investigator simply does it", "The investigator simply does it. Nobody is watching.", DecisionPass, ""},
		{"a question about the action", "You reach the top? Hm, let me think.", DecisionUnparsed, ""},
		{"third person failing", "She flips the switch, but nothing happens.", DecisionUnparsed, ""},
	})
}

func TestClauseLexiconGrammar(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// "neither A nor B" after its verb
		{"ni ni after the verb", "No hace falta ni Nadar ni Trepar: el río está seco.", DecisionPass, ""},
		{"weder noch after the verb", "Dafür braucht sie weder Klettern noch Springen.", DecisionPass, ""},
		// a verb of skipping inside a pass phrase, denied
		{"keinen Grund zu verzichten", "Es gibt keinen Grund, auf die Probe zu verzichten: Horchen.", DecisionRoll, "Listen"},
		{"aucune raison de renoncer", "Je ne vois aucune raison de renoncer au jet : Grimper.", DecisionRoll, "Climb"},
		{"verzichten, not denied", "Wir können auf die Probe verzichten.", DecisionPass, ""},
		// a lexicon skill alone names the roll's skill
		{"bare lexicon skill", "Tirada obligatoria: Esquivar.", DecisionRoll, "Dodge"},
	})
}

func TestClauseLabelsAndOpenPhrases(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"yes dash unknown skill", "**Roll required:** Yes — **Pilot Aircraft**\n\nThe storm is closing in.", DecisionRoll, "Pilot Aircraft"},
		{"yes dash known skill", "Roll needed: yes — Track", DecisionRoll, "Track"},
		{"yes dash words", "Roll needed: yes — the ice is thin", DecisionRoll, ""},
		{"not sure why anyone", "I'm not sure why anyone would roll for that. No roll.", DecisionPass, ""},
		{"not sure, then sure", "I'm not sure the player will enjoy it, but I am sure a Jump roll is needed.", DecisionRoll, "Jump"},
		{"not sure, left open", "I'm not sure a Jump roll is needed.", DecisionUnparsed, ""},
	})
}

func TestClauseConsideredAndChosen(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"thought about, then no roll", "I thought about asking for a Listen roll, but the radio is blaring. No roll.", DecisionPass, ""},
		{"first instinct overruled", "My first instinct was no roll, but the ice changes things: Climb roll.", DecisionRoll, "Climb"},
		{"a roll for what it is for", "One Track roll to follow the cart.", DecisionRoll, "Track"},
		// judged, not called for: no roll read (the pass itself is not read yet)
		{"a roll for what it is for, judged", "A Climb roll to get up a stepladder would be overkill.", DecisionUnparsed, ""},
		{"a ruling for each choice", "If you try to bluff, Fast Talk; if you pick the lock, Locksmith.", DecisionUnparsed, ""},
		{"choice, then outcome", "If you want to cross, roll Jump. If you fail, you fall.", DecisionRoll, "Jump"},
		{"taken back onto a condition", "Roll Stealth. Actually — is anyone awake? If there's a guard, Stealth; if not, no roll.", DecisionUnparsed, ""},
	})
}

func TestClauseUnsureDecisionValues(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"label probably", "Decision: automatic success (probably)", DecisionUnparsed, ""},
		{"label unless", "Decision: roll — unless the guard is asleep\nSkill: Stealth", DecisionUnparsed, ""},
		{"label though", "Decision: roll, though I could live with automatic\nSkill: Swim", DecisionUnparsed, ""},
		{"json perhaps", `{"decision": "roll, perhaps", "skill": "Track"}`, DecisionUnparsed, ""},
		{"label with a reason", "Decision: roll, because the rope is wet\nSkill: Climb", DecisionRoll, "Climb"},
		{"json with a skill", `{"decision": "roll (Jump)", "skill": "Jump"}`, DecisionRoll, "Jump"},
		{"refusal waiting on more", "Sorry, I can't make that call without knowing how deep the water is.", DecisionUnparsed, ""},
		{"plain refusal", "I decline. Ask your Keeper.", DecisionRefused, ""},
	})
}

func TestClauseRulesOfThumb(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"only when, then the ruling", "A Keeper only asks for rolls when failure would be interesting. Here it wouldn't be: no roll.", DecisionPass, ""},
		{"rolls are for", "Rolls are for moments of danger. There's none here, so no roll.", DecisionPass, ""},
		{"rule of thumb alone", "I only call for Climb rolls when the wall is wet.", DecisionUnparsed, ""},
		{"not every", "Not every lock needs a Locksmith roll.", DecisionUnparsed, ""},
	})
}
