package zstd

import (
	"encoding/binary"
	"slices"

	"github.com/squeezehttp/squeeze/internal/deflate"
)

// appendHuffLiterals appends e.lits as a Huffman-coded literals section,
// every literal at most maxSym, and reports false, having appended
// nothing, when that is not smaller than the raw section. Up to 1023
// literals go in one stream, more in four (RFC 8878 §3.1.1.3.1.6).
func (e *blockCoder) appendHuffLiterals(dst []byte, maxSym int) ([]byte, bool) {
	lits := e.lits
	lens := e.lens[:maxSym+1]
	count, inOrder := e.hb.Lengths(lens, e.freq[:maxSym+1], zstdMaxHuffBits)
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
// absent, the rest spread over weights 1-7), with its description, its
// coding table and its price per weight, made once: the weights' table
// when one built for the body's weights would not be smaller.
var zstdStaticWeights = func() (w struct {
	desc  []byte
	table fseEncoder
	cost  [16]uint32 // per weight, in 1/16 bits (zstdStateCost)
}) {
	norm := []int16{28, 6, 6, 5, 5, 5, 4, 1, -1, -1, -1, -1}
	w.desc = appendNCount(nil, norm, zstdWeightsLog)
	w.table.build(norm, zstdWeightsLog)
	for s, n := range norm {
		w.cost[s] = zstdStateCost[fseStates(n)]
	}
	return w
}()

// zstdWeightsLog is the accuracy log of the weights' static FSE table,
// the most allowed (RFC 8878 §4.2.1.2); zstdBuiltWeightsLog that of a
// table built for a body's weights, the least: the few dozen weights of a
// small body are described in fewer bytes, and coded in about as few bits
// as with 6.
const (
	zstdWeightsLog      = 6
	zstdBuiltWeightsLog = 5
)

// appendFSEWeights appends the weights FSE-compressed (RFC 8878 §4.2.1.2):
// a header byte with the size, the table's distribution, and a bit stream
// of two states taking the weights in turn, and reports false, having
// appended nothing, when that takes 128 bytes or more. The distribution is
// the weights' own where that prices lower, description included, than
// zstdStaticWeights: on a body of 1 KiB the description is a tenth of the
// output, and a distribution of its own saves a quarter of it.
func (e *blockCoder) appendFSEWeights(dst []byte, weights []byte) ([]byte, bool) {
	if len(weights) < 2 {
		return dst, false
	}
	start := len(dst)
	dst = append(dst, 0)
	dst, t := e.appendWeightsTable(dst, weights)

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
	for ; i >= 7; i -= 8 {
		for j := i; j > i-8; j -= 2 {
			w, s1 = t.encode(w, s1, weights[j])
			w, s0 = t.encode(w, s0, weights[j-1])
		}
		w = w.flush(buf)
	}
	for ; i >= 1; i -= 2 { // i is odd
		w, s1 = t.encode(w, s1, weights[i])
		w, s0 = t.encode(w, s0, weights[i-1])
		w = w.flush(buf)
	}
	w = w.addBits(uint64(s1&(1<<t.log-1)), t.log)
	w = w.addBits(uint64(s0&(1<<t.log-1)), t.log)
	w = w.add(1 | 1<<16) // the end mark
	dst = dst[:at+w.close(buf)]
	if len(dst)-start-1 >= 128 {
		return dst[:start], false
	}
	dst[start] = byte(len(dst) - start - 1)
	return dst, true
}

// appendWeightsTable appends the description of the weights' table, one
// built for weights or zstdStaticWeights, whichever prices the weights
// lower with its description, and returns the table.
func (e *blockCoder) appendWeightsTable(dst []byte, weights []byte) ([]byte, *fseEncoder) {
	var count [16]uint32 // weights are at most zstdMaxHuffBits
	for _, w := range weights {
		count[w&15]++
	}
	last := zstdMaxHuffBits
	for count[last] == 0 {
		last--
	}
	norm, ok := zstdNormalize(&e.norm[0], count[:last+1], len(weights), zstdBuiltWeightsLog)
	if !ok {
		return append(dst, zstdStaticWeights.desc...), &zstdStaticWeights.table
	}
	// The prices with the static table, description included, and with
	// the one built; an absent weight has no state and costs nothing.
	const unit = 1 << (zstdWeightsLog - zstdBuiltWeightsLog) // zstdStateCost counts in 64ths
	static, built := uint32(8*16*len(zstdStaticWeights.desc)), uint32(0)
	for s, f := range count[:last+1] {
		static += f * zstdStaticWeights.cost[s&15]
		built += f * zstdStateCost[norm[s]*unit]
	}
	if built+8*16 >= static { // a description takes a byte at least
		return append(dst, zstdStaticWeights.desc...), &zstdStaticWeights.table
	}
	at := len(dst)
	dst = appendNCount(dst, norm, zstdBuiltWeightsLog)
	if built+8*16*uint32(len(dst)-at) < static {
		e.weightsTable.build(norm, zstdBuiltWeightsLog)
		return dst, &e.weightsTable
	}
	dst = dst[:at]
	return append(dst, zstdStaticWeights.desc...), &zstdStaticWeights.table
}

// zstdCodes sets, for the code lengths lens (count[l] of length l), per
// literal its code in e.huff (the code in the low 16 bits, its length
// above) and its weight in e.weights, and returns the bits the literals
// take. zstd's codes are canonical from the longest: the longest codes come
// first, in literal order, from 0 (RFC 8878 §4.2.1.3). With inOrder the
// builder's keys list the literals present in order, which spares a pass
// over the absent ones.
func (e *blockCoder) zstdCodes(lens []uint8, count *[deflate.MaxCodeLen + 2]int32, inOrder bool) (bitsTotal int) {
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
		for _, k := range e.hb.Keys {
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
func (e *blockCoder) appendHuffStream(dst []byte, lits []byte) []byte {
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
