package check

import (
	"context"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

// planted is a line that would make a careful judge answer "no" to BRF-RA-03 (witnesses
// answer rather than question) if it reached the judge as a witness's words.
const planted = "PLANTED-7Q: Witness, I put it to you: why did you hide the rope?"

// trialWithPlant is a short trial whose player turn carries the planted line. playerFlag
// and role say how the player's turn is marked.
func trialWithPlant(playerFlag bool, role Role) *Transcript {
	return &Transcript{TrialID: "plant", CaseID: "summit-ridge", Models: map[string]string{"judge": "m/x"}, Turns: []Turn{
		{Speaker: "Judge", Role: RoleJudge, Text: "The court is in session."},
		{Speaker: "Witness (Mara Quill)", Role: RoleWitness, Text: "I saw them on the lower trail at half past three."},
		{Speaker: "Witness (Mara Quill)", Role: role, Text: planted, Player: playerFlag},
		{Speaker: "Judge", Role: RoleJudge, Text: "The court finds the accused not guilty."},
	}}
}

func TestEvidenceWithholdsPlayerTurns(t *testing.T) {
	court := DefaultChecklist().Domain
	tests := []struct {
		name   string
		domain Domain
		flag   bool
		role   Role
		shown  bool
	}{
		{"flagged as the player's", court, true, RoleWitness, false},
		{"in a player role without the flag", court, false, RoleDefense, false},
		{"flagged, in a player role", court, true, RoleDefense, false},
		{"a model's turn", court, false, RoleWitness, true},
		{"defense turn in a domain without player roles", Domain{Name: "x"}, false, RoleDefense, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev := Evidence(&tc.domain, trialWithPlant(tc.flag, tc.role))
			if got := strings.Contains(ev, "PLANTED-7Q"); got != tc.shown {
				t.Errorf("planted line in evidence = %v; want %v\n%s", got, tc.shown, ev)
			}
			if !tc.shown && !strings.Contains(ev, "[T3] Witness (player): "+withheld) &&
				!strings.Contains(ev, "[T3] Defense (player): "+withheld) {
				t.Errorf("turn 3 is not marked as a withheld player turn:\n%s", ev)
			}
		})
	}
}

// TestPlayerLineNeverReachesJudge plants a player line that flips the stand-in judge's
// answer when it sees it, and shows that it never reaches any request, so the answer
// stays "yes". The same line in a model's turn does flip it, so the test can fail.
func TestPlayerLineNeverReachesJudge(t *testing.T) {
	tests := []struct {
		name    string
		player  bool
		want    Verdict
		reached bool
	}{
		{"player turn", true, Yes, false},
		{"model turn", false, No, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var seen bodies
			srv := standIn(t, func(req *llmtest.Request) llmtest.Response {
				seen.add(req)
				planted := strings.Contains(req.Messages[0].Text, "PLANTED-7Q")
				return llmtest.Response{Text: judgeReply(req, func(_, q string) bool {
					return planted && strings.Contains(q, "witness answer questions instead of questioning")
				})}
			})
			cl := DefaultChecklist()
			tr := trialWithPlant(tc.player, RoleWitness)
			j, err := Judge(context.Background(), execFor(t, srv, openStore(t, ""), "openai/j"), cl, []*Transcript{tr},
				JudgeOptions{Judges: []llm.ModelName{"openai/j"}})
			if err != nil {
				t.Fatal(err)
			}
			if got := seen.any("PLANTED-7Q"); got != tc.reached {
				t.Errorf("planted line reached the judge = %v; want %v", got, tc.reached)
			}
			for _, r := range j.Ratings {
				if r.ID == "BRF-RA-03" && r.Verdict != tc.want {
					t.Errorf("BRF-RA-03 = %v; want %v", r.Verdict, tc.want)
				}
			}
		})
	}
}

func TestJudgePromptStatesPlayerExclusion(t *testing.T) {
	var seen bodies
	srv := standIn(t, func(req *llmtest.Request) llmtest.Response {
		seen.add(req)
		return llmtest.Response{Text: judgeReply(req, nil)}
	})
	if _, err := Judge(context.Background(), execFor(t, srv, openStore(t, ""), "openai/j"), DefaultChecklist(),
		BuiltinTranscripts()[:1], JudgeOptions{Judges: []llm.ModelName{"openai/j"},
			Cases: map[string]string{"summit-ridge": "State v. Julia Mathers, as the court's record describes it."}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"The human player is the defense attorney; the player's turns are withheld",
		"withheld", "Do not evaluate them", "# Case description\n<record>\n\"State v. Julia Mathers"} {
		if !seen.any(want) {
			t.Errorf("no judge prompt says %q", want)
		}
	}
}
