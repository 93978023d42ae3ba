//go:build !race

package precompressed

const raceEnabled = false
