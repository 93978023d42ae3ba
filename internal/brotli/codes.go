package brotli

import (
	"math/bits"
)

// brCommand is one insert-and-copy command: ins literals, then copy bytes
// from distance back (dcode, its code, and dextra, its extra bits). The last
// command of a body may have only literals (copy 0).
type brCommand struct {
	ins, copy uint32
	dextra    uint32
	sym       uint16 // insert-and-copy symbol
	ic, cc    uint8  // insert and copy length codes
	dcode     uint8  // distance symbol, or noDistance
	dbits     uint8  // extra bits of the distance
	cut       uint8  // of a dictionary word: the bytes its transform omits
}

// Insert and copy length codes (RFC 7932 §5): base length and extra bits.
var (
	brInsBase   = [24]uint32{0, 1, 2, 3, 4, 5, 6, 8, 10, 14, 18, 26, 34, 50, 66, 98, 130, 194, 322, 578, 1090, 2114, 6210, 22594}
	brInsExtra  = [24]uint8{0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 10, 12, 14, 24}
	brCopyBase  = [24]uint32{2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 18, 22, 30, 38, 54, 70, 102, 134, 198, 326, 582, 1094, 2118}
	brCopyExtra = [24]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 10, 24}
	// brCellBase is the first insert-and-copy symbol of the cell of insert
	// codes 8·(i/3)... and copy codes 8·(i%3)... when the command sends its
	// distance (RFC 7932 §5, the table of symbols 128..703).
	brCellBase = [9]uint16{128, 192, 384, 256, 320, 512, 448, 576, 640}
	// brCodeLenOrder is the order code-length code lengths are sent in
	// (RFC 7932 §3.5).
	brCodeLenOrder = [brNumCodeLen]uint8{1, 2, 3, 4, 0, 5, 17, 6, 16, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	// The fixed code of code-length code lengths 0..5 (RFC 7932 §3.5),
	// as LSB-first bits and their count.
	brCLLenBits  = [6]uint8{0, 7, 3, 2, 1, 15}
	brCLLenCount = [6]uint8{2, 4, 3, 2, 2, 4}
)

func brInsertCode(n uint32) uint8 {
	switch {
	case n < 6:
		return uint8(n)
	case n < 130:
		nb := uint32(bits.Len32(n-2)) - 2
		return uint8(nb<<1 + (n-2)>>nb + 2)
	case n < 2114:
		return uint8(bits.Len32(n-66) - 1 + 10)
	case n < 6210:
		return 21
	case n < 22594:
		return 22
	}
	return 23
}

func brCopyCode(n uint32) uint8 {
	switch {
	case n < 10:
		return uint8(n - 2)
	case n < 134:
		nb := uint32(bits.Len32(n-6)) - 2
		return uint8(nb<<1 + (n-6)>>nb + 4)
	case n < 2118:
		return uint8(bits.Len32(n-70) - 1 + 12)
	}
	return 23
}

// brCommandSymbol combines insert code ic and copy code cc into an
// insert-and-copy symbol; lastDistance asks for the cells whose commands
// reuse the last distance without sending it, which only codes below 8 and
// 16 have.
func brCommandSymbol(ic, cc uint8, lastDistance bool) uint16 {
	low := uint16(ic&7)<<3 | uint16(cc&7)
	if lastDistance && ic < 8 && cc < 16 {
		if cc < 8 {
			return low
		}
		return 64 | low
	}
	return brCellBase[3*(ic>>3)+cc>>3] | low
}

// brDistanceCode returns the distance symbol of distance d (at least 1)
// beyond the short codes, and its extra bits: with NPOSTFIX and NDIRECT 0,
// d+3 is (2+bit)<<nbits + extra.
func brDistanceCode(d uint32) (code uint8, extra uint32, nbits uint8) {
	x := d + 3
	nb := uint32(bits.Len32(x)) - 2
	hi := x >> nb & 1
	return uint8(16 + 2*(nb-1) + hi), x - (2+hi)<<nb, uint8(nb)
}
