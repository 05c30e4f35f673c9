package court

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// contradicted is the fixture with a third item and three contradictions: one of the
// watchman's, and two of the pawnbroker's that share an item.
func contradicted(t testing.TB) *Case {
	t.Helper()
	c := fixture(t)
	c.Evidence = append(c.Evidence, Evidence{ID: "E3", Name: "Shop ledger", Description: "the pawnbroker's ledger for that week"})
	c.Contradictions = []Contradiction{
		{ID: "C1", Witness: "tomas", Claim: "He saw Varga's face by the office lamp.", Evidence: []string{"E1"}, Explanation: "The key log shows the fog-bound office dark: no lamp was lit."},
		{ID: "C2", Witness: "nell", Claim: "The lantern was pawned the morning after the theft.", Evidence: []string{"E2", "E3"}, Explanation: "The ticket and the ledger both date it six days later."},
		{ID: "C3", Witness: "nell", Claim: "She never buys without proof of identity.", Evidence: []string{"E3"}, Explanation: "The ledger records no identity for M. Orr."},
	}
	if err := Validate(c, "contradicted.json"); err != nil {
		t.Fatalf("Validate = %v", err)
	}
	return c
}

func TestExpose(t *testing.T) {
	c := contradicted(t)
	tests := []struct {
		name              string
		witness, evidence string
		exposed           []string
		want              string // the contradiction's id, "" for a miss
		wantErr           bool
	}{
		{"hit", "tomas", "E1", nil, "C1", false},
		{"hit by any of its items", "nell", "E2", nil, "C2", false},
		{"first in record order", "nell", "E3", nil, "C2", false},
		{"next once the first is exposed", "nell", "E3", []string{"C2"}, "C3", false},
		{"other witnesses' exposures do not count", "nell", "E2", []string{"C1", "C3"}, "C2", false},
		{"wrong item", "tomas", "E2", nil, "", false},
		{"wrong witness", "nell", "E1", nil, "", false},
		{"wrong witness for a shared item", "tomas", "E3", nil, "", false},
		{"already exposed", "tomas", "E1", []string{"C1"}, "", false},
		{"all of the item's exposed", "nell", "E3", []string{"C3", "C2"}, "", false},
		{"unknown evidence", "tomas", "E9", nil, "", true},
		{"blank evidence", "tomas", "", nil, "", true},
		{"unknown witness", "mara", "E1", nil, "", true},
		{"nobody on the stand", "", "E1", nil, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, ok, err := c.Expose(tt.witness, tt.evidence, tt.exposed)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Expose(%q, %q, %v) error = %v; want error %v", tt.witness, tt.evidence, tt.exposed, err, tt.wantErr)
			}
			if ok != (tt.want != "") || x.ID != tt.want {
				t.Errorf("Expose(%q, %q, %v) = %q, %v; want %q", tt.witness, tt.evidence, tt.exposed, x.ID, ok, tt.want)
			}
			if ok && x.Witness != tt.witness {
				t.Errorf("Expose exposed %s of %s; want one of %s", x.ID, x.Witness, tt.witness)
			}
		})
	}
	t.Run("a case without contradictions", func(t *testing.T) {
		if x, ok, err := fixture(t).Expose("tomas", "E1", nil); ok || err != nil {
			t.Errorf("Expose = %+v, %v, %v; want a miss", x, ok, err)
		}
	})
}

// publicCases are the cases whose public form is checked: the bundled ones and the
// fixture with contradictions.
func publicCases(t *testing.T) []*Case {
	t.Helper()
	cs, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	return append(slices.Clone(cs), contradicted(t))
}

// jsonStrings collects every string, key or value, in decoded JSON.
func jsonStrings(v any, out *[]string) {
	switch x := v.(type) {
	case string:
		*out = append(*out, x)
	case []any:
		for _, it := range x {
			jsonStrings(it, out)
		}
	case map[string]any:
		for k, it := range x {
			*out = append(*out, k)
			jsonStrings(it, out)
		}
	}
}

func TestPublicHidesSecrets(t *testing.T) {
	for _, c := range publicCases(t) {
		t.Run(c.ID, func(t *testing.T) {
			b, err := json.Marshal(c.Public())
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			var strs []string
			jsonStrings(v, &strs)
			text := strings.Join(strs, "\n")
			var secrets []string
			for _, w := range c.Witnesses {
				secrets = append(secrets, w.Knows...)
			}
			for _, x := range c.Contradictions {
				secrets = append(secrets, x.Claim, x.Explanation)
			}
			if len(secrets) == 0 {
				t.Fatal("the case has no secret to hide: the test proves nothing")
			}
			for _, s := range secrets {
				if strings.Contains(text, s) {
					t.Errorf("the public case shows %q", s)
				}
			}
			for _, key := range []string{"knows", "contradictions", "setting_notes"} {
				if slices.Contains(strs, key) {
					t.Errorf("the public case has the field %q: %s", key, b)
				}
			}
		})
	}
}

// TestPublicKeepsTheRest: the public case is the record without its secrets, not less.
func TestPublicKeepsTheRest(t *testing.T) {
	for _, c := range publicCases(t) {
		t.Run(c.ID, func(t *testing.T) {
			b, err := json.Marshal(c.Public())
			if err != nil {
				t.Fatal(err)
			}
			var got Case
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			want := *c
			want.Witnesses = slices.Clone(c.Witnesses)
			for i := range want.Witnesses {
				want.Witnesses[i].Knows = nil
			}
			want.Contradictions, want.Extra, want.Source = nil, nil, ""
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the public case read back = %+v; want %+v", got, want)
			}
		})
	}
	t.Run("a copy", func(t *testing.T) {
		c := contradicted(t)
		p := c.Public()
		p.Evidence[0].Name = "changed"
		p.Witnesses[0].Name = "changed"
		if c.Evidence[0].Name == "changed" || c.Witnesses[0].Name == "changed" {
			t.Errorf("changing the public case changed the case")
		}
	})
}

// TestBuiltinContradictionsHidden: a bundled witness's knows does not state its own
// false claim, and its claims are its own (another witness's prompt is not told them).
func TestBuiltinContradictionsHidden(t *testing.T) {
	cs, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		for _, x := range c.Contradictions {
			w, _ := c.Witness(x.Witness)
			if slices.Contains(w.Knows, x.Claim) {
				t.Errorf("%s %s: the claim is in %s's knows as true", c.ID, x.ID, w.ID)
			}
			for _, e := range x.Evidence {
				if item, _ := c.Item(e); item.Description == "" {
					t.Errorf("%s %s: item %s has no description to find the break in", c.ID, x.ID, e)
				}
			}
		}
	}
}

// witnessView is the view of a witness's turn in the interrogation of c.
func witnessView(c *Case, id string, exposed []string) *turnView {
	return &turnView{c: c, g: NewGraph(c), seed: 7, phase: PhaseInterrogation, speaker: WitnessSpeaker(id),
		addressedBy: Defense, turnsLeft: 20, exposed: exposed}
}

func TestWitnessPromptHoldsClaims(t *testing.T) {
	c := contradicted(t)
	tests := []struct {
		name        string
		speaker     Speaker
		exposed     []string
		held, shown []string // the claims the prompt holds to and those it has conceded
		absent      []string
	}{
		{"a witness with one claim", WitnessSpeaker("tomas"), nil,
			[]string{c.Contradictions[0].Claim}, nil,
			[]string{c.Contradictions[0].Explanation, c.Contradictions[1].Claim, c.Contradictions[2].Claim, "shown to be false"}},
		{"a witness with two claims", WitnessSpeaker("nell"), nil,
			[]string{c.Contradictions[1].Claim, c.Contradictions[2].Claim}, nil,
			[]string{c.Contradictions[0].Claim, c.Contradictions[1].Explanation, c.Contradictions[2].Explanation}},
		{"one of two exposed", WitnessSpeaker("nell"), []string{"C2"},
			[]string{c.Contradictions[2].Claim}, []string{c.Contradictions[1].Claim, c.Contradictions[1].Explanation},
			[]string{c.Contradictions[2].Explanation}},
		{"all exposed", WitnessSpeaker("tomas"), []string{"C1"},
			nil, []string{c.Contradictions[0].Claim, c.Contradictions[0].Explanation},
			[]string{"Hold to these"}},
		{"the judge", Judge, nil, nil, nil,
			[]string{c.Contradictions[0].Claim, c.Contradictions[1].Claim, c.Contradictions[0].Explanation}},
		{"the prosecutor", Prosecutor, nil, nil, nil,
			[]string{c.Contradictions[0].Claim, c.Contradictions[2].Explanation}},
		{"the defense", Defense, nil, nil, nil,
			[]string{c.Contradictions[0].Claim, c.Contradictions[1].Claim, c.Contradictions[2].Claim}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := witnessView(c, "tomas", tt.exposed)
			v.speaker = tt.speaker
			sys := roleRequest(v).System
			held, shown := sys, ""
			if i := strings.Index(sys, "What the defense has shown to be false"); i >= 0 {
				held, shown = sys[:i], sys[i:]
			}
			for _, s := range tt.held {
				if !strings.Contains(held, s) {
					t.Errorf("the prompt does not hold to %q:\n%s", s, sys)
				}
				if strings.Contains(shown, s) {
					t.Errorf("the prompt concedes %q, which is not exposed", s)
				}
			}
			if len(tt.held) > 0 && !strings.Contains(sys, "Hold to these firmly") {
				t.Errorf("the prompt does not tell the witness to hold to its claims:\n%s", sys)
			}
			for _, s := range tt.shown {
				if !strings.Contains(shown, s) {
					t.Errorf("the prompt does not concede %q:\n%s", s, sys)
				}
				if strings.Contains(held, s) {
					t.Errorf("the prompt still holds to %q, which is exposed", s)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(sys, s) {
					t.Errorf("the prompt shows %q:\n%s", s, sys)
				}
			}
		})
	}
}

func TestExposedRequest(t *testing.T) {
	c := contradicted(t)
	x := c.Contradictions[1]
	req := exposedRequest(witnessView(c, "nell", nil), x, "E3")
	i := strings.Index(req.System, "What the defense has shown to be false")
	if i < 0 {
		t.Fatalf("the reaction's prompt does not list the exposed claim:\n%s", req.System)
	}
	if shown := req.System[i:]; !strings.Contains(shown, "[C2] You had said: "+quote(x.Claim)) || !strings.Contains(shown, x.Explanation) {
		t.Errorf("the exposed section lacks the claim or its explanation:\n%s", shown)
	}
	if !strings.Contains(req.System[:i], c.Contradictions[2].Claim) {
		t.Errorf("the witness no longer holds to its other, unexposed claim:\n%s", req.System)
	}
	user := req.Messages[len(req.Messages)-1].Text
	for _, want := range []string{"presented E3 to you", "[C2]", "React now"} {
		if !strings.Contains(user, want) {
			t.Errorf("the reaction's task lacks %q:\n%s", want, user)
		}
	}
	// The case's text stays in the system prompt: the task names the two by id.
	for _, secret := range []string{x.Claim, x.Explanation} {
		if strings.Contains(user, secret) {
			t.Errorf("the reaction's task quotes the case text %q", secret)
		}
	}
	// The view it was built from is not changed.
	v := witnessView(c, "nell", []string{"C1"})
	exposedRequest(v, x, "E2")
	if !slices.Equal(v.exposed, []string{"C1"}) {
		t.Errorf("exposedRequest changed the view's exposed to %v", v.exposed)
	}
}

func TestCaseDescriptionContradictions(t *testing.T) {
	d := CaseDescription(contradicted(t))
	for _, want := range []string{"Planted contradictions", "C1, Tomas Brandt claims: He saw Varga's face by the office lamp; broken by E1:", "C2, Nell Okafor claims:", "broken by E2 or E3: The ticket and the ledger both date it six days later."} {
		if !strings.Contains(d, want) {
			t.Errorf("CaseDescription lacks %q:\n%s", want, d)
		}
	}
	if d := CaseDescription(fixture(t)); strings.Contains(d, "Planted contradictions") {
		t.Errorf("CaseDescription of a case without contradictions mentions them:\n%s", d)
	}
}
