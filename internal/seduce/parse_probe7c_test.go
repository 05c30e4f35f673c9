package seduce

import (
	"fmt"
	"testing"
)

// Probe tables of the seventh round of issue 29 for skill names and replies in the
// lexicons' languages: sentences of this round's own, labelled under README-set3's
// rules before the parser read them, with cases each rule must not fire on.

// TestProbeSeventhRoundSkillNames holds the names models write for the taxonomy's
// skills (aliases, plurals, older-edition and D&D-ish names, "X check" forms and
// specialisations in parentheses), resolved to the taxonomy's skill in a JSON field, in
// "Make a X roll." and in "Roll X.", and the names of CoC skills the taxonomy does not
// hold, kept as written even where one of their words names a taxonomy skill.
func TestProbeSeventhRoundSkillNames(t *testing.T) {
	tax := DefaultTaxonomy()
	cases := []struct{ name, want string }{
		{"Fighting (Sword)", "Fighting"}, {"Fighting (Whip)", "Fighting"}, {"Fighting (Brawl)", "Fighting"},
		{"Fisticuffs", "Fighting"}, {"Hand-to-Hand", "Fighting"}, {"Close Combat", "Fighting"},
		{"Melee Attack", "Fighting"}, {"Knife", "Fighting"}, {"Unarmed Attack", "Fighting"},
		{"Firearms (Handgun)", "Firearms"}, {"Firearms (Rifle/Shotgun)", "Firearms"}, {"Firearms (Bow)", "Firearms"},
		{"Handguns", "Firearms"}, {"Pistols", "Firearms"}, {"Rifles", "Firearms"}, {"Shotguns", "Firearms"},
		{"Revolvers", "Firearms"}, {"Crossbows", "Firearms"}, {"Guns", "Firearms"},
		{"Thrown Weapons", "Throw"}, {"Throwing", "Throw"}, {"Leaping", "Jump"},
		{"Hiding", "Stealth"}, {"Move Silently", "Stealth"}, {"Move Quietly", "Stealth"}, {"Hide in Shadows", "Stealth"},
		{"Stealthy", "Stealth"}, {"Lockpick", "Locksmith"}, {"Lock Pick", "Locksmith"}, {"Pick Locks", "Locksmith"},
		{"Picking Locks", "Locksmith"}, {"Open Locks", "Locksmith"}, {"Lock-picking", "Locksmith"},
		{"Mechanic", "Mechanical Repair"}, {"Mech Repair", "Mechanical Repair"}, {"Mechanical Repairs", "Mechanical Repair"},
		{"Spot Hidden Object", "Spot Hidden"}, {"Spot", "Spot Hidden"}, {"Library Usage", "Library Use"},
		{"Library Search", "Library Use"}, {"Tracking", "Track"}, {"First-Aid", "First Aid"}, {"Firstaid", "First Aid"},
		{"Medical", "Medicine"},
		// kept as written: other CoC skills, characteristics and other systems' names
		{"Electrical Repair", "Electrical Repair"}, {"Drive Auto", "Drive Auto"}, {"Sleight of Hand", "Sleight of Hand"},
		{"Occult", "Occult"}, {"Navigate", "Navigate"}, {"Luck", "Luck"}, {"DEX", "DEX"}, {"POW", "POW"},
		{"Sanity", "Sanity"}, {"Conceal", "Conceal"}, {"Martial Arts", "Martial Arts"}, {"Natural World", "Natural World"},
		{"Perception", "Perception"}, {"Wisdom (Perception)", "Wisdom (Perception)"}, {"Strength (Athletics)", "Strength (Athletics)"},
		{"Language (Latin)", "Language (Latin)"}, {"Science (Chemistry)", "Science (Chemistry)"},
	}
	for _, tt := range cases {
		forms := []string{
			fmt.Sprintf(`{"decision": "roll", "skill": %q, "reason": "The guard is near."}`, tt.name),
			"Make a " + tt.name + " roll.",
		}
		if tt.name != "Strength (Athletics)" && tt.name != "Wisdom (Perception)" {
			forms = append(forms, "Roll "+tt.name+".")
		}
		for _, text := range forms {
			got := ParseReply(text, tax)
			if got.Decision != DecisionRoll || got.Skill != tt.want {
				t.Errorf("ParseReply(%q) = %v [%s %q]; want roll %s", text, got, got.Rule, got.Span, tt.want)
			}
		}
	}
}

// TestProbeSeventhRoundOtherSkills holds a roll whose skill is a CoC skill the
// taxonomy does not hold, named apart from the roll (after a dash or a colon, in
// parentheses, after "against your"): the name as written. A name opening a sentence,
// a common word ("Good Luck"), or a skill's name as part of a longer one are no skill.
func TestProbeSeventhRoundOtherSkills(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"dash", "That's a roll — Drive Auto, and the road is ice.", DecisionRoll, "Drive Auto"},
		{"colon", "You'll need a roll for this: Sleight of Hand.", DecisionRoll, "Sleight of Hand"},
		{"paren", "A roll is called for (Occult), the sigil is obscure.", DecisionRoll, "Occult"},
		{"against", "Roll d100 against your Navigate; the stars are hidden.", DecisionRoll, "Navigate"},
		{"caps", "She needs a roll here — DEX, since it's pure reflex.", DecisionRoll, "DEX"},
		{"electrical", "Rewiring the fuse box needs a roll: Electrical Repair.", DecisionRoll, "Electrical Repair"},
		{"electrical slot", "Make an Electrical Repair check before the lights die.", DecisionRoll, "Electrical Repair"},
		{"language", "That calls for a roll — Language (Latin), the inscription is worn.", DecisionRoll, "Language (Latin)"},
		{"call for", "I'd call for Fast Talk here, the doorman is bored.", DecisionRoll, "Fast Talk"},
		{"calls for", "This calls for Cthulhu Mythos, and nobody will like it.", DecisionRoll, "Cthulhu Mythos"},
		{"test your", "You'll have to test your Luck on the bridge.", DecisionRoll, "Luck"},
		{"yes roll", "Yes, roll POW against the spell.", DecisionRoll, "POW"},
		// must not fire: a taxonomy skill named is that skill; no other skill named
		// leaves the roll's skill empty
		{"n taxonomy", "That's a roll — Mechanical Repair, the engine is seized.", DecisionRoll, "Mechanical Repair"},
		{"n repair", "The pump needs a Repair roll.", DecisionRoll, "Mechanical Repair"},
		{"n help", "This calls for help from the others, no roll.", DecisionPass, ""},
		{"n society", "I'd call for the Occult Society here, then roll Library Use.", DecisionRoll, "Library Use"},
	})
	tax := DefaultTaxonomy()
	for _, text := range []string{
		"Roll it. Good Luck, friend.",
		"Roll for it. History will remember this.",
		"Make a roll, the Occult Society is watching.",
	} {
		if got := ParseReply(text, tax); got.Skill != "" && got.Skill != "Occult Society" {
			t.Errorf("ParseReply(%q) = %v; want no skill", text, got)
		}
	}
}

// TestProbeSeventhRoundSkillSenses holds words that name a skill in another sense
// ("listen to me", "a spot of tea", "track record", "library card"): the reply's
// ruling and its skill come from the roll it calls for.
func TestProbeSeventhRoundSkillSenses(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"listen", "Listen to me: make a Jump roll, the gap is wide.", DecisionRoll, "Jump"},
		{"spot", "A spot of tea won't steady your hands. Roll Dodge.", DecisionRoll, "Dodge"},
		{"track", "Your track record doesn't matter; make a Climb roll.", DecisionRoll, "Climb"},
		{"library", "Your library card gets you in, but the ledger needs a Spot Hidden roll.", DecisionRoll, "Spot Hidden"},
		{"listen pass", "Listen to me, there's no roll here: the door is open.", DecisionPass, ""},
		{"track pass", "With your track record, no dice needed. You find the road.", DecisionPass, ""},
	})
}

// TestProbeSeventhRoundRollVerbReach holds a verb of rolling whose skill stands past a
// subject pronoun, a beneficiary and a preposition ("Tiro io per te su …", "Je lance
// pour toi en …"): a roll of that skill, the Keeper's reported roll included. The verb
// does not reach past a comma, a digit or a capital, past five short words, or to a
// skill that more words follow in its clause.
func TestProbeSeventhRoundRollVerbReach(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"it1", "Tiro io per te su Nuoto: 71 contro 45. Fallito, bevi un sorso d'acqua gelida.", DecisionRoll, "Swim"},
		{"it2", "Ho tirato per te su Ascoltare (Listen): 12 contro 60, senti dei passi.", DecisionRoll, "Listen"},
		{"fr1", "Je lance pour toi en Discrétion : 33 contre 50, réussi.", DecisionRoll, "Stealth"},
		{"fr2", "Lance pour moi en Pister.", DecisionRoll, "Track"},
		{"es1", "Tiro yo por ti en Esquivar: 80 contra 40. Te alcanza.", DecisionRoll, "Dodge"},
		{"es2", "Tira por él en Escuchar, ya que está dormido.", DecisionRoll, "Listen"},
		// must not fire: another verb's object, a comma, or words after the skill
		{"n1", "Lance la corde et grimpe tranquillement.", DecisionUnparsed, ""},
		{"n2", "Lancia il sasso e nuota fino a riva.", DecisionUnparsed, ""},
		{"n3", "Würfle auf Schleichen und Klettern ist nicht nötig.", DecisionUnparsed, ""},
		{"n4", "Je lance un regard au garde : pas de jet de Discrétion.", DecisionPass, ""},
	})
}

// TestProbeSeventhRoundLanguageHedges holds, in each language, a ruling offered as one
// possibility beside the other ("it could be a roll, or it could be automatic"), a
// speaker who no longer knows, and a self-correction ("Enfin, si", "Anzi", "Nein,
// warte"): unparsed. A firm ruling beside a reason is still read.
func TestProbeSeventhRoundLanguageHedges(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fr1", "Ça pourrait être un jet de Sauter, ou ça pourrait être automatique.", DecisionUnparsed, ""},
		{"fr2", "Aucun jet. Enfin, si, un jet de Nager. Je ne sais plus.", DecisionUnparsed, ""},
		{"es1", "Podría ser una tirada de Nadar, o podría ser automático.", DecisionUnparsed, ""},
		{"es2", "Sin tirada. Mejor dicho, una tirada de Trepar.", DecisionUnparsed, ""},
		{"it1", "Potrebbe essere un tiro di Saltare, o potrebbe essere automatico. Non lo so.", DecisionUnparsed, ""},
		{"it2", "Nessun tiro. Anzi, un tiro di Nuoto.", DecisionUnparsed, ""},
		{"de1", "Kein Wurf. Nein, warte: eine Probe auf Klettern.", DecisionUnparsed, ""},
		{"pt1", "Poderia ser um teste de Natação ou poderia ser automático. Não sei mais.", DecisionUnparsed, ""},
		{"pl1", "Rzut na Wspinaczkę. A właściwie nie wiem.", DecisionUnparsed, ""},
		{"fr3", "Fais un jet de Discrétion. Je ne suis pas certain.", DecisionUnparsed, ""},
		{"es3", "Tirada de Escuchar. No lo sé, la verdad.", DecisionUnparsed, ""},
		{"it3", "Fai un tiro di Schivare. Non sono sicura.", DecisionUnparsed, ""},
		{"de2", "Eine Probe auf Schwimmen. Ich bin mir nicht sicher.", DecisionUnparsed, ""},
		{"nl1", "Gooi voor Klimmen. Ik weet het niet zeker.", DecisionUnparsed, ""},
		// must not fire: a firm ruling, whatever its reason says
		{"n1", "Haz una tirada de Trepar: la pared podría ser resbaladiza.", DecisionRoll, "Climb"},
		{"n2", "Fais un jet d'Escalade, le mur est glissant.", DecisionRoll, "Climb"},
	})
}

// TestProbeSeventhRoundLanguageRefusals holds a Keeper who declines the role in each
// language: refused.
func TestProbeSeventhRoundLanguageRefusals(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"de1", "Tut mir leid, aber das werde ich nicht als Spielleiter entscheiden.", DecisionRefused, ""},
		{"de2", "Entschuldige, aber ich kann in dieser Lage nicht als Spielleiter urteilen.", DecisionRefused, ""},
		{"fr1", "Désolé, je ne peux pas arbitrer cette scène.", DecisionRefused, ""},
		{"es1", "Lo siento, no puedo arbitrar esta escena.", DecisionRefused, ""},
		{"it1", "Mi dispiace, non posso arbitrare questa scena.", DecisionRefused, ""},
		{"pt1", "Desculpe, não posso arbitrar esta cena.", DecisionRefused, ""},
		// must not fire: a ruling given
		{"n1", "Ich bin hier der Spielleiter: eine Probe auf Klettern.", DecisionRoll, "Climb"},
	})
}

// TestProbeSeventhRoundSlotMisspelling holds a misspelt skill named before "roll"
// ("a Stelth roll"): the skill it misspells, as in a skill field. Another CoC skill's
// own name, or a name two skills are as near, stays as written.
func TestProbeSeventhRoundSlotMisspelling(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"stealth", "Give me a Stelth roll, the guard is pacing.", DecisionRoll, "Stealth"},
		{"listen", "I want a Lisen check before you open the door.", DecisionRoll, "Listen"},
		{"locksmith", "She'll need a Locksmtih roll for the padlock.", DecisionRoll, "Locksmith"},
		{"mechanical", "That's a Mechanical Repiar roll, the gears are rusted.", DecisionRoll, "Mechanical Repair"},
		// must not fire: another skill's own name
		{"n luck", "Make a Luck roll to see if the taxi is there.", DecisionRoll, "Luck"},
		{"n law", "Make a Law roll to recall the statute.", DecisionRoll, "Law"},
		{"n charm", "Make a Charm roll, the clerk is bored.", DecisionRoll, "Charm"},
	})
}

// TestProbeSeventhRoundLanguageSkills holds the other languages' names of the
// taxonomy's skills that the lexicons lacked: the skill they translate.
func TestProbeSeventhRoundLanguageSkills(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"fr1", "Fais un jet de Crocheter, la serrure est vieille.", DecisionRoll, "Locksmith"},
		{"fr2", "Jet d'Armes de poing, il est à vingt mètres.", DecisionRoll, "Firearms"},
		{"de1", "Würfle auf Mechanische Reparatur, der Motor stottert.", DecisionRoll, "Mechanical Repair"},
		{"de2", "Probe auf Handfeuerwaffen.", DecisionRoll, "Firearms"},
		{"es1", "Haz una tirada de Esconderse, la patrulla se acerca.", DecisionRoll, "Stealth"},
		{"es2", "Tirada de Reparación mecánica.", DecisionRoll, "Mechanical Repair"},
		{"it1", "Fai un tiro di Usare biblioteche.", DecisionRoll, "Library Use"},
		{"it2", "Tiro di Nascondersi, il guardiano è sveglio.", DecisionRoll, "Stealth"},
		{"pt1", "Faça um teste de Arrombamento.", DecisionRoll, "Locksmith"},
		{"nl1", "Gooi voor Sloten openen.", DecisionRoll, "Locksmith"},
		{"pl1", "Rzut na Naprawę mechaniczną.", DecisionRoll, "Mechanical Repair"},
		// must not fire: a dice word is no skill
		{"n1", "Tira los dados: una tirada de Trepar.", DecisionRoll, "Climb"},
	})
}

// TestProbeSeventhRoundAliasesInProse holds the weapon nouns and "-ing" forms the
// taxonomy now knows as aliases used as ordinary words beside an unnamed roll: the
// roll names no skill.
func TestProbeSeventhRoundAliasesInProse(t *testing.T) {
	tax := DefaultTaxonomy()
	for _, text := range []string{
		"Guns blazing, you charge in. Roll it.",
		"A knife is in the drawer. Roll.",
		"Your knife skills are fine; make a roll.",
		"The mechanic shrugs at you. Roll for it.",
		"Roll. Good Luck!",
	} {
		if got := ParseReply(text, tax); got.Decision != DecisionRoll || got.Skill != "" {
			t.Errorf("ParseReply(%q) = %v [%s %q]; want roll with no skill", text, got, got.Rule, got.Span)
		}
	}
}

// TestProbeSeventhRoundNoReason holds "I see no reason for a roll" in each language:
// a pass, whatever skill the roll names; a reason granted for a roll stays a roll.
func TestProbeSeventhRoundNoReason(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"es1", "No veo razón para una tirada de Saltar: el charco es pequeño.", DecisionPass, ""},
		{"es2", "Tampoco veo motivo para una tirada de Escuchar, gritan.", DecisionPass, ""},
		{"it1", "Non vedo alcun motivo per un tiro di Nuotare, l'acqua è bassa.", DecisionPass, ""},
		{"de1", "Ich sehe keinen Grund für einen Wurf, die Leiter steht fest.", DecisionPass, ""},
		{"pt1", "Não vejo razão para um teste de Saltar, é um degrau.", DecisionPass, ""},
		{"nl1", "Ik zie geen reden om te gooien, de deur staat open.", DecisionPass, ""},
		{"pl1", "Nie ma powodu do rzutu, drzwi są otwarte.", DecisionPass, ""},
		// must not fire: a reason given for the roll
		{"n1", "Hay motivo para una tirada de Trepar: la pared está mojada.", DecisionRoll, "Climb"},
	})
}
