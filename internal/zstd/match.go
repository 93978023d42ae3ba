package zstd

import (
	"github.com/squeezehttp/squeeze/internal/deflate"
)

// An lzSeq is zstd's sequence (RFC 8878 §3.1.1.3.2): lits literals, then
// length bytes copied from dist back. Literals after the last match are in
// no sequence.
type lzSeq struct{ lits, length, dist uint32 }

// lightMax is the size up to which the matching used to be lighter; the
// bounds tests still try bodies around it.
const lightMax = 2 << 10

// match finds src's matches into e.seqs with two tables that take every
// position probed, as zstd's double-fast strategy (its level 3) does: the
// last position of each 8-byte hash (deflate.WholeEncoder's Long) and of
// each 5-byte one (its Short, hashed by hashShort5). At each position it
// tries, in turn, the last offset one byte ahead (a repeat code costs a
// couple of bits), the 8-byte candidate, and the 5-byte one with a look a
// byte ahead in the 8-byte table; it extends matches backwards, indexes the
// second and the last two positions of each, and takes the offset before
// last where it continues at once. The window is the whole body, so a
// candidate needs no distance check.
//
// Against the sparse finder it replaces (one 4-byte hash probed, the
// 8-byte one only where it hit) it finds fewer, longer matches: a 4-byte
// match far back costs about as much as its literals in zstd, whose
// offsets take their bits in full.
func (e *Encoder) match(src []byte) {
	m := &e.m
	m.ResetTables(len(src))
	e.seqs = e.seqs[:0]
	n, base := len(src), m.Base
	long, short := m.LongTable(), &m.Short
	last := n - 8
	p, pending := 0, 0
	// The last two offsets as the finder chose them: codeSequences
	// codes whatever it chose, these only say where to look.
	rep0, rep1 := int(zstdStartRep[0]), int(zstdStartRep[1])
	for p <= last {
		// Every load is in bounds: p <= last, r < p+1, and the tables hold
		// only positions of this body up to p (all that is stored is p
		// itself, p+1 of the look ahead and positions of matches, each
		// at most last and at most the next p), or values below base:
		// earlier bodies', since bases only grow and the tables are
		// cleared before they would wrap, and zeros.
		cv := deflate.LoadFast64(src, p)
		hl, hs := hashBoth(cv)
		cl, cs := int(long[hl]-base), int(short[hs]-base)
		long[hl], short[hs] = int32(p)+base, int32(p)+base
		var start, length, dist int
		if r := p + 1 - rep0; r >= 0 && deflate.LoadFast32(src, r) == uint32(cv>>8) {
			start, dist = p+1, rep0
			length = 4 + deflate.MatchLenAt(src, r+4, start+4, min(n, start+zstdMaxMatch))
		} else if uint(cl) < uint(p) && deflate.LoadFast64(src, cl) == cv {
			start, dist = p, p-cl
			length = 8 + deflate.MatchLenAt(src, cl+8, p+8, min(n, p+zstdMaxMatch))
		} else if uint(cs) < uint(p) && deflate.LoadFast32(src, cs) == uint32(cv) {
			start, dist = p, p-cs
			length = 4 + deflate.MatchLenAt(src, cs+4, p+4, min(n, p+zstdMaxMatch))
			if q := p + 1; q <= last {
				// A longer match a byte ahead, in the 8-byte table.
				v := deflate.LoadFast64(src, q)
				h := deflate.HashLong(v)
				c := int(long[h] - base)
				long[h] = int32(q) + base
				if uint(c) < uint(q) && deflate.LoadFast64(src, c) == v {
					if l := 8 + deflate.MatchLenAt(src, c+8, q+8, min(n, q+zstdMaxMatch)); l > length {
						start, length, dist = q, l, q-c
					}
				}
			}
		} else {
			// Farther apart the longer the run of literals: data that
			// does not compress costs less.
			p += 1 + (p-pending)>>6
			continue
		}
		for start > pending && start > dist && length < zstdMaxMatch && src[start-1] == src[start-1-dist] {
			start, length = start-1, length+1
		}
		end := start + length
		e.seqs = append(e.seqs, lzSeq{lits: uint32(start - pending), length: uint32(length), dist: uint32(dist)})
		if dist != rep0 {
			rep0, rep1 = dist, rep0
		}
		// The match's second and last but one positions in the 8-byte
		// table, its third and last in the 5-byte one, as zstd's
		// double-fast does.
		if q := end - 1; q <= last {
			long[deflate.HashLong(deflate.LoadFast64(src, start+1))] = int32(start+1) + base
			short[hashShort5(deflate.LoadFast64(src, start+2))] = int32(start+2) + base
			long[deflate.HashLong(deflate.LoadFast64(src, q-1))] = int32(q-1) + base
			short[hashShort5(deflate.LoadFast64(src, q))] = int32(q) + base
		}
		p, pending = end, end
		// The offset before last, at once: a repeat code with no literals.
		for p <= last && p >= rep1 && deflate.LoadFast32(src, p-rep1) == deflate.LoadFast32(src, p) {
			l := 4 + deflate.MatchLenAt(src, p-rep1+4, p+4, min(n, p+zstdMaxMatch))
			e.seqs = append(e.seqs, lzSeq{length: uint32(l), dist: uint32(rep1)})
			rep0, rep1 = rep1, rep0
			p += l
			pending = p
			if q := p - 1; q <= last {
				hl, hs := hashBoth(deflate.LoadFast64(src, q))
				long[hl], short[hs] = int32(q)+base, int32(q)+base
			}
		}
	}
}

// hashShort5 hashes the 5 bytes at a position into the Short table: a
// 4-byte match found through it mostly goes on to 5, and zstd pays for a
// 4-byte one far back about what its literals cost.
func hashShort5(u uint64) uint32 {
	return uint32(((u << 24) * hashMul) >> (64 - shortHashBits))
}

// hashBoth returns deflate.HashLong(u) and hashShort5(u) with one
// multiplication: both multiply by hashMul, and shifting u left before
// multiplying shifts the product alike.
func hashBoth(u uint64) (long, short uint32) {
	h := u * hashMul
	return uint32(h >> (64 - longHashBits)), uint32((h << 24) >> (64 - shortHashBits))
}

// hashMul is deflate.HashLong's multiplier (TestHashBothIsBothHashes).
const hashMul = 0xcf1bbcdcb7a56463

// longHashBits is the size of deflate.WholeEncoder's Long table.
const longHashBits = 15

var _ *[1 << longHashBits]int32 = deflate.WholeEncoder{}.Long

// shortHashBits is the size of deflate.WholeEncoder's Short table.
const shortHashBits = 14

var _ [1 << shortHashBits]int32 = deflate.WholeEncoder{}.Short
