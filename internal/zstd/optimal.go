package zstd

import (
	"math"
	"math/bits"
)

// optPrices are what the parser pays, in 1/optScale bits, for a literal
// byte and for each literal length, match length and offset code, the
// extra bits of the last three added where they are used.
type optPrices struct {
	lit [256]int32
	ll  [36]int32
	ml  [53]int32
	of  [32]int32
	// byLength is matchLen worked out for the lengths below optSufficient,
	// the parser's inner loop.
	byLength [optSufficient]int32
}

// optScale is the price of one bit.
const optScale = 1 << 8

// optPrice is the price of a symbol seen f times in n, with the counts
// smoothed by one per symbol of the alphabet's k: an unseen one costs a
// little more than the rarest.
func optPrice(f uint32, n, k int) int32 {
	return int32((log2Fix(uint32(n+k)) - log2Fix(f+1)) >> (log2FixBits - 8))
}

// log2Fix is log2(x) for x ≥ 1 in 1/2^log2FixBits bits, exact to the
// rounding below 2048, within a thousandth of a bit above: the highest
// bit's position and the 10 bits after it looked up. Integers, not floats,
// so that every machine prices alike and makes the same bytes.
func log2Fix(x uint32) int64 {
	l := bits.Len32(x) - 1
	var mant uint32
	if l >= 10 {
		mant = x >> (l - 10) & 1023
	} else {
		mant = x << (10 - l) & 1023
	}
	return int64(l)<<log2FixBits + int64(log2FixFraction[mant])
}

const log2FixBits = 16

// log2FixFraction[i] is log2(1 + i/1024) in 1/2^log2FixBits bits.
var log2FixFraction = func() (t [1024]uint32) {
	for i := range t {
		t[i] = uint32(math.Round(math.Log2(1+float64(i)/1024) * (1 << log2FixBits)))
	}
	return t
}()

// setPrices sets p from counts: lit the literal bytes', codes the sequence
// codes' by kind, as the block coder counts them.
func (p *optPrices) setPrices(lit *[256]uint32, codes *[3][64]uint32) {
	set := func(dst []int32, c []uint32) {
		n := 0
		for _, f := range c {
			n += int(f)
		}
		for s := range dst {
			dst[s] = optPrice(c[s], n, len(dst))
		}
	}
	set(p.lit[:], lit[:])
	set(p.ll[:], codes[zstdLitLen][:len(p.ll)])
	set(p.ml[:], codes[zstdMatchLen][:len(p.ml)])
	set(p.of[:], codes[zstdOffset][:len(p.of)])
	for l := uint32(3); l < optSufficient; l++ {
		c := zstdMatchLenCode(l - 3)
		p.byLength[l] = p.ml[c] + int32(zstdMatchLenBits[c])*optScale
	}
}

// startCounts are counts for a first parse, before any of its own: the
// predefined distributions (RFC 8878 §3.1.1.3.2.2), zstd's picture of
// sequences it has not seen.
func startCounts() (c [3][64]uint32) {
	for kind, norm := range zstdPredefinedNorm {
		for s, n := range norm {
			c[kind][s] = uint32(fseStates(n))
		}
	}
	return c
}

func (p *optPrices) litLen(n uint32) int32 {
	c := zstdLitLenCode(n)
	return p.ll[c] + int32(zstdLitLenBits[c])*optScale
}

func (p *optPrices) matchLen(n uint32) int32 {
	if n < optSufficient {
		return p.byLength[n]
	}
	c := zstdMatchLenCode(n - 3)
	return p.ml[c] + int32(zstdMatchLenBits[c])*optScale
}

func (p *optPrices) offset(v uint32) int32 {
	c := zstdOffsetCode(v)
	return p.of[c] + int32(c)*optScale
}

// An optNode is the cheapest way found to code the block up to a position:
// its price, the literals since the last match, the match that ends there
// (none for a literal) and the last offsets after it.
type optNode struct {
	price  int32
	litLen uint32
	length uint32
	dist   uint32
	rep    [3]uint32
}

// optSufficient is the match length taken at once, without weighing the
// ways through the positions it covers: longer matches are rare and
// weighing each of their lengths is what costs the parser its time.
const optSufficient = 512

// repDist is the distance of repeat code i (0-2) with the last offsets
// rep, after a run of literals or, when ll0, none (RFC 8878 §3.1.1.5).
func repDist(rep *[3]uint32, i int, ll0 bool) uint32 {
	if !ll0 {
		return rep[i]
	}
	if i == 2 {
		return rep[0] - 1
	}
	return rep[i+1]
}

// offsetValue is dist's offset value after the last offsets rep, with or
// without literals before it, and the last offsets after it (RFC 8878
// §3.1.1.5): 1-3 for one of the last three offsets, the distance plus 3
// otherwise. With no literals before the match, 1-3 mean the second and
// third last offsets and the last one less one.
func offsetValue(d uint32, rep [3]uint32, ll0 bool) (uint32, [3]uint32) {
	r0, r1, r2 := rep[0], rep[1], rep[2]
	if !ll0 {
		switch d {
		case r0:
			return 1, rep
		case r1:
			return 2, [3]uint32{r1, r0, r2}
		case r2:
			return 3, [3]uint32{r2, r0, r1}
		}
		return d + 3, [3]uint32{d, r0, r1}
	}
	switch d {
	case r1:
		return 1, [3]uint32{r1, r0, r2}
	case r2:
		return 2, [3]uint32{r2, r0, r1}
	case r0 - 1:
		return 3, [3]uint32{d, r0, r1}
	}
	return d + 3, [3]uint32{d, r0, r1}
}

// parse finds the cheapest sequences, at prices p, for the block
// src[start:end] whose matches are in e.found (per position i of the
// block, e.found[e.foundAt[i]:e.foundAt[i+1]]), starting with the last
// offsets rep, into e.seqs with distances (not offset values).
func (e *BestEncoder) parse(src []byte, start, end int, rep [3]uint32, p *optPrices) {
	n := end - start
	opt := e.opt[:0]
	for range n + 1 {
		opt = append(opt, optNode{price: math.MaxInt32})
	}
	e.opt = opt
	opt[0] = optNode{price: p.litLen(0), rep: rep}
	skipTo := 0
	var cands []lzMatch
	for cur := 0; cur < n; cur++ {
		if cur < skipTo {
			continue
		}
		o := &opt[cur]
		pos := start + cur
		if lp := o.price + p.lit[src[pos]] + p.litLen(o.litLen+1) - p.litLen(o.litLen); lp < opt[cur+1].price {
			opt[cur+1] = optNode{price: lp, litLen: o.litLen + 1, rep: o.rep}
		}
		// The repeat codes first, then the matches found, each longer
		// than the last.
		ll0 := o.litLen == 0
		cands = cands[:0]
		best := 2
		for i := range 3 {
			d := int(repDist(&o.rep, i, ll0))
			if d <= 0 || d > pos {
				continue
			}
			if l := matchLen(src, pos-d, pos, end); l > best {
				best = l
				cands = append(cands, lzMatch{uint32(l), uint32(d)})
			}
		}
		for _, m := range e.found[e.foundAt[cur]:e.foundAt[cur+1]] {
			if int(m.length) > best {
				best = int(m.length)
				cands = append(cands, m)
			}
		}
		if len(cands) == 0 {
			continue
		}
		base := o.price + p.litLen(0)
		if last := cands[len(cands)-1]; best >= optSufficient {
			v, r := offsetValue(last.dist, o.rep, ll0)
			price := base + p.offset(v) + p.matchLen(last.length)
			if to := &opt[cur+best]; price < to.price {
				*to = optNode{price: price, length: last.length, dist: last.dist, rep: r}
			}
			skipTo = cur + best
			continue
		}
		l := uint32(3)
		for _, m := range cands {
			v, r := offsetValue(m.dist, o.rep, ll0)
			of := base + p.offset(v)
			for ; l <= m.length; l++ {
				price := of + p.matchLen(l)
				if to := &opt[cur+int(l)]; price < to.price {
					*to = optNode{price: price, length: l, dist: m.dist, rep: r}
				}
			}
		}
	}
	// Back from the end, then forward into sequences.
	e.path = e.path[:0]
	for i := n; i > 0; {
		o := &opt[i]
		if o.length == 0 {
			i--
			continue
		}
		e.path = append(e.path, lzMatch{o.length, o.dist})
		e.pathAt = append(e.pathAt[:len(e.path)-1], uint32(i-int(o.length)))
		i -= int(o.length)
	}
	e.seqs = e.seqs[:0]
	pending := 0
	for k := len(e.path) - 1; k >= 0; k-- {
		m, at := e.path[k], int(e.pathAt[k])
		e.seqs = append(e.seqs, lzSeq{lits: uint32(at - pending), length: m.length, dist: m.dist})
		pending = at + int(m.length)
	}
}
