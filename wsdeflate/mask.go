package wsdeflate

import "encoding/binary"

// mask XORs b with the 4-byte masking key, starting pos bytes into the
// key's cycle, and returns the position after b (RFC 6455 §5.3). Once at
// the start of the key it XORs eight bytes at a time.
func mask(key [4]byte, pos int, b []byte) int {
	pos &= 3
	for pos != 0 && len(b) > 0 {
		b[0] ^= key[pos]
		b = b[1:]
		pos = (pos + 1) & 3
	}
	if len(b) >= 8 {
		k := binary.LittleEndian.Uint32(key[:])
		k64 := uint64(k) | uint64(k)<<32
		for len(b) >= 8 {
			v := binary.LittleEndian.Uint64(b)
			binary.LittleEndian.PutUint64(b, v^k64)
			b = b[8:]
		}
	}
	for i := range b {
		b[i] ^= key[(pos+i)&3]
	}
	return (pos + len(b)) & 3
}
