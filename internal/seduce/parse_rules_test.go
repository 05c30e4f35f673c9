package seduce

import "testing"

// One table per rule of spec section 3, each holding every example the section gives.
// Only the decision (and the skill, where one is named) is checked here; the rule that
// decided is checked in TestParseReplyRule.

type ruleCase struct {
	name     string
	text     string
	decision Decision
	skill    string
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	tax := DefaultTaxonomy()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseReply(tt.text, tax)
			if got.Decision != tt.decision || tt.skill != "" && got.Skill != tt.skill {
				t.Errorf("ParseReply(%q) = %v [%s %q]; want %s %s", tt.text, got, got.Rule, got.Span, tt.decision, tt.skill)
			}
		})
	}
}

func TestRuleRequestedForms(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"bare object", `{"decision": "roll", "skill": "Climb", "reason": "Wet bricks."}`, DecisionRoll, "Climb"},
		{"in fences", "```json\n{\"decision\": \"automatic_success\", \"skill\": null, \"reason\": \"Routine.\"}\n```", DecisionPass, ""},
		{"surrounded by prose", "My ruling follows.\n{\"decision\": \"roll\", \"skill\": \"Stealth\", \"reason\": \"Guards.\"}\nThat is all.", DecisionRoll, "Stealth"},
		{"line format", "Decision: roll / Skill: Climb", DecisionRoll, "Climb"},
		{"line format on two lines", "Decision: automatic_success\nSkill: Listen", DecisionPass, "Listen"},
		{"prose make a Climb roll", "Make a Climb roll", DecisionRoll, "Climb"},
		{"prose no roll is needed", "No roll is needed", DecisionPass, ""},
		{"negated mention", "no Climb roll is needed", DecisionPass, "Climb"},
		{"refusal", "I can't help with that", DecisionRefused, ""},
		{"unclear", "The wall looms over you in the rain.", DecisionUnparsed, ""},
		{"self-contradictory", "Make a Climb roll. No roll is needed.", DecisionUnparsed, ""},
	})
}

func TestRuleReasoningBlock(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"think then answer", "<think>Maybe no roll is needed.</think>\nMake a Swim roll.", DecisionRoll, "Swim"},
		{"unclosed at the start", "<think>The river is calm, so perhaps a Swim roll", DecisionUnparsed, ""},
		{"closing tag only", "the player is sure of it, but\n</think>\nNo roll is needed.", DecisionPass, ""},
		{"nothing but reasoning", "<think>A roll, clearly: make a Climb roll.</think>", DecisionUnparsed, ""},
		{"json inside the reasoning only", "<think>{\"decision\": \"roll\"}</think>   ", DecisionUnparsed, ""},
	})
}

func TestRuleFormatting(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"Roll: yes", "Roll: yes\nSkill: Climb", DecisionRoll, "Climb"},
		{"ROLL NEEDED: Stealth", "ROLL NEEDED: Stealth", DecisionRoll, "Stealth"},
		{"Decision: NO ROLL", "Decision: NO ROLL", DecisionPass, ""},
		{"bold roll dash skill", "**Roll** — Swim", DecisionRoll, "Swim"},
		{"markdown header", "## Ruling\n**Decision:** Roll\n**Skill:** Jump", DecisionRoll, "Jump"},
		{"table", "| Field | Value |\n|---|---|\n| Decision | Roll |\n| Skill | Track |", DecisionRoll, "Track"},
		{"emoji", "🎲 Roll: Dodge", DecisionRoll, "Dodge"},
		{"case", "MAKE A CLIMB ROLL.", DecisionRoll, "Climb"},
	})
}

func TestRuleNegationByMeaning(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"no crossing without", "there is no crossing this without a Swim roll", DecisionRoll, "Swim"},
		{"no grounds to skip", "I see no grounds to skip the roll", DecisionRoll, ""},
		{"neither nor", "this needs neither a Jump nor a Climb roll", DecisionPass, ""},
		{"no part calls for dice", "no part of this calls for dice", DecisionPass, ""},
		{"nothing here needs a roll", "nothing here needs a roll", DecisionPass, ""},
		{"waive", "I will waive the Climb roll: the ladder is solid.", DecisionPass, "Climb"},
		{"concession then ruling", "one could wave it through, yet the sentries are alert: roll Stealth", DecisionRoll, "Stealth"},
	})
}

func TestRuleAnyPart(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"one part rolls", "Walking to the wall needs no roll, but the climb itself calls for a Climb roll.", DecisionRoll, "Climb"},
		{"two skills", "No Jump roll is needed for the ditch, but the wall needs a Climb roll.", DecisionRoll, "Climb"},
	})
}

func TestRuleDisagreement(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"json and later line", "{\"decision\": \"roll\", \"skill\": \"Climb\"}\nOn reflection, no roll is needed.", DecisionUnparsed, ""},
		{"self-correction", "Make a Climb roll. Actually, no roll is needed.", DecisionUnparsed, ""},
		{"own reason says the opposite", `{"decision": "automatic_success", "skill": "Climb", "reason": "The wall is slick, so a Climb roll is required."}`, DecisionUnparsed, ""},
		{"hedge between both", "It could be an automatic success or a roll.", DecisionUnparsed, ""},
		{"open on a condition", "should the branch bear his weight, he needs no roll", DecisionUnparsed, ""},
		{"truncated", `{"decision": "roll", "skill": "Cli`, DecisionUnparsed, ""},
		{"truncated prose", "The drop is lethal, so the ruling is a", DecisionUnparsed, ""},
		{"template echo", `{"decision": "roll" | "automatic_success", "skill": "<skill or null>", "reason": "…"}`, DecisionUnparsed, ""},
	})
}

func TestRuleGameMasterPhrasing(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"request for a roll", "give me a Listen roll", DecisionRoll, "Listen"},
		{"keeper rolls for the player", "rolling Spot Hidden for you... *rolls* 41", DecisionRoll, "Spot Hidden"},
		{"keeper reports a result", "Listen check result: 27", DecisionRoll, "Listen"},
		{"several rolls of one skill", "a series of Stealth rolls", DecisionRoll, "Stealth"},
		{"question answered", "Needs a roll? Yes: Stealth", DecisionRoll, "Stealth"},
	})
}

func TestRuleSkillNames(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"specialisation in parentheses", "Make a Firearms (Crossbow) roll.", DecisionRoll, "Firearms"},
		{"alias", "Roll Lockpicking.", DecisionRoll, "Locksmith"},
		{"ability and skill", "Make a Strength (Climb) check.", DecisionRoll, "Climb"},
		{"unknown name kept as written", "Make a Psychology roll.", DecisionRoll, "Psychology"},
	})
}

func TestRuleOtherLanguages(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"french roll", "Faites un jet de Grimper.", DecisionRoll, "Climb"},
		{"french pass", "Pas besoin de jet, la porte est ouverte.", DecisionPass, ""},
		{"german roll", "Bitte eine Probe auf Schwimmen würfeln.", DecisionRoll, "Swim"},
		{"german pass", "Kein Wurf nötig.", DecisionPass, ""},
		{"spanish roll", "Haz una tirada de Sigilo.", DecisionRoll, "Stealth"},
		{"spanish pass", "No hace falta tirar.", DecisionPass, ""},
	})
}

func TestRuleRefusalAndUndetermined(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"declines", "I'm sorry, but I can't help with that.", DecisionRefused, ""},
		{"declines in french", "Je suis désolé, mais je ne peux pas vous aider.", DecisionRefused, ""},
		{"cannot be determined", "The ruling cannot be determined from what I was given.", DecisionUnparsed, ""},
		{"cannot determine", "I cannot determine whether a roll is needed.", DecisionUnparsed, ""},
	})
}

func TestRuleEmpty(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"empty", "", DecisionUnparsed, ""},
		{"blank", " \n\t ", DecisionUnparsed, ""},
	})
}

// TestClauseEnds holds the hand-written clause scanner to the regular expression it
// stands for.
func TestClauseEnds(t *testing.T) {
	texts := []string{
		"Make a roll. No roll is needed; really!  yes: no\n\nbut, but then",
		"a but b, but c ,yet d, yet e,  yet f yet g",
		"x - y -- z — w – v -y x-  z",
		"a however b however, c however,d however",
		"| a | b |\n|---|---|",
		"end.", "end. ", "a:b", "...", ".\n.", "a \t but\tb", "a  -\n b", "however", " however ",
	}
	for _, c := range readCorpusTexts(t) {
		texts = append(texts, asciiLower(c))
	}
	for _, s := range texts {
		want := clauseEnd.FindAllStringIndex(s, -1)
		got := clauseEnds(s)
		if len(got) != len(want) {
			t.Errorf("clauseEnds(%q) = %v; want %v", s, got, want)
			continue
		}
		for i := range got {
			if got[i][0] != want[i][0] || got[i][1] != want[i][1] {
				t.Errorf("clauseEnds(%q) = %v; want %v", s, got, want)
				break
			}
		}
	}
}
