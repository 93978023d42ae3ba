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
	maxCodeLen = 15
)

// codeLenOrder is the order code-length code lengths are sent in
// (RFC 1951 §3.2.7).
var codeLenOrder = [numCodeLen]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// huffCode is a canonical Huffman code: per symbol its length and its bits,
// already reversed, because DEFLATE sends Huffman codes most significant
// bit first into an LSB-first stream (RFC 1951 §3.1.1).
type huffCode struct {
	len  []uint8
	bits []uint16
}

func newHuffCode(n int) huffCode {
	return huffCode{len: make([]uint8, n), bits: make([]uint16, n)}
}

// huffBuilder holds the scratch space for building codes, so building one
// allocates nothing.
type huffBuilder struct {
	keys  []uint64 // frequency<<symBits | symbol
	order []uint16 // symbols with a non-zero frequency, by frequency
	depth []int32
}

// build gives code h the lengths of an optimal prefix code for freq whose
// lengths do not exceed maxBits, and assigns its canonical bits. A code
// always has at least two symbols, so it is complete and every decoder
// accepts it (zlib refuses incomplete codes but for a single 1-bit one).
func (b *huffBuilder) build(h huffCode, freq []uint32, maxBits int) {
	count, inOrder := b.lengths(h.len, freq, maxBits)
	if !inOrder {
		h.assignCounted(&count, maxBits)
		return
	}
	// Only the symbols of b.keys have codes: assign theirs, in symbol order
	// as canonical codes go, and clear the others'.
	next := firstCodes(&count, maxBits)
	clear(h.bits)
	h.assignKeys(b.keys, &next)
}

// lengths gives lens, one per symbol of freq, the lengths of an optimal
// prefix code for freq that do not exceed maxBits, and returns the number
// of codes of each length and whether b.keys lists the symbols with a
// code in symbol order (frequency<<symBits | symbol), as build's callers
// that assign codes of their own can use.
func (b *huffBuilder) lengths(lens []uint8, freq []uint32, maxBits int) (count [maxCodeLen + 2]int32, inOrder bool) {
	clear(lens)
	// Sort symbols by frequency, then symbol, as frequency<<symBits | symbol
	// keys.
	// Room for every symbol and two pads, so that collecting the keys
	// checks no capacity.
	keys := slices.Grow(b.keys[:0], len(freq)+2)[:len(freq)]
	k, maxFreq := 0, uint32(0)
	for s, f := range freq {
		if f > 0 {
			keys[k] = uint64(f)<<symBits | uint64(s)
			k++
			maxFreq = max(maxFreq, f)
		}
	}
	b.keys = keys[:k]
	// b.keys lists the symbols in symbol order unless padded or sorted.
	inOrder = len(b.keys) >= 2 && maxFreq < countingSortLimit
	for len(b.keys) < 2 {
		// Pad with unused symbols: a code for one symbol would be incomplete.
		s := uint64(0)
		if len(b.keys) == 1 && b.keys[0]&symMask == 0 {
			s = 1
		}
		b.keys = append(b.keys, s)
	}
	b.order = b.order[:0]
	if maxFreq < countingSortLimit {
		b.countingSort(maxFreq)
	} else {
		slices.Sort(b.keys)
		b.depth = b.depth[:0]
		for _, k := range b.keys {
			b.order = append(b.order, uint16(k&symMask))
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
// codes from next, the first code of each length. The slices are copied to
// locals so that the compiler keeps them in registers.
func (h huffCode) assignKeys(keys []uint64, next *[maxCodeLen + 2]uint16) {
	lens, codes := h.len, h.bits
	for _, k := range keys {
		s := k & symMask
		l := lens[s]
		codes[s] = reverseBits(next[l], l)
		next[l]++
	}
}

// Symbols of every alphabet (brotli's largest has 704) fit in symBits bits.
const (
	symBits = 10
	symMask = 1<<symBits - 1
)

// countingSortLimit bounds the frequencies countingSort handles: small
// blocks, where sorting by comparison was a tenth of the whole encode.
const countingSortLimit = 1 << 10

// countingSort appends to b.order the symbols of b.keys (collected in symbol
// order, frequencies below countingSortLimit and at most maxFreq) by
// frequency, then symbol: the order slices.Sort would give the keys. It
// sets b.depth to their frequencies in that order, for minimumRedundancy,
// since it has them at hand.
func (b *huffBuilder) countingSort(maxFreq uint32) {
	// Small blocks have small counts: zero only the buckets they can use.
	var small [128]uint16
	start := small[:]
	if maxFreq >= uint32(len(small)) {
		start = make([]uint16, countingSortLimit)
	}
	start = start[:maxFreq+1]
	for _, k := range b.keys {
		start[k>>symBits]++
	}
	sum := uint16(0)
	for f := range start {
		start[f], sum = sum, sum+start[f]
	}
	n := len(b.keys)
	order := slices.Grow(b.order, n)[:n]
	depth := slices.Grow(b.depth[:0], n)[:n]
	for _, k := range b.keys {
		f := k >> symBits
		i := start[f]
		order[i] = uint16(k & symMask)
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
func minimumRedundancy(a []int32, count *[maxCodeLen + 2]int32, maxBits int) (clamped bool) {
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
func (h huffCode) assign(maxBits int) {
	var count [maxCodeLen + 2]int32
	for _, l := range h.len {
		count[l]++
	}
	h.assignCounted(&count, maxBits)
}

// firstCodes returns the first canonical code of each length given count[l],
// the number of symbols of length l (RFC 1951 §3.2.2).
func firstCodes(count *[maxCodeLen + 2]int32, maxBits int) [maxCodeLen + 2]uint16 {
	var next [maxCodeLen + 2]uint16
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
func (h huffCode) assignCounted(count *[maxCodeLen + 2]int32, maxBits int) {
	next := firstCodes(count, maxBits)
	for s, l := range h.len {
		if l == 0 {
			h.bits[s] = 0
			continue
		}
		h.bits[s] = reverseBits(next[l], l)
		next[l]++
	}
}

// reverseBits returns the n low bits of c, n from 1 to 15, reversed. The
// mask spares the compiler a check for shifts of 16 or more.
func reverseBits(c uint16, n uint8) uint16 { return bits.Reverse16(c) >> ((16 - n) & 15) }

// cost is the number of bits the symbols counted in freq take with code h,
// or math.MaxInt if h has no code for one of them.
func (h huffCode) cost(freq []uint32) int {
	bits := 0
	for s, f := range freq {
		if f == 0 {
			continue
		}
		l := h.len[s]
		if l == 0 {
			return math.MaxInt
		}
		bits += int(f) * int(l)
	}
	return bits
}

// bitWriter appends an LSB-first bit stream (RFC 1951 §3.1.1) to buf.
type bitWriter struct {
	buf  []byte
	bits uint64
	n    uint
}

// write appends the low n bits of v; n is at most 32.
func (w *bitWriter) write(v uint32, n uint8) {
	w.bits |= uint64(v) << w.n
	w.n += uint(n)
	if w.n >= 32 {
		w.buf = append(w.buf, byte(w.bits), byte(w.bits>>8), byte(w.bits>>16), byte(w.bits>>24))
		w.bits >>= 32
		w.n -= 32
	}
}

// align pads with zero bits to a byte boundary and writes out all bits.
func (w *bitWriter) align() {
	for w.n > 0 {
		w.buf = append(w.buf, byte(w.bits))
		w.bits >>= 8
		w.n = uint(max(int(w.n)-8, 0))
	}
	w.bits = 0
}
