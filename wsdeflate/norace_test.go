//go:build !race

package wsdeflate

const raceEnabled = false
