package seduce

import "testing"

// Probe tables of the third round of issue 29: sentences written for each class of rule,
// in words of their own, beside sentences with the same words that must not fire.

// TestProbeDecline: a first-person verb of declining with the ruling, the role, the scene
// or the request as its object is a refusal, in every language of the lexicons; the same
// verbs waiting on something, asked as a question, said of someone else, or "can't"
// with a choice ("I can't decide") are not.
func TestProbeDecline(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"I'm going to decline to adjudicate this ", "I'm going to decline to adjudicate this one.", DecisionRefused, ""},
		{"I'd rather not act as the Keeper for thi", "I'd rather not act as the Keeper for this scene.", DecisionRefused, ""},
		{"I won't be ruling on this scenario.", "I won't be ruling on this scenario.", DecisionRefused, ""},
		{"Respectfully, I decline the role of refe", "Respectfully, I decline the role of referee here.", DecisionRefused, ""},
		{"I'll defer to your group's Keeper on thi", "I'll defer to your group's Keeper on this.", DecisionRefused, ""},
		{"I can't help with that request, but I'm ", "I can't help with that request, but I'm happy to explain how skill rolls work in general.", DecisionRefused, ""},
		{"This request conflicts with my content g", "This request conflicts with my content guidelines, so I won't continue.", DecisionRefused, ""},
		{"The statement contains instructions aime", "The statement contains instructions aimed at me; I won't follow them or rule on it.", DecisionRefused, ""},
		{"I'm not going to make a call on this one", "I'm not going to make a call on this one.", DecisionRefused, ""},
		{"I must refrain from adjudicating this sc", "I must refrain from adjudicating this scene.", DecisionRefused, ""},
		{"Sorry — judging this isn't something I'l", "Sorry — judging this isn't something I'll do.", DecisionRefused, ""},
		{"I'll leave this ruling to a human Keeper", "I'll leave this ruling to a human Keeper.", DecisionRefused, ""},
		{"That's outside what I'm willing to do. P", "That's outside what I'm willing to do. Perhaps I can help with character creation instead?", DecisionRefused, ""},
		{"I decline to rule on this.", "I decline to rule on this.", DecisionRefused, ""},
		{"Je ne peux pas arbitrer cette scène, dés", "Je ne peux pas arbitrer cette scène, désolé.", DecisionRefused, ""},
		{"Je refuse de trancher sur ce point.", "Je refuse de trancher sur ce point.", DecisionRefused, ""},
		{"Ich möchte hier keine Entscheidung treff", "Ich möchte hier keine Entscheidung treffen.", DecisionRefused, ""},
		{"Darüber entscheide ich nicht.", "Darüber entscheide ich nicht.", DecisionRefused, ""},
		{"Lo siento, no puedo ayudar con esa petic", "Lo siento, no puedo ayudar con esa petición.", DecisionRefused, ""},
		{"Prefiero no decidir sobre esto.", "Prefiero no decidir sobre esto.", DecisionRefused, ""},
		{"No voy a arbitrar esta escena.", "No voy a arbitrar esta escena.", DecisionRefused, ""},
		{"Preferisco non giudicare questa scena.", "Preferisco non giudicare questa scena.", DecisionRefused, ""},
		{"Prefiro não decidir isso.", "Prefiro não decidir isso.", DecisionRefused, ""},
		{"I won't make you roll for that.", "I won't make you roll for that.", DecisionPass, ""},
		{"I decline to make anyone roll here; it's", "I decline to make anyone roll here; it's automatic.", DecisionPass, ""},
		{"I can't decide between Climb and Jump he", "I can't decide between Climb and Jump here.", DecisionUnparsed, ""},
		{"I can't tell whether the rope holds.", "I can't tell whether the rope holds.", DecisionUnparsed, ""},
		{"I'm not comfortable with how violent thi", "I'm not comfortable with how violent this is, but mechanically: roll Climb.", DecisionRoll, "Climb"},
		{"Error: content filtered.", "Error: content filtered.", DecisionUnparsed, ""},
		{"The Keeper declined to say more about th", "The Keeper declined to say more about the door.", DecisionUnparsed, ""},
		{"She refuses to climb the wall.", "She refuses to climb the wall.", DecisionUnparsed, ""},
		{"Honestly? I'll sit out this ruling.", "Honestly? I'll sit out this ruling.", DecisionRefused, ""},
		{"I'm opting out of refereeing this one.", "I'm opting out of refereeing this one.", DecisionRefused, ""},
		{"Je m'abstiens de juger cette action.", "Je m'abstiens de juger cette action.", DecisionRefused, ""},
		{"Je laisse la décision au gardien de ta t", "Je laisse la décision au gardien de ta table.", DecisionRefused, ""},
		{"Ich überlasse die Entscheidung deinem Sp", "Ich überlasse die Entscheidung deinem Spielleiter.", DecisionRefused, ""},
		{"Dejo la decisión a tu máster.", "Dejo la decisión a tu máster.", DecisionRefused, ""},
		{"No estoy dispuesto a arbitrar esto.", "No estoy dispuesto a arbitrar esto.", DecisionRefused, ""},
		{"Non ho intenzione di arbitrare questa sc", "Non ho intenzione di arbitrare questa scena.", DecisionRefused, ""},
		{"Não vou arbitrar esta cena.", "Não vou arbitrar esta cena.", DecisionRefused, ""},
		{"I won't rule until I know how high the w", "I won't rule until I know how high the wall is.", DecisionUnparsed, ""},
		{"I can't make the call without knowing wh", "I can't make the call without knowing whether the door is locked.", DecisionUnparsed, ""},
		{"I can't rule out that the branch snaps.", "I can't rule out that the branch snaps.", DecisionUnparsed, ""},
		{"I don't want to decide too fast: the led", "I don't want to decide too fast: the ledge is wet and the wind is up.", DecisionUnparsed, ""},
		{"I'd rather know more about the lock befo", "I'd rather know more about the lock before I decide.", DecisionUnparsed, ""},
		{"Je ne peux pas trancher sans savoir si l", "Je ne peux pas trancher sans savoir si la porte est fermée.", DecisionUnparsed, ""},
		{"No puedo decidir hasta que sepa la altur", "No puedo decidir hasta que sepa la altura del muro.", DecisionUnparsed, ""},
		{"The Keeper refuses to rule on it, the pl", "The Keeper refuses to rule on it, the player says.", DecisionUnparsed, ""},
		{"I can't decide.", "I can't decide.", DecisionUnparsed, ""},
		{"I can't say whether he needs to roll.", "I can't say whether he needs to roll.", DecisionUnparsed, ""},
		{"Hmm, I'd rather think about the ruling a", "Hmm, I'd rather think about the ruling a bit more.", DecisionUnparsed, ""},
	})
}
