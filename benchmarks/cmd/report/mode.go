package main

import (
	"strings"
	"time"
)

// Mode sizes a report run.
type Mode struct {
	Name string
	// Count is the Go benchmarks' number of interleaved rounds (runBench),
	// the benchtimes their -benchtime.
	Count     int
	Benchtime map[string]string // per benchmark; "" skips it
	// WrkDuration is each wrk run's length; WrkConns the connection counts.
	WrkDuration time.Duration
	WrkConns    []int
	// AbN is the number of requests of the ab runs (the published test
	// always uses 1000).
	AbN, PublishedN int
	// LevelTime is how long each point of the level sweep measures.
	LevelTime time.Duration
	// BodySizes, InFlight and WSConns are the scaling sweeps' points.
	BodySizes []int
	InFlight  []int
	WSConns   []int
	// Only, when not empty, lists the parts to run.
	Only string
	// Tiny marks the test's mode: no Go benchmarks, no benchstat.
	Tiny bool
}

func (m Mode) runs(part string) bool {
	if m.Only == "" {
		return true
	}
	for _, p := range strings.Split(m.Only, ",") {
		if strings.TrimSpace(p) == part {
			return true
		}
	}
	return false
}

func fullMode() Mode {
	return Mode{
		Name:  "full",
		Count: 5,
		Benchtime: map[string]string{
			"Middleware":          "0.02s",
			"EqualLevel":          "0.5s",
			"WSEcho":              "1000x",
			"WSEchoHTTP2":         "1000x",
			"EchoFloorHTTP2":      "1000x",
			"WSIdleHeapHTTP2":     "1x",
			"WSDeflateRoundTrip":  "0.03s",
			"WSIdleHeap":          "1x",
			"WSDeflateIdleMemory": "1x",
		},
		WrkDuration: 5 * time.Second,
		WrkConns:    []int{1, 16, 32, 64},
		AbN:         5000,
		PublishedN:  1000,
		LevelTime:   300 * time.Millisecond,
		BodySizes:   []int{1 << 10, 8 << 10, 64 << 10, 512 << 10, 4 << 20, 8 << 20},
		InFlight:    []int{1, 10, 100, 1000},
		WSConns:     []int{1, 10, 100, 1000, 10000},
	}
}

func quickMode() Mode {
	return Mode{
		Name:  "quick",
		Count: 1,
		Benchtime: map[string]string{
			"Middleware":          "0.05s",
			"EqualLevel":          "0.2s",
			"WSEcho":              "300x",
			"WSEchoHTTP2":         "300x",
			"EchoFloorHTTP2":      "300x",
			"WSIdleHeapHTTP2":     "1x",
			"WSDeflateRoundTrip":  "0.03s",
			"WSIdleHeap":          "1x",
			"WSDeflateIdleMemory": "1x",
		},
		WrkDuration: 2 * time.Second,
		WrkConns:    []int{1, 16, 32, 64},
		AbN:         1000,
		PublishedN:  1000,
		LevelTime:   60 * time.Millisecond,
		BodySizes:   []int{1 << 10, 64 << 10, 1 << 20, 8 << 20},
		InFlight:    []int{1, 10, 100},
		WSConns:     []int{1, 10, 100, 1000},
	}
}

// tinyMode is what the test runs: every part once, as small as it goes.
func tinyMode() Mode {
	return Mode{
		Name:        "tiny",
		Count:       1,
		WrkDuration: time.Second,
		WrkConns:    []int{1},
		AbN:         50,
		PublishedN:  50,
		LevelTime:   5 * time.Millisecond,
		BodySizes:   []int{1 << 10, 64 << 10},
		InFlight:    []int{1, 4},
		WSConns:     []int{1, 4},
		Tiny:        true,
	}
}
