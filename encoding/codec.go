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
// streaming Writer pays for. The built-in codecs implement it.
type AppendEncoder interface {
	AppendEncode(dst, src []byte, level int) ([]byte, error)
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
// newWriter when the pool is empty) and appends the output to dst. A gzip
// Writer gets a header comment of pad bytes when pad > 0 (see
// setGzipComment). The Writer goes back to pool Reset(nil).
func encodeWhole(pool *sync.Pool, dst, src []byte, pad int, newWriter func(io.Writer) (Writer, error)) ([]byte, error) {
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
		setGzipComment(wr, pad)
	}
	if _, err := wr.Write(src); err != nil {
		return dst, err
	}
	if err := wr.Close(); err != nil {
		return dst, err
	}
	return sink.b, nil
}
