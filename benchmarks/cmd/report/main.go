// Command report reruns every benchmark number squeeze publishes and
// writes them, with the machine and date, into the generated sections of
// README.md (headline), docs/performance.md and benchmarks/RESULTS.md,
// and the SVG charts into benchmarks/charts:
//
//	cd benchmarks && go run ./cmd/report -quick   # one sample each, 2 s load runs
//	cd benchmarks && go run ./cmd/report -full    # the published run
//
// A generated section lies between <!-- report:begin NAME --> and
// <!-- report:end NAME -->; the report replaces what is between and leaves
// the rest of each file alone, and stops before measuring anything when a
// file lacks one of its markers. With -only, the sections of the parts not
// run keep their content, and the README's headline and the summary are
// rewritten only by a run that measured what they quote.
//
// It runs the module's Go benchmarks with -count and compares them with
// benchstat, serves the repository corpus through squeeze and the other Go
// middleware at the same codec and level, reproduces the published ab
// comparison against nginx, drives our servers and nginx with wrk, and
// measures how time and memory grow with body size, responses in flight
// and idle WebSocket connections. Everything it reads is in the
// repository. Run as root it installs nginx, wrk and ab through apt-get
// when they are missing; otherwise the parts that need them are skipped
// with a note. Everything listens on 127.0.0.1, and every process it
// starts is stopped by its PID before it exits.
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
	root := flag.String("root", "", "repository whose README.md, docs/performance.md, benchmarks/RESULTS.md and benchmarks/charts are written (default: the one around the benchmarks module)")
	only := flag.String("only", "", "comma-separated parts to run: published,load,scaling,levels,equal,gobench,streams,dictionaries,static,static-bytes (default all)")
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
	if *root == "" {
		*root = filepath.Dir(mod)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The command line as recorded in the files, without -root: the same
	// from one checkout to another.
	var args []string
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "root" {
			return
		}
		if f.Value.String() == "true" {
			args = append(args, "-"+f.Name)
		} else {
			args = append(args, "-"+f.Name, f.Value.String())
		}
	})
	r := &Report{Mode: mode, ModuleDir: mod, Root: *root, Args: args, Log: os.Stderr}
	if err := r.Run(ctx); err != nil {
		fatal(err)
	}
	fmt.Println("wrote the generated sections of README.md, docs/performance.md and benchmarks/RESULTS.md under", *root)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
