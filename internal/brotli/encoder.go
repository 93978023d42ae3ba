package brotli

import (
	"math/bits"

	"github.com/squeezehttp/squeeze/internal/deflate"
)

// Encoder compresses one body known whole into a complete brotli
// stream (RFC 7932) of one meta-block, or of one uncompressed meta-block
// when that is smaller. It finds matches as deflate.WholeEncoder does; between
// them, it sends repeats of the last distance and words of the static
// dictionary (whole, or with up to 9 bytes cut from their end) in place of
// literals where that is shorter; and it codes it all with brotli's
// simplest meta-block layout: one block type and one prefix code per
// category (literals, insert-and-copy commands, distances), no context
// modelling. Literal counts are smoothed before their code is built, so
// that the code's description run-length codes well. A match whose bytes
// also repeat at the last distance takes that distance; repeats of the four
// last distances take brotli's short distance codes, and a command whose
// copy reuses the last distance carries no distance at all where its
// lengths allow (an insert below 10 bytes, a copy below 70).
//
// It is made for small HTTP responses. On the small cuts of the
// benchmark corpus's JSON, CSS and JavaScript its output is a little smaller
// than andybalholm/brotli's at quality 4, for a fraction of the work
// (encoding's TestOwnSmallBodyEncoderSizes and BenchmarkBrotliEncoder
// measure both). Its window
// is the smallest that holds the body (1 KB at least, under twice the
// body's length above that), so a decoder needs little more memory than
// the body.
//
// An Encoder is not safe for concurrent use; the zero value is ready
// to use. The first use of any Encoder builds an index of the
// dictionary, shared by all and kept for the life of the program.
type Encoder struct {
	m deflate.WholeEncoder // the match finder, its tables reused across bodies
	metaCoder
}

// metaCoder builds and writes one compressed meta-block's commands and
// prefix codes: what the whole-body Encoder and the StreamEncoder share.
type metaCoder struct {
	// The meta-block's commands, their symbol counts and extra bits.
	cmds  []brCommand
	cmd   [brNumCommands]uint32
	dist  [brNumDistances]uint32
	extra int
	// The last four distances, the last at rb[(ri-1)&3].
	rb [4]uint32
	ri uint32
	// The three prefix codes, the code-length code that describes each,
	// and scratch space for smoothing counts.
	lit, ins, dst brTree
	codeLen       deflate.HuffCode
	smooth        [brNumCommands]uint32
	rle           []uint16 // one code's run-length coded lengths: symbol<<8 | extra
	hb            deflate.HuffBuilder
	bw            deflate.BitWriter
}

// Alphabet sizes (RFC 7932 §3.3), with distances for NPOSTFIX = 0,
// NDIRECT = 0: 16 short codes and 48 of the form 16 + 2·(nbits-1) + bit.
const (
	brNumLiterals  = 256
	brNumCommands  = 704
	brNumDistances = 64
	brNumCodeLen   = 18
	brMaxCodeLen   = 15
	brMaxCLCodeLen = 5
	// MaxBody is the longest body one Encoder stream holds:
	// the largest window, 2^24 bytes less 16 (RFC 7932 §9.1).
	MaxBody    = 1<<24 - 16
	noDistance = 0xff // brCommand.dcode of a command that sends no distance
)

// brWindowBits is the smallest window, as log2 of bytes, that holds n bytes
// (RFC 7932 §9.1: 2^w-16 bytes, w from 10 to 24).
func brWindowBits(n int) uint8 {
	return uint8(min(max(bits.Len(uint(n+15)), 10), 24))
}

// Append compresses src, at most MaxBody bytes, and appends the
// brotli stream to dst. src must not overlap dst's spare capacity.
func (e *Encoder) Append(dst, src []byte) []byte {
	if len(src) > MaxBody {
		panic("deflate: Encoder body longer than MaxBody")
	}
	e.bw = deflate.BitWriter{Buf: dst}
	defer func() { e.bw.Buf = nil }() // dst belongs to the caller
	if len(src) == 0 {
		// The smallest window, then ISLAST and ISLASTEMPTY.
		e.writeWindow(brWindowBits(0))
		e.bw.WriteBits(0b11, 2)
		e.bw.Align()
		return e.bw.Buf
	}
	m := &e.m
	m.Reset(len(src))
	m.Match(src, deflate.ChainedLevel)
	e.commands(src)
	return e.finish(src)
}

// finish writes the stream of src, whose commands are in e.cmds and counted
// (see count), to e.bw.
func (e *Encoder) finish(src []byte) []byte {
	if e.codeLen.Len == nil {
		e.lit.code = deflate.NewHuffCode(brNumLiterals)
		e.ins.code = deflate.NewHuffCode(brNumCommands)
		e.dst.code = deflate.NewHuffCode(brNumDistances)
		e.codeLen = deflate.NewHuffCode(brNumCodeLen)
	}
	e.writeWindow(brWindowBits(len(src)))
	// Smoothing literal counts saves a little output on the small corpus
	// bodies for a little more time. On commands it would save as much
	// again for over twice that time (their codes would cover many more symbols),
	// and on the few distance symbols it rarely pays.
	compressed := e.extra + e.code(&e.lit, e.m.Stats.Lit[:brNumLiterals], 8, true) +
		e.code(&e.ins, e.cmd[:], 10, false) + e.code(&e.dst, e.dist[:], 6, false)
	// Past what both share (WBITS, ISLAST, MNIBBLES, MLEN), the compressed
	// meta-block takes ISLASTEMPTY, 13 bits of header and compressed bits;
	// the uncompressed one ISUNCOMPRESSED, at most 7 bits of padding, the
	// bytes, and the empty last meta-block (2 bits and padding).
	if 8*len(src)+16 < compressed+13 {
		e.writeMetaBlockHeader(len(src), false)
		e.bw.WriteBits(1, 1) // ISUNCOMPRESSED
		e.bw.Align()
		e.bw.Buf = append(e.bw.Buf, src...)
		e.bw.WriteBits(0b11, 2) // ISLAST, ISLASTEMPTY
		e.bw.Align()
		return e.bw.Buf
	}
	e.writeMetaBlockHeader(len(src), true)
	// One block type of literals, commands and distances (1 bit each),
	// NPOSTFIX and NDIRECT 0 (2 + 4 bits), the literal context mode
	// (2 bits), one literal and one distance prefix code (1 bit each).
	e.bw.WriteBits(0, 13)
	for _, t := range []*brTree{&e.lit, &e.ins, &e.dst} {
		for i, v := range t.header {
			e.bw.WriteBits(v, uint8(min(32, t.bits-32*i)))
		}
	}
	e.writeCommands(src)
	e.bw.Align()
	return e.bw.Buf
}

// writeWindow writes WBITS (RFC 7932 §9.1).
func (e *metaCoder) writeWindow(w uint8) {
	switch {
	case w == 16:
		e.bw.WriteBits(0, 1)
	case w >= 18:
		e.bw.WriteBits(uint32(w-17)<<1|1, 4)
	case w == 17:
		e.bw.WriteBits(1, 7)
	default:
		e.bw.WriteBits(uint32(w-8)<<4|1, 7)
	}
}

// writeMetaBlockHeader writes ISLAST, ISLASTEMPTY when last, MNIBBLES and
// MLEN-1 for a meta-block of n bytes (RFC 7932 §9.2); an uncompressed
// meta-block is never the last.
func (e *metaCoder) writeMetaBlockHeader(n int, last bool) {
	nibbles := uint8(4)
	for n-1 >= 1<<(4*nibbles) {
		nibbles++
	}
	if last {
		e.bw.WriteBits(1, 2) // ISLAST, not ISLASTEMPTY
	} else {
		e.bw.WriteBits(0, 1)
	}
	e.bw.WriteBits(uint32(nibbles-4), 2)
	e.bw.WriteBits(uint32(n-1), 4*nibbles)
}
