package store

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestDecodeOutcome reads the tagged outcome and the three shapes stores held before it.
func TestDecodeOutcome(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		kind     OutcomeKind
		reading  string
		ok       bool
	}{
		{"tagged ruling", EncodeOutcome(OutcomeRuling, map[string]string{"decision": "roll"}), OutcomeRuling, `{"decision":"roll"}`, true},
		{"tagged validity", EncodeOutcome(OutcomeValidity, Validity{Problems: []string{"x"}}), OutcomeValidity, `{"valid":false,"problems":["x"]}`, true},
		{"legacy ruling", `{"decision":"pass","rule":"json"}`, OutcomeRuling, `{"decision":"pass","rule":"json"}`, true},
		{"legacy answers", `[{"q":1,"answer":"yes"}]`, OutcomeAnswers, `[{"q":1,"answer":"yes"}]`, true},
		{"legacy valid", "valid", OutcomeValidity, `{"valid":true}`, true},
		{"legacy invalid", "invalid: no title; bad id", OutcomeValidity, `{"valid":false,"problems":["no title","bad id"]}`, true},
		{"empty", "", "", "", false},
		{"broken object", `{"decision":`, "", "", false},
		{"text", "hello", "", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o, ok := DecodeOutcome(tt.in)
			if ok != tt.ok || o.Kind != tt.kind {
				t.Fatalf("DecodeOutcome(%q) = %v, %v; want kind %q, %v", tt.in, o.Kind, ok, tt.kind, tt.ok)
			}
			if !ok {
				return
			}
			var got, want any
			if err := json.Unmarshal(o.Reading, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tt.reading), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("DecodeOutcome(%q) reading %s; want %s", tt.in, o.Reading, tt.reading)
			}
		})
	}
}
