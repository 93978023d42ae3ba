package main

import (
	"fmt"
	"math"
	"strings"
)

// headlineFigure is one of the README's three figures: squeeze against one
// peer doing the same work (same codec and level).
type headlineFigure struct {
	what    string // the work, with the codec and level
	ours    string
	peer    string // the peer's name and figure
	ratio   string // above 1× squeeze is ahead
	command string
}

// headlineKeys are the README's figures in order: the middleware at equal
// level against the fastest Go peer, on-the-fly compression against nginx,
// and a WebSocket echo against the Go WebSocket libraries.
var headlineKeys = []string{"equal-level", "published", "websocket"}

// addHeadline records one of the README's figures.
func (r *Report) addHeadline(key string, f headlineFigure) {
	f.command = portless(f.command)
	r.headline[key] = f
}

// writeHeadline fills the README's headline section when this run
// measured all three figures; otherwise the README keeps the ones of the
// run that did, so that its figures always come from one run.
func (r *Report) writeHeadline() {
	var missing []string
	for _, k := range headlineKeys {
		if _, ok := r.headline[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		r.logf("README headline not rewritten: this run has no %s figure", strings.Join(missing, ", "))
		return
	}
	r.begin("headline")
	fmt.Fprintf(r.md, "Measured in one run of the benchmark report on %s, %s; each figure sets squeeze against another server "+
		"doing the same work (same coding, same level). More, with every command: [docs/performance.md](docs/performance.md).\n\n",
		machineLine(), stamp(r.start))
	r.md.WriteString("| Work | squeeze | Peer, same coding and level | squeeze ahead by |\n|---|---|---|---|\n")
	for _, k := range headlineKeys {
		f := r.headline[k]
		fmt.Fprintf(r.md, "| %s | %s | %s | %s |\n", f.what, f.ours, f.peer, f.ratio)
	}
	r.writeLevelTable()
}

// levelRow is one row of the README's per-level table: squeeze at one
// coding and level against the Go peer fastest there at 1 KiB, geomeans
// over every kind of body.
type levelRow struct {
	level  string     // "gzip 5"
	kinds  int        // kinds of body measured
	ours   float64    // squeeze's ns per 1 KiB response
	peer   string     // the fastest peer at 1 KiB
	peerNs float64    // its ns per 1 KiB response
	x      [2]float64 // the peer's time over squeeze's at 1 and 4 KiB
	bytes  float64    // squeeze's bytes over the peer's, at both sizes
}

// levelRow is level's row, false when no peer ran every kind at 1 KiB.
func (run equalRun) levelRow(level string) (levelRow, bool) {
	sizes := [2]int{1 << 10, 4 << 10}
	row := levelRow{level: level, kinds: len(run.kinds)}
	row.peer, row.peerNs = run.fastestOverKinds(level, sizes[0])
	row.ours = run.geomeanOverKinds(level, sizes[0], implShipped)
	if row.peer == "" || math.IsNaN(row.ours) {
		return row, false
	}
	var rel []float64
	for i, size := range sizes {
		row.x[i] = run.geomeanOverKinds(level, size, row.peer) / run.geomeanOverKinds(level, size, implShipped)
		for _, kind := range run.kinds {
			o, okO := run.outB[equalKey{level, kind, size, implShipped}]
			p, okP := run.outB[equalKey{level, kind, size, row.peer}]
			if okO && okP && p > 0 {
				rel = append(rel, o/p)
			}
		}
	}
	row.bytes = geomean(rel)
	return row, true
}

// writeLevelTable writes the README's per-level comparison, one small row
// per coding and level; the range over kinds of body stays in
// docs/performance.md, beside each level's table.
func (r *Report) writeLevelTable() {
	if len(r.levelRows) == 0 {
		return
	}
	fmt.Fprintf(r.md, "\nAt equal level, squeeze against the Go middleware fastest at 1 KiB, geomean over %d kinds of web body "+
		"(squeeze's own encoders serve small bodies where they keep the level's bytes in at most two thirds of the library's time, "+
		"[docs/levels.md](docs/levels.md#squeezes-own-small-body-encoders); elsewhere it runs the peers' encoders; every kind: "+
		"[docs/performance.md](docs/performance.md#middleware-at-equal-level-on-every-kind-of-body)):\n\n", r.levelRows[0].kinds)
	var rows [][]string
	for _, l := range r.levelRows {
		rows = append(rows, []string{l.level, dur1(l.ours), fmt.Sprintf("%s: %s", l.peer, dur1(l.peerNs)),
			ratio(l.x[0]), ratio(l.x[1]), pct(l.bytes)})
	}
	writeTable(r.md, []string{"Coding and level", "squeeze, 1 KiB", "Fastest Go peer, 1 KiB", "squeeze ahead by, 1 KiB", "4 KiB", "Bytes vs that peer"}, rows)
}

// writeSummary fills the summary section: every headline figure of every
// part with the command that reproduces it, and the charts. A run of only
// some parts leaves the summary of the last whole run.
func (r *Report) writeSummary() {
	r.begin("summary")
	fmt.Fprintf(r.md, "Measured side by side in one run on %s, %s (%s mode). In the commands, $PORT is the port the report's server got; "+
		"the Go benchmarks run in the benchmarks module. Ratios above 1× mean squeeze is ahead.\n\n", machineLine(), stamp(r.start), r.Mode.Name)
	r.md.WriteString("| What | Result | Command |\n|---|---|---|\n")
	for _, h := range r.summary {
		fmt.Fprintf(r.md, "| %s | %s | `%s` |\n", h.what, h.result, h.command)
	}
	r.md.WriteString("\n")
	for _, name := range sortedKeys(r.charts) {
		fmt.Fprintf(r.md, "![%s](%s/%s)\n", strings.TrimSuffix(name, ".svg"), chartsLink, name)
	}
}
