package zstd

import (
	"github.com/squeezehttp/squeeze/internal/deflate"

	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// Encoder compresses one body known whole into a zstd frame (RFC 8878)
// of a single block. It is made for small HTTP responses, where a
// general-purpose zstd encoder spends most of its time on the block's
// entropy tables. Its matches come from deflate.WholeEncoder's hash tables, found
// straight into sequences; its literals are Huffman-coded, the code's
// weights described with one static FSE table (or directly); its sequences
// are coded with the predefined FSE tables (§3.1.1.3.2.2), which cost
// nothing to describe or build, or from 64 sequences up with tables built
// for the body where the estimate says they pay. Offsets that repeat one of
// the last three are sent as repeat codes (§3.1.1.5).
//
// The frame is single-segment, with the body's size and no checksum: a
// decoder needs no window beyond the body.
//
// A Encoder is not safe for concurrent use; the zero value is ready to
// use. It keeps 199 KiB (deflate.WholeEncoder's hash tables and its own counts and
// tables) and buffers that grow with the bodies.
type Encoder struct {
	m       deflate.WholeEncoder // its hash tables, reused across bodies
	seqs    []lzSeq              // the body's matches
	codes   []seqCode            // and as the bit stream takes them
	lits    []byte               // the body's literals, in order
	freq    [256]uint32          // their counts
	lens    [256]uint8           // the literal code's lengths
	huff    [256]uint32          // per literal its code, and its length << 16
	weights [256]byte            // the literal code's weights (the last one implied)
	// The sequences' code counts and the tables built for them, by kind.
	counts [3][64]uint32
	norm   [3][64]int16
	tables [3]fseEncoder
}

const (
	// MaxBody is the longest body a Encoder takes: the most one
	// block holds (RFC 8878 §3.1.1.2.4).
	MaxBody = 128 << 10
	// zstdMaxDirect is the largest literal that direct weights describe
	// (RFC 8878 §4.2.1.1).
	zstdMaxDirect = 128
	// zstdMaxHuffBits is the longest literal code (RFC 8878 §4.2.1).
	zstdMaxHuffBits = 11
	// zstdMinHuff is the fewest literals worth a Huffman code: below it the
	// code's description outweighs what it saves.
	zstdMinHuff = 32
	// zstdMaxMatch bounds a match's length: code 51's reach (RFC 8878
	// §3.1.1.3.2.1.1), far above DEFLATE's 258, which long runs need (4 KB
	// of zeros: 11 bytes instead of 59).
	zstdMaxMatch = 65536
)

// Append compresses src, of at most MaxBody bytes, and appends the
// zstd frame to dst. src must not overlap dst's spare capacity.
func (e *Encoder) Append(dst, src []byte) []byte {
	if len(src) > MaxBody {
		panic("deflate: Encoder body above 128 KiB")
	}
	dst = appendZstdFrameHeader(dst, len(src))
	e.match(src)

	// The block: its header once its size is known, a raw block when
	// coding does not make it smaller (RFC 8878 §3.1.1.2).
	start := len(dst)
	dst = append(dst, 0, 0, 0)
	dst = e.appendLiterals(dst, src)
	dst = e.appendSequences(dst)
	size, kind := len(dst)-start-3, zstdBlockCompressed
	if size >= len(src) {
		dst = append(dst[:start+3], src...)
		size, kind = len(src), zstdBlockRaw
	}
	h := 1 | kind<<1 | uint32(size)<<3 // Last_Block set
	dst[start], dst[start+1], dst[start+2] = byte(h), byte(h>>8), byte(h>>16)
	return dst
}

// Block types (RFC 8878 §3.1.1.2.2).
const (
	zstdBlockRaw        uint32 = 0
	zstdBlockCompressed uint32 = 2
)

// An lzSeq is zstd's sequence (RFC 8878 §3.1.1.3.2): lits literals, then
// length bytes copied from dist back. Literals after the last match are in
// no sequence.
type lzSeq struct{ lits, length, dist uint32 }

// match finds src's matches into e.seqs the way deflate.WholeEncoder's matchLight
// does (a 4-byte hash probed at each position, an 8-byte one where it
// hits, backward extension; above LightMax a byte of lookahead and two
// more positions indexed per match, as matchAll does), except that the
// window is the whole body, so a candidate needs no distance check.
func (e *Encoder) match(src []byte) {
	m := &e.m
	m.ResetTables(len(src))
	e.seqs = e.seqs[:0]
	n, base := len(src), m.Base
	long, short := &m.Long, &m.Short
	last := n - 8
	p, pending := 0, 0
	for p <= last {
		// Both loads are in bounds: p <= last, and the tables hold only
		// positions of this body below p (all that is stored is p itself,
		// the lookahead's p+1 and positions inside the match, each at most
		// last and below the next p), or values below base: earlier
		// bodies', since bases only grow and the tables are cleared before
		// they would wrap, and zeros.
		cv := deflate.LoadFast64(src, p)
		hs := deflate.HashShort(uint32(cv))
		c := short[hs]
		short[hs] = int32(p) + base
		// Candidates from earlier bodies are below base.
		if c < base || deflate.LoadFast32(src, int(c-base)) != uint32(cv) {
			p += 1 + (p-pending)>>6
			continue
		}
		cs := int(c - base)
		hl := deflate.HashLong(cv)
		cl := int(long[hl] - base)
		long[hl] = int32(p) + base
		var length, dist int
		if uint(cl) < uint(p) && deflate.LoadFast64(src, cl) == cv {
			length, dist = 8+deflate.MatchLenAt(src, cl+8, p+8, min(n, p+zstdMaxMatch)), p-cl
		} else {
			length, dist = 4+deflate.MatchLenAt(src, cs+4, p+4, min(n, p+zstdMaxMatch)), p-cs
			if q := p + 1; n > deflate.LightMax && length < 32 && q <= last {
				// Looking a byte ahead for a longer match in the 8-byte
				// table (deflate.WholeEncoder.lazy written in, without its window
				// check and with zstd's match bound instead of 258) saves
				// 2.3 % at 4 KB of JSON, 0.7 % at 1 KB, where it costs 2 %
				// of the encoder's time; after a long match there is little
				// to gain. The table holds positions up to p, so the
				// candidate is before q.
				v := deflate.LoadFast64(src, q)
				hl := deflate.HashLong(v)
				c := int(long[hl] - base)
				long[hl] = int32(q) + base
				if c >= 0 && deflate.LoadFast64(src, c) == v {
					if l := 8 + deflate.MatchLenAt(src, c+8, q+8, min(n, q+zstdMaxMatch)); l > length {
						p, length, dist = q, l, q-c
					}
				}
			}
		}
		for p > pending && p > dist && length < zstdMaxMatch && src[p-1] == src[p-1-dist] {
			p, length = p-1, length+1
		}
		// The positions indexed are in the match, so not negative.
		end := p + length
		if q := end - 1; q <= last {
			v := deflate.LoadFast64(src, q)
			long[deflate.HashLong(v)], short[deflate.HashShort(uint32(v))] = int32(q)+base, int32(q)+base
		}
		if n > deflate.LightMax {
			// Longer bodies index two more positions of each match, as
			// deflate.WholeEncoder's matchAll does: 1.3 % smaller at 4 KB of JSON.
			// Written out: a loop over the two costs more than the indexing.
			if q := p + 1; q <= last {
				v := deflate.LoadFast64(src, q)
				long[deflate.HashLong(v)], short[deflate.HashShort(uint32(v))] = int32(q)+base, int32(q)+base
			}
			if q := end - 2; q <= last {
				v := deflate.LoadFast64(src, q)
				long[deflate.HashLong(v)], short[deflate.HashShort(uint32(v))] = int32(q)+base, int32(q)+base
			}
		}
		e.seqs = append(e.seqs, lzSeq{lits: uint32(p - pending), length: uint32(length), dist: uint32(dist)})
		p, pending = end, end
	}
}

// appendZstdFrameHeader appends the magic number and a single-segment frame
// header for a body of n bytes, with no dictionary and no checksum (RFC
// 8878 §3.1.1.1).
func appendZstdFrameHeader(dst []byte, n int) []byte {
	dst = append(dst, 0x28, 0xb5, 0x2f, 0xfd)
	const singleSegment = 1 << 5
	switch {
	case n < 256:
		return append(dst, singleSegment, byte(n))
	case n < 256+65536:
		n -= 256 // a 2-byte Frame_Content_Size is offset by 256
		return append(dst, 1<<6|singleSegment, byte(n), byte(n>>8))
	default:
		return append(dst, 2<<6|singleSegment, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
	}
}

// appendLiterals gathers the literals the match finder left in src, counts
// them, and appends the literals section (RFC 8878 §3.1.1.3.1): a run when
// there is one distinct literal, Huffman-coded when that is smaller, raw
// otherwise.
func (e *Encoder) appendLiterals(dst, src []byte) []byte {
	// Copied 8 bytes at a time, up to 7 past their end: the loads are in
	// bounds, since every run but the last ends at a match, which starts
	// at least 8 bytes before src's end.
	lits, pos, nl := slices.Grow(e.lits[:0], len(src)+8)[:len(src)+8], 0, 0
	for _, s := range e.seqs {
		for i := 0; i < int(s.lits); i += 8 {
			j := nl + i
			binary.LittleEndian.PutUint64(lits[j:j+8:j+8], deflate.LoadFast64(src, pos+i))
		}
		nl += int(s.lits)
		pos += int(s.lits + s.length)
	}
	nl += copy(lits[nl:], src[pos:])
	lits = lits[:nl]
	e.lits = lits

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
// description (about half a byte per symbol), so that literals that are
// not text (compressed or random data, which take most of 8 bits) skip
// building one. Text literals, all below 128, need not ask: they always
// gain.
func zstdHuffmanPays(freq []uint32, n int) bool {
	// n·log2(n) - Σ f·log2(f) is the entropy in bits, counted here in
	// sixteenths.
	bits := uint64(n) * uint64(log2x16(uint32(n)))
	for _, f := range freq {
		if f != 0 {
			bits -= uint64(f) * uint64(log2x16(f))
		}
	}
	return bits/16/8+uint64(len(freq))/2 < uint64(n)*97/100
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

// appendHuffLiterals appends e.lits as a Huffman-coded literals section,
// every literal at most maxSym, and reports false, having appended
// nothing, when that is not smaller than the raw section. Up to 1023
// literals go in one stream, more in four (RFC 8878 §3.1.1.3.1.6).
func (e *Encoder) appendHuffLiterals(dst []byte, maxSym int) ([]byte, bool) {
	lits := e.lits
	lens := e.lens[:maxSym+1]
	count, inOrder := e.m.HB.Lengths(lens, e.freq[:maxSym+1], zstdMaxHuffBits)
	bitsTotal := e.zstdCodes(lens, &count, inOrder)

	// Four streams take a jump table, and more literals a longer header
	// (Size_Format, RFC 8878 §3.1.1.3.1.1).
	streams, header := 1, 3
	if len(lits) > 1023 {
		streams, header = 4, 4
		if len(lits) > 16383 {
			header = 5
		}
	}

	start := len(dst)
	dst = append(dst, make([]byte, header)...)
	// The weights of every literal but the last, whose weight is implied
	// (RFC 8878 §4.2.1.1): FSE-compressed, or else written directly, two
	// per byte, the first in the high nibble.
	weights := e.weights[:maxSym]
	desc := len(dst)
	dst, ok := e.appendFSEWeights(dst, weights)
	if !ok || maxSym <= zstdMaxDirect && len(dst)-desc > 1+(maxSym+1)/2 {
		if maxSym > zstdMaxDirect {
			return dst[:start], false
		}
		dst = append(dst[:desc], byte(127+maxSym))
		for s := 0; s < maxSym; s += 2 {
			w := weights[s] << 4
			if s+1 < maxSym {
				w |= weights[s+1]
			}
			dst = append(dst, w)
		}
	}
	// The rest, estimated before writing it: the jump table of four
	// streams, and each stream's end mark and padding.
	size := len(dst) - start + bitsTotal/8 + streams
	if streams == 4 {
		size += 6
	}
	if size >= rawLiteralsHeaderLen(len(lits))+len(lits) {
		return dst[:start], false
	}
	if streams == 1 {
		dst = e.appendHuffStream(dst, lits)
	} else {
		jump := len(dst)
		dst = append(dst, 0, 0, 0, 0, 0, 0)
		seg := (len(lits) + 3) / 4
		for i := range 4 {
			s := len(dst)
			dst = e.appendHuffStream(dst, lits[i*seg:min(len(lits), (i+1)*seg)])
			if i < 3 {
				binary.LittleEndian.PutUint16(dst[jump+2*i:], uint16(len(dst)-s))
			}
		}
	}
	csize := uint64(len(dst) - start - header)
	h := 2 | uint64(len(lits))<<4 // Compressed_Literals_Block
	switch header {
	case 3:
		h |= csize << 14 // Size_Format 00: one stream
	case 4:
		h |= 2<<2 | csize<<18
	default:
		h |= 3<<2 | csize<<22
	}
	for i := range header {
		dst[start+i] = byte(h >> (8 * i))
	}
	return dst, true
}

// zstdStaticWeights is a distribution of literal code weights typical of
// the text of small web bodies (about half the literals of the range
// absent, the rest spread over weights 1-7), with its description and
// coding table, made once.
var zstdStaticWeights = func() (w struct {
	desc  []byte
	table fseEncoder
	steps fseSteps
}) {
	norm := []int16{28, 6, 6, 5, 5, 5, 4, 1, -1, -1, -1, -1}
	w.desc = appendNCount(nil, norm, zstdWeightsLog)
	w.table.build(norm, zstdWeightsLog)
	w.steps = w.table.steps()
	return w
}()

// zstdWeightsLog is the accuracy log of the weights' FSE table, the most
// allowed (RFC 8878 §4.2.1.2).
const zstdWeightsLog = 6

// appendFSEWeights appends the weights FSE-compressed (RFC 8878 §4.2.1.2):
// a header byte with the size, the table's distribution, and a bit stream
// of two states taking the weights in turn, and reports false, having
// appended nothing, when that takes 128 bytes or more. The distribution is
// zstdStaticWeights, whatever the body: one of its own would save about 3
// bytes on 1-4 KB of JSON, CSS or JavaScript and cost 5 % of the encoder's
// time at 1 KB to count, describe and build.
func (e *Encoder) appendFSEWeights(dst []byte, weights []byte) ([]byte, bool) {
	if len(weights) < 2 {
		return dst, false
	}
	start := len(dst)
	dst = append(dst, 0)
	dst = append(dst, zstdStaticWeights.desc...)
	t := &zstdStaticWeights.table

	// Weight i goes to the first state if i is even, the second if odd;
	// written backwards, the last two set the states the decoder starts
	// from, and the second state is flushed first (zstd's
	// FSE_compress_usingCTable).
	n := len(weights)
	at := len(dst)
	dst = slices.Grow(dst, n+16)
	buf := dst[at:cap(dst)]
	var w fastBits
	var s0, s1 uint32
	i := n - 3
	if n&1 == 1 {
		s0, s1 = t.start(weights[n-1]), t.start(weights[n-2])
		w, s0 = t.encode(w, s0, weights[n-3])
		i--
	} else {
		s1, s0 = t.start(weights[n-1]), t.start(weights[n-2])
	}
	// Four pairs of weights take at most 48 bits: a flush per four.
	steps := &zstdStaticWeights.steps
	for ; i >= 7; i -= 8 {
		for j := i; j > i-8; j -= 2 {
			w, s1 = w.step(steps[weights[j]&63][s1&63])
			w, s0 = w.step(steps[weights[j-1]&63][s0&63])
		}
		w = w.flush(buf)
	}
	for ; i >= 1; i -= 2 { // i is odd
		w, s1 = w.step(steps[weights[i]&63][s1&63])
		w, s0 = w.step(steps[weights[i-1]&63][s0&63])
		w = w.flush(buf)
	}
	w = w.addBits(uint64(s1&(1<<zstdWeightsLog-1)), zstdWeightsLog)
	w = w.addBits(uint64(s0&(1<<zstdWeightsLog-1)), zstdWeightsLog)
	w = w.add(1 | 1<<16) // the end mark
	dst = dst[:at+w.close(buf)]
	if len(dst)-start-1 >= 128 {
		return dst[:start], false
	}
	dst[start] = byte(len(dst) - start - 1)
	return dst, true
}

// zstdCodes sets, for the code lengths lens (count[l] of length l), per
// literal its code in e.huff (the code in the low 16 bits, its length
// above) and its weight in e.weights, and returns the bits the literals
// take. zstd's codes are canonical from the longest: the longest codes come
// first, in literal order, from 0 (RFC 8878 §4.2.1.3). With inOrder the
// builder's keys list the literals present in order, which spares a pass
// over the absent ones.
func (e *Encoder) zstdCodes(lens []uint8, count *[deflate.MaxCodeLen + 2]int32, inOrder bool) (bitsTotal int) {
	tableLog := zstdMaxHuffBits
	for count[tableLog] == 0 {
		tableLog--
	}
	// next[l] is the next code of length l, as a position in a table of
	// 2^tableLog entries, where a code of length l spans 2^(tableLog-l).
	var next [16]uint32
	pos := uint32(0)
	for l := tableLog; l >= 1; l-- {
		next[l] = pos
		pos += uint32(count[l]) << (tableLog - l)
	}
	huff, weights := &e.huff, &e.weights
	clear(weights[:len(lens)-1])
	code := func(s int, l uint8) {
		shift := uint(tableLog-int(l)) & 15
		huff[s&255] = next[l&15]>>shift | uint32(l)<<16
		next[l&15] += 1 << shift
		weights[s&255] = byte(tableLog + 1 - int(l))
		bitsTotal += int(e.freq[s&255]) * int(l)
	}
	if inOrder {
		for _, k := range e.m.HB.Keys {
			s := int(k & deflate.SymMask)
			code(s, lens[s])
		}
	} else {
		for s, l := range lens {
			if l != 0 {
				code(s, l)
			}
		}
	}
	return bitsTotal
}

// appendHuffStream appends lits as one Huffman stream: read backwards by
// the decoder, so written from the last literal to the first, then a 1 bit
// that marks its end (RFC 8878 §4.2.2). Five codes of at most 11 bits fit
// the 64-bit accumulator with the 7 left from the last flush, so it
// flushes whole bytes once per five literals, into room made beforehand.
func (e *Encoder) appendHuffStream(dst []byte, lits []byte) []byte {
	huff := &e.huff
	start := len(dst)
	dst = slices.Grow(dst, len(lits)*zstdMaxHuffBits/8+16)
	buf := dst[start:cap(dst)]
	var w fastBits
	for len(lits) >= 5 {
		l := lits[len(lits)-5:]
		w = w.add(huff[l[4]])
		w = w.add(huff[l[3]])
		w = w.add(huff[l[2]])
		w = w.add(huff[l[1]])
		w = w.add(huff[l[0]])
		w = w.flush(buf)
		lits = lits[:len(lits)-5]
	}
	for i := len(lits) - 1; i >= 0; i-- {
		w = w.add(huff[lits[i]])
	}
	w = w.add(1 | 1<<16) // the end mark
	return dst[:start+w.close(buf)]
}

// fastBits is an LSB-first bit writer for a buffer with room made
// beforehand: flush writes 8 bytes whatever the count and keeps the bits
// past the last whole byte.
type fastBits struct {
	acc uint64
	n   uint
	pos int
}

// add adds the low 16 bits of c, of which there are c>>16 to send.
func (w fastBits) add(c uint32) fastBits {
	w.acc |= uint64(c&0xffff) << (w.n & 63) // w.n < 64: the mask spares the compiler's check
	w.n += uint(c >> 16)
	return w
}

// addBits adds the low n bits of v, which has no bits above them.
func (w fastBits) addBits(v uint64, n uint8) fastBits {
	w.acc |= v << (w.n & 63)
	w.n += uint(n)
	return w
}

// flush writes the whole bytes of the accumulator at w.pos in buf.
func (w fastBits) flush(buf []byte) fastBits {
	binary.LittleEndian.PutUint64(buf[w.pos:w.pos+8:w.pos+8], w.acc)
	w.pos += int(w.n >> 3)
	w.acc >>= w.n & 56
	w.n &= 7
	return w
}

// close flushes the bits left, padded with zeros to a byte, and returns
// the number of bytes written.
func (w fastBits) close(buf []byte) int {
	w = w.flush(buf)
	if w.n > 0 {
		w.pos++
	}
	return w.pos
}

// appendSequences appends the sequences section (RFC 8878 §3.1.1.3.2):
// the number of sequences, the tables' modes and descriptions (see
// appendSequenceTables), and the FSE bit stream.
func (e *Encoder) appendSequences(dst []byte) []byte {
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
	zstdRepeatOffsets(seqs)
	e.codeSequences()
	var built bool
	dst, built = e.appendSequenceTables(dst)
	// A sequence takes at most 18 bits of states and 16+15+17 extra bits
	// (literal runs and distances below 128 KiB, match lengths below 64
	// KiB). With the 7 bits left from the last flush, states and up to 32
	// extra bits fit the 64-bit accumulator; a sequence with more (a run of
	// 64 KiB of literals, say, then a match as far back) flushes between
	// them.
	start := len(dst)
	dst = slices.Grow(dst, len(seqs)*9+16)
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
			if c.bits > 32 {
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
			if c.bits > 32 {
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
// considered: below it a description costs more than it saves.
const zstdMinBuilt = 64

// zstdMinTableGain is the fewest bytes a table built for the body must
// save, description included, for it to replace the predefined one:
// building it and coding with it cost more than a few bytes are worth
// (JSON's match lengths at 4 KB: 4 k instructions, 2 % of the encoder, for
// a table that saved nothing).
const zstdMinTableGain = 4

// zstdStateCost is, per number of states k of 64, what coding a symbol
// with them costs in 1/16 bits: 16·log2(64/k).
var zstdStateCost = func() (c [65]uint32) {
	for k := 1; k <= 64; k++ {
		c[k] = uint32(math.Round(16 * math.Log2(64/float64(k))))
	}
	return c
}()

// appendSequenceTables, given the codes' counts, picks per kind of code
// the predefined table or one built for the body, whichever the estimate
// prices lower with its description, and appends the mode byte and the
// descriptions of the built ones (RFC 8878 §3.1.1.3.2.1). It reports
// whether it built any, when e.tables holds the three tables to code with;
// otherwise they are the predefined ones.
func (e *Encoder) appendSequenceTables(dst []byte) ([]byte, bool) {
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
		// The predefined table's price, its states counted in units of
		// 64 (an offset state of 32 weighs two).
		pre := zstdPredefinedNorm[kind]
		if last >= len(pre) {
			continue // a code the predefined table lacks: none do for these bodies
		}
		unit := 1 << (zstdTableLog - zstdPredefinedLog[kind])
		predefined := uint32(0)
		for s, f := range c[:last+1] {
			predefined += f * zstdStateCost[fseStates(pre[s])*unit]
		}
		norm, ok := zstdNormalize(&e.norm[kind], c[:last+1], len(seqs))
		if !ok {
			continue
		}
		built := uint32(0)
		for s, f := range c[:last+1] {
			if f != 0 {
				built += f * zstdStateCost[norm[s]]
			}
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
	if mode == 0 {
		return dst, false
	}
	dst[modeAt] = mode
	// The kinds left predefined take a copy of that table, so that
	// e.tables holds all three.
	for kind := range 3 {
		if mode>>(6-2*kind)&3 == 0 {
			e.tables[kind] = zstdPredefined[kind]
		}
	}
	return dst, true
}

// zstdNormalize scales the counts c of n symbols to 64 states into norm:
// each present symbol its share rounded down but at least one, the most
// common the rest. It reports false when that leaves the most common
// without a state, or a single symbol has every state.
func zstdNormalize(norm *[64]int16, c []uint32, n int) ([]int16, bool) {
	most, sum := 0, 0
	for s, f := range c {
		k := 0
		if f != 0 {
			if int(f) == n {
				return nil, false
			}
			k = max(int(f)<<zstdTableLog/n, 1)
		}
		norm[s], sum = int16(k), sum+k
		if f > c[most] {
			most = s
		}
	}
	norm[most] += int16(1<<zstdTableLog - sum)
	return norm[:len(c)], norm[most] >= 1
}

// A seqCode is a sequence as the bit stream takes it: its three codes, and
// their extra bits together, literal length's lowest, then match length's,
// then offset's (which the decoder, reading backwards, takes first).
type seqCode struct {
	extra      uint64
	bits       uint8 // the number of extra bits
	ll, of, ml uint8
}

// codeSequences sets e.codes from e.seqs, whose distances are offset
// values, and counts the codes in e.counts when there are enough sequences
// for tables of their own (see appendSequenceTables).
func (e *Encoder) codeSequences() {
	seqs := e.seqs
	codes := slices.Grow(e.codes[:0], len(seqs))[:len(seqs)]
	count := len(seqs) >= zstdMinBuilt
	if count {
		e.counts = [3][64]uint32{}
	}
	for i, s := range seqs {
		llc, mlc, ofc := zstdLitLenCode(s.lits)&63, zstdMatchLenCode(s.length-3)&63, zstdOffsetCode(s.dist)&31
		llBits, mlBits := zstdLitLenBits[llc], zstdMatchLenBits[mlc]
		codes[i] = seqCode{
			extra: uint64(s.lits-zstdLitLenBase[llc]) |
				uint64(s.length-3-zstdMatchLenBase[mlc])<<(llBits&63) |
				uint64(s.dist-1<<ofc)<<((llBits+mlBits)&63),
			bits: llBits + mlBits + ofc,
			ll:   llc, of: ofc, ml: mlc,
		}
		if count {
			e.counts[zstdLitLen][llc]++
			e.counts[zstdOffset][ofc]++
			e.counts[zstdMatchLen][mlc]++
		}
	}
	e.codes = codes
}

// zstdRepeatOffsets replaces each sequence's distance by its offset value
// (RFC 8878 §3.1.1.5): 1-3 for one of the last three offsets, the
// distance plus 3 otherwise, keeping the last offsets as a decoder does.
// With no literals before the match, 1-3 mean the second and third last
// offsets and the last one less one.
func zstdRepeatOffsets(seqs []lzSeq) {
	r0, r1, r2 := uint32(1), uint32(4), uint32(8)
	for i := range seqs {
		s := &seqs[i]
		d := s.dist
		if s.lits > 0 {
			switch d {
			case r0:
				s.dist = 1
			case r1:
				s.dist = 2
				r0, r1 = r1, r0
			case r2:
				s.dist = 3
				r0, r1, r2 = r2, r0, r1
			default:
				s.dist = d + 3
				r0, r1, r2 = d, r0, r1
			}
			continue
		}
		switch d {
		case r1:
			s.dist = 1
			r0, r1 = r1, r0
		case r2:
			s.dist = 2
			r0, r1, r2 = r2, r0, r1
		case r0 - 1:
			s.dist = 3
			r0, r1, r2 = d, r0, r1
		default:
			s.dist = d + 3
			r0, r1, r2 = d, r0, r1
		}
	}
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

// fseEncoder is an FSE coding table (RFC 8878 §4.1) for encoding: the next
// state per position of a symbol's states, and per symbol the terms that
// turn a state into the number of bits to send and the symbol's first
// position.
type fseEncoder struct {
	next [64]uint16    // 1<<log used
	sym  [64]fseSymbol // as many as the distribution has symbols
	log  uint8
}

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
// (48 KiB).
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
// at most 64 symbols and accuracy log at most 6, spreading the symbols over
// the states exactly as a decoder does (RFC 8878 §4.1.1): symbols of
// probability -1 ("less than 1") take one state each from the top, the
// others are spread with a step of 5/8 of the table plus 3. Symbols of
// probability 0 get no state and must not be encoded.
func (t *fseEncoder) build(norm []int16, log uint8) {
	t.log = log
	size := 1 << log
	var symbols [64]uint8
	high := size - 1
	for s, n := range norm {
		if n == -1 {
			symbols[high&63] = uint8(s)
			high--
		}
	}
	step, mask, pos := size>>1+size>>3+3, size-1, 0
	for s, n := range norm {
		for range n { // none for -1
			symbols[pos&63] = uint8(s)
			pos = (pos + step) & mask
			for high < mask && pos > high { // the top states went to -1 symbols
				pos = (pos + step) & mask
			}
		}
	}
	// Each symbol's states, in increasing order, are a run of next,
	// starting at the total count of the symbols before it.
	var first, cursor [64]uint8
	total := 0
	for s, n := range norm {
		first[s&63] = uint8(total)
		total += fseStates(n)
	}
	cursor = first
	for u, s := range symbols[:size] {
		t.next[cursor[s&63]&63] = uint16(size + u)
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
	return uint32(t.next[(int32(v>>n)+sym.deltaState)&63])
}

// encode adds the bits that take the decoder from state to the state
// that codes s, and returns that state (zstd's FSE_encodeSymbol).
func (t *fseEncoder) encode(w fastBits, state uint32, s uint8) (fastBits, uint32) {
	sym := t.sym[s&63]
	n := (state + sym.deltaBits) >> 16 & 31 // at most log; the mask spares the compiler's shift checks
	return w.addBits(uint64(state&(1<<n-1)), uint8(n)), uint32(t.next[(int32(state>>n)+sym.deltaState)&63])
}
