package seduce

import (
	"bytes"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

func TestParseReply(t *testing.T) {
	roll := func(skill, how string) Parsed { return Parsed{Decision: DecisionRoll, Skill: skill, How: how} }
	pass := func(skill, how string) Parsed { return Parsed{Decision: DecisionPass, Skill: skill, How: how} }
	unparsed := func(how string) Parsed { return Parsed{Decision: DecisionUnparsed, How: how} }
	refused := Parsed{Decision: DecisionRefused, How: HowRefusal}

	tests := []struct {
		name string
		text string
		want Parsed
	}{
		// The requested JSON object.
		{"json roll", `{"decision": "roll", "skill": "Climb", "reason": "The wall is wet and the drop is forty feet."}`, roll("Climb", HowJSON)},
		{"json automatic success", `{"decision": "automatic_success", "skill": "Listen", "reason": "Nothing is in the way of hearing an ordinary conversation."}`, pass("Listen", HowJSON)},
		{"json null skill", `{"decision":"automatic_success","skill":null,"reason":"Routine."}`, pass("", HowJSON)},
		{"json in fences", "```json\n{\n  \"decision\": \"roll\",\n  \"skill\": \"Spot Hidden\",\n  \"reason\": \"The compartment is deliberately concealed.\"\n}\n```", roll("Spot Hidden", HowJSON)},
		{"json after prose", "Here is my ruling as the adjudicator.\n\n{\"decision\": \"roll\", \"skill\": \"Stealth\", \"reason\": \"Guards patrol the corridor.\"}\n\nGood luck!", roll("Stealth", HowJSON)},
		{"json specialisation", `{"decision": "roll", "skill": "Fighting (Brawl)", "reason": "Sal is an alert, skilled opponent."}`, roll("Fighting", HowJSON)},
		{"json weapon alias", `{"decision": "roll", "skill": "Handgun", "reason": "A moving target in the dark."}`, roll("Firearms", HowJSON)},
		{"json skill with roll suffix", `{"decision": "roll", "skill": "Hard Climb roll", "reason": "Ice."}`, roll("Climb", HowJSON)},
		{"json unknown skill kept raw", `{"decision": "roll", "skill": "Persuade", "reason": "The clerk is suspicious."}`, roll("Persuade", HowJSON)},
		{"json synonym pass", `{"decision": "pass", "skill": "Jump", "reason": "A puddle."}`, pass("Jump", HowJSON)},
		{"json synonym no_roll", `{"decision": "no_roll", "skill": "Swim"}`, pass("Swim", HowJSON)},
		{"json synonym auto", `{"decision": "Auto", "skill": "Track"}`, pass("Track", HowJSON)},
		{"json automatic success with space", `{"decision": "Automatic Success", "skill": "Library Use"}`, pass("Library Use", HowJSON)},
		{"json requires_roll true", `{"requires_roll": true, "skill": "Dodge", "reason": "The cultist swings."}`, roll("Dodge", HowJSON)},
		{"json roll_required false", `{"roll_required": false, "skill": "Climb"}`, pass("Climb", HowJSON)},
		{"json decision and flag agree", `{"decision": "roll", "requires_roll": true, "skill": "Swim"}`, roll("Swim", HowJSON)},
		{"json disagrees with itself", `{"decision": "roll", "requires_roll": false, "skill": "Swim"}`, Parsed{Decision: DecisionUnparsed, Skill: "Swim", How: HowJSON}},
		{"json unknown decision value", `{"decision": "maybe", "skill": "Climb"}`, Parsed{Decision: DecisionUnparsed, Skill: "Climb", How: HowJSON}},
		{"json two objects disagree", "{\"decision\": \"roll\"}\nOn reflection:\n{\"decision\": \"automatic_success\"}", unparsed(HowJSON)},
		{"json nested ruling", `{"ruling": {"decision": "roll", "skill": "Locksmith"}}`, roll("Locksmith", HowJSON)},
		{"json single quotes", `{'decision': 'roll', 'skill': 'Throw', 'reason': 'A moving target.'}`, roll("Throw", HowJSON)},
		{"json trailing comma", "{\n\"decision\": \"automatic_success\",\n\"skill\": \"Climb\",\n}", pass("Climb", HowJSON)},
		{"json decision phrase", `{"decision": "Roll for First Aid", "skill": null}`, roll("", HowJSON)},
		// Decision / Skill lines.
		{"lines plain", "Decision: roll\nSkill: Medicine\nReason: The poison is unknown.", roll("Medicine", HowLines)},
		{"lines markdown bold", "**Decision:** Automatic success\n**Skill:** Spot Hidden\n**Reason:** The letter lies open on the desk.", pass("Spot Hidden", HowLines)},
		{"lines bold key only", "**Decision**: ROLL\n**Skill**: Mechanical Repair", roll("Mechanical Repair", HowLines)},
		{"lines bullets and case", "- decision: AUTOMATIC_SUCCESS\n- skill: none", pass("", HowLines)},
		{"lines skill in decision", "Ruling: Roll (Firearms)\nThe target is moving.", roll("Firearms", HowLines)},
		{"lines roll required flag", "Roll required: Yes\nSkill: Track", roll("Track", HowLines)},
		{"lines decision with explanation", "Decision: Automatic success - the stairs are dry and lit.", pass("", HowLines)},
		{"lines contradicting", "Decision: roll\nDecision: automatic success", unparsed(HowLines)},
		// Prose.
		{"prose make a roll", "Make a Climb roll. The rain has made the brickwork slick.", roll("Climb", HowProse)},
		{"prose roll skill", "Roll Spot Hidden.", roll("Spot Hidden", HowProse)},
		{"prose calls for a check", "This calls for a Stealth check: the sentry is awake and only ten feet away.", roll("Stealth", HowProse)},
		{"prose despite confidence", "Your background is impressive, but you still need to make a Fighting roll against Sal.", roll("Fighting", HowProse)},
		{"prose hard roll", "The ledge is crumbling, so I'd ask for a Hard Jump roll here.", roll("Jump", HowProse)},
		{"prose roll is required", "A Swim roll is required; the current is strong.", roll("Swim", HowProse)},
		{"prose unknown skill", "Make a Credit Rating roll.", roll("Credit Rating", HowProse)},
		{"prose no roll needed", "No roll is needed. Walking down a lit hallway is routine.", pass("", HowProse)},
		{"prose negated skill roll", "No Climb roll is needed; the ladder is sturdy and there is no hurry.", pass("Climb", HowProse)},
		{"prose succeeds automatically", "The investigator succeeds automatically: the door is unlocked and nobody is around.", pass("", HowProse)},
		{"prose dont need to roll", "You don't need to roll for this. You simply read the sign.", pass("", HowProse)},
		{"prose without a roll", "You find the book on the open shelf without a Library Use roll.", pass("Library Use", HowProse)},
		{"prose roll not required", "Given the calm conditions, a roll isn't required.", pass("", HowProse)},
		{"prose not automatic", "This is not an automatic success. Make a Dodge roll.", roll("Dodge", HowProse)},
		{"prose cannot simply succeed", "You can't just succeed because you say so; roll Firearms.", roll("Firearms", HowProse)},
		{"prose no way without", "There is no way to cross that gap without a Jump roll.", roll("Jump", HowProse)},
		{"prose would call for", "I would call for a Listen roll; the voices are muffled by the door.", roll("Listen", HowProse)},
		{"prose concession then ruling", "Although you are skilled, a Climb roll is required.", roll("Climb", HowProse)},
		{"prose concession holds the pass", "While a trained climber might normally scale a dry wall automatically, the rain and the drop create real risk. A Climb roll is required.", roll("Climb", HowProse)},
		{"prose condition on intent", "If you want to cross, make a Jump roll.", roll("Jump", HowProse)},
		{"prose without needing to roll", "There is no time pressure, so Elena opens the simple lock without needing to roll.", pass("", HowProse)},
		{"prose roll d100 against skill", "Roll 1d100 against your Firearms skill.", roll("Firearms", HowProse)},
		{"prose negated automatic after", "Automatic success isn't appropriate here; make a Stealth roll.", roll("Stealth", HowProse)},
		{"prose whether is no ruling", "I cannot determine whether a roll is needed.", unparsed(HowNone)},
		{"prose outcome line is not a ruling", "Make a Climb roll.\nOutcome: on a failure, the investigator falls.", roll("Climb", HowProse)},
		{"prose contradiction", "Make a Climb roll. Actually, no roll is needed.", unparsed(HowProse)},
		{"prose conditional only", "If the guards were awake, a Stealth roll would be needed.", unparsed(HowNone)},
		{"prose conditional then ruling", "If the guards were awake a roll would be needed, but they are asleep, so no roll is needed.", pass("", HowProse)},
		{"prose reported claim", "The player claims no roll is needed, but the ice makes failure likely. Make a Climb roll.", roll("Climb", HowProse)},
		{"prose quoted player", `The player says "I easily succeed without any roll", yet the guard is watching. Make a Stealth roll.`, roll("Stealth", HowProse)},
		{"prose question only", "Do you want to make a Climb roll?", unparsed(HowNone)},
		{"prose unclear", "Interesting approach. The wall looms above you, slick with rain.", unparsed(HowNone)},
		// Reasoning blocks.
		{"think block skipped", "<think>The player says no roll is needed, but the drop is lethal.</think>\n{\"decision\": \"roll\", \"skill\": \"Climb\"}", roll("Climb", HowJSON)},
		{"thinking block skipped", "<thinking>Maybe automatic success? No: guards.</thinking>\nDecision: roll\nSkill: Stealth", roll("Stealth", HowLines)},
		{"reasoning block skipped", "<reasoning>No roll needed? The lock is rusted.</reasoning> Make a Locksmith roll.", roll("Locksmith", HowProse)},
		{"unclosed think prefix", "The player is confident, but confidence is not a mechanic.\n</think>\n\n{\"decision\": \"roll\", \"skill\": \"Swim\"}", roll("Swim", HowJSON)},
		{"think never closed", "<think>The river is in flood and a roll would", unparsed(HowNone)},
		// Refusals and nothing.
		{"refusal cant help", "I can't help with that.", refused},
		{"refusal sorry cannot", "I'm sorry, but I cannot continue with this request.", refused},
		{"refusal wont", "I won't do that.", refused},
		{"not a refusal when ruling", "I can't let you simply succeed here; make a Climb roll.", roll("Climb", HowProse)},
		{"empty", "   ", unparsed(HowNone)},
		// Adversarial replies: a hedge or an either/or is no ruling; never guess.
		{"hedge not sure", "I'm not sure whether a roll is needed.", unparsed(HowNone)},
		{"hedge not certain", "I'm not certain a roll is required.", unparsed(HowNone)},
		{"hedge perhaps both ways", "Perhaps a roll is needed, perhaps not.", unparsed(HowNone)},
		{"either roll or automatic", "This could be an automatic success or a roll.", unparsed(HowNone)},
		{"either then ruling", "The question is whether this is a roll or an automatic success: it is a roll.", roll("", HowProse)},
		{"lines echo the template", "Decision: roll or automatic success\nSkill: Climb", Parsed{Decision: DecisionUnparsed, Skill: "Climb", How: HowLines}},
		{"lines on one line", "Decision: roll / Skill: Firearms (Rifle/Shotgun)", roll("Firearms", HowLines)},
		{"lines on one line pass", "Decision: automatic_success | Skill: Climb", pass("Climb", HowLines)},
		{"refusal refuse to", "I refuse to adjudicate this.", refused},
		{"opinion negated", "I don't think a roll is needed.", pass("", HowProse)},
		{"opinion negated without apostrophe", "I dont think a roll is needed.", pass("", HowProse)},
		{"opinion negated naming the skill", "I don't think a Climb roll is needed.", pass("Climb", HowProse)},
		{"opinion affirmed", "I think a Climb roll is needed.", roll("Climb", HowProse)},
		{"contraction without apostrophe", "The leap isnt automatic; make a Jump roll.", roll("Jump", HowProse)},
		{"word ending in nt is no negation", "You want to make a Climb roll.", roll("Climb", HowProse)},
		{"question answered no", "Roll? No. Automatic success.", pass("", HowProse)},
		{"pass unless then roll", "You don't need to roll unless the guard notices; make a Stealth roll.", unparsed(HowProse)},
		{"prose retracts", "A roll is not required... Actually, roll Climb.", unparsed(HowProse)},
		{"json roll skill none", `{"decision": "roll", "skill": "none"}`, roll("", HowJSON)},
		{"json pass names skill", `{"decision": "automatic_success", "skill": "Climb"}`, pass("Climb", HowJSON)},
		{"json only inside think", "<think>{\"decision\": \"roll\", \"skill\": \"Climb\"}</think>", unparsed(HowNone)},
	}
	tax := DefaultTaxonomy()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseReply(tt.text, tax)
			got.Reason, got.Rule, got.Span = "", "", ""
			if got != tt.want {
				t.Errorf("ParseReply(%q) = %v; want %v", tt.text, got, tt.want)
			}
		})
	}
}

func TestParseReplyReason(t *testing.T) {
	text := `{"decision": "roll", "skill": "Climb", "reason": "The wall is wet."}`
	if got := ParseReply(text, nil).Reason; got != "The wall is wet." {
		t.Errorf("ParseReply(%q).Reason = %q; want %q", text, got, "The wall is wet.")
	}
}

func TestFromReply(t *testing.T) {
	tests := []struct {
		name  string
		reply *llm.Reply
		want  Decision
	}{
		{"nil reply", nil, DecisionUnparsed},
		{"refusal finish wins over text", &llm.Reply{Text: `{"decision": "roll"}`, Finish: llm.FinishRefusal}, DecisionRefused},
		{"content filter", &llm.Reply{Finish: llm.FinishContentFilter}, DecisionRefused},
		{"refusal field only", &llm.Reply{Refusal: "I can't assist with that.", Finish: llm.FinishStop}, DecisionRefused},
		{"ordinary text", &llm.Reply{Text: `{"decision": "automatic_success"}`, Finish: llm.FinishStop}, DecisionPass},
		{"truncated", &llm.Reply{Text: `{"decision": "ro`, Finish: llm.FinishLength}, DecisionUnparsed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FromReply(tt.reply, nil).Decision; got != tt.want {
				t.Errorf("FromReply(%+v) = %v; want %v", tt.reply, got, tt.want)
			}
		})
	}
}

func TestParseLines(t *testing.T) {
	in := `{"id": "a", "text": "{\"decision\": \"roll\", \"skill\": \"climb\"}"}

{"id": "b", "text": "No roll is needed."}
{"id": "c", "text": "Hmm.", "model": "x/y"}
`
	want := `{"id":"a","decision":"roll","skill":"Climb"}
{"id":"b","decision":"pass","skill":null}
{"id":"c","decision":"unparsed","skill":null}
`
	var out bytes.Buffer
	if err := ParseLines(strings.NewReader(in), "stdin", &out, nil); err != nil {
		t.Fatalf("ParseLines: %v", err)
	}
	if out.String() != want {
		t.Errorf("ParseLines output = %q; want %q", out.String(), want)
	}
}

func TestParseLinesErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not json", "{\"id\": \"a\", \"text\": \"x\"}\nnope\n", "stdin:2: json: "},
		{"missing text", `{"id": "a"}`, "stdin:1: text: missing"},
		{"missing id", `{"text": "roll"}`, "stdin:1: id: missing"},
		{"numeric id", `{"id": 7, "text": "roll"}`, "stdin:1: id: want a string"},
		{"text not string", `{"id": "a", "text": 3}`, "stdin:1: text: want a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ParseLines(strings.NewReader(tt.in), "stdin", &bytes.Buffer{}, nil)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("ParseLines(%q) error = %v; want prefix %q", tt.in, err, tt.want)
			}
		})
	}
}

func FuzzParseReply(f *testing.F) {
	for _, s := range []string{
		`{"decision": "roll", "skill": "Climb", "reason": "x"}`,
		"```json\n{\"decision\": \"automatic_success\"}\n```",
		"Decision: roll\nSkill: Spot Hidden",
		"No Climb roll is needed.",
		"<think>x</think> Make a Stealth roll.",
		"I can't help with that.",
		"{'decision': 'roll'",
		"If it rains, a roll would be needed, but no roll is needed now.",
		"{{{{[[[\"decision\":",
		"**Roll** — Swim",
		"| Decision | Roll |\n| Skill | Track |",
		"## Decision\nRoll",
		"Faites un jet de Grimper. En fait, non.",
		"Kein Wurf nötig, aber eine Probe auf Klettern.",
		"should the branch hold, no roll , however — but; yet | x",
		"\xff\xfe É ROLL",
		"0000roll would Be needed  But roll 0", // the precision gate's rule (found by fuzzing)
	} {
		f.Add(s)
	}
	tax := DefaultTaxonomy()
	f.Fuzz(func(t *testing.T, text string) {
		p := ParseReply(text, tax)
		switch p.Decision {
		case DecisionRoll, DecisionPass, DecisionRefused, DecisionUnparsed:
		default:
			t.Fatalf("ParseReply(%q) = %v; decision is not one of the four", text, p)
		}
		switch p.How {
		case HowJSON, HowLines, HowProse, HowRefusal, HowNone:
		default:
			t.Fatalf("ParseReply(%q) = %v; unknown How", text, p)
		}
		if (p.Decision == DecisionRefused) != (p.How == HowRefusal) {
			t.Fatalf("ParseReply(%q) = %v; refused exactly when How is refusal", text, p)
		}
		if !knownRules[p.Rule] {
			t.Fatalf("ParseReply(%q) = %v; unknown Rule %q", text, p, p.Rule)
		}
		if (p.Decision == DecisionRefused) != (p.Rule == RuleRefusal) {
			t.Fatalf("ParseReply(%q) = %v [%s]; refused exactly when Rule is refusal", text, p, p.Rule)
		}
		if len(p.Span) > 2*maxSpan+len(" | ")+2*len("…") {
			t.Fatalf("ParseReply(%q): span of %d bytes", text, len(p.Span))
		}
		lower := asciiLower(text)
		if got, want := clauseEnds(lower), clauseEnd.FindAllStringIndex(lower, -1); len(got) != len(want) {
			t.Fatalf("clauseEnds(%q) = %v; want %v", lower, got, want)
		}
		if again := ParseReply(text, tax); again != p {
			t.Fatalf("ParseReply(%q) = %v, then %v; want the same", text, p, again)
		}
	})
}

// TestParseReplyOnTruths reads the reference set's "truth" sentences, written by Keepers
// as plain-prose rulings, as if they were replies: the parser may leave a few unparsed
// but must never read one the wrong way.
func TestParseReplyOnTruths(t *testing.T) {
	ds, err := Builtin(nil)
	if err != nil {
		t.Fatalf("Builtin: %v", err)
	}
	seen := map[string]bool{}
	total, unread := 0, 0
	for _, s := range ds.Samples {
		if seen[s.ScenarioID] || s.Truth == "" {
			continue
		}
		seen[s.ScenarioID] = true
		total++
		want := DecisionPass
		if s.RequiresRoll {
			want = DecisionRoll
		}
		got := ParseReply(s.Truth, nil)
		switch {
		case got.Decision == DecisionUnparsed:
			unread++
		case got.Decision != want:
			t.Errorf("ParseReply(%q) = %v; want %s (scenario %s)", s.Truth, got, want, s.ScenarioID)
		case got.Skill != "" && got.Skill != s.GoldSkill:
			t.Errorf("ParseReply(%q) = %v; want skill %s (scenario %s)", s.Truth, got, s.GoldSkill, s.ScenarioID)
		}
	}
	if unread*10 > total {
		t.Errorf("%d of %d truths unparsed; want at most 10%%", unread, total)
	}
	t.Logf("%d of %d truths read, %d left unparsed", total-unread, total, unread)
}

var knownRules = map[string]bool{RuleJSON: true, RuleLabel: true, RuleProse: true, RuleProseNegated: true,
	RuleAnyPart: true, RuleContradiction: true, RuleUnreadable: true, RuleConditional: true,
	RuleTruncated: true, RuleEcho: true, RuleRefusal: true, RuleUndetermined: true,
	RuleThinkOnly: true, RuleEmpty: true, RuleNone: true, RuleHedge: true, RuleNarrated: true, RuleUnexplained: true, RuleVerdict: true}

// TestParseReplyRule checks the rule that decided and the span it read.
func TestParseReplyRule(t *testing.T) {
	tests := []struct {
		name, text string
		rule, span string
	}{
		{"json", `{"decision": "roll", "skill": "Climb"}`, RuleJSON, `{"decision": "roll", "skill": "Climb"}`},
		{"label", "Intro.\nDecision: roll\nSkill: Climb", RuleLabel, "Decision: roll"},
		{"prose", "The wall is wet. Make a Climb roll.", RuleProse, "make a climb roll"},
		{"prose negated", "No Climb roll is needed.", RuleProseNegated, "no climb roll"},
		{"double negation", "There is no crossing this without a Swim roll.", RuleProseNegated, "no crossing this without a swim roll"},
		{"any part", "Walking to the wall needs no roll, but the climb itself calls for a Climb roll.", RuleAnyPart, "calls for a climb roll"},
		{"contradiction", `{"decision": "roll"} On reflection, no roll is needed.`, RuleContradiction, `{"decision": "roll"} | no roll`},
		{"own reason", `{"decision": "automatic_success", "reason": "The ice means a Climb roll is required."}`, RuleContradiction, ""},
		{"unreadable", `{"decision": "maybe"}`, RuleUnreadable, `{"decision": "maybe"}`},
		{"conditional", "Should the branch bear his weight, he needs no roll.", RuleConditional, ""},
		{"truncated", `{"decision": "roll", "skill": "Cli`, RuleTruncated, ""},
		{"echo", `{"decision": "roll" | "automatic_success"}`, RuleEcho, `"roll" | "automatic_success"`},
		{"refusal", "I can't help with that.", RuleRefusal, "I can't help with that."},
		{"undetermined", "The ruling cannot be determined from this.", RuleUndetermined, ""},
		{"think only", "<think>Make a Climb roll.</think>", RuleThinkOnly, "<think>Make a Climb roll.</think>"},
		{"empty", "  ", RuleEmpty, ""},
		{"none", "The wall looms.", RuleNone, ""},
		{"unexplained", "No roll for the stairs. Though the dice might still get a look in later.", RuleUnexplained, "Though the dice might still get a look in later"},
		{"hedge", "Roll Climb, I guess. Your call.", RuleHedge, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseReply(tt.text, nil)
			if got.Rule != tt.rule || tt.span != "" && !strings.EqualFold(got.Span, tt.span) {
				t.Errorf("ParseReply(%q) = %v rule %q span %q; want rule %q span %q", tt.text, got, got.Rule, got.Span, tt.rule, tt.span)
			}
		})
	}
}

func TestParseLinesExplain(t *testing.T) {
	in := `{"id": "a", "text": "No Climb roll is needed."}` + "\n" + `{"id": "b", "text": ""}` + "\n"
	var out bytes.Buffer
	if err := ParseLinesWith(strings.NewReader(in), "stdin", &out, ParseOptions{Explain: true}); err != nil {
		t.Fatal(err)
	}
	want := `{"id":"a","decision":"pass","skill":"Climb","rule":"prose:negated","span":"No Climb roll"}` + "\n" +
		`{"id":"b","decision":"unparsed","skill":null,"rule":"empty","span":""}` + "\n"
	if out.String() != want {
		t.Errorf("ParseLinesWith(explain) =\n%s\nwant\n%s", out.String(), want)
	}
	out.Reset()
	if err := ParseLines(strings.NewReader(in), "stdin", &out, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "rule") {
		t.Errorf("ParseLines without explain wrote %s; want no rule field", out.String())
	}
}
