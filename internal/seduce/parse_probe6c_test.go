package seduce

import "testing"

// Probe tables of the sixth round of issue 29 for replies in the lexicons' languages:
// sentences of this round's own, written by kind and labelled under spec section 3
// before the parser read them, each kind in several languages, with cases it must not
// fire on.

// TestProbeSixthRoundAnswers holds questions a reply answers itself in another
// language: a question that names a roll only by its noun, the "of course not" of each
// language (whose first words alone would be a yes), and a skill named after a yes.
func TestProbeSixthRoundAnswers(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fr1", "Faut-il un jet pour traverser la cour ? Non. Il la traverse.", DecisionPass, ""},
		{"fr2", "Un jet pour ouvrir le tiroir ? Bien sûr que non.", DecisionPass, ""},
		{"fr3", "Faut-il un jet ? Oui : Discrétion, le garde est réveillé.", DecisionRoll, "Stealth"},
		{"de1", "Braucht er eine Probe, um die Leiter hochzusteigen? Natürlich nicht.", DecisionPass, ""},
		{"de2", "Ein Wurf für die offene Tür? Auf keinen Fall.", DecisionPass, ""},
		{"de3", "Braucht sie einen Wurf? Ja, Schwimmen: die Strömung ist stark.", DecisionRoll, "Swim"},
		{"es1", "¿Hace falta tirar para abrir la ventana? Claro que no.", DecisionPass, ""},
		{"es2", "¿Tirada para bajar tres escalones? Para nada.", DecisionPass, ""},
		{"es3", "¿Necesita tirada? Sí: Escuchar, los pasos son muy suaves.", DecisionRoll, "Listen"},
		{"it1", "Serve un tiro per accendere la lampada? Certo che no.", DecisionPass, ""},
		{"it2", "Un tiro per leggere l'insegna? Per niente.", DecisionPass, ""},
		{"pt1", "Precisa de teste para subir a escada? Claro que não.", DecisionPass, ""},
		{"pt2", "Precisa de teste? Sim: Natação, a correnteza é forte.", DecisionRoll, "Swim"},
		{"nl1", "Een worp om de deur te openen? Natuurlijk niet.", DecisionPass, ""},
		// must not fire: a yes answer keeps the roll; a question with no roll word, or
		// with only a word of automatic success, rules nothing by its answer
		{"n1", "¿Hace falta una tirada? Claro, la corriente es fuerte: Nadar.", DecisionRoll, "Swim"},
		{"n2", "Automatique ? Non.", DecisionUnparsed, ""},
		{"n3", "Veux-tu entrer ? Non ? Alors reste dehors.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundPredicate holds a roll named as the subject of a predicate of
// need that is negated ("Un jet de X n'est pas nécessaire"): a pass, not a roll beside
// a pass; a roll joined to another statement by a conjunction or a comma stays a roll.
func TestProbeSixthRoundPredicate(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fr1", "Un jet d'Écouter n'est pas nécessaire : la radio hurle.", DecisionPass, ""},
		{"de1", "Eine Probe auf Springen ist hier nicht nötig.", DecisionPass, ""},
		{"de2", "Eine Swim-Probe ist nicht erforderlich, das Becken ist flach.", DecisionPass, ""},
		{"es1", "Una tirada de Rastrear no es necesaria: las huellas están frescas.", DecisionPass, ""},
		{"it1", "Un tiro di Ascoltare non è necessario, urlano.", DecisionPass, ""},
		{"pt1", "Um teste de Escutar não é necessário.", DecisionPass, ""},
		// must not fire: the roll is joined to another statement
		{"n1", "Würfle auf Schleichen und Klettern ist nicht nötig.", DecisionUnparsed, ""},
		{"n2", "Tira Sigilo, no es necesario correr.", DecisionRoll, "Stealth"},
	})
}

// TestProbeSixthRoundSkills holds skill names as the other languages write them,
// resolved to the taxonomy's skill.
func TestProbeSixthRoundSkills(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"es1", "Haz una tirada de Escalada.", DecisionRoll, "Climb"},
		{"pt1", "Faça um teste de Escalada.", DecisionRoll, "Climb"},
		{"pt2", "Faça um teste de Ouvir.", DecisionRoll, "Listen"},
		{"fr1", "Fais un jet de Furtivité.", DecisionRoll, "Stealth"},
		{"fr2", "Jet de Bagarre, il te saute dessus.", DecisionRoll, "Fighting"},
		{"de1", "Probe auf Schließtechnik.", DecisionRoll, "Locksmith"},
		{"de2", "Würfle auf Handgemenge.", DecisionRoll, "Fighting"},
		{"it1", "Fai un tiro di Nuoto.", DecisionRoll, "Swim"},
		{"pl1", "Rzut na Wspinaczkę.", DecisionRoll, "Climb"},
		{"pl2", "Rzut na Medycynę, rana jest głęboka.", DecisionRoll, "Medicine"},
	})
}
