package check

import (
	"bytes"
	"context"
	"encoding/xml"
	"image/png"
	"io"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/llm"
	"github.com/arbiter-eval/arbiter/internal/llm/llmtest"
	"github.com/arbiter-eval/arbiter/internal/report"
)

func TestQualityScoreFigure(t *testing.T) {
	no := courtJudge(t)
	srv := standIn(t, func(req *llmtest.Request) llmtest.Response {
		return llmtest.Response{Text: judgeReply(req, no)}
	})
	j, err := Judge(context.Background(), execFor(t, srv, openStore(t, ""), "openai/judge"), DefaultChecklist(),
		BuiltinTranscripts(), JudgeOptions{Judges: []llm.ModelName{"openai/judge"}})
	if err != nil {
		t.Fatal(err)
	}
	s := Score(j)
	c := Chart(s)
	if len(c.Groups) != len(s.Models)+1 || c.Groups[len(c.Groups)-1] != "All" || len(c.Series) != len(DefaultChecklist().Dims) {
		t.Fatalf("chart groups %q, series %q; want every model then All, a bar per dimension", c.Groups, c.Series)
	}
	// Each bar is the score the JSON report gives the model on that dimension.
	for g, m := range s.Models {
		for d, dim := range c.Series {
			got, want := c.Values[g][d], m.ByDimension[dim]
			if (got == nil) != (want == nil) || got != nil && *got != *want {
				t.Errorf("bar %s / %s = %v; want the report's %v", m.Model, dim, got, want)
			}
		}
	}
	for d, dim := range c.Series {
		if got, want := c.Values[len(s.Models)][d], s.ByDimension[dim]; (got == nil) != (want == nil) || got != nil && *got != *want {
			t.Errorf("bar All / %s = %v; want %v", dim, got, want)
		}
	}
	figs := Figures(s)
	if len(figs) != 1 || figs[0].Name != FigureName || figs[0].Caption != "Quality Score per dimension." {
		t.Fatalf("Figures = %d, first %q %q", len(figs), figs[0].Name, figs[0].Caption)
	}
	var text strings.Builder
	dec := xml.NewDecoder(bytes.NewReader(figs[0].SVG))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed: %v", err)
		}
		if cd, ok := tok.(xml.CharData); ok {
			text.Write(cd)
		}
	}
	for _, want := range append([]string{"Quality Score per dimension", s.Models[0].Model}, c.Series...) {
		if !strings.Contains(text.String(), want) {
			t.Errorf("SVG does not show %q", want)
		}
	}
	b, err := figs[0].Render(report.PNG, report.Size{W: report.DefaultSize.W / 2, H: report.DefaultSize.H})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if r := img.Bounds(); r.Dx() != 1050 || r.Dy() != 900 {
		t.Errorf("PNG is %dx%d; want 1050x900 (3.5in by 3in at 300 dpi)", r.Dx(), r.Dy())
	}
}
