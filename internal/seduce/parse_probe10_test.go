package seduce

import "testing"

// TestProbeFourthRoundLabels is the seventh probe table of the fourth round of issue 29:
// markdown labels and tables, JSON with its reason, and a game master's shorthand, in
// sentences of our own labelled before the parser read them (struck-through words are
// withdrawn and a Sanity roll is a roll, as in the development sets).
func TestProbeFourthRoundLabels(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"m1", "**Roll needed?** Nope.\n\nShe's reading her own diary.", DecisionPass, ""},
		{"m2", "## Decision: Roll\n## Skill: Listen\nThe footsteps are soft.", DecisionRoll, "Listen"},
		{"m3", "| Decision | Skill |\n|---|---|\n| roll | Swim |", DecisionRoll, "Swim"},
		{"m4", "| Decision | Skill |\n|---|---|\n| automatic success | — |", DecisionPass, ""},
		{"m5", "**Decision:** ~~roll~~ automatic success", DecisionPass, ""},
		{"m6", "1. Is there risk? No.\n2. Is there time pressure? No.\n3. **Ruling: no roll.**", DecisionPass, ""},
		{"m7", "- Roll: **yes**\n- Skill: **Stealth**\n- Difficulty: Hard", DecisionRoll, "Stealth"},
		{"m8", "> Decision: roll\n> Skill: Track\n\nActually, the trail is fresh mud. Automatic.", DecisionUnparsed, ""},
		{"m9", "### Roll?\nYes — Spot Hidden.", DecisionRoll, "Spot Hidden"},
		{"m10", "**Automatic success.** No dice needed; the door is ajar.", DecisionPass, ""},
		{"j1", "```\n{\"decision\": \"roll\", \"skill\": \"Dodge\"}\n```\n```\n{\"decision\": \"roll\", \"skill\": \"Dodge\"}\n```", DecisionRoll, "Dodge"},
		{"j2", "{\"decision\": \"automatic_success\", \"skill\": \"Climb\", \"reason\": \"A Climb roll is not needed for a ladder.\"}", DecisionPass, ""},
		{"j3", "{\"decision\": \"roll\", \"skill\": \"Climb\", \"reason\": \"No automatic success on a wet wall.\"}", DecisionRoll, "Climb"},
		{"j4", "{\"ruling\": {\"decision\": \"roll\", \"skill\": \"Swim\"}}", DecisionRoll, "Swim"},
		{"j5", "{\"decision\": \"ROLL\", \"skill\": \"stealth\"}", DecisionRoll, "Stealth"},
		{"j6", "{'decision': 'automatic_success', 'skill': None}", DecisionPass, ""},
		{"j7", "{\"decision\": \"roll\", \"skill\": \"Climb\", \"reason\": \"Wet wall\"} I'd also accept Jump if you prefer.", DecisionRoll, ""},
		{"j8", "{\"decision\": \"maybe\", \"skill\": \"Climb\"}", DecisionUnparsed, ""},
		{"g2", "Everyone roll Sanity. Not for the climb — the climb's fine — for what you see at the top.", DecisionRoll, "Sanity"},
		{"g3", "Let me roll your Listen for you... 22, under your 50. You hear footsteps.", DecisionRoll, "Listen"},
		{"g4", "Okay, Dodge! Now! The train!", DecisionRoll, "Dodge"},
		{"g5", "Alright, freebie, the door's not even shut.", DecisionPass, ""},
		{"g6", "Nah mate, just walk in.", DecisionUnparsed, ""},
		{"g7", "Roll under your Climb, on the d100. Go.", DecisionRoll, "Climb"},
		{"g8", "Three Stealth checks, one per guard post.", DecisionRoll, "Stealth"},
		{"g9", "No roll for the door. Track roll for the footprints beyond it.", DecisionRoll, "Track"},
		{"g10", "Roll for the footprints: Track. The door: nothing.", DecisionRoll, "Track"},
	})
}
