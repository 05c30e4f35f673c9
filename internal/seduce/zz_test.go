package seduce

import "testing"

func BenchmarkZZShort(b *testing.B) {
	tax := DefaultTaxonomy()
	texts := []string{`{"decision": "roll", "skill": "Spot Hidden", "reason": "risk 3"}`, `{"decision": "automatic_success", "skill": null, "reason": "routine"}`, "No roll is needed here; the investigator simply does it."}
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			ParseReply(t, tax)
		}
	}
}
