//go:build !race

package soak_test

// raceEnabled reports whether the test runs under the race detector.
const raceEnabled = false
