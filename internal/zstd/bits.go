package zstd

import (
	"encoding/binary"
)

// fastBits is an LSB-first bit writer for a buffer with room made
// beforehand: flush writes 8 bytes whatever the count and keeps the bits
// past the last whole byte.
type fastBits struct {
	acc uint64
	n   uint
	pos int
}

// add adds the low 16 bits of c, of which there are c>>16 to send.
func (w fastBits) add(c uint32) fastBits {
	w.acc |= uint64(c&0xffff) << (w.n & 63) // w.n < 64: the mask spares the compiler's check
	w.n += uint(c >> 16)
	return w
}

// addBits adds the low n bits of v, which has no bits above them.
func (w fastBits) addBits(v uint64, n uint8) fastBits {
	w.acc |= v << (w.n & 63)
	w.n += uint(n)
	return w
}

// flush writes the whole bytes of the accumulator at w.pos in buf.
func (w fastBits) flush(buf []byte) fastBits {
	binary.LittleEndian.PutUint64(buf[w.pos:w.pos+8:w.pos+8], w.acc)
	w.pos += int(w.n >> 3)
	w.acc >>= w.n & 56
	w.n &= 7
	return w
}

// close flushes the bits left, padded with zeros to a byte, and returns
// the number of bytes written.
func (w fastBits) close(buf []byte) int {
	w = w.flush(buf)
	if w.n > 0 {
		w.pos++
	}
	return w.pos
}
