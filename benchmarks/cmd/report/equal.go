package main

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/squeezehttp/squeeze/benchmarks/chart"
)

// The implementations of BenchmarkEqualLevel: squeeze as shipped (its own
// encoders where the rule of encoding's own.go has them serve), squeeze
// with encoding.LibraryEncoders (the library encodes every body), and the
// peers.
const (
	implShipped     = "squeeze"
	implLibraryOnly = "squeeze-library"
)

var equalPeers = []string{"gzhttp", "httpcompression", "chi"}

// An equalGoal is a speed-up over the fastest Go peer that squeeze is to
// reach on bodies of a size.
type equalGoal struct {
	size int
	goal float64
}

// equalGoals is the goal for squeeze against the fastest Go peer
// at equal level, per level; the levels it sets no goal for are held to
// gzip 5's and br 4's.
var equalGoals = map[string][]equalGoal{
	"gzip 5": {{1 << 10, 2}, {4 << 10, 1.5}},
	"br 4":   {{1 << 10, 2}, {4 << 10, 1.5}},
	"zstd 3": {{1 << 10, 1.5}, {4 << 10, 1.25}},
}

// equalGoalsOf returns the goals of level ("zstd 3").
func equalGoalsOf(level string) []equalGoal {
	if g, ok := equalGoals[level]; ok {
		return g
	}
	return equalGoals["gzip 5"]
}

// equalKey is one cell of BenchmarkEqualLevel: a coding at a level
// ("gzip 5"), a kind of body, a size, an implementation.
type equalKey struct {
	level, kind string
	size        int
	impl        string
}

// equalRun is BenchmarkEqualLevel's medians, and its times round by
// round.
type equalRun struct {
	ns, outB map[equalKey]float64
	rounds   []map[equalKey]float64 // ns per interleaved round, in order
	levels   []string               // "zstd 1", ... in the order run
	kinds    []string
	sizes    []int
	impls    map[string][]string // per level, in the order run
}

// equalLevel runs BenchmarkEqualLevel and writes the equal-level tables
// per kind, the full table per size, the own encoders against the library
// and the frontier chart.
func (r *Report) equalLevel(ctx context.Context) error {
	r.section("Middleware at equal level, on every kind of body",
		"BenchmarkEqualLevel (encoding_equal_level_test.go) serves the repository corpus (testdata/corpus: every kind of web body, "+
			"each source cut end to end into bodies of 256 B, 1, 4 and 8 KiB) through squeeze and the other Go middleware at the same codec and level: "+
			"zstd 1 (klauspost's SpeedFastest, gzhttp's and httpcompression's too) and 3 (SpeedDefault), gzip 5 (chi's is compress/flate at 5), "+
			"br 3 and 4 (httpcompression is the only peer with br; gzhttp and chi have no zstd or br). "+
			"squeeze is the library as shipped, whose codecs encode small bodies with its own encoders where the rule of docs/levels.md has them serve "+
			"and everything else with klauspost/compress and andybalholm/brotli; "+
			"squeeze-library is the same with `encoding.LibraryEncoders` (the library encodes every body), at the levels where the two differ. "+
			"Each implementation serves every body of a size in turn, kind after kind, so that no body comes back before all the others have been sent, "+
			"as in a service whose responses differ; each time is the mean per response over one kind's bodies of that size. "+
			"(Serving a few bodies over and over, as reports before 2026-12-05 did, lets the processor keep what those bodies need from one response to the next, "+
			"which gave every implementation lower times, and some more than others.) "+
			"A ratio is the fastest peer's time over squeeze's: above 1× squeeze is faster. "+
			"The goal set for squeeze is ≥ 2× at 1 KiB and ≥ 1.5× at 4 KiB for every kind (at zstd 3, ≥ 1.5× and ≥ 1.25×), with bytes within 3 % of that peer's: "+
			"✓ where both hold, ✗ where either does not.")
	pattern, bt, count := "^BenchmarkEqualLevel$", r.Mode.Benchtime["EqualLevel"], r.Mode.Count
	if r.Mode.Tiny {
		// One size, one pass: the parsing and the tables, not numbers.
		pattern, bt = "^BenchmarkEqualLevel$/.*/.*/^size=1024$", "1x"
	}
	if bt == "" {
		r.skip("this mode does not run BenchmarkEqualLevel")
		return nil
	}
	out, raw, cmdline, err := r.runBench(ctx, pattern, bt, count)
	if err != nil {
		fmt.Fprintf(r.md, "`%s` failed: %v\n\n```\n%s\n```\n\n", cmdline, err, tail(out, 20))
		return nil
	}
	run := parseEqual(parseBench(out))
	if len(run.levels) == 0 {
		r.skip("BenchmarkEqualLevel printed no results")
		return nil
	}
	for _, level := range run.levels {
		r.equalTable(run, level)
	}
	command(r.md, cmdline)

	r.begin("equal-level-sizes")
	r.section("Middleware at equal level: every kind and size",
		"µs per response (mean over the kind's bodies of that size) and, in parentheses, the mean body sent in bytes; from the same run as the per-kind tables.")
	for _, level := range run.levels {
		r.equalSizesTable(run, level)
	}
	fmt.Fprintf(r.md, "```\n%s | benchstat -col /impl -\n```\n\n", cmdline)
	r.md.WriteString("In benchstat's output sec/op, B/op, allocs/op and MB/s are per pass over every body of the size; ns/KIND is one response's mean time on that kind's bodies.\n\n")
	fmt.Fprintf(r.md, "<details><summary>benchstat</summary>\n\n```\n%s```\n\n</details>\n\n", r.benchstat(ctx, raw))

	r.begin("own-encoders")
	if err := r.ownTable(run, cmdline); err != nil {
		return err
	}

	r.begin("frontier")
	r.frontier(run)
	return nil
}

// parseEqual reads BenchmarkEqualLevel's lines, one per
// coding=C/level=L/size=N and implementation, each kind's time and body
// in its metrics ns/KIND and out-B/KIND, into medians per kind.
func parseEqual(lines []benchLine) equalRun {
	ns, outB := map[equalKey][]float64{}, map[equalKey][]float64{}
	run := equalRun{ns: map[equalKey]float64{}, outB: map[equalKey]float64{}, impls: map[string][]string{}}
	for _, l := range lines {
		f := map[string]string{}
		for _, part := range strings.Split(l.group, "/") {
			if k, v, ok := strings.Cut(part, "="); ok {
				f[k] = v
			}
		}
		size, err := strconv.Atoi(f["size"])
		if err != nil || f["coding"] == "" {
			continue
		}
		// The kinds in the order of their units, as go test prints them.
		level, found := f["coding"]+" "+f["level"], false
		for _, unit := range slices.Sorted(maps.Keys(l.values)) {
			kind, ok := strings.CutPrefix(unit, "ns/")
			if !ok || kind == "op" {
				continue
			}
			found = true
			k := equalKey{level, kind, size, l.impl}
			// The rounds print every cell once each, in order: a cell's
			// n-th line is its n-th round's.
			if len(ns[k]) == len(run.rounds) {
				run.rounds = append(run.rounds, map[equalKey]float64{})
			}
			run.rounds[len(ns[k])][k] = l.values[unit]
			ns[k] = append(ns[k], l.values[unit])
			outB[k] = append(outB[k], l.values["out-B/"+kind])
			if !slices.Contains(run.kinds, kind) {
				run.kinds = append(run.kinds, kind)
			}
		}
		if !found {
			continue
		}
		if !slices.Contains(run.levels, level) {
			run.levels = append(run.levels, level)
		}
		if !slices.Contains(run.sizes, size) {
			run.sizes = append(run.sizes, size)
		}
		if !slices.Contains(run.impls[level], l.impl) {
			run.impls[level] = append(run.impls[level], l.impl)
		}
	}
	for k, v := range ns {
		run.ns[k], run.outB[k] = median(v), median(outB[k])
	}
	slices.Sort(run.sizes)
	return run
}

// fastestPeer is the peer with the least time in ns at one cell, "" when
// no peer offers the level: ns is the medians (run.ns) or one round's.
func fastestPeer(ns map[equalKey]float64, level, kind string, size int) (string, float64) {
	best, t := "", math.Inf(1)
	for _, p := range equalPeers {
		if v, ok := ns[equalKey{level, kind, size, p}]; ok && v < t {
			best, t = p, v
		}
	}
	return best, t
}

// speedup is the fastest peer's time over impl's at one cell, with that
// peer's bytes and name.
func (run equalRun) speedup(level, kind string, size int, impl string) (x, peerBytes float64, peer string) {
	peer, t := fastestPeer(run.ns, level, kind, size)
	o, ok := run.ns[equalKey{level, kind, size, impl}]
	if peer == "" || !ok {
		return math.NaN(), math.NaN(), ""
	}
	return t / o, run.outB[equalKey{level, kind, size, peer}], peer
}

// roundRange is the least and the greatest over the rounds of impl's
// geomean, over kinds, of the fastest peer's time over its own at level
// and size, each round's times taken alone: how far the geomean the
// tables give (from the medians) moved from round to round.
func (run equalRun) roundRange(level string, size int, impl string) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, ns := range run.rounds {
		var xs []float64
		for _, kind := range run.kinds {
			o, ok := ns[equalKey{level, kind, size, impl}]
			if peer, t := fastestPeer(ns, level, kind, size); ok && peer != "" {
				xs = append(xs, t/o)
			}
		}
		if len(xs) > 0 {
			g := geomean(xs)
			lo, hi = min(lo, g), max(hi, g)
		}
	}
	return lo, hi
}

// equalTable writes one level's table: per kind, squeeze against the
// fastest peer at the goal sizes, the geomean and worst over every size,
// and the bytes.
func (r *Report) equalTable(run equalRun, level string) {
	impls := run.impls[level]
	goals := equalGoalsOf(level)
	own := slices.Contains(impls, implLibraryOnly)
	fmt.Fprintf(r.md, "### %s (peers: %s)\n\n", level, strings.Join(without(impls, implShipped, implLibraryOnly), ", "))
	head := []string{"kind"}
	for _, g := range goals {
		head = append(head, fmt.Sprintf("%s (goal ≥ %s)", sizeLabelB(g.size), ratio(g.goal)))
	}
	head = append(head, "all sizes: geomean / worst", "bytes vs that peer: geomean / worst")
	if own {
		head = append(head, "squeeze-library, "+sizeLabelB(goals[0].size)+"; "+sizeLabelB(goals[1].size))
	}
	var rows [][]string
	type tally struct {
		reached []int
		x       [][]float64 // per goal size, over kinds
	}
	tallies := map[string]*tally{}
	for _, impl := range []string{implShipped, implLibraryOnly} {
		tallies[impl] = &tally{make([]int, len(goals)), make([][]float64, len(goals))}
	}
	// verdict compares impl with the fastest peer at one goal size: the
	// goal needs the speed and bytes within 3 % of that peer's.
	verdict := func(impl, kind string, i int) (x float64, cell string) {
		g := goals[i]
		x, pb, peer := run.speedup(level, kind, g.size, impl)
		if math.IsNaN(x) {
			return x, "–"
		}
		t := tallies[impl]
		t.x[i] = append(t.x[i], x)
		mark := " ✗"
		if x >= g.goal && run.outB[equalKey{level, kind, g.size, impl}] <= pb*1.03 {
			mark = " ✓"
			t.reached[i]++
		}
		return x, fmt.Sprintf("%s vs %s%s", ratio(x), peer, mark)
	}
	for _, kind := range run.kinds {
		row := []string{kind}
		for i := range goals {
			_, cell := verdict(implShipped, kind, i)
			row = append(row, cell)
		}
		var xs, bytesRel []float64
		for _, size := range run.sizes {
			x, pb, _ := run.speedup(level, kind, size, implShipped)
			if math.IsNaN(x) {
				continue
			}
			xs = append(xs, x)
			bytesRel = append(bytesRel, run.outB[equalKey{level, kind, size, implShipped}]/pb)
		}
		row = append(row, ratio(geomean(xs))+" / "+ratio(minOr(xs)),
			pct(geomean(bytesRel))+" / "+pct(maxOr(bytesRel)))
		if own {
			var cells []string
			for i := range goals {
				_, cell := verdict(implLibraryOnly, kind, i)
				cells = append(cells, cell)
			}
			row = append(row, strings.Join(cells, "; "))
		}
		rows = append(rows, row)
	}
	writeTable(r.md, head, rows)
	fmt.Fprintf(r.md, "Range over kinds of body, squeeze against the fastest peer of each: %s.\n\n", run.reachLine(level))
	if row, ok := run.levelRow(level); ok {
		r.levelRows = append(r.levelRows, row)
	}
	for _, impl := range []string{implShipped, implLibraryOnly} {
		if impl == implLibraryOnly && !own {
			continue
		}
		t := tallies[impl]
		var said []string
		for i, g := range goals {
			geo := "geomean " + ratio(geomean(t.x[i]))
			if lo, hi := run.roundRange(level, g.size, impl); len(run.rounds) > 1 && lo <= hi {
				geo += fmt.Sprintf(", %s–%s over %d rounds", ratio(lo), ratio(hi), len(run.rounds))
			}
			said = append(said, fmt.Sprintf("≥ %s at %s for %d of %d kinds (%s)", ratio(g.goal), sizeLabelB(g.size), t.reached[i], len(run.kinds), geo))
		}
		fmt.Fprintf(r.md, "Goal reached by %s at %s: %s.\n\n", impl, level, strings.Join(said, ", "))
		r.addSummary(fmt.Sprintf("Equal level, %s: %s against the fastest Go peer, kinds of body meeting the goal", level, impl),
			strings.Join(said, "; "), "go run ./cmd/report -only equal")
	}
	if level == "gzip 5" {
		r.equalHeadline(run, level)
	}
}

// reachLine says, for the README, how far the default path is from the
// fastest Go peer at level on every kind of body: the range over kinds at
// each goal size, with the kind at each end.
func (run equalRun) reachLine(level string) string {
	var parts []string
	for _, g := range equalGoalsOf(level) {
		lo, hi := math.Inf(1), math.Inf(-1)
		var loKind, hiKind string
		for _, kind := range run.kinds {
			x, _, _ := run.speedup(level, kind, g.size, implShipped)
			if math.IsNaN(x) {
				continue
			}
			if x < lo {
				lo, loKind = x, kind
			}
			if x > hi {
				hi, hiKind = x, kind
			}
		}
		if loKind == "" {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s–%s at %s (%s to %s)", ratio(lo), ratio(hi), sizeLabelB(g.size), loKind, hiKind))
	}
	return level + ": " + strings.Join(parts, ", ")
}

// equalHeadline is the README's middleware figure: 1 KiB bodies at gzip 5,
// the coding every peer offers, against the peer fastest over all kinds.
func (r *Report) equalHeadline(run equalRun, level string) {
	size := 1 << 10
	best, bestT := run.fastestOverKinds(level, size)
	o := run.geomeanOverKinds(level, size, implShipped)
	if best == "" || math.IsNaN(o) {
		return
	}
	r.addHeadline("equal-level", headlineFigure{
		what:    fmt.Sprintf("One 1 KiB response through the middleware at %s, geomean over %d kinds of web body", level, len(run.kinds)),
		ours:    dur1(o),
		peer:    fmt.Sprintf("%s: %s", best, dur1(bestT)),
		ratio:   ratio(bestT / o),
		command: "go run ./cmd/report -only equal",
	})
}

// geomeanOverKinds is impl's geomean time at level and size over every
// kind, NaN unless it ran on every kind.
func (run equalRun) geomeanOverKinds(level string, size int, impl string) float64 {
	var ts []float64
	for _, kind := range run.kinds {
		if v, ok := run.ns[equalKey{level, kind, size, impl}]; ok {
			ts = append(ts, v)
		}
	}
	if len(ts) != len(run.kinds) {
		return math.NaN()
	}
	return geomean(ts)
}

// fastestOverKinds is the peer with the least geomean time at level and
// size over every kind, and that time; "" when no peer ran every kind.
func (run equalRun) fastestOverKinds(level string, size int) (string, float64) {
	best, bestT := "", math.Inf(1)
	for _, p := range equalPeers {
		if g := run.geomeanOverKinds(level, size, p); g < bestT {
			best, bestT = p, g
		}
	}
	return best, bestT
}

// equalSizesTable writes one level's full table: every kind and size,
// every implementation.
func (r *Report) equalSizesTable(run equalRun, level string) {
	impls := run.impls[level]
	fmt.Fprintf(r.md, "### %s\n\n", level)
	var rows [][]string
	for _, kind := range run.kinds {
		for _, size := range run.sizes {
			row := []string{kind, sizeLabelB(size)}
			for _, impl := range impls {
				k := equalKey{level, kind, size, impl}
				if _, ok := run.ns[k]; !ok {
					row = append(row, "–")
					continue
				}
				row = append(row, fmt.Sprintf("%s (%s)", num(run.ns[k]/1e3), num(run.outB[k])))
			}
			rows = append(rows, row)
		}
	}
	writeTable(r.md, append([]string{"kind", "size"}, impls...), rows)
}

// ownTable writes the own encoders against the library at the same level,
// per kind: the exact sizes of every body an own encoder serves, and the
// time per response from BenchmarkEqualLevel.
func (r *Report) ownTable(run equalRun, cmdline string) error {
	sizes, maxBody, err := ownSizes()
	if err != nil {
		return err
	}
	var upTo []string
	for _, l := range ownLevels {
		upTo = append(upTo, fmt.Sprintf("%d KiB for %s", maxBody[l.codec.Name()]>>10, l.level))
	}
	r.section("Own small-body encoders against the library, same level",
		"squeeze as shipped, whose own encoders serve these levels' small bodies, against squeeze-library (`encoding.LibraryEncoders`). "+
			"Bytes: the own encoder's output over the library's, minus one (+2.0 % means 2 % larger; a level's promise is at most +1 % geomean per kind and +8 % on a body of 1 KiB or more), "+
			"geomean and worst over every body of the kind that the own encoder serves (every cut of the corpus up to "+
			strings.Join(upTo, ", ")+"), encoded one-shot as the middleware does, with the worst body named source/size@offset. "+
			"Time: the library's time per response over the own encoder's, through the middleware (above 1× the own encoder is faster), "+
			"geomean and worst over the sizes of BenchmarkEqualLevel that it serves.")
	var rows [][]string
	over := map[string]int{}
	for _, kind := range run.kinds {
		row := []string{kind}
		for _, l := range ownLevels {
			coding, _, _ := strings.Cut(l.level, " ")
			var t []float64
			for _, size := range run.sizes {
				own, lib := equalKey{l.level, kind, size, implShipped}, equalKey{l.level, kind, size, implLibraryOnly}
				if _, ok := run.ns[lib]; ok && size <= maxBody[coding] {
					t = append(t, run.ns[lib]/run.ns[own])
				}
			}
			s := sizes[l.level][kind]
			if s.worst > 1.08 {
				over[l.level]++
			}
			row = append(row, s.String(), ratio(geomean(t))+" / "+ratio(minOr(t)))
		}
		rows = append(rows, row)
	}
	head := []string{"kind"}
	for _, l := range ownLevels {
		head = append(head, l.level+" bytes: geomean / worst (body)", l.level+" time")
	}
	writeTable(r.md, head, rows)
	for _, l := range ownLevels {
		fmt.Fprintf(r.md, "- %s: the own encoder is more than 8 %% larger than the library on some body of %d of %d kinds.\n", l.level, over[l.level], len(run.kinds))
	}
	r.md.WriteString("\n")
	command(r.md, cmdline)
	return nil
}

// frontier charts bytes against time per response, one chart per coding:
// one line per implementation through the levels it offers, each point
// the geomean over every kind and size, so that own encoder and library
// (and the peers) show where they sit on the speed/size frontier.
func (r *Report) frontier(run equalRun) {
	r.section("Frontier: bytes against time per response", "One chart per coding. Each point is one level (its label), "+
		"at the geomean over every kind and size of the corpus of the time per response and of the body sent; lower left is better, "+
		"and the bytes axis does not start at zero. squeeze-library has points only at the levels where squeeze's own encoders serve.")
	var codings []string
	for _, level := range run.levels {
		if c, _, _ := strings.Cut(level, " "); !slices.Contains(codings, c) {
			codings = append(codings, c)
		}
	}
	var rows [][]string
	for _, coding := range codings {
		var series []chart.Series
		for _, impl := range append([]string{implShipped, implLibraryOnly}, equalPeers...) {
			s := chart.Series{Name: impl}
			for _, level := range run.levels {
				if !strings.HasPrefix(level, coding+" ") {
					continue
				}
				var ts, bs []float64
				for _, kind := range run.kinds {
					for _, size := range run.sizes {
						k := equalKey{level, kind, size, impl}
						if _, ok := run.ns[k]; ok {
							ts, bs = append(ts, run.ns[k]/1e3), append(bs, run.outB[k])
						}
					}
				}
				// A point is comparable only over the whole corpus.
				if len(ts) == 0 || len(ts) != len(run.kinds)*len(run.sizes) {
					continue
				}
				s.Points = append(s.Points, chart.Point{X: geomean(ts), Y: geomean(bs), Label: level})
				rows = append(rows, []string{level, impl, num(geomean(ts)), num(geomean(bs))})
			}
			if len(s.Points) > 0 {
				series = append(series, s)
			}
		}
		file := "frontier-" + coding + ".svg"
		r.charts[file] = chart.Line{Title: coding + " at equal level: bytes against µs per response",
			XLabel: "µs per response", YLabel: "bytes sent", SpanY: true, Series: series}
		fmt.Fprintf(r.md, "![frontier, %s]({charts}/%s)\n", coding, file)
	}
	r.md.WriteString("\n")
	writeTable(r.md, []string{"coding and level", "implementation", "µs per response (geomean)", "bytes (geomean)"}, rows)
}

func without(s []string, drop ...string) []string {
	var out []string
	for _, x := range s {
		if !slices.Contains(drop, x) {
			out = append(out, x)
		}
	}
	return out
}

// pct writes a ratio x as a relative difference: 1.02 is "+2.0 %".
func pct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return fmt.Sprintf("%+.1f %%", (x-1)*100)
}

func maxOr(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	return slices.Max(v)
}

func minOr(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	return slices.Min(v)
}

// sizeLabelB writes a body size: 256 B, 1 KiB.
func sizeLabelB(n int) string {
	if n < 1<<10 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// dur1 writes nanoseconds as µs.
func dur1(ns float64) string { return fmt.Sprintf("%s µs", num(ns/1e3)) }
