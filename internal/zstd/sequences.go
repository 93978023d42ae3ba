package zstd

import (
	"math"
	"math/bits"
	"slices"
)

// appendSequences appends the sequences section (RFC 8878 §3.1.1.3.2):
// the number of sequences, the tables' modes and descriptions (see
// appendSequenceTables), and the FSE bit stream.
func (e *blockCoder) appendSequences(dst []byte) []byte {
	seqs := e.seqs
	switch n := len(seqs); {
	case n == 0:
		return append(dst, 0)
	case n < 128:
		dst = append(dst, byte(n))
	case n < 0x7f00:
		dst = append(dst, byte(n>>8)+128, byte(n))
	default:
		n -= 0x7f00
		dst = append(dst, 255, byte(n), byte(n>>8))
	}
	e.codeSequences()
	var built bool
	if e.bestTables {
		dst, built = e.appendBestSequenceTables(dst)
	} else {
		dst, built = e.appendSequenceTables(dst)
	}
	// A sequence takes at most 26 bits of states (accuracy logs 9, 9 and
	// 8) and 16+16+23 extra bits (literal runs and match lengths within a
	// block of 128 KiB, distances within 8 MiB). With the 7 bits left from
	// the last flush, states and up to 30 extra bits fit the 64-bit
	// accumulator with a bit to spare; a sequence with more (a run of 64
	// KiB of literals, say, then a match far back) flushes between them.
	start := len(dst)
	dst = slices.Grow(dst, len(seqs)*11+16)
	buf := dst[start:cap(dst)]
	var w fastBits
	// Read backwards, the sequences are written from the last; the
	// decoder takes each one's extra bits offset first (§3.1.1.3.2.1.1).
	codes := e.codes
	last := codes[len(codes)-1]
	t := &zstdPredefined
	if built {
		t = &e.tables
	}
	ll, of, ml := &t[zstdLitLen], &t[zstdOffset], &t[zstdMatchLen]
	sll, sml, sof := ll.start(last.ll), ml.start(last.ml), of.start(last.of)
	w = w.addBits(last.extra, last.bits).flush(buf)
	// The decoder updates the states literal length, match length,
	// offset; written in reverse. The predefined tables' steps are worked
	// out beforehand (fseSteps), a third of the instructions of encode.
	if !built {
		st := zstdPredefinedSteps()
		for i := len(codes) - 2; i >= 0; i-- {
			c := &codes[i]
			w, sof = w.step(st[zstdOffset][c.of&63][sof&31]) // 32 states
			w, sml = w.step(st[zstdMatchLen][c.ml&63][sml&63])
			w, sll = w.step(st[zstdLitLen][c.ll&63][sll&63])
			if c.bits > 30 {
				w = w.flush(buf)
			}
			w = w.addBits(c.extra, c.bits).flush(buf)
		}
	} else {
		// The three tables through one pointer: fewer registers for the
		// loop to keep.
		for i := len(codes) - 2; i >= 0; i-- {
			c := &codes[i]
			w, sof = t[zstdOffset].encode(w, sof, c.of)
			w, sml = t[zstdMatchLen].encode(w, sml, c.ml)
			w, sll = t[zstdLitLen].encode(w, sll, c.ll)
			if c.bits > 30 {
				w = w.flush(buf)
			}
			w = w.addBits(c.extra, c.bits).flush(buf)
		}
	}
	// The decoder reads the initial states literal length, offset, match
	// length.
	w = w.addBits(uint64(sml&(1<<ml.log-1)), ml.log)
	w = w.addBits(uint64(sof&(1<<of.log-1)), of.log)
	w = w.addBits(uint64(sll&(1<<ll.log-1)), ll.log)
	w = w.add(1 | 1<<16) // the end mark
	return dst[:start+w.close(buf)]
}

// The codes of sequences, in the order their tables are described (RFC
// 8878 §3.1.1.3.2.1), and their predefined distributions and accuracy logs
// (§3.1.1.3.2.2).
const (
	zstdLitLen = iota
	zstdOffset
	zstdMatchLen
)

var zstdPredefinedNorm = [3][]int16{
	zstdLitLen: {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1},
	zstdOffset: {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1},
	zstdMatchLen: {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1},
}

var zstdPredefinedLog = [3]uint8{zstdLitLen: 6, zstdOffset: 5, zstdMatchLen: 6}

// zstdTableLog is the accuracy log of the tables built for a body: the
// largest fseEncoder holds, plenty for the few hundred sequences of a few
// KB.
const zstdTableLog = 6

// zstdMinBuilt is the fewest sequences for which a table of their own is
// considered: below it a description costs more than it saves. Set
// higher, small bodies with a few long matches (a README, GraphQL JSON)
// keep the predefined match-length table, which prices long matches badly,
// and fail TestOwnEncoderRule's bytes.
const zstdMinBuilt = 32

// zstdMinTableGain is the fewest bytes a table built for the body must
// save, description included, for it to replace the predefined one:
// building it and coding with it cost more than a few bytes are worth
// (JSON's match lengths in a few KiB of it: a noticeable share of the
// encoder's work for a table that saved nothing).
const zstdMinTableGain = 4

// zstdStateCost is, per number of states k of 64, what coding a symbol
// with them costs in 1/16 bits: 16·log2(64/k).
var zstdStateCost = func() (c [65]uint32) {
	for k := 1; k <= 64; k++ {
		c[k] = uint32(math.Round(16 * math.Log2(64/float64(k))))
	}
	return c
}()

// zstdPredefinedCost is, per kind of code and code, what coding it with
// the predefined table costs in 1/16 bits (zstdStateCost), its states
// counted in units of 64 (an offset state of 32 weighs two).
var zstdPredefinedCost = func() (c [3][64]uint32) {
	for kind, norm := range zstdPredefinedNorm {
		unit := 1 << (zstdTableLog - zstdPredefinedLog[kind])
		for s, n := range norm {
			c[kind][s] = zstdStateCost[fseStates(n)*unit]
		}
	}
	return c
}()

// appendSequenceTables, given the codes' counts, picks per kind of code
// the predefined table or one built for the body, whichever the estimate
// prices lower with its description, and appends the mode byte and the
// descriptions of the built ones (RFC 8878 §3.1.1.3.2.1). It reports
// whether it built any, when e.tables holds the three tables to code with;
// otherwise they are the predefined ones.
func (e *blockCoder) appendSequenceTables(dst []byte) ([]byte, bool) {
	seqs := e.seqs
	modeAt := len(dst)
	dst = append(dst, 0) // Predefined_Mode for all three, unless changed below
	if len(seqs) < zstdMinBuilt {
		return dst, false
	}
	count := &e.counts // by codeSequences
	mode := byte(0)
	for kind := range 3 {
		c := count[kind][:]
		last := len(c) - 1
		for last > 0 && c[last] == 0 {
			last--
		}
		if last >= len(zstdPredefinedNorm[kind]) {
			continue // a code the predefined table lacks: none do for these bodies
		}
		norm, ok := zstdNormalize(&e.norm[kind], c[:last+1], len(seqs), zstdTableLog)
		if !ok {
			continue
		}
		// The prices with the predefined table and the one built; an
		// absent code has no state and costs nothing.
		predefined, built := uint32(0), uint32(0)
		pre := &zstdPredefinedCost[kind]
		for s, f := range c[:last+1] {
			predefined += f * pre[s&63]
			built += f * zstdStateCost[norm[s]]
		}
		// A description takes a byte at least: where that is too many,
		// the table is not worth describing.
		if built+16*8*uint32(1+zstdMinTableGain) >= predefined {
			continue
		}
		at := len(dst)
		dst = appendNCount(dst, norm, zstdTableLog)
		if built+16*8*uint32(len(dst)-at+zstdMinTableGain) >= predefined {
			dst = dst[:at]
			continue
		}
		e.tables[kind].build(norm, zstdTableLog)
		mode |= 2 << (6 - 2*kind) // FSE_Compressed_Mode
	}
	return e.setModes(dst, modeAt, mode)
}

// setModes writes the tables' modes at dst[modeAt] and reports whether any
// table was built (mode not 0), when the kinds left predefined take a copy
// of that table, so that e.tables holds all three.
func (e *blockCoder) setModes(dst []byte, modeAt int, mode byte) ([]byte, bool) {
	if mode == 0 {
		return dst, false
	}
	dst[modeAt] = mode
	for kind := range 3 {
		if mode>>(6-2*kind)&3 == 0 {
			e.tables[kind] = zstdPredefined[kind]
		}
	}
	return dst, true
}

// zstdNormalize scales the counts c of n symbols (their sum, at least 2)
// to 1<<log states (at most 64) into norm: each present symbol its share
// rounded down but at least one, the most common the rest. It reports
// false when that leaves the most common without a state, or a single
// symbol has every state.
func zstdNormalize(norm *[64]int16, c []uint32, n int, log uint8) ([]int16, bool) {
	most, sum := 0, 0
	by := newDivisor(n)
	for s, f := range c {
		if int(f) == n {
			return nil, false
		}
		k := max(by.div(uint64(f)<<log), int(min(f, 1))) // at least one if present
		norm[s], sum = int16(k), sum+k
		if f > c[most] {
			most = s
		}
	}
	norm[most] += int16(1<<log - sum)
	return norm[:len(c)], norm[most] >= 1
}

// A divisor divides by a fixed n, 2 <= n < 2^32, with a multiplication:
// for a below 2^32, the high word of a·(⌊(2^64-1)/n⌋+1) is ⌊a/n⌋ (Lemire,
// Kaser and Kurz, "Faster remainder by direct computation", 2019).
type divisor uint64

func newDivisor(n int) divisor { return divisor(^uint64(0)/uint64(n) + 1) }

// div returns a/n rounded down, for a below 2^32.
func (d divisor) div(a uint64) int {
	q, _ := bits.Mul64(a, uint64(d))
	return int(q)
}

// A seqCode is a sequence as the bit stream takes it: its three codes, and
// their extra bits together, literal length's lowest, then match length's,
// then offset's (which the decoder, reading backwards, takes first).
type seqCode struct {
	extra      uint64
	bits       uint8 // the number of extra bits
	ll, of, ml uint8
}

// codeSequences sets e.codes from e.seqs, coding their distances as
// offset values (RFC 8878 §3.1.1.5), keeping the last offsets in e.rep as
// a decoder does, and counts the codes in e.counts when there are
// enough sequences for tables of their own (see appendSequenceTables).
// The offset values are offsetValue's, written out in the same pass: the
// compiler does not inline offsetValue, and a call per sequence slows the
// small-body encoder. TestZstdRepeatOffsets holds the two to each other.
func (e *blockCoder) codeSequences() {
	seqs := e.seqs
	codes := slices.Grow(e.codes[:0], len(seqs))[:len(seqs)]
	count := len(seqs) >= zstdMinBuilt || e.bestTables
	if count {
		e.counts = [3][64]uint32{}
	}
	r0, r1, r2 := e.rep[0], e.rep[1], e.rep[2]
	for i := range seqs {
		s := &seqs[i]
		d, v := s.dist, s.dist+3
		if s.lits > 0 {
			switch d {
			case r0:
				v = 1
			case r1:
				v = 2
				r0, r1 = r1, r0
			case r2:
				v = 3
				r0, r1, r2 = r2, r0, r1
			default:
				r0, r1, r2 = d, r0, r1
			}
		} else {
			switch d {
			case r1:
				v = 1
				r0, r1 = r1, r0
			case r2:
				v = 2
				r0, r1, r2 = r2, r0, r1
			default:
				if d == r0-1 {
					v = 3
				}
				r0, r1, r2 = d, r0, r1
			}
		}
		llc, mlc, ofc := zstdLitLenCode(s.lits)&63, zstdMatchLenCode(s.length-3)&63, zstdOffsetCode(v)&31
		llBits, mlBits := zstdLitLenBits[llc], zstdMatchLenBits[mlc]
		// Written in place, field by field: a seqCode value built and
		// copied in (more than four fields) is copied with a 16-byte load
		// right after the narrow stores of its fields, which must wait
		// for them to be written (a store-forwarding stall).
		c := &codes[i]
		c.extra = uint64(s.lits-zstdLitLenBase[llc]) |
			uint64(s.length-3-zstdMatchLenBase[mlc])<<(llBits&63) |
			uint64(v-1<<ofc)<<((llBits+mlBits)&63)
		c.bits = llBits + mlBits + ofc
		c.ll, c.of, c.ml = llc, ofc, mlc
		if count {
			e.counts[zstdLitLen][llc]++
			e.counts[zstdOffset][ofc]++
			e.counts[zstdMatchLen][mlc]++
		}
	}
	e.rep = [3]uint32{r0, r1, r2}
	e.codes = codes
}

// Literal length and match length codes (RFC 8878 §3.1.1.3.2.1.1): a code's
// base value and the number of extra bits after it. Match lengths are
// counted from 3, the shortest.
var (
	zstdLitLenBase = [64]uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536}
	zstdLitLenBits = [64]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	zstdMatchLenBase = [64]uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
		32, 34, 36, 38, 40, 44, 48, 56, 64, 80, 96, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536}
	zstdMatchLenBits = [64]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
)

// zstdSmallCodes maps literal lengths below 64 and match lengths (less 3)
// below 128 to their codes; above, the codes follow the highest bit.
var zstdSmallCodes = func() (c struct {
	lit   [64]uint8
	match [128]uint8
}) {
	for code := range 36 {
		for v := zstdLitLenBase[code]; v < zstdLitLenBase[code]+1<<zstdLitLenBits[code] && v < 64; v++ {
			c.lit[v] = uint8(code)
		}
	}
	for code := range 53 {
		for v := zstdMatchLenBase[code]; v < zstdMatchLenBase[code]+1<<zstdMatchLenBits[code] && v < 128; v++ {
			c.match[v] = uint8(code)
		}
	}
	return c
}()

func zstdLitLenCode(n uint32) uint8 {
	if n < 64 {
		return zstdSmallCodes.lit[n]
	}
	return uint8(bits.Len32(n)) - 1 + 19
}

func zstdMatchLenCode(n uint32) uint8 {
	if n < 128 {
		return zstdSmallCodes.match[n]
	}
	return uint8(bits.Len32(n)) - 1 + 36
}

// zstdOffsetCode is the code of offset value v: its highest bit, the bits
// below it sent as extra bits (RFC 8878 §3.1.1.3.2.1.1).
func zstdOffsetCode(v uint32) uint8 { return uint8(bits.Len32(v)) - 1 }
