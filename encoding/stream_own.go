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
// A zstd stream that sends a document in pieces (more than streamChunk
// between two flushes) ends its frame and goes on in a new one from the
// library's encoder until it idles; the next write after that ends the
// library's frame and starts another of its own.
//
// Live, it holds the encoder (its window, hash tables and a block's
// buffers, or the library's); released, only the last streamHistory bytes of input and the
// coding's running state, from which the next encoder continues the
// stream.
type ownStream[S any, E streamCoder[S]] struct {
	dst    io.Writer
	header bool // the header went out (or is in the live encoder's bits)

	enc   E
	live  bool       // enc is ours; while released it is the zero E
	pool  *sync.Pool // of E
	start S          // the state a new stream starts with
	state S          // the state kept while released
	hist  []byte     // the history kept while released
	out   []byte     // the encoder's output, dropped on release
	err   error

	// library, when set, gives the library's encoders for documents sent
	// in pieces (zstd: a frame may end and another begin; a brotli stream
	// cannot change hands). lib is the live one; libOpen says its frame
	// has not ended yet, which outlives lib across a release.
	library  libraryStreams
	lib      Writer
	libOpen  bool
	interval int // bytes written since the last Flush; 0: nothing pending
}

// libraryStreams hands out and takes back the library's streaming
// encoders of one coding and level.
type libraryStreams interface {
	get(w io.Writer) (Writer, error)
	put(Writer)
}

var (
	zstdStreamEncoders   = sync.Pool{New: func() any { return ownzstd.NewStreamEncoder() }}
	brotliStreamEncoders = sync.Pool{New: func() any { return ownbrotli.NewStreamEncoder() }}
)

func newZstdStream(w io.Writer, level int) Writer {
	return &ownStream[[3]uint32, *ownzstd.StreamEncoder]{dst: w, pool: &zstdStreamEncoders,
		start: ownzstd.StartRep(), state: ownzstd.StartRep(), library: zstdDocuments{level}}
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
	if s.libOpen && s.lib == nil {
		s.endLibraryFrame()
	}
	s.interval += len(p)
	if s.lib == nil && s.library != nil && s.interval > streamChunk {
		s.toLibrary()
	}
	if s.lib != nil {
		if _, err := s.lib.Write(p); err != nil {
			s.err = err
			return 0, err
		}
		return len(p), nil
	}
	s.acquire()
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

// toLibrary moves a stream that sends a document in pieces to the
// library's encoder: the own encoder's frame ends (its pending input in
// the last block), and the library's begins a new one, which decoders
// read on from (RFC 8878 §3: a body of one or more frames).
func (s *ownStream[S, E]) toLibrary() {
	if s.header {
		s.acquire()
		s.out = s.enc.Close(s.out)
		s.send()
	}
	s.drop()
	s.hist, s.state = s.hist[:0], s.start
	if s.err != nil {
		return
	}
	s.lib, s.err = s.library.get(s.dst)
	s.libOpen, s.header = s.err == nil, true
}

// endLibraryFrame ends the frame of a library encoder given back while the
// stream was idle, with an empty last block (RFC 8878 §3.1.1.2), so that
// the next bytes start a new frame of the own encoder's.
func (s *ownStream[S, E]) endLibraryFrame() {
	s.out = append(s.out[:0], 1, 0, 0) // Last_Block, raw, size 0
	s.send()
	s.libOpen, s.header = false, false
}

// Flush ends a block with what was written since the last one, so that
// the client can decode it all; with nothing written since the last one it
// sends nothing but the header, if that has not gone out yet.
func (s *ownStream[S, E]) Flush() error {
	if s.err != nil || s.header && s.interval == 0 {
		return s.err
	}
	s.interval = 0
	if s.lib != nil {
		s.err = s.lib.Flush()
		return s.err
	}
	s.acquire()
	s.out = s.enc.Flush(s.out)
	s.send()
	return s.err
}

// Close ends the stream.
func (s *ownStream[S, E]) Close() error {
	if s.err != nil {
		return s.err
	}
	switch {
	case s.lib != nil:
		s.err = s.lib.Close()
	case s.libOpen:
		s.out = append(s.out[:0], 1, 0, 0) // the library frame's empty last block
		s.send()
	default:
		s.acquire()
		s.out = s.enc.Close(s.out)
		s.send()
	}
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
	if !s.live && s.lib == nil || s.interval > 0 {
		return
	}
	if s.live {
		s.hist = append(s.hist[:0], s.enc.History(streamHistory)...)
		s.state = s.enc.State()
	}
	s.drop() // a library frame stays open, for the next write to end
	s.out = nil
}

// libraryLive reports whether s holds a live library encoder.
func (s *ownStream[S, E]) libraryLive() bool { return s.lib != nil }

// isLive reports whether s holds a live encoder.
func (s *ownStream[S, E]) isLive() bool { return s.live }

// drop returns the live encoder, own or library, to its pool.
func (s *ownStream[S, E]) drop() {
	if s.live {
		s.pool.Put(s.enc)
		var none E
		s.enc, s.live = none, false
	}
	if s.lib != nil {
		s.library.put(s.lib)
		s.lib = nil
	}
}

// Reset starts a new stream to w.
func (s *ownStream[S, E]) Reset(w io.Writer) {
	s.drop()
	*s = ownStream[S, E]{dst: w, pool: s.pool, start: s.start, state: s.start, hist: s.hist[:0], out: s.out[:0], library: s.library}
}
