package zstd

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"

	"github.com/squeezehttp/squeeze/internal/deflate"
)

// gatherLiterals sets e.lits to the literals the match finder left in src.
func (e *blockCoder) gatherLiterals(src []byte) {
	// Copied 8 bytes at a time, up to 15 past their end: the loads are in
	// bounds, since every run but the last ends at a match, which starts
	// at least 7 bytes before src's end, so that a run's last word ends
	// at most there. Where src has 16 bytes left, the first two words go
	// whatever the run's length, as most runs are shorter: the loop then
	// runs only for the few longer ones.
	lits, pos, nl := slices.Grow(e.lits[:0], len(src)+16)[:len(src)+16], 0, 0
	for _, s := range e.seqs {
		i := 0
		if pos+16 <= len(src) {
			binary.LittleEndian.PutUint64(lits[nl:nl+8:nl+8], deflate.LoadFast64(src, pos))
			binary.LittleEndian.PutUint64(lits[nl+8:nl+16:nl+16], deflate.LoadFast64(src, pos+8))
			i = 16
		}
		for ; i < int(s.lits); i += 8 {
			j := nl + i
			binary.LittleEndian.PutUint64(lits[j:j+8:j+8], deflate.LoadFast64(src, pos+i))
		}
		nl += int(s.lits)
		pos += int(s.lits + s.length)
	}
	nl += copy(lits[nl:], src[pos:])
	e.lits = lits[:nl]
}

// appendLiterals counts the literals in e.lits and appends the literals
// section (RFC 8878 §3.1.1.3.1): a run when there is one distinct literal,
// Huffman-coded when that is smaller, raw otherwise.
func (e *blockCoder) appendLiterals(dst []byte) []byte {
	lits := e.lits
	freq := &e.freq
	clear(freq[:])
	b := lits
	for ; len(b) >= 4; b = b[4:] { // four at a time: fewer loop steps
		freq[b[0]]++
		freq[b[1]]++
		freq[b[2]]++
		freq[b[3]]++
	}
	for _, c := range b {
		freq[c]++
	}
	maxSym := 255
	for maxSym >= 3 && freq[maxSym]|freq[maxSym-1]|freq[maxSym-2]|freq[maxSym-3] == 0 {
		maxSym -= 4
	}
	for maxSym > 0 && freq[maxSym] == 0 {
		maxSym--
	}
	switch {
	case len(lits) > 1 && int(freq[lits[0]]) == len(lits): // one distinct literal
		return append(appendRawLiteralsHeader(dst, 1, len(lits)), lits[0])
	case len(lits) < zstdMinHuff, maxSym >= 128 && !zstdHuffmanPays(freq[:maxSym+1], len(lits)):
		return append(appendRawLiteralsHeader(dst, 0, len(lits)), lits...)
	}
	if out, ok := e.appendHuffLiterals(dst, maxSym); ok {
		return out
	}
	return append(appendRawLiteralsHeader(dst, 0, len(lits)), lits...)
}

// zstdHuffmanPays reports whether n literals counted in freq have an
// entropy low enough for a Huffman code to save 3 % even with a long
// description (about half a byte per symbol present), so that literals
// that are not text (compressed or random data, which take most of 8 bits)
// skip building one. It prices the symbols present, not every symbol up
// to the largest, which would send UTF-8 text and JSON with a few bytes
// above 127 raw. Text literals, all below 128, need not ask: they always
// gain.
func zstdHuffmanPays(freq []uint32, n int) bool {
	// n·log2(n) - Σ f·log2(f) is the entropy in bits, counted here in
	// sixteenths.
	bits := uint64(n) * uint64(log2x16(uint32(n)))
	present := uint64(0)
	for _, f := range freq {
		if f != 0 {
			bits -= uint64(f) * uint64(log2x16(f))
			present++
		}
	}
	return bits/16/8+present/2 < uint64(n)*97/100
}

// log2x16 is 16·log2(f), to about a tenth of a bit, for f ≥ 1: the highest
// bit's position and the 5 bits after it looked up.
func log2x16(f uint32) uint32 {
	l := uint32(bits.Len32(f)) - 1
	return 16*l + zstdLog2Fraction[(f<<(31-l))>>26&31]
}

// zstdLog2Fraction[i] is 16·log2(1 + i/32).
var zstdLog2Fraction = func() (t [32]uint32) {
	for i := range t {
		t[i] = uint32(math.Round(16 * math.Log2(1+float64(i)/32)))
	}
	return t
}()

// rawLiteralsHeaderLen is the length of the header of a raw literals
// section of n literals.
func rawLiteralsHeaderLen(n int) int {
	switch {
	case n < 32:
		return 1
	case n < 4096:
		return 2
	default:
		return 3
	}
}

// appendRawLiteralsHeader appends the header of a raw (kind 0) or run
// (kind 1) literals section of n literals (RFC 8878 §3.1.1.3.1.1).
func appendRawLiteralsHeader(dst []byte, kind uint32, n int) []byte {
	switch v := uint32(n); {
	case n < 32:
		return append(dst, byte(kind|v<<3))
	case n < 4096:
		v = kind | 1<<2 | v<<4
		return append(dst, byte(v), byte(v>>8))
	default:
		v = kind | 3<<2 | v<<4
		return append(dst, byte(v), byte(v>>8), byte(v>>16))
	}
}
