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
		{"fr4", "Un jet pour lire l'affiche ? Pas besoin.", DecisionPass, ""},
		{"de4", "Braucht es eine Probe? Braucht es nicht.", DecisionPass, ""},
		{"nl2", "Moet ze gooien? Nee, hoeft niet.", DecisionPass, ""},
		{"es4", "¿Hace falta tirada? Hace falta: Trepar.", DecisionRoll, "Climb"},
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

// TestProbeSixthRoundQuantifier holds a negative quantifier that opens a clause as its
// subject, over several words, before the roll its verb would call for: a pass. A
// quantifier after the roll, or set off by a comma, denies nothing of it; with a
// "without" it is a double negation.
func TestProbeSixthRoundQuantifier(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"es1", "Ningún paso de este plan requiere una tirada: simplemente sube.", DecisionPass, ""},
		{"it1", "Nessun momento di questa scena richiede i dadi.", DecisionPass, ""},
		{"de1", "Keiner dieser Handgriffe erfordert eine Probe.", DecisionPass, ""},
		{"nl1", "Geen enkele stap van haar plan vraagt om een worp.", DecisionPass, ""},
		{"pt1", "Nenhuma etapa disso exige teste.", DecisionPass, ""},
		{"fr1", "Rien dans cette scène ne demande des dés.", DecisionPass, ""},
		// must not fire
		{"n1", "Ningún guardia te ve, pero haz una tirada de Sigilo por el perro.", DecisionRoll, "Stealth"},
		{"n2", "Ningún investigador cruza el río sin una tirada de Nadar.", DecisionRoll, "Swim"},
		{"n3", "Esto requiere dados: Trepar.", DecisionRoll, "Climb"},
	})
}

// TestProbeSixthRoundSplit holds a pass for one part of the action and, in a later
// sentence opened by a but word of the language, a roll for another part: a roll. The
// same sentences without the but word, or about the same thing, stay a contradiction.
func TestProbeSixthRoundSplit(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fr1", "Traverser le jardin ne demande aucun jet. En revanche, escalader le mur exige un jet de Grimper.", DecisionRoll, "Climb"},
		{"es1", "Entrar al granero no requiere tirada. En cambio, forzar el candado exige una tirada de Cerrajería.", DecisionRoll, "Locksmith"},
		{"de1", "Das Tor zu öffnen braucht keine Probe. Hingegen braucht das Schloss der Truhe eine Probe auf Schlosserei.", DecisionRoll, "Locksmith"},
		{"pt1", "Atravessar a sala não precisa de teste. No entanto, abrir o cofre exige um teste de Chaveiro.", DecisionRoll, "Locksmith"},
		// must not fire: no but word, or the same thing both times
		{"n1", "Aucun jet pour la porte. Mais pour la porte, fais un jet de Discrétion.", DecisionUnparsed, ""},
		{"n2", "Aucun jet. Mais fais un jet de Discrétion.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundLexicon holds phrasings of the other languages read as data: a
// skill and "any other roll" denied together, a verb of rolling with a pronoun ("Tírame
// Escuchar") or in the past as the Keeper reports it ("Rolei Track"), "no need to roll"
// in Dutch, the referee as what a refusal declines, a decline with "rather", and an
// Italian reflexive "si" that is no condition.
func TestProbeSixthRoundLexicon(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"de1", "Weder Klettern noch irgendein anderer Wurf ist hier nötig.", DecisionPass, ""},
		{"es1", "No hace falta ni Saltar ni ninguna otra tirada.", DecisionPass, ""},
		{"es2", "Tírame Sigilo, el guardia está despierto.", DecisionRoll, "Stealth"},
		{"pt1", "Rolei Encontrar para você: 34. Você vê a chave.", DecisionRoll, "Spot Hidden"},
		{"nl1", "Ze hoeft niet te gooien, de deur staat open.", DecisionPass, ""},
		{"nl2", "Een worp is niet nodig: het hek is laag.", DecisionPass, ""},
		{"it1", "Preferisco non fare da arbitro in questa scena.", DecisionRefused, ""},
		{"de2", "Diese Szene möchte ich lieber nicht entscheiden.", DecisionRefused, ""},
		{"it2", "Serve un tiro di Ascoltare per capire di chi si tratta.", DecisionRoll, "Listen"},
		// must not fire: the Italian "se" is still a condition
		{"n1", "Se il cane abbaia, serve un tiro di Furtività.", DecisionUnparsed, ""},
		{"n2", "Ni el guardia ni el perro te oyen.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundDeniedPass holds an automatic success denied by a negation that
// governs it ("ce n'est pas une réussite automatique"): a roll. A negation set off by a
// comma or a conjunction governs nothing of it.
func TestProbeSixthRoundDeniedPass(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fr1", "Ce n'est pas une réussite automatique : jet de Pister.", DecisionRoll, "Track"},
		{"es1", "No es un éxito automático; tira Esquivar.", DecisionRoll, "Dodge"},
		{"it1", "Non è un successo automatico: tiro di Nuotare.", DecisionRoll, "Swim"},
		{"de1", "Hier muss gewürfelt werden: Klettern.", DecisionRoll, "Climb"},
		{"de2", "Nein, hier muss nicht gewürfelt werden.", DecisionPass, ""},
		{"fr2", "Aucune partie de cette action ne nécessite de jet.", DecisionPass, ""},
		// must not fire
		{"n1", "Das ist nicht schwer und gelingt automatisch.", DecisionPass, ""},
		{"n2", "Kein Problem, das gelingt automatisch.", DecisionPass, ""},
		{"n3", "Non, réussite automatique.", DecisionPass, ""},
	})
}

// TestProbeSixthRoundLabels holds rulings as labels in the other languages: a label of
// need answered by a bare yes or no ("Probe nötig: nein" is a pass, never a roll), a
// skill named in the language in a label's value or a JSON object's skill. A no that
// opens a sentence after a colon answers no label.
func TestProbeSixthRoundLabels(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fr1", "Jet nécessaire : non", DecisionPass, ""},
		{"fr2", "Jet requis : oui (Grimper)", DecisionRoll, "Climb"},
		{"de1", "Probe nötig: nein", DecisionPass, ""},
		{"de2", "Probe nötig: ja — Schwimmen", DecisionRoll, "Swim"},
		{"es1", "Tirada necesaria: no", DecisionPass, ""},
		{"it1", "Tiro necessario: no, la porta è aperta.", DecisionPass, ""},
		{"pt1", "Teste necessário: sim (Furtividade)", DecisionRoll, "Stealth"},
		{"fr3", "**Décision :** jet de Discrétion", DecisionRoll, "Stealth"},
		{"es2", "Decisión: tirada\nHabilidad: Sigilo", DecisionRoll, "Stealth"},
		{"de3", "Entscheidung: Probe erforderlich\nFertigkeit: Klettern", DecisionRoll, "Climb"},
		{"js1", `{"decision": "roll", "skill": "Sigilo", "reason": "El guardia está despierto."}`, DecisionRoll, "Stealth"},
		{"js2", `{"decision": "roll", "skill": "Trouver Objet Caché", "reason": "La clé est cachée."}`, DecisionRoll, "Spot Hidden"},
		{"js3", `{"decision": "roll", "skill": "Primeiros Socorros", "reason": "Ferimento leve."}`, DecisionRoll, "First Aid"},
		// must not fire: a sentence after the colon, a skill the lexicons do not know
		{"n1", "Tirada de Rastrear, Difícil: no hay luz y las huellas son viejas.", DecisionRoll, "Track"},
		{"n2", `{"decision": "roll", "skill": "Cordura", "reason": "Horror."}`, DecisionRoll, "Cordura"},
	})
}

// TestProbeSixthRoundAside holds the player's claim or wish reported in another
// language (no ruling of the reply's), and a ruling judged wrong by the predicate after
// it (its opposite); a ruling the player must make, one after a comma, and a ruling
// judged fitting are the reply's.
func TestProbeSixthRoundAside(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"es1", "El jugador quiere cruzar el patio sin tirar porque es de noche. Pero hay un perro: tirada de Sigilo.", DecisionRoll, "Stealth"},
		{"fr1", "Le joueur affirme qu'il réussit automatiquement. Le mur est trempé : jet de Grimper.", DecisionRoll, "Climb"},
		{"de1", "Der Spieler meint, keine Probe sei nötig. Die Strömung ist stark: Probe auf Schwimmen.", DecisionRoll, "Swim"},
		{"fr2", "Une réussite automatique serait trop généreuse ici. Jet d'Esquive.", DecisionRoll, "Dodge"},
		{"es2", "Una tirada aquí sería excesiva: la puerta está abierta.", DecisionPass, ""},
		{"it1", "Un successo automatico non sarebbe giusto: tiro di Ascoltare.", DecisionRoll, "Listen"},
		{"pt1", "Não lhe daria um sucesso automático. Teste de Rastrear.", DecisionRoll, "Track"},
		// must not fire
		{"n1", "El jugador debe hacer una tirada de Sigilo.", DecisionRoll, "Stealth"},
		{"n2", "Le joueur veut grimper, donc jet de Grimper.", DecisionRoll, "Climb"},
		{"n3", "Un jet de Discrétion serait approprié.", DecisionRoll, "Stealth"},
	})
}

// TestProbeSixthRoundKeeperRolls holds the Keeper rolling a skill for the player in the
// present or the past, in the other languages: a roll of that skill.
func TestProbeSixthRoundKeeperRolls(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fr1", "Je lance Trouver Objet Caché pour toi… 62. Rien.", DecisionRoll, "Spot Hidden"},
		{"es1", "Tiro Rastrear por ti: 12. Encuentras las huellas.", DecisionRoll, "Track"},
		{"es2", "He tirado Escuchar en secreto: 71.", DecisionRoll, "Listen"},
		{"pt1", "Rolo Furtividade por você em segredo: 40.", DecisionRoll, "Stealth"},
		{"de1", "Ich habe verdeckt auf Horchen gewürfelt: 18.", DecisionRoll, "Listen"},
		// must not fire: a noun "tiro" is no verb of rolling before a skill
		{"n1", "Tiro di Ascoltare: la porta è spessa.", DecisionRoll, "Listen"},
		{"n2", "Sorry, daar kan ik je niet mee helpen.", DecisionRefused, ""},
	})
}

// TestProbeSixthRoundCompounds holds German and Dutch compound roll nouns whose first
// part is a skill's stem ("Kletterprobe"): a roll of that skill, a pass when negated;
// compounds of other words ("Stichprobe") name no roll.
func TestProbeSixthRoundCompounds(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"de1", "Eine Schleichprobe, der Wächter ist wach.", DecisionRoll, "Stealth"},
		{"de2", "Mach mal eine Ausweichprobe!", DecisionRoll, "Dodge"},
		{"de3", "Keine Schwimmprobe nötig, das Wasser ist flach.", DecisionPass, ""},
		{"nl1", "Doe een klimworp, de muur is glad.", DecisionRoll, "Climb"},
		// must not fire
		{"n1", "Die Stichprobe im Archiv zeigt nichts Neues.", DecisionUnparsed, ""},
		{"n2", "Der Entwurf liegt auf dem Tisch.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundConditions holds conditions in the other languages: one whose body
// is passing or failing a roll calls for the roll; the player's wish ("si tu veux")
// leaves the ruling firm; a condition on the world, and a label answered only by a
// hedge, leave it open.
func TestProbeSixthRoundConditions(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fr1", "Le chien ne se réveille pas si tu réussis un jet de Discrétion.", DecisionRoll, "Stealth"},
		{"de1", "Du kommst rüber, wenn dir eine Probe auf Springen gelingt.", DecisionRoll, "Jump"},
		{"es1", "Caes al río si fallas una tirada de Trepar.", DecisionRoll, "Climb"},
		{"it1", "Lo senti solo se superi un tiro di Ascoltare.", DecisionRoll, "Listen"},
		{"fr2", "Si vous voulez l'ouvrir en silence, jet de Serrurerie.", DecisionRoll, "Locksmith"},
		{"es2", "Si quieres cruzar ahora, tirada de Nadar.", DecisionRoll, "Swim"},
		{"de2", "Falls die Tür klemmt, eine Probe auf Mechanische Reparaturen.", DecisionUnparsed, ""},
		{"fr3", "Jet requis : peut-être.", DecisionUnparsed, ""},
		{"de3", "Probe nötig: vielleicht.", DecisionUnparsed, ""},
		// must not fire: the condition's body passes something that is no roll
		{"n1", "Si tu réussis à convaincre le garde, aucun jet de Discrétion.", DecisionUnparsed, ""},
		{"n2", "Si pasa algo raro, tirada de Cordura.", DecisionUnparsed, ""},
	})
}

// TestProbeSixthRoundIdioms holds negation words that deny no ruling: "without doubt"
// and "no doubt" affirm, "not only" adds, and a negation closed by a comma ("no
// problem, …") does not reach the roll after it. French "sans doute" is "probably": a
// hedge. A negation that does govern the roll still denies it.
func TestProbeSixthRoundIdioms(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fr1", "Sans aucun doute un jet de Pister : la piste est vieille.", DecisionRoll, "Track"},
		{"fr2", "C'est sans doute un jet de Nager.", DecisionUnparsed, ""},
		{"es1", "Sin duda, una tirada de Nadar.", DecisionRoll, "Swim"},
		{"it1", "Senza dubbio serve un tiro di Nuotare.", DecisionRoll, "Swim"},
		{"pt1", "Sem dúvida, teste de Escalar.", DecisionRoll, "Climb"},
		{"de1", "Ohne Zweifel eine Probe auf Springen.", DecisionRoll, "Jump"},
		{"de2", "Kein Problem, Probe auf Springen und fertig.", DecisionRoll, "Jump"},
		{"es2", "Sin problema, tirada de Saltar.", DecisionRoll, "Jump"},
		{"nl1", "Geen probleem, gooi voor Springen.", DecisionRoll, "Jump"},
		{"it2", "Non solo un tiro di Saltare: anche Arrampicarsi.", DecisionRoll, "Jump"},
		{"pt2", "Não só um teste de Saltar, mas também Escalar.", DecisionRoll, "Jump"},
		{"fr3", "Ni plus ni moins qu'un jet de Sauter.", DecisionRoll, "Jump"},
		{"es3", "Sin embargo tirada de Saltar: el foso es ancho.", DecisionRoll, "Jump"},
		{"fr4", "Il n'y a aucun besoin de jet ici.", DecisionPass, ""},
		// must not fire: the negation governs the roll
		{"n1", "No hace falta una tirada de Saltar.", DecisionPass, ""},
		{"n2", "Ohne Probe auf Springen kommt er nicht rüber.", DecisionRoll, "Jump"},
		{"n3", "Nessun tiro di Saltare: c'è un ponte.", DecisionPass, ""},
	})
}

// TestProbeSixthRoundQuantifierScope holds negative quantifiers whose scope the roll is
// not in: a verb of preventing ("nothing prevents a roll"); and one whose scope it is.
func TestProbeSixthRoundQuantifierScope(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fr1", "Rien ne t'empêche de faire un jet de Discrétion.", DecisionRoll, "Stealth"},
		{"es1", "Nada te impide hacer una tirada de Sigilo.", DecisionRoll, "Stealth"},
		{"fr3", "Rien dans cette scène ne demande des dés.", DecisionPass, ""},
	})
}

// TestLexiconAnchorsByWord holds the anchor look-up to what it replaces: every roll,
// pass and contrast phrase of the built-in lexicons, written in a clause, marks its
// anchor.
func TestLexiconAnchorsByWord(t *testing.T) {
	lex := DefaultLexicon()
	for _, list := range [][]string{lex.roll, lex.pass, lex.contrast} {
		for _, p := range list {
			for _, clause := range []string{p, "a " + p + " b", "(" + p + ").", "x-" + p + ", y"} {
				present := make([]bool, len(lex.anchors))
				if !lex.markAnchors(clause, present) || !present[lex.anchorOf[p]] {
					t.Errorf("markAnchors(%q) misses the anchor %q of %q", clause, lex.anchors[lex.anchorOf[p]], p)
				}
			}
		}
	}
}

// TestProbeSixthRoundNeitherBut holds "neither A nor B, but a C roll": the skills
// denied are parts, the roll after the but is the ruling; "neither A nor B" alone, or
// with a but that rules nothing, is a pass.
func TestProbeSixthRoundNeitherBut(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fr1", "Ni Nager ni Sauter, mais un jet de Grimper pour la falaise.", DecisionRoll, "Climb"},
		{"de1", "Weder Schwimmen noch Springen, sondern eine Probe auf Klettern.", DecisionRoll, "Climb"},
		{"es1", "Ni Nadar ni Saltar, pero sí una tirada de Trepar.", DecisionRoll, "Climb"},
		{"it1", "Né Nuotare né Saltare, ma un tiro di Arrampicarsi.", DecisionRoll, "Climb"},
		// must not fire
		{"n1", "Ni Nadar ni Saltar: hay un puente.", DecisionPass, ""},
		{"n2", "Weder Schwimmen noch Springen ist nötig, aber er muss sich beeilen.", DecisionPass, ""},
	})
}

// TestProbeSixthRoundOpen holds rulings offered with their alternative or left to the
// player in another language: unparsed; a ruling with no alternative stays.
func TestProbeSixthRoundOpen(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"de1", "Probe auf Springen oder automatisch, wie du willst.", DecisionUnparsed, ""},
		{"es1", "Tirada de Saltar o éxito automático, como prefieras.", DecisionUnparsed, ""},
		{"fr1", "Jet de Sauter ou réussite automatique, c'est toi qui vois.", DecisionUnparsed, ""},
		{"pt1", "Teste de Saltar ou sem teste, você escolhe.", DecisionUnparsed, ""},
		{"n1", "Teste de Saltar: a vala é larga.", DecisionRoll, "Jump"},
	})
}
