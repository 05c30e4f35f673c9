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
