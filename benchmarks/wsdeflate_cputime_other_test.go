//go:build !linux

package benchmarks

import "time"

// threadCPU is unavailable here; the cpu-ns/op metric is left out.
func threadCPU() (time.Duration, bool) { return 0, false }

// processCPU is unavailable here; the cpu-ns/op metric is left out.
func processCPU() (time.Duration, bool) { return 0, false }
