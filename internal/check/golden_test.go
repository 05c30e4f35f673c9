package check

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test -update after checking the change):\n%s", name, got)
	}
}

// goldenCase stands in for the description of the bundled transcripts' case, which the
// court's case record supplies outside this package.
const goldenCase = "The Duke's Yard Dispute: a civil case. Harold Grayson faces the claim of the Duke's estate."

func TestGoldenPrompts(t *testing.T) {
	cl, d := DefaultChecklist(), DefaultDimensions()
	tr := BuiltinTranscripts()[3]
	bs := batches(cl, 10)
	type group struct {
		Name      string
		Questions []Question
	}
	tests := []struct {
		name string
		text string
	}{
		{"prompt-judge.txt", render("judge_system", nil) + "\n" + render("judge", judgeData(cl, tr, goldenCase, &cl.Dims[0], bs[0].items)) +
			"\n" + render("followup", struct{ Items []Item }{bs[0].items[2:4]})},
		{"prompt-augment.txt", render("augment_system", nil) + "\n" + render("augment", struct {
			Domain   Domain
			Dim      *Dimension
			Sub      *SubDimension
			Strategy string
			Min, Max int
		}{d.Domain, &d.Dims[0], &d.Dims[0].Subs[0], Diversification, 5, 10}) +
			"\n" + render("repair", struct{ Problems []string }{[]string{"it has 3 questions; give between 5 and 10"}})},
		{"prompt-filter.txt", render("filter_system", nil) + "\n" + render("filter", struct {
			Domain Domain
			Dim    *Dimension
			Others []Dimension
			Groups []group
		}{cl.Domain, &cl.Dims[2], cl.Dims[:2], []group{{cl.Dims[2].Name, cl.Dims[2].Subs[0].Questions}}})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { golden(t, tc.name, []byte(tc.text)) })
	}
}

func TestGoldenReport(t *testing.T) {
	no := courtJudge(t)
	srv := standIn(t, func(req *llmtest.Request) llmtest.Response {
		return llmtest.Response{Text: judgeReply(req, no)}
	})
	j, err := Judge(context.Background(), execFor(t, srv, openStore(t, ""), "openai/judge"), DefaultChecklist(),
		BuiltinTranscripts(), JudgeOptions{Judges: []llm.ModelName{"openai/judge"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"text", "md", "json"} {
		t.Run(f, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteScores(&b, Score(j), f); err != nil {
				t.Fatal(err)
			}
			golden(t, "report."+f, b.Bytes())
		})
	}
}
