package deflate

import "slices"

// A Seq is one LZ77 step of a body known whole: Lits literals, the next
// bytes of the body, then a match of Length bytes (3 to 258) from Dist
// back (1 to 32768); Length 0 when no match follows the literals, as at
// the body's end. Literals are not copied out of the body: writing a
// sequence reads them where they are, in one tight loop per run.
type Seq struct{ Lits, Length, Dist uint32 }

// writeSeqs writes the sequences of src, then the end-of-block code, with
// the given codes, in which they take size bits (as costs counts them). It
// keeps the bit buffer in locals and, every three literals and after each
// sequence's literals and match, stores all 64 bits of it and moves on by
// the whole bytes among them, so that where a byte ends decides no branch.
// Three literals add at most 45 bits to the 7 left over, two 30, a match's
// length and distance with their extra bits 48. The last bytes go one at a
// time: a store reaches 8 bytes on, and past the stream's end those are
// the caller's spare capacity, which an append leaves alone.
func writeSeqs(w *BitWriter, src []byte, seqs []Seq, lit, dist HuffCode, size int) {
	for w.N >= 8 {
		w.Buf = append(w.Buf, byte(w.Bits))
		w.Bits >>= 8
		w.N -= 8
	}
	acc, n := w.Bits, w.N
	o := len(w.Buf)
	end := o + (int(n)+size+7)/8 // where the stream ends
	buf := slices.Grow(w.Buf, end-o)
	buf = buf[:cap(buf)]
	flush := func() {
		if o+8 <= end {
			// n is below 64 here (see above): the mask spares the
			// compiler the case of a shift of 64 or more.
			storeFast64(buf, o, acc)
			o += int(n >> 3)
			acc >>= (n &^ 7) & 63
			n &= 7
			return
		}
		for ; n >= 8; n -= 8 {
			buf[o] = byte(acc)
			o++
			acc >>= 8
		}
	}
	// Literal codes resliced to 256 and indexed by a byte, and shifts
	// masked to 63, so that the compiler checks neither.
	litBits, litLen := lit.Bits[:256], lit.Len[:256]
	// The length symbols' codes and the distance codes, in arrays of 32
	// indexed masked: no bounds to check in the loop.
	var lenBits, distBits [32]uint16
	var lenLen, distLen [32]uint8
	copy(lenBits[:], lit.Bits[257:numLitLen])
	copy(lenLen[:], lit.Len[257:numLitLen])
	copy(distBits[:], dist.Bits[:numDist])
	copy(distLen[:], dist.Len[:numDist])
	pos := 0
	for _, s := range seqs {
		lits := src[pos : pos+int(s.Lits)]
		pos += int(s.Lits + s.Length)
		for ; len(lits) >= 3; lits = lits[3:] {
			a, b, c := lits[0], lits[1], lits[2]
			acc |= uint64(litBits[a]) << (n & 63)
			n += uint(litLen[a])
			acc |= uint64(litBits[b]) << (n & 63)
			n += uint(litLen[b])
			acc |= uint64(litBits[c]) << (n & 63)
			n += uint(litLen[c])
			flush()
		}
		if s.Length == 0 {
			for _, a := range lits {
				acc |= uint64(litBits[a]) << (n & 63)
				n += uint(litLen[a])
			}
			flush()
			continue
		}
		// Up to two literals are left, and the match's bytes (3 or more)
		// follow them in src: both are loaded and masked off unless they
		// are literals, without a branch on how many there are, which
		// was a mispredicted one.
		q, r := pos-int(s.Length)-len(lits), uint64(len(lits))
		a, b := src[q], src[q+1]
		ma, mb := -((r + 3) >> 2), -(r >> 1) // all ones when r >= 1, r == 2
		acc |= uint64(litBits[a]) & ma << (n & 63)
		n += uint(uint64(litLen[a]) & ma)
		acc |= uint64(litBits[b]) & mb << (n & 63)
		n += uint(uint64(litLen[b]) & mb)
		flush()
		l := uint8(s.Length - 3)
		ls := (lenCodeSym[l] - 257) & 31
		acc |= uint64(lenBits[ls]) << (n & 63)
		n += uint(lenLen[ls])
		acc |= uint64(uint16(l)-lenCodeBase[ls]) << (n & 63)
		n += uint(lenCodeExtra[ls])
		d := s.Dist - 1
		dc := distCode(d) & 31
		acc |= uint64(distBits[dc]) << (n & 63)
		n += uint(distLen[dc])
		acc |= uint64(d-distCodeBase[dc]) << (n & 63)
		n += uint(distCodeExtra[dc])
		flush()
	}
	flush()
	w.Bits, w.N, w.Buf = acc, n, buf[:o]
	w.WriteBits(uint32(lit.Bits[endOfBlock]), lit.Len[endOfBlock])
}
