package zstd

import (
	"encoding/binary"
	"math/bits"
)

// btMatcher finds every useful match of each position of a body, as zstd's
// binary-tree match finder does (its btopt and btultra strategies): the
// positions seen so far with the same 4-byte hash form a binary search tree
// ordered by the bytes that follow them, so one descent from the newest
// finds matches of every length, each longer than the last, and inserts
// the position in passing. A 3-byte hash table adds the nearest match of
// 3 bytes, which pays only close by. The window is the whole body: the
// best path writes single-segment frames.
//
// Positions are stored plus one, so that 0 means none. It uses checked
// loads only: speed matters less here than on the small-body path.
type btMatcher struct {
	src      []byte
	hash     []uint32 // per 4-byte hash, the newest position, the tree's root
	hash3    []uint32 // per 3-byte hash, the newest position
	tree     []uint32 // per position, its smaller then its larger subtree
	hashBits uint8    // of hash, which grows with the body
}

// An lzMatch is a match a position may take: length bytes from dist back.
type lzMatch struct{ length, dist uint32 }

const (
	btMaxHashBits = 20
	btHash3Bits   = 16
	// btCompares bounds the candidates one descent looks at (zstd's
	// searchLog 9 for its level 19 on blocks of 128 KiB).
	btCompares = 512
	// btMaxDist3 is the farthest a 3-byte match is taken from: farther,
	// its offset costs more than its literals.
	btMaxDist3 = 1 << 18
	// btSkipAbove is the match length above which the positions the match
	// covers are skipped, at most btSkipMost of them (zstd's speed
	// optimisation for long repeats, whose insertion is quadratic).
	btSkipAbove = 384
	btSkipMost  = 192
	// btMaxLen bounds the length a descent measures: in a long repeat
	// (a file that is one pattern over and over), measuring each match to
	// the block's end made the finder quadratic in the block. The parser
	// continues a longer match a literal later, through a repeat code,
	// which it measures in full.
	btMaxLen = 1 << 12
)

// reset makes m ready for src, whose positions it then takes in order.
func (m *btMatcher) reset(src []byte) {
	m.src = src
	// About a slot per position: a small body clears a small table.
	m.hashBits = uint8(min(max(bits.Len(uint(len(src))), 10), btMaxHashBits))
	if cap(m.hash) < 1<<m.hashBits {
		m.hash = make([]uint32, 1<<btMaxHashBits)
	}
	m.hash = m.hash[:1<<m.hashBits]
	clear(m.hash)
	if m.hash3 == nil {
		m.hash3 = make([]uint32, 1<<btHash3Bits)
	}
	clear(m.hash3)
	if cap(m.tree) < 2*len(src) {
		m.tree = make([]uint32, 2*len(src))
	}
	m.tree = m.tree[:2*len(src)]
}

// find inserts position p, which has at least 4 bytes before end, and
// appends to out its matches ending at end at the latest and at most
// btMaxLen long, each longer than the one before. It returns out and how
// many positions after p to skip (see btSkipAbove).
func (m *btMatcher) find(p, end int, out []lzMatch) ([]lzMatch, int) {
	src := m.src
	end = min(end, p+btMaxLen)
	best := 2
	v := binary.LittleEndian.Uint32(src[p:])
	h3 := (v << 8) * 0x9e3779b1 >> (32 - btHash3Bits)
	if c := int(m.hash3[h3]) - 1; c >= 0 && p-c < btMaxDist3 {
		if l := matchLen(src, c, p, end); l > best {
			best = l
			out = append(out, lzMatch{uint32(l), uint32(p - c)})
		}
	}
	m.hash3[h3] = uint32(p + 1)

	h := v * 0x9e3779b1 >> (32 - m.hashBits)
	cand := int(m.hash[h])
	m.hash[h] = uint32(p + 1)
	// Where the next smaller and larger positions go, and how many bytes
	// the positions on each side are known to share with p.
	smaller, larger := 2*p, 2*p+1
	lenSmaller, lenLarger := 0, 0
	for k := btCompares; k > 0 && cand > 0; k-- {
		c := cand - 1
		l := min(lenSmaller, lenLarger)
		l += matchLen(src, c+l, p+l, end)
		if l > best {
			best = l
			out = append(out, lzMatch{uint32(l), uint32(p - c)})
		}
		if p+l == end {
			// Equal up to the end: the order is unknown, and c with
			// its subtrees leaves the tree (as in zstd).
			break
		}
		if src[c+l] < src[p+l] {
			m.tree[smaller] = uint32(cand)
			lenSmaller, smaller = l, 2*c+1
			cand = int(m.tree[2*c+1])
		} else {
			m.tree[larger] = uint32(cand)
			lenLarger, larger = l, 2*c
			cand = int(m.tree[2*c])
		}
	}
	m.tree[smaller], m.tree[larger] = 0, 0
	skip := 0
	if best > btSkipAbove {
		skip = min(btSkipMost, best-btSkipAbove)
	}
	return out, skip
}

// matchLen is the number of bytes from src[j:] that src[i:] repeats, up to
// end, for i < j <= end <= len(src).
func matchLen(src []byte, i, j, end int) int {
	n := 0
	for j+n+8 <= end {
		if x := binary.LittleEndian.Uint64(src[i+n:]) ^ binary.LittleEndian.Uint64(src[j+n:]); x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		n += 8
	}
	for j+n < end && src[i+n] == src[j+n] {
		n++
	}
	return n
}
