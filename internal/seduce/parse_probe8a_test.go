package seduce

import "testing"

// Probe tables of the eighth round of issue 29 (helper A: precision). Sentences written
// for these tests, each labelled under spec section 3 before the parser read it.

// TestProbeEighthRoundIdioms holds "roll" in fixed expressions, which rule nothing,
// beside rulings made elsewhere in the reply; and rolls that must still be read.
func TestProbeEighthRoundIdioms(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"ri1", "Rock 'n' roll, people: no roll needed, the gate is open.", DecisionPass, ""},
		{"ri2", "Heads will roll if the mayor finds out, but reading the ledger needs no roll.", DecisionPass, ""},
		{"ri3", "You're on a roll tonight; still, spotting the tripwire is a Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		{"ri4", "Roll call at dawn, everyone present. Getting over the wall needs a Climb roll.", DecisionRoll, "Climb"},
		{"ri5", "The cook hands him a sausage roll. No dice needed for that.", DecisionPass, ""},
		{"ri6", "Rock-and-roll! The boat starts first pull.", DecisionUnparsed, ""},
		{"ri10", "Barrel roll! The plane dodges the flak. You're through.", DecisionPass, ""},
		{"ri11", "Drum roll, please: no roll, the door just opens.", DecisionPass, ""},
		// must not fire: a roll next to the idiom's words
		{"ri7", "Rock climbing up there means a Climb roll.", DecisionRoll, "Climb"},
		{"ri8", "Roll Dodge, the heads of the statues are falling.", DecisionRoll, "Dodge"},
		{"ri9", "Ready to roll? Make it a Stealth roll.", DecisionRoll, "Stealth"},
	})
}

// TestProbeEighthRoundCutRoll holds replies cut off right after the roll word of a
// sentence that was calling for a roll, before its skill.
func TestProbeEighthRoundCutRoll(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"cr1", "So for the lock, Anna, you'll have to roll", DecisionUnparsed, ""},
		{"cr2", "Alright, for jumping that gap he is going to need a check", DecisionUnparsed, ""},
		{"cr3", "Okay team, for this one the Keeper wants you to make a test", DecisionUnparsed, ""},
		{"cr4", "Hmm, the drainpipe is rusty, so I'm gonna ask you to roll", DecisionUnparsed, ""},
		// must not fire: a full stop, a skill, or a terse one-word answer
		{"cr5", "You need to roll.", DecisionRoll, ""},
		{"cr6", "He'll need to roll Climb", DecisionRoll, "Climb"},
		{"cr7", "Roll", DecisionRoll, ""},
	})
}

// TestProbeEighthRoundTurned holds a roll and then, in a later sentence opened by a
// word that turns or concludes, no roll: the reply takes its roll back (unparsed), and
// parts of one action ruled side by side without such a word (a roll).
func TestProbeEighthRoundTurned(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"tu1", "I'd ask for a Listen roll for the footsteps. Honestly though, the man is shouting, so no roll is needed.", DecisionUnparsed, ""},
		{"tu2", "I'd have said a Swim roll for the river. Ultimately, it's knee-deep, so no roll is needed.", DecisionUnparsed, ""},
		{"tu3", "My reflex is a Drive Auto roll for the icy road. Really, she's crawling along at ten miles an hour; no roll.", DecisionUnparsed, ""},
		// must not fire: parts of the action, no turn between them
		{"tu4", "Spot Hidden roll for the hidden drawer; the letter on the desk needs no roll.", DecisionRoll, "Spot Hidden"},
		{"tu5", "Climbing the cliff is a Climb roll. Walking back along the beach needs no roll.", DecisionRoll, "Climb"},
	})
}

// TestProbeEighthRoundWithdrawn holds a roll, then a correction or a hesitation and
// words that hand the call back, with no new ruling: the roll is withdrawn.
func TestProbeEighthRoundWithdrawn(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"wd1", "I'd ask for a Jump roll here... hmm, the gap is narrow. Still, it's raining. You know your group better than I do.", DecisionUnparsed, ""},
		{"wd2", "Make a Stealth roll. Wait, the guard is asleep? Up to you, really.", DecisionUnparsed, ""},
		{"wd3", "Call it a Listen roll. Hold on, the radio is blaring in the next room. You know your table.", DecisionUnparsed, ""},
		// must not fire: the correction rules again
		{"wd4", "Make a Stealth roll. Hmm, the guard is asleep, but the floor creaks, so yes: Stealth roll.", DecisionRoll, "Stealth"},
		{"wd5", "Make a Stealth roll, the guard is awake.", DecisionRoll, "Stealth"},
	})
}

// TestProbeEighthRoundNobodyWithout holds a "without a roll" whose clause has a
// negative subject: nobody does it without the roll, so the roll is needed.
func TestProbeEighthRoundNobodyWithout(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"nw1", "Personne ne traverse ce pont sans un jet de Discrétion.", DecisionRoll, "Stealth"},
		{"nw2", "Ce mur, personne ne l'escalade sans un jet de Grimper : il est lisse.", DecisionRoll, "Climb"},
		{"nw3", "Nobody gets over that wall without a Climb roll.", DecisionRoll, "Climb"},
		{"nw4", "No one crosses the rapids without a Swim roll.", DecisionRoll, "Swim"},
		{"nw5", "Nadie cruza ese río sin una tirada de Nadar.", DecisionRoll, "Swim"},
		{"nw6", "Nessuno passa di lì senza un tiro di Furtività.", DecisionRoll, "Stealth"},
		// must not fire: no negative subject before the "without"
		{"nw7", "Il traverse le pont sans jet, personne ne le voit.", DecisionPass, ""},
		{"nw8", "Elle passe sans jet de Discrétion, la rue est vide.", DecisionPass, ""},
	})
}

// TestProbeEighthRoundOrNot holds a roll followed by "or not" and the call handed back,
// in the seven languages: the ruling is left open.
func TestProbeEighthRoundOrNot(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"on1", "Potrebbe servire un tiro di Ascoltare, oppure no. Dipende da te.", DecisionUnparsed, ""},
		{"on2", "Quizá una tirada de Escuchar, o no. Depende de ti.", DecisionUnparsed, ""},
		{"on3", "Peut-être un jet de Discrétion, ou pas. Ça dépend de toi.", DecisionUnparsed, ""},
		{"on4", "Vielleicht eine Probe auf Klettern, oder nicht. Hängt von dir ab.", DecisionUnparsed, ""},
		{"on5", "Talvez um teste de Escutar, ou não. Depende de você.", DecisionUnparsed, ""},
		{"on6", "Misschien een worp op Klimmen, of niet. Jij beslist.", DecisionUnparsed, ""},
		{"on7", "Could be a Listen roll, or not. Depends on you.", DecisionUnparsed, ""},
		// must not fire: a firm ruling
		{"on8", "Serve un tiro di Ascoltare, senza dubbio.", DecisionRoll, "Listen"},
		{"on9", "Il faut un jet de Discrétion, point.", DecisionRoll, "Stealth"},
	})
}

// TestProbeEighthRoundRollsTalk holds roll words that speak of what rolls of a kind are
// for, or that judge asking for one a waste: talk about rolls, beside the ruling.
func TestProbeEighthRoundRollsTalk(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"rt1", "Climb rolls are meant for sheer faces and bad weather. This is a ladder: no roll.", DecisionPass, ""},
		{"rt2", "Listen checks exist for faint sounds. The band is playing at full blast, so she hears it automatically.", DecisionPass, ""},
		{"rt3", "Calling for Library Use would just be busywork here. Automatic success, he finds the page.", DecisionPass, ""},
		{"rt4", "Demanding a Swim roll in a paddling pool is overkill. No roll.", DecisionPass, ""},
		// must not fire: a ruling of a roll
		{"rt5", "Climb rolls all round: the wall is wet.", DecisionRoll, "Climb"},
		{"rt6", "Asking for a Stealth roll is fair here; the guard is awake.", DecisionRoll, "Stealth"},
	})
}

// TestProbeEighthRoundIdiomNarration holds a roll idiom beside the action told done:
// the idiom does not keep the narration from ruling.
func TestProbeEighthRoundIdiomNarration(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"in1", "Rock and roll! The van starts first time and you're on your way.", DecisionPass, ""},
		{"in2", "Rock 'n' roll, gang. The motor catches first time.", DecisionPass, ""},
	})
}

// TestProbeEighthRoundWontRoll holds the speaker's "I will not roll for it": beside a
// refusal of the task it refuses; alone with a reason of ease it rules no roll.
func TestProbeEighthRoundWontRoll(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"wr1", "I won't roll for it. I'm not going to adjudicate a scene like this one.", DecisionRefused, ""},
		{"wr2", "\"I will not roll for this,\" the Keeper says. \"I decline to rule on cruelty.\"", DecisionRefused, ""},
		// must not fire: no refusal of the task
		{"wr3", "I won't roll for it; the door is open, she walks in.", DecisionPass, ""},
	})
}

// TestProbeEighthRoundOtherFrame holds rulings set in someone's thought or in another
// scene than this one ("you might think", "my players would demand", "on another
// day"): mentioned, not made; the reply's answer to them is its ruling.
func TestProbeEighthRoundOtherFrame(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"of1", "You might think this needs a Stealth roll. It doesn't; the guard is asleep.", DecisionPass, ""},
		{"of2", "On another day, with the ice, I'd call for Climb. Today it's dry: no roll.", DecisionPass, ""},
		{"of3", "My players would demand a Luck roll for this, lol. Nope, just do it.", DecisionUnparsed, ""},
		{"of4", "In a different scene I'd want a Jump roll, but this ditch is a foot wide.", DecisionUnparsed, ""},
		{"of5", "One might expect a Library Use roll here. Not so: the page is bookmarked, no roll.", DecisionPass, ""},
		// must not fire: a ruling in the conditional mood about this scene
		{"of6", "The player would need to make a Climb roll for that wall.", DecisionRoll, "Climb"},
		{"of7", "He would need a Swim roll in that current.", DecisionRoll, "Swim"},
	})
}

// TestProbeEighthRoundMoreIdioms holds "let's roll!" as "let's go" and checks that are
// no test ("a rain check", "a reality check"); "let's roll" with a skill still rolls.
func TestProbeEighthRoundMoreIdioms(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"mi1", "Let's roll out at dawn. Getting to the farm is no roll.", DecisionPass, ""},
		{"mi2", "Rain check on the Library Use roll; the book is open on the desk, no roll.", DecisionPass, ""},
		{"mi3", "It's a reality check for the player, but yes: Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		// must not fire
		{"mi4", "Let's roll Spot Hidden.", DecisionRoll, "Spot Hidden"},
		{"mi5", "Let's roll for it: Climb.", DecisionRoll, "Climb"},
	})
}

// TestProbeEighthRoundOptional holds a roll the player may make if they like, a roll
// marked as sarcasm, and a ruling handed back with "whatever you prefer": none rules.
func TestProbeEighthRoundOptional(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"op1", "Feel free to roll Spot Hidden if you like, but the key is in plain sight.", DecisionUnparsed, ""},
		{"op2", "Nothing stops you from rolling Spot Hidden if you want, but you already see the key.", DecisionUnparsed, ""},
		{"op3", "You're welcome to roll Listen; the music is loud either way.", DecisionUnparsed, ""},
		{"op4", "Sure, roll Climb to walk up the stairs. /s It's stairs.", DecisionUnparsed, ""},
		{"op5", "I'd say a Spot Hidden roll, maybe. Or just give it to them. Whatever you prefer.", DecisionUnparsed, ""},
		// must not fire: the player's wish is to act, not to roll
		{"op6", "If you want to cross, make a Jump roll.", DecisionRoll, "Jump"},
		{"op7", "Make a Stealth roll if you want to sneak past.", DecisionRoll, "Stealth"},
		{"op8", "Roll Climb if you want to get up there.", DecisionRoll, "Climb"},
	})
}

// TestProbeEighthRoundTakenBack holds a roll taken back with nothing ruled after it, and
// a roll put as what one might think, in the lexicons' languages: neither rules.
func TestProbeEighthRoundTakenBack(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"tb1", "I'd call for a Climb roll. Nah, forget it, it's a ladder.", DecisionUnparsed, ""},
		{"tb2", "Make a Spot Hidden roll — kidding, it's right there.", DecisionUnparsed, ""},
		{"tb3", "Roll Dodge. Or, you know, don't — he's swinging at the wall.", DecisionUnparsed, ""},
		{"tb4", "Listen roll. Never mind, the radio's blaring.", DecisionUnparsed, ""},
		{"tb5", "Tu pourrais penser qu'il faut un jet de Discrétion. Non : le garde dort.", DecisionUnparsed, ""},
		{"tb6", "Man könnte meinen, es braucht eine Probe auf Klettern. Nein, es ist eine Leiter.", DecisionUnparsed, ""},
		{"tb7", "Podrías pensar que hace falta una tirada de Trepar. No: es una escalera.", DecisionUnparsed, ""},
		{"tb8", "Potresti pensare che serva un tiro di Scalare. No, è una scala.", DecisionUnparsed, ""},
		// must not fire: the words do not take the roll back, or a roll is ruled again
		{"tb9", "Roll Climb. Don't bother with a rope, it won't help.", DecisionRoll, "Climb"},
		{"tb10", "Make a Stealth roll. Forget it, I mean make a Stealth roll with a penalty die.", DecisionRoll, "Stealth"},
	})
}

// TestProbeEighthRoundFinalAnswer holds a roll and, in a later sentence labelled as the
// final word ("Final answer:", "Verdict:", "Second thought:"), no roll: the later words
// conclude against the first, and are no other part of the action.
func TestProbeEighthRoundFinalAnswer(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fa1", "First thought: Jump roll. Second thought: it's a puddle. Final answer: no roll.", DecisionUnparsed, ""},
		{"fa2", "A Listen roll came to mind for the footsteps. Final ruling, though: he's stamping, no roll.", DecisionPass, ""},
		// must not fire: no roll said first, or parts ruled without a conclusion
		{"fa3", "Crossing the yard needs no roll. Final answer for the wall: Climb roll.", DecisionRoll, "Climb"},
	})
}
