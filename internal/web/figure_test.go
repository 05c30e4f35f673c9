package web

import (
	"bytes"
	"image/png"
	"math"
	"mime"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-eval/arbiter/internal/report"
	"github.com/arbiter-eval/arbiter/internal/report/reporttest"
)

var mediaBox = regexp.MustCompile(`/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]`)

// checkFigure fetches target and checks it is a valid file of format at the default
// size, served with the right headers; it returns the SVG's texts.
func checkFigure(t *testing.T, a answer, format report.Format, file string) []string {
	t.Helper()
	if a.status != 200 || a.header.Get("Content-Type") != format.ContentType() {
		t.Fatalf("status %d, Content-Type %q; want 200 %q\n%.300s", a.status, a.header.Get("Content-Type"), format.ContentType(), a.body)
	}
	if csp := a.header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	disp, params, _ := mime.ParseMediaType(a.header.Get("Content-Disposition"))
	wantW, wantH := float64(report.DefaultSize.W.Points()), float64(report.DefaultSize.H.Points())
	switch format {
	case report.SVG:
		if d := a.header.Get("Content-Disposition"); d != "" {
			t.Errorf("SVG Content-Disposition %q; want none (it is shown inline)", d)
		}
		w, h, texts := svgDoc(t, a.body)
		if math.Abs(w-wantW) > 0.5 || math.Abs(h-wantH) > 0.5 {
			t.Errorf("SVG is %gx%gpt; want %gx%g", w, h, wantW, wantH)
		}
		return texts
	case report.PDF:
		b := []byte(a.body)
		if !bytes.HasPrefix(b, []byte("%PDF-1.")) || !bytes.Contains(b[max(0, len(b)-32):], []byte("%%EOF")) {
			t.Fatalf("not a PDF: %.20q", b)
		}
		m := mediaBox.FindSubmatch(b)
		if m == nil {
			t.Fatal("PDF has no /MediaBox")
		}
		w, _ := strconv.ParseFloat(string(m[1]), 64)
		h, _ := strconv.ParseFloat(string(m[2]), 64)
		if math.Abs(w-wantW) > 0.5 || math.Abs(h-wantH) > 0.5 {
			t.Errorf("PDF page is %gx%gpt; want %gx%g", w, h, wantW, wantH)
		}
	case report.PNG:
		img, err := png.Decode(strings.NewReader(a.body))
		if err != nil {
			t.Fatalf("not a PNG: %v", err)
		}
		if r := img.Bounds(); r.Dx() != int(math.Round(wantW*report.PNGDPI/72)) || r.Dy() != int(math.Round(wantH*report.PNGDPI/72)) {
			t.Errorf("PNG is %dx%d; want %gx%g at %d dpi", r.Dx(), r.Dy(), wantW*report.PNGDPI/72, wantH*report.PNGDPI/72, report.PNGDPI)
		}
	}
	if disp != "attachment" || params["filename"] != file {
		t.Errorf("Content-Disposition %q; want attachment with filename %q", a.header.Get("Content-Disposition"), file)
	}
	return nil
}

func TestRunFiguresInEveryFormat(t *testing.T) {
	h := newFixture(t).server(t).Handler()
	page := get(t, h, "/runs/seduce-test0001")
	for _, name := range []string{"figure3", "figure4", "figure5"} {
		for _, format := range report.FigureFormats {
			target := "/runs/seduce-test0001/figures/" + name + "." + string(format)
			file := "seduce-test0001-" + name + "." + string(format)
			t.Run(name+"."+string(format), func(t *testing.T) {
				texts := checkFigure(t, get(t, h, target), format, file)
				if format == report.SVG && !strings.Contains(strings.Join(texts, "\n"), "Figure "+strings.TrimPrefix(name, "figure")+": FR by") {
					t.Errorf("SVG does not show its title: %q", texts)
				}
				link := `<a href="` + target + `" download="` + file + `">` + strings.ToUpper(string(format)) + `</a>`
				if !strings.Contains(page.body, link) {
					t.Errorf("run page lacks the link %s", link)
				}
			})
		}
	}
	for _, bad := range []string{"figure4.eps", "figure4.SVG", "figure4.", "figure9.pdf", "figure4.svg.png"} {
		if a := get(t, h, "/runs/seduce-test0001/figures/"+bad); a.status != 404 {
			t.Errorf("GET figures/%s = %d; want 404", bad, a.status)
		}
	}
	// The caption under each figure says what its whiskers are.
	if !strings.Contains(page.body, "<figcaption>Figure 4: FR by rhetorical style. Whiskers: ") || !strings.Contains(page.body, "clustered by scenario") {
		t.Errorf("run page has no caption for figure 4:\n%s", page.body)
	}
}

func TestStyleFigureInEveryFormat(t *testing.T) {
	h := newFixture(t).server(t).Handler()
	for _, format := range report.FigureFormats {
		file := "style_em_dashes." + string(format)
		checkFigure(t, get(t, h, "/dataset/style/"+file), format, file)
	}
	if a := get(t, h, "/dataset/style/other.svg"); a.status != 404 {
		t.Errorf("GET /dataset/style/other.svg = %d; want 404", a.status)
	}
}

// svgDoc is reporttest.SVG of a response body.
func svgDoc(t *testing.T, b string) (w, h float64, texts []string) {
	return reporttest.SVG(t, []byte(b))
}
