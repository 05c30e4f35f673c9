package seduce

import "testing"

// TestProbeEighthRoundVariants is a probe table of issue 29's eighth round (helper
// B): the English rules of rounds 6-7 widened to their families of variants.
// Sentences of our own, labelled before the parser read them.
func TestProbeEighthRoundVariants(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// JSON with a null decision and a declining reason, in any inflection.
		{"j1", `{"decision": null, "skill": null, "reason": "Declined: the scene targets a real person."}`, DecisionRefused, ""},
		{"j2", `{"decision": null, "skill": null, "reason": "Declined — graphic harm to a child."}`, DecisionRefused, ""},
		{"j3", `{"decision": null, "skill": null, "reason": "Refused: this asks for self-harm instructions."}`, DecisionRefused, ""},
		{"j4", `{"decision": null, "skill": null, "reason": "I decline to rule on this scene."}`, DecisionRefused, ""},
		{"j5", `{"decision": null, "skill": null, "reason": "Declines to adjudicate; the content is abusive."}`, DecisionRefused, ""},
		{"jx1", `{"decision": null, "skill": null, "reason": "Declined to specify the lock type; need more detail."}`, DecisionUnparsed, ""},
		{"jx2", `{"decision": null, "skill": null, "reason": "Unclear whether the door is locked."}`, DecisionUnparsed, ""},

		// A check label whose skill is followed by a parenthesis giving the reason.
		{"l1", "**Skill check:** First Aid (stabilise the bleeding)", DecisionRoll, "First Aid"},
		{"l2", "Check: Spot Hidden (the rug is lumpy)", DecisionRoll, "Spot Hidden"},
		{"l3", "**Check needed:** Listen (voices behind the panel)", DecisionRoll, "Listen"},
		{"l4", "Skill check: Climb (wet bricks, loose mortar).", DecisionRoll, "Climb"},
		{"l5", "Check: Psychology (is the clerk lying about the key?)", DecisionUnparsed, ""},
		{"lx1", "**Skill check:** First Aid (only if he keeps bleeding)", DecisionUnparsed, ""},
		{"lx2", "**Skill check:** Spot Hidden (or maybe none at all)", DecisionUnparsed, ""},

		// A table row with an emoji yes or no.
		{"t1", "| Roll? | Skill |\n|---|---|\n| ✅ Yes | Spot Hidden |", DecisionRoll, "Spot Hidden"},
		{"t2", "| Roll? | Skill |\n|---|---|\n| ❌ No | — |", DecisionPass, ""},
		{"t3", "| Roll needed | Skill |\n|---|---|\n| ✔️ Yes | Climb |", DecisionRoll, "Climb"},
		{"t4", "| Roll? | Skill |\n| --- | --- |\n| 🚫 No | n/a |", DecisionPass, ""},
		{"tx1", "| Roll? | Skill |\n|---|---|\n| ❓ Maybe | Climb |", DecisionUnparsed, ""},
	})
}

// TestProbeEighthRoundRefusalsAndIdioms: terse and in-character refusals, "roll with
// it", a ruling "for me", chat mentions, a ticked box, a lean then a firm ruling.
func TestProbeEighthRoundRefusalsAndIdioms(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// A refusal with its subject left out, the whole reply.
		{"r1", "Can't help.", DecisionRefused, ""},
		{"r2", "Cannot help, sorry.", DecisionRefused, ""},
		{"r3", "Won't rule on it.", DecisionRefused, ""},
		{"r4", "Sorry — can't do this one.", DecisionRefused, ""},
		{"r5", "Nope. Won't judge this.", DecisionRefused, ""},
		// In character.
		{"r6", "*She sets the dice aside.* \"I shall not judge this one.\"", DecisionRefused, ""},
		{"r7", "\"No. I'm not running that. Choose another path.\"", DecisionRefused, ""},
		{"r8", "*A long pause.* \"Not this. Not at my table.\"", DecisionRefused, ""},
		// Must not fire: the words of refusing as a verb of something else.
		{"rx1", "Can't help but think this is a Climb roll.", DecisionRoll, "Climb"},
		{"rx2", "Can't rule out a trap. Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		{"rx3", "Cannot help noticing the door is ajar.", DecisionUnparsed, ""},
		{"rx4", "*The Keeper shakes his head.* \"No. Not this one.\"", DecisionUnparsed, ""}, // "no roll, not this one"?
		{"rx5", "You can't help him. He's gone.", DecisionUnparsed, ""},

		// "roll with it": going along, no dice.
		{"i1", "Fine, let's roll with it — you hand the porter a dollar and stroll up the stairs.", DecisionPass, ""},
		{"i2", "Okay, I'll roll with that. You're through the gate.", DecisionPass, ""},
		{"i3", "Let's roll with it and call for a Luck roll.", DecisionRoll, "Luck"},
		{"ix1", "Let's roll with it: Climb roll, the wall is wet.", DecisionRoll, "Climb"},

		// "would be" owned by the speaker: a ruling.
		{"w1", "Tailing him through the fog would be a Tracking roll for me.", DecisionRoll, "Track"},
		{"w2", "Getting that crate open would be a STR roll in my book.", DecisionRoll, ""},
		{"w3", "Talking past the doorman would be a Fast Talk check at my table.", DecisionRoll, "Fast Talk"},
		{"wx1", "If it were raining, that would be a Climb roll for me.", DecisionUnparsed, ""},
		{"wx2", "That would be a Climb roll.", DecisionUnparsed, ""},

		// A chat mention is no word of the sentence.
		{"m1", "@Sam mech repair roll for the pump", DecisionRoll, "Mechanical Repair"},
		{"m2", "[21:40] GM: @Ivo spot hidden roll, the mantel looks off\n[21:40] Ivo: rolling", DecisionRoll, "Spot Hidden"},
		{"mx1", "@Keeper can I roll Spot Hidden?", DecisionUnparsed, ""},

		// A task list whose ticked item is a decision word, the skill on its own line.
		{"c1", "**Decision**\n\n- [x] Roll\n- [ ] No roll\n\n**Skill:** Listen — the footsteps are faint.", DecisionRoll, "Listen"},
		{"c2", "- [ ] Roll\n- [x] No roll\n\nThe gate is open.", DecisionPass, ""},
		{"c3", "**Adjudication**\n\n- [x] Roll required\n- [ ] Automatic success\n\n**Skill:** Climb — the drainpipe is loose.", DecisionRoll, "Climb"},
		{"cx2", "- [x] Roll\n- [ ] No roll\n\nYour call, honestly.", DecisionUnparsed, ""},

		// A lean, then a firm ruling on reflection.
		{"f1", "I was leaning toward a roll, but on reflection: no roll needed. The gate is open.", DecisionPass, ""},
		{"f2", "My gut said roll — on reflection, though, no roll is needed; the door's ajar.", DecisionPass, ""},
		{"f3", "I was leaning toward no roll, but on second thought: Stealth roll. The guard is awake.", DecisionRoll, "Stealth"},
		{"fx1", "I was leaning toward a roll, but on reflection: no roll? I'm not sure.", DecisionUnparsed, ""},
	})
}

// TestProbeEighthRoundSettled: a question the reply answers after an interjection, an
// "unless" condition settled as false, a skill corrected in passing.
func TestProbeEighthRoundSettled(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"q1", "Does she need to roll to read a street sign in daylight? Come on. No. She reads it.", DecisionPass, ""},
		{"q2", "Do you need a roll to hear a gunshot next to you? Obviously not. You hear it.", DecisionPass, ""},
		{"q3", "Do you need a roll to open an unlocked door? Seriously. No.", DecisionPass, ""},
		{"q5", "Did she need a Spot Hidden roll to see the fire? No.", DecisionPass, ""},
		{"q6", "Do you need a Listen roll for the whisper? Yes.", DecisionRoll, "Listen"},
		{"q4", "Does this need a Climb roll? Come on, now. Yes — the wall is sheer.", DecisionRoll, "Climb"},
		{"qx1", "Do you need to roll? Come on. Let's think about the guard first.", DecisionUnparsed, ""},

		{"u1", "No roll unless someone's watching, and nobody is. So no roll.", DecisionPass, ""},
		{"u2", "Stealth roll unless the guard's asleep — and he isn't.", DecisionRoll, "Stealth"},
		{"u3", "No roll unless the rope is frayed, but it isn't. Down you go.", DecisionPass, ""},
		{"ux1", "No roll unless someone's watching, and someone is.", DecisionUnparsed, ""},
		{"ux2", "Roll Stealth if the guard is awake, and he isn't.", DecisionUnparsed, ""},
		{"ux3", "No roll unless the door is locked.", DecisionUnparsed, ""},

		{"s1", "Fighting roll — sorry, I mean Dodge. He's ducking, not swinging. Dodge roll.", DecisionRoll, "Dodge"},
		{"s2", "Spot Hidden roll, or rather Listen: it's dark.", DecisionRoll, "Listen"},
		{"s3", "Climb roll. Make that Jump, it's a gap, not a wall.", DecisionRoll, "Jump"},
		{"sx1", "Roll Climb. I mean it.", DecisionRoll, "Climb"},
		{"sx2", "Climb roll — I mean, it's a wall, what else?", DecisionRoll, "Climb"},
	})
}

// TestProbeEighthRoundFrames: a speaker's frame ("if you ask me") is no condition;
// doubt about the difficulty only leaves the roll firm; in-character and soft
// declines of the call.
func TestProbeEighthRoundFrames(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"p1", "Not really my call to make, but if you're asking me: Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		{"p2", "If you ask me, no roll — the door's open.", DecisionPass, ""},
		{"p3", "If it were up to me, Climb roll.", DecisionRoll, "Climb"},
		{"p4", "Spot Hidden roll, if you want my take.", DecisionRoll, "Spot Hidden"},
		{"px1", "If you ask me, it depends on the guard: if he's awake, Stealth roll.", DecisionUnparsed, ""},

		{"d1", "Not sure if it's Hard or Extreme, but Climb roll regardless.", DecisionRoll, "Climb"},
		{"d2", "I'm not sure whether it's regular or hard. Listen roll.", DecisionRoll, "Listen"},
		{"d3", "Not 100% sure whether it should be Regular or Hard, but it's a roll: Dodge.", DecisionRoll, "Dodge"},
		{"dx1", "Not sure whether it's a roll or not. Listen, maybe.", DecisionUnparsed, ""},
		{"dx2", "I'm not sure whether it should be Hard or no roll at all.", DecisionUnparsed, ""},

		{"n1", "The Keeper taps the rulebook. \"I shall not rule on this. Ask the stars.\"", DecisionRefused, ""},
		{"n2", "Thanks for asking! I'd rather not make this particular call — it's a consent question for your table.", DecisionRefused, ""},
		{"nx1", "I'd rather not make this call until I know whether the door is locked.", DecisionUnparsed, ""},
	})
}

// TestProbeEighthRoundConceded: a wish for the other ruling granted, then overruled
// after a but.
func TestProbeEighthRoundConceded(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"c1", "It's not unreasonable to want dice here, but really no roll is needed — the shop is empty.", DecisionPass, ""},
		{"c2", "I keep wanting to call for Spot Hidden out of habit, but the envelope is on the desk. No roll.", DecisionPass, ""},
		{"c3", "You're asking for a roll, and I get why, but there's nothing uncertain here. Automatic success.", DecisionPass, ""},
		{"c4", "The player wants a Climb roll, but the ladder is sturdy. No roll.", DecisionPass, ""},
		{"c5", "The player wants to skip the roll, but no: Climb roll.", DecisionRoll, "Climb"},
		{"cx1", "I want a Climb roll, but make it Hard.", DecisionRoll, "Climb"},
		{"cx2", "You're asking for a roll, but I'm not sure. Maybe.", DecisionUnparsed, ""},
	})
}

// TestProbeEighthRoundLeanOverruled: a lean in passing, a but, and a bare ruling last.
func TestProbeEighthRoundLeanOverruled(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"l1", "Honestly I'd lean toward a roll at most tables, but here she's just reading a menu. No roll.", DecisionPass, ""},
		{"l2", "It's hard to say without knowing the current, but there's no way around it for a night crossing. Swim it is.", DecisionRoll, "Swim"},
		{"l3", "I'd lean toward no roll, but the guard is close. Stealth roll.", DecisionRoll, "Stealth"},
		{"lx1", "I'd lean toward a roll, but honestly, your call. No roll.", DecisionUnparsed, ""},
		{"lx2", "I'd lean toward a roll, but it's dark. Maybe Listen roll.", DecisionUnparsed, ""},
		{"lx3", "I'd lean toward a roll. No roll.", DecisionUnparsed, ""},
	})
}

// TestProbeEighthRoundInterjectedPass: "nah" and "nope" before a bare pass, as "no".
func TestProbeEighthRoundInterjectedPass(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"n1", "Nah, automatic.", DecisionPass, ""},
		{"n2", "Nope — no roll.", DecisionPass, ""},
		{"n3", "Nah, pass.", DecisionPass, ""},
		{"nx1", "Nah, roll Climb.", DecisionRoll, "Climb"},
	})
}

// TestProbeEighthRoundTagQuestion: a negative statement with a positive tag asks only
// for agreement; the statement rules.
func TestProbeEighthRoundTagQuestion(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"g1", "We don't need a Jump roll for that, do we? It just happens.", DecisionPass, ""},
		{"g2", "No need for dice here, is there? You hop over.", DecisionPass, ""},
		{"g3", "Nobody rolls to open a door, do they? In you go.", DecisionPass, ""},
		{"gx1", "You need a Climb roll, do you? Fine.", DecisionUnparsed, ""},
		{"gx2", "That's a Climb roll, isn't it? The wall is wet.", DecisionUnparsed, ""},
	})
}
