package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// wantIn fails t for each of wants that text, the section named what,
// does not contain.
func wantIn(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
	}
}

func newTestReport() *Report {
	return &Report{Log: io.Discard, sections: map[string]*bytes.Buffer{}, headline: map[string]headlineFigure{}, start: time.Now()}
}

// TestHeadlineNeedsAllThreeFiguresOfOneRun: the README's figures come from
// one run, so a run that measured only some of them leaves the section as
// it was instead of mixing runs.
func TestHeadlineNeedsAllThreeFiguresOfOneRun(t *testing.T) {
	r := newTestReport()
	r.addHeadline("equal-level", headlineFigure{what: "1 KiB at gzip 5", ours: "10 µs", peer: "gzhttp: 20 µs", ratio: "2.00×"})
	r.addHeadline("published", headlineFigure{what: "br 4 on the fly", ours: "900 rps", peer: "nginx br 4: 1000 rps", ratio: "0.90×"})
	r.writeHeadline()
	if _, ok := r.sections["headline"]; ok {
		t.Fatalf("headline written without the websocket figure:\n%s", r.sections["headline"])
	}
	r.addHeadline("websocket", headlineFigure{what: "echo", ours: "2 msgs/s", peer: "coder/websocket: 1 msgs/s", ratio: "2.00×"})
	r.writeHeadline()
	got := r.sections["headline"].String()
	wantIn(t, "headline", got, "| 1 KiB at gzip 5 | 10 µs | gzhttp: 20 µs | 2.00× |", "| br 4 on the fly |", "| echo |", "docs/performance.md", stamp(r.start))
}

// TestHeadlineLevelTableIsSmall: the README's per-level comparison is a
// table of one row per coding and level (squeeze, the fastest Go peer,
// the ratio at 1 and 4 KiB, the bytes), geomeans over the kinds of body;
// the range over kinds, with the kinds at each end, is written beside the
// level's table in docs/performance.md, not in the README.
func TestHeadlineLevelTableIsSmall(t *testing.T) {
	var out equalOutput
	line := out.cell
	for _, size := range []int{1024, 4096} {
		// gzip 5: squeeze 10 µs, gzhttp 20, chi 40, on both kinds.
		for _, kind := range []string{"json", "html"} {
			line("gzip", 5, kind, size, "squeeze", 10e3, 490)
			line("gzip", 5, kind, size, "gzhttp", 20e3, 500)
			line("gzip", 5, kind, size, "chi", 40e3, 480)
		}
		// zstd 1: only httpcompression, at 1.5× squeeze's time at 1 KiB
		// and 3× at 4 KiB.
		for _, kind := range []string{"json", "html"} {
			line("zstd", 1, kind, size, "squeeze", 10e3, 500)
			line("zstd", 1, kind, size, "httpcompression", float64(size/1024)*5e3+10e3, 500)
		}
	}
	run := out.run()
	r := newTestReport()
	r.begin("equal-level")
	for _, level := range run.levels {
		r.equalTable(run, level)
	}
	wantIn(t, "docs/performance.md's section", r.sections["equal-level"].String(),
		"Range over kinds of body, squeeze against the fastest peer of each: gzip 5: 2.00×–2.00× at 1 KiB", "zstd 1: 1.50×–1.50× at 1 KiB")
	r.addHeadline("published", headlineFigure{what: "br 4 on the fly"})
	r.addHeadline("websocket", headlineFigure{what: "echo"})
	r.writeHeadline()
	got := r.sections["headline"].String()
	wantIn(t, "headline", got,
		"| Coding and level | squeeze, 1 KiB | Fastest Go peer, 1 KiB | squeeze ahead by, 1 KiB | 4 KiB | Bytes vs that peer |",
		"| gzip 5 | 10.0 µs | gzhttp: 20.0 µs | 2.00× | 2.00× | -2.0 % |",
		"| zstd 1 | 10.0 µs | httpcompression: 15.0 µs | 1.50× | 3.00× | +0.0 % |",
		"geomean over 2 kinds of web body")
	if strings.Contains(got, "json") || strings.Contains(got, "html") {
		t.Errorf("headline names kinds of body; their ranges belong in docs/performance.md:\n%s", got)
	}
}
