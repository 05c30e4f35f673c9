package seduce

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigReplies are long replies of the shapes a model rambles in, each about size bytes:
// one long line of prose, many short sentences, many lines, and braces that are not JSON.
func bigReplies(size int) map[string]string {
	fill := func(piece string) string {
		return strings.Repeat(piece, size/len(piece)+1)[:size]
	}
	return map[string]string{
		"one line":        fill("the investigator looks around the dusty room and sees nothing of note "),
		"sentences":       fill("The door creaks. Nothing happens here, and the room is quiet; ") + " Make a Spot Hidden roll.",
		"lines":           fill("The investigator waits in the hall.\n"),
		"braces":          fill("{ not json at all } "),
		"quotes":          fill(`He says "no roll is needed" and waits. `),
		"keys":            fill("Note: the room is dark\n"),
		"think":           "<think>" + fill("hmm let me think about this carefully. ") + "</think> Make a Climb roll.",
		"roll sentences":  fill("Make a Spot Hidden roll. "),
		"roll one clause": fill("make a spot hidden roll and "),
		"mixed clause":    fill("the room is dark and the guard may notice you unless you make a stealth roll or the guard checks the door "),
		"unclosed json":   `{"decision": "roll", "skill": "Climb", "reason": "` + fill("a long reason "),
	}
}

func BenchmarkParseReplyLong(b *testing.B) {
	for _, size := range []int{50_000, 500_000, 5_000_000} {
		for name, text := range bigReplies(size) {
			b.Run(fmt.Sprintf("%s/%dKB", name, size/1000), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					ParseReply(text, nil)
				}
			})
		}
	}
}

// BenchmarkParseCorpus parses every reply of the corpus and of the development sets once
// per op: the cost per reply of a run, where replies are short. It reports ns/reply.
func BenchmarkParseCorpus(b *testing.B) {
	var texts []string
	for _, pattern := range []string{"testdata/replies/*.jsonl", "testdata/replies-dev/*.jsonl", "testdata/replies-dev-2/*.jsonl"} {
		files, _ := filepath.Glob(pattern)
		for _, path := range files {
			data, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			for line := range strings.Lines(string(data)) {
				var r struct {
					Text string `json:"text"`
				}
				if err := json.Unmarshal([]byte(line), &r); err != nil {
					b.Fatalf("%s: %v", path, err)
				}
				texts = append(texts, r.Text)
			}
		}
	}
	tax := DefaultTaxonomy()
	b.ResetTimer()
	for b.Loop() {
		for _, t := range texts {
			ParseReply(t, tax)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(texts)), "ns/reply")
}

// BenchmarkParseShortReplies reads the three replies the process benchmark's stand-in
// gives (BenchmarkSeduceRunProcess): short ones, as most models' answers to the
// benchmark's prompt are. The runner reads every reply on its hot path, so a short
// reply's fixed cost is what a run pays 5,376 times.
func BenchmarkParseShortReplies(b *testing.B) {
	tax := DefaultTaxonomy()
	texts := []string{`{"decision": "roll", "skill": "Spot Hidden", "reason": "risk 3"}`,
		`{"decision": "automatic_success", "skill": null, "reason": "routine"}`,
		"No roll is needed here; the investigator simply does it."}
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			ParseReply(t, tax)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(texts)), "ns/reply")
}
