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
