package zstd

import (
	"math/bits"
	"sync"
)

// fseEncoder is an FSE coding table (RFC 8878 §4.1) for encoding: the next
// state per position of a symbol's states, and per symbol the terms that
// turn a state into the number of bits to send and the symbol's first
// position.
type fseEncoder struct {
	next [fseMaxStates]uint16 // 1<<log used
	sym  [64]fseSymbol        // as many as the distribution has symbols
	log  uint8
}

// fseMaxStates is the most states a table holds: accuracy log 9, the most
// any sequence code's table may have (RFC 8878 §3.1.1.3.2.2).
const fseMaxStates = 1 << 9

type fseSymbol struct {
	deltaBits  uint32 // (bits<<16) - (states of the symbol << bits), in zstd's terms deltaNbBits
	deltaState int32  // the symbol's first position less its count
}

// zstdPredefined holds the coding tables of the predefined distributions
// (RFC 8878 §3.1.1.3.2.2).
var zstdPredefined = [3]fseEncoder{
	zstdLitLen:   newFSEEncoder(zstdPredefinedNorm[zstdLitLen], zstdPredefinedLog[zstdLitLen]),
	zstdOffset:   newFSEEncoder(zstdPredefinedNorm[zstdOffset], zstdPredefinedLog[zstdOffset]),
	zstdMatchLen: newFSEEncoder(zstdPredefinedNorm[zstdMatchLen], zstdPredefinedLog[zstdMatchLen]),
}

// zstdPredefinedSteps holds, per kind of code, symbol and state of the
// predefined tables, what encode does (see fseSteps), made on first use
// and shared.
var zstdPredefinedSteps = sync.OnceValue(func() *[3]fseSteps {
	return &[3]fseSteps{
		zstdLitLen:   zstdPredefined[zstdLitLen].steps(),
		zstdOffset:   zstdPredefined[zstdOffset].steps(),
		zstdMatchLen: zstdPredefined[zstdMatchLen].steps(),
	}
})

// fseSteps is an fseEncoder's encode worked out for every symbol and state
// (the state's bits below the table size's): the bits sent in the low
// byte, their number in the next, the next state above. Coding a symbol is then one
// lookup, for tables used often enough to pay for working it out: the
// predefined ones and the literal weights' static one.
type fseSteps [64][64]uint32

func (t *fseEncoder) steps() (st fseSteps) {
	for s := range st {
		if t.sym[s] == (fseSymbol{}) {
			continue // not in the distribution
		}
		for x := range 1 << t.log {
			b, next := t.encode(fastBits{}, uint32(x+1<<t.log), uint8(s))
			st[s][x] = uint32(b.acc) | uint32(b.n)<<8 | next<<16
		}
	}
	return st
}

// step adds the bits of step a, as fseSteps holds it, and returns its next
// state.
func (w fastBits) step(a uint32) (fastBits, uint32) {
	return w.addBits(uint64(a&0xff), uint8(a>>8)), a >> 16
}

// newFSEEncoder returns the coding table of a normalized distribution.
func newFSEEncoder(norm []int16, log uint8) (t fseEncoder) {
	t.build(norm, log)
	return t
}

// build makes t the coding table of the normalized distribution norm, of
// at most 64 symbols and accuracy log at most 9, spreading the symbols over
// the states exactly as a decoder does (RFC 8878 §4.1.1): symbols of
// probability -1 ("less than 1") take one state each from the top, the
// others are spread with a step of 5/8 of the table plus 3. Symbols of
// probability 0 get no state and must not be encoded.
func (t *fseEncoder) build(norm []int16, log uint8) {
	t.log = log
	size := 1 << log
	var symbols [fseMaxStates]uint8
	high := size - 1
	for s, n := range norm {
		if n == -1 {
			symbols[high&(fseMaxStates-1)] = uint8(s)
			high--
		}
	}
	step, mask, pos := size>>1+size>>3+3, size-1, 0
	for s, n := range norm {
		for range n { // none for -1
			symbols[pos&(fseMaxStates-1)] = uint8(s)
			pos = (pos + step) & mask
			for high < mask && pos > high { // the top states went to -1 symbols
				pos = (pos + step) & mask
			}
		}
	}
	// Each symbol's states, in increasing order, are a run of next,
	// starting at the total count of the symbols before it.
	var first, cursor [64]uint16
	total := 0
	for s, n := range norm {
		first[s&63] = uint16(total)
		total += fseStates(n)
	}
	cursor = first
	for u, s := range symbols[:size] {
		t.next[cursor[s&63]&(fseMaxStates-1)] = uint16(size + u)
		cursor[s&63]++
	}
	for s, n := range norm {
		count := fseStates(n)
		if count == 0 {
			continue
		}
		// The most bits a state of the symbol sends: log less the highest
		// bit of count-1.
		maxBits := int(log)
		if count > 1 {
			maxBits -= bits.Len(uint(count-1)) - 1
		}
		t.sym[s&63] = fseSymbol{
			deltaBits:  uint32(maxBits<<16 - count<<maxBits),
			deltaState: int32(int(first[s&63]) - count),
		}
	}
}

// fseStates is the number of states of a symbol of normalized probability
// n: one for -1.
func fseStates(n int16) int {
	if n < 0 {
		return 1
	}
	return int(n)
}

// appendNCount appends the description of the normalized distribution
// norm, whose last symbol has a non-zero probability, with accuracy log
// (RFC 8878 §4.1.1), as zstd's FSE_writeNCount writes it.
func appendNCount(dst []byte, norm []int16, log uint8) []byte {
	acc, n := uint32(log-5), 4
	flush := func() {
		if n > 16 {
			dst = append(dst, byte(acc), byte(acc>>8))
			acc >>= 16
			n -= 16
		}
	}
	size := 1 << log
	remaining, threshold, width := size+1, size, int(log)+1
	previous0 := false
	for s := 0; s < len(norm) && remaining > 1; {
		if previous0 {
			// A run of zero probabilities: its length in 2-bit repeat
			// flags, 0xFFFF standing for 24 zeros.
			start := s
			for norm[s] == 0 {
				s++
			}
			for ; s >= start+24; start += 24 {
				acc += 0xffff << n
				dst = append(dst, byte(acc), byte(acc>>8))
				acc >>= 16
			}
			for ; s >= start+3; start += 3 {
				acc += 3 << n
				n += 2
			}
			acc += uint32(s-start) << n
			n += 2
			flush()
		}
		count := int(norm[s])
		s++
		most := 2*threshold - 1 - remaining
		remaining -= fseStates(int16(count))
		count++ // -1 is sent as 0
		if count >= threshold {
			count += most
		}
		acc += uint32(count) << n
		n += width
		if count < most {
			n-- // the small values take one bit less
		}
		previous0 = count == 1
		for remaining < threshold {
			width--
			threshold >>= 1
		}
		flush()
	}
	for ; n > 0; n -= 8 {
		dst = append(dst, byte(acc))
		acc >>= 8
	}
	return dst
}

// start returns the state that codes symbol s last of all, the first a
// decoder reads.
func (t *fseEncoder) start(s uint8) uint32 {
	sym := t.sym[s&63]
	n := (sym.deltaBits + 1<<15) >> 16
	v := n<<16 - sym.deltaBits
	return uint32(t.next[(int32(v>>n)+sym.deltaState)&(fseMaxStates-1)])
}

// encode adds the bits that take the decoder from state to the state
// that codes s, and returns that state (zstd's FSE_encodeSymbol).
func (t *fseEncoder) encode(w fastBits, state uint32, s uint8) (fastBits, uint32) {
	sym := t.sym[s&63]
	n := (state + sym.deltaBits) >> 16 & 31 // at most log; the mask spares the compiler's shift checks
	return w.addBits(uint64(state&(1<<n-1)), uint8(n)), uint32(t.next[(int32(state>>n)+sym.deltaState)&(fseMaxStates-1)])
}
