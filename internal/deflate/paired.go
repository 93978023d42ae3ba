package deflate

// The paired match finder, Match's at levels up to 5: each position visited
// is looked up in two tables, a 7-byte hash keeping the last two positions
// with that hash (Pairs) and a 4-byte hash keeping the last one (Short).
// The longer of the two 7-byte candidates is taken; a 4-byte candidate only
// when neither matched, and then only if the next position has no longer
// 7-byte one. A short match may give way to one starting two bytes later
// that ends further, found by the 7-byte hash of where it ends. Inside a
// match its first positions, every fourth one after them and the one
// before its end are indexed (indexPaired).
//
// It visits fewer positions and candidates than the chained finder
// (chain.go), the levels above 5's, and finds about what klauspost's
// level 5 finds: encoding's TestOwnEncoderRule holds it to that level's
// bytes where it serves.

// pairBits is the size of the Pairs table: 2^15 entries of two positions
// (256 KiB), so that a body of a few KB leaves it sparse and few
// candidates are another string's with the same hash, each a test that
// fails.
const pairBits = 15

// hashPair hashes the 7 low bytes of u into the Pairs table.
func hashPair(u uint64) uint32 { return uint32(((u << 8) * 0xcf1bbcdcb7a56463) >> (64 - pairBits)) }

// pairLong is a match of at most this length that may give way to one
// starting two bytes later.
const pairLong = 30

// matchPaired is Match at levels up to 5.
func (e *WholeEncoder) matchPaired(src []byte) {
	n, base := len(src), e.Base
	pairs, short := e.Pairs, &e.Short
	// The last position indexed: one with 8 bytes to load (negative
	// below 8: no matching), as every finder sharing the tables indexes.
	last := n - 8
	p, pending := 0, 0 // src[pending:p] is not yet tokenised
	for p <= last {
		// The loads are in bounds: p <= last, and the tables hold only
		// earlier positions of this body (and, below base, of earlier ones).
		cv := LoadFast64(src, p)
		pair, hs := &pairs[hashPair(cv)], HashShort(uint32(cv))
		c1, c2, cs := int(pair[0]-base), int(pair[1]-base), int(short[hs]-base)
		pair[0], pair[1], short[hs] = int32(p)+base, pair[0], int32(p)+base
		end := min(n, p+maxMatch)
		length, dist := 0, 0
		if c1 >= 0 && p-c1 <= windowSize && LoadFast32(src, c1) == uint32(cv) {
			length, dist = 4+MatchLenAt(src, c1+4, p+4, end), p-c1
		}
		if c2 >= 0 && p-c2 <= windowSize && LoadFast32(src, c2) == uint32(cv) {
			if l := 4 + MatchLenAt(src, c2+4, p+4, end); l > length {
				length, dist = l, p-c2
			}
		}
		if length == 0 {
			if cs < 0 || p-cs > windowSize || LoadFast32(src, cs) != uint32(cv) {
				// Skip faster the longer nothing has matched, as matchAll
				// does.
				p += 1 + (p-pending)>>6
				continue
			}
			length, dist = 4+MatchLenAt(src, cs+4, p+4, end), p-cs
			p, length, dist = e.pairedLazy(src, p, length, dist)
		}
		if length <= pairLong && p+length <= last {
			p, length, dist = e.endsFurther(src, p, length, dist)
		}
		start, stop := e.emit(src, pending, p, length, dist)
		e.indexPaired(src, start, stop)
		p, pending = stop, stop
	}
	e.tail(src, pending)
}

// pairedLazy lets a 4-byte match of length at p, dist back, give way to a
// longer one at p+1 among its 7-byte candidates (indexing p+1), and
// returns the match kept. The caller must emit the match it returns: a
// probe of p+1 after this would find p+1 itself among its candidates, a
// distance of 0.
func (e *WholeEncoder) pairedLazy(src []byte, p, length, dist int) (int, int, int) {
	q := p + 1
	if q > len(src)-8 {
		return p, length, dist
	}
	base := e.Base
	// The tables hold positions up to p, so a candidate is below q, and
	// q <= len(src)-8: the loads are in bounds.
	cv := LoadFast64(src, q)
	pair := &e.Pairs[hashPair(cv)]
	c1, c2 := int(pair[0]-base), int(pair[1]-base)
	pair[0], pair[1] = int32(q)+base, pair[0]
	e.Short[HashShort(uint32(cv))] = int32(q) + base
	end := min(len(src), q+maxMatch)
	kept := p
	for _, c := range [2]int{c1, c2} {
		if c >= 0 && q-c <= windowSize && LoadFast32(src, c) == uint32(cv) {
			if l := 4 + MatchLenAt(src, c+4, q+4, end); l > length {
				kept, length, dist = q, l, q-c
			}
		}
	}
	return kept, length, dist
}

// endsFurther lets the match of length at p, dist back, give way to one
// starting at p+2 that reaches past its end: the last position with the
// 7 bytes at the end, length-2 back, is where such a match would start.
// p+length has 8 bytes to load.
func (e *WholeEncoder) endsFurther(src []byte, p, length, dist int) (int, int, int) {
	c := int(e.Pairs[hashPair(LoadFast64(src, p+length))][0]-e.Base) - length + 2
	if s := p + 2; c >= 0 && c < s && s-c <= windowSize {
		if l := MatchLenAt(src, c, s, min(len(src), s+maxMatch)); l > length {
			return s, l, s - c
		}
	}
	return p, length, dist
}

// indexPaired indexes the match src[start:stop]: its first positions in
// both tables, then every fourth one, and the one before its end.
func (e *WholeEncoder) indexPaired(src []byte, start, stop int) {
	last, base := len(src)-8, e.Base
	pairs, short := e.Pairs, &e.Short
	if i := start + 1; i < stop-1 && i+2 <= last {
		// i, i+1 and i+2 have 8 bytes to load: v holds 10 bytes' worth of
		// their 7- and 4-byte strings.
		v, b := LoadFast64(src, i), int32(i)+base
		short[HashShort(uint32(v))] = b
		pair := &pairs[hashPair(v)]
		pair[0], pair[1] = b, pair[0]
		pair = &pairs[hashPair(v>>8)]
		pair[0], pair[1] = b+1, pair[0]
		short[HashShort(uint32(v>>16))] = b + 2
		for i += 4; i < stop-1 && i+1 <= last; i += 4 {
			v, b := LoadFast64(src, i), int32(i)+base
			pair := &pairs[hashPair(v)]
			pair[0], pair[1] = b, pair[0]
			short[HashShort(uint32(v>>8))] = b + 1
		}
	}
	if q := stop - 1; q <= last {
		v, b := LoadFast64(src, q), int32(q)+base
		pair := &pairs[hashPair(v)]
		pair[0], pair[1] = b, pair[0]
		short[HashShort(uint32(v))] = b
	}
}
