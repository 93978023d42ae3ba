package soak

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"
)

// SettleGoroutines waits up to timeout for the number of goroutines to fall
// to at most base, and returns the last count seen. Connections and
// handlers end asynchronously after a client goes away, so a leak shows as
// a count that stays above base, not as one that is above it at once.
func SettleGoroutines(base int, timeout time.Duration) int {
	deadline := time.Now().Add(timeout)
	for {
		n := runtime.NumGoroutine()
		if n <= base || time.Now().After(deadline) {
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Stacks returns the stacks of every goroutine, for the failure message of
// a test that found a leak.
func Stacks() string {
	buf := make([]byte, 1<<20)
	return string(buf[:runtime.Stack(buf, true)])
}

// RSS returns the resident set size of the process in bytes, read from
// /proc/self/status (VmRSS), or 0 where that file does not exist.
func RSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmRSS:"))
		if !ok {
			continue
		}
		fields := bytes.Fields(rest) // "1234", "kB"
		if len(fields) == 0 {
			return 0
		}
		kb, err := strconv.ParseInt(string(fields[0]), 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}

// Peak is what a Sampler saw, relative to the heap when it started.
type Peak struct {
	// HeapInuse is the highest HeapInuse sampled, minus HeapInuse at the
	// start (after a GC); 0 when the heap never grew.
	HeapInuse uint64
	// TotalAlloc is the bytes allocated between start and stop: an upper
	// bound on what the measured work can have held at once.
	TotalAlloc uint64
}

// Sampler records the peak of the heap while some work runs. ReadMemStats
// stops the world, so keep the interval at a millisecond or more.
type Sampler struct {
	base  runtime.MemStats
	stop  chan struct{}
	done  sync.WaitGroup
	mu    sync.Mutex
	inuse uint64
}

// StartSampler collects garbage, records the baseline and samples every
// interval until Stop.
func StartSampler(interval time.Duration) *Sampler {
	s := &Sampler{stop: make(chan struct{})}
	runtime.GC()
	runtime.ReadMemStats(&s.base)
	s.inuse = s.base.HeapInuse
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				s.sample()
			}
		}
	}()
	return s
}

func (s *Sampler) sample() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	s.mu.Lock()
	s.inuse = max(s.inuse, m.HeapInuse)
	s.mu.Unlock()
}

// Stop takes a last sample, ends the sampling and returns the peak.
func (s *Sampler) Stop() Peak {
	s.sample()
	close(s.stop)
	s.done.Wait()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	s.mu.Lock()
	defer s.mu.Unlock()
	return Peak{HeapInuse: s.inuse - s.base.HeapInuse, TotalAlloc: m.TotalAlloc - s.base.TotalAlloc}
}
