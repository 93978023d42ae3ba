package main

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"time"
)

// writeTable writes a Markdown table.
func writeTable(b *bytes.Buffer, head []string, rows [][]string) {
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|")
	for range head {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, row := range rows {
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	b.WriteString("\n")
}

// command writes the commands that produced a table.
func command(b *bytes.Buffer, cmds ...string) {
	b.WriteString("```\n")
	for _, c := range cmds {
		b.WriteString(portless(c) + "\n")
	}
	b.WriteString("```\n\n")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// fit returns the least-squares line y = a + k·x.
func fit(xs, ys []float64) (a, k float64) {
	n := float64(len(xs))
	if n < 2 {
		return 0, 0
	}
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return sy / n, 0
	}
	k = (n*sxy - sx*sy) / d
	return (sy - k*sx) / n, k
}

// logSlope is the exponent of a power law y ∝ x^k fitted on log scales.
func logSlope(xs, ys []float64) float64 {
	lx, ly := make([]float64, len(xs)), make([]float64, len(ys))
	for i := range xs {
		lx[i], ly[i] = math.Log(xs[i]), math.Log(ys[i])
	}
	_, k := fit(lx, ly)
	return k
}

func size(n float64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", n/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", n/(1<<10))
	default:
		return fmt.Sprintf("%.0f B", n)
	}
}

func sizeLabel(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d KB", n>>10)
}

func dur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2f ms", float64(d)/1e6)
	default:
		return fmt.Sprintf("%.1f µs", float64(d)/1e3)
	}
}

func ratio(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return fmt.Sprintf("%.2f×", x)
}

func num(x float64) string {
	switch {
	case math.IsNaN(x):
		return "–"
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	default:
		return fmt.Sprintf("%.2f", x)
	}
}

var loopbackPort = regexp.MustCompile(`127\.0\.0\.1:\d+`)

// portless replaces the free port a server happened to get with $PORT, so
// that the recorded commands read the same from run to run.
func portless(cmd string) string { return loopbackPort.ReplaceAllString(cmd, "127.0.0.1:$$PORT") }
