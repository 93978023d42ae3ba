package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

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
	for _, want := range []string{"| 1 KiB at gzip 5 | 10 µs | gzhttp: 20 µs | 2.00× |", "| br 4 on the fly |", "| echo |", "docs/performance.md", stamp(r.start)} {
		if !strings.Contains(got, want) {
			t.Errorf("headline lacks %q:\n%s", want, got)
		}
	}
}
