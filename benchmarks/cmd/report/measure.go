package main

import (
	"net/http"
	"time"
)

// measure returns the time per call of fn: the median of three rounds,
// each calling fn until d has passed (at least once).
func measure(d time.Duration, fn func()) time.Duration {
	fn() // warm pools and caches
	var rounds []float64
	for range 3 {
		n := 0
		start := time.Now()
		for n == 0 || time.Since(start) < d {
			fn()
			n++
		}
		rounds = append(rounds, float64(time.Since(start))/float64(n))
	}
	return time.Duration(median(rounds))
}

// sink is a ResponseWriter that counts and discards the body.
type sink struct {
	h http.Header
	n int64
}

func (s *sink) Header() http.Header { return s.h }
func (s *sink) WriteHeader(int)     {}
func (s *sink) Write(p []byte) (int, error) {
	s.n += int64(len(p))
	return len(p), nil
}

func (s *sink) reset() {
	clear(s.h)
	s.n = 0
}
