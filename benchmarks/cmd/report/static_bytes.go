package main

import (
	"context"
	"fmt"
	"math"
	"strings"
)

// staticBytes measures the bytes of the static path, BenchmarkStaticBytes
// once: the generator's sidecars beside the C tools', and what a client
// sending Chromium's Accept-Encoding receives for a site-like tree, with
// sidecars and from the fallback.
func (r *Report) staticBytes(ctx context.Context) error {
	r.section("Static files: the bytes of sidecars and of what a browser receives",
		"The tree is internal/corpus.StaticTree: a generated documentation site and the repository's corpus of real web files, "+
			"about 1.2 MB. *Sidecars*: all of them in one coding, made by `precompressed.Generate` (one worker, every file "+
			"kept) and by the C tool at its usual highest setting over the same files, in one process each; the ratio is the "+
			"other's bytes over squeeze's (below 1× means the C tool's are smaller). *Chromium*: the bytes a client sending "+
			"`gzip, deflate, br, zstd` receives for the whole tree from `precompressed.FileServer`: over the generator's three "+
			"sidecars, smallest-first (the default) against the Sidecars order (zstd first, `Config.PreferOrder`); without "+
			"sidecars, from the fallback cache after its background recompression (the default) against before it. "+
			"Times come from one run on the report's machine.")
	lines, cmdline, ok := r.benchOnce(ctx, "^BenchmarkStaticBytes$")
	if !ok {
		return nil
	}
	writeTable(r.md, []string{"what", "squeeze", "compared with", "ratio"}, staticBytesRows(lines))
	fmt.Fprintf(r.md, "```\n%s\n```\n\n", cmdline)
	return nil
}

// staticBytesRows turns BenchmarkStaticBytes's lines into one row per
// group and implementation other than squeeze's.
func staticBytesRows(lines []benchLine) [][]string {
	ours := map[string]benchLine{}
	for _, l := range lines {
		if oursImpl[l.impl] {
			ours[l.group] = l
		}
	}
	cell := func(l benchLine) string {
		s := num(l.values["B"]) + " B"
		if t, ok := l.values["s/tree"]; ok {
			s += ", " + num(t) + " s"
		}
		return s
	}
	var rows [][]string
	for _, l := range lines {
		o, ok := ours[l.group]
		if oursImpl[l.impl] || !ok {
			continue
		}
		x := math.NaN()
		if o.values["B"] > 0 {
			x = l.values["B"] / o.values["B"]
		}
		rows = append(rows, []string{strings.ReplaceAll(l.group, "coding=", ""), cell(o), l.impl + ": " + cell(l), ratio(x)})
	}
	return rows
}
