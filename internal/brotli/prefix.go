package brotli

import (
	"github.com/squeezehttp/squeeze/internal/deflate"
)

// code builds t's prefix code for the symbol counts freq, from smoothed
// counts when smooth (see smoothForRLE), and returns the bits the code's
// description and the symbols take.
func (e *metaCoder) code(t *brTree, freq []uint32, alphabetBits uint8, smooth bool) int {
	// Symbols past the last one used need no code: leave them out of
	// every pass over the alphabet.
	n := len(freq)
	for n > 1 && freq[n-1] == 0 {
		n--
	}
	freq = freq[:n]
	counts := freq
	if smooth {
		counts = e.smooth[:len(freq)]
		smoothForRLE(counts, freq)
	}
	t.make(e, counts, alphabetBits)
	if t.single {
		// Its symbol takes no bits (cost would count it as uncoded).
		return t.bits
	}
	return t.bits + t.code.Cost(freq)
}

// smoothForRLE sets out to the counts freq with stretches of similar counts
// evened out to their mean, unused symbols inside a stretch included, so
// that the stretch's code lengths come out equal and take one repeat code
// in the code's description (RFC 7932 §3.5). It is the idea of the
// reference encoder's histogram optimisation for run-length coding: the
// data grows a little where a count moves away from its own, and the
// description shrinks by more, most of all on small bodies with sparse
// alphabets. Runs that already code well (5 zeros, 7 equal counts) are
// kept as they are, used symbols stay used, and counts after the last used
// symbol stay zero.
func smoothForRLE(out, freq []uint32) {
	copy(out, freq)
	n := len(freq)
	for n > 0 && freq[n-1] == 0 {
		n--
	}
	// The stretch is out[start:i], its counts within tolerance of r, in
	// 1/256ths of a count: the mean of the first three counts until it has
	// four, then its own mean. It grows by runs of equal counts.
	const tolerance = 5 * 256
	start, sum, r := 0, uint32(0), uint32(0)
	for i := 0; i < n; {
		v, j := freq[i], i+1
		for j < n && freq[j] == v {
			j++
		}
		switch {
		case j-i >= 7 || v == 0 && j-i >= 5:
			// A run that codes well as it is ends the stretch.
			evenOut(out[start:i], sum)
			start, sum = j, 0
		case i > start && absDiff(256*v, r) < tolerance:
			sum += v * uint32(j-i)
		default:
			evenOut(out[start:i], sum)
			start, sum = i, v*uint32(j-i)
			r = 256 * (v + freq[min(i+1, n-1)] + freq[min(i+2, n-1)]) / 3
		}
		if k := uint32(j - start); k >= 4 {
			r = 256 * sum / k
		}
		i = j
	}
	evenOut(out[start:n], sum)
}

// evenOut sets a stretch of counts that sum to sum to their mean, at least
// 1 when any is used, if the stretch is long enough for a repeat code (a
// first length and three repeats).
func evenOut(stretch []uint32, sum uint32) {
	k := uint32(len(stretch))
	if k < 4 || sum == 0 {
		return
	}
	mean := max((sum+k/2)/k, 1)
	for j := range stretch {
		stretch[j] = mean
	}
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// brTree is one prefix code of a meta-block and its description (RFC 7932
// §3.4, §3.5), packed LSB-first 32 bits to a word.
type brTree struct {
	code   deflate.HuffCode
	header []uint32
	bits   int
	single bool // one symbol, coded in no bits
	w      deflate.HeaderBits
}

func (t *brTree) piece(v uint32, n uint8) { t.w.Put(v, n) }

// make builds t's code for the symbol counts freq and describes it: as a
// simple prefix code (symbols listed in alphabetBits bits each) for up to
// four symbols, else as code lengths run-length coded with a code-length
// code.
func (t *brTree) make(e *metaCoder, freq []uint32, alphabetBits uint8) {
	t.w = deflate.HeaderBits{Words: t.header[:0]}
	t.single = false
	t.describe(e, freq, alphabetBits)
	t.header, t.bits = t.w.End()
}

func (t *brTree) describe(e *metaCoder, freq []uint32, alphabetBits uint8) {
	var syms [4]uint16
	used := 0
	for s, f := range freq {
		if f > 0 {
			if used < 4 {
				syms[used] = uint16(s)
			}
			used++
		}
	}
	if used <= 1 {
		// One symbol (or none: the alphabet is never coded), with a code
		// of no bits.
		clear(t.code.Len)
		t.code.Bits[syms[0]] = 0
		t.single = true
		t.piece(1, 2) // HSKIP 1: a simple code
		t.piece(0, 2) // NSYM-1
		t.piece(uint32(syms[0]), alphabetBits)
		return
	}
	clear(t.code.Len[len(freq):])
	e.hb.Build(deflate.HuffCode{Len: t.code.Len[:len(freq)], Bits: t.code.Bits[:len(freq)]}, freq, brMaxCodeLen)
	if used <= 4 {
		// The lengths are 1,1 or 1,2,2 or 2,2,2,2 or 1,2,3,3; a decoder
		// takes them in that order, so list the symbols by length.
		s := syms[:used]
		for i := 1; i < len(s); i++ {
			for j := i; j > 0 && t.code.Len[s[j]] < t.code.Len[s[j-1]]; j-- {
				s[j], s[j-1] = s[j-1], s[j]
			}
		}
		t.piece(1, 2)
		t.piece(uint32(used-1), 2)
		for _, v := range s {
			t.piece(uint32(v), alphabetBits)
		}
		if used == 4 {
			tree := uint32(0)
			if t.code.Len[s[0]] == 1 {
				tree = 1
			}
			t.piece(tree, 1)
		}
		return
	}
	lens := t.code.Len[:len(freq)]
	end := len(lens)
	for lens[end-1] == 0 {
		end--
	}
	// Run-length code the lengths up to the last one used: a decoder stops
	// when the code is complete.
	e.rle = e.rle[:0]
	var clFreq [brNumCodeLen]uint32
	prev := uint8(8) // the length code 16 repeats before any is sent
	for i := 0; i < end; {
		v, reps := lens[i], 1
		for i+reps < end && lens[i+reps] == v {
			reps++
		}
		i += reps
		if v == 0 {
			e.rle = appendRepeats(e.rle, 0, 17, 3, 11, reps)
		} else {
			if v != prev {
				e.rle = append(e.rle, uint16(v)<<8)
				reps--
			}
			e.rle = appendRepeats(e.rle, v, 16, 2, 7, reps)
			prev = v
		}
	}
	for _, r := range e.rle {
		clFreq[r>>8]++
	}
	cl := e.codeLen
	e.hb.Build(cl, clFreq[:], brMaxCLCodeLen)
	skip := 0
	if cl.Len[brCodeLenOrder[0]] == 0 && cl.Len[brCodeLenOrder[1]] == 0 {
		skip = 2
		if cl.Len[brCodeLenOrder[2]] == 0 {
			skip = 3
		}
	}
	last := brNumCodeLen
	for cl.Len[brCodeLenOrder[last-1]] == 0 {
		last--
	}
	t.piece(uint32(skip), 2) // HSKIP
	for _, s := range brCodeLenOrder[skip:last] {
		l := cl.Len[s]
		t.piece(uint32(brCLLenBits[l]), brCLLenCount[l])
	}
	for _, r := range e.rle {
		s := r >> 8
		l := cl.Len[s]
		switch s {
		case 16:
			t.piece(uint32(cl.Bits[s])|uint32(r&0xff)<<(l&31), l+2)
		case 17:
			t.piece(uint32(cl.Bits[s])|uint32(r&0xff)<<(l&31), l+3)
		default:
			t.piece(uint32(cl.Bits[s]), l)
		}
	}
}

// appendRepeats appends reps more code lengths v: below 3 as they are,
// else as a chain of repeat codes (16 for the previous length, 17 for
// zeros) with extraBits each. A decoder reads consecutive repeat codes as
// one count, the earlier ones the more significant digits
// (RFC 7932 §3.5), so the chain's digits are found from the least
// significant and appended in reverse. awkward is the one count for which
// sending one length first and then a chain is cheaper (7 for 16, 11 for
// 17: their chains would take two codes).
func appendRepeats(rle []uint16, v uint8, code uint16, extraBits uint, awkward, reps int) []uint16 {
	if reps == awkward {
		rle = append(rle, uint16(v)<<8)
		reps--
	}
	if reps < 3 {
		for range reps {
			rle = append(rle, uint16(v)<<8)
		}
		return rle
	}
	start := len(rle)
	r := reps - 3
	for {
		rle = append(rle, code<<8|uint16(r&(1<<extraBits-1)))
		r >>= extraBits
		if r == 0 {
			break
		}
		r--
	}
	for i, j := start, len(rle)-1; i < j; i, j = i+1, j-1 {
		rle[i], rle[j] = rle[j], rle[i]
	}
	return rle
}
