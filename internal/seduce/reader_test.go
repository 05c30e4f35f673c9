package seduce

import (
	"encoding/json"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/store"
)

// TestStoredOutcome: a ruling is stored tagged, and the bare object older stores hold
// reads the same; other kinds of outcome are not rulings.
func TestStoredOutcome(t *testing.T) {
	p := Parsed{Decision: DecisionRoll, Skill: "Climb", Rule: RuleLabel, Span: "Climb"}
	tagged := OutcomeOf(p)
	bare, err := json.Marshal(Outcome{Decision: DecisionRoll, Skill: "Climb", Rule: RuleLabel, Span: "Climb"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{tagged, string(bare)} {
		o, ok := StoredOutcome(s)
		if !ok || o.Decision != DecisionRoll || o.Skill != "Climb" || o.Rule != RuleLabel {
			t.Errorf("StoredOutcome(%s) = %+v, %v; want the roll on Climb", s, o, ok)
		}
	}
	for _, s := range []string{"", "valid", `[{"q":1,"answer":"yes"}]`, store.EncodeOutcome(store.OutcomeValidity, store.Validity{Valid: true})} {
		if o, ok := StoredOutcome(s); ok {
			t.Errorf("StoredOutcome(%q) = %+v; want no ruling", s, o)
		}
	}
}

// TestReadingOfRecordedRun: a run that recorded its taxonomy as text is read with it,
// wherever the file went; a run recorded before readings were kept is read with the
// taxonomy its configuration names.
func TestReadingOfRecordedRun(t *testing.T) {
	tax, err := ParseTaxonomy(append(DefaultTaxonomy().Text(), []byte("\n  Peering: Spot Hidden\n")...), "mine.yaml")
	if err != nil {
		t.Fatal(err)
	}
	reply := &llm.Reply{Text: `{"decision": "roll", "skill": "Peering", "reason": "dark"}`}
	run := &store.Run{ID: "seduce-x", Kind: RunKind, Config: json.RawMessage(`{"taxonomy":"/nowhere/mine.yaml"}`), Reader: ReaderOf(tax, nil)}
	r, err := ReadingOf(run)
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := StoredOutcome(r.Read(reply)); !ok || o.Skill != "Spot Hidden" {
		t.Errorf("read with the recorded taxonomy: %+v; want Spot Hidden", o)
	}
	old := &store.Run{ID: "seduce-y", Kind: RunKind, Config: json.RawMessage(`{}`)}
	if r, err = ReadingOf(old); err != nil {
		t.Fatal(err)
	}
	if o, ok := StoredOutcome(r.Read(reply)); !ok || o.Skill != "Peering" {
		t.Errorf("an older run with the built-in taxonomy: %+v; want Peering kept as written", o)
	}
	old.Config = json.RawMessage(`{"taxonomy":"/nowhere/mine.yaml"}`)
	if _, err := ReadingOf(old); err == nil {
		t.Error("an older run whose taxonomy file is gone was read; want an error naming it")
	}
}
