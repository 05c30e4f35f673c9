package seduce

import "testing"

// TestProbeFourthRoundForms is the second probe table of the fourth round of issue 29:
// structured answers with prose after them, reasoning blocks, the lexicons' languages,
// markdown, banter, hedges and refusals, in sentences of our own labelled before the
// parser read them.
func TestProbeFourthRoundForms(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// JSON / labels with prose that disagrees or hedges
		{"j1", "{\"decision\": \"automatic_success\", \"skill\": null, \"reason\": \"Easy.\"}\nThough if I'm honest, a Listen roll wouldn't be crazy.", DecisionUnparsed, ""},
		{"j2", "{\"decision\": \"roll\", \"skill\": \"Climb\"}\n(Or just let her climb it, it's a short wall.)", DecisionUnparsed, ""},
		{"j3", "```json\n{\"decision\": \"roll\", \"skill\": \"Stealth\", \"reason\": \"Guards are alert.\"}\n```\nGood luck!", DecisionRoll, "Stealth"},
		{"j4", "{\"decision\": \"roll\", \"skill\": \"Track\", \"reason\": \"No roll would be needed on dry ground, but it rained.\"}", DecisionRoll, "Track"},
		{"j5", "{\"requires_roll\": false, \"skill\": \"Jump\", \"reason\": \"It's a puddle.\"}", DecisionPass, ""},
		{"j6", "{\"decision\": \"roll or automatic_success\", \"skill\": \"Swim\"}", DecisionUnparsed, ""},
		{"j7", "Decision: automatic success\nReason: the investigator is a trained locksmith, but the lock is rusted, so really it should be a Locksmith roll.", DecisionUnparsed, ""},
		{"j8", "**Decision:** Roll\n**Skill:** Spot Hidden\n**Reason:** The drawer's false bottom is well hidden.", DecisionRoll, "Spot Hidden"},
		{"j9", "Roll: No\nReason: He has the key.", DecisionPass, ""},
		{"j10", "Ruling: roll — Dodge. Actually, on reflection, the car is far away; no roll.", DecisionUnparsed, ""},
		// reasoning
		{"r1", "<think>The wall is slick. A Climb roll fits.</think>\nNo roll needed, there's a ladder.", DecisionPass, ""},
		{"r2", "<think>Should this be automatic? The lock is simple but she has no tools. I think Locksmith.</think>", DecisionUnparsed, ""},
		{"r3", "Thinking: the gap is two metres. Decision: roll Jump.", DecisionRoll, "Jump"},
		// multilingual
		{"m1", "Pas de jet nécessaire, la porte est ouverte.", DecisionPass, ""},
		{"m2", "Il faut un jet de Discrétion, les gardes sont attentifs.", DecisionRoll, "Stealth"},
		{"m3", "Kein Wurf nötig, er hat den Schlüssel.", DecisionPass, ""},
		{"m4", "Würfle auf Klettern, die Mauer ist glatt.", DecisionRoll, "Climb"},
		{"m5", "No hace falta tirada, la puerta está abierta.", DecisionPass, ""},
		{"m6", "Haz una tirada de Nadar, la corriente es fuerte.", DecisionRoll, "Swim"},
		{"m7", "Si la corriente es fuerte, tirada de Nadar; si no, nada.", DecisionUnparsed, ""},
		{"m8", "Wenn die Wachen schlafen, keine Probe; sonst Heimlichkeit.", DecisionUnparsed, ""},
		{"m10", "Eigentlich kein Wurf. Doch, Springen-Probe.", DecisionUnparsed, ""},
		{"m11", "Sin tirada de Trepar no llegas arriba.", DecisionRoll, "Climb"},
		{"m12", "Peut-être un jet d'Écouter, ou peut-être pas.", DecisionUnparsed, ""},
		{"m13", "Serve un tiro di Furtività? Sì.", DecisionRoll, "Stealth"},
		// markdown
		{"k1", "## Ruling\nNo roll.\n\n## Why\nThe door is open. A Locksmith roll would only matter if it were locked.", DecisionPass, ""},
		{"k2", "| Part | Roll? |\n|---|---|\n| Walk in | No |\n| Pick the safe | Yes (Locksmith) |", DecisionRoll, "Locksmith"},
		{"k3", "- [x] Roll required\n- [ ] Automatic success\n\nSkill: Track", DecisionRoll, "Track"},
		{"k4", "> **Verdict:** automatic success\n\nNo dice for a staircase.", DecisionPass, ""},
		// banter
		{"b1", "Ha! No. No roll. Go.", DecisionPass, ""},
		{"b2", "Roll it. Climb. Now.", DecisionRoll, "Climb"},
		{"b4", "You're kidding, right? That's a Listen roll if I've ever heard one.", DecisionRoll, "Listen"},
		{"b5", "Sure, sure, you 'know martial arts'. Still rolling Fighting (Brawl), pal.", DecisionRoll, "Fighting"},
		{"b6", "Nope, no dice, the rope's tied off. Climb on down.", DecisionPass, ""},
		// hedging
		{"e1", "I'm on the fence, but I'd probably let it go without a roll.", DecisionUnparsed, ""},
		{"e2", "A Spot Hidden roll seems fair, though you could argue it's automatic.", DecisionUnparsed, ""},
		{"e3", "It's probably automatic.", DecisionUnparsed, ""},
		{"e4", "I suppose a Jump roll, if you insist on being strict.", DecisionUnparsed, ""},
		{"e5", "Hmm. Automatic, I think? Yes, automatic.", DecisionPass, ""},
		{"e6", "Either Stealth or no roll; it depends on the lighting.", DecisionUnparsed, ""},
		{"e7", "My gut says roll, my head says no roll.", DecisionUnparsed, ""},
		// refusals
		{"f1", "I'd rather not get involved in this scene.", DecisionRefused, ""},
		{"f2", "That's a no from me; I don't adjudicate scenes like this.", DecisionRefused, ""},
		{"f3", "I can't say whether this needs a roll.", DecisionUnparsed, ""},
		{"f4", "Unable to determine from the information given.", DecisionUnparsed, ""},
	})
}
