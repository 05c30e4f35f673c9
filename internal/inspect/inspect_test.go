package inspect

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/inspect/inspecttest"
)

// TestSchemaRejects shows the validator holds a log to Inspect's schema: a written log
// passes, and one missing a required field or with a wrong type does not.
func TestSchemaRejects(t *testing.T) {
	l := newLog("success")
	s := newSample("a1", 1)
	s.Input = "hello"
	s.Output = Output{Model: "m", Choices: []Choice{{Message: assistant("m", "roll", "why"), StopReason: "stop"}}}
	l.Samples = append(l.Samples, s)
	b, _ := json.Marshal(l)
	if err := inspecttest.Validate(b); err != nil {
		t.Fatalf("a complete log does not validate: %v", err)
	}
	for name, mutate := range map[string]func(map[string]any){
		"no plan":         func(m map[string]any) { delete(m, "plan") },
		"status unknown":  func(m map[string]any) { m["status"] = "finished" },
		"epoch a string":  func(m map[string]any) { m["samples"].([]any)[0].(map[string]any)["epoch"] = "1" },
		"no sample store": func(m map[string]any) { delete(m["samples"].([]any)[0].(map[string]any), "store") },
	} {
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		mutate(m)
		bad, _ := json.Marshal(m)
		if err := inspecttest.Validate(bad); err == nil {
			t.Errorf("%s: validates; want an error", name)
		}
	}
}

func TestSeducePredictions(t *testing.T) {
	log := `{"eval": {"model": "openai/x"}, "samples": [
	 {"id": 7, "epoch": 2, "output": {"completion": "ignored", "choices": [{"message": {"role": "assistant",
	   "content": [{"type": "reasoning", "reasoning": "hm"}, {"type": "text", "text": "No roll."}]}}]}},
	 {"id": "b", "epoch": 1, "output": {"completion": "Roll Climb", "choices": []}},
	 {"id": "c", "epoch": 1, "output": {"completion": "", "choices": []}, "error": {"message": "boom"}}]}`
	if !IsLog([]byte(log)) || IsLog([]byte(`{"id": "a", "model": "m", "text": "x"}`+"\n"+`{"id": "b", "model": "m", "text": "y"}`)) {
		t.Fatal("IsLog tells a log from predictions JSONL wrongly")
	}
	got, err := SeducePredictions([]byte(log))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"7","model":"openai/x","replicate":1,"text":"No roll."}
{"id":"b","model":"openai/x","text":"Roll Climb"}
{"id":"c","model":"openai/x","error":"boom"}
`
	if string(got) != want {
		t.Errorf("SeducePredictions = %s; want %s", got, want)
	}
	if _, err := SeducePredictions([]byte(strings.Replace(log, `"id": 7`, `"id": 7.5`, 1))); err == nil {
		t.Error("a fractional sample id is accepted")
	}
}
