package brotli

import (
	_ "embed"
	"math/bits"
	"sync"
)

// brDictionary is brotli's static dictionary, the DICT array of RFC 7932
// Appendix A: 122,784 bytes of words of 4 to 24 bytes, grouped by length.
// The file was written by decoding references to every word with
// andybalholm/brotli's decoder; TestBrotliDictionaryIsRFC7932 checks its
// length and the CRC-32 the RFC gives.
//
//go:embed dictionary.bin
var brDictionary string

const (
	brMinWord = 4
	brMaxWord = 24
	// brMaxCut is the most bytes a transform omits from a word's end
	// (OmitLast9).
	brMaxCut = 9
	// brDictHashBits sizes the index of words by their first four bytes.
	brDictHashBits = 15
	// brDictProbe is the most words of one hash bucket compared with the
	// body at one position.
	brDictProbe = 16
)

// brDictBits is NDBITS (RFC 7932 §8): log2 of the number of words of each
// length.
var brDictBits = [brMaxWord + 1]uint8{0, 0, 0, 0, 10, 10, 11, 11, 10, 10, 10, 10, 10, 9, 9, 8, 7, 7, 8, 7, 7, 6, 6, 5, 5}

// brCutTransform is the transform ID that omits the last k bytes of a word
// (RFC 7932 Appendix B: 0 is the identity, then OmitLast1..OmitLast9).
var brCutTransform = [brMaxCut + 1]uint8{0, 12, 27, 23, 42, 63, 56, 48, 59, 64}

// brDictIndex finds the words of the static dictionary that start with
// given four bytes: the words of hash bucket h are words[start[h]:start[h+1]],
// longest first, each as length<<11 | index within its length, beside its
// first four bytes in prefix.
type brDictIndex struct {
	start  [1<<brDictHashBits + 1]uint16
	words  []uint16
	prefix []uint32
	offset [brMaxWord + 2]uint32 // DOFFSET: where the words of each length start
}

// brDict builds the index of the dictionary's 13,504 words once, on first
// use.
var brDict = sync.OnceValue(func() *brDictIndex {
	x := new(brDictIndex)
	for l := brMinWord; l <= brMaxWord; l++ {
		x.offset[l+1] = x.offset[l] + uint32(l)<<brDictBits[l]
	}
	each := func(visit func(h uint32, w uint16, prefix uint32)) {
		// Longest words first, so a bucket lists them in that order.
		for l := brMaxWord; l >= brMinWord; l-- {
			for i := range uint32(1) << brDictBits[l] {
				at := x.offset[l] + uint32(l)*i
				d := brDictionary[at : at+4]
				p := uint32(d[0]) | uint32(d[1])<<8 | uint32(d[2])<<16 | uint32(d[3])<<24
				visit(hashDict(p), uint16(l)<<11|uint16(i), p)
			}
		}
	}
	each(func(h uint32, _ uint16, _ uint32) { x.start[h+1]++ })
	for h := 1; h < len(x.start); h++ {
		x.start[h] += x.start[h-1]
	}
	n := x.start[len(x.start)-1]
	x.words, x.prefix = make([]uint16, n), make([]uint32, n)
	fill := x.start
	each(func(h uint32, w uint16, p uint32) {
		x.words[fill[h]], x.prefix[fill[h]] = w, p
		fill[h]++
	})
	return x
})

func hashDict(v uint32) uint32 { return (v * 0x1e35a7bd) >> (32 - brDictHashBits) }

// empty reports whether no word falls in hash bucket h.
func (x *brDictIndex) empty(h uint32) bool { return x.start[h] == x.start[h+1] }

// brWordRef is a reference to a dictionary word: length l, index i among
// the words of that length, the last cut bytes omitted.
type brWordRef struct {
	l, i, cut uint32
}

// out is the number of bytes the reference produces.
func (w brWordRef) out() uint32 { return w.l - w.cut }

// distance is the distance that sends w from a position pos bytes into the
// body, where the window holds the whole body (RFC 7932 §8: past the
// farthest back-reference, pos, come the words by index, then by
// transform).
func (w brWordRef) distance(pos uint32) uint32 {
	return pos + 1 + w.i + uint32(brCutTransform[w.cut])<<brDictBits[w.l]
}

// match returns the reference to a word that saves the most bits in place
// of the literals that start b, pos bytes into the body, and an estimate
// of the bits it saves: 6 for each byte it produces, less the extra bits of
// its distance. A score of 0 means no word starts b. v is b's first four
// bytes, little-endian, and h their hash, a bucket that is not empty.
func (x *brDictIndex) match(b []byte, pos, v, h uint32) (best brWordRef, score int) {
	lo, hi := int(x.start[h]), int(x.start[h+1])
	hi = min(hi, lo+brDictProbe)
	for k := lo; k < hi; k++ {
		if x.prefix[k] != v {
			continue
		}
		w := x.words[k]
		l, i := uint32(w>>11), uint32(w&(1<<11-1))
		if 6*int(l) <= score {
			// The words left are no longer than this one: none can save
			// more.
			break
		}
		at := x.offset[l] + l*i
		word := brDictionary[at+brMinWord : at+l]
		n := 0
		for n < len(word) && brMinWord+n < len(b) && word[n] == b[brMinWord+n] {
			n++
		}
		cut := uint32(len(word) - n)
		if cut > brMaxCut {
			continue
		}
		r := brWordRef{l, i, cut}
		if s := 6*int(r.out()) - (bits.Len32(r.distance(pos)+3) - 2); s > score {
			best, score = r, s
		}
		if cut == 0 {
			// The longest word that matches whole: the words left produce
			// fewer bytes.
			break
		}
	}
	return best, score
}
