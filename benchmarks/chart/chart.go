// Package chart writes the benchmark report's charts as small,
// self-contained SVG files: line charts (optionally on log scales) and
// horizontal bar charts. It is a few hundred lines of our own instead of a
// plotting library because the report needs only these two shapes, the
// output must be deterministic for review in diffs, and the benchmarks
// module should not pull in a graphics stack.
package chart

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// Point is one point of a Series, with an optional label drawn beside it
// (a compression level, say).
type Point struct {
	X, Y  float64
	Label string
}

// Series is one line of a Line chart.
type Series struct {
	Name   string
	Points []Point
}

// Line is a line chart.
type Line struct {
	Title, XLabel, YLabel string
	LogX, LogY            bool
	// SpanY makes a linear y axis span the data instead of starting at
	// zero: for a frontier, where the differences between points are what
	// the chart is for and the quantity's distance from zero is not.
	SpanY  bool
	Series []Series
}

// Bar is one bar of a Bars chart.
type Bar struct {
	Label string
	Value float64
	Note  string // drawn after the bar, such as "1.4×"
	Ours  bool   // drawn in the second colour, to stand out from the peers
}

// Bars is a horizontal bar chart.
type Bars struct {
	Title, Unit string
	Bars        []Bar
}

const (
	width, height          = 720, 420
	left, right, top, foot = 90, 170, 40, 60
)

// palette is colour-blind safe (Okabe–Ito).
var palette = []string{"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"}

// WriteTo writes the chart as SVG.
func (c Line) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	header(&b, width, height, c.Title)
	xs, ys := newAxis(c.LogX), newAxis(c.LogY)
	// The x axis is a measured quantity (sizes, counts) and spans the data.
	xs.zero = false
	ys.zero = !c.SpanY
	for _, s := range c.Series {
		for _, p := range s.Points {
			xs.add(p.X)
			ys.add(p.Y)
		}
	}
	xs.finish()
	ys.finish()
	pw, ph := float64(width-left-right), float64(height-top-foot)
	px := func(x float64) float64 { return left + xs.frac(x)*pw }
	py := func(y float64) float64 { return top + (1-ys.frac(y))*ph }
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%g" height="%g" fill="none" stroke="#999"/>`+"\n", left, top, pw, ph)
	for _, t := range xs.ticks() {
		x := px(t)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%g" stroke="#eee"/>`+"\n", x, top, x, top+ph)
		fmt.Fprintf(&b, `<text x="%.1f" y="%g" text-anchor="middle">%s</text>`+"\n", x, top+ph+16, format(t))
	}
	for _, t := range ys.ticks() {
		y := py(t)
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%g" y2="%.1f" stroke="#eee"/>`+"\n", left, y, left+pw, y)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y+4, format(t))
	}
	fmt.Fprintf(&b, `<text x="%g" y="%d" text-anchor="middle">%s</text>`+"\n", left+pw/2, height-18, esc(c.XLabel))
	fmt.Fprintf(&b, `<text transform="translate(16 %g) rotate(-90)" text-anchor="middle">%s</text>`+"\n", top+ph/2, esc(c.YLabel))
	for i, s := range c.Series {
		col := palette[i%len(palette)]
		var path strings.Builder
		for j, p := range s.Points {
			cmd := "L"
			if j == 0 {
				cmd = "M"
			}
			fmt.Fprintf(&path, "%s%.1f %.1f ", cmd, px(p.X), py(p.Y))
		}
		fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.TrimSpace(path.String()), col)
		for _, p := range s.Points {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", px(p.X), py(p.Y), col)
			if p.Label != "" {
				fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="10" fill="%s">%s</text>`+"\n", px(p.X)+4, py(p.Y)-4, col, esc(p.Label))
			}
		}
		ly := top + 14 + 18*i
		fmt.Fprintf(&b, `<rect x="%g" y="%d" width="12" height="12" fill="%s"/>`+"\n", left+pw+12, ly-10, col)
		fmt.Fprintf(&b, `<text x="%g" y="%d">%s</text>`+"\n", left+pw+30, ly, esc(s.Name))
	}
	b.WriteString("</svg>\n")
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// WriteTo writes the chart as SVG.
func (c Bars) WriteTo(w io.Writer) (int64, error) {
	const rowH, barLeft = 24, 260
	h := top + rowH*len(c.Bars) + 30
	var b strings.Builder
	header(&b, width, h, c.Title)
	maxV := 0.0
	for _, bar := range c.Bars {
		maxV = math.Max(maxV, bar.Value)
	}
	if maxV == 0 {
		maxV = 1
	}
	span := float64(width - barLeft - 120)
	for i, bar := range c.Bars {
		y := top + rowH*i
		bw := bar.Value / maxV * span
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", barLeft-8, y+15, esc(bar.Label))
		col := palette[0]
		if bar.Ours {
			col = palette[1]
		}
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n", barLeft, y+3, bw, rowH-6, col)
		note := format(bar.Value) + " " + c.Unit
		if bar.Note != "" {
			note += "  " + bar.Note
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%d">%s</text>`+"\n", float64(barLeft)+bw+6, y+15, esc(note))
	}
	b.WriteString("</svg>\n")
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

func header(b *strings.Builder, w, h int, title string) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(b, `<rect width="%d" height="%d" fill="#fff"/>`+"\n", w, h)
	fmt.Fprintf(b, `<text x="%d" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", left, esc(title))
}

// axis maps data values onto [0, 1], linearly or by log10.
type axis struct {
	log      bool
	zero     bool // a linear axis that starts at zero
	min, max float64
}

func newAxis(log bool) *axis { return &axis{log: log, zero: true, min: math.Inf(1), max: math.Inf(-1)} }

func (a *axis) v(x float64) float64 {
	if a.log {
		return math.Log10(math.Max(x, 1e-12))
	}
	return x
}

func (a *axis) add(x float64) {
	a.min, a.max = math.Min(a.min, a.v(x)), math.Max(a.max, a.v(x))
}

func (a *axis) finish() {
	if math.IsInf(a.min, 0) {
		a.min, a.max = 0, 1
	}
	if a.log {
		a.min, a.max = math.Floor(a.min), math.Ceil(a.max)
	} else if a.zero {
		// Value axes start at zero so that comparisons stay honest.
		a.min = math.Min(0, a.min)
		a.max = niceCeil(a.max)
	} else {
		pad := (a.max - a.min) * 0.05
		a.min, a.max = a.min-pad, a.max+pad
	}
	if a.max <= a.min {
		a.max = a.min + 1
	}
}

func (a *axis) frac(x float64) float64 { return (a.v(x) - a.min) / (a.max - a.min) }

func (a *axis) ticks() []float64 {
	var t []float64
	if a.log {
		for e := a.min; e <= a.max; e++ {
			t = append(t, math.Pow(10, e))
		}
		return t
	}
	step := (a.max - a.min) / 5
	for i := 0; i <= 5; i++ {
		t = append(t, a.min+step*float64(i))
	}
	return t
}

// niceCeil rounds x up to 1, 2 or 5 times a power of ten.
func niceCeil(x float64) float64 {
	if x <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// format writes a tick or value compactly: 1.5k, 20M, 0.25.
func format(v float64) string {
	abs := math.Abs(v)
	switch {
	case abs >= 1e9:
		return trim(v/1e9) + "G"
	case abs >= 1e6:
		return trim(v/1e6) + "M"
	case abs >= 1e4:
		return trim(v/1e3) + "k"
	case abs >= 100 || v == math.Trunc(v):
		return fmt.Sprintf("%.0f", v)
	default:
		return fmt.Sprintf("%.3g", v)
	}
}

func trim(v float64) string {
	s := fmt.Sprintf("%.1f", v)
	return strings.TrimSuffix(s, ".0")
}

func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
