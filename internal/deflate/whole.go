package deflate

import "slices"

// WholeEncoder compresses one body known whole into a complete raw DEFLATE
// stream (RFC 1951) of one final block: dynamic codes built for that body,
// fixed codes or stored, whichever is smallest. It is made for small HTTP
// responses, where a general-purpose encoder spends most of its time on
// per-block work. Matching probes one candidate in each of two hash tables
// (8 and 4 bytes), looks one byte ahead for a longer match, extends matches
// backwards, and indexes only a few positions inside each match; the
// tables are invalidated between bodies instead of cleared.
//
// A WholeEncoder is not safe for concurrent use; the zero value is ready
// to use.
type WholeEncoder struct {
	long   [1 << longHashBits]int32  // position+base of the last 8-byte string per hash
	short  [1 << shortHashBits]int32 // the same for 4-byte strings
	base   int32                     // positions of the current body are stored as p+base
	next   int32                     // base of the next body
	tokens []lzToken
	stats  blockStats
	hb     huffBuilder
	table  *Table
	bw     bitWriter
}

const (
	longHashBits  = 15
	shortHashBits = 14
	// lightMax is the longest body matched the light way (matchLight).
	lightMax = 2 << 10
	// windowSize is the farthest a DEFLATE back-reference reaches.
	windowSize = 32768
	// maxStored is the most bytes one stored block holds.
	maxStored = 65535
)

// Append compresses src and appends the DEFLATE stream to dst. src must be
// shorter than 1 GiB (positions are int32) and must not overlap dst's spare
// capacity; the encoder is tuned for a few KB (beyond that, see the skip
// stride in match).
func (e *WholeEncoder) Append(dst, src []byte) []byte {
	if len(src) >= baseLimit {
		panic("deflate: WholeEncoder body of 1 GiB or more")
	}
	e.reset(len(src))
	e.match(src)
	return e.block(dst, src)
}

// block appends the final block of src, whose tokens and counts are in e,
// to dst.
func (e *WholeEncoder) block(dst, src []byte) []byte {
	if e.table == nil {
		e.table = NewTable()
	}
	e.table.make(&e.hb, e.stats.lit[:], e.stats.dist[:])
	dynamic, fixed := e.costs()
	// An upper bound: at most 7 bits of padding per block, and one block
	// counted too many when the length is a multiple of maxStored.
	stored := (len(src)/maxStored+1)*(3+7+32) + 8*len(src)

	e.bw = bitWriter{buf: dst}
	switch {
	case dynamic <= fixed && dynamic <= stored:
		e.table.writeDynamic(&e.bw, true, e.tokens)
	case fixed <= stored:
		writeFixed(&e.bw, true, e.tokens)
	default:
		for {
			n := min(len(src), maxStored)
			writeStored(&e.bw, n == len(src), src[:n])
			if src = src[n:]; len(src) == 0 {
				break
			}
		}
	}
	e.bw.align()
	out := e.bw.buf
	e.bw.buf = nil // dst belongs to the caller
	return out
}

// costs returns the size in bits of the body's block with e.table's codes
// (built for these counts, so they code every symbol) and with the fixed
// codes, in one pass over the counts.
func (e *WholeEncoder) costs() (dynamic, fixed int) {
	s := &e.stats
	lit, dist := e.table.lit.len[:numLitLen], e.table.dist.len[:numDist]
	fixedLit, fixedDistLen := fixedCode.len[:numLitLen], fixedDist.len[:numDist]
	for i, f := range s.lit {
		if f != 0 {
			dynamic += int(f) * int(lit[i])
			fixed += int(f) * int(fixedLit[i])
		}
	}
	for i, f := range s.dist {
		if f != 0 {
			dynamic += int(f) * int(dist[i])
			fixed += int(f) * int(fixedDistLen[i])
		}
	}
	return 3 + e.table.bits + dynamic + s.extra, 3 + fixed + s.extra
}

// reset prepares e for a body of n bytes: earlier bodies' positions fall
// below the new base, out of reach, so the hash tables need no clearing.
func (e *WholeEncoder) reset(n int) {
	e.resetTables(n)
	e.tokens = e.tokens[:0]
	e.stats.reset()
}

// resetTables is reset's part for the hash tables, all that ZstdEncoder,
// which keeps no tokens, uses.
func (e *WholeEncoder) resetTables(n int) {
	if e.next == 0 || int(e.next)+n+1 > baseLimit {
		clear(e.long[:])
		clear(e.short[:])
		e.next = 1 // zero entries are out of reach
	}
	e.base = e.next
	e.next += int32(n) + 1
}

func hashLong(u uint64) uint32  { return uint32((u * 0xcf1bbcdcb7a56463) >> (64 - longHashBits)) }
func hashShort(u uint32) uint32 { return (u * 2654435761) >> (32 - shortHashBits) }

// matchLight does not check distances against the window: this fails to
// compile if its bodies could reach past it.
var _ = [windowSize - lightMax]struct{}{}

// match turns src into tokens and counts their symbols, the light way for
// bodies of up to lightMax bytes.
func (e *WholeEncoder) match(src []byte) {
	if len(src) <= lightMax {
		e.matchLight(src)
	} else {
		e.matchAll(src)
	}
}

// matchAll is match for bodies above lightMax: both hash tables probed and
// updated at every position visited, three positions of each match
// indexed.
func (e *WholeEncoder) matchAll(src []byte) {
	n, base := len(src), e.base
	long, short := &e.long, &e.short
	// The tokens and counts are used through e, not locals: with fewer
	// values live across the probing loop the compiler keeps the loop's
	// state in registers (5 % fewer instructions for 1-4 KB of JSON).
	last := n - 8      // the last position with 8 bytes to hash (negative below 8 bytes: no matching)
	p, pending := 0, 0 // src[pending:p] is not yet tokenised
	for p <= last {
		// The loads are in bounds: p <= last, and the tables hold only
		// earlier positions of this body (and, below base, of earlier ones).
		cv := loadFast64(src, p)
		hl, hs := hashLong(cv), hashShort(uint32(cv))
		cl, cs := int(long[hl]-base), int(short[hs]-base)
		long[hl], short[hs] = int32(p)+base, int32(p)+base
		length, dist := 0, 0
		switch {
		case cl >= 0 && p-cl <= windowSize && loadFast64(src, cl) == cv:
			length, dist = 8+matchLenAt(src, cl+8, p+8, min(n, p+maxMatch)), p-cl
		case cs >= 0 && p-cs <= windowSize && loadFast32(src, cs) == uint32(cv):
			p, length, dist = e.lazy(src, p, 4+matchLenAt(src, cs+4, p+4, min(n, p+maxMatch)), p-cs)
		default:
			// Skip faster the longer nothing has matched. The stride is not
			// capped (a cap cost 1-2 % at 1-4 KB): after tens of KB without
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
			v := loadFast64(src, q)
			long[hashLong(v)], short[hashShort(uint32(v))] = int32(q)+base, int32(q)+base
		}
		if q := end - 2; q <= last {
			v := loadFast64(src, q)
			long[hashLong(v)], short[hashShort(uint32(v))] = int32(q)+base, int32(q)+base
		}
		if q := end - 1; q <= last {
			v := loadFast64(src, q)
			long[hashLong(v)], short[hashShort(uint32(v))] = int32(q)+base, int32(q)+base
		}
		p, pending = end, end
	}
	e.tokens = appendLiterals(e.tokens, &e.stats.lit, src[pending:])
}

// matchLight is matchAll made cheaper in two ways that cost bodies of up
// to lightMax bytes almost nothing: the 8-byte table is probed and updated
// only where the 4-byte one found a match, and only a match's last
// position is indexed. On the corpus's 1 KiB cuts its output is within
// 2 % of matchAll's (TestWholeEncoderLightMatching); at 4 KB the sparser
// 8-byte table would cost more, hence lightMax. It skips through literals as
// matchAll does.
func (e *WholeEncoder) matchLight(src []byte) {
	n, base := len(src), e.base
	long, short := &e.long, &e.short
	last := n - 8
	p, pending := 0, 0
	// Bodies this short lie within the window (see the assertion above
	// match): a candidate needs only to be of this body, at or above base.
	for p <= last {
		// Both loads are in bounds, as in ZstdEncoder.match: p <= last, and
		// a candidate of this body is an earlier position.
		cv := loadFast64(src, p)
		hs := hashShort(uint32(cv))
		c := short[hs]
		short[hs] = int32(p) + base
		if c < base || loadFast32(src, int(c-base)) != uint32(cv) {
			p += 1 + (p-pending)>>6
			continue
		}
		cs := int(c - base)
		hl := hashLong(cv)
		cl := int(long[hl] - base)
		long[hl] = int32(p) + base
		var length, dist int
		if cl >= 0 && loadFast64(src, cl) == cv {
			length, dist = 8+matchLenAt(src, cl+8, p+8, min(n, p+maxMatch)), p-cl
		} else {
			p, length, dist = e.lazy(src, p, 4+matchLenAt(src, cs+4, p+4, min(n, p+maxMatch)), p-cs)
		}
		_, end := e.emit(src, pending, p, length, dist)
		if q := end - 1; q <= last {
			v := loadFast64(src, q)
			long[hashLong(v)], short[hashShort(uint32(v))] = int32(q)+base, int32(q)+base
		}
		p, pending = end, end
	}
	e.tokens = appendLiterals(e.tokens, &e.stats.lit, src[pending:])
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
	cv := loadFast64(src, q)
	h := hashLong(cv)
	c := int(e.long[h] - e.base)
	e.long[h] = int32(q) + e.base
	if c >= 0 && q-c <= windowSize && loadFast64(src, c) == cv {
		if l := 8 + matchLenAt(src, c+8, q+8, min(len(src), q+maxMatch)); l > length {
			return q, l, q - c
		}
	}
	return p, length, dist
}

// emit extends the match of length at p, dist back, backwards over the
// bytes not yet tokenised (src[pending:p]), appends their literals and
// the match to the tokens, counts them, and returns where the match
// starts and ends.
func (e *WholeEncoder) emit(src []byte, pending, p, length, dist int) (start, end int) {
	for p > pending && p > dist && length < maxMatch && src[p-1] == src[p-1-dist] {
		p, length = p-1, length+1
	}
	t := match(length, dist)
	e.tokens = append(appendLiterals(e.tokens, &e.stats.lit, src[pending:p]), t)
	e.stats.add(t)
	return p, p + length
}

// appendLiterals appends a literal token for each byte of b and counts it.
func appendLiterals(tokens []lzToken, lits *[numLitLen]uint32, b []byte) []lzToken {
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
