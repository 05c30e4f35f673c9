package seduce

import "testing"

// Probe tables of the fifth round of issue 29, whose priority is precision on replies
// nobody has shown the parser: sentences written by kind, each labelled under spec
// section 3 before the parser read it.

// TestProbeFifthRoundGate holds replies whose prose ruling is followed by words no rule
// reads, or by a correction: the precision gate leaves them unparsed rather than guess,
// and leaves alone the ruling whose deliberation comes before it, a counterfactual
// beside it and an amendment that keeps it.
func TestProbeFifthRoundGate(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// a ruling, then ruling words no rule reads: the last word is unread
		{"u1", "No roll for the stairs. Though the dice might still get a look in once the lights go out, if he lingers.", DecisionUnparsed, ""},
		{"u2", "Automatic success. Dice, though, when the floorboards start to give.", DecisionUnparsed, ""},
		{"u3", "Roll Climb. Automatic for anyone with a rope, of course, and she has two.", DecisionUnparsed, ""},
		// deliberation before the ruling: the ruling after it stands
		{"d1", "My gut said dice at first. Thinking it over, the ledge is wide and dry. No roll.", DecisionPass, ""},
		{"d2", "The fog rolls in thick off the river. Give me a Stealth roll to get past the watchman.", DecisionRoll, "Stealth"},
		{"d3", "Sorry to the dice fans at the table, but this one is automatic.", DecisionPass, ""},
		// a counterfactual about another world beside the ruling
		{"c1", "No roll: the map is in English. If it were in Aklo we'd be talking about a Cthulhu Mythos roll.", DecisionPass, ""},
		// a correction after the ruling that takes it back, or that keeps it
		{"r1", "Roll Dodge. Actually, no — the cart is still fifty yards off, he just steps aside.", DecisionUnparsed, ""},
		{"r2", "No roll needed. Wait, the rope is frayed — that's a Climb roll after all.", DecisionUnparsed, ""},
		{"r3", "Jet de Discrétion. Non, attendez : le garde dort, aucun jet.", DecisionUnparsed, ""},
		{"r4", "Roll Listen. Actually, make that Listen with a penalty die, the storm is loud.", DecisionRoll, "Listen"},
		{"r5", "Roll Spot Hidden — actually, on second thought, it really is a Spot Hidden roll, the note is tucked away.", DecisionRoll, "Spot Hidden"},
		{"r6", "Roll Stealth. Post your rolls when you can, I'll update the thread tonight.", DecisionRoll, "Stealth"},
		// a structured answer gone back on after it
		{"r7", `{"decision": "roll", "skill": "Swim", "reason": "current"} Actually, wait, it's ankle-deep — don't bother.`, DecisionUnparsed, ""},
		{"r8", "Decision: roll (Listen). Actually no, he's shouting, she's fine.", DecisionUnparsed, ""},
		{"r9", "Decision: roll (Listen). Actually, make that Listen with a bonus die.", DecisionRoll, "Listen"},
	})
}

// TestProbeFifthRoundKinds holds the kinds of failure this round fixed by grammar, each
// in sentences of this round's own, labelled before the parser read them.
func TestProbeFifthRoundKinds(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// a negative quantifier as subject, with words between it and the verb
		{"q1", "Honestly, nothing in this whole scene needs the dice.", DecisionPass, ""},
		{"q2", "None of that part of the plan requires a Stealth roll.", DecisionPass, ""},
		{"q3", "Nothing about this situation calls for a check.", DecisionPass, ""},
		// a roll granted by ellipsis after a but, against a pass just denied
		{"e1", "He doesn't need a Climb roll for the ladder, but the drainpipe after it, that definitely is one.", DecisionRoll, "Climb"},
		{"e2", "Cruzar el patio no requiere tirada, pero saltar el muro sí: Jump.", DecisionRoll, "Jump"},
		{"e3", "Non serve un tiro per aprire la porta, ma per scassinare il baule sì: Locksmith.", DecisionRoll, "Locksmith"},
		{"e4", "Reading the sign needs no roll, but deciphering the cipher does.", DecisionRoll, ""},
		// an assumption on the world leaves the ruling open; one that restates what was
		// given does not
		{"a1", "No roll, assuming the ladder is still where she left it.", DecisionUnparsed, ""},
		{"a2", "It's automatic, assuming nobody has moved the boat.", DecisionUnparsed, ""},
		{"a3", "Automatic success, assuming the lock is as rusted as described.", DecisionPass, ""},
		{"a4", "Als het hek open staat, is er geen worp nodig.", DecisionUnparsed, ""},
		// a reply cut off inside a condition word
		{"t1", "No Swim roll is needed unl", DecisionUnparsed, ""},
		{"t2", "Roll Climb, provi", DecisionUnparsed, ""},
		// a reply that stops on a dash leading on to its ruling; a dash as a label's value
		// is a value
		{"t3", "**Verdict:** Roll needed — ", DecisionUnparsed, ""},
		{"t4", "No roll is needed for the first door —", DecisionUnparsed, ""},
		{"t5", "Decision: no roll\nSkill: —", DecisionPass, ""},
		// a name struck through is withdrawn; what stands after it rules
		{"s1", "* ~~Swim~~\n* ~~Climb~~\n* **No roll: there's a footbridge.**", DecisionPass, ""},
		{"s2", "~~Listen~~ Spot Hidden roll, the glint is in the grass.", DecisionRoll, "Spot Hidden"},
		// both rulings offered, none chosen
		{"o1", "Roll Spot Hidden, or don't, whichever.", DecisionUnparsed, ""},
		{"o2", "Arguably this needs a Swim roll; arguably not. I'll leave it to you.", DecisionUnparsed, ""},
		// a compound roll word in Dutch names its skill
		{"nl1", "Gooi een Stealth-worp: de bewaker is wakker.", DecisionRoll, "Stealth"},
		{"nl2", "Geen worp. Wacht — de brug is rot. Toch een Climb-worp.", DecisionUnparsed, ""},
		// a markup tag is formatting: what it holds is read as a sentence
		{"x1", "<answer>Listen roll.</answer>", DecisionRoll, "Listen"},
		{"x2", "<verdict>No roll needed.</verdict>", DecisionPass, ""},
	})
}
