// Command report reruns every benchmark number squeeze publishes and writes
// them to RESULTS.md, with SVG charts under charts/ and the README's
// performance section in README-section.md:
//
//	cd benchmarks && go run ./cmd/report -quick   # one sample each, 2 s load runs: about 10 minutes on a busy 2-core box
//	cd benchmarks && go run ./cmd/report -full    # what RESULTS.md holds: about 15 minutes there
//
// It runs the module's Go benchmarks with -count and compares them with
// benchstat, reproduces the published ab comparison against nginx, drives
// our servers and nginx with wrk, and measures how time and memory grow
// with body size, responses in flight and idle WebSocket connections.
// Run as root it installs nginx, wrk and ab through apt-get when they are
// missing; otherwise the parts that need them are skipped with a note.
// Everything listens on 127.0.0.1, and every process it starts is stopped
// by its PID before it exits.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

func main() {
	quick := flag.Bool("quick", false, "short runs: one sample, 2 s load runs, smaller sweeps")
	full := flag.Bool("full", false, "the published run: -count 5, 5 s load runs, full sweeps (default)")
	tiny := flag.Bool("tiny", false, "the smallest run of every part, as the test does (numbers meaningless)")
	count := flag.Int("count", 0, "override the Go benchmarks' -count")
	duration := flag.Duration("duration", 0, "override each wrk run's duration (at most 10s)")
	out := flag.String("out", "", "directory for RESULTS.md, README-section.md and charts/ (default: the benchmarks module)")
	only := flag.String("only", "", "comma-separated parts to run: gobench,levels,published,load,scaling (default all)")
	flag.Parse()
	if *quick && *full {
		fatal(fmt.Errorf("report: -quick and -full exclude each other"))
	}
	mode := fullMode()
	if *quick {
		mode = quickMode()
	}
	if *tiny {
		mode = tinyMode()
	}
	if *count > 0 {
		mode.Count = *count
	}
	if *duration > 0 {
		mode.WrkDuration = min(*duration, 10*time.Second)
	}
	mode.Only = *only
	mod, err := moduleDir()
	if err != nil {
		fatal(err)
	}
	if *out == "" {
		*out = mod
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	r := &Report{Mode: mode, ModuleDir: mod, OutDir: *out, Args: os.Args[1:], Log: os.Stderr}
	if err := r.Run(ctx); err != nil {
		fatal(err)
	}
	fmt.Println("wrote", filepath.Join(*out, "RESULTS.md"))
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
