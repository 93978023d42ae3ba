package main

import (
	"fmt"
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
	if len(r.reach) > 0 {
		fmt.Fprintf(r.md, "\nAt equal level the default path runs the same encoders as the fastest Go peer, so it runs about as fast; "+
			"over the kinds of body ([per kind](docs/performance.md#middleware-at-equal-level-on-every-kind-of-body)), squeeze against the fastest peer: %s.\n",
			strings.Join(r.reach, "; "))
	}
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
