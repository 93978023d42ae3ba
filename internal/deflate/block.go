package deflate

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// An LZToken is one LZ77 step: a literal byte (below 1<<31) or a match,
// 1<<31 | (length-3)<<16 | (distance-1).
type LZToken uint32

const MatchFlag = 1 << 31

func literal(b byte) LZToken { return LZToken(b) }

func match(length, dist int) LZToken {
	return MatchFlag | LZToken(length-3)<<16 | LZToken(dist-1)
}

// Length and distance symbol tables (RFC 1951 §3.2.5), built once.
var (
	lenCodeSym [256]uint16 // length-3 → literal/length symbol
	// The arrays indexed by symbol have 32 entries, 29 or 30 of them
	// used, so that an index masked to 5 bits needs no bounds check.
	lenCodeBase   [32]uint16 // symbol-257 → base length-3
	lenCodeExtra  = [32]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distCodeSym   [512]uint8 // see distCode
	distCodeBase  [32]uint32
	distCodeExtra = [32]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	fixedCode     HuffCode // RFC 1951 §3.2.6
	fixedDist     HuffCode
)

func init() {
	l := 0
	for s := range numLitLen - 257 {
		lenCodeBase[s] = uint16(l)
		for range 1 << lenCodeExtra[s] {
			if l < 256 {
				lenCodeSym[l] = uint16(257 + s)
			}
			l++
		}
	}
	lenCodeBase[28], lenCodeSym[255] = 255, 285 // length 258 has its own symbol
	d := uint32(0)
	for s := range numDist {
		distCodeBase[s] = d
		for range 1 << distCodeExtra[s] {
			if d < 256 {
				distCodeSym[d] = uint8(s)
			} else if d>>7 < 256 {
				distCodeSym[256+d>>7] = uint8(s)
			}
			d++
		}
	}
	fixedCode, fixedDist = NewHuffCode(288), NewHuffCode(32)
	for s := range fixedCode.Len {
		switch {
		case s < 144, s >= 280:
			fixedCode.Len[s] = 8
		case s < 256:
			fixedCode.Len[s] = 9
		default:
			fixedCode.Len[s] = 7
		}
	}
	for s := range fixedDist.Len {
		fixedDist.Len[s] = 5
	}
	fixedCode.assign(MaxCodeLen)
	fixedDist.assign(MaxCodeLen)
}

// distCode returns the distance symbol of dist-1 (zlib's d_code).
// The index is chosen without a branch, by a mask: a block's distances
// mix near and far, and a branch on them mispredicted.
func distCode(d uint32) uint8 {
	far := uint32(int32(255-d) >> 31) // all ones when d >= 256 (d < 32768)
	return distCodeSym[(d^(d^(256+d>>7))&far)&511]
}

// BlockStats counts the symbols of one block.
type BlockStats struct {
	Lit   [numLitLen]uint32
	dist  [numDist]uint32
	extra int // extra bits of lengths and distances, the same under any code
}

func (s *BlockStats) reset() {
	clear(s.Lit[:])
	clear(s.dist[:])
	s.extra = 0
	s.Lit[endOfBlock] = 1
}

func (s *BlockStats) add(t LZToken) {
	if t&MatchFlag == 0 {
		s.Lit[t]++
		return
	}
	s.addMatch(int(t>>16&0xff)+3, int(t&0xffff)+1)
}

// addMatch counts a match of length bytes from dist back.
func (s *BlockStats) addMatch(length, dist int) {
	ls := lenCodeSym[uint8(length-3)]
	dc := distCode(uint32(dist - 1))
	s.Lit[ls]++
	s.dist[dc]++
	s.extra += int(lenCodeExtra[ls-257]) + int(distCodeExtra[dc])
}

// entropy is a lower bound, in bits, on what the block's symbols cost
// under any prefix code: Σ f·log2(N/f) per alphabet.
func (s *BlockStats) entropy() float64 {
	return alphabetEntropy(s.Lit[:]) + alphabetEntropy(s.dist[:])
}

func alphabetEntropy(freq []uint32) float64 {
	total, sum := 0.0, 0.0
	for _, f := range freq {
		if f > 0 {
			ff := float64(f)
			total += ff
			sum += ff * math.Log2(ff)
		}
	}
	if total == 0 {
		return 0
	}
	return total*math.Log2(total) - sum
}

// Table is a dynamic block's codes and the header that describes
// them (RFC 1951 §3.2.7), kept so that later blocks with similar statistics
// can send the same header instead of building new codes.
type Table struct {
	lit, dist HuffCode
	codeLen   HuffCode
	header    []uint32 // the header's bits, LSB-first, 32 to a word
	bits      int      // header size in bits
	// seen is the decayed sum of the statistics of the blocks the codes
	// were built at: codes built from it also cover symbols that recent
	// blocks used and this one did not, so the next block can reuse them.
	seen BlockStats
	// excess is how far above the entropy bound the codes coded the block
	// they were built for (body bits / bound): the most reuse can hope for.
	excess float64
}

// NewTable returns a Table without codes, for one connection's Encoder.
func NewTable() *Table {
	return &Table{lit: NewHuffCode(numLitLen), dist: NewHuffCode(numDist), codeLen: NewHuffCode(numCodeLen)}
}

// build makes t codes for s and the blocks before it, and encodes its
// header.
func (t *Table) build(b *HuffBuilder, s *BlockStats) {
	decay(t.seen.Lit[:], s.Lit[:])
	decay(t.seen.dist[:], s.dist[:])
	t.make(b, t.seen.Lit[:], t.seen.dist[:])
	if bound := s.entropy(); bound > 0 {
		t.excess = float64(t.lit.Cost(s.Lit[:])+t.dist.Cost(s.dist[:])) / bound
	}
}

// make gives t optimal length-limited codes for the symbol counts lit and
// dist and encodes the dynamic block header that describes them
// (RFC 1951 §3.2.7). It returns the bits the counted symbols take with
// these codes and with the fixed ones (RFC 1951 §3.2.6), extra bits and
// headers aside.
func (t *Table) make(b *HuffBuilder, lit, dist []uint32) (dynamic, fixed int) {
	dynamic = b.Build(t.lit, lit, MaxCodeLen)
	fixed = b.KeysCost(fixedCode.Len)
	dynamic += b.Build(t.dist, dist, MaxCodeLen)
	fixed += b.KeysCost(fixedDist.Len)
	nlit, ndist := numLitLen, numDist
	for nlit > 257 && t.lit.Len[nlit-1] == 0 {
		nlit--
	}
	for ndist > 1 && t.dist.Len[ndist-1] == 0 {
		ndist--
	}
	// Run-length encode the code lengths of both alphabets as one
	// sequence (RFC 1951 §3.2.7: codes 16, 17, 18), each run a code-length
	// symbol and its extra bits' value, sym | extra<<8. The arrays are
	// larger than needed and indexed masked, so that the compiler checks no
	// bounds in the loop, and the lengths end with a sentinel no length
	// equals, so that scanning a run, eight lengths at a time, checks no
	// end.
	var lens [512 + 8]uint8
	nseq := copy(lens[:], t.lit.Len[:nlit])
	nseq += copy(lens[nseq:], t.dist.Len[:ndist])
	lens[nseq] = 0xff
	var clFreq [32]uint32
	var runs [512]uint16
	nr := 0
	for i := 0; i < nseq; {
		// The run ends at the first of the next eight lengths that
		// differs from l: the lowest non-zero byte of their difference.
		l, n := lens[i], 1
		ll := uint64(l) * 0x0101010101010101
		for {
			if x := binary.LittleEndian.Uint64(lens[(i+n)&511:]) ^ ll; x != 0 {
				n += bits.TrailingZeros64(x) >> 3
				break
			}
			n += 8
		}
		i += n
		if l == 0 {
			for ; n >= 11; nr++ {
				k := min(n, 138)
				runs[nr&511], n = 18|uint16(k-11)<<8, n-k
				clFreq[18]++
			}
			if n >= 3 {
				runs[nr&511], n = 17|uint16(n-3)<<8, 0
				clFreq[17]++
				nr++
			}
		} else if n >= 4 {
			// Send the length once, then repeat it 3 to 6 times.
			runs[nr&511], n = uint16(l), n-1
			clFreq[l&31]++
			nr++
			for ; n >= 3; nr++ {
				k := min(n, 6)
				runs[nr&511], n = 16|uint16(k-3)<<8, n-k
				clFreq[16]++
			}
		}
		for ; n > 0; n-- {
			runs[nr&511] = uint16(l)
			clFreq[l&31]++
			nr++
		}
	}
	cl := t.codeLen
	b.Build(cl, clFreq[:numCodeLen], 7)
	nclen := numCodeLen
	for nclen > 4 && cl.Len[codeLenOrder[nclen-1]] == 0 {
		nclen--
	}
	// The header's bits, packed as they go out: a run's code and extra bits
	// (at most 7 + 7) together.
	h := HeaderBits{Words: t.header[:0]}
	h.Put(uint32(nlit-257)|uint32(ndist-1)<<5|uint32(nclen-4)<<10, 14)
	for _, s := range codeLenOrder[:nclen] {
		h.Put(uint32(cl.Len[s]), 3)
	}
	// Each code-length symbol's code, its length, and n, the bits it
	// takes with its extra bits.
	type clPiece struct {
		code   uint32
		len, n uint8
	}
	var pieces [32]clPiece
	for s := range numCodeLen {
		pieces[s] = clPiece{uint32(cl.Bits[s]), cl.Len[s], cl.Len[s]}
	}
	pieces[16].n += 2
	pieces[17].n += 3
	pieces[18].n += 7
	for _, r := range runs[:nr] {
		p := pieces[r&31]
		// The mask (a length is at most 7) spares a check for shifts of 32
		// or more.
		h.Put(p.code|uint32(r>>8)<<(p.len&31), p.n)
	}
	t.header, t.bits = h.End()
	return dynamic, fixed
}

// HeaderBits packs a dynamic header's bits into 32-bit words.
type HeaderBits struct {
	Words []uint32
	acc   uint64
	n     uint
	total int
}

// Put adds the low n bits of v, at most 32.
func (h *HeaderBits) Put(v uint32, n uint8) {
	h.acc |= uint64(v) << (h.n & 63)
	h.n += uint(n)
	h.total += int(n)
	if h.n >= 32 {
		h.Words = append(h.Words, uint32(h.acc))
		h.acc >>= 32
		h.n -= 32
	}
}

// End returns the words, the last one partial, and the count of bits.
func (h *HeaderBits) End() ([]uint32, int) {
	if h.n > 0 {
		h.Words = append(h.Words, uint32(h.acc))
	}
	return h.Words, h.total
}

// decay halves the weight of what was seen and adds freq, keeping every
// symbol ever seen at 1 or more so that the codes keep a (long) code for it.
func decay(seen, freq []uint32) {
	for i, f := range freq {
		if w := seen[i]; w > 0 || f > 0 {
			seen[i] = max(w/2+f, 1)
		}
	}
}

// Block types (RFC 1951 §3.2.3), the two bits after BFINAL.
const (
	storedBlock  = 0
	fixedBlock   = 1
	dynamicBlock = 2
)

// blockHeader writes a block's BFINAL bit and type.
func (w *BitWriter) blockHeader(final bool, btype uint32) {
	v := btype << 1
	if final {
		v |= 1
	}
	w.WriteBits(v, 3)
}

// writeDynamic writes tokens as a dynamic block with t's codes and header.
func (t *Table) writeDynamic(w *BitWriter, final bool, tokens []LZToken) {
	t.writeHeader(w, final)
	writeTokens(w, tokens, t.lit, t.dist)
}

// writeHeader writes the header of a dynamic block with t's codes.
func (t *Table) writeHeader(w *BitWriter, final bool) {
	w.blockHeader(final, dynamicBlock)
	for i, v := range t.header {
		w.WriteBits(v, uint8(min(32, t.bits-32*i)))
	}
}

// writeFixed writes tokens as a block with the fixed codes (RFC 1951 §3.2.6).
func writeFixed(w *BitWriter, final bool, tokens []LZToken) {
	w.blockHeader(final, fixedBlock)
	writeTokens(w, tokens, fixedCode, fixedDist)
}

// writeStored writes b, at most 65535 bytes, as a stored block.
func writeStored(w *BitWriter, final bool, b []byte) {
	w.blockHeader(final, storedBlock)
	w.Align()
	n := uint16(len(b))
	w.Buf = append(w.Buf, byte(n), byte(n>>8), byte(^n), byte(^n>>8))
	w.Buf = append(w.Buf, b...)
}

// writeTokens writes tokens, then the end-of-block code, with the given codes.
// It keeps the bit buffer in locals and writes it out 32 bits at a time: a
// literal adds at most 15 bits, each half of a match (length code and extra
// bits, distance code and extra bits) at most 28, so 64 bits never overflow.
func writeTokens(w *BitWriter, tokens []LZToken, lit, dist HuffCode) {
	acc, n, buf := w.Bits, w.N, w.Buf
	// Literal codes resliced to 256 and indexed by a byte, and shifts
	// masked to 63, so that the compiler checks neither.
	litBits, litLen := lit.Bits[:256], lit.Len[:256]
	for _, t := range tokens {
		if t&MatchFlag == 0 {
			acc |= uint64(litBits[uint8(t)]) << (n & 63)
			n += uint(litLen[uint8(t)])
		} else {
			l := uint32(t >> 16 & 0xff)
			ls := lenCodeSym[l]
			acc |= uint64(lit.Bits[ls]) << (n & 63)
			n += uint(lit.Len[ls])
			acc |= uint64(l-uint32(lenCodeBase[ls-257])) << (n & 63)
			n += uint(lenCodeExtra[ls-257])
			if n >= 32 {
				buf = binary.LittleEndian.AppendUint32(buf, uint32(acc))
				acc, n = acc>>32, n-32
			}
			d := uint32(t & 0xffff)
			dc := distCode(d)
			acc |= uint64(dist.Bits[dc]) << (n & 63)
			n += uint(dist.Len[dc])
			acc |= uint64(d-distCodeBase[dc]) << (n & 63)
			n += uint(distCodeExtra[dc])
		}
		if n >= 32 {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(acc))
			acc, n = acc>>32, n-32
		}
	}
	w.Bits, w.N, w.Buf = acc, n, buf
	w.WriteBits(uint32(lit.Bits[endOfBlock]), lit.Len[endOfBlock])
}
