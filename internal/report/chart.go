package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"
)

// BarChart is a grouped bar chart of rates: one group of bars per entry of Groups (a
// model, say), one bar per entry of Series (a style) in each, heights from Values.
type BarChart struct {
	Title  string
	YLabel string
	Groups []string
	Series []string
	// Values[g][s] is the rate, a fraction, of series s in group g; nil draws no bar.
	Values [][]*float64
}

// palette is Okabe and Ito's colour-blind-safe set.
var palette = []string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"}

// xmlEscape makes text safe in SVG character data and attribute values.
var xmlEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

// Chart geometry, in SVG user units. Text widths are estimates (about 6.5 units a
// character at font size 11), enough to keep labels inside the canvas.
const (
	barWidth    = 14.0
	groupGap    = 18.0
	plotHeight  = 260.0
	axisRoom    = 64.0 // left of the plot: tick labels and the y label
	marginRight = 24.0
	marginTop   = 70.0 // title and legend
	charWidth   = 6.5
)

// WriteSVG renders c as a standalone SVG document. All text is escaped; every bar
// carries a <title> with its exact value, which viewers show on hover.
func (c *BarChart) WriteSVG(w io.Writer) error {
	bw := bufio.NewWriter(w)
	groupWidth := float64(len(c.Series))*barWidth + groupGap
	legendWidth := 0.0
	for _, name := range c.Series {
		legendWidth += legendItem(name)
	}
	// Group labels run down-left at 40°: the longest sets the room below the plot, the
	// first the room to the left.
	longest := 0
	for _, g := range c.Groups {
		longest = max(longest, len([]rune(g)))
	}
	labelRoom := 40 + charWidth*float64(longest)*math.Sin(40*math.Pi/180)
	marginLeft := axisRoom
	if len(c.Groups) > 0 {
		first := charWidth * float64(len([]rune(c.Groups[0]))) * math.Cos(40*math.Pi/180)
		marginLeft = math.Max(axisRoom, math.Ceil(first-groupWidth/2+8))
	}
	titleWidth := 8.5 * float64(len([]rune(c.Title)))
	width := marginLeft + math.Max(float64(len(c.Groups))*groupWidth, math.Max(legendWidth, titleWidth)) + marginRight
	height := marginTop + plotHeight + math.Ceil(labelRoom)
	top := niceTop(c.Values)
	y := func(v float64) float64 { return marginTop + plotHeight*(1-v/top) }

	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="Helvetica, Arial, sans-serif" font-size="11">`+"\n",
		num(width), num(height), num(width), num(height))
	fmt.Fprintf(bw, `<title>%s</title>`+"\n", xmlEscape.Replace(c.Title))
	fmt.Fprintf(bw, `<rect width="100%%" height="100%%" fill="#ffffff"/>`+"\n")
	fmt.Fprintf(bw, `<text x="%s" y="20" font-size="14" font-weight="bold">%s</text>`+"\n", num(marginLeft), xmlEscape.Replace(c.Title))

	// Legend, one swatch per series.
	x := marginLeft
	for s, name := range c.Series {
		fmt.Fprintf(bw, `<rect x="%s" y="34" width="10" height="10" fill="%s"/><text x="%s" y="43">%s</text>`+"\n",
			num(x), palette[s%len(palette)], num(x+14), xmlEscape.Replace(name))
		x += legendItem(name)
	}

	// Axis, gridlines and tick labels at fifths of the top.
	for i := 0; i <= 5; i++ {
		v := top * float64(i) / 5
		fmt.Fprintf(bw, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#dddddd"/>`+"\n", num(marginLeft), num(y(v)), num(width-marginRight), num(y(v)))
		fmt.Fprintf(bw, `<text x="%s" y="%s" text-anchor="end">%s%%</text>`+"\n", num(marginLeft-6), num(y(v)+4), num(v*100))
	}
	fmt.Fprintf(bw, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#333333"/>`+"\n", num(marginLeft), num(marginTop), num(marginLeft), num(y(0)))
	fmt.Fprintf(bw, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#333333"/>`+"\n", num(marginLeft), num(y(0)), num(width-marginRight), num(y(0)))
	if c.YLabel != "" {
		fmt.Fprintf(bw, `<text transform="translate(%s %s) rotate(-90)" text-anchor="middle">%s</text>`+"\n", num(marginLeft-axisRoom+16), num(marginTop+plotHeight/2), xmlEscape.Replace(c.YLabel))
	}

	// Bars and group labels.
	for g, group := range c.Groups {
		gx := marginLeft + groupGap/2 + float64(g)*groupWidth
		for s, series := range c.Series {
			var v *float64
			if g < len(c.Values) && s < len(c.Values[g]) {
				v = c.Values[g][s]
			}
			if v == nil {
				continue
			}
			h := math.Max(0, *v)
			fmt.Fprintf(bw, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>`+"\n",
				num(gx+float64(s)*barWidth), num(y(h)), num(barWidth-2), num(y(0)-y(h)), palette[s%len(palette)],
				xmlEscape.Replace(fmt.Sprintf("%s, %s: %s%%", group, series, pct(*v, false))))
		}
		cx := gx + float64(len(c.Series))*barWidth/2
		fmt.Fprintf(bw, `<text transform="translate(%s %s) rotate(-40)" text-anchor="end">%s</text>`+"\n",
			num(cx), num(y(0)+14), xmlEscape.Replace(group))
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

// legendItem is the room a legend entry takes: swatch, label at about 7 units a
// character, and a gap.
func legendItem(name string) float64 { return 14 + 7*float64(len([]rune(name))) + 16 }

// niceTop is the y-axis maximum: the largest value rounded up to a tenth, at least 10%.
func niceTop(values [][]*float64) float64 {
	top := 0.1
	for _, row := range values {
		for _, v := range row {
			if v != nil && *v > top {
				top = math.Ceil(*v*10-1e-9) / 10
			}
		}
	}
	return top
}

// num formats a coordinate with at most one decimal, so output is stable across platforms.
func num(v float64) string {
	s := fmt.Sprintf("%.1f", v)
	s = strings.TrimSuffix(s, ".0")
	if s == "-0" {
		s = "0"
	}
	return s
}

// Figure is a rendered chart; Name is its file stem ("figure4").
type Figure struct {
	Name  string
	Title string
	SVG   []byte
}
