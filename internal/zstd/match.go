package zstd

import (
	"github.com/squeezehttp/squeeze/internal/deflate"
)

// An lzSeq is zstd's sequence (RFC 8878 §3.1.1.3.2): lits literals, then
// length bytes copied from dist back. Literals after the last match are in
// no sequence.
type lzSeq struct{ lits, length, dist uint32 }

// lightMax is the longest body matched the light way: above it, a byte of
// lookahead and two more positions indexed per match.
const lightMax = 2 << 10

// match finds src's matches into e.seqs in deflate.WholeEncoder's hash
// tables (a 4-byte hash probed at each position, an 8-byte one where it
// hits, backward extension; above lightMax a byte of lookahead and two more
// positions indexed per match, as the WholeEncoder's sparse matchAll does),
// except that the window is the whole body, so a candidate needs no
// distance check.
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
			if q := p + 1; n > lightMax && length < 32 && q <= last {
				// Looking a byte ahead for a longer match in the 8-byte
				// table (deflate.WholeEncoder.lazy written in, without its window
				// check and with zstd's match bound instead of 258) makes
				// bodies past lightMax smaller; on shorter ones it saves less
				// than the time it costs; after a long match there is little
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
		if n > lightMax {
			// Longer bodies index two more positions of each match, as
			// deflate.WholeEncoder's matchAll does, for smaller output.
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
