package seduce

import (
	"strings"
	"testing"
)

func TestReadPredictions(t *testing.T) {
	tax := DefaultTaxonomy()
	tests := []struct {
		name, in string
		want     int    // predictions read
		problem  string // part of the error; "" for none
	}{
		{"decision", `{"id":"a","model":"m","decision":"roll","skill":"climb"}`, 1, ""},
		{"text is parsed", `{"id":"a","model":"m","text":"No roll needed."}`, 1, ""},
		{"blank lines", "\n{\"id\":\"a\",\"model\":\"m\",\"decision\":\"pass\"}\n\n", 1, ""},
		{"no id", `{"model":"m","decision":"roll"}`, 0, "p.jsonl:1: id: missing"},
		{"bad decision", `{"id":"a","model":"m","decision":"maybe"}`, 0, `decision: "maybe" is not roll`},
		{"mistyped", `{"id":"a","model":"m","replicate":"one"}`, 0, "p.jsonl:1: replicate: want a number"},
		{"duplicate", "{\"id\":\"a\",\"model\":\"m\",\"decision\":\"roll\"}\n{\"id\":\"a\",\"model\":\"m\",\"decision\":\"pass\"}", 0, "p.jsonl:2: id: \"a\" already has a prediction from m at p.jsonl:1"},
		{"not JSON", "roll", 0, "p.jsonl:1: not a JSON object"},
		{"empty text is a reply", `{"id":"a","model":"m","text":""}`, 1, ""},
		{"neither text nor decision", `{"id":"a","model":"m"}`, 0, "p.jsonl:1: decision: missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadPredictions(strings.NewReader(tt.in), "p.jsonl", tax, map[PredictionKey]string{})
			if tt.problem == "" {
				if err != nil || len(got) != tt.want {
					t.Fatalf("ReadPredictions(%q) = %d predictions, %v; want %d, nil", tt.in, len(got), err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.problem) || got != nil {
				t.Fatalf("ReadPredictions(%q) = %v, %v; want no predictions and an error containing %q", tt.in, got, err, tt.problem)
			}
		})
	}
	// An empty reply is unparsed (spec section 3), not a reason to reject the file.
	empty, err := ReadPredictions(strings.NewReader(`{"id":"a","model":"m","text":""}`+"\n"+`{"id":"b","model":"m","text":"   "}`), "p", tax, map[PredictionKey]string{})
	if err != nil || len(empty) != 2 || empty[0].Decision != DecisionUnparsed || empty[1].Decision != DecisionUnparsed {
		t.Errorf(`ReadPredictions("text": "") = %v, %v; want two unparsed predictions`, empty, err)
	}
	got, _ := ReadPredictions(strings.NewReader(`{"id":"a","model":"m","decision":"roll","skill":"climb"}`), "p", tax, map[PredictionKey]string{})
	if got[0].Skill != "Climb" {
		t.Errorf("skill climb read as %q; want the taxonomy's Climb", got[0].Skill)
	}
}

func FuzzReadPredictions(f *testing.F) {
	f.Add(`{"id":"a","model":"m","decision":"roll","skill":"Climb"}`)
	f.Add("{\"id\":\"a\",\"model\":\"m\",\"text\":\"Roll Spot Hidden.\"}\n{\"id\":\"a\",\"model\":\"m\",\"decision\":\"pass\"}")
	f.Add(`{"id":1,"model":["m"],"replicate":"x"}`)
	f.Add("\n\n{}\nnull\n[]")
	tax := DefaultTaxonomy()
	f.Fuzz(func(t *testing.T, in string) {
		got, err := ReadPredictions(strings.NewReader(in), "fuzz", tax, map[PredictionKey]string{})
		if err != nil {
			if got != nil {
				t.Fatalf("ReadPredictions(%q) = %d predictions and error %v; want none with an error", in, len(got), err)
			}
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "fuzz:") && !strings.HasPrefix(line, "predictions fuzz:") {
					t.Fatalf("ReadPredictions(%q) error line %q does not name the file", in, line)
				}
			}
			return
		}
		for _, p := range got {
			if p.ID == "" || p.Model == "" {
				t.Fatalf("ReadPredictions(%q) kept %+v without id or model", in, p)
			}
			switch p.Decision {
			case DecisionRoll, DecisionPass, DecisionRefused, DecisionUnparsed:
			case "":
				if p.Err == "" {
					t.Fatalf("ReadPredictions(%q) kept %+v with no decision and no error", in, p)
				}
			default:
				t.Fatalf("ReadPredictions(%q) kept decision %q", in, p.Decision)
			}
		}
	})
}
