package encoding

import (
	"fmt"
	"io"
	"sync"
)

// Codec is one content-coding implementation. The middleware knows codings
// only through this interface, so another implementation (a cgo brotli, say)
// can be plugged in without touching the handler.
type Codec interface {
	// Name returns the content-coding token, in lower case: "zstd", "br",
	// "gzip", "deflate".
	Name() string
	// Levels returns the range of levels NewWriter accepts and the level
	// used when none is given.
	Levels() (min, max, def int)
	// NewWriter returns a streaming encoder writing to w at the given level,
	// which is within Levels. The middleware pools what it returns.
	NewWriter(w io.Writer, level int) (Writer, error)
}

// Writer is a resettable streaming encoder.
type Writer interface {
	io.WriteCloser
	// Flush emits everything written so far as decodable output (a sync
	// flush), so that a stream such as Server-Sent Events reaches the client
	// event by event.
	Flush() error
	// Reset makes the Writer start a new stream to w. Reset(nil), done
	// before the Writer goes back to a pool, must drop the reference to the
	// previous destination.
	Reset(w io.Writer)
}

// AppendEncoder is an optional interface of a Codec for bodies known whole:
// one call encodes src and appends the result to dst, without the setup a
// streaming Writer pays for. The built-in codecs implement it; a Codec
// that wraps one keeps the path by forwarding AppendEncode, since the
// middleware finds it by type assertion alone, for every Codec alike.
type AppendEncoder interface {
	AppendEncode(dst, src []byte, level int) ([]byte, error)
}

// Padder is an optional interface of a Codec whose streams can carry bytes
// that every decoder of the coding skips: the length-hiding padding of
// Config.Jitter, which New refuses to configure for a Codec without it. The
// built-in codecs implement it (and AppendPadder); a Codec that wraps one
// must forward both to keep them.
type Padder interface {
	// Pad gives the stream that wr, one of this codec's Writers, is about
	// to write to dst padding for n, 1 <= n <= 65536: wr has just been made
	// by NewWriter(dst) or Reset(dst), and nothing has been written to it.
	// Pad may write to dst itself, and may call wr's methods. How many
	// bytes n adds is the codec's to document, as long as each n adds a
	// different number.
	Pad(wr Writer, dst io.Writer, n int) error
}

// AppendPadder is the one-shot counterpart of Padder, for a Codec that is
// also an AppendEncoder: AppendEncodePadded is AppendEncode with the padding
// that Pad gives for n. A Padder without it pads bodies known whole through
// a streaming Writer.
type AppendPadder interface {
	AppendEncodePadded(dst, src []byte, level, n int) ([]byte, error)
}

// maxPad is the largest padding a Codec is asked for, and so the largest
// Config.Jitter: enough to hide a length among 65536, and little enough
// to keep in the buffers of a response.
const maxPad = 64 << 10

// checkPad reports an n outside 1..maxPad as an error naming coding.
func checkPad(coding string, n int) error {
	if n < 1 || n > maxPad {
		return fmt.Errorf("encoding: %s: padding %d outside 1..%d", coding, n, maxPad)
	}
	return nil
}

// checkLevel resolves level 0 to c's default and reports a level outside
// c's range as an error naming the coding.
func checkLevel(c Codec, level int) (int, error) {
	lo, hi, def := c.Levels()
	if level == 0 {
		return def, nil
	}
	if level < lo || level > hi {
		return 0, fmt.Errorf("encoding: %s level %d outside %d..%d", c.Name(), level, lo, hi)
	}
	return level, nil
}

// sliceWriter is an io.Writer appending to a byte slice, the destination of
// a streaming Writer used for a one-shot encode.
type sliceWriter struct{ b []byte }

func (s *sliceWriter) Write(p []byte) (int, error) {
	s.b = append(s.b, p...)
	return len(p), nil
}

// sinkPool recycles the destinations of one-shot encodes done through a
// streaming Writer, so that they cost no allocation.
var sinkPool = sync.Pool{New: func() any { return new(sliceWriter) }}

// encodeWhole encodes src through a Writer taken from pool (or made by
// newWriter when the pool is empty) and appends the output to dst, padded
// by padder for pad when pad > 0. The Writer goes back to pool Reset(nil).
func encodeWhole(pool *sync.Pool, dst, src []byte, padder Padder, pad int, newWriter func(io.Writer) (Writer, error)) ([]byte, error) {
	sink := sinkPool.Get().(*sliceWriter)
	sink.b = dst
	defer func() {
		sink.b = nil
		sinkPool.Put(sink)
	}()
	wr, _ := pool.Get().(Writer)
	if wr == nil {
		var err error
		if wr, err = newWriter(sink); err != nil {
			return dst, err
		}
	} else {
		wr.Reset(sink)
	}
	defer func() {
		wr.Reset(nil)
		pool.Put(wr)
	}()
	if pad > 0 {
		if err := padder.Pad(wr, sink, pad); err != nil {
			return dst, err
		}
	}
	if _, err := wr.Write(src); err != nil {
		return dst, err
	}
	if err := wr.Close(); err != nil {
		return dst, err
	}
	return sink.b, nil
}
