package seduce

import (
	"context"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
)

// ask sends one sample through a baseline as a runner would and parses the reply.
func ask(t *testing.T, m llm.Model, s Sample) (Parsed, *llm.Reply) {
	t.Helper()
	reply, err := m.Generate(context.Background(), DefaultPrompt(nil).Request(s))
	if err != nil {
		t.Fatalf("%s.Generate(%s): %v", m.Name(), s.ID, err)
	}
	return FromReply(reply, nil), reply
}

func TestKeywordBaseline(t *testing.T) {
	tests := []struct {
		name      string
		context   string
		statement string
		want      Decision
		skill     string
		cues      []string // words the reason must name
	}{
		{"risky climb", "Night and a storm. The cliff is slick with ice above a sheer drop of forty feet; Ada (Climb 35%) must reach the ledge before the cultists arrive.",
			"I climb up to the ledge.", DecisionRoll, "Climb", []string{"storm", "slick", "sheer", "drop", "a rating of 35%"}},
		{"calm search", "A quiet afternoon in the study. The letter lies in plain sight on the desk; there is no hurry and nothing is at stake.",
			"I look over the desk for the letter.", DecisionPass, "Spot Hidden", []string{"in plain sight", "no hurry", "nothing is at stake"}},
		{"no cues defaults to roll", "Ada stands by the river.", "I swim across.", DecisionRoll, "Swim", []string{"no risk or calm cues"}},
		{"statement rhetoric is ignored", "Guards patrol the corridor, alert after the alarm; the sentry at the far end is watching the door.",
			"Routinely and with no risk at all, being perfectly safe and calm, I sneak past.", DecisionRoll, "Stealth", []string{"Guards", "alarm", "sentry"}},
		{"calm outweighs a weak risk", "A routine morning at the dock: the water is shallow and calm, the day is warm and there is plenty of time. The rowboat is moving gently.",
			"I swim out to the rowboat.", DecisionPass, "Swim", []string{"routine", "plenty of time"}},
		{"context words outweigh statement words", "The padlock on the chest is rusted; footsteps approach from the hall.",
			"I shoot... no, I pick the lock with a pin.", DecisionRoll, "Locksmith", nil},
	}
	m := Baselines(nil)[BaselineKeyword]
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Sample{ID: "k", Context: tt.context, Statement: tt.statement}
			got, reply := ask(t, m, s)
			if got.Decision != tt.want || got.Skill != tt.skill || got.How != HowJSON {
				t.Errorf("keyword(%q, %q) = %v; want %s %s (json)", tt.context, tt.statement, got, tt.want, tt.skill)
			}
			for _, c := range tt.cues {
				if !strings.Contains(got.Reason, c) {
					t.Errorf("keyword reason %q does not name %q", got.Reason, c)
				}
			}
			if reply.Finish != llm.FinishStop || reply.Model != "keyword" || reply.Attempts != 1 {
				t.Errorf("reply = %+v; want finish stop, model keyword, 1 attempt", reply)
			}
		})
	}
}

func TestAlwaysAndNeverRoll(t *testing.T) {
	s := Sample{ID: "x", Context: "A quiet, routine afternoon; nothing at stake.", Statement: "I climb the ladder."}
	ms := Baselines(nil)
	if len(ms) != 3 {
		t.Fatalf("Baselines() = %d models; want 3", len(ms))
	}
	for name, want := range map[llm.ModelName]Decision{BaselineAlwaysRoll: DecisionRoll, BaselineNeverRoll: DecisionPass} {
		got, _ := ask(t, ms[name], s)
		if got.Decision != want || got.Skill != "Climb" {
			t.Errorf("%s = %v; want %s Climb", name, got, want)
		}
		if ms[name].Name() != name {
			t.Errorf("Baselines()[%s].Name() = %s", name, ms[name].Name())
		}
	}
}

// TestKeywordIgnoresStyle checks the keyword baseline's defining property on every
// scenario of the reference set: the four styles of a scenario get one ruling.
func TestKeywordIgnoresStyle(t *testing.T) {
	ds, err := Builtin(nil)
	if err != nil {
		t.Fatalf("Builtin: %v", err)
	}
	m := Baselines(nil)[BaselineKeyword]
	rulings := map[string]Decision{}
	correct := 0
	for _, s := range ds.Samples {
		got, _ := ask(t, m, s)
		if got.Decision != DecisionRoll && got.Decision != DecisionPass {
			t.Fatalf("keyword reply for %s parsed as %v", s.ID, got)
		}
		if first, seen := rulings[s.ScenarioID]; seen && first != got.Decision {
			t.Errorf("keyword rules %s on %s but %s on another style of %s", got.Decision, s.ID, first, s.ScenarioID)
		}
		rulings[s.ScenarioID] = got.Decision
		if (got.Decision == DecisionRoll) == s.RequiresRoll {
			correct++
		}
	}
	t.Logf("keyword baseline agrees with the reference truth on %d of %d samples", correct, len(ds.Samples))
}

func TestBaselineDeterministic(t *testing.T) {
	s := Sample{ID: "x", Context: "Rain, a wet wall and a guard nearby.", Statement: "I climb over."}
	for name, m := range Baselines(nil) {
		_, a := ask(t, m, s)
		_, b := ask(t, m, s)
		if a.Text != b.Text {
			t.Errorf("%s replied %q then %q; want the same", name, a.Text, b.Text)
		}
	}
}

func TestBaselineBadRequest(t *testing.T) {
	m := Baselines(nil)[BaselineKeyword]
	if _, err := m.Generate(context.Background(), llm.UserText("sys", "just a question")); err == nil {
		t.Errorf("Generate(request without the adjudicator layout) = nil error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Generate(ctx, DefaultPrompt(nil).Request(Sample{Context: "c", Statement: "s"})); err == nil {
		t.Errorf("Generate(cancelled context) = nil error")
	}
}

func TestKeywordTableParses(t *testing.T) {
	tax := DefaultTaxonomy()
	k, err := parseKeywordRules(keywordsYAML, tax)
	if err != nil {
		t.Fatalf("keywords.yaml: %v", err)
	}
	covered := map[string]bool{}
	for _, p := range k.skills.all {
		covered[p.skill] = true
	}
	for _, s := range tax.Skills() {
		if !covered[s] {
			t.Errorf("keywords.yaml has no keyword for %s", s)
		}
	}
	if _, err := parseKeywordRules([]byte("wieghts: {}"), tax); err == nil {
		t.Errorf("parseKeywordRules(misspelt key) = nil error")
	}
}
