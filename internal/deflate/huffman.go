package deflate

import (
	"math"
	"math/bits"
	"slices"
)

// DEFLATE alphabets (RFC 1951 §3.2.5): literal/length codes 0..285 and
// distance codes 0..29. Code lengths are at most 15 bits, code-length
// codes at most 7.
const (
	numLitLen  = 286
	numDist    = 30
	numCodeLen = 19
	endOfBlock = 256
	MaxCodeLen = 15
)

// codeLenOrder is the order code-length code lengths are sent in
// (RFC 1951 §3.2.7).
var codeLenOrder = [numCodeLen]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// HuffCode is a canonical Huffman code: per symbol its length and its bits,
// already reversed, because DEFLATE sends Huffman codes most significant
// bit first into an LSB-first stream (RFC 1951 §3.1.1).
type HuffCode struct {
	Len  []uint8
	Bits []uint16
}

// NewHuffCode returns a code for an alphabet of n symbols, all without a
// length yet.
func NewHuffCode(n int) HuffCode {
	return HuffCode{Len: make([]uint8, n), Bits: make([]uint16, n)}
}

// HuffBuilder holds the scratch space for building codes, so building one
// allocates nothing.
type HuffBuilder struct {
	Keys  []uint64 // frequency<<symBits | symbol
	order []uint16 // symbols with a non-zero frequency, by frequency
	depth []int32
}

// Build gives code h the lengths of an optimal prefix code for freq whose
// lengths do not exceed maxBits, assigns its canonical bits, and returns
// the bits freq's symbols take with it. A code always has at least two
// symbols, so it is complete and every decoder accepts it (zlib refuses
// incomplete codes but for a single 1-bit one).
func (b *HuffBuilder) Build(h HuffCode, freq []uint32, maxBits int) (bits int) {
	count, inOrder := b.Lengths(h.Len, freq, maxBits)
	if !inOrder {
		h.assignCounted(&count, maxBits)
		return b.KeysCost(h.Len)
	}
	// Only the symbols of b.keys have codes: assign theirs, in symbol order
	// as canonical codes go, and clear the others'.
	next := firstCodes(&count, maxBits)
	clear(h.Bits)
	return h.assignKeys(b.Keys, &next)
}

// KeysCost returns the bits the symbols of the last Build or Lengths take
// with code lengths lens: it visits only the symbols used, not the whole
// alphabet.
func (b *HuffBuilder) KeysCost(lens []uint8) (bits int) {
	for _, k := range b.Keys {
		bits += int(k>>symBits) * int(lens[k&SymMask])
	}
	return bits
}

// Lengths gives lens, one per symbol of freq, the Lengths of an optimal
// prefix code for freq that do not exceed maxBits, and returns the number
// of codes of each length and whether b.keys lists the symbols with a
// code in symbol order (frequency<<symBits | symbol), as build's callers
// that assign codes of their own can use.
func (b *HuffBuilder) Lengths(lens []uint8, freq []uint32, maxBits int) (count [MaxCodeLen + 2]int32, inOrder bool) {
	clear(lens)
	// Sort symbols by frequency, then symbol, as frequency<<symBits | symbol
	// keys.
	// Room for every symbol and two pads, so that collecting the keys
	// checks no capacity.
	keys := slices.Grow(b.Keys[:0], len(freq)+2)[:len(freq)]
	k, maxFreq := 0, uint32(0)
	// Four symbols at a time, a group none of which is used stepped over:
	// small blocks use a few stretches of the alphabet. Within a group
	// without a branch: a key is written for every symbol and kept only
	// when its frequency is not zero (the sparse alphabets of small blocks
	// made a branch per symbol a mispredicted one).
	s := 0
	for ; s+4 <= len(freq); s += 4 {
		q := freq[s : s+4 : s+4]
		if q[0]|q[1]|q[2]|q[3] == 0 {
			continue
		}
		for i, f := range q {
			keys[k] = uint64(f)<<symBits | uint64(s+i)
			k += int((f | -f) >> 31)
			maxFreq = max(maxFreq, f)
		}
	}
	for ; s < len(freq); s++ {
		f := freq[s]
		keys[k] = uint64(f)<<symBits | uint64(s)
		k += int((f | -f) >> 31)
		maxFreq = max(maxFreq, f)
	}
	b.Keys = keys[:k]
	// b.keys lists the symbols in symbol order unless padded or sorted.
	inOrder = len(b.Keys) >= 2 && maxFreq < countingSortLimit
	for len(b.Keys) < 2 {
		// Pad with unused symbols: a code for one symbol would be incomplete.
		s := uint64(0)
		if len(b.Keys) == 1 && b.Keys[0]&SymMask == 0 {
			s = 1
		}
		b.Keys = append(b.Keys, s)
	}
	b.order = b.order[:0]
	if maxFreq < countingSortLimit {
		b.countingSort(maxFreq)
	} else {
		slices.Sort(b.Keys)
		b.depth = b.depth[:0]
		for _, k := range b.Keys {
			b.order = append(b.order, uint16(k&SymMask))
			b.depth = append(b.depth, int32(k>>symBits))
		}
	}
	// b.depth holds the frequencies in b.order's order. Pads have
	// frequency 0, which is harmless: with two symbols, both take 1 bit
	// whatever their frequencies.
	if minimumRedundancy(b.depth, &count, maxBits) {
		// Clamping made the Kraft sum, in units of 2^-maxBits, exceed one.
		// As in zlib's trees.c gen_bitlen, each step moves a shorter leaf
		// one level down and hangs a maxBits leaf beside it, lowering the
		// sum by exactly one unit, so the code ends complete.
		kraft := 0
		for l := 1; l <= maxBits; l++ {
			kraft += int(count[l]) << (maxBits - l)
		}
		for ; kraft > 1<<maxBits; kraft-- {
			bits := maxBits - 1
			for count[bits] == 0 {
				bits--
			}
			count[bits]--
			count[bits+1] += 2
			count[maxBits]--
		}
	}
	// The least frequent symbols take the longest codes.
	order := b.order
	for l := maxBits; l >= 1; l-- {
		for _, s := range order[:count[l]] {
			lens[s] = uint8(l)
		}
		order = order[count[l]:]
	}
	return count, inOrder
}

// assignKeys gives the symbols of keys, in symbol order, their canonical
// codes from next, the first code of each length, and returns the bits
// the keys' frequencies take with them. The slices are copied to locals
// so that the compiler keeps them in registers.
func (h HuffCode) assignKeys(keys []uint64, next *[MaxCodeLen + 2]uint16) (bits int) {
	lens, codes := h.Len, h.Bits
	for _, k := range keys {
		s := k & SymMask
		l := lens[s]
		codes[s] = reverseBits(next[l], l)
		next[l]++
		bits += int(k>>symBits) * int(l)
	}
	return bits
}

// Symbols of every alphabet (brotli's largest has 704) fit in symBits bits.
const (
	symBits = 10
	SymMask = 1<<symBits - 1
)

// countingSortLimit bounds the frequencies countingSort handles: small
// blocks, where sorting by comparison was a tenth of the whole encode.
const countingSortLimit = 1 << 10

// countingSort appends to b.order the symbols of b.keys (collected in symbol
// order, frequencies below countingSortLimit and at most maxFreq) by
// frequency, then symbol: the order slices.Sort would give the keys. It
// sets b.depth to their frequencies in that order, for minimumRedundancy,
// since it has them at hand.
func (b *HuffBuilder) countingSort(maxFreq uint32) {
	// Small blocks have small counts: zero only the buckets they can use.
	var small [128]uint16
	start := small[:]
	if maxFreq >= uint32(len(small)) {
		start = make([]uint16, countingSortLimit)
	}
	start = start[:maxFreq+1]
	for _, k := range b.Keys {
		start[k>>symBits]++
	}
	sum := uint16(0)
	for f := range start {
		start[f], sum = sum, sum+start[f]
	}
	n := len(b.Keys)
	order := slices.Grow(b.order, n)[:n]
	depth := slices.Grow(b.depth[:0], n)[:n]
	for _, k := range b.Keys {
		f := k >> symBits
		i := start[f]
		order[i] = uint16(k & SymMask)
		depth[i] = int32(f)
		start[f]++
	}
	b.order, b.depth = order, depth
}

// minimumRedundancy counts in count[l] the leaves at depth l of a Huffman
// tree for a, at least two frequencies in non-decreasing order (Moffat and Katajainen,
// "In-place calculation of minimum-redundancy codes", 1995), and reports
// whether it counted any deeper than maxBits at maxBits. It works in place
// and leaves a destroyed: the least frequent symbols take the deepest
// leaves, so the counts are all a caller needs.
func minimumRedundancy(a []int32, count *[MaxCodeLen + 2]int32, maxBits int) (clamped bool) {
	// Unsigned indexes let the compiler prove most of them in bounds.
	n := uint(len(a))
	root, leaf := uint(0), uint(0)
	// pick returns the smaller of the next leaf and the next internal
	// node (at most next), turning a consumed node into its parent's index.
	pick := func(next uint) int32 {
		if leaf >= n || (root < next && a[root] < a[leaf]) {
			f := a[root]
			a[root] = int32(next)
			root++
			return f
		}
		f := a[leaf]
		leaf++
		return f
	}
	// Each internal node's weight is its two children's: the two smallest
	// of what is left.
	for next := uint(0); next < n-1; next++ {
		f := pick(next)
		a[next] = f + pick(next)
	}
	a[n-2] = 0
	for next := int(n) - 3; next >= 0; next-- {
		a[next] = a[a[next]] + 1
	}
	// a[:n-1] now holds the internal nodes' depths, non-decreasing from the
	// root at n-2 down; the slots a level has that no internal node takes
	// are its leaves.
	avail, used, depth := 1, 0, 0
	for root := int(n) - 2; avail > 0; {
		for root >= 0 && int(a[root]) == depth {
			used++
			root--
		}
		count[min(depth, maxBits)] += int32(avail - used)
		avail, used, depth = 2*used, 0, depth+1
	}
	return depth-1 > maxBits
}

// assign gives every symbol with a length its canonical code (RFC 1951
// §3.2.2), bit-reversed for the LSB-first stream.
func (h HuffCode) assign(maxBits int) {
	var count [MaxCodeLen + 2]int32
	for _, l := range h.Len {
		count[l]++
	}
	h.assignCounted(&count, maxBits)
}

// firstCodes returns the first canonical code of each length given count[l],
// the number of symbols of length l (RFC 1951 §3.2.2).
func firstCodes(count *[MaxCodeLen + 2]int32, maxBits int) [MaxCodeLen + 2]uint16 {
	var next [MaxCodeLen + 2]uint16
	code := uint16(0)
	for bits := 1; bits <= maxBits; bits++ {
		prev := uint16(0)
		if bits > 1 {
			prev = uint16(count[bits-1])
		}
		code = (code + prev) << 1
		next[bits] = code
	}
	return next
}

// assignCounted is assign given count[l], the number of symbols of length
// l. Symbols without a code get bits 0, so that coding one by mistake adds
// nothing stale to the stream (callers check lengths first: cost returns
// math.MaxInt for a used symbol without a code).
func (h HuffCode) assignCounted(count *[MaxCodeLen + 2]int32, maxBits int) {
	next := firstCodes(count, maxBits)
	for s, l := range h.Len {
		if l == 0 {
			h.Bits[s] = 0
			continue
		}
		h.Bits[s] = reverseBits(next[l], l)
		next[l]++
	}
}

// reverseBits returns the n low bits of c, n from 1 to 15, reversed. The
// mask spares the compiler a check for shifts of 16 or more.
func reverseBits(c uint16, n uint8) uint16 { return bits.Reverse16(c) >> ((16 - n) & 15) }

// Cost is the number of bits the symbols counted in freq take with code h,
// or math.MaxInt if h has no code for one of them.
func (h HuffCode) Cost(freq []uint32) int {
	bits := 0
	for s, f := range freq {
		if f == 0 {
			continue
		}
		l := h.Len[s]
		if l == 0 {
			return math.MaxInt
		}
		bits += int(f) * int(l)
	}
	return bits
}

// BitWriter appends an LSB-first bit stream (RFC 1951 §3.1.1) to buf.
type BitWriter struct {
	Buf  []byte
	Bits uint64
	N    uint
}

// WriteBits appends the low n bits of v; n is at most 32.
func (w *BitWriter) WriteBits(v uint32, n uint8) {
	w.Bits |= uint64(v) << w.N
	w.N += uint(n)
	if w.N >= 32 {
		w.Buf = append(w.Buf, byte(w.Bits), byte(w.Bits>>8), byte(w.Bits>>16), byte(w.Bits>>24))
		w.Bits >>= 32
		w.N -= 32
	}
}

// Align pads with zero bits to a byte boundary and writes out all bits.
func (w *BitWriter) Align() {
	for w.N > 0 {
		w.Buf = append(w.Buf, byte(w.Bits))
		w.Bits >>= 8
		w.N = uint(max(int(w.N)-8, 0))
	}
	w.Bits = 0
}
