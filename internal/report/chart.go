package report

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// BarChart is a grouped bar chart of rates: one group of bars per entry of Groups (a
// model, say), one bar per entry of Series (a style) in each, heights from Values.
// Every figure the reports make is one, drawn by gonum.org/v1/plot in any Format.
type BarChart struct {
	Title  string
	YLabel string
	Groups []string
	Series []string
	// Values[g][s] is the rate, a fraction, of series s in group g; nil draws no bar.
	Values [][]*float64
	// Intervals[g][s], when set, is the bar's interval (low, high) as fractions, drawn
	// as a whisker; nil entries, or a nil Intervals, draw none.
	Intervals [][]*[2]float64
	// Whiskers says in the caption what the whiskers are, e.g. "95% cluster-bootstrap
	// intervals over scenarios"; empty when the chart has none.
	Whiskers string
}

// palette is Okabe and Ito's colour-blind-safe set.
var palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xff}, {0xE6, 0x9F, 0x00, 0xff}, {0x00, 0x9E, 0x73, 0xff}, {0xCC, 0x79, 0xA7, 0xff},
	{0x56, 0xB4, 0xE9, 0xff}, {0xD5, 0x5E, 0x00, 0xff}, {0xF0, 0xE4, 0x42, 0xff}, {0x00, 0x00, 0x00, 0xff},
}

// figureFont is the text face of every figure: Liberation Sans, which ships inside
// gonum/plot, so a PDF embeds it and a PNG looks the same on every machine.
var figureFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// value is Values[g][s], nil when absent.
func (c *BarChart) value(g, s int) *float64 {
	if g < len(c.Values) && s < len(c.Values[g]) {
		return c.Values[g][s]
	}
	return nil
}

// interval is Intervals[g][s], nil when absent.
func (c *BarChart) interval(g, s int) *[2]float64 {
	if g < len(c.Intervals) && s < len(c.Intervals[g]) {
		return c.Intervals[g][s]
	}
	return nil
}

// Caption is the sentence a report prints under the figure: its title, and what its
// whiskers mean when it has any.
func (c *BarChart) Caption() string {
	if c.Whiskers == "" {
		return c.Title + "."
	}
	return c.Title + ". Whiskers: " + c.Whiskers + "."
}

// barWidth is the share of a group's unit of x that its bars fill together.
const barsShare = 0.8

// bars is the plot.Plotter drawing c's bars and whiskers in data coordinates: group g
// spans x in [g-0.4, g+0.4], split evenly among the series.
type bars struct{ c *BarChart }

// slot is the x range, in data units, of series s's bar in group g.
func (b bars) slot(g, s int) (lo, hi float64) {
	w := barsShare / float64(max(1, len(b.c.Series)))
	lo = float64(g) - barsShare/2 + float64(s)*w
	return lo + w*0.06, lo + w*0.94
}

// Plot draws the bars, then the whiskers over them.
func (b bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for g := range b.c.Groups {
		for s := range b.c.Series {
			v := b.c.value(g, s)
			if v == nil || math.IsNaN(*v) {
				continue
			}
			lo, hi := b.slot(g, s)
			x0, x1, y0, y1 := trX(lo), trX(hi), trY(0), trY(math.Max(0, *v))
			c.FillPolygon(palette[s%len(palette)], c.ClipPolygonY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
		}
	}
	sty := draw.LineStyle{Color: color.Black, Width: vg.Points(0.7)}
	for g := range b.c.Groups {
		for s := range b.c.Series {
			iv := b.c.interval(g, s)
			if iv == nil {
				continue
			}
			lo, hi := b.slot(g, s)
			mid, cap := trX((lo+hi)/2), (trX(hi)-trX(lo))/4
			ylo, yhi := trY(iv[0]), trY(iv[1])
			c.StrokeLine2(sty, mid, ylo, mid, yhi)
			c.StrokeLine2(sty, mid-cap, ylo, mid+cap, ylo)
			c.StrokeLine2(sty, mid-cap, yhi, mid+cap, yhi)
		}
	}
}

// DataRange spans every group on x, and zero to the highest bar or whisker on y.
func (b bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymax = 0.1
	for g := range b.c.Groups {
		for s := range b.c.Series {
			if v := b.c.value(g, s); v != nil && !math.IsNaN(*v) {
				ymax = math.Max(ymax, *v)
			}
			if iv := b.c.interval(g, s); iv != nil {
				ymax = math.Max(ymax, iv[1])
			}
		}
	}
	return -0.5, float64(len(b.c.Groups)) - 0.5, 0, math.Ceil(ymax*10-1e-9) / 10
}

// swatch is a legend entry's filled square.
type swatch color.RGBA

// Thumbnail fills the legend entry's box.
func (s swatch) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(color.RGBA(s), []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
}

// percentTicks are the default ticks of the y axis, labelled as percentages.
type percentTicks struct{}

// Ticks relabels plot.DefaultTicks in percent.
func (percentTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = trimFloat(ticks[i].Value*100) + "%"
		}
	}
	return ticks
}

// trimFloat formats v with at most two decimals and no trailing zeros.
func trimFloat(v float64) string {
	s := strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
	if s == "-0" {
		return "0"
	}
	return s
}

// Plot lays c out as a gonum plot: bars, whiskers, a legend above and group labels
// slanted under the x axis.
func (c *BarChart) Plot() *plot.Plot {
	p := plot.New()
	p.Title.Text = c.Title
	p.Title.TextStyle.Font = figureFont
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.Y.Label.Text = c.YLabel
	for _, ts := range []*font.Font{&p.X.Tick.Label.Font, &p.Y.Tick.Label.Font, &p.Y.Label.TextStyle.Font, &p.Legend.TextStyle.Font} {
		*ts = figureFont
		ts.Size = vg.Points(7.5)
	}
	p.Y.Tick.Marker = percentTicks{}
	p.Y.Min = 0
	p.Add(plotter.NewGrid())
	p.Add(bars{c})
	p.NominalX(c.Groups...)
	p.X.Tick.Label.Rotation = math.Pi / 5
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.Legend.Top = true
	p.Legend.Left = false
	p.Legend.ThumbnailWidth = vg.Points(7)
	for s, name := range c.Series {
		p.Legend.Add(name, swatch(palette[s%len(palette)]))
	}
	return p
}

// PNGDPI is the resolution of PNG figures, a print one (a 7in figure is 2,100 pixels wide).
const PNGDPI = 300

// Render draws c in format at size.
func (c *BarChart) Render(format Format, size Size) ([]byte, error) {
	if err := size.check(); err != nil {
		return nil, err
	}
	if !format.valid() {
		return nil, fmt.Errorf("figure format %q: want svg, pdf or png", format)
	}
	var wt io.WriterTo
	if format == PNG {
		// gonum's default is screen resolution (96 dpi): too coarse for print or slides.
		cv := vgimg.NewWith(vgimg.UseWH(size.W, size.H), vgimg.UseDPI(PNGDPI))
		c.Plot().Draw(draw.New(cv))
		wt = vgimg.PngCanvas{Canvas: cv}
	} else {
		var err error
		if wt, err = c.Plot().WriterTo(size.W, size.H, string(format)); err != nil {
			return nil, fmt.Errorf("draw %q as %s: %w", c.Title, format, err)
		}
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("draw %q as %s: %w", c.Title, format, err)
	}
	return buf.Bytes(), nil
}

// WriteSVG renders c as a standalone SVG document at DefaultSize.
func (c *BarChart) WriteSVG(w io.Writer) error {
	b, err := c.Render(SVG, DefaultSize)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
