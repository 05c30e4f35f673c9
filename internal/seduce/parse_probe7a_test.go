package seduce

import "testing"

// Probe tables of the seventh round of issue 29 (helper A: precision). Sentences written
// for these tests, each labelled under spec section 3 before the parser read it.

// TestProbeSeventhRoundNegation holds negations the parser did not read before: a "no"
// that heads a noun of occasion ("under no circumstances", "on no account", "by no
// means") denies its clause; the verb of a subject that holds a "without" phrase ends
// that phrase; and in other languages a negated reason or verb of needing denies the
// roll that is its object.
func TestProbeSeventhRoundNegation(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"nc1", "Under no circumstances am I asking for a Jump roll to step onto a kerb.", DecisionPass, ""},
		{"nc2", "On no account would a Keeper call for a Swim roll in a bathtub.", DecisionPass, ""},
		{"nc3", "By no means does reading the menu need a Library Use roll.", DecisionPass, ""},
		{"nc4", "Under no condition should she roll Climb to get up three stairs.", DecisionPass, ""},
		// must not fire: "no" before another noun, or the roll outside its clause
		{"nc5", "No circumstances favour her, so call for a Climb roll.", DecisionRoll, "Climb"},
		{"nc6", "There is no bonus die here; roll Dodge.", DecisionRoll, "Dodge"},

		{"wv1", "Slipping past the sentries without a sound means a Stealth roll for each of them.", DecisionRoll, "Stealth"},
		{"wv2", "Reaching the ledge without the rope takes a Climb roll.", DecisionRoll, "Climb"},
		{"wv3", "Stitching the wound without proper light demands a First Aid roll.", DecisionRoll, "First Aid"},
		{"wv4", "Finding the page without an index involves a Library Use roll.", DecisionRoll, "Library Use"},
		// must not fire: the "without" governs the roll itself
		{"wv5", "She crosses the plank without a roll; it is wide and dry.", DecisionPass, ""},
		{"wv6", "He just takes the key without any roll.", DecisionPass, ""},

		{"es1", "Tampoco hace falta una tirada de Nadar: el agua le llega a la rodilla.", DecisionPass, ""},
		{"es2", "No veo ninguna razón para pedir una tirada de Escuchar.", DecisionPass, ""},
		{"pt1", "Não precisa de um teste de Escalar para subir uma escada.", DecisionPass, ""},
		{"it1", "Non vedo motivo per un tiro di Ascoltare, la porta è aperta.", DecisionPass, ""},
		{"fr1", "Il ne faut pas de jet de Grimper pour une échelle de trois barreaux.", DecisionPass, ""},
		// must not fire: the negation is elsewhere, or its verb is not one of need
		{"es3", "La reja no es alta, pero hace falta una tirada de Saltar.", DecisionRoll, "Jump"},
		{"es4", "Ser cerrajera no la exime de una tirada de Cerrajería.", DecisionRoll, "Locksmith"},
		{"es5", "Hace falta una tirada de Trepar.", DecisionRoll, "Climb"},
	})
}

// TestProbeSeventhRoundGates holds the precision gates of parse_gates.go: a reply cut
// off mid-sentence around its ruling, a roll mocked or rejected, rulings offered side
// by side, "No dice" beside a refusal, and a closing "I don't know".
func TestProbeSeventhRoundGates(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// cut off: the ruling's sentence, or a roll's skill, still to come
		{"co1", "The fence is rotten, so she'll have to make a", DecisionUnparsed, ""},
		{"co2", "Right, so: roll. Use your", DecisionUnparsed, ""},
		{"co3", "Given the storm, the roll he needs is the", DecisionUnparsed, ""},
		// must not fire: a complete ruling before the cut, or no dangling word
		{"co4", "No roll needed. He opens the gate and the", DecisionPass, ""},
		{"co5", "Roll Swim. The current drags at his", DecisionRoll, "Swim"},
		{"co6", "Make a Climb roll", DecisionRoll, "Climb"},
		{"co7", "No roll needed, because the", DecisionPass, ""},
		{"co8", "Automatic success for this one since the", DecisionPass, ""},

		// mockery of a roll, then the real ruling; or "No," rejecting the roll
		{"mk1", "Sure, and a roll to breathe while she's at it. Come on, she doesn't need to roll to open a cupboard.", DecisionPass, ""},
		{"mk2", "Right, let's have a Luck roll for blinking too. She just walks in.", DecisionUnparsed, ""},
		{"mk3", "Should he roll Climb for the stairs? No. He doesn't need to roll at all.", DecisionPass, ""},
		{"mk4", "Let's get a Jump roll for the puddle. No, I'm kidding, nobody needs to roll for a puddle.", DecisionUnparsed, ""},
		// must not fire: a roll for one part and none for another, no rejection
		{"mk5", "Opening the door is free, but spotting the wire needs a Spot Hidden roll.", DecisionRoll, "Spot Hidden"},

		// rulings named side by side
		{"op1", "I'd rather not pick between a Stealth roll and automatic success for your group.", DecisionRefused, ""},
		{"op2", "It comes down to a choice between automatic success and a Climb roll, and that is for your table.", DecisionUnparsed, ""},
		// must not fire: one ruling, then a word of another matter
		{"op3", "No roll between the two rooms; the corridor is lit.", DecisionPass, ""},

		// "No dice" as refusal, and as ruling
		{"nd1", "No dice. I won't be refereeing your game; ask another Keeper.", DecisionRefused, ""},
		{"nd2", "No dice, pal — find a different GM for this one.", DecisionRefused, ""},
		{"nd3", "No dice needed. He just turns the handle.", DecisionPass, ""},

		// a closing "I don't know"
		{"un1", "Podría ser una tirada de Nadar, o podría no hacer falta. No lo sé.", DecisionUnparsed, ""},
		{"un2", "Un jet de Discrétion, peut-être. Non, attendez. Je ne suis pas sûr.", DecisionUnparsed, ""},
		{"un3", "Roll Listen. Then again, no roll. I don't know.", DecisionUnparsed, ""},
		// must not fire: doubt about something else, inside a longer sentence
		{"un4", "Roll Spot Hidden; I don't know what he expects to find, but the roll stands.", DecisionRoll, "Spot Hidden"},
		{"un5", "Make a Listen roll. Or don't. Frankly I can't say.", DecisionUnparsed, ""},
		{"un6", "No roll, I suppose. Who knows.", DecisionUnparsed, ""},

		// "roll with" is to go along with: no ruling, a refusal beside it
		{"rw1", "I won't roll with this one, sorry. Check with your Keeper.", DecisionUnparsed, ""}, // abstains
		{"rw2", "Not rolling with that request; ask the GM.", DecisionRefused, ""},
		{"rw3", "I'm not going to roll with it.", DecisionUnparsed, ""},
		// must not fire: a roll with a die, or a real call after the idiom
		{"rw4", "Roll Climb with a penalty die; the stones are wet.", DecisionRoll, "Climb"},
		{"rw5", "Don't roll with the lantern in your teeth, no roll needed to walk down a lit hall.", DecisionPass, ""},

		// idioms of refusal with ruling words, and both rulings denied
		{"id1", "Rolling my eyes at this, honestly. I'm not your Keeper; ask your Keeper.", DecisionRefused, ""},
		{"id2", "Sorry, it's not my roll to make. Consult your GM.", DecisionRefused, ""},
		{"id3", "I don't get to roll the dice on your game; your Keeper does.", DecisionUnparsed, ""},
		{"id4", "You won't get a roll or automatic success from me.", DecisionUnparsed, ""},
		{"id5", "No roll, no ruling. That part is up to your table.", DecisionUnparsed, ""},
		// must not fire: the idiom's words in a real ruling
		{"id6", "No roll, no fuss: she walks in.", DecisionPass, ""},
		{"id7", "Not my favourite call, but roll Climb.", DecisionRoll, "Climb"},
		{"id8", "Roll up your sleeves and make a Mechanical Repair roll.", DecisionRoll, "Mechanical Repair"},

		// a ruling taken for a joke after it, and rules against play
		{"jk1", "He'll need a Climb roll to get into bed. Not really, of course.", DecisionUnparsed, ""},
		{"jk2", "Spot Hidden to find the sun in the sky. In all seriousness, you see it.", DecisionUnparsed, ""},
		{"jk3", "Technically that's a Swim roll; in practice, no roll for a paddling pool.", DecisionUnparsed, ""},
		// must not fire: a question answered, a seriousness that keeps the ruling before
		{"jk4", "Roll Listen? Nah. The gunshot is right next to him.", DecisionPass, ""},
		{"jk5", "Roll Climb. I'm serious, the wall is slick.", DecisionRoll, "Climb"},

		// a roll and the automatic success side by side in one sentence, any language
		{"oa1", "Podría ser una tirada de Nadar o podría ser automático.", DecisionUnparsed, ""},
		{"oa2", "Ça pourrait être un jet d'Écouter, ou bien automatique.", DecisionUnparsed, ""},
		{"oa3", "Potrebbe servire un tiro di Nuotare, oppure è automatico.", DecisionUnparsed, ""},
		{"oa4", "Puede ser una tirada de Saltar, o puede que no haga falta.", DecisionUnparsed, ""},
		{"oa5", "Sin tirada. Bueno, quizá una de Escuchar. Ya veremos.", DecisionUnparsed, ""},
		// must not fire: the automatic word is the roll's failure, or in another sentence
		{"oa6", "Roll Dodge, or the blade finds him. Nothing here is automatic.", DecisionRoll, "Dodge"},
		{"oa7", "Una tirada de Trepar. Nada es automático con esta lluvia.", DecisionRoll, "Climb"},

		// both rulings granted in one sentence
		{"bg1", "A Listen roll and automatic success are both fair calls here.", DecisionUnparsed, ""},
		{"bg2", "Roll or not, it makes no odds to me.", DecisionUnparsed, ""},
		{"bg3", "She can take a Swim roll or a free pass, whichever she likes.", DecisionUnparsed, ""},
		// must not fire: "both" of something else
		{"bg4", "Both doors are fine, so no roll to open them.", DecisionPass, ""},

		// the reply stops inside the skill's name: the roll stands, its skill does not
		{"cs1", "Roll Library U", DecisionRoll, ""},
		{"cs2", "Final ruling: roll First A", DecisionRoll, ""},
		// must not fire: the skill complete, or named whole before
		{"cs3", "Roll Climb", DecisionRoll, "Climb"},
		{"cs4", "Roll Swim. Roll Swim. Roll Sw", DecisionRoll, "Swim"},

		// a ruling quoted as what someone else would say; a structured answer joked away
		{"wo1", "Roll Library Use... is what a by-the-book Keeper would say. She knows her own shelves.", DecisionUnparsed, ""},
		{"wo2", "Automatic success — that's what a generous GM might call it. The ice is thin, though.", DecisionUnparsed, ""},
		{"wo3", "Ruling: roll (Swim). Not really, of course; the pool is a metre deep.", DecisionUnparsed, ""},
		// must not fire: "what" of something else after the ruling
		{"wo4", "Roll Spot Hidden, and tell me what you would look at first.", DecisionRoll, "Spot Hidden"},
		{"wo5", "Ruling: roll (Swim). The current is strong.", DecisionRoll, "Swim"},

		// a yes or no that answers the reply's own ruling back, in any language
		{"ab1", "Pas de jet. Bon, si, un jet d'Écouter.", DecisionUnparsed, ""},
		{"ab2", "Una tirada de Nadar. Bueno, no, sin tirada.", DecisionUnparsed, ""},
		{"ab3", "Kein Wurf. Doch, eine Horchen-Probe.", DecisionUnparsed, ""},
		{"ab4", "Roll Stealth. Well, no, no roll needed, he's asleep.", DecisionUnparsed, ""},
		// must not fire: the answer keeps the ruling, or answers a question
		{"ab5", "Roll Climb. Hmm, no, I'll stick with it: Climb.", DecisionRoll, "Climb"},
		{"ab6", "Roll Dodge... no, still a roll. Dodge.", DecisionRoll, "Dodge"},

		// rulings set out as options
		{"ol1", "Two choices: (a) a Swim roll, (b) no roll and he wades across.", DecisionUnparsed, ""},
		{"ol2", "Option 1: automatic success. Option 2: Jump roll.", DecisionUnparsed, ""},
		// must not fire: options of the player's action, then one ruling
		{"ol3", "You have two options: run or hide. You hide, so that's a Stealth roll; running would have been free.", DecisionRoll, "Stealth"},
	})
}
