package seduce

import "testing"

// Probe tables of the ninth round of issue 29 for refusals (parse_refusal9.go and the
// lexicons' refusal, decline, task, defer and deferee lists): sentences of this round's
// own, labelled under README-set3's rules before the parser read them, with the cases
// each rule must not fire on.

// TestProbeNinthRoundDeferral holds replies that rule nothing and hand the ruling to
// someone else: a frame of the defer list ("ask {}", "for {} to decide", "{}'s call",
// "sache {}", "c'est à {} de") with a deferee in its place, in every lexicon's language.
func TestProbeNinthRoundDeferral(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"a decision for the people", "Honestly, this is a decision for the people at your table, not for me.", DecisionRefused, ""},
		{"keeper's call to make", "That's your Keeper's call to make.", DecisionRefused, ""},
		{"for your group to decide", "This one is for your group to decide.", DecisionRefused, ""},
		{"belongs to the table", "That decision belongs to your table.", DecisionRefused, ""},
		{"apology then ask", "I'm afraid I won't be doing that — please check with your GM.", DecisionRefused, ""},
		{"take the question to", "Please take this question to your Keeper.", DecisionRefused, ""},
		{"one for your gm", "That's one for your GM, I'm afraid.", DecisionRefused, ""},
		{"let the keeper handle", "Best to let your Keeper handle this one.", DecisionRefused, ""},
		{"is the one who should", "Your Keeper is the one who should decide this, not me.", DecisionRefused, ""},
		{"emoji and bold", "🙏 **Ask your Keeper** — not something I'll rule on.", DecisionRefused, ""},
		{"de sache", "Tut mir leid. Das ist Sache deiner Spielleitung.", DecisionRefused, ""},
		{"de undetermined then deferred", "Das kann ich nicht entscheiden – das ist Sache deines Spielleiters.", DecisionRefused, ""},
		{"de fragen after", "Das musst du deine Spielleitung fragen.", DecisionRefused, ""},
		{"de entscheidet", "Das entscheidet eure Spielleitung, nicht ich.", DecisionRefused, ""},
		{"fr c'est à", "C'est à votre meneur de décider, pas à moi.", DecisionRefused, ""},
		{"fr demande", "Désolé, je préfère ne pas me prononcer ; demande à ton gardien.", DecisionRefused, ""},
		{"es pregúntale", "No me corresponde decidir eso; pregúntale a tu guardián.", DecisionRefused, ""},
		{"es lo decide", "Eso lo decide tu máster, no yo.", DecisionRefused, ""},
		{"it chiedi", "Non spetta a me decidere: chiedi al tuo custode.", DecisionRefused, ""},
		{"pt pergunte", "Não cabe a mim decidir; pergunte ao seu guardião.", DecisionRefused, ""},
		{"nl vragen", "Dat moet je aan je spelleider vragen.", DecisionRefused, ""},
		{"pl decyzja", "To decyzja dla twojego mistrza gry, nie dla mnie.", DecisionRefused, ""},

		// must not fire: a question, a negation, a request for more, someone in the
		// scene, a ruling beside it, a condition
		{"asked whether asked", "Did you ask your Keeper about this?", DecisionUnparsed, ""},
		{"no need to ask", "You don't need to ask your Keeper, it's automatic.", DecisionPass, ""},
		{"no need to check with", "No need to check with the Keeper: you just open it.", DecisionPass, ""},
		{"ask how", "Ask your Keeper how deep the water is.", DecisionUnparsed, ""},
		{"keeper of the inn", "You talk to the keeper of the inn and he hands you the key.", DecisionPass, ""},
		{"keeper's daughter", "Ask the keeper's daughter; she saw him leave.", DecisionUnparsed, ""},
		{"keeper's call then roll", "It's the Keeper's call, but I'd roll Stealth here.", DecisionRoll, "Stealth"},
		{"depends then ask", "It depends on how dark the cellar is, so ask your Keeper.", DecisionUnparsed, ""},
		{"de frage nach", "Frag deine Spielleitung, wie tief das Wasser ist?", DecisionUnparsed, ""},
		{"de nicht sache", "Das ist nicht Sache der Spielleitung: du gehst einfach hinein.", DecisionUnparsed, ""},
	})
}

// TestProbeNinthRoundDecline holds first-person declines of the ruling in the words
// this round adds: "I don't think I should (be the one) …", a role denied in its verb
// ("I'm not keepering tonight"), "not for me to answer", comfort and apology.
func TestProbeNinthRoundDecline(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"should be the one", "I don't think I should be the one ruling on this, sorry.", DecisionRefused, ""},
		{"feel I should", "Honestly? I don't feel I should decide this for you.", DecisionRefused, ""},
		{"my place", "I don't believe it's my place to rule here.", DecisionRefused, ""},
		{"lets not", "Let's not. I don't think I should be adjudicating this.", DecisionRefused, ""},
		{"role verb", "I'm not GMing this one, ask your Keeper.", DecisionRefused, ""},
		{"role verb tonight", "I'm not keepering tonight; ask Priya.", DecisionRefused, ""},
		{"off duty", "I'm off duty tonight, mate.", DecisionRefused, ""},
		{"not for me to answer", "*The oracle turns away.* That is not for mortals to know, nor for me to answer.", DecisionRefused, ""},
		{"not mine to decide", "Not mine to decide, friend.", DecisionRefused, ""},
		{"comfort continuing", "I'm not comfortable continuing this conversation.", DecisionRefused, ""},
		{"won't be doing", "I'm sorry, I won't be doing that.", DecisionRefused, ""},
		{"get involved", "I'd rather not get involved in this.", DecisionRefused, ""},
		{"no ruling from me", "No ruling from me on this one, sorry.", DecisionRefused, ""},
		{"spoken not tonight", "*The Keeper shuts the book.* \"Not tonight.\"", DecisionRefused, ""},
		{"spoken nothing more", "\"Not today,\" she says, and says nothing more.", DecisionRefused, ""},
		{"fr devrais", "Je ne devrais pas trancher cette question.", DecisionRefused, ""},
		{"es no debería", "No debería ser yo quien decida esto.", DecisionRefused, ""},
		{"other script", "申し訳ありませんが、この判定をお手伝いすることはできません。", DecisionRefused, ""},
		{"other script deferral", "それはキーパーに聞いてください。", DecisionRefused, ""},
		{"other script chinese", "这个问题请询问你的守秘人。", DecisionRefused, ""},

		// must not fire
		{"should not roll", "I don't think I should make you roll for a garden gate: it's automatic.", DecisionPass, ""},
		{"spoken then narrated", "\"Not now,\" she says, and opens the door for you.", DecisionUnparsed, ""},
		{"not now roll", "Not now, the guard is watching. Roll Stealth.", DecisionRoll, "Stealth"},
	})
}

// TestProbeNinthRoundRefusalBesideHedge holds replies that decline and also offer a
// ruling unsure, or report what other tables rule: half a refusal and half a hedge is
// unparsed. The must-not-fire cases decline and hand the ruling over with no ruling
// offered, or decline at length and say what rolls are for.
func TestProbeNinthRoundRefusalBesideHedge(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"maybe maybe not", "I'd rather not weigh in on this. Maybe a roll, maybe not.", DecisionUnparsed, ""},
		{"lean", "I'd prefer not to say outright, but I'd lean toward a roll.", DecisionUnparsed, ""},
		{"two questions", "A roll? No roll? Honestly, I'll defer to your Keeper.", DecisionUnparsed, ""},
		{"most games", "I can't act as your Keeper, but in most games this would be a Listen roll.", DecisionUnparsed, ""},
		{"some keepers", "Some Keepers would ask for a roll here; it's your table's call.", DecisionUnparsed, ""},
		{"probably", "Not my call to make — probably automatic, but ask your GM.", DecisionUnparsed, ""},

		// must not fire
		{"maybe ask", "I'd prefer not to rule on this one. Maybe ask your group's Keeper?", DecisionRefused, ""},
		{"maybe check with", "I won't adjudicate this. Perhaps check with your usual GM.", DecisionRefused, ""},
		{"roll or no roll for table", "I won't rule on this. Roll or no roll is for your table.", DecisionRefused, ""},
	})
}

// TestProbeNinthRoundDecideFor holds "I can't decide this for you": a refusal of the
// role, not indecision between two rulings. Turned from with "that said" or "but", the
// ruling after it is the reply's; alone, the reply is refused. "I can't decide" between
// rulings stays a hedge.
func TestProbeNinthRoundDecideFor(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"that said roll", "I can't decide this for your group. That said, if you ask me: Listen roll.", DecisionRoll, "Listen"},
		{"but pass", "I can't decide this for you, but if you want my take: no roll, she just opens it.", DecisionPass, ""},
		{"alone", "Sorry, I cannot decide that for you.", DecisionRefused, ""},

		// must not fire
		{"indecision", "I can't decide. Roll Climb, maybe.", DecisionUnparsed, ""},
		{"indecision between", "Honestly I can't decide whether it's a roll or automatic.", DecisionUnparsed, ""},
	})
}

// TestProbeNinthRoundDeclineLanguages holds declines in the lexicons' other languages:
// comfort and unwillingness with the ruling as their object, the role denied ("Ich bin
// nicht eure Spielleitung"), "not for me" handing it over. The must-not-fire cases rule
// beside such words.
func TestProbeNinthRoundDeclineLanguages(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"de wohl dabei", "Ich fühle mich nicht wohl dabei, das zu entscheiden.", DecisionRefused, ""},
		{"de role", "Ich bin heute nicht die Spielleitung.", DecisionRefused, ""},
		{"fr role", "Je ne suis pas votre MJ, désolé.", DecisionRefused, ""},
		{"es comfort", "No me siento cómoda decidiendo esto.", DecisionRefused, ""},
		{"es role", "No soy tu máster; eso lo decide tu mesa.", DecisionRefused, ""},
		{"it sento", "Non me la sento di decidere io.", DecisionRefused, ""},
		{"it role", "Non sono il vostro custode.", DecisionRefused, ""},
		{"pt comfort", "Não me sinto confortável decidindo isso.", DecisionRefused, ""},
		{"pt role", "Não sou o seu mestre, pergunte ao seu guardião.", DecisionRefused, ""},
		{"nl role", "Ik ben niet jullie spelleider.", DecisionRefused, ""},
		{"pl prefer", "Wolałabym tego nie rozstrzygać.", DecisionRefused, ""},
		{"pl role", "Nie jestem twoim mistrzem gry.", DecisionRefused, ""},

		// must not fire: a ruling beside the words
		{"de role then roll", "Ich bin nicht eure Spielleitung, aber das ist klar eine Probe auf Klettern.", DecisionRoll, "Climb"},
		{"fr gardien de phare", "Le gardien du phare t'ouvre la porte. Pas besoin de jet.", DecisionPass, ""},
	})
}

// TestProbeNinthRoundDeniedRequest holds a request or permission to roll, denied: a
// refusal's words whose object is the roll are a pass. The must-not-fire cases name a
// skill, set a condition or a contrast beside the denial, or deny something else.
func TestProbeNinthRoundDeniedRequest(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"request to roll denied", "Request to roll: denied. The gate is open; just walk through.", DecisionPass, ""},
		{"denied then request", "Denied. Your request to roll, that is — you don't need one.", DecisionPass, ""},
		{"permission rejected", "Permission to roll rejected 😄 You just open the drawer.", DecisionPass, ""},
		{"roll request overruled", "**Roll request overruled.** The lamp is lit and the note is on the desk.", DecisionPass, ""},

		// must not fire
		{"skill named", "Your request to roll Luck is denied; this is Stealth.", DecisionRoll, "Stealth"},
		{"condition", "Request to roll denied, unless the guard turns around.", DecisionUnparsed, ""},
		{"other denial", "Request declined.", DecisionRefused, ""},
		{"denied elsewhere", "Your request for the key was denied by the clerk. He shuts the window.", DecisionUnparsed, ""},
		{"denied before", "Her roll request was denied last session, and the door is still locked.", DecisionUnparsed, ""},
	})
}

// TestProbeNinthRoundFrontedDecline holds declines whose object comes first ("That's
// not a call I'm comfortable making", "This isn't something I should rule on"), terse
// ones of a game master ("Nope, not doing rulings today", "Count me out"), deferrals
// to anyone else ("You'll have to ask someone else") and in-character ones ("That is
// not mine to tell"). The must-not-fire cases are unsure, tell a player's action, or
// deny a roll.
func TestProbeNinthRoundFrontedDecline(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"call comfortable", "That's not a call I'm comfortable making, sorry.", DecisionRefused, ""},
		{"decision can make", "Honestly, that's not a decision I can make for your group.", DecisionRefused, ""},
		{"something should", "This isn't something I should rule on.", DecisionRefused, ""},
		{"something going to decide", "That's not something I'm going to decide.", DecisionRefused, ""},
		{"right person", "I'm not the right person to make this call.", DecisionRefused, ""},
		{"terse rulings", "nope, not doing rulings today", DecisionRefused, ""},
		{"count me out", "Count me out on this one 🙅", DecisionRefused, ""},
		{"hard pass", "Hard pass on ruling this one.", DecisionRefused, ""},
		{"someone else", "You'll have to ask someone else.", DecisionRefused, ""},
		{"rather you ask", "I'd rather you ask a human about this.", DecisionRefused, ""},
		{"get a human", "Get a human to rule on it.", DecisionRefused, ""},
		{"in character tell", "*The old man shakes his head.* \"That is not mine to tell.\"", DecisionRefused, ""},
		{"in character permit", "\"The stars do not permit me to answer,\" the Keeper intones.", DecisionRefused, ""},

		// must not fire
		{"unsure", "That's not a call I'm sure about, honestly.", DecisionUnparsed, ""},
		{"told action", "You ask someone else in the bar and he points to the door.", DecisionUnparsed, ""},
		{"ask about the scene", "Ask your Keeper about how high the wall is.", DecisionUnparsed, ""},
		{"hard pass on rolling", "Hard pass on rolling for that, just walk in.", DecisionPass, ""},
	})
}

// TestProbeNinthRoundDiceVerbs holds the lexicons' verbs of rolling dice that are also
// the Throw skill's name ("lancer", "werfen", "lanzar", "lanciare"): written in
// lowercase, away from a roll's word and its preposition, they roll dice and name no
// skill; as the skill's name ("un jet de Lancer", "Probe auf werfen") they are Throw.
// And the player's claim set off by a pair of commas is still the player's.
func TestProbeNinthRoundDiceVerbs(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fr verb", "Tu dois lancer un jet, ce n'est pas automatique.", DecisionRoll, ""},
		{"de verb", "Du musst werfen, das ist eine Probe.", DecisionRoll, ""},
		{"it verb", "Devi lanciare i dadi, è un tiro.", DecisionRoll, ""},
		{"pt verb", "Você precisa lançar os dados: é um teste.", DecisionRoll, ""},
		{"fr d100", "Lance un d100 pour voir.", DecisionRoll, ""},
		{"fr skill capital", "Faites un jet de Lancer : la corde doit atteindre la rive.", DecisionRoll, "Throw"},
		{"fr skill lowercase after jet", "Un jet de lancer, la corde doit atteindre la rive.", DecisionRoll, "Throw"},
		{"de skill lowercase after probe", "Probe auf werfen.", DecisionRoll, "Throw"},
		{"es skill lowercase after tirada", "Tirada de lanzar.", DecisionRoll, "Throw"},
		{"fr claim aside", "La joueuse affirme que Louise, en bonne grimpeuse, n'a pas besoin de lancer les dés. Il pleut pourtant : jet de Grimper.", DecisionRoll, "Climb"},

		// must not fire
		{"it negated", "Non devi lanciare i dadi: la porta è aperta.", DecisionUnparsed, ""},
		{"fr no need", "Pas besoin de lancer les dés, la porte est ouverte.", DecisionPass, ""},
		{"fr claim then own ruling", "Le joueur dit qu'il grimpe, mais il pleut, donc pas de jet, il monte.", DecisionPass, ""},
	})
}

// TestProbeNinthRoundPolicy holds refusals in the words of a policy ("That goes against
// my guidelines") and unwillingness to answer, in every lexicon's language.
func TestProbeNinthRoundPolicy(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"en", "Sorry — that goes against my guidelines.", DecisionRefused, ""},
		{"de", "Das verstößt gegen meine Richtlinien, tut mir leid.", DecisionRefused, ""},
		{"de äußern", "Dazu möchte ich mich nicht äußern.", DecisionRefused, ""},
		{"fr", "Cela va à l'encontre de mes consignes, désolé.", DecisionRefused, ""},
		{"es", "Lo siento, esto va en contra de mis políticas.", DecisionRefused, ""},
		{"it", "Questo va contro le mie linee guida.", DecisionRefused, ""},
		{"pt", "Isso vai contra as minhas diretrizes.", DecisionRefused, ""},
		{"nl", "Daar wil ik liever niet op antwoorden.", DecisionRefused, ""},
		{"pl", "Wolę nie odpowiadać na to pytanie.", DecisionRefused, ""},

		// must not fire: the words beside a ruling of the reply's own
		{"guidelines then roll", "Rolling for everything goes against my guidelines as a Keeper, but this one is a Climb roll.", DecisionRoll, "Climb"},
	})
}

// TestProbeNinthRoundDeferredReason holds a structured answer with no decision whose
// reason hands the ruling over: refused, as a reason that declines is.
func TestProbeNinthRoundDeferredReason(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"json null", `{"decision": null, "skill": null, "reason": "This is a decision for your Keeper, not for me."}`, DecisionRefused, ""},
		{"json abstain", `{"decision": "abstain", "reason": "I don't think I should be ruling on this."}`, DecisionRefused, ""},

		// must not fire: a decision beside a reason that mentions the Keeper
		{"json roll", `{"decision": "roll", "skill": "Climb", "reason": "Ask your Keeper if unsure, but the wall is wet."}`, DecisionRoll, "Climb"},
	})
}

// TestProbeNinthRoundHedgedRefusalLanguages holds the refusal beside a ruling offered
// unsure in the lexicons' other languages (unparsed), and the question of the ruling
// itself handed over ("demande à ton gardien s'il faut un jet": refused, its "if" no
// condition on the world). The must-not-fire case leaves a ruling open on the world.
func TestProbeNinthRoundHedgedRefusalLanguages(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"es", "Prefiero no decidir. Quizás una tirada, quizás no.", DecisionUnparsed, ""},
		{"fr", "Je préfère ne pas trancher. Peut-être un jet, peut-être pas.", DecisionUnparsed, ""},
		{"de", "Ich möchte das nicht entscheiden. Vielleicht eine Probe, vielleicht auch nicht.", DecisionUnparsed, ""},
		{"pl", "Wolałbym tego nie rozstrzygać. Może rzut, może nie.", DecisionUnparsed, ""},
		{"fr question handed", "Je préfère ne pas trancher ; demande à ton gardien s'il faut un jet.", DecisionRefused, ""},
		{"de question handed", "Ich möchte das nicht entscheiden – fragt eure Spielleitung, ob eine Probe nötig ist.", DecisionRefused, ""},
		{"en question handed", "Ask your Keeper whether a roll is needed here.", DecisionRefused, ""},
		{"nl", "Ik beslis dit liever niet.", DecisionRefused, ""},

		// must not fire
		{"condition on the world", "Ask your Keeper; if the wall is wet, it's a Climb roll.", DecisionUnparsed, ""},
	})
}

// TestProbeNinthRoundDeferralWide holds more of the deferral's family: the Keeper knows
// better, the ruling is the Keeper's prerogative or responsibility, only the Keeper can
// decide. The must-not-fire cases tell of a keeper in the scene.
func TestProbeNinthRoundDeferralWide(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"knows table better", "Your Keeper knows your table better than I do.", DecisionRefused, ""},
		{"only can decide", "Unfortunately that's something only your Keeper can decide.", DecisionRefused, ""},
		{"prerogative", "That's really the Keeper's prerogative.", DecisionRefused, ""},
		{"responsibility of", "Rulings like this are the responsibility of the game master.", DecisionRefused, ""},
		{"better placed", "Your Keeper is better placed to judge this, honestly.", DecisionRefused, ""},

		// must not fire
		{"keeper in scene knows where", "The keeper knows best where the key is: in the lock. You open it.", DecisionPass, ""},
		{"only keeper can open", "Only the keeper can open that door; you need his key.", DecisionUnparsed, ""},
	})
}

// TestProbeNinthRoundDeferralLanguagesWide holds the deferral's family in the other
// languages with the deferee as subject ("C'est ton MJ qui décide", "Es tu máster quien
// decide", "O tym decyduje twój mistrz gry"). The must-not-fire cases say the ruling
// depends on something, in any language: undetermined or hedged, not refused.
func TestProbeNinthRoundDeferralLanguagesWide(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"de klären", "Das musst du mit deiner Spielleitung klären.", DecisionRefused, ""},
		{"fr qui décide", "C'est ton MJ qui décide, pas moi.", DecisionRefused, ""},
		{"es quien decide", "Es tu máster quien decide.", DecisionRefused, ""},
		{"it che decide", "È il tuo master che decide.", DecisionRefused, ""},
		{"pt é com", "Isso é com o seu guardião.", DecisionRefused, ""},
		{"nl bepaalt", "Dat bepaalt je spelleider.", DecisionRefused, ""},
		{"pl decyduje", "O tym decyduje twój mistrz gry.", DecisionRefused, ""},

		// must not fire
		{"en depends", "It depends on the lighting; ask your Keeper.", DecisionUnparsed, ""},
		{"en depends on table", "Could go either way. It really depends on your table!", DecisionUnparsed, ""},
		{"fr dépend", "Ça dépend de la lumière ; demande à ton gardien.", DecisionUnparsed, ""},
		{"de hängt ab", "Das hängt davon ab, wie dunkel es ist. Frag deine Spielleitung.", DecisionUnparsed, ""},
		{"it dipende", "Dipende dalla luce; chiedi al tuo custode.", DecisionUnparsed, ""},
	})
}

// TestProbeNinthRoundRefusalThenRuling holds a refusal of the matter itself ("I won't
// rule on this.") and then a ruling with nothing that turns from one to the other: two
// stances, unparsed. Turned from with "that said" or "but", the ruling is the reply's.
func TestProbeNinthRoundRefusalThenRuling(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"deictic then roll", "I won't rule on this. Roll Stealth.", DecisionUnparsed, ""},
		{"deictic then pass", "I won't adjudicate that. No roll needed.", DecisionUnparsed, ""},

		// must not fire: a turn between the refusal and the ruling
		{"that said", "Not really my call. That said, I'd have her roll Swim.", DecisionRoll, "Swim"},
		{"but if you want", "I don't think I should be the one ruling, but if you want my view: Listen roll.", DecisionRoll, "Listen"},
	})
}

// TestProbeNinthRoundAbstain holds abstentions and bowing out in the words a model
// writes them ("I respectfully abstain", "I'll have to bow out", "I'll sit this round
// out"), the matter declined after "isn't something I can", and a ruling left to the
// Keeper. The must-not-fire cases abstain from a roll, not from the ruling.
func TestProbeNinthRoundAbstain(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"respectfully abstain", "I respectfully abstain.", DecisionRefused, ""},
		{"bow out", "I'm afraid I'll have to bow out.", DecisionRefused, ""},
		{"round out", "I'll sit this round out.", DecisionRefused, ""},
		{"not touching", "Not touching that one 😅", DecisionRefused, ""},
		{"isn't something I can", "Unfortunately this isn't something I can weigh in on.", DecisionRefused, ""},
		{"leave this one to", "I'd better leave this one to the Keeper.", DecisionRefused, ""},

		// must not fire
		{"abstain from dice", "She can abstain from dice entirely here: the door is open.", DecisionUnparsed, ""},
	})
}
