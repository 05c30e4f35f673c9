package seduce

import (
	"strings"
	"testing"
)

// Probe tables of the eighth round of issue 29 for long replies (150 words and more)
// and replies in the lexicons' languages: sentences of this round's own, labelled under
// README-set3's rules before the parser read them, with cases each rule must not fire on.

// scene8c are paragraphs of a long reply that set the scene and rule nothing.
var scene8c = []string{
	"Here is the situation as I read it. Miss Okafor is in the reading room of the county archive late on a wet Thursday afternoon. The archivist has gone to lunch and left her with the key to the map cabinet, a pot of tea and strict instructions not to smoke near the parchment. The drawers are numbered, the index card for the parish is in her hand, and the window behind her looks out over the churchyard where the whole business started three sessions ago.",
	"A word on the scene first, since it matters. The steamer is tied up at the coal wharf, the crew are ashore, and the only light on deck comes from a hurricane lamp hanging by the wheelhouse door. Mr. Baptiste has his own tools with him, the night is calm, and the watchman at the gate is more interested in his newspaper than in anybody walking along the quay. Nothing in the notes suggests the cult knows the party is here yet.",
	"Let me set out what the player told me. Dr. Halloran has spent two days in the village, she has spoken to the vicar, the publican and the old woman who keeps bees behind the chapel, and she has a notebook full of names and dates. Tonight she wants to sit in her room at the inn and put the pieces together before the others arrive on the morning train from London.",
}

// long8c joins a reply's paragraphs with a scene paragraph after the first.
func long8c(scene int, paras ...string) string {
	out := append([]string{paras[0], scene8c[scene]}, paras[1:]...)
	return strings.Join(out, "\n\n")
}

// TestProbeEighthRoundClosingVerdict holds long replies whose body argues both ways
// (the player's claim, the case for the other ruling, what some Keepers would do, what a
// roll would mean) and whose conclusion, opened by a marker of concluding, rules: the
// conclusion is the reply's ruling. The must-not-fire cases end open, on a condition,
// in a hedge, or rule only before the body takes the ruling back.
func TestProbeEighthRoundClosingVerdict(t *testing.T) {
	runLongCases(t, []ruleCase{
		{"chatty so colon pass", long8c(0,
			"Oh, this is a nice little moment, and I think the player is worrying more than they need to.",
			"The player asked whether she should roll Library Use to find the map. I can see why: finding records is the classic Library Use job, and some Keepers would reach for the dice out of habit. But she knows the parish, the drawer is labelled, and nobody is rushing her. A roll here would only mean that a failure leaves her staring at a labelled drawer, which helps nobody.",
			"So: no roll. She opens the drawer, unfolds the tithe map and finds the field boundary the vicar lied about."), DecisionPass, ""},
		{"bottom line roll", long8c(1,
			"I went back and forth on this one, so bear with me.",
			"The case for letting it through is strong. Baptiste is a ship's engineer, the engine is one he knows, and under ordinary conditions I would never ask him to roll for a valve he has turned a thousand times. The player made exactly that argument, and made it well. The case against is that the valve is seized with rust and he is working by lamplight with his hands shaking from the cold.",
			"Bottom line: he makes a Mechanical Repair roll. If he fails, the wheel gives with a bang that the watchman will certainly hear."), DecisionRoll, "Mechanical Repair"},
		{"my ruling then", long8c(2,
			"This is the kind of question where I can see both sides.",
			"On the one hand, she has all night and nothing is threatening her, which usually means no roll. On the other hand, the clue that ties the names together is buried in a pattern nobody has spotted in thirty years, and working it out is exactly what her skill is for. Skipping the roll would hand her the solution for free.",
			"My ruling, then: she rolls Psychology. A success shows her that the vicar and the publican are telling the same rehearsed story."), DecisionRoll, "Psychology"},
		{"that's why", long8c(0,
			"The player wants a Spot Hidden roll, and I am going to say no to that, kindly.",
			"They are keen because their investigator has a high Spot Hidden and they have not used it all evening. I understand that. But the map is not hidden; it is in the drawer the index card names. Rolling for it would mean a failure where she cannot see a map lying in front of her, and that would make the game worse, not better.",
			"That's why there is no roll here: she simply finds the map, and the dice can wait for the churchyard."), DecisionPass, ""},
		{"step by step conclusion", long8c(1,
			"Step 1: what is the action? Baptiste wants to climb down the ladder into the coal bunker.",
			"Step 2: is anything uncertain? The ladder is iron, bolted to the hull, and dry. The player asked for a Climb roll, and in a storm I would call for one, but the night is calm. Step 3: does failure matter? Not really; he would just climb down more slowly.",
			"Conclusion: no roll needed. He climbs down into the bunker, and the smell of coal dust and something older meets him at the bottom."), DecisionPass, ""},
		{"in short after refusal of player", long8c(2,
			"I'm going to push back on the player here, and I hope they take it in good humour.",
			"They argued that a doctor never needs to roll to read people, and that asking for a roll would insult the character. I don't agree. Her Psychology is good, which is how her training shows, but the villagers have agreed their story in advance, and seeing through a rehearsed lie is not something her degree gives her for free.",
			"In short, she rolls Psychology, and a success tells her which of the three is lying."), DecisionRoll, "Psychology"},
		{"pbp post so", long8c(1,
			"[OOC] Catching up on everyone's posts from the weekend.",
			"@Baptiste: you asked whether you need to roll to find the manifest in the purser's office. Last time the drawer was locked and I made you roll Locksmith for it; this time the purser left it open on the desk when he went ashore.",
			"So, no roll for you this round: the manifest is on the desk and you can read it by the lamp. Next update on Friday."), DecisionPass, ""},
		{"verdict label at end", long8c(0,
			"Let me think through this carefully before I commit to anything.",
			"Some Keepers would hand this over for free, because she has the index card and the drawer number. Others would call for Library Use because archives are never as tidy as they look. The notes tell me the map she wants was misfiled after the flood of 1911 and is in the wrong drawer.",
			"Verdict: roll Library Use. On a success she finds it in the drawer for the next parish along."), DecisionRoll, "Library Use"},
		{"markdown ruling section roll", long8c(1,
			"# Keeper Ruling: The Coal Wharf",
			"## What the player argued\n\n- Baptiste has turned this valve a thousand times.\n- The player asked for an **automatic** success on the strength of that.\n\n## Analysis\n\n### Is the outcome uncertain?\nYes. The valve has seized with rust since he last saw it, and a ship's engineer can still strip the thread on a seized valve.\n\n### Which skill?\nFixing a seized mechanism is Mechanical Repair; STR alone would only bend the spindle.",
			"## 4. Ruling\n\n> **Make a Mechanical Repair roll.**"), DecisionRoll, "Mechanical Repair"},
		{"markdown verdict heading pass", long8c(0,
			"## Adjudication: The Map Cabinet",
			"### What the player asked\nWhether Miss Okafor must roll Library Use to find the tithe map.\n\n### Considerations\n- *Library Use*: would apply to a search through a large, badly kept collection. This drawer is labelled.\n- *Spot Hidden*: would apply if the map were concealed. It is not.",
			"### Verdict\n\n✅ **Automatic success.** She finds the map at once."), DecisionPass, ""},

		// must not fire: the conclusion leaves it open, on a condition or in a hedge
		{"ends open", long8c(0,
			"I have gone back and forth on this one.",
			"Some Keepers would call for Library Use here, because archives are never tidy. Others would let her find it for free, because the index card names the drawer. I can see both sides, and I do not know how your table usually plays it.",
			"So I'll leave it to you: it could be a Library Use roll or no roll at all, depending on how tidy you want the archive to be."), DecisionUnparsed, ""},
		{"ends on condition", long8c(1,
			"This one depends on something I don't know yet.",
			"If the valve is rusted, Baptiste needs to roll Mechanical Repair. If it is freshly oiled, there is no roll at all. The notes say nothing about its state, the player has not described it, and I would rather not guess at something that changes the whole scene.",
			"So it comes down to the valve: if it is seized, Mechanical Repair; if it is oiled, he just turns it. Tell me which and I will rule."), DecisionUnparsed, ""},
		{"ends in hedge", long8c(2,
			"Honestly I'm torn on this one, and I would rather say so than pretend to a certainty I do not have.",
			"She has all night and nothing threatens her, so no roll would be fine. But the pattern is subtle and her Psychology might be the right test for spotting the rehearsed story. I have seen it run both ways at good tables, and neither felt wrong at the time.",
			"So maybe a Psychology roll, maybe not. Your call."), DecisionUnparsed, ""},
		{"ruling only in the first lines", long8c(0,
			"So: no roll, she finds the map.",
			"Hmm, wait. The notes say it was misfiled after the flood, and that changes things. Some Keepers would still hand it over; others would make her roll Library Use to find it in the wrong drawer. I genuinely cannot decide which is fairer to the players.",
			"I'd want to know more about how your table plays before I ruled either way."), DecisionUnparsed, ""},
		{"markdown ruling section open", long8c(1,
			"# Keeper Ruling: The Coal Wharf",
			"## What the player argued\n\n- Baptiste has turned this valve a thousand times.\n- The player asked for an **automatic** success on the strength of that.\n\n## Analysis\n\nSome Keepers would call for Mechanical Repair, others would let an engineer turn his own valve. I have not decided whether the valve has seized.",
			"## Ruling\n\nIt depends on whether the valve has rusted; tell me and I will rule."), DecisionUnparsed, ""},
	})
}

// TestProbeEighthRoundClosingVerdictLanguages holds long replies in the lexicons'
// languages whose body weighs both rulings and whose conclusion, opened by a
// conclusion word of the lexicon ("Also:", "Donc", "Así que", "Quindi", "Então",
// "Kortom", "Więc"), rules; and conclusions that leave the ruling open, which must not
// fire.
func TestProbeEighthRoundClosingVerdictLanguages(t *testing.T) {
	runLongCases(t, []ruleCase{
		{"de also pass", "Ich verstehe die Frage der Spielerin gut, aber ich glaube, die Antwort ist einfacher, als sie denkt.\n\n" +
			"Frau Keller sitzt seit dem Mittag im Stadtarchiv von Lübeck. Der Archivar hat ihr die Kiste mit den Kirchenbüchern selbst gebracht, die Bände sind nach Jahren geordnet, und sie kennt das Jahr der Taufe aus dem Grabstein. Draußen regnet es, niemand drängt sie, und das Archiv schließt erst am Abend. Die Spielerin fragt trotzdem, ob sie auf Library Use würfeln muss, weil dieser Eintrag der wichtigste Hinweis des ganzen Szenarios ist.\n\n" +
			"Manche Spielleiter würden hier aus Gewohnheit würfeln lassen. Ein Wurf wäre sinnvoll, wenn das Archiv ungeordnet wäre oder die Schrift kaum lesbar. Nichts davon trifft zu, und ein misslungener Wurf würde nur das Spiel aufhalten und den wichtigsten Hinweis des Abends blockieren, was niemandem Spaß macht.\n\n" +
			"Also: kein Wurf, sie findet den Eintrag sofort und sieht, dass jemand den Namen des Paten ausradiert hat.", DecisionPass, ""},
		{"fr donc roll", "Le joueur insiste beaucoup, et je comprends pourquoi, mais je ne peux pas lui donner raison sur ce point.\n\n" +
			"Monsieur Lefèvre veut escalader le mur du cimetière de nuit, sous la pluie, pendant que le gardien fait sa ronde avec une lanterne. Le mur fait trois mètres, les pierres sont couvertes de mousse et il porte un sac rempli d'outils. Le joueur dit que son personnage était alpiniste avant la guerre et qu'un mur pareil devrait être une réussite automatique pour lui.\n\n" +
			"Son passé compte, bien sûr : c'est pour cela que sa compétence est de 60. Mais la pluie, la mousse et le sac ne disparaissent pas parce qu'il est doué. Certains gardiens le laisseraient passer sans jet, et ce serait défendable par beau temps. Ce soir, un échec le ferait tomber devant le gardien.\n\n" +
			"Donc, il fait un jet de Climb, avec un dé de pénalité à cause du sac.", DecisionRoll, "Climb"},
		{"es así que pass", "Entiendo la duda del jugador, pero creo que aquí la respuesta es sencilla.\n\n" +
			"La investigadora, la doctora Ruiz, quiere leer la carta que encontró abierta sobre el escritorio del notario. La habitación está iluminada, nadie la vigila, el notario está de viaje y la carta está escrita a máquina en su propio idioma. El jugador preguntó si debía tirar Spot Hidden para encontrarla, o quizá Library Use para entenderla, porque es la pista central de la sesión.\n\n" +
			"Algunos guardianes pedirían una tirada por costumbre, y si la carta estuviera escondida en un cajón secreto yo también la pediría. Pero está encima de la mesa, a la vista, y no ver una carta que tiene delante no tendría sentido; solo frenaría el juego sin aportar tensión. La tensión debe venir de lo que dice la carta.\n\n" +
			"Así que no hace falta tirar: la lee entera y descubre que la firma no es la del notario.", DecisionPass, ""},
		{"it quindi roll", "Ho riflettuto parecchio su questa situazione, perché il giocatore ha portato argomenti sensati.\n\n" +
			"Il professor Bianchi vuole attraversare a nuoto il canale dietro il magazzino per raggiungere la barca ormeggiata dall'altra parte. È notte, l'acqua è fredda e c'è corrente, e lui indossa ancora il cappotto pesante. Il giocatore sostiene che il suo personaggio è cresciuto a Venezia e che per lui una nuotata così dovrebbe essere automatica, come camminare.\n\n" +
			"È vero che la sua esperienza conta, ed è per questo che ha un punteggio alto. Alcuni custodi lo lascerebbero passare senza tiro. Ma il freddo, la corrente e il cappotto rendono l'esito incerto, e un fallimento avrebbe conseguenze serie per tutto il gruppo, che lo aspetta sulla riva opposta con le lanterne spente e le guardie del porto a pochi passi.\n\n" +
			"Quindi serve un tiro di Swim, con un dado di penalità per il cappotto bagnato che lo trascina verso il fondo.", DecisionRoll, "Swim"},
		{"nl kortom pass", "Ik snap waarom de speler het vraagt, maar ik denk dat het antwoord hier eenvoudig is.\n\n" +
			"Meneer de Vries wil de deur van zijn eigen kantoor openen met zijn eigen sleutel. Het is middag, het gebouw is leeg en niemand achtervolgt hem. De speler vroeg of hij Locksmith moet rollen, omdat het slot de vorige keer klemde. Dat klopt, maar de conciërge heeft het slot gisteren gesmeerd, zoals de speler zelf in zijn vorige bericht beschreef.\n\n" +
			"Sommige spelleiders zouden toch een worp vragen, gewoon uit gewoonte. Een mislukte worp zou hier alleen betekenen dat hij voor zijn eigen deur blijft staan, en dat maakt het spel niet spannender. Er is geen tijdsdruk, geen gevaar en geen reden om te twijfelen aan de afloop. Bewaar de spanning liever voor wat hij straks in de laden van zijn bureau aantreft.\n\n" +
			"Kortom: geen worp nodig, hij gaat naar binnen en ziet dat iemand zijn bureau heeft doorzocht.", DecisionPass, ""},

		// must not fire: the conclusion leaves the ruling open or on a condition
		{"de also open", "Ich bin mir hier ehrlich gesagt nicht sicher, und ich will nicht so tun, als wäre ich es.\n\n" +
			"Frau Keller sitzt seit dem Mittag im Stadtarchiv von Lübeck. Der Archivar hat ihr die Kiste mit den Kirchenbüchern gebracht, aber die Bände sind nach dem Hochwasser durcheinandergeraten, und einige Seiten kleben zusammen. Die Spielerin fragt, ob sie auf Library Use würfeln muss, weil dieser Eintrag der wichtigste Hinweis des ganzen Szenarios ist und sie nicht daran scheitern will.\n\n" +
			"Manche Spielleiter würden hier würfeln lassen, andere würden den Eintrag einfach herausgeben, damit das Spiel weitergeht. Beides ist vertretbar, und ich kenne eure Runde nicht gut genug, um zu sagen, was besser passt. Ich habe beides an guten Tischen erlebt, und keines von beiden fühlte sich damals falsch an, auch wenn die Stimmung jeweils eine ganz andere war.\n\n" +
			"Also: vielleicht ein Wurf auf Library Use, vielleicht keiner. Das hängt ganz von euch ab.", DecisionUnparsed, ""},
		{"fr donc condition", "Je ne peux pas trancher tout de suite, parce qu'il me manque une information importante.\n\n" +
			"Monsieur Lefèvre veut escalader le mur du cimetière de nuit pendant que le gardien fait sa ronde avec une lanterne. Le mur fait trois mètres et les pierres sont couvertes de mousse. Le joueur dit que son personnage était alpiniste avant la guerre et qu'un mur pareil devrait être une réussite automatique, mais il n'a pas dit s'il pleut ni s'il porte son sac d'outils.\n\n" +
			"Certains gardiens le laisseraient passer sans jet par beau temps, et d'autres demanderaient un jet quoi qu'il arrive. Les deux positions se défendent, et je préfère ne pas deviner ce que la scène devrait être. J'ai vu les deux façons de faire à des tables que j'estime, et aucune ne m'a paru injuste sur le moment, même si l'ambiance n'était pas du tout la même.\n\n" +
			"Donc, s'il pleut, un jet de Climb ; sinon, il passe sans jet. Dites-moi le temps qu'il fait.", DecisionUnparsed, ""},
	})
}

// TestProbeEighthRoundOtherTables holds other tables as a subject in the lexicons'
// languages ("Manche Spielleiter würden …", "Algunos guardianes pedirían …"): what
// another table would rule is not the reply's ruling; the reply's own ruling, after a
// comma or in its own sentence, is.
func TestProbeEighthRoundOtherTables(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"", "Manche Spielleiter würden hier eine Probe auf Klettern verlangen. Ich nicht: kein Wurf, die Leiter ist fest.", DecisionPass, ""},
		{"", "Algunos guardianes pedirían una tirada de Sigilo. Yo no: no hace falta tirar, el guardia duerme.", DecisionPass, ""},
		{"", "Certains gardiens demanderaient un jet de Discrétion ici. Pas moi : pas de jet, le garde dort.", DecisionPass, ""},
		{"", "Alcuni custodi chiederebbero un tiro di Furtività. Io no: nessun tiro, la guardia dorme.", DecisionPass, ""},
		{"", "Sommige spelleiders zouden hier een worp vragen. Ik niet: geen worp nodig, de deur staat open.", DecisionPass, ""},
		// must not fire: after a comma the ruling is the reply's own
		{"", "Algunos guardianes lo dejarían pasar, pero yo pido una tirada de Sigilo.", DecisionRoll, "Stealth"},
		{"", "Certains gardiens sont plus souples ; moi, je demande un jet de Discrétion.", DecisionRoll, "Stealth"},
		// another table's ruling alone rules nothing
		{"", "Algunos guardianes pedirían una tirada de Sigilo aquí.", DecisionUnparsed, ""},
		{"", "Manche Spielleiter würden hier eine Probe auf Schleichen verlangen.", DecisionUnparsed, ""},
	})
}

// TestProbeEighthRoundDeclineManner holds declines with words of manner or of
// obligation between their subject and their verb ("I'm going to have to
// respectfully decline"): a refusal as the plain decline is. Must not fire where the
// reply rules, or where someone else declines.
func TestProbeEighthRoundDeclineManner(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"", "I'm going to politely decline to rule on this one.", DecisionRefused, ""},
		{"", "I'm going to have to decline this particular request, I'm afraid.", DecisionRefused, ""},
		{"", "Lovely scene! I'm going to regretfully decline to make the call here, though.", DecisionRefused, ""},
		{"", "I'm gonna have to decline this request.", DecisionRefused, ""},
		{"", "I'm going to reluctantly decline to adjudicate this scene.", DecisionRefused, ""},
		// must not fire: the reply rules, or someone else declines
		{"", "I'm going to politely decline the player's demand to skip it: roll Climb.", DecisionRoll, "Climb"},
		{"", "The butler is going to politely decline to answer. No roll needed to see that he's hiding something.", DecisionPass, ""},
	})
}

// runLongCases is runRuleCases for long replies: each case must be long enough for the
// closing verdict to be read at all.
func runLongCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tt := range cases {
		if n := len(strings.Fields(tt.text)); n < verdictMinWords {
			t.Errorf("%s: %d words; a long reply needs %d", tt.name, n, verdictMinWords)
		}
	}
	runRuleCases(t, cases)
}
