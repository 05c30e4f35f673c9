package seduce

import "testing"

// Probe tables of the sixth round of issue 29 (helper A: precision). Sentences written
// for these tests, each labelled under spec section 3 before the parser read it.

// TestProbeSixthRoundPolarity holds rulings read under several negations: a mention's
// polarity is the product of the negations whose scope covers it in its clause, and a
// scope ends at a comma, a conjunction or the verb that ends a "without" phrase.
func TestProbeSixthRoundPolarity(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// a negated verb with a "without" in its scope: the roll is required
		{"nw1", "She is not getting over that wall without a Climb roll, sorry.", DecisionRoll, "Climb"},
		{"nw2", "Honestly I cannot imagine the old man hauling himself up the slippery bank of the canal without a Climb roll.", DecisionRoll, "Climb"},
		{"nw3", "Not a chance. Nobody crosses that ice without a Dodge roll.", DecisionRoll, "Dodge"},
		{"nw4", "They won't be sneaking past the dogs without a Stealth roll.", DecisionRoll, "Stealth"},
		// the "without" outside the negation's scope: a pass
		{"nw5", "He doesn't hesitate and strolls through without a roll.", DecisionPass, ""},
		{"nw6", "It isn't hard, so she simply opens it without a roll.", DecisionPass, ""},
		{"nw7", "I don't see why he can't do it without a roll.", DecisionPass, ""},
		// two negations on one request cancel; one denies it
		{"dn1", "Can't not call for a Listen roll with that racket upstairs.", DecisionRoll, "Listen"},
		{"dn2", "I don't honestly see any reason not to ask for a Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		{"dn3", "It's not as if I wasn't going to make you roll Swim in a storm like this.", DecisionRoll, "Swim"},
		{"dn4", "Nothing about this scene justifies skipping the Stealth roll.", DecisionRoll, "Stealth"},
		{"dn5", "Nobody at my table would fault you for calling for a Jump roll.", DecisionRoll, "Jump"},
		{"nr1", "I can't with a straight face ask for a roll to open a fridge.", DecisionPass, ""},
		{"nr2", "I won't, in all fairness, be calling for dice here.", DecisionPass, ""},
		{"nr3", "I would never in a million years ask for a roll to tie a shoelace.", DecisionPass, ""},
		// "not" as focus, and "no" inside a noun phrase, deny nothing of the ruling
		{"fo1", "This is not only a climb; make a Climb roll.", DecisionRoll, "Climb"},
		{"fo2", "No bonus die means a plain Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		// a "without" phrase ended by the ruling's own verb
		{"wv1", "Opening the safe without tripping the alarm is a Locksmith roll.", DecisionRoll, "Locksmith"},
		{"wv2", "Getting the body out without anyone noticing will need a Stealth roll.", DecisionRoll, "Stealth"},
		// "hurt", "a bad idea" judge what follows wrong; "can't stress" is emphasis
		{"hu1", "Wouldn't hurt to make a Spot Hidden roll before you touch anything.", DecisionRoll, "Spot Hidden"},
		{"hu2", "It's never a bad idea to ask for a Listen roll at night.", DecisionRoll, "Listen"},
		{"hu3", "A bad idea to call for a roll here: she's reading a menu.", DecisionPass, ""},
		{"hu4", "I cannot stress enough how much this needs a Luck roll.", DecisionRoll, "Luck"},
		// run-on chat: a "no" phrase or a new subject opens a clause of its own
		{"ro1", "its not far no roll needed", DecisionPass, ""},
		{"ro2", "nah not a big deal no need to roll", DecisionPass, ""},
		{"ro3", "not happening you need a jump roll", DecisionRoll, "Jump"},
		{"ro4", "I don't reckon you need a Swim roll.", DecisionPass, ""},
		{"ro5", "It isn't a cliff it doesn't need a Climb roll", DecisionPass, ""},
		{"ro6", "I wouldn't make it a Climb roll.", DecisionPass, ""},
		{"hu5", "It's no problem at all to cross the plank without a roll.", DecisionPass, ""},
		{"hu6", "It isn't a problem to stroll in without a roll.", DecisionPass, ""},
		{"hu7", "The problem with that ledge is it needs a Climb roll.", DecisionRoll, "Climb"},
		{"hu8", "Seldom do I ask for a Listen roll in broad daylight.", DecisionPass, ""},
		// a verb that denies its complement is a negation: "forget to roll" is not rolling
		{"im1", "Don't forget to roll Spot Hidden when you enter.", DecisionRoll, "Spot Hidden"},
		{"im2", "Never hesitate to ask for a Sanity roll in this campaign.", DecisionRoll, "Sanity"},
		// a slot holds no preposition or focus word
		{"sl1", "Nope. Not getting across without a Swim roll.", DecisionRoll, "Swim"},
		{"sl2", "This isn't just a shove. Roll Fighting to pin him.", DecisionRoll, "Fighting"},
		// a judgement that the request is wrong is a negation of it; before a noun it is not
		{"jw1", "It's not unfair to ask for a Dodge roll with arrows flying.", DecisionRoll, "Dodge"},
		{"jw2", "Nothing pedantic about asking for a Track roll in fresh snow.", DecisionRoll, "Track"},
		{"jw3", "Patching the hull with the wrong timber is a Mechanical Repair roll.", DecisionRoll, "Mechanical Repair"},
		{"jw4", "That impossible jump across the roofs needs a Jump roll.", DecisionRoll, "Jump"},
		{"jw5", "She is unlikely to find the letter without a Library Use roll.", DecisionRoll, "Library Use"},
		// the speaker's own dice, not the ruling
		{"sp1", "Roll Listen. I can't physically roll dice for you, of course.", DecisionRoll, "Listen"},
		{"sp2", "I cannot roll dice — text only — but the jump needs a Jump roll.", DecisionRoll, "Jump"},
		{"sp3", "I can't roll for you, sorry.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundLexiconPolarity holds the same composition in the lexicons'
// languages: a negation word before a denied roll phrase, in a clause of its own (after
// "de", "que", "para"), denies the denial; one in the same clause agrees with it
// (negative concord) and counts once.
func TestProbeSixthRoundLexiconPolarity(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fr1", "Je ne trouve aucune excuse pour ne pas demander un jet de Discrétion.", DecisionRoll, "Stealth"},
		{"es1", "No veo ningún motivo para no pedir una tirada de Escuchar.", DecisionRoll, "Listen"},
		{"es2", "No es que no haga falta tirar Nadar; el río baja crecido.", DecisionRoll, "Swim"},
		// concord: one negation
		{"es3", "No se necesita ninguna tirada: la puerta está abierta.", DecisionPass, ""},
		{"it1", "Non serve nessun tiro, lo scaffale è basso.", DecisionPass, ""},
		// a negated verb of opinion reaches into the clause it takes (negation raising)
		{"nr1", "No creo que haga falta tirar Escuchar, el grito se oye en toda la casa.", DecisionPass, ""},
		{"nr2", "Je ne pense pas qu'il faille un jet de Nager ici.", DecisionPass, ""},
		{"nr3", "Ich glaube nicht, dass hier eine Probe nötig ist.", DecisionPass, ""},
		{"nr4", "Non credo che serva un tiro di Ascoltare.", DecisionPass, ""},
		{"nr5", "Je ne crois pas qu'on puisse éviter un jet de Discrétion.", DecisionRoll, "Stealth"},
		{"nr6", "Creo que hace falta tirar Nadar.", DecisionRoll, "Swim"},
		{"fr2", "Il n'y a aucun jet à faire, la porte est ouverte.", DecisionPass, ""},
	})
}

// TestProbeSixthRoundOptions holds rulings the reply only offers: an option the speaker
// says they could take, two rulings side by side handed back, a ruling said to depend
// on the scene. Each is unparsed; a firm ruling beside such words is not.
func TestProbeSixthRoundOptions(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"op1", "I could ask for a Listen roll, I suppose.", DecisionUnparsed, ""},
		{"op2", "We might call for Stealth here, we might not.", DecisionUnparsed, ""},
		{"op3", "By the book: Climb roll. Rule of cool: no roll. Take your pick.", DecisionUnparsed, ""},
		{"op4", "Depends whether the rope is frayed. Frayed: Climb. Sound: up she goes.", DecisionUnparsed, ""},
		// a roll offered as what the player could do, beside another course of action
		{"op7", "You could make a Swim roll, or walk round by the bridge.", DecisionUnparsed, ""},
		{"op8", "He can roll Climb, or just wait for the rope.", DecisionUnparsed, ""},
		// must not fire: the speaker's "could" about something else, a firm ruling
		{"op5", "I could go on about the weather, but make a Navigate roll.", DecisionRoll, "Navigate"},
		{"op6", "Make a Listen roll; I'd ask for the same at any table.", DecisionRoll, "Listen"},
	})
}

// TestProbeSixthRoundReasonOpen holds structured decisions whose own reason leaves them
// on a condition, leaning to the other ruling: unparsed. A reason whose condition keeps
// to the decision, or that leans nowhere, leaves it standing.
func TestProbeSixthRoundReasonOpen(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"ro1", `{"decision": "automatic_success", "skill": null, "reason": "As long as the dog sleeps. If not, Stealth."}`, DecisionUnparsed, ""},
		{"ro2", `{"decision": "roll", "skill": "Swim", "reason": "Rough water; though no roll if she keeps to the shallows."}`, DecisionUnparsed, ""},
		{"ro3", `{"decision": "roll", "skill": "Swim", "reason": "Rough water; if she fails she is swept downstream."}`, DecisionRoll, "Swim"},
		{"ro5", `{"decision": "roll", "skill": "Swim", "reason": "It would only be automatic if the river were calm."}`, DecisionRoll, "Swim"},
		{"ro4", `{"decision": "automatic_success", "skill": null, "reason": "If the door is unlocked, as stated, she simply walks in."}`, DecisionPass, ""},
	})
}

// TestProbeSixthRoundGenericRolls holds talk of rolls in general, the bare plural with
// no skill ("calling for rolls on easy tasks", "the rolls you do ask for"): no ruling.
func TestProbeSixthRoundGenericRolls(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"gr1", "Calling for rolls on easy tasks drags the table down. So, no roll: she reads the sign.", DecisionPass, ""},
		{"gr2", "Saving dice for real danger is what makes the rolls you do ask for matter. Here, none.", DecisionUnparsed, ""},
		{"gr3", "A good Keeper knows when to ask for checks.", DecisionUnparsed, ""},
		// a request with a skill or a determiner is a ruling
		{"gr4", "I'm calling for rolls: Stealth, all of you.", DecisionRoll, "Stealth"},
		{"gr5", "I'll ask for a roll here: Spot Hidden.", DecisionRoll, "Spot Hidden"},
	})
}

// TestProbeSixthRoundStances holds replies that take two stances: a refusal in one
// sentence and a ruling in a later one with nothing turning from one to the other, and
// a ruling with the other offered unsure between it and its repetition. Unparsed; a
// turn ("that said", "but"), or a refusal that is itself a ruling, leaves the ruling.
func TestProbeSixthRoundStances(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"st1", `I can't assist with this. {"decision": "automatic_success", "skill": null, "reason": "easy"}`, DecisionUnparsed, ""},
		{"st2", "I must decline. Roll Swim.", DecisionUnparsed, ""},
		{"st3", "I must decline to rule officially. That said, roll Swim.", DecisionRoll, "Swim"},
		{"st4", "I'm going to decline the player's plea to skip the check. Swim roll.", DecisionRoll, "Swim"},
		{"st5", "I decline to make her roll for tying her laces.", DecisionPass, ""},
		// a refusal of something other than the task leaves the ruling
		{"st6", "I must decline to give medical advice. For the investigator: First Aid roll.", DecisionRoll, "First Aid"},
		{"st7", "I won't help with that part. Roll Stealth for the rest.", DecisionRoll, "Stealth"},
		{"wa1", "Roll Dodge. Or perhaps no roll, the cart is slow. Roll Dodge.", DecisionUnparsed, ""},
		{"wa2", "No roll. Maybe a Spot Hidden roll, if you're feeling mean. No, no roll.", DecisionUnparsed, ""},
		// deliberation before the only ruling is no wavering
		{"wa3", "Maybe dice? The ledge is wide though. No roll.", DecisionPass, ""},
	})
}

// TestProbeSixthRoundChoices holds rulings given one per choice of the player's, the
// first of them left open or unread: the reply's ruling waits on the choice.
func TestProbeSixthRoundChoices(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"ch1", "If she uses the drainpipe, Climb roll; if she goes round by the gate, nothing to roll.", DecisionUnparsed, ""},
		{"ch2", "If he swims it, Swim roll. If he goes by the bridge, no roll.", DecisionUnparsed, ""},
		// one choice ruled, nothing for another: the ruling stands
		{"ch3", "If you want to cross, make a Jump roll.", DecisionRoll, "Jump"},
		{"ch4", "Not going to rule. Still, a Listen roll seems right.", DecisionRoll, "Listen"},
		{"ch5", "Not going to rule. Also, for the record, it is plainly a Spot Hidden roll.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundBackAfterAll holds a ruling corrected and then taken back to
// "after all": two flips, unparsed. "After all" as a reason ("the guard is awake,
// after all") with no correction before it leaves the ruling.
func TestProbeSixthRoundBackAfterAll(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"aa1", "Swim roll. Actually, on second thought, it's a paddling pool. Hmm, the current though... fine, a Swim roll after all.", DecisionUnparsed, ""},
		{"aa2", "Roll Climb. The wall is slick with rain, after all.", DecisionRoll, "Climb"},
	})
}

// TestProbeSixthRoundOthersRoll holds the Keeper's own roll for someone other than the
// player's side, the other half of an opposed roll: not the ruling on the action.
func TestProbeSixthRoundOthersRoll(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"or1", "I'll roll Listen for the guard; you roll Stealth.", DecisionRoll, "Stealth"},
		{"or2", "I'm rolling Spot Hidden for the butler, and you make a Sleight of Hand roll.", DecisionRoll, "Sleight of Hand"},
		// for the player's side it is the player's roll
		{"or3", "I'm rolling Spot Hidden for the investigator behind the screen.", DecisionRoll, "Spot Hidden"},
	})
}
