package wsdeflate

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/squeezehttp/squeeze/internal/deflate"
)

// DefaultLevel is the compression level a Compressor uses unless told
// otherwise. Level 1 is wsdeflate's own DEFLATE encoder (greedy matching,
// like klauspost's level 1), which reuses a connection's Huffman codes from
// one message to the next while they are estimated within 3% of new ones
// (entropy bound and the codes' own past excess over it): building new
// codes for every flushed message is a large part of the cost of a short
// message. Its live state is at most 288 KiB, against at most 1.25 MiB for
// klauspost's encoders, which serve levels 2 to 9 (a single bounded-window
// encoder below 15 window bits); TestEndpointMemoryBounds enforces both.
const DefaultLevel = 1

// maxReseedHistory is how much plaintext an idle Compressor keeps to re-seed
// an encoder with. The live encoder always uses the whole agreed window;
// this only bounds what the first message after a Release can refer to.
// Re-seeding costs about one compression of the history, so a longer one
// costs proportionally more time after every release (BenchmarkRelease,
// and "ours-release" in the benchmarks module, which also measures the
// output lost against the persistent encoder) and more memory per idle
// connection, for little smaller output on short messages.
const maxReseedHistory = 8 << 10

// A Compressor compresses the messages one endpoint sends (RFC 7692 §7.2.1).
// With context takeover its LZ77 window lives as long as the connection; it
// must not be used by two goroutines at once.
//
// Memory with context takeover (bounds enforced by TestEndpointMemoryBounds;
// see the package documentation): while idle, its re-seed history of
// min(2^bits, 8 KiB) bytes (call Release); while active, its live encoder
// on top, at most 288 KiB at DefaultLevel with the Huffman codes it reuses,
// and at most 1.25 MiB at levels 2 to 9. Without context takeover it keeps
// only those codes between messages (Release drops them too): the encoder
// goes back to a shared pool after each one.
type Compressor struct {
	dir   Direction
	level int
	fw    deflater       // live encoder, nil while released
	codes *deflate.Table // level 1: the Huffman codes this direction reuses
	out   appendWriter
	hist  deflate.Window // plaintext history, to re-seed fw after Release
	mw    messageWriter
}

// NewCompressor returns a Compressor for direction d at level: 0 means
// DefaultLevel (1, wsdeflate's own encoder), 2 to 9 are klauspost's flate
// levels (higher is smaller and slower); other levels are an error. A
// MaxWindowBits of 0 means 15; other values are clamped to 8..15.
func NewCompressor(d Direction, level int) (*Compressor, error) {
	if level == 0 {
		level = DefaultLevel
	}
	if level < 1 || level > 9 {
		return nil, fmt.Errorf("wsdeflate: compression level %d out of range 1..9", level)
	}
	// Out-of-range bits are clamped, never rejected: a smaller window than
	// agreed is always within the agreement (RFC 7692 §7.1.2.1).
	if d.MaxWindowBits == 0 {
		d.MaxWindowBits = 15
	}
	d.MaxWindowBits = min(max(d.MaxWindowBits, 8), 15)
	c := &Compressor{dir: d, level: level}
	if d.ContextTakeover {
		c.hist.Size = min(1<<d.MaxWindowBits, maxReseedHistory)
	}
	c.mw.c = c
	return c, nil
}

// appendWriter is the io.Writer the encoder writes to: it appends to the
// caller's buffer, so compressed output is never copied.
type appendWriter struct{ buf []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	return len(p), nil
}

// acquire makes sure c has a live encoder whose state continues the
// connection's context.
func (c *Compressor) acquire() {
	if c.fw != nil {
		return
	}
	c.fw = getWriter(c.dir.MaxWindowBits, c.level)
	var dict []byte
	if c.dir.ContextTakeover {
		dict = c.hist.Bytes()
	}
	c.fw.ResetDict(&c.out, dict)
	if e, ok := c.fw.(*deflate.Encoder); ok {
		if c.codes == nil {
			c.codes = deflate.NewTable()
		}
		e.UseTable(c.codes)
	}
}

// Compress appends the compressed payload of message msg to dst and returns
// the extended buffer: the message deflated, sync-flushed, and without the
// final 00 00 ff ff (RFC 7692 §7.2.1).
func (c *Compressor) Compress(dst, msg []byte) ([]byte, error) {
	c.acquire()
	start := len(dst)
	c.out.buf = dst
	_, err := c.fw.Write(msg)
	if err == nil {
		err = c.fw.Flush()
	}
	out := c.out.buf
	c.out.buf = nil
	if err == nil && !bytes.HasSuffix(out[start:], trailer[:]) {
		err = errors.New("sync flush did not end with 00 00 ff ff")
	}
	if err != nil {
		c.abandon()
		return dst, fmt.Errorf("wsdeflate: compress: %w", err)
	}
	c.finish(msg)
	return out[:len(out)-len(trailer)], nil
}

// finish records msg in the window, or with no context takeover returns the
// encoder to the pool (RFC 7692 §7.1.1: every message starts afresh).
func (c *Compressor) finish(msg []byte) {
	if c.dir.ContextTakeover {
		c.hist.Write(msg)
		return
	}
	c.releaseEncoder()
}

// abandon drops the context after a failure: the peer's view of the window
// is unknown, so the connection cannot continue it.
func (c *Compressor) abandon() {
	c.hist.Reset()
	c.Release()
}

// Release returns the live encoder to a shared pool, keeping only the
// window (at most 8 KiB of recent plaintext). The next message takes an
// encoder from the pool and re-seeds it from the window, which costs about
// as much as compressing the window once, several times the cost of a
// short message, so call Release when the connection goes idle, not after
// every message.
//
// Release also drops the Huffman codes the encoder reuses; the first
// message after it builds new ones.
func (c *Compressor) Release() {
	c.releaseEncoder()
	c.codes = nil
}

// releaseEncoder returns the live encoder to its pool but keeps the codes:
// without context takeover it runs after every message, and the next
// message's codes are likely to be the same.
func (c *Compressor) releaseEncoder() {
	if c.fw == nil {
		return
	}
	putWriter(c.fw, c.dir.MaxWindowBits, c.level)
	c.fw = nil
	c.mw.buf = nil
}

// Writer returns a writer for one message whose compressed payload goes to
// w as it is produced, for messages too large to hold or sent in fragments.
// Close ends the message (without closing w); the trailer is held back so
// w never sees the final 00 00 ff ff. Until Close, c must not be used for
// anything else. An error from w leaves the context unusable: the
// connection must be failed.
func (c *Compressor) Writer(w io.Writer) io.WriteCloser {
	c.acquire()
	c.mw.w, c.mw.err = w, nil
	c.mw.buf = c.mw.buf[:0]
	c.out.buf = c.mw.buf
	return &c.mw
}

type messageWriter struct {
	c   *Compressor
	w   io.Writer
	buf []byte // encoder output not yet passed on
	err error
}

func (m *messageWriter) Write(p []byte) (int, error) {
	if m.err != nil {
		return 0, m.err
	}
	if _, err := m.c.fw.Write(p); err != nil {
		return 0, m.fail(err)
	}
	if m.c.dir.ContextTakeover {
		m.c.hist.Write(p)
	}
	// Keep the last len(trailer) bytes: they may be the end of the message.
	if err := m.pass(len(m.c.out.buf) - len(trailer)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// pass writes the first n bytes of pending output to w.
func (m *messageWriter) pass(n int) error {
	out := m.c.out.buf
	if n <= 0 {
		return nil
	}
	if _, err := m.w.Write(out[:n]); err != nil {
		return m.fail(err)
	}
	m.c.out.buf = out[:copy(out, out[n:])]
	return nil
}

func (m *messageWriter) fail(err error) error {
	m.err = fmt.Errorf("wsdeflate: compress: %w", err)
	m.c.out.buf = nil
	m.c.abandon()
	return m.err
}

// Close flushes the message and writes the rest of its payload, minus the
// trailer (RFC 7692 §7.2.1).
func (m *messageWriter) Close() error {
	if m.err != nil {
		return m.err
	}
	if err := m.c.fw.Flush(); err != nil {
		return m.fail(err)
	}
	if !bytes.HasSuffix(m.c.out.buf, trailer[:]) {
		return m.fail(errors.New("sync flush did not end with 00 00 ff ff"))
	}
	if err := m.pass(len(m.c.out.buf) - len(trailer)); err != nil {
		return err
	}
	m.buf = m.c.out.buf[:0]
	m.c.out.buf = nil
	m.err = errors.New("wsdeflate: write after Close")
	if !m.c.dir.ContextTakeover {
		m.c.releaseEncoder()
	}
	return nil
}
