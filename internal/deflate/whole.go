package deflate

// WholeEncoder compresses one body known whole into a complete raw DEFLATE
// stream (RFC 1951) of one final block: dynamic codes built for that body,
// fixed codes or stored, whichever is smallest. It is made for small HTTP
// responses, where a general-purpose encoder spends most of its time on
// per-block work. Matching (Match) stands in for a DEFLATE level: up to 5
// it takes the longer of a few hashed candidates (paired.go), above 5 the
// longest of a few candidates of a chain of 4-byte hashes (chain.go); both
// look ahead for a longer match and extend matches backwards. The tables
// are invalidated between bodies instead of cleared.
//
// A WholeEncoder is not safe for concurrent use; the zero value is ready
// to use.
type WholeEncoder struct {
	// Long holds the position+base of the last 8-byte string per hash,
	// for the finders of long bodies and zstd's; allocated on its first
	// use (LongTable), as the paired and chained finders have no use for
	// it.
	Long  *[1 << longHashBits]int32
	Short [1 << shortHashBits]int32 // the same for 4-byte strings
	// Pairs holds the last two positions+base per 7-byte hash, for the
	// paired finder (paired.go); allocated on its first use, as the zstd
	// and brotli encoders sharing these tables have no use for it.
	Pairs *[1 << pairBits][2]int32
	Base  int32 // positions of the current body are stored as p+base
	Next  int32 // base of the next body
	// Seqs are the body's LZ77 steps, in order: each some literals, then
	// a match, but the last, which may have none (Length 0).
	Seqs  []Seq
	Stats BlockStats
	HB    HuffBuilder
	table *Table
	bw    BitWriter
	// chain links each position of the body to the previous one with the
	// same 4-byte hash (chain.go); the positions before inserted are in.
	chain    []int32
	inserted int
}

const (
	longHashBits  = 15
	shortHashBits = 14
	// windowSize is the farthest a DEFLATE back-reference reaches.
	windowSize = 32768
	// maxStored is the most bytes one stored block holds.
	maxStored = 65535
)

// Append compresses src, matching as level does (1 to 9; see Match), and
// appends the DEFLATE stream to dst. src must be shorter than 1 GiB
// (positions are int32) and must not overlap dst's spare capacity; the
// encoder is tuned for a few KB (beyond that, see the skip stride in
// Match).
func (e *WholeEncoder) Append(dst, src []byte, level int) []byte {
	if len(src) >= BaseLimit {
		panic("deflate: WholeEncoder body of 1 GiB or more")
	}
	e.Reset(len(src))
	e.Match(src, level)
	return e.block(dst, src)
}

// block appends the final block of src, whose sequences and counts are in
// e, to dst.
func (e *WholeEncoder) block(dst, src []byte) []byte {
	dynamic, fixed := e.costs()
	// An upper bound: at most 7 bits of padding per block, and one block
	// counted too many when the length is a multiple of maxStored.
	stored := (len(src)/maxStored+1)*(3+7+32) + 8*len(src)

	e.bw = BitWriter{Buf: dst}
	switch {
	case dynamic <= fixed && dynamic <= stored:
		e.table.writeHeader(&e.bw, true)
		writeSeqs(&e.bw, src, e.Seqs, e.table.lit, e.table.dist, dynamic-3-e.table.bits)
	case fixed <= stored:
		e.bw.blockHeader(true, fixedBlock)
		writeSeqs(&e.bw, src, e.Seqs, fixedCode, fixedDist, fixed-3)
	default:
		for {
			n := min(len(src), maxStored)
			writeStored(&e.bw, n == len(src), src[:n])
			if src = src[n:]; len(src) == 0 {
				break
			}
		}
	}
	e.bw.Align()
	out := e.bw.Buf
	e.bw.Buf = nil // dst belongs to the caller
	return out
}

// costs makes e.table's codes for the body's counts and returns the size
// in bits of its block with them and with the fixed codes.
func (e *WholeEncoder) costs() (dynamic, fixed int) {
	if e.table == nil {
		e.table = NewTable()
	}
	dynamic, fixed = e.table.make(&e.HB, e.Stats.Lit[:], e.Stats.dist[:])
	return 3 + e.table.bits + dynamic + e.Stats.extra, 3 + fixed + e.Stats.extra
}

// Reset prepares e for a body of n bytes: earlier bodies' positions fall
// below the new base, out of reach, so the hash tables need no clearing.
func (e *WholeEncoder) Reset(n int) {
	e.ResetTables(n)
	e.Seqs = e.Seqs[:0]
	e.Stats.reset()
}

// ResetTables is Reset's part for the hash tables, all that zstd.Encoder,
// which keeps no sequences, uses.
func (e *WholeEncoder) ResetTables(n int) {
	if e.Next == 0 || int(e.Next)+n+1 > BaseLimit {
		if e.Long != nil {
			clear(e.Long[:])
		}
		clear(e.Short[:])
		if e.Pairs != nil {
			clear(e.Pairs[:])
		}
		e.Next = 1 // zero entries are out of reach
	}
	e.Base = e.Next
	e.Next += int32(n) + 1
}

// LongTable returns the Long table, allocating it (cleared) on first use.
func (e *WholeEncoder) LongTable() *[1 << longHashBits]int32 {
	if e.Long == nil {
		e.Long = new([1 << longHashBits]int32)
	}
	return e.Long
}

// HashLong and HashShort hash the 8 and the 4 bytes at a position into the
// Long and the Short table.
func HashLong(u uint64) uint32  { return uint32((u * 0xcf1bbcdcb7a56463) >> (64 - longHashBits)) }
func HashShort(u uint32) uint32 { return (u * 2654435761) >> (32 - shortHashBits) }

// PairedMax is the highest level Match matches with the paired finder;
// ChainedLevel is a level it matches with chains (up to ChainMax bytes).
const (
	PairedMax    = 5
	ChainedLevel = PairedMax + 1
)

// Match turns src into sequences and counts their symbols, as level does: up
// to PairedMax with the paired finder (paired.go), above it with chains of
// candidates for bodies of up to ChainMax bytes (chain.go), the sparse way
// above.
func (e *WholeEncoder) Match(src []byte, level int) {
	switch {
	case level <= PairedMax:
		if e.Pairs == nil {
			e.Pairs = new([1 << pairBits][2]int32)
		}
		e.matchPaired(src)
	case len(src) <= ChainMax:
		e.matchChained(src)
	default:
		e.matchAll(src)
	}
}

// matchAll is Match for bodies above ChainMax: both hash tables probed and
// updated at every position visited, three positions of each match
// indexed.
func (e *WholeEncoder) matchAll(src []byte) {
	n, base := len(src), e.Base
	long, short := e.LongTable(), &e.Short
	// The sequences and counts are used through e, not locals: with fewer
	// values live across the probing loop the compiler keeps the loop's
	// state in registers (fewer instructions on small JSON bodies).
	last := n - 8      // the last position with 8 bytes to hash (negative below 8 bytes: no matching)
	p, pending := 0, 0 // src[pending:p] is not yet tokenised
	for p <= last {
		// The loads are in bounds: p <= last, and the tables hold only
		// earlier positions of this body (and, below base, of earlier ones).
		cv := LoadFast64(src, p)
		hl, hs := HashLong(cv), HashShort(uint32(cv))
		cl, cs := int(long[hl]-base), int(short[hs]-base)
		long[hl], short[hs] = int32(p)+base, int32(p)+base
		length, dist := 0, 0
		switch {
		case cl >= 0 && p-cl <= windowSize && LoadFast64(src, cl) == cv:
			length, dist = 8+MatchLenAt(src, cl+8, p+8, min(n, p+maxMatch)), p-cl
		case cs >= 0 && p-cs <= windowSize && LoadFast32(src, cs) == uint32(cv):
			p, length, dist = e.lazy(src, p, 4+MatchLenAt(src, cs+4, p+4, min(n, p+maxMatch)), p-cs)
		default:
			// Skip faster the longer nothing has matched. The stride is not
			// capped (a cap slowed small bodies): after tens of KB without
			// a match it steps over repeats, which bodies of a few KB never
			// reach.
			p += 1 + (p-pending)>>6
			continue
		}
		start, end := e.emit(src, pending, p, length, dist)
		// Index a few positions inside the match: the next match often
		// starts at its end.
		// Written out: a loop over the three costs more than the indexing.
		// The positions are in the match, so not negative.
		if q := start + 1; q <= last {
			v := LoadFast64(src, q)
			long[HashLong(v)], short[HashShort(uint32(v))] = int32(q)+base, int32(q)+base
		}
		if q := end - 2; q <= last {
			v := LoadFast64(src, q)
			long[HashLong(v)], short[HashShort(uint32(v))] = int32(q)+base, int32(q)+base
		}
		if q := end - 1; q <= last {
			v := LoadFast64(src, q)
			long[HashLong(v)], short[HashShort(uint32(v))] = int32(q)+base, int32(q)+base
		}
		p, pending = end, end
	}
	e.tail(src, pending)
}

// lazy lets a 4-byte match of length at p, dist back, give way to a long
// one starting a byte later, found in the 8-byte table (which it updates),
// and returns the match kept.
func (e *WholeEncoder) lazy(src []byte, p, length, dist int) (int, int, int) {
	q := p + 1
	if q > len(src)-8 {
		return p, length, dist
	}
	// The table holds positions up to p, so c < q, and q <= len(src)-8:
	// the loads are in bounds.
	cv := LoadFast64(src, q)
	h := HashLong(cv)
	// lazy runs in matchAll only, which has allocated Long.
	c := int(e.Long[h] - e.Base)
	e.Long[h] = int32(q) + e.Base
	if c >= 0 && q-c <= windowSize && LoadFast64(src, c) == cv {
		if l := 8 + MatchLenAt(src, c+8, q+8, min(len(src), q+maxMatch)); l > length {
			return q, l, q - c
		}
	}
	return p, length, dist
}

// emit extends the match of length at p, dist back, backwards over the
// bytes not yet tokenised (src[pending:p]), appends the sequence of their
// literals and the match, counts them, and returns where the match starts
// and ends.
func (e *WholeEncoder) emit(src []byte, pending, p, length, dist int) (start, end int) {
	for p > pending && p > dist && length < maxMatch && src[p-1] == src[p-1-dist] {
		p, length = p-1, length+1
	}
	countBeforeMatch(&e.Stats.Lit, src, pending, p)
	e.Seqs = append(e.Seqs, Seq{Lits: uint32(p - pending), Length: uint32(length), Dist: uint32(dist)})
	e.Stats.addMatch(length, dist)
	return p, p + length
}

// tail appends the sequence of the literals src[pending:] that no match
// follows, if there are any, and counts them.
func (e *WholeEncoder) tail(src []byte, pending int) {
	if pending < len(src) {
		countLiterals(&e.Stats.Lit, src[pending:])
		e.Seqs = append(e.Seqs, Seq{Lits: uint32(len(src) - pending)})
	}
}

// countLiterals counts each byte of b.
func countLiterals(lits *[numLitLen]uint32, b []byte) {
	for _, c := range b {
		lits[c]++
	}
}

// countBeforeMatch counts each byte of src[from:to], which a match of 3
// bytes or more follows: four at a time, then the last up to three under
// masks, reading into the match's bytes, so that how many are left decides
// no branch (a loop's trip count there was a mispredicted one).
func countBeforeMatch(lits *[numLitLen]uint32, src []byte, from, to int) {
	for ; to-from >= 4; from += 4 {
		b := src[from : from+4]
		lits[b[0]]++
		lits[b[1]]++
		lits[b[2]]++
		lits[b[3]]++
	}
	r := uint32(to - from) // 0 to 3
	b := src[from : from+3]
	lits[b[0]] += (r + 3) >> 2 // 1 when r >= 1
	lits[b[1]] += (r + 2) >> 2 // 1 when r >= 2
	lits[b[2]] += (r + 1) >> 2 // 1 when r == 3
}
