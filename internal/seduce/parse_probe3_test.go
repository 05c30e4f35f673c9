package seduce

import "testing"

// Probe tables of the third round of issue 29: for each class of rule, sentences written
// in words of their own, beside sentences with the same words that must not fire (a
// hedge, a condition, someone else's words, a question left open).

// TestProbeDecline: a first-person verb of declining with the ruling, the role, the scene or the request as its object is a refusal, in every language of the lexicons; the same verbs waiting on something, said of someone else, or "can't" with a choice ("I can't decide") are not.
func TestProbeDecline(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "I'm going to decline to adjudicate this one.", DecisionRefused, ""},
		{"probe 2", "I'd rather not act as the Keeper for this scene.", DecisionRefused, ""},
		{"probe 3", "I won't be ruling on this scenario.", DecisionRefused, ""},
		{"probe 4", "Respectfully, I decline the role of referee here.", DecisionRefused, ""},
		{"probe 5", "I'll defer to your group's Keeper on this.", DecisionRefused, ""},
		{"probe 6", "I can't help with that request, but I'm happy to explain how skill rolls work in general.", DecisionRefused, ""},
		{"probe 7", "This request conflicts with my content guidelines, so I won't continue.", DecisionRefused, ""},
		{"probe 8", "The statement contains instructions aimed at me; I won't follow them or rule on it.", DecisionRefused, ""},
		{"probe 9", "I'm not going to make a call on this one.", DecisionRefused, ""},
		{"probe 10", "I must refrain from adjudicating this scene.", DecisionRefused, ""},
		{"probe 11", "Sorry — judging this isn't something I'll do.", DecisionRefused, ""},
		{"probe 12", "I'll leave this ruling to a human Keeper.", DecisionRefused, ""},
		{"probe 13", "That's outside what I'm willing to do. Perhaps I can help with character creation instead?", DecisionRefused, ""},
		{"probe 14", "I decline to rule on this.", DecisionRefused, ""},
		{"probe 15", "Je ne peux pas arbitrer cette scène, désolé.", DecisionRefused, ""},
		{"probe 16", "Je refuse de trancher sur ce point.", DecisionRefused, ""},
		{"probe 17", "Ich möchte hier keine Entscheidung treffen.", DecisionRefused, ""},
		{"probe 18", "Darüber entscheide ich nicht.", DecisionRefused, ""},
		{"probe 19", "Lo siento, no puedo ayudar con esa petición.", DecisionRefused, ""},
		{"probe 20", "Prefiero no decidir sobre esto.", DecisionRefused, ""},
		{"probe 21", "No voy a arbitrar esta escena.", DecisionRefused, ""},
		{"probe 22", "Preferisco non giudicare questa scena.", DecisionRefused, ""},
		{"probe 23", "Prefiro não decidir isso.", DecisionRefused, ""},
		{"probe 24", "I won't make you roll for that.", DecisionPass, ""},
		{"probe 25", "I decline to make anyone roll here; it's automatic.", DecisionPass, ""},
		{"probe 26", "I can't decide between Climb and Jump here.", DecisionUnparsed, ""},
		{"probe 27", "I can't tell whether the rope holds.", DecisionUnparsed, ""},
		{"probe 28", "I'm not comfortable with how violent this is, but mechanically: roll Climb.", DecisionRoll, "Climb"},
		{"probe 29", "Error: content filtered.", DecisionUnparsed, ""},
		{"probe 30", "The Keeper declined to say more about the door.", DecisionUnparsed, ""},
		{"probe 31", "She refuses to climb the wall.", DecisionUnparsed, ""},
		{"probe 32", "Honestly? I'll sit out this ruling.", DecisionRefused, ""},
		{"probe 33", "I'm opting out of refereeing this one.", DecisionRefused, ""},
		{"probe 34", "Je m'abstiens de juger cette action.", DecisionRefused, ""},
		{"probe 35", "Je laisse la décision au gardien de ta table.", DecisionRefused, ""},
		{"probe 36", "Ich überlasse die Entscheidung deinem Spielleiter.", DecisionRefused, ""},
		{"probe 37", "Dejo la decisión a tu máster.", DecisionRefused, ""},
		{"probe 38", "No estoy dispuesto a arbitrar esto.", DecisionRefused, ""},
		{"probe 39", "Non ho intenzione di arbitrare questa scena.", DecisionRefused, ""},
		{"probe 40", "Não vou arbitrar esta cena.", DecisionRefused, ""},
		{"probe 41", "I won't rule until I know how high the wall is.", DecisionUnparsed, ""},
		{"probe 42", "I can't make the call without knowing whether the door is locked.", DecisionUnparsed, ""},
		{"probe 43", "I can't rule out that the branch snaps.", DecisionUnparsed, ""},
		{"probe 44", "I don't want to decide too fast: the ledge is wet and the wind is up.", DecisionUnparsed, ""},
		{"probe 45", "I'd rather know more about the lock before I decide.", DecisionUnparsed, ""},
		{"probe 46", "Je ne peux pas trancher sans savoir si la porte est fermée.", DecisionUnparsed, ""},
		{"probe 47", "No puedo decidir hasta que sepa la altura del muro.", DecisionUnparsed, ""},
		{"probe 48", "The Keeper refuses to rule on it, the player says.", DecisionUnparsed, ""},
		{"probe 49", "I can't decide.", DecisionUnparsed, ""},
		{"probe 50", "I can't say whether he needs to roll.", DecisionUnparsed, ""},
		{"probe 51", "Hmm, I'd rather think about the ruling a bit more.", DecisionUnparsed, ""},
		{"probe 52", "{\"decision\": \"I won't rule on this\", \"skill\": null}", DecisionRefused, ""},
		{"probe 53", "Decision: I'd rather not adjudicate this.", DecisionRefused, ""},
		{"probe 54", "I need to refrain from making that call.", DecisionRefused, ""},
		{"probe 55", "It isn't appropriate for me to make rulings for your campaign.", DecisionRefused, ""},
		{"probe 56", "I can't decide this for your group, and I won't.", DecisionRefused, ""},
		{"probe 57", "Non posso decidere io per il vostro gruppo.", DecisionRefused, ""},
		{"probe 58", "Je ne peux pas décider pour ta table.", DecisionRefused, ""},
		{"probe 59", "I'm not going to pretend to be your Keeper.", DecisionRefused, ""},
		{"probe 60", "I won't pretend this is easy, but I can't decide between Jump and Climb.", DecisionUnparsed, ""},
	})
}

// TestProbeJudgedAndReported: judgements of a roll, costs and reports, tables by part, label keys in other languages, hedges and fillers before a condition.
func TestProbeJudgedAndReported(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Personally I wouldn't make them roll.", DecisionPass, ""},
		{"probe 2", "I'd prefer not to make that call. Personally I wouldn't make them roll, but it's not my place.", DecisionUnparsed, ""},
		{"probe 3", "Hard Stealth.", DecisionRoll, "Stealth"},
		{"probe 4", "Hard Stealth. The guards are alert.", DecisionRoll, "Stealth"},
		{"probe 5", "Dodge result: 71 against your 30.", DecisionRoll, "Dodge"},
		{"probe 6", "That's your Track check, by the way.", DecisionRoll, "Track"},
		{"probe 7", "A Spot Hidden roll would be pointless.", DecisionPass, ""},
		{"probe 8", "It would be silly to make him roll.", DecisionPass, ""},
		{"probe 9", "Seeing it costs a Sanity roll.", DecisionRoll, "Sanity"},
		{"probe 10", "Three Stealth rolls, one per room.", DecisionRoll, "Stealth"},
		{"probe 11", "There's no reason to bring out a Spot Hidden roll.", DecisionPass, ""},
		{"probe 12", "You find it without rolling Spot Hidden.", DecisionPass, ""},
		{"probe 13", "It's going to come down to a Track roll.", DecisionRoll, "Track"},
		{"probe 14", "| Action | Roll? | Skill |\n|---|---|---|\n| Walk to the boat | No | — |\n| Row across the lake at night | No | — |\n| Dive for the sunken chest | **Yes** | Swim |", DecisionRoll, "Swim"},
		{"probe 15", "| Part | Roll needed | Skill |\n|---|---|---|\n| Reach the wall | no | - |\n| Scale the wall | yes | Climb |", DecisionRoll, "Climb"},
		{"probe 16", "| Decision | Skill |\n|---|---|\n| roll | Climb |\n| automatic_success | - |", DecisionUnparsed, ""},
		{"probe 17", "Probably a Stealth roll.", DecisionUnparsed, ""},
		{"probe 18", "A Climb roll, probably.", DecisionUnparsed, ""},
		{"probe 19", "The answer is probably no roll.", DecisionUnparsed, ""},
		{"probe 20", "The guard is probably asleep, so no roll is needed.", DecisionPass, ""},
		{"probe 21", "The wall is probably slick from the rain, so make a Climb roll.", DecisionRoll, "Climb"},
		{"probe 22", "Make a Jump roll — well, only if the plank gives way. Otherwise no.", DecisionUnparsed, ""},
		{"probe 23", "Make a Jump roll — well, if you fail, you fall.", DecisionRoll, "Jump"},
		{"probe 24", "Roll Swim — but only if the current is strong.", DecisionUnparsed, ""},
		{"probe 25", "It would be odd to make her roll for that.", DecisionPass, ""},
		{"probe 26", "It would be odd not to make her roll Listen.", DecisionRoll, "Listen"},
		{"probe 27", "The sight costs you a Sanity roll.", DecisionRoll, "Sanity"},
		{"probe 28", "This comes down to a Climb roll.", DecisionRoll, "Climb"},
		{"probe 29", "I see no reason to pull out a Spot Hidden check for that.", DecisionPass, ""},
		{"probe 30", "Don't even touch the dice, the door is open.", DecisionPass, ""},
		{"probe 31", "Pick up your dice: Stealth.", DecisionRoll, "Stealth"},
		{"probe 32", "Decisión: tirada\nHabilidad: Esquivar (Dodge)", DecisionRoll, "Dodge"},
		{"probe 33", "Decisione: successo automatico\nAbilità: Ascoltare (Listen)", DecisionPass, ""},
		{"probe 34", "Entscheidung: Probe\nFertigkeit: Spurensuche (Track)", DecisionRoll, "Track"},
		{"probe 35", "- Roll: ✔️ — Listen", DecisionRoll, "Listen"},
		{"probe 36", "- Roll: ❌", DecisionPass, ""},
		{"probe 37", "Calling for a roll here would be silly.", DecisionPass, ""},
	})
}

// TestProbeContrastAndHedges: a contrast that grants a roll against a denied one, in each language, beside the same words without a skill; trailing and disowning hedges.
func TestProbeContrastAndHedges(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "No necesitas tirar Nadar, pero sí Esquivar (Dodge) cuando el tronco venga río abajo.", DecisionRoll, "Dodge"},
		{"probe 2", "No hace falta tirada para abrir la puerta, pero sí Sigilo (Stealth) para pasar al guardia.", DecisionRoll, "Stealth"},
		{"probe 3", "Non serve un tiro per camminare, ma sì Arrampicarsi (Climb) per il muro.", DecisionRoll, "Climb"},
		{"probe 4", "Não precisa rolar para andar, mas sim Saltar (Jump) para o buraco.", DecisionRoll, "Jump"},
		{"probe 5", "Für die Tür brauchst du keine Probe, aber schon Horchen (Listen) für die Stimmen.", DecisionRoll, "Listen"},
		{"probe 6", "Sí, sin tirada: la puerta está abierta.", DecisionPass, ""},
		{"probe 7", "roll Climb i guess", DecisionUnparsed, ""},
		{"probe 8", "I guess you could argue it, but no roll: the door is open.", DecisionPass, ""},
		{"probe 9", "I suppose some would wave it through, but roll Climb.", DecisionRoll, "Climb"},
		{"probe 10", "I'd probably call for a Swim roll.", DecisionUnparsed, ""},
		{"probe 11", "No es difícil, pero sí largo: sin tirada.", DecisionPass, ""},
		{"probe 12", "Nicht schwer, aber schon mühsam: keine Probe nötig.", DecisionPass, ""},
		{"probe 13", "No roll, maybe?", DecisionUnparsed, ""},
		{"probe 14", "Climb roll (probably).", DecisionUnparsed, ""},
		{"probe 15", "Make a Climb roll. The rope is probably frayed.", DecisionRoll, "Climb"},
	})
}

// TestProbeMisspelt: a skill misspelt by a letter is that skill; a name near none stays as written.
func TestProbeMisspelt(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "roll stelth", DecisionRoll, "Stealth"},
		{"probe 2", "Roll Libary Use.", DecisionRoll, "Library Use"},
		{"probe 3", "Decision: roll\nSkill: Lisen", DecisionRoll, "Listen"},
		{"probe 4", "sure! roll first aide", DecisionRoll, "First Aid"},
		{"probe 5", "dodg roll!!!", DecisionRoll, "Dodge"},
		{"probe 6", "{\"decision\": \"roll\", \"skill\": \"Medecine\"}", DecisionRoll, "Medicine"},
		{"probe 7", "Make a Mechanical Repiar roll.", DecisionRoll, "Mechanical Repair"},
		{"probe 8", "Roll Spot Hiden.", DecisionRoll, "Spot Hidden"},
		{"probe 9", "Decision: roll\nSkill: Trak", DecisionRoll, "Track"},
		{"probe 10", "Roll Drive Auto.", DecisionRoll, "Drive Auto"},
		{"probe 11", "Roll Luck.", DecisionRoll, "Luck"},
		{"probe 12", "Roll over and go back to sleep.", DecisionUnparsed, ""},
		{"probe 13", "roll again", DecisionUnparsed, ""},
		{"probe 14", "No roll; she just walks in.", DecisionPass, ""},
	})
}

// TestProbeCoCWords: CoC's own words: difficulty and skill, bonus and penalty dice, opposed skills, series, a skill named to a player; the same words in passes.
func TestProbeCoCWords(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Hard Stealth.", DecisionRoll, "Stealth"},
		{"probe 2", "Hard Stealth. The guards are alert.", DecisionRoll, "Stealth"},
		{"probe 3", "Extreme difficulty Firearms (Handgun): long range, half cover.", DecisionRoll, "Firearms"},
		{"probe 4", "Firearms, one penalty die for the smoke.", DecisionRoll, "Firearms"},
		{"probe 5", "Climb with a bonus die, since she has rope.", DecisionRoll, "Climb"},
		{"probe 6", "Opposed roll: the investigator's Stealth against the cultist's Listen.", DecisionRoll, "Stealth"},
		{"probe 7", "Opposed: Fighting (Brawl) vs Fighting (Brawl).", DecisionRoll, "Fighting"},
		{"probe 8", "Two penalty dice on the First Aid roll.", DecisionRoll, "First Aid"},
		{"probe 9", "*rolls* 88. That's your Track check, by the way.", DecisionRoll, "Track"},
		{"probe 10", "Okay, three rooms, three Stealth rolls, one per room.", DecisionRoll, "Stealth"},
		{"probe 11", "Jenny, Throw.", DecisionRoll, "Throw"},
		{"probe 12", "Maria, Locksmith, and you've got one penalty die.", DecisionRoll, "Locksmith"},
		{"probe 13", "Okay so, Dodge result: 71 against your 30.", DecisionRoll, "Dodge"},
		{"probe 14", "I don't see a reason to bring out a Spot Hidden roll.", DecisionPass, ""},
		{"probe 15", "I'd lean toward a Climb roll. Actually no, not leaning, that's my ruling. Climb.", DecisionRoll, "Climb"},
		{"probe 16", "It was hard work, but no roll is needed.", DecisionPass, ""},
		{"probe 17", "The climb is hard. No roll though: she has all day.", DecisionPass, ""},
		{"probe 18", "Extreme Stealth would be overkill, but I can't say if he needs it.", DecisionUnparsed, ""},
		{"probe 19", "No penalty die, no roll: it's a stroll.", DecisionPass, ""},
		{"probe 20", "Sam, Dave, listen up.", DecisionUnparsed, ""},
		{"probe 21", "Hard going, but she gets there without a roll.", DecisionPass, ""},
		{"probe 22", "Opposed Stealth vs Spot Hidden is the rule for sneaking past watchers. But nobody is watching, so no roll.", DecisionPass, ""},
		{"probe 23", "Stealth against Listen is how the book handles sneaking.", DecisionUnparsed, ""},
	})
}

// TestProbeLanguages: Dutch, Polish, and answers in the lexicons' languages; 'no idea whether' in each.
func TestProbeLanguages(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "Geen idee of dit een worp nodig heeft.", DecisionUnparsed, ""},
		{"probe 2", "No idea whether this needs a Climb roll.", DecisionUnparsed, ""},
		{"probe 3", "Non so se serve un tiro.", DecisionUnparsed, ""},
		{"probe 4", "Gooi voor Klimmen, de muur is glad.", DecisionRoll, "Climb"},
		{"probe 5", "Geen worp nodig, de deur staat open.", DecisionPass, ""},
		{"probe 6", "Rzut na Skakanie (Jump).", DecisionRoll, "Jump"},
		{"probe 7", "Nie trzeba rzucać na Pływanie.", DecisionPass, ""},
		{"probe 8", "Non serve alcun tiro, il libro è lì.", DecisionPass, ""},
		{"probe 9", "Serve un tiro? Sì: Furtività (Stealth).", DecisionRoll, "Stealth"},
		{"probe 10", "Kein Klettern-Wurf nötig.", DecisionPass, ""},
		{"probe 11", "Klettern-Wurf, die Wand ist nass.", DecisionRoll, "Climb"},
		{"probe 12", "Würfel weg, das klappt automatisch.", DecisionPass, ""},
		{"probe 13", "Das klappt nicht automatisch: Probe auf Klettern.", DecisionRoll, "Climb"},
		{"probe 14", "Sí, tirada. Rastrear (Track).", DecisionRoll, "Track"},
		{"probe 15", "Ninguna tirada: la puerta está abierta.", DecisionPass, ""},
		{"probe 16", "I know the role of the Keeper; no roll needed.", DecisionPass, ""},
		{"probe 17", "Teste de Rastrear (Track)? Não, as pegadas são frescas.", DecisionPass, ""},
		{"probe 18", "Un jet d'Escalade ? Oui : la paroi est glissante.", DecisionRoll, "Climb"},
		{"probe 19", "Probe auf Klettern? Nein, die Leiter steht da.", DecisionPass, ""},
		{"probe 20", "Non-negotiable, you said? Whatever.", DecisionUnparsed, ""},
	})
}

// TestProbeKeysAndFree: a ruling key with a reason, a skill's name denied, 'that's free', more decline forms.
func TestProbeKeysAndFree(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"probe 1", "No roll needed: the bridge is sound and they just walk across.", DecisionPass, ""},
		{"probe 2", "Roll needed: Climb.", DecisionRoll, "Climb"},
		{"probe 3", "No roll needed? The bridge might be rotten.", DecisionUnparsed, ""},
		{"probe 4", "Nothing else here calls for dice. No further roll.", DecisionPass, ""},
		{"probe 5", "Nah, skip it, you just see him. No Spot Hidden needed.", DecisionPass, ""},
		{"probe 6", "No Library Use is required: the book is open on the desk.", DecisionPass, ""},
		{"probe 7", "No Spot Hidden roll can be skipped here.", DecisionRoll, "Spot Hidden"},
		{"probe 8", "Nope, that's free. Swap the tyre.", DecisionPass, ""},
		{"probe 9", "Free action. Pick up the book.", DecisionPass, ""},
		{"probe 10", "That's free real estate, said the cultist.", DecisionUnparsed, ""},
		{"probe 11", "I don't think I'm the right one to make this call for your group.", DecisionRefused, ""},
		{"probe 12", "I don't think it's appropriate for me to make rulings for your game.", DecisionRefused, ""},
		{"probe 13", "I won't say which applies here.", DecisionRefused, ""},
		{"probe 14", "I don't think I'm the right one to say, but maybe a roll?", DecisionUnparsed, ""},
	})
}
