//go:build !linux

package benchmarks

import "time"

// threadCPU is unavailable here; the cpu-ns/op metric is left out.
func threadCPU() (time.Duration, bool) { return 0, false }
