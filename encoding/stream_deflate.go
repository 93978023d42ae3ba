package encoding

import (
	"encoding/binary"
	"hash/crc32"
	"io"
	"sync"

	"github.com/klauspost/compress/flate"
	"github.com/squeezehttp/squeeze/internal/deflate"
)

// deflateStream is the stream Writer of Gzip and Deflate: one gzip member
// (or zlib stream) whose DEFLATE data comes from squeeze's own streaming
// encoder, wsdeflate's level 1 (greedy matching, a 32 KiB window, Huffman
// codes reused from block to block while they still fit). A flushed event
// of a few hundred bytes costs a block of a few dozen, where a
// general-purpose encoder builds new codes, or stores, each time. When
// more than streamChunk bytes come between two flushes, the stream is
// sending a document in pieces, not events: from there the member goes on
// with klauspost's encoder at the level asked for, seeded with the window,
// until the stream next idles, as a download would.
//
// Live, it holds its encoder (the own one's window, table and block
// buffers, or klauspost's); released, only the last streamHistory bytes of
// input, the Huffman codes the own encoder reuses and the running
// checksum. The member never ends before Close: Chromium decodes only the
// first gzip member of a body.
type deflateStream struct {
	dst      io.Writer
	gzip     bool // gzip framing (RFC 1952), else zlib (RFC 1950)
	level    int  // klauspost's level, for documents
	header   bool // the framing's header went out
	crc      uint32
	adler    uint32 // Adler-32 of the input, zlib's checksum
	size     uint32 // the input's length mod 2^32, gzip's ISIZE
	interval int    // bytes written since the last Flush; 0: nothing pending

	enc    *deflate.Encoder // the own encoder, nil unless live
	lib    *flate.Writer    // klauspost's, nil unless live
	recent deflate.Window   // the last input, while lib is live
	codes  *deflate.Table   // the codes the own encoder reuses
	hist   []byte           // the history kept while released
	frame  [10]byte         // room for the header and the trailer
	err    error
}

// streamChunk is how many bytes between two flushes make a stream a
// document sent in pieces rather than events: more than an event, and
// enough for a general-purpose encoder's ratio to show.
const streamChunk = 16 << 10

// streamEncoders holds the live state of released deflate streams, and
// libraryFlate, per level, klauspost's encoders of their documents.
var (
	streamEncoders = sync.Pool{New: func() any { return deflate.NewEncoder(32 << 10) }}
	libraryFlate   [flate.BestCompression + 1]sync.Pool
)

func newDeflateStream(w io.Writer, gzip bool, level int) *deflateStream {
	return &deflateStream{dst: w, gzip: gzip, level: level, adler: 1}
}

func (s *deflateStream) writeHeader() {
	if s.header || s.err != nil {
		return
	}
	s.header = true
	h := s.frame[:0]
	if s.gzip {
		// No name, MTIME 0, XFL 0, OS 255 (unknown), as Gzip's writers.
		h = append(h, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255)
	} else {
		h = append(h, 0x78, 0x5e) // zlibFrame's CMF and FLG
	}
	_, s.err = s.dst.Write(h)
}

// acquire gives s a live own encoder that continues the stream from its
// kept history.
func (s *deflateStream) acquire() {
	if s.enc != nil || s.lib != nil {
		return
	}
	s.enc = streamEncoders.Get().(*deflate.Encoder)
	s.enc.ResetDict(s.dst, s.hist)
	s.hist = s.hist[:0]
	if s.codes == nil {
		s.codes = deflate.NewTable()
	}
	s.enc.UseTable(s.codes)
}

// toLibrary moves the stream from the own encoder to klauspost's: a sync
// flush ends the own encoder's data on a byte boundary, and klauspost's
// goes on with the window as its dictionary.
func (s *deflateStream) toLibrary() error {
	if err := s.enc.Flush(); err != nil {
		return err
	}
	window := s.enc.History(32 << 10)
	if s.lib, _ = libraryFlate[s.level].Get().(*flate.Writer); s.lib != nil {
		s.lib.ResetDict(s.dst, window)
	} else {
		var err error
		if s.lib, err = flate.NewWriterDict(s.dst, s.level, window); err != nil {
			return err
		}
	}
	s.recent = deflate.Window{Size: streamHistory}
	s.recent.Write(window)
	s.dropOwn()
	return nil
}

func (s *deflateStream) Write(p []byte) (int, error) {
	s.writeHeader()
	if s.err != nil {
		return 0, s.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	s.acquire()
	if s.gzip {
		s.crc = crc32.Update(s.crc, crc32.IEEETable, p)
		s.size += uint32(len(p))
	} else {
		s.adler = adler32Update(s.adler, p)
	}
	s.interval += len(p)
	if s.enc != nil && s.interval > streamChunk {
		if s.err = s.toLibrary(); s.err != nil {
			return 0, s.err
		}
	}
	if s.lib != nil {
		s.recent.Write(p)
		_, s.err = s.lib.Write(p)
	} else {
		_, s.err = s.enc.Write(p)
	}
	if s.err != nil {
		return 0, s.err
	}
	return len(p), nil
}

// Flush ends what was written with a sync flush (an empty stored block), so
// the client can decode it all; with nothing written since the last one it
// sends nothing but the header, if that has not gone out yet.
func (s *deflateStream) Flush() error {
	s.writeHeader()
	if s.err != nil || s.interval == 0 {
		return s.err
	}
	s.interval = 0
	if s.lib != nil {
		s.err = s.lib.Flush()
	} else {
		s.err = s.enc.Flush()
	}
	return s.err
}

// Close ends the DEFLATE data with a final block and writes the trailer.
func (s *deflateStream) Close() error {
	s.writeHeader()
	if s.err != nil {
		return s.err
	}
	switch {
	case s.lib != nil:
		s.err = s.lib.Close()
	case s.enc != nil:
		s.err = s.enc.Close()
	default:
		// Released, so right after a sync flush, at a byte boundary: the
		// final block is an empty one with fixed codes (BFINAL 1, BTYPE 01,
		// the end-of-block code 0000000).
		_, s.err = s.dst.Write(append(s.frame[:0], 0x03, 0x00))
	}
	if s.err != nil {
		return s.err
	}
	t := s.frame[:0]
	if s.gzip {
		t = binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(t, s.crc), s.size)
	} else {
		t = binary.BigEndian.AppendUint32(t, s.adler)
	}
	_, s.err = s.dst.Write(t)
	s.drop()
	return s.err
}

// Release keeps the last streamHistory bytes of input and the Huffman
// codes the own encoder reuses (a few KiB), and gives the live encoder
// back; it does nothing with input pending (before a Flush). After a
// write error it drops everything.
func (s *deflateStream) Release() {
	if s.err != nil {
		// The stream can send nothing more: no state is worth keeping.
		s.drop()
		s.hist, s.codes = nil, nil
		return
	}
	switch {
	case s.interval > 0:
		return
	case s.lib != nil:
		s.hist = append(s.hist[:0], s.recent.Bytes()...)
	case s.enc != nil:
		s.hist = append(s.hist[:0], s.enc.History(streamHistory)...)
	}
	s.drop()
}

// drop returns the live encoder to its pool.
func (s *deflateStream) drop() {
	s.dropOwn()
	if s.lib != nil {
		s.lib.ResetDict(nil, nil)
		libraryFlate[s.level].Put(s.lib)
		s.lib = nil
		s.recent = deflate.Window{} // its buffer goes with the library's encoder
	}
}

// dropOwn returns the own encoder to its pool.
func (s *deflateStream) dropOwn() {
	if s.enc != nil {
		s.enc.ResetDict(nil, nil)
		streamEncoders.Put(s.enc)
		s.enc = nil
	}
}

// Reset starts a new stream to w, with no history.
func (s *deflateStream) Reset(w io.Writer) {
	s.drop()
	// A new stream's codes start afresh.
	*s = deflateStream{dst: w, gzip: s.gzip, level: s.level, adler: 1, hist: s.hist[:0]}
}

// adler32Update continues the Adler-32 checksum a over p (RFC 1950 §8.2).
func adler32Update(a uint32, p []byte) uint32 {
	const mod = 65521
	s1, s2 := a&0xffff, a>>16
	for len(p) > 0 {
		// 5552 bytes is the most that cannot overflow s2 (zlib's NMAX).
		n := min(len(p), 5552)
		for _, b := range p[:n] {
			s1 += uint32(b)
			s2 += s1
		}
		s1, s2, p = s1%mod, s2%mod, p[n:]
	}
	return s2<<16 | s1
}
