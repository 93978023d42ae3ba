package deflate

// The chained match finder, Match's for bodies of up to ChainMax bytes:
// every position visited goes into the 4-byte table (Short, the chains'
// heads) and a chain of the earlier positions with the same hash; a match
// is the longest among its chain's first chainDepth candidates, with one
// byte of lazy evaluation. The sparse finder (matchAll), which indexes only
// a few positions of each match and probes one candidate per table, loses
// to klauspost's level 5 on the corpus's JSON records, nested documents,
// configuration and CSS of 2 to 8 KiB (encoding's TestOwnEncoderRule
// shows by how much): the next repeat of a
// record mostly starts inside the previous match, where it indexed nothing,
// and the nearest candidate is often not the longest.
const (
	// chainDepth is how many candidates a position's chain offers.
	chainDepth = 8
	// chainNice is a match long enough to stop walking the chain for.
	chainNice = 64
	// chainLazy is the longest match for which the next position is still
	// tried: a longer one is taken as it is.
	chainLazy = 32
	// ChainMax is the longest body matched with chains, whose links take
	// 4 bytes per body byte; longer ones are matched the sparse way.
	ChainMax = 64 << 10
)

// matchChained is Match for bodies of up to ChainMax bytes.
func (e *WholeEncoder) matchChained(src []byte) {
	n := len(src)
	if cap(e.chain) < n {
		e.chain = make([]int32, n+n/4)
	}
	e.inserted = 0
	// The last position indexed, as the sparse finders index: one with 8
	// bytes to load (negative below 8: no matching), so that the tables
	// keep the invariant every finder sharing them relies on.
	last := n - 8
	p, pending := 0, 0
	for p <= last {
		length, dist := e.longest(src, p)
		if length == 0 {
			// Skip faster the longer nothing has matched, as matchAll
			// does: incompressible bodies cost little.
			p += 1 + (p-pending)>>7
			continue
		}
		if length < chainLazy && p+1 <= last {
			if l, d := e.longest(src, p+1); l > length {
				p, length, dist = p+1, l, d
			}
		}
		_, end := e.emit(src, pending, p, length, dist)
		for q := e.inserted; q < end && q <= last; q++ {
			e.insert(src, q)
		}
		p, pending = end, end
	}
	e.tail(src, pending)
}

// insert links position p, which has 8 bytes to load, into its chain. The
// positions before p+1 are then all in, or skipped.
func (e *WholeEncoder) insert(src []byte, p int) {
	h := HashShort(LoadFast32(src, p))
	e.chain[p] = e.Short[h] - e.Base // negative (an earlier body's, or none): the chain ends
	e.Short[h] = int32(p) + e.Base
	e.inserted = p + 1
}

// longest inserts p when it is not in yet and returns the longest match
// for it among its chain's candidates, of at least 4 bytes (length 0 when
// there is none), and its distance.
func (e *WholeEncoder) longest(src []byte, p int) (length, dist int) {
	if p >= e.inserted {
		e.insert(src, p)
	}
	end := min(len(src), p+maxMatch)
	// p has 8 bytes to load; every candidate is an earlier position that
	// had too, so the loads are in bounds.
	cv := LoadFast32(src, p)
	c := int(e.chain[p])
	for range chainDepth {
		if c < 0 || p-c > windowSize {
			break
		}
		// A candidate longer than the best so far agrees with p at the
		// best's length too: one byte rejects most of the others.
		if LoadFast32(src, c) == cv && (length == 0 || src[c+length] == src[p+length]) {
			if l := 4 + MatchLenAt(src, c+4, p+4, end); l > length {
				length, dist = l, p-c
				if l >= chainNice || p+l >= end {
					break
				}
			}
		}
		c = int(e.chain[c])
	}
	return length, dist
}
