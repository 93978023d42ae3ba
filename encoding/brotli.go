package encoding

import (
	"fmt"
	"io"
	"math/bits"
	"sync"

	"github.com/andybalholm/brotli"
)

// Brotli window sizes, as log2 of bytes. RFC 7932 §9.1 allows 10..24 (16 MB
// less 16 bytes), all of which browsers accept. Streams use 1 MB rather than
// brotli's default 4 MB: a pooled encoder's memory follows its window, so it
// then keeps about half as much (BenchmarkRetainedMemory measures it), and
// streams are the bodies too long to buffer, where matches more than 1 MB
// back are rare.
const (
	brotliMinWindow    = 10
	brotliStreamWindow = 20
	brotliMaxWindow    = 24
)

// brotliCodec is the built-in brotli: andybalholm/brotli.
type brotliCodec struct {
	// whole pools the writers of one-shot encodes by quality and window,
	// the window sized to the body: a writer's hash table is chosen at its
	// first use, so a pool must not mix windows.
	whole [brotli.BestCompression + 1][brotliMaxWindow + 1]sync.Pool
	// library sends every body to andybalholm/brotli (see
	// LibraryEncoders).
	library bool
}

var brotliBuiltin = new(brotliCodec)

// Brotli returns the brotli codec (RFC 7932, token "br"), built on
// github.com/andybalholm/brotli. Levels are brotli's qualities 1..11,
// default 4. A response that flushes before it outgrows the buffer, at
// qualities up to 4, streams through squeeze's own encoder
// (NewStreamWriter). Otherwise a pooled streaming encoder keeps its 1 MB
// window and the hash
// tables of its quality, several megabytes at quality 4, between responses
// (BenchmarkRetainedMemory measures it). Bodies
// known whole are encoded with a window just large enough for the body
// (1 KB at least), so the client's decoder needs no more than that either;
// their writers are pooled per quality and window.
// Small bodies known whole go to squeeze's own encoder at the qualities and
// sizes where it keeps the level's promise (see Coding.Level and
// docs/levels.md); LibraryEncoders(Brotli()) sends every body to
// andybalholm/brotli.
func Brotli() Codec { return brotliBuiltin }

func (*brotliCodec) Name() string { return "br" }

func (*brotliCodec) Levels() (min, max, def int) { return 1, brotli.BestCompression, 4 }

func (*brotliCodec) NewWriter(w io.Writer, level int) (Writer, error) {
	if level < 0 || level > brotli.BestCompression {
		return nil, fmt.Errorf("encoding: br: quality %d outside 0..%d", level, brotli.BestCompression)
	}
	return brotli.NewWriterOptions(w, brotli.WriterOptions{Quality: level, LGWin: brotliStreamWindow}), nil
}

// NewStreamWriter returns, at qualities up to the default (4), the Writer
// of a flushed stream: squeeze's own streaming encoder; a stream through
// it keeps at most 256 KiB live and 64 KiB released, the response
// included (see Streamer). Higher qualities are left to NewWriter, and so
// is every quality with LibraryEncoders.
func (c *brotliCodec) NewStreamWriter(w io.Writer, level int) (Writer, error) {
	if level < 0 || level > brotli.BestCompression {
		return nil, fmt.Errorf("encoding: br: quality %d outside 0..%d", level, brotli.BestCompression)
	}
	if level > defaultBrotliLevel || c.library {
		return nil, nil
	}
	return newBrotliStream(w), nil
}

// AppendEncode encodes src as one brotli stream appended to dst: with
// squeeze's own encoder where the rule of own.go has it serve the quality
// and size, else with a window just large enough for src, with an
// andybalholm/brotli writer pooled for one-shot use at that quality and
// window. src must not overlap dst's spare capacity.
func (c *brotliCodec) AppendEncode(dst, src []byte, level int) ([]byte, error) {
	if level < 0 || level > brotli.BestCompression {
		return dst, fmt.Errorf("encoding: br: quality %d outside 0..%d", level, brotli.BestCompression)
	}
	if !c.library && ownBrotli(level, len(src)) {
		return appendOwnBrotli(dst, src), nil
	}
	return c.appendStream(dst, src, level, 0)
}

// appendStream encodes src whole with an andybalholm/brotli writer pooled
// for one-shot use at quality and the window src needs, padded for pad when
// pad > 0.
func (c *brotliCodec) appendStream(dst, src []byte, quality, pad int) ([]byte, error) {
	lgwin := brotliWindowFor(len(src), quality)
	out, err := encodeWhole(&c.whole[quality][lgwin], dst, src, c, pad, func(w io.Writer) (Writer, error) {
		return brotli.NewWriterOptions(w, brotli.WriterOptions{Quality: quality, LGWin: lgwin}), nil
	})
	if err != nil {
		return dst, fmt.Errorf("encoding: br: %w", err)
	}
	return out, nil
}

// Pad gives the stream wr starts metadata meta-blocks of n bytes in all
// (RFC 7932 §9.2), which decoders skip. The stream header before them is
// not byte aligned, and metadata must start at a byte: a flush with
// nothing written sends the header and an empty metadata meta-block that
// aligns it, after which the padding goes to dst between meta-blocks.
func (*brotliCodec) Pad(wr Writer, dst io.Writer, n int) error {
	if err := checkPad("br", n); err != nil {
		return err
	}
	if err := wr.Flush(); err != nil {
		return fmt.Errorf("encoding: br: %w", err)
	}
	return writePadding(dst, n, appendBrotliMetadata)
}

// AppendEncodePadded is AppendEncode with the padding Pad gives for n. The
// own encoder writes its stream in one piece, with no byte boundary after
// the stream header, so padded bodies go to andybalholm/brotli.
func (c *brotliCodec) AppendEncodePadded(dst, src []byte, level, n int) ([]byte, error) {
	if level < 0 || level > brotli.BestCompression {
		return dst, fmt.Errorf("encoding: br: quality %d outside 0..%d", level, brotli.BestCompression)
	}
	if err := checkPad("br", n); err != nil {
		return dst, err
	}
	return c.appendStream(dst, src, level, n)
}

// brotliWindowFor returns the log2 window for a body of n bytes at quality:
// the smallest that holds it, within what the format allows. From quality 5
// a window under 128 KB would make brotli switch to its forgetful-chain
// hashers, slower on small bodies for the same output size, so those
// qualities get 128 KB at least.
func brotliWindowFor(n, quality int) int {
	least := brotliMinWindow
	if quality >= 5 {
		least = 17
	}
	// RFC 7932 §9.1: a window of 2^lgwin holds 2^lgwin-16 bytes.
	return min(max(bits.Len(uint(n+15)), least), brotliMaxWindow)
}
