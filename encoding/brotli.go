package encoding

import (
	"fmt"
	"io"
	"math/bits"
	"sync"

	"github.com/andybalholm/brotli"
)

// Brotli window sizes, as log2 of bytes. RFC 7932 §9.1 allows 10..24 (16 MB
// less 16 bytes); streams use brotli's own default of 22 (4 MB), well inside
// the 16 MB that browsers accept.
const (
	brotliMinWindow    = 10
	brotliStreamWindow = 22
	brotliMaxWindow    = 24
)

// brotliCodec is the built-in brotli: andybalholm/brotli.
type brotliCodec struct {
	// whole pools the writers of one-shot encodes by quality and window,
	// the window sized to the body: a writer's hash table is chosen at its
	// first use, so a pool must not mix windows.
	whole [brotli.BestCompression + 1][brotliMaxWindow + 1]sync.Pool
}

var brotliBuiltin = new(brotliCodec)

// Brotli returns the brotli codec (RFC 7932, token "br"), built on
// github.com/andybalholm/brotli. Levels are brotli's qualities 1..11,
// default 4. A pooled streaming encoder keeps about ? KB at quality 4 after a
// long stream (BenchmarkRetainedMemory): its window is 4 MB. Bodies known
// whole are encoded with a window no larger than the body, which the client
// then needs no more memory than that for.
func Brotli() Codec { return brotliBuiltin }

func (*brotliCodec) Name() string { return "br" }

func (*brotliCodec) Levels() (min, max, def int) { return 1, brotli.BestCompression, 4 }

func (*brotliCodec) NewWriter(w io.Writer, level int) (Writer, error) {
	if level < 0 || level > brotli.BestCompression {
		return nil, fmt.Errorf("encoding: br: quality %d outside 0..%d", level, brotli.BestCompression)
	}
	return brotli.NewWriterOptions(w, brotli.WriterOptions{Quality: level, LGWin: brotliStreamWindow}), nil
}

// AppendEncode encodes src as one brotli stream appended to dst, with a
// window just large enough for src.
func (c *brotliCodec) AppendEncode(dst, src []byte, level int) ([]byte, error) {
	if level < 0 || level > brotli.BestCompression {
		return dst, fmt.Errorf("encoding: br: quality %d outside 0..%d", level, brotli.BestCompression)
	}
	lgwin := brotliWindowFor(len(src))
	pool := &c.whole[level][lgwin]
	wr, _ := pool.Get().(*brotli.Writer)
	sink := sinkPool.Get().(*sliceWriter)
	sink.b = dst
	if wr == nil {
		wr = brotli.NewWriterOptions(sink, brotli.WriterOptions{Quality: level, LGWin: lgwin})
	} else {
		wr.Reset(sink)
	}
	_, err := wr.Write(src)
	if err == nil {
		err = wr.Close()
	}
	out := sink.b
	wr.Reset(nil)
	pool.Put(wr)
	sink.b = nil
	sinkPool.Put(sink)
	if err != nil {
		return dst, fmt.Errorf("encoding: br: %w", err)
	}
	return out, nil
}

// brotliWindowFor returns the log2 window for a body of n bytes: the
// smallest that holds it, within what the format allows.
func brotliWindowFor(n int) int {
	// RFC 7932 §9.1: a window of 2^lgwin holds 2^lgwin-16 bytes.
	return min(max(bits.Len(uint(n+15)), brotliMinWindow), brotliMaxWindow)
}
