package report

import (
	"bytes"
	"flag"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/arbiter-eval/arbiter/internal/report/reporttest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func ptr(v float64) *float64 { return &v }

// sample is a small chart with a missing bar, an interval and text to escape.
func sample() *BarChart {
	return &BarChart{
		Title:  "FR <by> style & model",
		YLabel: "Failure rate",
		Groups: []string{"lab/a<b>", "lab/c"},
		Series: []string{"Neutral", "Authority"},
		Values: [][]*float64{{ptr(0.25), ptr(0.5)}, {nil, ptr(0.125)}},
		Intervals: [][]*[2]float64{
			{{0.125, 0.375}, nil},
			{nil, {0.0625, 0.3}},
		},
		Whiskers: "95% intervals",
	}
}

func TestSVGGolden(t *testing.T) {
	b, err := sample().Render(SVG, Size{W: 4 * vg.Inch, H: 3 * vg.Inch})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "sample.svg")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if !bytes.Equal(b, want) {
		t.Errorf("SVG differs from %s (go test -update to accept)", path)
	}
}

var (
	pdfMediaBox = regexp.MustCompile(`/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]`)
	pdfPage     = regexp.MustCompile(`/Type /Page\b[^s]`)
)

func TestRenderFormatsAndSizes(t *testing.T) {
	sizes := []Size{DefaultSize, {W: 3.5 * vg.Inch, H: 2.4 * vg.Inch}}
	for _, size := range sizes {
		for _, format := range FigureFormats {
			t.Run(size.String()+"/"+string(format), func(t *testing.T) {
				b, err := sample().Render(format, size)
				if err != nil {
					t.Fatal(err)
				}
				wantW, wantH := float64(size.W.Points()), float64(size.H.Points())
				switch format {
				case SVG:
					w, h, text := svgInfo(t, b)
					if math.Abs(w-wantW) > 0.5 || math.Abs(h-wantH) > 0.5 {
						t.Errorf("SVG is %gx%gpt; want %gx%g", w, h, wantW, wantH)
					}
					for _, s := range []string{"FR <by> style & model", "lab/a<b>", "Neutral", "Authority", "50%"} {
						if !strings.Contains(text, s) {
							t.Errorf("SVG text lacks %q:\n%s", s, text)
						}
					}
				case PDF:
					if !bytes.HasPrefix(b, []byte("%PDF-1.")) || !bytes.Contains(b[len(b)-32:], []byte("%%EOF")) {
						t.Fatalf("not a PDF: %.20q ... %q", b, b[max(0, len(b)-32):])
					}
					if n := len(pdfPage.FindAll(b, -1)); n != 1 {
						t.Errorf("PDF has %d pages; want 1", n)
					}
					m := pdfMediaBox.FindSubmatch(b)
					if m == nil {
						t.Fatal("PDF has no /MediaBox")
					}
					w, _ := strconv.ParseFloat(string(m[1]), 64)
					h, _ := strconv.ParseFloat(string(m[2]), 64)
					if math.Abs(w-wantW) > 0.5 || math.Abs(h-wantH) > 0.5 {
						t.Errorf("PDF page is %gx%gpt; want %gx%g", w, h, wantW, wantH)
					}
					if !bytes.Contains(b, []byte("/FontFile2")) && !bytes.Contains(b, []byte("/FontFile")) {
						t.Error("PDF embeds no font")
					}
				case PNG:
					img, err := png.Decode(bytes.NewReader(b))
					if err != nil {
						t.Fatalf("not a PNG: %v", err)
					}
					// vgimg draws at 96 dots an inch.
					wantPX, wantPY := int(math.Round(wantW*PNGDPI/72)), int(math.Round(wantH*PNGDPI/72))
					if r := img.Bounds(); r.Dx() != wantPX || r.Dy() != wantPY {
						t.Errorf("PNG is %dx%d; want %dx%d", r.Dx(), r.Dy(), wantPX, wantPY)
					}
				}
			})
		}
	}
}

// TestWhiskerEnds draws the sample on a recorder and finds, for each interval, the
// whisker's caps at the y of its low and high ends, centred on its bar.
func TestWhiskerEnds(t *testing.T) {
	c := sample()
	p := c.Plot()
	rec := &recorder.Canvas{}
	size := DefaultSize
	dc := draw.NewCanvas(rec, size.W, size.H)
	p.Draw(dc)
	data := p.DataCanvas(dc)
	trX, trY := p.Transforms(&data)

	type seg struct{ x0, y0, x1, y1 vg.Length }
	var strokes []seg
	for _, a := range rec.Actions {
		s, ok := a.(*recorder.Stroke)
		if !ok || len(s.Path) != 2 {
			continue
		}
		strokes = append(strokes, seg{s.Path[0].Pos.X, s.Path[0].Pos.Y, s.Path[1].Pos.X, s.Path[1].Pos.Y})
	}
	near := func(a, b vg.Length) bool { return math.Abs(float64(a-b)) < 0.01 }
	found := 0
	for g := range c.Groups {
		for s := range c.Series {
			iv := c.interval(g, s)
			if iv == nil {
				continue
			}
			lo, hi := bars{c}.slot(g, s)
			mid := trX((lo + hi) / 2)
			for _, end := range iv {
				y := trY(end)
				ok := false
				for _, st := range strokes {
					if near(st.y0, y) && near(st.y1, y) && near((st.x0+st.x1)/2, mid) && !near(st.x0, st.x1) {
						ok = true
					}
				}
				if !ok {
					t.Errorf("group %d series %d: no whisker cap at %g (y=%v, x=%v)", g, s, end, y, mid)
				}
			}
			found++
		}
	}
	if found != 2 {
		t.Fatalf("checked %d intervals; want 2", found)
	}
	// A chart without intervals draws no caps where the sample has them.
	c.Intervals = nil
	rec2 := &recorder.Canvas{}
	c.Plot().Draw(draw.NewCanvas(rec2, size.W, size.H))
	if len(rec2.Actions) >= len(rec.Actions) {
		t.Errorf("without intervals %d actions; want fewer than %d", len(rec2.Actions), len(rec.Actions))
	}
}

func TestParseFormats(t *testing.T) {
	got, err := ParseFormats([]string{"png", "SVG,pdf", "png"})
	if err != nil || len(got) != 3 || got[0] != PNG || got[1] != SVG || got[2] != PDF {
		t.Errorf("ParseFormats = %v, %v", got, err)
	}
	if got, err := ParseFormats(nil); err != nil || len(got) != 1 || got[0] != SVG {
		t.Errorf("ParseFormats(nil) = %v, %v; want [svg]", got, err)
	}
	for _, bad := range []string{"eps", "", "svg,"} {
		if _, err := ParseFormats([]string{bad}); err == nil {
			t.Errorf("ParseFormats(%q) = nil error", bad)
		}
	}
}

func TestParseSize(t *testing.T) {
	s, err := ParseSize("3.5in, 2.4in")
	if err != nil || math.Abs(float64(s.W-252)) > 1e-9 || math.Abs(float64(s.H-172.8)) > 1e-9 {
		t.Errorf("ParseSize = %v, %v", s, err)
	}
	if s, err := ParseSize("10cm,50mm"); err != nil || math.Abs(float64(s.W-10*vg.Centimeter)) > 1e-9 || math.Abs(float64(s.H-5*vg.Centimeter)) > 1e-9 {
		t.Errorf("ParseSize(cm,mm) = %v, %v", s, err)
	}
	if s, err := ParseSize(""); err != nil || s != DefaultSize {
		t.Errorf("ParseSize(\"\") = %v, %v", s, err)
	}
	if s, err := ParseSize(DefaultSize.String()); err != nil || s != DefaultSize {
		t.Errorf("ParseSize(String()) = %v, %v", s, err)
	}
	for _, bad := range []string{"3.5in", "3.5,2.4", "xin,2in", "0.1in,2in", "100in,2in", "NaNin,2in", "-3in,2in"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) = nil error", bad)
		}
	}
}

func TestWriteFigures(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "figs")
	figs := []Figure{NewFigure("one", sample())}
	if err := WriteFigures(dir, figs, []Format{SVG, PNG, PDF}, DefaultSize); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "one.pdf one.png one.svg" {
		t.Errorf("wrote %v", names)
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "one.svg"))
	if !bytes.Equal(svg, figs[0].SVG) {
		t.Error("one.svg is not the figure's SVG")
	}
	if figs[0].Caption != "FR <by> style & model. Whiskers: 95% intervals." {
		t.Errorf("Caption = %q", figs[0].Caption)
	}
}

func BenchmarkRender(b *testing.B) {
	c := &BarChart{Title: "FR by style", YLabel: "Failure rate", Series: []string{"Neutral", "Authority", "Pseudo-Logic", "Omission"}}
	for g := range 12 {
		c.Groups = append(c.Groups, "provider/model-"+strconv.Itoa(g))
		row := make([]*float64, 4)
		ivs := make([]*[2]float64, 4)
		for s := range row {
			v := float64(g*4+s) / 60
			row[s] = &v
			ivs[s] = &[2]float64{v * 0.8, v * 1.2}
		}
		c.Values = append(c.Values, row)
		c.Intervals = append(c.Intervals, ivs)
	}
	for _, format := range FigureFormats {
		b.Run(string(format), func(b *testing.B) {
			for b.Loop() {
				if _, err := c.Render(format, DefaultSize); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// svgInfo is reporttest.SVG with every text element joined, a line each.
func svgInfo(t *testing.T, b []byte) (w, h float64, text string) {
	w, h, texts := reporttest.SVG(t, b)
	return w, h, strings.Join(texts, "\n")
}
