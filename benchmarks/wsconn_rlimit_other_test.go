//go:build !unix

package benchmarks

import "testing"

// raiseFileLimit is a no-op where file-descriptor limits are not rlimits.
func raiseFileLimit(*testing.B, int) {}
