package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squeezehttp/squeeze/internal/interop"
)

// TestTinyReportWritesEverySection runs the whole report at its smallest,
// so that CI's single pass over the module exercises every part: servers
// started and stopped, wrk and ab parsed, charts written. It drives peers,
// so it runs with SQUEEZE_PEERS=1 or SQUEEZE_INTEROP=require; parts whose
// peers are missing are skipped inside the report, and fail the test under
// SQUEEZE_INTEROP=require.
func TestTinyReportWritesEverySection(t *testing.T) {
	if testing.Short() {
		t.Skip("starts servers and runs wrk and ab for about half a minute")
	}
	interop.Peers(t)
	mod, err := moduleDir()
	if err != nil {
		t.Fatal(err)
	}
	// The report writes into copies of the published files.
	root := t.TempDir()
	for _, f := range publishedFiles {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(mod), f.path))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f.path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f.path), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var log bytes.Buffer
	r := &Report{Mode: tinyMode(), ModuleDir: mod, Root: root, Args: []string{"-tiny"}, Log: &log, NoInstall: true}
	if err := r.Run(context.Background()); err != nil {
		t.Fatalf("report: %v\nlog:\n%s", err, log.String())
	}
	results, err := os.ReadFile(filepath.Join(root, "benchmarks", "RESULTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"## Machine", "## Published test", "## Load: wrk", "## Static files", "## Static files against Go's ceiling", "## Repeat responses",
		"## Scaling: time per response", "## Scaling: heap against compressed", "## Scaling: heap against idle WebSocket",
		"## Level sweep", "## Middleware at equal level, on every kind", "## Middleware at equal level: every kind and size",
		"## Own small-body encoders", "## Frontier", "## Middleware against other Go middleware", "## WebSocket: wsdeflate"} {
		if !bytes.Contains(results, []byte(title)) {
			t.Errorf("RESULTS.md has no %q section", title)
		}
	}
	if interop.Required() {
		// "peer missing" is what the Static files table says for the
		// nginx rows when nginx runs without its brotli modules.
		for _, line := range strings.Split(string(results), "\n") {
			if strings.Contains(line, "not installed") || strings.Contains(line, "rows skipped") || strings.Contains(line, "no brotli modules") || strings.Contains(line, "peer missing") {
				t.Errorf("%s=require, but a peer is missing: %s", interop.RequireEnv, line)
			}
		}
	}
	perf, err := os.ReadFile(filepath.Join(root, "docs", "performance.md"))
	if err != nil {
		t.Fatal(err)
	}
	charts, _ := filepath.Glob(filepath.Join(root, "benchmarks", "charts", "*.svg"))
	for _, want := range []string{"levels.svg", "scaling-body.svg", "scaling-inflight.svg", "scaling-ws-idle.svg", "frontier-gzip.svg"} {
		if !contains(baseNames(charts), want) {
			t.Errorf("charts/%s was not written (have %v)", want, baseNames(charts))
		}
	}
	for _, c := range charts {
		b, _ := os.ReadFile(c)
		if err := checkXML(b); err != nil {
			t.Errorf("%s is not well-formed SVG: %v", filepath.Base(c), err)
		}
		if !bytes.Contains(perf, []byte("../benchmarks/charts/"+filepath.Base(c))) {
			t.Errorf("docs/performance.md does not show %s", filepath.Base(c))
		}
	}
	// Tiny mode runs no WebSocket benchmark, so the README's headline
	// keeps what it had; every marker must still be in place.
	if err := checkPublished(root); err != nil {
		t.Error(err)
	}
}

func baseNames(paths []string) []string {
	var n []string
	for _, p := range paths {
		n = append(n, filepath.Base(p))
	}
	return n
}

func checkXML(b []byte) error {
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		if _, err := d.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

func TestParseBenchGroupsByImplAndDropsGOMAXPROCS(t *testing.T) {
	out := `goos: linux
BenchmarkWSEcho/size=1K/mode=takeover/impl=ours-2         	    2000	     48000 ns/op	  21.33 MB/s	     20833 msgs/s	     120 B/op	       2 allocs/op
BenchmarkWSEcho/size=1K/mode=takeover/impl=coder-2        	    2000	     70000 ns/op	  14.63 MB/s	     14285 msgs/s	    9000 B/op	      30 allocs/op
BenchmarkWSIdleHeap/impl=ours-2 	       1	1234 ns/op	 12.5 heap-KiB/pair
PASS
`
	got := parseBench(out)
	if len(got) != 3 {
		t.Fatalf("parsed %d lines, want 3: %+v", len(got), got)
	}
	cases := []struct {
		group, impl, unit string
		value             float64
	}{
		{"size=1K/mode=takeover", "ours", "msgs/s", 20833},
		{"size=1K/mode=takeover", "coder", "ns/op", 70000},
		{"(all)", "ours", "heap-KiB/pair", 12.5},
	}
	for i, c := range cases {
		l := got[i]
		if l.group != c.group || l.impl != c.impl || l.values[c.unit] != c.value {
			t.Errorf("line %d = {%q %q %v}, want group %q impl %q %s=%v", i, l.group, l.impl, l.values, c.group, c.impl, c.unit, c.value)
		}
	}
}

func TestFitFindsTheSlopeOfALine(t *testing.T) {
	a, k := fit([]float64{1, 10, 100, 1000}, []float64{5 + 3, 5 + 30, 5 + 300, 5 + 3000})
	if a < 4.99 || a > 5.01 || k < 2.999 || k > 3.001 {
		t.Errorf("fit = %g + %g·x, want 5 + 3·x", a, k)
	}
	if e := logSlope([]float64{1, 2, 4, 8}, []float64{3, 12, 48, 192}); e < 1.999 || e > 2.001 {
		t.Errorf("logSlope of y = 3x² = %g, want 2", e)
	}
}

func TestPortlessHidesTheFreePort(t *testing.T) {
	got := portless("ab -n 1 -k -c 1 http://127.0.0.1:40123/asset")
	if want := "ab -n 1 -k -c 1 http://127.0.0.1:$PORT/asset"; got != want {
		t.Errorf("portless = %q, want %q", got, want)
	}
}

// TestRoundRatioCancelsDrift: when the machine speeds up between rounds,
// the median of per-round ratios keeps the true ratio, where the ratio of
// the medians would not.
func TestRoundRatioCancelsDrift(t *testing.T) {
	a := []float64{60, 90, 120} // rounds at a slow, middling and fast moment
	b := []float64{100, 150, 200}
	if got := roundRatio(a, b, 90, 200); got != 0.6 {
		t.Errorf("roundRatio = %v, want 0.6", got)
	}
	if got := roundRatio(nil, nil, 90, 200); got != 0.45 {
		t.Errorf("roundRatio without rounds = %v, want the rates' ratio 0.45", got)
	}
}
