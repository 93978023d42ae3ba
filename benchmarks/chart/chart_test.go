package chart

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// wellFormed fails the test unless svg parses as XML with an <svg> root.
func wellFormed(t *testing.T, svg string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("chart is not well-formed XML: %v\n%s", err, svg)
		}
		if s, ok := tok.(xml.StartElement); ok && root == "" {
			root = s.Name.Local
		}
	}
	if root != "svg" {
		t.Fatalf("root element is %q, want svg", root)
	}
}

func TestChartsAreWellFormedSVGWithEscapedText(t *testing.T) {
	line := Line{Title: `a <b> & "c"`, XLabel: "x", YLabel: "y", LogX: true, LogY: true, Series: []Series{
		{Name: "zstd & br", Points: []Point{{1024, 10, "1"}, {8 << 20, 900, "<4>"}}},
		{Name: "empty"},
	}}
	bars := Bars{Title: "rps", Unit: "rps", Bars: []Bar{{Label: "squeeze <ours>", Value: 1200, Note: "1.4×", Ours: true}, {Label: "nginx"}}}
	for name, c := range map[string]interface {
		WriteTo(io.Writer) (int64, error)
	}{"line": line, "bars": bars, "empty line": Line{}, "empty bars": Bars{}} {
		var b bytes.Buffer
		if _, err := c.WriteTo(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		wellFormed(t, b.String())
	}
}

func TestLogAxisTicksArePowersOfTen(t *testing.T) {
	a := newAxis(true)
	a.add(3)
	a.add(4000)
	a.finish()
	got := a.ticks()
	want := []float64{1, 10, 100, 1000, 10000}
	if len(got) != len(want) {
		t.Fatalf("ticks = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ticks = %v, want %v", got, want)
		}
	}
}

func TestLinearAxisStartsAtZero(t *testing.T) {
	a := newAxis(false)
	a.add(40)
	a.add(70)
	a.finish()
	if a.min != 0 || a.max != 100 {
		t.Errorf("axis spans %g..%g, want 0..100 (zero-based, rounded up to 1, 2 or 5 × 10^n)", a.min, a.max)
	}
}

func TestSpanYDrawsTheDataNotZero(t *testing.T) {
	c := Line{Title: "frontier", SpanY: true, Series: []Series{{Name: "a", Points: []Point{{10, 400, "1"}, {20, 450, "3"}}}}}
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `text-anchor="end">0</text>`) {
		t.Errorf("SpanY chart has a y tick at 0:\n%s", b.String())
	}
}
