package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
)

// Format is a figure file format: "svg", "pdf" or "png".
type Format string

// The figure formats of --figure-format.
const (
	SVG Format = "svg"
	PDF Format = "pdf"
	PNG Format = "png"
)

// FigureFormats lists every figure format, in the order files are written.
var FigureFormats = []Format{SVG, PDF, PNG}

func (f Format) valid() bool { return f == SVG || f == PDF || f == PNG }

// ParseFormats reads --figure-format values (each may also be a comma list) into
// distinct formats in the order given; none means svg alone.
func ParseFormats(values []string) ([]Format, error) {
	var out []Format
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			f := Format(strings.ToLower(strings.TrimSpace(part)))
			if !f.valid() {
				return nil, fmt.Errorf("--figure-format %q: want svg, pdf or png", part)
			}
			if !containsFormat(out, f) {
				out = append(out, f)
			}
		}
	}
	if len(out) == 0 {
		out = []Format{SVG}
	}
	return out, nil
}

func containsFormat(fs []Format, f Format) bool {
	for _, g := range fs {
		if g == f {
			return true
		}
	}
	return false
}

// Size is a figure's width and height.
type Size struct{ W, H vg.Length }

// DefaultSize fits a two-column paper's full text width (a figure* in LaTeX): 7 by
// 3 inches. PNGs are drawn at 96 dots an inch, so 672 by 288 pixels.
var DefaultSize = Size{W: 7 * vg.Inch, H: 3 * vg.Inch}

// Largest side a figure may have: 40 inches, a poster.
const maxSide = 40 * vg.Inch

func (s Size) check() error {
	if s.W <= vg.Inch/2 || s.H <= vg.Inch/2 || s.W > maxSide || s.H > maxSide {
		return fmt.Errorf("figure size %s: each side must be between 0.5in and 40in", s)
	}
	return nil
}

// String writes s as ParseSize reads it, in inches.
func (s Size) String() string {
	return strconv.FormatFloat(float64(s.W/vg.Inch), 'f', -1, 64) + "in," +
		strconv.FormatFloat(float64(s.H/vg.Inch), 'f', -1, 64) + "in"
}

// ParseSize reads --figure-size: "WIDTH,HEIGHT", each a number with a unit of in, cm,
// mm or pt ("3.5in,2.4in"); the empty string is DefaultSize.
func ParseSize(v string) (Size, error) {
	if strings.TrimSpace(v) == "" {
		return DefaultSize, nil
	}
	w, h, ok := strings.Cut(v, ",")
	if !ok {
		return Size{}, fmt.Errorf("--figure-size %q: want WIDTH,HEIGHT such as 3.5in,2.4in", v)
	}
	var s Size
	for i, part := range []string{w, h} {
		l, err := parseLength(strings.TrimSpace(part))
		if err != nil {
			return Size{}, fmt.Errorf("--figure-size %q: %w", v, err)
		}
		if i == 0 {
			s.W = l
		} else {
			s.H = l
		}
	}
	if err := s.check(); err != nil {
		return Size{}, fmt.Errorf("--figure-size %q: each side must be between 0.5in and 40in", v)
	}
	return s, nil
}

// parseLength reads a number followed by in, cm, mm or pt.
func parseLength(v string) (vg.Length, error) {
	units := []struct {
		suffix string
		unit   vg.Length
	}{{"in", vg.Inch}, {"cm", vg.Centimeter}, {"mm", vg.Millimeter}, {"pt", 1}}
	for _, u := range units {
		if n, ok := strings.CutSuffix(v, u.suffix); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(n), 64)
			if err != nil || f != f {
				return 0, fmt.Errorf("length %q is not a number", v)
			}
			return vg.Length(f) * u.unit, nil
		}
	}
	return 0, fmt.Errorf("length %q: want a unit of in, cm, mm or pt", v)
}

// Figure is a rendered chart; Name is its file stem ("figure4"). SVG is the chart at
// DefaultSize, which the web UI serves; Render draws it in any format and size.
type Figure struct {
	Name  string
	Title string
	// Caption is the sentence under the figure: its title and what its whiskers are.
	Caption string
	SVG     []byte
	Chart   *BarChart
}

// NewFigure draws c as SVG at DefaultSize under the file stem name.
func NewFigure(name string, c *BarChart) Figure {
	var buf bytes.Buffer
	// Cannot fail: DefaultSize is valid, SVG is a format and a bytes.Buffer takes all.
	if err := c.WriteSVG(&buf); err != nil {
		panic(err)
	}
	return Figure{Name: name, Title: c.Title, Caption: c.Caption(), SVG: buf.Bytes(), Chart: c}
}

// Render draws f in format at size; SVG at DefaultSize is the copy f holds.
func (f Figure) Render(format Format, size Size) ([]byte, error) {
	if format == SVG && size == DefaultSize && f.SVG != nil || f.Chart == nil {
		if format != SVG || f.SVG == nil {
			return nil, fmt.Errorf("figure %s: no chart to draw as %s", f.Name, format)
		}
		return f.SVG, nil
	}
	return f.Chart.Render(format, size)
}

// ContentType is the media type of format.
func (f Format) ContentType() string {
	switch f {
	case PDF:
		return "application/pdf"
	case PNG:
		return "image/png"
	}
	return "image/svg+xml"
}

// WriteFigures writes every figure into dir (made if missing) once per format, as
// NAME.FORMAT, each file whole or not at all.
func WriteFigures(dir string, figs []Figure, formats []Format, size Size) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("figures: %w", err)
	}
	for _, fig := range figs {
		for _, format := range formats {
			b, err := fig.Render(format, size)
			if err != nil {
				return err
			}
			path := filepath.Join(dir, fig.Name+"."+string(format))
			if err := writeAtomic(path, b); err != nil {
				return fmt.Errorf("figure %s: %w", path, err)
			}
		}
	}
	return nil
}

// writeAtomic writes b to a temporary file beside path, then renames it over path.
func writeAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
