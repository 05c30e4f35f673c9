package seduce

import "testing"

// Probe tables of the ninth round of issue 29 for precision (helper A): sentences of
// this round's own, labelled under README-set3's rules before the parser read them,
// each rule's family with the cases it must not fire on.

// TestProbeNinthRoundGrant holds rulings followed by a clause that grants the other
// ruling as acceptable too: the reply leans and concedes the other side, so it rules
// neither. A grant before the ruling it gives way to is a concession (the ruling
// stands), and a grant of the same ruling, or one taken back in its own sentence,
// changes nothing.
func TestProbeNinthRoundGrant(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"leaning pass though roll not crazy", "Leaning no roll, though a Jump roll wouldn't be crazy either.", DecisionUnparsed, ""},
		{"roll though skipping fair", "Roll Stealth, I think, though skipping the roll would be fair as well.", DecisionUnparsed, ""},
		{"roll nobody could fault skipping", "Roll Stealth, though nobody could fault you for skipping it.", DecisionUnparsed, ""},
		{"pass wouldn't fight a roll", "No roll, though I wouldn't fight anyone who asked for a Jump roll.", DecisionUnparsed, ""},
		{"pass that said roll not out of line", "Automatic success. That said, a Climb roll wouldn't be out of line.", DecisionUnparsed, ""},
		{"roll case for letting it go", "Call it a Dodge roll, though I can see the case for letting it go.", DecisionUnparsed, ""},
		{"pass roll would also work", "No dice needed, though a Luck roll would also work.", DecisionUnparsed, ""},
		{"roll wouldn't argue letting them", "Make it a Track roll, though I wouldn't argue if you just let them find the trail.", DecisionUnparsed, ""},
		{"roll otherwise", "I'd call for Spot Hidden, but I wouldn't blame a Keeper who went the other way.", DecisionUnparsed, ""},
		{"pass wouldn't object to rolling", "Automatic, but I wouldn't object if your table prefers to roll.", DecisionUnparsed, ""},
		{"pass one anaphor", "No roll. I'd not argue with a Keeper who wanted one, though.", DecisionUnparsed, ""},
		{"curly apostrophe", "No roll here, though a Listen roll wouldn’t be wrong either.", DecisionUnparsed, ""},
		{"only granted also", "Automatic success would also be fine.", DecisionUnparsed, ""},
		{"de aber auch vertretbar", "Eher keine Probe, aber ein Klettern-Wurf wäre auch vertretbar.", DecisionUnparsed, ""},
		{"fr mais aussi défendable", "Plutôt pas de jet, mais un jet de Sauter serait aussi défendable.", DecisionUnparsed, ""},
		{"es pero tampoco descabellada", "Sin tirada, pero una tirada de Escuchar tampoco sería descabellada.", DecisionUnparsed, ""},
		{"it ma anche andrebbe bene", "Tirerei Ascoltare, ma anche il successo automatico andrebbe bene.", DecisionUnparsed, ""},
		{"nl maar ook te verdedigen", "Ik zou geen worp vragen, maar een Klimmen-worp is ook te verdedigen.", DecisionUnparsed, ""},
		{"could live without it", "Roll Track, but I could live without it.", DecisionUnparsed, ""},
		{"i get why", "No roll; I get why someone would want a Spot Hidden roll, though.", DecisionUnparsed, ""},
		{"they'd have a point", "No roll. Others might call for Swim, and they'd have a point.", DecisionUnparsed, ""},
		{"good case for the other", "Roll Listen, though there's a good case for no roll.", DecisionUnparsed, ""},
		{"skipping is reasonable", "Roll Dodge, but skipping it is reasonable.", DecisionUnparsed, ""},

		// must not fire
		{"concession then ruling", "A Climb roll wouldn't be crazy, but it's a stepladder: no roll.", DecisionPass, ""},
		{"grant of the same pass", "No roll. And honestly, nobody could fault you for that.", DecisionPass, ""},
		{"grant of the same roll", "Roll Climb. Nobody could fault you for asking for it.", DecisionRoll, "Climb"},
		{"other skill granted", "Roll Climb; a Jump roll would also be fine if you prefer, it's the same action.", DecisionRoll, "Climb"},
		{"grant taken back", "Roll Listen. I wouldn't argue with a player who wanted to skip it, but I'd still make them roll.", DecisionRoll, "Listen"},
		{"no argument on the pass", "No roll needed, and I wouldn't argue with anyone on that.", DecisionPass, ""},
		{"grant alone with no additive", "Nobody would fault you for calling for a Spot Hidden roll here.", DecisionRoll, "Spot Hidden"},
		{"ruling made again after the grant", "Roll Track, though nobody could fault you for skipping it. In the end, roll Track.", DecisionRoll, "Track"},
	})
}

// TestProbeNinthRoundNotHavingYouRoll holds the speaker refusing to call for a roll
// with a causative or asking verb in any form ("I'm not having you roll", "not letting
// you roll", "not asking you to roll", "nobody's rolling"): the negation reaches the
// roll through the verb's object, and the reply is a pass. A roll the speaker does
// call for, or a "without" the negation denies, stays a roll.
func TestProbeNinthRoundNotHavingYouRoll(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"not having you", "I'm not having you roll Jump over a crack in the pavement.", DecisionPass, ""},
		{"not letting you", "I'm not letting you roll Spot Hidden for a lit billboard, you just see it.", DecisionPass, ""},
		{"not asking you to", "I'm not asking you to roll Climb for three steps.", DecisionPass, ""},
		{"won't have you rolling", "I won't have you rolling Listen for a shout in your ear.", DecisionPass, ""},
		{"nobody's rolling", "Nobody's rolling Swim in ankle-deep water.", DecisionPass, ""},
		{"no way having you", "No way am I having you roll for opening a window.", DecisionPass, ""},
		{"not having you, without", "I'm not having you stroll past the guards without a Stealth roll.", DecisionRoll, "Stealth"},
		{"not letting you skip", "I'm not letting you skip this one: roll Track.", DecisionRoll, "Track"},
		{"not letting, then another roll", "I'm not letting you roll Stealth; you roll Dodge, the dog already saw you.", DecisionRoll, "Dodge"},
	})
}

// TestProbeNinthRoundStruck holds struck-through rulings: a struck ruling before a
// different standing ruling is a self-correction in view (unparsed), one after the
// standing ruling an alternative set aside, and a struck name or a struck ruling of the
// same kind is withdrawn.
func TestProbeNinthRoundStruck(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"label struck pass then roll", "**Decision:** ~~Automatic success~~ Roll (Jump)", DecisionUnparsed, ""},
		{"label struck no roll then roll", "Ruling: ~~No roll~~ Roll — Listen", DecisionUnparsed, ""},
		{"label struck roll then no roll", "**Verdict:** ~~roll~~ no roll\n\nThe gate is open.", DecisionUnparsed, ""},
		{"prose struck then other", "~~Automatic.~~ Roll Spot Hidden.", DecisionUnparsed, ""},

		// must not fire
		{"struck alternative after", "**Decision:** no roll\n\n~~Roll Climb~~ — there's a lift.", DecisionPass, ""},
		{"struck after on the line", "Decision: automatic success ~~roll~~", DecisionPass, ""},
		{"struck same kind", "**Decision:** ~~roll~~ roll (Track)", DecisionRoll, "Track"},
		{"struck name in label", "**Decision:** Roll ~~Climb~~ Jump", DecisionRoll, "Jump"},
		{"struck name in prose", "Roll ~~Listen~~ Spot Hidden.", DecisionRoll, "Spot Hidden"},
		{"both struck", "**Decision:** ~~roll~~ ~~automatic success~~\n\nNo idea.", DecisionUnparsed, ""},
	})
}

// TestProbeNinthRoundHeld holds a ruling hedged, or set beside the other ruling granted
// or argued, then held in the reply's last words by a word of holding or certainty: the
// held ruling. A ruling held after a firm ruling the other way, or after a correction,
// is a self-correction; words of certainty about something else hold nothing.
func TestProbeNinthRoundHeld(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"stick with after case for other", "Roll Dodge, though you could argue the blow is slow enough to be automatic. I'm sticking with the roll.", DecisionRoll, "Dodge"},
		{"definitely after probably", "Probably a Track roll. Definitely a Track roll, actually, with rain on the trail.", DecisionRoll, "Track"},
		{"yes definitely after maybe", "Maybe a Listen roll. Yes, definitely a Listen roll.", DecisionRoll, "Listen"},
		{"still no roll after grant", "No roll, though a Jump roll wouldn't be crazy. Still, no roll.", DecisionPass, ""},
		{"stick with no roll after grant", "No roll, though I wouldn't fight anyone who asked for a Climb roll. I'll stick with no roll.", DecisionPass, ""},

		// must not fire
		{"held after correction", "Roll Climb. Actually no, no roll. I'll stick with no roll.", DecisionUnparsed, ""},
		{"held after firm other", "Roll Climb. No roll. Definitely no roll.", DecisionUnparsed, ""},
		{"certainty about something else", "Perhaps a Jump roll. I'm confident the gap is wide.", DecisionUnparsed, ""},
		{"still a grant", "I'd lean no roll. Still, a Climb roll would be fair.", DecisionUnparsed, ""},
		{"held the other way from a lean", "Probably a Climb roll. Definitely no roll, actually: there's a ladder.", DecisionUnparsed, ""},
	})
}

// TestProbeNinthRoundBranches holds rulings each headed by a state of the world: a
// condition that heads a list item or a lexicon's clause holds the ruling after its
// colon, and a roll and no roll under heads that name two states ("when it's wet",
// "with a rope" and "without one", "gate open" and "gate not open") are branches left
// open. Heads that name parts or moments of the action keep the roll for that part.
func TestProbeNinthRoundBranches(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"list if branches", "### Ruling\n\n- If the rope holds: automatic.\n- If it snaps: **Climb**.", DecisionUnparsed, ""},
		{"numbered if", "1. If the dog wakes: Stealth.", DecisionUnparsed, ""},
		{"when state branches", "When the bridge is up: no roll. When it's down: Jump roll.", DecisionUnparsed, ""},
		{"with without", "With a torch: no roll. Without one: Spot Hidden.", DecisionUnparsed, ""},
		{"antonym heads", "- Drawer locked: Locksmith roll\n- Drawer unlocked: no roll", DecisionUnparsed, ""},
		{"fr si branches", "Si le pont est baissé : pas de jet. S'il est levé : jet de Sauter.", DecisionUnparsed, ""},
		{"de wenn skill alone", "Wenn die Tür offen ist: automatisch. Wenn sie zu ist: Schlosserei.", DecisionUnparsed, ""},
		{"es si branch", "Con la cuerda: automático. Si se rompe: tirada de Trepar.", DecisionUnparsed, ""},

		{"table if rows", "| Situation | Ruling |\n|---|---|\n| If the rope holds | Automatic |\n| If it snaps | Climb |", DecisionUnparsed, ""},
		{"table condition column", "| Condition | Roll? |\n|---|---|\n| Calm sea | No |\n| Storm | Yes (Swim) |", DecisionUnparsed, ""},

		// must not fire: parts and moments of the action
		{"table part rows", "| Part | Roll? |\n|---|---|\n| Walk to the boat | No |\n| Dive for the chest | Yes (Swim) |", DecisionRoll, "Swim"},
		{"when action parts", "When he crosses the yard: no roll. When he climbs the wall: Climb roll.", DecisionRoll, "Climb"},
		{"gerund parts", "- Crossing the hall: automatic.\n- Forcing the lock: **Locksmith**.", DecisionRoll, "Locksmith"},
		{"without a sound part", "Walking to the door: automatic. Without a sound: Stealth roll.", DecisionRoll, "Stealth"},
		{"with the key part", "- With the key: the door opens, no roll.\n- The safe inside: Locksmith roll.", DecisionRoll, "Locksmith"},
	})
}

// TestProbeNinthRoundFlipFlop holds a ruling, then an "or" that offers the other
// ruling with nothing firm after it to settle the matter, in the lexicons' languages:
// the reply rules neither. A firm ruling after the offer, or an offer of no other
// ruling, leaves the reply as it ruled.
func TestProbeNinthRoundFlipFlop(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"de oder doch eher nicht", "Probe? Nein. Oder doch, Springen? Hm, eher doch nicht ...", DecisionUnparsed, ""},
		{"de oder doch alone", "Kein Wurf. Oder doch: Schwimmen.", DecisionUnparsed, ""},
		{"en or maybe then doubt", "No roll. Or maybe a Listen roll? Hmm, probably not...", DecisionUnparsed, ""},
		{"en or wait i think", "No dice. Or, wait, a Spot Hidden roll? Nah, no dice... I think.", DecisionUnparsed, ""},
		{"fr ou plutôt", "Pas de jet. Ou plutôt : jet de Nager.", DecisionUnparsed, ""},
		{"it anzi mah", "Nessun tiro. Anzi, un tiro di Nuotare? Mah, no.", DecisionUnparsed, ""},
		{"nl of toch", "Geen worp. Of misschien Zwemmen? Ik weet het niet...", DecisionUnparsed, ""},

		// must not fire
		{"firm settle", "No roll. Or is it Climb? No, no roll: there's a ladder.", DecisionPass, ""},
		{"fr firm settle", "Pas de jet. Ou plutôt si, un jet de Grimper ? Non, pas de jet.", DecisionPass, ""},
		{"nl toch niet", "Geen worp. Of toch wel, Klimmen? Nee, toch niet.", DecisionPass, ""},
		{"offer names no ruling", "Kein Wurf. Oder doch? Nein, kein Wurf.", DecisionPass, ""},
	})
}

// TestProbeNinthRoundLeans holds leans in their other words and languages, and rulings
// given odds: hedges. A lean settled by a word of deciding, a body leaning on
// something, a sure percentage and a skill's value are no hedge.
func TestProbeNinthRoundLeans(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"leaning skill", "Leaning Track roll.", DecisionUnparsed, ""},
		{"lean colon", "Lean: no roll.", DecisionUnparsed, ""},
		{"leaning label", "**Leaning:** Listen roll.", DecisionUnparsed, ""},
		{"leaning automatic", "Leaning automatic; the ladder looks fine.", DecisionUnparsed, ""},
		{"slight lean", "Slight lean: no roll.", DecisionUnparsed, ""},
		{"gut feeling", "Gut feeling: roll Spot Hidden.", DecisionUnparsed, ""},
		{"odds pair", "60/40 on a Climb roll.", DecisionUnparsed, ""},
		{"percent pair", "65% automatic, 35% Jump roll.", DecisionUnparsed, ""},
		{"percent sure", "I'm 75% sure it's a Swim roll.", DecisionUnparsed, ""},
		{"de eher", "Eher keine Probe, die Tür ist offen.", DecisionUnparsed, ""},
		{"it propenderei", "Propenderei per un tiro di Ascoltare.", DecisionUnparsed, ""},
		{"pt tendo", "Tendo para um teste de Escutar.", DecisionUnparsed, ""},
		{"nl neig", "Ik neig naar een worp op Luisteren.", DecisionUnparsed, ""},

		// must not fire
		{"lean settled", "Leaning no roll. Final answer: no roll.", DecisionPass, ""},
		{"body leaning", "Leaning on the railing is fine, no roll needed.", DecisionPass, ""},
		{"body leaning then roll", "Leaning against the door won't open it: Locksmith roll.", DecisionRoll, "Locksmith"},
		{"sure percent", "I'm 100% sure it's a Climb roll.", DecisionRoll, "Climb"},
		{"skill value", "Roll Spot Hidden (your 60% skill). The other 40% of the time, nothing.", DecisionRoll, "Spot Hidden"},
	})
}

// TestProbeNinthRoundDoubtAndPast holds doubt put as "not necessarily", "not
// convinced", "I don't know that", "first instinct" (hedges), and a ruling told from
// another session (no ruling of this reply's, which the rest of the reply may make).
func TestProbeNinthRoundDoubtAndPast(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"wouldn't necessarily", "I wouldn't necessarily ask for a Swim roll.", DecisionUnparsed, ""},
		{"not necessarily", "Not necessarily a Listen roll.", DecisionUnparsed, ""},
		{"not convinced", "I'm not convinced this needs a Climb roll.", DecisionUnparsed, ""},
		{"don't know that", "I don't know that it needs dice.", DecisionUnparsed, ""},
		{"first instinct", "A Spot Hidden roll would be my first instinct.", DecisionUnparsed, ""},
		{"past session alone", "Last session I had them roll Track through this same forest.", DecisionUnparsed, ""},

		// must not fire
		{"instinct overruled", "My first instinct is no roll, but on reflection, Climb roll.", DecisionRoll, "Climb"},
		{"past then present", "Last time I made you roll Swim for this river. Today it's frozen solid: no roll.", DecisionPass, ""},
		{"same as last time", "Same as last time: roll Locksmith.", DecisionRoll, "Locksmith"},
	})
}

// TestProbeNinthRoundFrames holds a ruling beside the other ruling put in the rules'
// mouth ("the rules say", "by the book", "technically"): two frames on one action,
// unparsed. The rules' frame agreeing with the ruling, or alone, rules.
func TestProbeNinthRoundFrames(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"rather not but rules say", "I'd rather not call for dice, but the rules say Listen.", DecisionUnparsed, ""},
		{"skip except book", "I'd skip the roll, except the book says Track.", DecisionUnparsed, ""},
		{"no dice by the book", "Honestly no dice, but by the book it's a Swim roll.", DecisionUnparsed, ""},
		{"technically applies", "No roll, although technically Jump applies.", DecisionUnparsed, ""},
		{"scenario then skip", "The scenario calls for a Library Use roll, but I'd skip it.", DecisionUnparsed, ""},

		// must not fire
		{"book agrees", "By the book it's a Climb roll, and I'd call for it anyway.", DecisionRoll, "Climb"},
		{"book alone", "Technically this is a Stealth roll.", DecisionRoll, "Stealth"},
		{"scenario alone", "The scenario calls for a Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		{"frame conceded then ruling", "The module says a Climb roll, but I'd let it slide.", DecisionPass, ""},
		{"scenario then agree", "The scenario calls for a Spot Hidden roll, but that's right here: roll it.", DecisionRoll, "Spot Hidden"},
		{"pass with book agreeing", "No roll; by the rules, a ladder needs none.", DecisionPass, ""},
		{"rules' roll conceded", "I don't love opposed rolls for a shove, but that's what the rules want: Fighting.", DecisionRoll, "Fighting"},
	})
}

// TestProbeNinthRoundMockery holds a roll in a sentence of sarcastic assent or
// escalation: mocked, not called for. Assent that turns ("…, but no: it's a Climb
// roll") or plain assent before a reason calls for the roll.
func TestProbeNinthRoundMockery(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"sure and too", "Sure, and I'll have you roll Listen for your own heartbeat too.", DecisionUnparsed, ""},
		{"oh sure", "Oh sure, roll Climb for the kerb.", DecisionUnparsed, ""},
		{"yeah right", "Yeah, right, a Swim roll for a puddle, and a Jump roll for the crack.", DecisionUnparsed, ""},
		{"while we're at it", "Let's roll Spot Hidden for the sun while we're at it.", DecisionUnparsed, ""},

		// must not fire
		{"assent with reason", "Sure, roll Stealth: the guards are alert.", DecisionRoll, "Stealth"},
		{"assent turned", "Oh sure, I see why you'd ask, but no: it's a Climb roll.", DecisionRoll, "Climb"},
	})
}

// TestProbeNinthRoundGrantStructured holds a structured answer (JSON, a label) and a
// grant of the other ruling after it or in its reason: a hedge, as in prose.
func TestProbeNinthRoundGrantStructured(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"label then grant", "**Decision:** Roll (Track)\n\nThough letting them follow it freely wouldn't be crazy either.", DecisionUnparsed, ""},
		{"json then grant", `{"decision": "roll", "skill": "Dodge", "reason": "Fast blade."} That said, I wouldn't argue with anyone who skipped it.`, DecisionUnparsed, ""},
		{"json reason grant", `{"decision": "automatic_success", "skill": null, "reason": "Easy, though a Climb roll wouldn't be unreasonable."}`, DecisionUnparsed, ""},
		{"label then i'd not fight", "## Ruling: No roll\n\nI'd not fight a table that wanted a Listen roll, though.", DecisionUnparsed, ""},
		{"no harm in the other", "No roll. No harm in a Spot Hidden roll if they insist, though.", DecisionUnparsed, ""},

		// must not fire
		{"label then same side", "**Decision:** No roll\n\nNobody could fault you for that.", DecisionPass, ""},
		{"no harm in asking", "Roll Spot Hidden; there's no harm in asking.", DecisionRoll, "Spot Hidden"},
		{"wouldn't hurt to remind", "Roll Climb. It wouldn't hurt to remind them the wall is wet.", DecisionRoll, "Climb"},
	})
}

// TestProbeNinthRoundNegatedRequest holds a negation before a verb of asking or making
// in the lexicons' languages, which denies the roll the verb takes however many words
// stand between: a pass. A comma or colon between, or a verb whose negation affirms
// ("no dudaré en", "não vou deixar de"), leaves the roll called for.
func TestProbeNinthRoundNegatedRequest(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"es no voy a pedirte", "No voy a pedirte una tirada de Escuchar para oír un grito.", DecisionPass, ""},
		{"es no te voy a hacer tirar", "No te voy a hacer tirar Saltar por un bordillo.", DecisionPass, ""},
		{"it non ti chiederò", "Non ti chiederò un tiro di Ascoltare per uno sparo.", DecisionPass, ""},
		{"pt não vou pedir", "Não vou pedir um teste de Escutar para um grito.", DecisionPass, ""},

		// must not fire
		{"es comma", "No, te voy a pedir una tirada de Escuchar.", DecisionRoll, "Listen"},
		{"es no dudaré", "No dudaré en pedirte una tirada de Escuchar.", DecisionRoll, "Listen"},
		{"it non esiterò", "Non esiterò a chiederti un tiro di Ascoltare.", DecisionRoll, "Listen"},
		{"pt não vou deixar de", "Não vou deixar de pedir um teste de Escutar.", DecisionRoll, "Listen"},
		{"es colon", "No es un grito cualquiera: te pido una tirada de Escuchar.", DecisionRoll, "Listen"},
	})
}

// TestProbeNinthRoundGrantLanguages holds a roll, then a grant of letting the action
// through in the lexicons' languages ("obwohl man es auch einfach durchwinken könnte",
// "mais on pourrait aussi bien s'en passer"), and a pass, then a roll granted: hedges.
// "Could also" of something that is no other ruling grants nothing.
func TestProbeNinthRoundGrantLanguages(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"de durchwinken", "Würfel auf Horchen, obwohl man es auch einfach durchwinken könnte.", DecisionUnparsed, ""},
		{"de liegt nicht falsch", "Keine Probe nötig, aber wer auf Klettern würfeln lassen will, liegt nicht falsch.", DecisionUnparsed, ""},
		{"fr s'en passer", "Jet d'Écouter, mais on pourrait aussi bien s'en passer.", DecisionUnparsed, ""},
		{"es dejarlo pasar", "Tirada de Escuchar, aunque también podrías dejarlo pasar sin más.", DecisionUnparsed, ""},
		{"it lasciar correre", "Tiro di Ascoltare, ma si potrebbe anche lasciar correre.", DecisionUnparsed, ""},
		{"pt deixar passar", "Teste de Escutar, mas deixar passar também funcionaria.", DecisionUnparsed, ""},
		{"nl laten gebeuren", "Worp op Luisteren, maar je kunt het ook gewoon laten gebeuren.", DecisionUnparsed, ""},
		{"pl odpuścić", "Rzut na Nasłuchiwanie, ale można też to odpuścić.", DecisionUnparsed, ""},

		// must not fire
		{"could also same side", "Roll Climb. You could also use Jump if you prefer.", DecisionRoll, "Climb"},
		{"could also other thing", "No roll. You could also just walk around the puddle.", DecisionPass, ""},
		{"de kannst auch", "Kein Wurf, du kannst auch einfach rübergehen.", DecisionPass, ""},
		{"fr aussi bien", "Pas de jet, tu pourrais aussi bien faire le tour.", DecisionPass, ""},
	})
}

// TestProbeNinthRoundRollOrNot holds a roll offered with not rolling as the
// alternative, and doubt about the ruling put as second-guessing or "your pick":
// hedges. A roll whose alternative is the failure ("Roll Dodge or take the hit") is
// called for.
func TestProbeNinthRoundRollOrNot(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"either or don't bother", "Either roll Track or don't bother, your pick.", DecisionUnparsed, ""},
		{"paren or not", "Roll Listen (or not, honestly).", DecisionUnparsed, ""},
		{"or just let it go", "Roll Stealth, or just let it go, whatever.", DecisionUnparsed, ""},
		{"second-guessing", "No roll (though I'm second-guessing myself).", DecisionUnparsed, ""},
		{"could be wrong", "Roll Climb. I could be wrong, though.", DecisionUnparsed, ""},

		// must not fire
		{"or take the hit", "Roll Dodge or take the hit.", DecisionRoll, "Dodge"},
		{"or drown", "Make a Swim roll or drown.", DecisionRoll, "Swim"},
		{"or the guard hears", "Roll Stealth, or the guard hears you.", DecisionRoll, "Stealth"},
	})
}

// TestProbeNinthRoundDoubtedAnswer holds structured answers that doubt themselves in
// their own fields: a confidence below one half, a decision value naming both rulings,
// a reason that leaves the ruling open. A confident field or a plain reason rules.
func TestProbeNinthRoundDoubtedAnswer(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"json confidence number", `{"decision": "roll", "skill": "Swim", "reason": "Current.", "confidence": 0.35}`, DecisionUnparsed, ""},
		{"json confidence word", `{"decision": "automatic_success", "skill": null, "reason": "Easy.", "confidence": "low"}`, DecisionUnparsed, ""},
		{"json reason open", `{"decision": "roll", "skill": "Jump", "reason": "Leaning roll; could go either way."}`, DecisionUnparsed, ""},
		{"label both", "Decision: roll / automatic success\nSkill: Jump", DecisionUnparsed, ""},
		{"label confidence decimal", "Decision: roll\nSkill: Jump\nConfidence: 0.3", DecisionUnparsed, ""},

		// must not fire
		{"json confident", `{"decision": "roll", "skill": "Swim", "reason": "Current.", "confidence": 0.9}`, DecisionRoll, "Swim"},
		{"json percent confident", `{"decision": "roll", "skill": "Swim", "reason": "Current.", "confidence": 85}`, DecisionRoll, "Swim"},
		{"label skill or skill", "Decision: roll\nSkill: Jump or Climb", DecisionRoll, ""},
	})
}

// TestProbeNinthRoundHedgeTags holds a ruling answered or tagged unsure ("Yes and no",
// "Not really, but kind of", ", sort of", a label's "yes (probably)"): hedges.
func TestProbeNinthRoundHedgeTags(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"yes and no", "Does she need a roll? Yes and no.", DecisionUnparsed, ""},
		{"not really but kind of", "A Swim roll? Not really, but kind of.", DecisionUnparsed, ""},
		{"sort of tag", "Roll Track, sort of.", DecisionUnparsed, ""},
		{"label probably", "Roll: yes (probably)\nSkill: Listen", DecisionUnparsed, ""},
		{"label likely", "Roll needed: likely (Spot Hidden)", DecisionUnparsed, ""},

		// must not fire
		{"kind of as a noun", "This kind of wall needs a Climb roll.", DecisionRoll, "Climb"},
		{"label firm", "Roll: yes (Listen)", DecisionRoll, "Listen"},
	})
}
