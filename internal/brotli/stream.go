package brotli

import (
	"github.com/squeezehttp/squeeze/internal/deflate"
)

// StreamEncoder compresses a stream written and flushed piece by piece
// (server-sent events, a streamed answer) into one brotli stream (RFC
// 7932): each Flush writes a meta-block of what was written since the last
// one, then an empty metadata meta-block that brings the output to a byte
// boundary, so the decoder can hand out everything written so far. Its
// state is bounded whatever the stream's length: deflate.StreamMatcher's
// window and table, and the meta-block's commands and codes. The commands
// are coded as the whole-body Encoder codes its meta-block, less the
// static dictionary: one block type and one prefix code per category. The
// last four distances carry over from meta-block to meta-block, as in the
// decoder.
//
// A stream can be continued by another StreamEncoder, or the same one after
// other streams, from what History and State return. A StreamEncoder
// is not safe for concurrent use; make it with NewStreamEncoder.
type StreamEncoder struct {
	metaCoder
	m    *deflate.StreamMatcher
	lits [brNumLiterals]uint32 // the meta-block's literal counts
}

const (
	// StreamWindowBits is the stream's window (WBITS, RFC 7932 §9.1):
	// 64 KiB, more than a match reaches back (streamWindow).
	StreamWindowBits = 16
	streamWindow     = 32 << 10
	// streamBlock is the most input one meta-block holds: the coder's
	// buffers follow it, and a meta-block of 8 KiB is within a few bytes
	// of a larger one.
	streamBlock = 8 << 10
)

// NewStreamEncoder returns a StreamEncoder, ready for Reset.
func NewStreamEncoder() *StreamEncoder {
	return &StreamEncoder{m: deflate.NewStreamMatcher(streamWindow, streamBlock)}
}

// StartDistances returns the last distances a stream starts with (RFC
// 7932 §4), for Reset.
func StartDistances() [4]uint32 { return [4]uint32{4, 11, 15, 16} }

// Reset starts to continue a stream whose last input is hist and whose
// decoder holds the last distances d, the last one first
// (StartDistances' for a new stream, whose header Header writes).
func (e *StreamEncoder) Reset(hist []byte, d [4]uint32) {
	e.m.Reset(hist)
	e.bw = deflate.BitWriter{}
	// rb holds them oldest first, the last at rb[(ri-1)&3].
	e.rb, e.ri = [4]uint32{d[3], d[2], d[1], d[0]}, 0
}

// State returns the last four distances, the last one first, as the
// decoder holds them after the meta-blocks written so far: what Reset
// needs to continue the stream.
func (e *StreamEncoder) State() [4]uint32 {
	r := &e.rb
	return [4]uint32{r[(e.ri-1)&3], r[(e.ri-2)&3], r[(e.ri-3)&3], r[e.ri&3]}
}

// History returns the input compressed so far that a match may still
// reach, up to n bytes, the most recent last. It is valid until the next
// Write.
func (e *StreamEncoder) History(n int) []byte { return e.m.History(n) }

// Pending reports whether input written is not yet in a meta-block.
func (e *StreamEncoder) Pending() bool { return len(e.m.Pending()) > 0 }

// Header appends the stream header, WBITS, to dst: the first bits of the
// first meta-block's byte, so it is written by the next Flush or Close.
func (e *StreamEncoder) Header(dst []byte) []byte {
	e.bw = deflate.BitWriter{Buf: dst}
	e.writeWindow(StreamWindowBits)
	dst, e.bw.Buf = e.bw.Buf, nil
	return dst
}

// Write takes p as input, appending to dst the meta-blocks that fill.
func (e *StreamEncoder) Write(dst, p []byte) []byte {
	for len(p) > 0 {
		var full bool
		if p, full = e.m.Append(p); full {
			dst = e.metaBlock(dst)
		}
	}
	return dst
}

// Flush appends a meta-block of the pending input, if any, and an empty
// metadata meta-block that ends the output on a byte boundary.
func (e *StreamEncoder) Flush(dst []byte) []byte {
	if e.Pending() {
		dst = e.metaBlock(dst)
	}
	e.bw.Buf = dst
	// ISLAST 0, MNIBBLES 0 (code 3), the reserved bit, MSKIPBYTES 0.
	e.bw.WriteBits(0b000110, 6)
	e.bw.Align()
	dst, e.bw.Buf = e.bw.Buf, nil
	return dst
}

// Close appends a meta-block of the pending input, if any, and the last,
// empty meta-block that ends the stream.
func (e *StreamEncoder) Close(dst []byte) []byte {
	if e.Pending() {
		dst = e.metaBlock(dst)
	}
	e.bw.Buf = dst
	e.bw.WriteBits(0b11, 2) // ISLAST, ISLASTEMPTY
	e.bw.Align()
	dst, e.bw.Buf = e.bw.Buf, nil
	return dst
}

// metaBlock appends the pending input as one meta-block that is not the
// last, compressed or, when that is smaller, uncompressed. Its bits follow
// those already in e.bw (the header, or nothing after a Flush).
func (e *StreamEncoder) metaBlock(dst []byte) []byte {
	src := e.m.Pending()
	rb, ri := e.rb, e.ri
	e.cmds = e.cmds[:0]
	clear(e.cmd[:])
	clear(e.dist[:])
	clear(e.lits[:])
	e.extra = 0
	pos := 0
	e.m.Match(int(e.rb[(e.ri-1)&3]), func(lits, length, dist int) {
		for _, b := range src[pos : pos+lits] {
			e.lits[b]++
		}
		e.copyCommand(uint32(lits), uint32(length), uint32(dist))
		pos += lits + length
	})
	if ins := uint32(len(src) - pos); ins > 0 {
		for _, b := range src[pos:] {
			e.lits[b]++
		}
		// The meta-block ends inside this command's literals, so the
		// decoder reads no copy and no distance.
		c := e.push()
		c.ins, c.ic, c.dcode = ins, brInsertCode(ins), noDistance
		c.sym = brCommandSymbol(c.ic, 0, true)
		e.count(c)
	}
	if e.codeLen.Len == nil {
		e.lit.code = deflate.NewHuffCode(brNumLiterals)
		e.ins.code = deflate.NewHuffCode(brNumCommands)
		e.dst.code = deflate.NewHuffCode(brNumDistances)
		e.codeLen = deflate.NewHuffCode(brNumCodeLen)
	}
	compressed := e.extra + e.code(&e.lit, e.lits[:], 8, true) +
		e.code(&e.ins, e.cmd[:], 10, false) + e.code(&e.dst, e.dist[:], 6, false)
	e.bw.Buf = dst
	e.writeMetaBlockHeader(len(src), false)
	// Both take ISUNCOMPRESSED; the uncompressed one at most 7 bits of
	// padding and the bytes, the compressed one 13 bits of header and the
	// compressed bits.
	if 8*len(src)+7 < compressed+13 {
		// An uncompressed meta-block leaves the decoder's distances as
		// they were.
		e.rb, e.ri = rb, ri
		e.bw.WriteBits(1, 1) // ISUNCOMPRESSED
		e.bw.Align()
		e.bw.Buf = append(e.bw.Buf, src...)
	} else {
		// ISUNCOMPRESSED 0, then as the whole-body Encoder: one block type
		// per category, NPOSTFIX and NDIRECT 0, the literal context mode,
		// one literal and one distance prefix code.
		e.bw.WriteBits(0, 1+13)
		for _, t := range []*brTree{&e.lit, &e.ins, &e.dst} {
			for i, v := range t.header {
				e.bw.WriteBits(v, uint8(min(32, t.bits-32*i)))
			}
		}
		e.writeCommands(src)
	}
	dst, e.bw.Buf = e.bw.Buf, nil
	return dst
}
