package encoding

import (
	"io"
	"sync"

	ownbrotli "github.com/squeezehttp/squeeze/internal/brotli"
	ownzstd "github.com/squeezehttp/squeeze/internal/zstd"
)

// streamCoder is what ownStream needs of squeeze's own stream encoders,
// internal/zstd's and internal/brotli's: output appended to a buffer, and a
// stream that another encoder can continue from its history and the
// running state S of the coding (the last offsets or distances).
type streamCoder[S any] interface {
	Header(dst []byte) []byte
	Reset(hist []byte, state S)
	State() S
	History(n int) []byte
	Write(dst, p []byte) []byte
	Flush(dst []byte) []byte
	Close(dst []byte) []byte
}

// ownStream is the stream Writer of Zstd and Brotli: one zstd frame with a
// 32 KiB window or one brotli stream with a 64 KiB one (matches reach
// 32 KiB back), from squeeze's own streaming encoders (greedy matching
// with one byte of lookahead, internal/deflate.StreamMatcher; each Flush a
// block or meta-block), so that a flushed event costs a block of a few
// dozen bytes.
//
// Live, it holds the encoder (its window, hash tables and a block's
// buffers); released, only the last streamHistory bytes of input and the
// coding's running state, from which the next encoder continues the
// stream.
type ownStream[S any, E streamCoder[S]] struct {
	dst    io.Writer
	header bool // the header went out (or is in the live encoder's bits)
	dirty  bool // written since the last Flush

	enc   E
	live  bool       // enc is ours; while released it is the zero E
	pool  *sync.Pool // of E
	start S          // the state a new stream starts with
	state S          // the state kept while released
	hist  []byte     // the history kept while released
	out   []byte     // the encoder's output, dropped on release
	err   error
}

var (
	zstdStreamEncoders   = sync.Pool{New: func() any { return ownzstd.NewStreamEncoder() }}
	brotliStreamEncoders = sync.Pool{New: func() any { return ownbrotli.NewStreamEncoder() }}
)

func newZstdStream(w io.Writer) Writer {
	return &ownStream[[3]uint32, *ownzstd.StreamEncoder]{dst: w, pool: &zstdStreamEncoders, start: ownzstd.StartRep(), state: ownzstd.StartRep()}
}

func newBrotliStream(w io.Writer) Writer {
	d := ownbrotli.StartDistances()
	return &ownStream[[4]uint32, *ownbrotli.StreamEncoder]{dst: w, pool: &brotliStreamEncoders, start: d, state: d}
}

// acquire gives s a live encoder that continues the stream, and the
// stream's header if it has not gone out.
func (s *ownStream[S, E]) acquire() {
	if !s.live {
		s.enc = s.pool.Get().(E)
		s.enc.Reset(s.hist, s.state)
		s.hist, s.live = s.hist[:0], true
	}
	if !s.header {
		s.header = true
		s.out = s.enc.Header(s.out)
	}
}

// send writes out the encoder's output.
func (s *ownStream[S, E]) send() {
	if len(s.out) > 0 && s.err == nil {
		_, s.err = s.dst.Write(s.out)
	}
	s.out = s.out[:0]
}

func (s *ownStream[S, E]) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	s.acquire()
	s.dirty = true
	for rest := p; len(rest) > 0 && s.err == nil; {
		// A piece at a time, so that the output held is at most a block's.
		n := min(len(rest), streamPiece)
		s.out = s.enc.Write(s.out, rest[:n])
		s.send()
		rest = rest[n:]
	}
	if s.err != nil {
		return 0, s.err
	}
	return len(p), nil
}

// streamPiece is how much input ownStream hands its encoder at once: what
// one block of its output can be at most.
const streamPiece = 8 << 10

// Flush ends a block with what was written since the last one, so that
// the client can decode it all; with nothing written since the last one it
// sends nothing but the header, if that has not gone out yet.
func (s *ownStream[S, E]) Flush() error {
	if s.err != nil || s.header && !s.dirty {
		return s.err
	}
	s.acquire()
	s.dirty = false
	s.out = s.enc.Flush(s.out)
	s.send()
	return s.err
}

// Close ends the stream.
func (s *ownStream[S, E]) Close() error {
	if s.err != nil {
		return s.err
	}
	s.acquire()
	s.out = s.enc.Close(s.out)
	s.send()
	s.drop()
	return s.err
}

// Release keeps the last streamHistory bytes of input and the coding's
// state and gives the encoder back; it does nothing with input pending.
// After a write error it drops everything.
func (s *ownStream[S, E]) Release() {
	if s.err != nil {
		// The stream can send nothing more: no state is worth keeping.
		s.drop()
		s.out, s.hist = nil, nil
		return
	}
	if !s.live || s.dirty {
		return
	}
	s.hist = append(s.hist[:0], s.enc.History(streamHistory)...)
	s.state = s.enc.State()
	s.drop()
	s.out = nil
}

// isLive reports whether s holds a live encoder.
func (s *ownStream[S, E]) isLive() bool { return s.live }

// drop returns the live encoder to the pool.
func (s *ownStream[S, E]) drop() {
	if s.live {
		s.pool.Put(s.enc)
		var none E
		s.enc, s.live = none, false
	}
}

// Reset starts a new stream to w.
func (s *ownStream[S, E]) Reset(w io.Writer) {
	s.drop()
	*s = ownStream[S, E]{dst: w, pool: s.pool, start: s.start, state: s.start, hist: s.hist[:0], out: s.out[:0]}
}
