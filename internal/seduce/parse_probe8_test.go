package seduce

import "testing"

// TestProbeFourthRoundLanguages is the fifth probe table of the fourth round of issue 29:
// rulings, negations, conditions, hedges and corrections in the lexicons' languages, in
// sentences of our own labelled before the parser read them.
func TestProbeFourthRoundLanguages(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// French
		{"f1", "Aucun jet nécessaire : la porte est grande ouverte.", DecisionPass, ""},
		{"f2", "Faites un jet d'Escalade, le mur est glissant.", DecisionRoll, "Climb"},
		{"f3", "Pas de jet pour traverser la pièce, mais un jet de Discrétion pour passer devant le garde.", DecisionRoll, "Stealth"},
		{"f4", "Je dirais un jet de Trouver Objet Caché, peut-être.", DecisionUnparsed, ""},
		{"f5", "S'il pleut, jet de Grimper ; sinon, rien.", DecisionUnparsed, ""},
		{"f7", "Impossible de passer sans un jet de Nager.", DecisionRoll, "Swim"},
		{"f8", "Réussite automatique, il a la clé.", DecisionPass, ""},
		{"f9", "Jet de Sauter. En fait non, pas de jet, c'est une flaque.", DecisionUnparsed, ""},
		// German
		{"d1", "Keine Probe nötig, die Tür steht offen.", DecisionPass, ""},
		{"d2", "Eine Probe auf Schwimmen, die Strömung ist stark.", DecisionRoll, "Swim"},
		{"d4", "Vielleicht eine Probe auf Horchen.", DecisionUnparsed, ""},
		{"d5", "Falls der Hund schläft, keine Probe.", DecisionUnparsed, ""},
		{"d6", "Das gelingt automatisch.", DecisionPass, ""},
		{"d7", "Du musst nicht würfeln.", DecisionPass, ""},
		{"d8", "Würfel auf Spurensuche, der Regen hat fast alles verwischt.", DecisionRoll, "Track"},
		{"d9", "Es braucht keinen Wurf.", DecisionPass, ""},
		// Spanish
		{"e1", "No hace falta tirar, tiene la llave.", DecisionPass, ""},
		{"e2", "Tira Sigilo, los guardias están despiertos.", DecisionRoll, "Stealth"},
		{"e3", "Haz una tirada de Escuchar.", DecisionRoll, "Listen"},
		{"e4", "Quizás una tirada de Trepar.", DecisionUnparsed, ""},
		{"e5", "Si está oscuro, tirada de Descubrir; si no, nada.", DecisionUnparsed, ""},
		{"e6", "Éxito automático, es su propia casa.", DecisionPass, ""},
		{"e7", "No es necesaria ninguna tirada.", DecisionPass, ""},
		// Italian / Portuguese
		{"i1", "Nessun tiro, la porta è aperta.", DecisionPass, ""},
		{"i2", "Fai un tiro di Nuotare, la corrente è forte.", DecisionRoll, "Swim"},
		{"i3", "Forse un tiro di Ascoltare.", DecisionUnparsed, ""},
		{"o2", "Faça um teste de Furtividade.", DecisionRoll, "Stealth"},
		{"o3", "Talvez um teste de Escutar.", DecisionUnparsed, ""},
	})
}

// TestProbeFrontedWithout: a "without … roll" that opens its clause, set off by a
// comma, leaves the ruling to the clause after it.
func TestProbeFrontedWithout(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fronted without, consequence", "Without a Swim roll, he drowns.", DecisionUnparsed, ""},
		{"fronted without, no way", "Without a Climb roll, there's no way up.", DecisionRoll, "Climb"},
		{"trailing without", "She opens it without a roll.", DecisionPass, ""},
		{"without, no comma", "Without any roll she strolls in.", DecisionPass, ""},
	})
}
