package zstd

import (
	"math"
)

// zstdMaxTableLog is, per kind of sequence code, the largest accuracy log
// a table may have (RFC 8878 §3.1.1.3.2.2), and zstdMinTableLog the
// smallest a description can say (§4.1.1).
var zstdMaxTableLog = [3]uint8{zstdLitLen: 9, zstdOffset: 8, zstdMatchLen: 9}

const zstdMinTableLog = 5

// appendBestSequenceTables is appendSequenceTables for BestEncoder: per
// kind of code it prices the predefined table and a table built for the
// counts at every accuracy log the format allows, each normalized for the
// fewest bits (normalizeBest), descriptions included, and takes the
// cheapest.
func (e *blockCoder) appendBestSequenceTables(dst []byte) ([]byte, bool) {
	modeAt := len(dst)
	dst = append(dst, 0)
	n := len(e.seqs)
	mode := byte(0)
	for kind := range 3 {
		c := e.counts[kind][:]
		last := len(c) - 1
		for last > 0 && c[last] == 0 {
			last--
		}
		c = c[:last+1]
		cheapest := int64(math.MaxInt64)
		if pre := zstdPredefinedNorm[kind]; last < len(pre) {
			cheapest = tableBits(c, pre, zstdPredefinedLog[kind])
		}
		at := len(dst)
		var bestLog uint8
		for log := uint8(zstdMinTableLog); log <= zstdMaxTableLog[kind]; log++ {
			norm, ok := normalizeBest(&e.norm[kind], c, n, log)
			if !ok {
				continue
			}
			desc := appendNCount(dst[:at], norm, log)
			if bits := tableBits(c, norm, log) + int64(8*(len(desc)-at))<<log2FixBits; bits < cheapest {
				cheapest, bestLog = bits, log
			}
		}
		if bestLog == 0 {
			continue
		}
		norm, _ := normalizeBest(&e.norm[kind], c, n, bestLog)
		dst = appendNCount(dst[:at], norm, bestLog)
		e.tables[kind].build(norm, bestLog)
		mode |= 2 << (6 - 2*kind) // FSE_Compressed_Mode
	}
	return e.setModes(dst, modeAt, mode)
}

// tableBits is about what coding the counts c takes with the normalized
// distribution norm of accuracy log, in 1/2^log2FixBits bits: a symbol
// with k of the 2^log states costs log2(2^log/k) bits.
func tableBits(c []uint32, norm []int16, log uint8) int64 {
	bits := int64(0)
	for s, f := range c {
		if f != 0 {
			bits += int64(f) * (int64(log)<<log2FixBits - log2Fix(uint32(fseStates(norm[s]))))
		}
	}
	return bits
}

// normalizeBest scales the counts c of n symbols to 1<<log states into
// norm so that tableBits is least: each present symbol one state, then
// each state left to the symbol it saves the most bits for. It reports
// false when there are more symbols present than states, or one symbol
// has every count.
func normalizeBest(norm *[64]int16, c []uint32, n int, log uint8) ([]int16, bool) {
	left := 1 << log
	for s, f := range c {
		norm[s] = 0
		if f != 0 {
			if int(f) == n {
				return nil, false
			}
			norm[s] = 1
			left--
		}
	}
	if left < 0 {
		return nil, false
	}
	// What one more state saves a symbol: f·log2((k+1)/k).
	gain := func(s int) int64 {
		k := uint32(norm[s])
		return int64(c[s]) * (log2Fix(k+1) - log2Fix(k))
	}
	for ; left > 0; left-- {
		best, most := -1, int64(-1)
		for s, f := range c {
			if f != 0 {
				if g := gain(s); g > most {
					best, most = s, g
				}
			}
		}
		norm[best]++
	}
	return norm[:len(c)], true
}
