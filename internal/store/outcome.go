package store

import (
	"encoding/json"
	"strings"
)

// OutcomeKind says what a reply was read as. Each run kind's reader writes one.
type OutcomeKind string

// The kinds of outcome a reader stores beside a reply.
const (
	// OutcomeRuling is a Keeper's ruling read from a benchmark reply (seduce.Outcome).
	OutcomeRuling OutcomeKind = "ruling"
	// OutcomeAnswers are a checklist judge's answers ([]check.Answer).
	OutcomeAnswers OutcomeKind = "answers"
	// OutcomeValidity is a structured reply checked: valid, or what is wrong with it
	// (Validity).
	OutcomeValidity OutcomeKind = "validity"
)

// Outcome is the one shape of what the store keeps beside a reply: what it was read as
// (Kind) and the reading itself, as that kind's JSON.
type Outcome struct {
	Kind    OutcomeKind     `json:"kind"`
	Reading json.RawMessage `json:"reading"`
}

// Validity is the reading of an OutcomeValidity outcome.
type Validity struct {
	Valid    bool     `json:"valid"`
	Problems []string `json:"problems,omitempty"`
}

// EncodeOutcome is reading, of kind, as Result.Outcome stores it.
func EncodeOutcome(kind OutcomeKind, reading any) string {
	r, err := json.Marshal(reading)
	if err != nil {
		// Readings are plain structs of strings, numbers and lists.
		panic(err)
	}
	b, err := json.Marshal(Outcome{Kind: kind, Reading: r})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// DecodeOutcome reads a stored outcome. Stores written before outcomes were tagged hold
// three shapes, read here as what they were: a JSON object (a ruling), a JSON array
// (a judge's answers) and the text "valid" or "invalid: problem; problem" (a validity).
// ok is false for an empty or unreadable outcome.
func DecodeOutcome(s string) (o Outcome, ok bool) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return Outcome{}, false
	case s == "valid":
		return Outcome{Kind: OutcomeValidity, Reading: mustJSON(Validity{Valid: true})}, true
	case strings.HasPrefix(s, "invalid: "):
		return Outcome{Kind: OutcomeValidity, Reading: mustJSON(Validity{Problems: strings.Split(strings.TrimPrefix(s, "invalid: "), "; ")})}, true
	case s[0] == '[':
		if !json.Valid([]byte(s)) {
			return Outcome{}, false
		}
		return Outcome{Kind: OutcomeAnswers, Reading: json.RawMessage(s)}, true
	case s[0] == '{':
		if json.Unmarshal([]byte(s), &o) == nil && o.Kind != "" && o.Reading != nil {
			return o, true
		}
		if !json.Valid([]byte(s)) {
			return Outcome{}, false
		}
		return Outcome{Kind: OutcomeRuling, Reading: json.RawMessage(s)}, true
	}
	return Outcome{}, false
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
