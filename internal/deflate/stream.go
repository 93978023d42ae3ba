package deflate

import (
	"encoding/binary"
	"io"
	"math"
	"math/bits"
	"slices"
)

// Encoder is a streaming DEFLATE compressor (RFC 1951) for a sequence of
// flushed messages, wsdeflate's level 1. It exists for what a
// general-purpose encoder cannot do per message: klauspost's builds new
// Huffman codes for every flushed block, a large part of the cost of a
// short message. Consecutive messages of one connection have similar statistics,
// so Encoder sends the codes of an earlier block again
// (still an ordinary dynamic block: the peer's inflater needs nothing
// special) as long as they cost no more than 3% (reuseSlack) above what new
// codes could reach, and fixed codes or a stored block when those are smaller.
//
// Matching is greedy over a 4-byte hash, like klauspost's level 1; no
// back-reference reaches further than maxDist (RFC 7692 §7.1.2.1).
type Encoder struct {
	maxDist int
	buf     []byte // history (up to maxDist bytes), then pending input
	done    int    // buf[:done] is compressed
	base    int    // absolute position of buf[0] in the hash table
	head    [1 << hashBits]int32
	tokens  []LZToken
	stats   BlockStats
	table   *Table // the connection's codes, reused across blocks
	hb      HuffBuilder
	bw      BitWriter
	dst     io.Writer
	err     error
}

const (
	hashBits  = 14
	blockSize = 16 << 10 // input bytes per block
	maxMatch  = 258
	// reuseSlack is how much more a block may cost with the connection's
	// previous codes than new codes would, judged from the entropy bound and
	// how far above it those codes came on their own block, before new ones
	// are built.
	reuseSlack = 1.03
	// BaseLimit is where the hash table's positions are rebased.
	BaseLimit = 1 << 30
)

// NewEncoder returns an Encoder whose back-references reach at most maxDist
// bytes (at most 32768).
func NewEncoder(maxDist int) *Encoder {
	return &Encoder{
		maxDist: maxDist,
		buf:     make([]byte, 0, maxDist+4*blockSize),
		base:    maxDist + 1, // zero entries are out of reach
		tokens:  make([]LZToken, 0, blockSize),
	}
}

// ResetDict starts a new stream to dst whose history is dict, without codes
// to reuse until UseTable gives some; it invalidates
// the hash table by moving every position out of reach instead of clearing
// it.
func (e *Encoder) ResetDict(dst io.Writer, dict []byte) {
	e.dst, e.err = dst, nil
	e.base += len(e.buf) + e.maxDist + 1
	if e.base > BaseLimit {
		clear(e.head[:])
		e.base = e.maxDist + 1
	}
	e.bw = BitWriter{Buf: e.bw.Buf[:0]}
	e.table = nil
	if len(dict) > e.maxDist {
		dict = dict[len(dict)-e.maxDist:]
	}
	e.buf = append(e.buf[:0], dict...)
	for p := 0; p+4 <= len(e.buf); p++ {
		e.head[hash4(e.buf, p)] = int32(p + e.base)
	}
	e.done = len(e.buf)
}

// UseTable makes the encoder code blocks with, and update, t: the codes of
// the connection it now works for.
func (e *Encoder) UseTable(t *Table) { e.table = t }

// Write compresses p, writing out whole blocks as they fill.
func (e *Encoder) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && e.err == nil {
		if len(e.buf)+blockSize > cap(e.buf) {
			e.slide()
		}
		k := min(len(p), blockSize-(len(e.buf)-e.done))
		e.buf = append(e.buf, p[:k]...)
		p = p[k:]
		if len(e.buf)-e.done == blockSize {
			e.block(false)
		}
	}
	if e.err != nil {
		return 0, e.err
	}
	return n, nil
}

// Flush compresses what is pending and ends with an empty stored block, so
// the output ends on a byte boundary with 00 00 ff ff (RFC 7692 §7.2.1).
func (e *Encoder) Flush() error {
	if len(e.buf) > e.done {
		e.block(false)
	}
	writeStored(&e.bw, false, nil) // 00 00 ff ff
	e.emit()
	return e.err
}

// Close compresses what is pending into the stream's final block (BFINAL,
// RFC 1951 §3.2.3), an empty one with fixed codes when nothing is, and pads
// the output to a byte boundary: the stream is complete.
func (e *Encoder) Close() error {
	if len(e.buf) > e.done {
		e.block(true)
	} else {
		writeFixed(&e.bw, true, nil)
	}
	e.bw.Align()
	e.emit()
	return e.err
}

// History returns the input compressed so far that a back-reference may
// still reach, up to n bytes, the most recent last: what a later
// ResetDict needs to continue the stream. It is valid until the next
// Write.
func (e *Encoder) History(n int) []byte {
	h := e.buf[:e.done]
	return h[len(h)-min(len(h), n, e.maxDist):]
}

// slide keeps only the last maxDist bytes of history at the front of buf.
func (e *Encoder) slide() {
	keep := min(e.done, e.maxDist)
	drop := e.done - keep
	e.buf = e.buf[:copy(e.buf, e.buf[drop:])]
	e.done -= drop
	e.base += drop
}

func (e *Encoder) emit() {
	if e.err == nil && len(e.bw.Buf) > 0 && e.dst != nil {
		_, e.err = e.dst.Write(e.bw.Buf)
	}
	e.bw.Buf = e.bw.Buf[:0]
}

// block compresses buf[done:] into one DEFLATE block, the stream's last
// when final.
func (e *Encoder) block(final bool) {
	raw := e.buf[e.done:]
	e.tokens = e.tokens[:0]
	e.stats.reset()
	e.match()
	e.done = len(e.buf)
	if e.table == nil {
		e.table = NewTable()
	}

	fixed := e.cost(fixedCode, fixedDist, 0)
	stored := 3 + 7 + 32 + 8*len(raw)
	entropy := e.stats.entropy()
	dynamic := math.MaxInt
	if e.table.bits > 0 {
		// Reuse the connection's codes while the block costs with them (their
		// header included) at most reuseSlack more than new codes would: a
		// new header costs about what theirs did, a new body about as far
		// above the entropy bound as theirs came on their own block.
		c := e.cost(e.table.lit, e.table.dist, e.table.bits)
		fresh := float64(3+e.table.bits+e.stats.extra) + e.table.excess*entropy
		if c < math.MaxInt && float64(c) <= reuseSlack*fresh {
			dynamic = c
		}
	}
	if dynamic == math.MaxInt {
		// Build new codes only if they could beat fixed codes or storing.
		header := e.table.bits
		if header == 0 {
			header = typicalHeaderBits
		}
		if 3+header+int(entropy)+e.stats.extra < min(fixed, stored) {
			e.table.build(&e.hb, &e.stats)
			dynamic = e.cost(e.table.lit, e.table.dist, e.table.bits)
		}
	}
	switch {
	case dynamic <= fixed && dynamic <= stored:
		e.table.writeDynamic(&e.bw, final, e.tokens)
	case fixed <= stored:
		writeFixed(&e.bw, final, e.tokens)
	default:
		writeStored(&e.bw, final, raw)
	}
	e.emit()
}

// typicalHeaderBits is a dynamic header's size for JSON-like text, used to
// estimate a first block's cost before any codes exist.
const typicalHeaderBits = 480

// cost is the size in bits of the block under codes lit and dist with a
// header of HeaderBits, or math.MaxInt if they cannot code it.
func (e *Encoder) cost(lit, dist HuffCode, headerBits int) int {
	l := lit.Cost(e.stats.Lit[:])
	d := dist.Cost(e.stats.dist[:])
	if l == math.MaxInt || d == math.MaxInt {
		return math.MaxInt
	}
	return 3 + headerBits + l + d + e.stats.extra
}

// match turns buf[done:] into tokens: greedy, one hash-table probe per
// position, skipping faster through data that does not match.
func (e *Encoder) match() {
	src := e.buf
	end := len(src)
	p, lit := e.done, e.done
	for p+4 <= end {
		h := hash4(src, p)
		cand := int(e.head[h]) - e.base
		e.head[h] = int32(p + e.base)
		if cand < 0 || p-cand > e.maxDist || load32(src, cand) != load32(src, p) {
			p += 1 + (p-lit)>>5
			continue
		}
		l := 4 + MatchLen(src[cand+4:], src[p+4:min(end, p+maxMatch)])
		e.literals(src[lit:p])
		t := match(l, p-cand)
		e.tokens = append(e.tokens, t)
		e.stats.add(t)
		p += l
		lit = p
		// Index the match's last positions: the next match often starts there.
		for q := p - 2; q < p && q+4 <= end; q++ {
			e.head[hash4(src, q)] = int32(q + e.base)
		}
	}
	e.literals(src[lit:end])
}

func (e *Encoder) literals(b []byte) {
	e.tokens = appendLiterals(e.tokens, &e.stats.Lit, b)
}

// appendLiterals appends a literal token for each byte of b and counts it.
func appendLiterals(tokens []LZToken, lits *[numLitLen]uint32, b []byte) []LZToken {
	k := len(tokens)
	tokens = slices.Grow(tokens, len(b))[:k+len(b)]
	t := tokens[k:]
	t = t[:len(b)] // the same length as b, so the loop needs no bounds check
	for i, c := range b {
		lits[c]++
		t[i] = literal(c)
	}
	return tokens
}

func load32(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[i : i+4 : i+4]) }

func hash4(b []byte, i int) uint32 {
	return (load32(b, i) * 2654435761) >> (32 - hashBits)
}

// MatchLen returns how many leading bytes of b equal those of a
// (len(a) ≥ len(b)).
func MatchLen(a, b []byte) int {
	n := 0
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(a) ^ binary.LittleEndian.Uint64(b)
		if x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		a, b, n = a[8:], b[8:], n+8
	}
	for i := range b {
		if a[i] != b[i] {
			return n + i
		}
	}
	return n + len(b)
}

// MatchLenAt returns how many bytes from src[j:end] equal those from
// src[i:], for i < j <= end <= len(src): MatchLen for a match finder's own
// body, whose indexes keep every 8-byte load in bounds, so it uses the
// unchecked ones (see LoadFast64).
func MatchLenAt(src []byte, i, j, end int) int {
	n := 0
	for j+n+8 <= end {
		if x := LoadFast64(src, i+n) ^ LoadFast64(src, j+n); x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		n += 8
	}
	for j+n < end && src[i+n] == src[j+n] {
		n++
	}
	return n
}
