package main

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/squeezehttp/squeeze/benchmarks/chart"
)

// goBench is one of the module's Go benchmarks the report runs.
type goBench struct {
	name    string   // BenchmarkName without the prefix
	metrics []string // units tabulated, the first one decides the ratios
	about   string
}

// goBenches are the side-by-side benchmarks of the other packages;
// the report runs them by name and does not know their insides beyond the
// /impl= label each sub-benchmark carries.
var goBenches = []goBench{
	{"Middleware", []string{"ns/op", "out-B", "B/op"}, "one response through each middleware at the same codec and level"},
	{"WSEcho", []string{"ns/op", "msgs/s"}, "a permessage-deflate echo over loopback TCP, both ends compressing"},
	{"WSDeflateRoundTrip", []string{"ns/op", "wire-B/msg"}, "compress and decompress one message, codec only"},
	{"WSIdleHeap", []string{"heap-KiB/pair", "stack-KiB/pair"}, "heap retained per idle connection pair, context takeover"},
	{"WSDeflateIdleMemory", []string{"KiB/conn"}, "memory per idle connection's compression state"},
	{"WSEchoHTTP2", []string{"msgs/s", "cpu-ns/op", "allocs/op"}, "wsdeflate at both ends over TLS: a WebSocket on its own HTTP/1.1 connection against one on an HTTP/2 stream (RFC 8441), 1 KB messages with context takeover"},
	{"EchoFloorHTTP2", []string{"msgs/s", "cpu-ns/op"}, "net/http alone, what WSEchoHTTP2's transports cost before any WebSocket work: a handler echoing 300 bytes (a 1 KB message compressed) and doing nothing else, over a hijacked HTTP/1.1 TLS connection against an HTTP/2 stream (RFC 8441), each driven by a client of one goroutine"},
	{"WSIdleHeapHTTP2", []string{"heap-KiB/pair"}, "heap kept per idle wsdeflate pair over TLS, HTTP/1.1 connections against HTTP/2 streams of one connection"},
}

// section is the published section b's tables go to.
func (b goBench) section() string {
	if b.name == "Middleware" {
		return "middleware"
	}
	return "websocket"
}

func (b goBench) sectionTitle() string {
	if b.name == "Middleware" {
		return "Middleware against other Go middleware (BenchmarkMiddleware)"
	}
	return "WebSocket: wsdeflate against coder/websocket and gorilla/websocket"
}

// oursImpl are the /impl= labels that name squeeze's own implementation.
var oursImpl = map[string]bool{"squeeze": true, "ours": true}

// benchLine is one parsed result line.
type benchLine struct {
	group, impl string
	values      map[string]float64
}

// goBenchmarks runs each benchmark with -count, compares the runs with
// benchstat, and tabulates medians with ratios to our implementation.
func (r *Report) goBenchmarks(ctx context.Context) error {
	intro := fmt.Sprintf("Run with `-count %d` and compared with benchstat "+
		"(`go run golang.org/x/perf/cmd/benchstat@latest`, run as a command so this module does not depend on x/perf). "+
		"The tables give medians; each ratio is that column's value over squeeze's, so above 1× means squeeze uses less "+
		"(time, bytes) — except for msgs/s, where it is ours over theirs.", r.Mode.Count)
	begun := map[string]bool{}
	for _, b := range goBenches {
		if begun[b.section()] {
			continue
		}
		begun[b.section()] = true
		r.begin(b.section())
		r.section(b.sectionTitle(), intro)
		if r.Mode.Tiny {
			r.skip("tiny mode (the test): `.ci/run` already runs every benchmark once")
		}
	}
	if r.Mode.Tiny {
		return nil
	}
	for _, b := range goBenches {
		bt := r.Mode.Benchtime[b.name]
		if bt == "" {
			continue
		}
		r.md = r.sections[b.section()]
		out, raw, cmdline, err := r.runBench(ctx, "^Benchmark"+b.name+"$", bt, r.Mode.Count)
		if err != nil {
			fmt.Fprintf(r.md, "### %s\n\n`%s` failed: %v\n\n```\n%s\n```\n\n", b.name, cmdline, err, tail(out, 20))
			continue
		}
		lines := parseBench(out)
		fmt.Fprintf(r.md, "### %s\n\n%s.\n\n", b.name, b.about)
		r.benchTable(b, lines)
		stat := r.benchstat(ctx, raw)
		fmt.Fprintf(r.md, "```\n%s | benchstat -col /impl -\n```\n\n", cmdline)
		fmt.Fprintf(r.md, "<details><summary>benchstat</summary>\n\n```\n%s```\n\n</details>\n\n", stat)
	}
	return nil
}

// benchOnce runs the module's benchmarks that pattern selects once
// (-benchtime 1x, -count 1: memory and bytes, not time) and returns their
// lines and the command; when it cannot (tiny mode) or they fail, it says
// so in the section and reports false.
func (r *Report) benchOnce(ctx context.Context, pattern string) ([]benchLine, string, bool) {
	if r.Mode.Tiny {
		r.skip("tiny mode (the test): `.ci/run` already runs every benchmark once")
		return nil, "", false
	}
	out, _, cmdline, err := r.runBench(ctx, pattern, "1x", 1)
	if err != nil {
		fmt.Fprintf(r.md, "`%s` failed: %v\n\n```\n%s\n```\n\n", cmdline, err, tail(out, 20))
		return nil, cmdline, false
	}
	return parseBench(out), cmdline, true
}

// runBench runs the module's benchmarks that pattern selects in count
// interleaved rounds, each a whole pass over them (go test -count 1), so
// that a burst of noise on a shared machine falls on one round of every
// benchmark rather than on every round of one; -count n would run each
// benchmark's n rounds back to back. It returns their output, the file it
// is saved in (for benchstat) and the command.
func (r *Report) runBench(ctx context.Context, pattern, benchtime string, count int) (out, raw, cmdline string, err error) {
	args := []string{"test", "-run", "^$", "-bench", pattern, "-benchtime", benchtime, "-count", "1", "-timeout", "30m", "."}
	cmdline = fmt.Sprintf("go test -run '^$' -bench '%s' -benchtime %s -count 1 .", pattern, benchtime)
	var env []string
	if strings.Contains(pattern, "HTTP2") {
		// net/http offers Extended CONNECT (RFC 8441) only when the
		// process starts with this setting.
		env = append(os.Environ(), "GODEBUG=http2xconnect=1")
		cmdline = "GODEBUG=http2xconnect=1 " + cmdline
	}
	if count > 1 {
		cmdline = fmt.Sprintf("for round in $(seq %d); do %s; done", count, cmdline)
	}
	r.logf("   %s", cmdline)
	start := time.Now()
	var all []byte
	for range max(count, 1) {
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir, cmd.Env = r.ModuleDir, env
		b, err := cmd.CombinedOutput()
		all = append(all, b...)
		if err != nil {
			return string(all), "", cmdline, err
		}
	}
	r.logf("   ... %v", time.Since(start).Round(time.Second))
	raw = filepath.Join(r.tmp, strings.NewReplacer("^", "", "$", "", "/", "_", "*", "", "(", "", ")", "", "|", "_").Replace(pattern)+".txt")
	if err := os.WriteFile(raw, all, 0o644); err != nil {
		return "", "", cmdline, fmt.Errorf("report: %w", err)
	}
	return string(all), raw, cmdline, nil
}

// benchstat runs benchstat on one raw file, or says why it could not.
func (r *Report) benchstat(ctx context.Context, raw string) string {
	cmd := exec.CommandContext(ctx, "go", "run", "golang.org/x/perf/cmd/benchstat@latest", "-col", "/impl", raw)
	cmd.Dir = r.ModuleDir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Sprintf("benchstat failed: %v\n%s\n", err, tail(string(out), 5))
	}
	return string(out)
}

// parseBench reads `go test -bench` output.
func parseBench(out string) []benchLine {
	var lines []benchLine
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue
		}
		name := f[0]
		// The -GOMAXPROCS suffix.
		if i := strings.LastIndex(name, "-"); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		l := benchLine{values: map[string]float64{}}
		var group []string
		for _, part := range strings.Split(name, "/") {
			if v, ok := strings.CutPrefix(part, "impl="); ok {
				l.impl = v
				continue
			}
			group = append(group, part)
		}
		l.group = strings.Join(group[1:], "/")
		if l.group == "" {
			l.group = "(all)"
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err == nil {
				l.values[f[i+1]] = v
			}
		}
		lines = append(lines, l)
	}
	return lines
}

// benchTable writes medians per group and implementation, for the first
// metric with ratios to ours, and adds the charts and headlines the README
// shows for the WebSocket benchmarks.
func (r *Report) benchTable(b goBench, lines []benchLine) {
	type cell struct{ vals map[string][]float64 }
	var groups, impls []string
	cells := map[[2]string]*cell{}
	units := map[string]bool{}
	for _, l := range lines {
		k := [2]string{l.group, l.impl}
		c := cells[k]
		if c == nil {
			c = &cell{vals: map[string][]float64{}}
			cells[k] = c
			if !contains(groups, l.group) {
				groups = append(groups, l.group)
			}
			if !contains(impls, l.impl) {
				impls = append(impls, l.impl)
			}
		}
		for u, v := range l.values {
			units[u] = true
			c.vals[u] = append(c.vals[u], v)
		}
	}
	med := func(g, impl, unit string) float64 {
		if c := cells[[2]string{g, impl}]; c != nil {
			return median(c.vals[unit])
		}
		return math.NaN()
	}
	ours := ""
	for _, impl := range impls {
		if oursImpl[impl] {
			ours = impl
		}
	}
	for _, unit := range b.metrics {
		if !units[unit] {
			continue
		}
		head := append([]string{"case (" + unit + ")"}, impls...)
		var rows [][]string
		geo := map[string][]float64{}
		for _, g := range groups {
			row := []string{g}
			o := med(g, ours, unit)
			for _, impl := range impls {
				v := med(g, impl, unit)
				s := num(v)
				if impl != ours && ours != "" && !math.IsNaN(v) && !math.IsNaN(o) && o != 0 {
					x := v / o
					if unit == "msgs/s" {
						x = o / v
					}
					s += " (" + ratio(x) + ")"
					geo[impl] = append(geo[impl], x)
				}
				row = append(row, s)
			}
			rows = append(rows, row)
		}
		if len(geo) > 0 {
			row := []string{"geomean ratio"}
			for _, impl := range impls {
				row = append(row, ratio(geomean(geo[impl])))
			}
			rows = append(rows, row)
		}
		writeTable(r.md, head, rows)
	}
	r.benchCharts(b, groups, impls, med, ours)
}

// benchCharts adds the WebSocket round-trip and memory charts and their
// headline rows.
func (r *Report) benchCharts(b goBench, groups, impls []string, med func(g, impl, unit string) float64, ours string) {
	var unit, file, title string
	switch b.name {
	case "WSEcho":
		unit, file, title = "msgs/s", "ws-echo.svg", "WebSocket echo over loopback (msgs/s, higher is better)"
	case "WSIdleHeap":
		unit, file, title = "heap-KiB/pair", "ws-idle-heap.svg", "Heap per idle connection pair (KiB, lower is better)"
	case "WSDeflateIdleMemory":
		unit, file, title = "KiB/conn", "ws-memory-per-conn.svg", "Compression memory per idle connection (KiB)"
	case "WSDeflateRoundTrip":
		unit, file, title = "ns/op", "ws-roundtrip.svg", "permessage-deflate round trip per message (µs, lower is better)"
	default:
		return
	}
	var bars []chart.Bar
	for _, g := range groups {
		for _, impl := range impls {
			v := med(g, impl, unit)
			if math.IsNaN(v) {
				continue
			}
			if unit == "ns/op" {
				v /= 1e3
			}
			label := impl
			if g != "(all)" {
				label = g + " " + impl
			}
			bars = append(bars, chart.Bar{Label: label, Value: v, Ours: impl == ours})
		}
	}
	u := unit
	if unit == "ns/op" {
		u = "µs"
	}
	r.charts[file] = chart.Bars{Title: title + "; squeeze in orange", Unit: u, Bars: bars}
	fmt.Fprintf(r.md, "![%s]({charts}/%s)\n\n", b.name, file)
	if ours == "" || len(groups) == 0 {
		return
	}
	for _, peer := range []string{"coder", "gorilla"} {
		if !contains(impls, peer) {
			continue
		}
		g := groups[0]
		o, p := med(g, ours, unit), med(g, peer, unit)
		if math.IsNaN(o) || math.IsNaN(p) {
			continue
		}
		x := p / o
		if unit == "msgs/s" {
			x = o / p
		}
		cmd := fmt.Sprintf("go test -run '^$' -bench '^Benchmark%s$' -benchtime %s -count %d .", b.name, r.Mode.Benchtime[b.name], r.Mode.Count)
		r.addSummary(fmt.Sprintf("%s %s, ours vs %s", b.name, g, peer), fmt.Sprintf("%s vs %s %s (%s)", num(o), num(p), unit, ratio(x)), cmd)
		if b.name == "WSEcho" && peer == "coder" && g == "size=1K/mode=takeover" {
			// Both at DEFLATE level 1: wsdeflate's default and coder's
			// flate.BestSpeed.
			r.addHeadline("websocket", headlineFigure{
				what:  "WebSocket echo over loopback, 1 KB JSON messages, permessage-deflate level 1 with context takeover at both ends",
				ours:  fmt.Sprintf("%s msgs/s", num(o)),
				peer:  fmt.Sprintf("coder/websocket: %s msgs/s", num(p)),
				ratio: ratio(x), command: cmd,
			})
		}
	}
}

func contains[T comparable](s []T, v T) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func geomean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range v {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(v)))
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
