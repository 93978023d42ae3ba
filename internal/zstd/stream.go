package zstd

import (
	"github.com/squeezehttp/squeeze/internal/deflate"
)

// StreamEncoder compresses a stream written and flushed piece by piece
// (server-sent events, a streamed answer) into one zstd frame of as many
// blocks as it takes: each Flush ends a block, so the decoder can hand out
// everything written so far. Its state is bounded whatever the stream's
// length: deflate.StreamMatcher's window and tables, and the block coder's
// buffers, which grow to at most a block's worth (blocks of 8 KiB). Each
// block is coded as the whole-body Encoder codes its single block, and the
// last three offsets carry over from block to block, as in the decoder.
//
// A stream can be continued by another StreamEncoder, or the same one after
// other streams, from what History and State return: the next block refers
// back into that history. A StreamEncoder is not safe for concurrent use;
// make it with NewStreamEncoder.
type StreamEncoder struct {
	blockCoder
	m *deflate.StreamMatcher
}

const (
	// StreamWindow is the frame's window (its Window_Descriptor): the
	// farthest a match reaches back.
	StreamWindow = 32 << 10
	// streamBlock is the most input one block holds, within the block
	// size limit, the smaller of the window and 128 KiB (RFC 8878
	// §3.1.1.2.4): the block coder's buffers follow it, and a block of
	// 8 KiB is within a few bytes of a larger one.
	streamBlock = 8 << 10
)

// NewStreamEncoder returns a StreamEncoder, ready for Reset.
func NewStreamEncoder() *StreamEncoder {
	return &StreamEncoder{m: deflate.NewStreamMatcher(StreamWindow, streamBlock)}
}

// Header appends the header of a stream's frame: no content size, no
// checksum, a window of StreamWindow (RFC 8878 §3.1.1.1).
func (*StreamEncoder) Header(dst []byte) []byte {
	// Frame_Header_Descriptor 0; Window_Descriptor: exponent 5, 32 KiB.
	return append(dst, 0x28, 0xb5, 0x2f, 0xfd, 0, 5<<3)
}

// Reset starts to continue a stream whose last input is hist (only the
// last StreamWindow bytes count) and whose decoder holds the last offsets
// rep (StartRep's for a new frame).
func (e *StreamEncoder) Reset(hist []byte, rep [3]uint32) {
	e.m.Reset(hist)
	e.rep = rep
}

// StartRep returns the last offsets a frame starts with, for Reset.
func StartRep() [3]uint32 { return zstdStartRep }

// State returns the last three offsets, as the decoder holds them after
// the blocks written so far: what Reset needs to continue the frame.
func (e *StreamEncoder) State() [3]uint32 { return e.rep }

// History returns the input compressed so far that a match may still
// reach, up to n bytes, the most recent last. It is valid until the next
// Write.
func (e *StreamEncoder) History(n int) []byte { return e.m.History(n) }

// Pending reports whether input written is not yet in a block.
func (e *StreamEncoder) Pending() bool { return len(e.m.Pending()) > 0 }

// Write takes p as input, appending to dst the blocks that fill.
func (e *StreamEncoder) Write(dst, p []byte) []byte {
	for len(p) > 0 {
		var full bool
		if p, full = e.m.Append(p); full {
			dst = e.block(dst, false)
		}
	}
	return dst
}

// Flush appends a block of the pending input, if any, to dst.
func (e *StreamEncoder) Flush(dst []byte) []byte {
	if !e.Pending() {
		return dst
	}
	return e.block(dst, false)
}

// Close appends the frame's last block to dst: the pending input, or an
// empty raw block.
func (e *StreamEncoder) Close(dst []byte) []byte {
	if !e.Pending() {
		return append(dst, 1, 0, 0) // Last_Block, raw, size 0
	}
	return e.block(dst, true)
}

// block appends the pending input as one block, the frame's last when
// last.
func (e *StreamEncoder) block(dst []byte, last bool) []byte {
	src := e.m.Pending()
	e.seqs = e.seqs[:0]
	e.m.Match(int(e.rep[0]), func(lits, length, dist int) {
		e.seqs = append(e.seqs, lzSeq{lits: uint32(lits), length: uint32(length), dist: uint32(dist)})
	})
	e.gatherLiterals(src)
	return e.appendBlock(dst, src, last)
}
