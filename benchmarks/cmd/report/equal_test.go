package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestEqualGoalNeedsSpeedAndBytes: a kind meets the goal against the
// fastest peer only when squeeze is fast enough and its body is within
// 3 % of that peer's.
func TestEqualGoalNeedsSpeedAndBytes(t *testing.T) {
	var out equalOutput
	line := func(kind string, size int, impl string, ns, outB float64) {
		out.cell("gzip", 5, kind, size, impl, ns, outB)
	}
	for _, size := range []int{1024, 4096} {
		// fast: twice as fast as gzhttp, the fastest peer, same bytes.
		line("fast", size, "squeeze", 10, 500)
		line("fast", size, "gzhttp", 20, 500)
		line("fast", size, "chi", 40, 490)
		// big: as fast, but 5 % larger than gzhttp's body.
		line("big", size, "squeeze", 10, 525)
		line("big", size, "gzhttp", 20, 500)
		line("big", size, "chi", 40, 490)
	}
	run := out.run()
	r := newTestReport()
	r.begin("equal-level")
	r.equalTable(run, "gzip 5")
	got := r.md.String()
	wantIn(t, "table", got,
		"| fast | 2.00× vs gzhttp ✓ | 2.00× vs gzhttp ✓ |",
		"| big | 2.00× vs gzhttp ✗ | 2.00× vs gzhttp ✗ |",
		"+5.0 % / +5.0 %",
		"≥ 2.00× at 1 KiB for 1 of 2 kinds")
	if _, ok := r.headline["equal-level"]; !ok {
		t.Error("gzip 5 gave no README figure")
	}
}

// TestReachLineNamesTheSlowestAndFastestKind: the README's per-kind line
// gives, at each goal size, the range of squeeze's speed over the fastest
// peer across kinds, with the kind at each end.
func TestReachLineNamesTheSlowestAndFastestKind(t *testing.T) {
	var out equalOutput
	line := func(kind string, size int, impl string, ns float64) {
		out.cell("gzip", 5, kind, size, impl, ns, 500)
	}
	for _, size := range []int{1024, 4096} {
		line("json", size, "squeeze", 10)
		line("json", size, "gzhttp", 12)
		line("html", size, "squeeze", 20)
		line("html", size, "gzhttp", 18)
		line("html", size, "chi", 40)
	}
	run := out.run()
	got := run.reachLine("gzip 5")
	want := "gzip 5: 0.90×–1.20× at 1 KiB (html to json), 0.90×–1.20× at 4 KiB (html to json)"
	if got != want {
		t.Errorf("reachLine = %q, want %q", got, want)
	}
}

// TestGoalLineGivesTheRangeOverRounds: with interleaved rounds, the goal
// line gives the geomean from the medians and how far each round's own
// geomean went either side of it.
func TestGoalLineGivesTheRangeOverRounds(t *testing.T) {
	var out equalOutput
	line := func(kind string, size int, impl string, ns float64) {
		out.cell("gzip", 5, kind, size, impl, ns, 500)
	}
	// Three rounds, each a whole pass: squeeze at 10 ns, gzhttp at 16, 20
	// and 24 ns (1.6×, 2× and 2.4× in turn, 2× from the medians).
	for _, peer := range []float64{16, 20, 24} {
		for _, size := range []int{1024, 4096} {
			for _, kind := range []string{"json", "html"} {
				line(kind, size, "squeeze", 10)
				line(kind, size, "gzhttp", peer)
			}
		}
		out.round()
	}
	run := out.run()
	if len(run.rounds) != 3 {
		t.Fatalf("%d rounds, want 3", len(run.rounds))
	}
	r := newTestReport()
	r.begin("equal-level")
	r.equalTable(run, "gzip 5")
	wantIn(t, "goal line", r.md.String(), "≥ 2.00× at 1 KiB for 2 of 2 kinds (geomean 2.00×, 1.60×–2.40× over 3 rounds)")
}

// equalOutput writes BenchmarkEqualLevel's output from cells given one at
// a time, as go test prints it (testing.BenchmarkResult's String, which
// sorts the metrics by unit): a line per coding, level, size and
// implementation, in the order first given, with each kind's time and body
// as the metrics ns/KIND and out-B/KIND beside the pass's ns/op and MB/s.
type equalOutput struct {
	out     strings.Builder
	names   []string                      // this round's lines, in order
	metrics map[string]map[string]float64 // per line, its kinds' metrics
}

// cell adds one kind's time and body to its line of the round.
func (e *equalOutput) cell(coding string, level int, kind string, size int, impl string, ns, outB float64) {
	name := fmt.Sprintf("BenchmarkEqualLevel/coding=%s/level=%d/size=%d/impl=%s-2", coding, level, size, impl)
	if e.metrics == nil {
		e.metrics = map[string]map[string]float64{}
	}
	if _, ok := e.metrics[name]; !ok {
		e.names = append(e.names, name)
		e.metrics[name] = map[string]float64{}
	}
	e.metrics[name]["ns/"+kind], e.metrics[name]["out-B/"+kind] = ns, outB
}

// round prints the round's lines: the cells given after it go to lines of
// the next round.
func (e *equalOutput) round() {
	for _, name := range e.names {
		r := testing.BenchmarkResult{N: 100, T: 123456 * time.Microsecond, Bytes: 1 << 20, Extra: e.metrics[name]}
		fmt.Fprintf(&e.out, "%s \t%s\n", name, r.String())
	}
	e.names, e.metrics = nil, nil
}

// run prints the last round and parses the whole output.
func (e *equalOutput) run() equalRun {
	e.round()
	return parseEqual(parseBench(e.out.String()))
}

// TestParseEqualReadsEachKindsMetrics: one line of BenchmarkEqualLevel
// carries every kind's time and body; each goes to its own kind, and the
// pass's ns/op and MB/s to none.
func TestParseEqualReadsEachKindsMetrics(t *testing.T) {
	var out equalOutput
	out.cell("br", 4, "json", 4096, "squeeze", 11, 501)
	out.cell("br", 4, "html", 4096, "squeeze", 22, 402)
	out.cell("br", 4, "json", 4096, "httpcompression", 33, 503)
	run := out.run()
	want := map[equalKey][2]float64{
		{"br 4", "json", 4096, "squeeze"}:         {11, 501},
		{"br 4", "html", 4096, "squeeze"}:         {22, 402},
		{"br 4", "json", 4096, "httpcompression"}: {33, 503},
	}
	if len(run.ns) != len(want) {
		t.Errorf("%d cells, want %d: %v", len(run.ns), len(want), run.ns)
	}
	for k, w := range want {
		if run.ns[k] != w[0] || run.outB[k] != w[1] {
			t.Errorf("%v: %v ns and %v B, want %v and %v", k, run.ns[k], run.outB[k], w[0], w[1])
		}
	}
	if got := strings.Join(run.kinds, ","); got != "html,json" {
		t.Errorf("kinds %s, want html,json", got)
	}
}

// TestZstd3IsHeldToItsOwnGoal: the issue sets zstd 3 1.5× at 1 KiB and
// 1.25× at 4 KiB; the same speed-ups miss gzip 5's 2× and 1.5×.
func TestZstd3IsHeldToItsOwnGoal(t *testing.T) {
	for _, c := range []struct {
		coding string
		level  int
		mark   string
	}{{"zstd", 3, "✓"}, {"gzip", 5, "✗"}} {
		var out equalOutput
		for _, s := range []struct {
			size int
			ns   float64
		}{{1024, 12.5}, {4096, 15.5}} { // 1.6× and 1.29× of the peer's 20
			out.cell(c.coding, c.level, "css", s.size, "squeeze", s.ns, 500)
			out.cell(c.coding, c.level, "css", s.size, "gzhttp", 20, 500)
		}
		r := newTestReport()
		r.begin("equal-level")
		level := fmt.Sprintf("%s %d", c.coding, c.level)
		r.equalTable(out.run(), level)
		wantIn(t, level, r.md.String(),
			fmt.Sprintf("| css | 1.60× vs gzhttp %s | 1.29× vs gzhttp %s |", c.mark, c.mark))
	}
}
