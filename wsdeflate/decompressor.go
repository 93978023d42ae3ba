package wsdeflate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/klauspost/compress/flate"
	"github.com/squeezehttp/squeeze/internal/deflate"
)

// DefaultReadLimit is the largest message, after decompression, that a
// Conn's Read and a Decompressor accept when their limit is left at 0
// (AcceptOptions.ReadLimit, DialOptions.ReadLimit, Conn.SetReadLimit,
// NewDecompressor).
const DefaultReadLimit = 1 << 20

// ErrMessageTooBig reports a message that inflates to more than the
// Decompressor's limit. The connection should close with 1009 (RFC 6455
// §7.4.1); inflating stopped at the limit, so a small frame that would
// expand to gigabytes costs at most the limit.
var ErrMessageTooBig = errors.New("wsdeflate: message exceeds the size limit")

// A Decompressor inflates the messages one endpoint receives (RFC 7692
// §7.2.2). With context takeover one klauspost reader lives across
// messages, reading from a source that never runs ahead of the message, so
// nothing is re-seeded per message; it must not be used by two goroutines at
// once.
//
// Memory with context takeover (bounds enforced by TestEndpointMemoryBounds;
// see the package documentation): 2^bits bytes while idle, at least 512
// (the window the peer may refer to, 32 KiB at 15 bits; call Release), and
// a reader of at most 48 KiB more while it holds a live one. Without
// context takeover it keeps nothing between messages.
type Decompressor struct {
	dir    Direction
	limit  int
	fr     io.ReadCloser // live reader, nil while released
	synced bool          // fr's state continues the connection's stream
	// fr reads a whole message from in (payload + trailer) through msg, a
	// *bytes.Reader, for which klauspost's inflater has a specialised
	// decoding loop about twice as fast as its io.ByteReader one; a streamed
	// message is read through src. fr is bound to one of them (streaming
	// says which) and re-seeded from the window when that changes.
	msg       bytes.Reader
	in        *[]byte // from inputPool while live, nil while released
	src       source
	streaming bool
	hist      deflate.Window // plaintext history, to re-seed fr after Release or BFINAL
	mr        messageReader
}

// NewDecompressor returns a Decompressor for direction d that refuses
// messages larger than readLimit bytes once inflated, as a Conn's ReadLimit
// does: 0 means DefaultReadLimit, and a negative value (or math.MaxInt) no
// limit beyond memory. A MaxWindowBits of 0 means 15; a decompressor
// accepts every window up to 15 bits, so out-of-range values mean 15 too.
func NewDecompressor(d Direction, readLimit int) *Decompressor {
	limit := intLimit(readLimitOrDefault(int64(readLimit)))
	if d.MaxWindowBits <= 0 || d.MaxWindowBits > 15 {
		d.MaxWindowBits = 15
	}
	dc := &Decompressor{dir: d, limit: limit}
	if d.ContextTakeover {
		// Keep at least 512 bytes: zlib peers told to use 8 bits use 9.
		dc.hist.Size = 1 << max(d.MaxWindowBits, minZlibWindowBits)
	}
	dc.mr.d = dc
	return dc
}

// maxKeptInput bounds the input buffer a Decompressor keeps between
// messages; a larger message's buffer is dropped after it.
const maxKeptInput = 64 << 10

// begin readies the reader for a message whose bytes d.msg (or, when
// streaming, d.src) now serves.
func (d *Decompressor) begin(streaming bool) {
	if d.fr == nil {
		d.fr, d.synced = getReader(), false
	}
	if d.streaming != streaming {
		d.streaming, d.synced = streaming, false
	}
	if d.synced && d.dir.ContextTakeover {
		return // RFC 7692 §7.2.2: continue the previous message's window
	}
	var dict []byte
	if d.dir.ContextTakeover {
		dict = d.hist.Bytes()
	}
	var r io.Reader = &d.msg
	if streaming {
		r = &d.src
	}
	_ = d.fr.(flate.Resetter).Reset(r, dict) // never fails for klauspost
	d.synced = true
}

// consumed reports whether the whole payload and the trailer have been read.
func (d *Decompressor) consumed() bool {
	if d.streaming {
		return d.src.consumed()
	}
	return d.msg.Len() == 0
}

// Decompress appends the message that payload (a whole message's payload, as
// received, without the trailer) inflates to, and returns the extended
// buffer. It fails with ErrMessageTooBig when the message exceeds the limit.
func (d *Decompressor) Decompress(dst, payload []byte) ([]byte, error) {
	// RFC 7692 §7.2.2: append 00 00 ff ff to the payload before inflating.
	if d.in == nil {
		d.in = inputPool.Get().(*[]byte)
	}
	*d.in = append(append((*d.in)[:0], payload...), trailer[:]...)
	d.msg.Reset(*d.in)
	d.begin(false)
	defer d.dropLargeInput()
	start := len(dst)
	for {
		// One byte over the limit is enough to know the message is too big
		// (d.limit < MaxInt, so this cannot wrap).
		left := d.limit + 1 - (len(dst) - start)
		if len(dst) == cap(dst) {
			// Grow geometrically, but never past the limit.
			want := max(cap(dst)-start, 4096)
			if len(payload) < math.MaxInt/2 {
				want = max(want, 2*len(payload))
			}
			grown := make([]byte, len(dst), len(dst)+min(want, left))
			dst = grown[:copy(grown, dst)]
		}
		room := dst[len(dst):cap(dst)]
		if len(room) > left {
			room = room[:left]
		}
		n, err := d.fr.Read(room)
		dst = dst[:len(dst)+n]
		if len(dst)-start > d.limit {
			d.synced = false
			return dst[:start], ErrMessageTooBig
		}
		done, err := d.step(n, len(room), err)
		if err != nil {
			return dst[:start], err
		}
		if done {
			d.finish(dst[start:])
			return dst, nil
		}
	}
}

// step interprets one Read of n bytes into room bytes of space: whether the
// message is complete, or a decoding error.
func (d *Decompressor) step(n, room int, err error) (done bool, _ error) {
	switch {
	case err == nil:
		// The trailer's empty stored block flushes the output; once it is
		// read and the flush fits, the message is complete.
		return d.consumed() && n < room, nil
	case err == io.EOF:
		// RFC 7692 §7.2.3.4: a BFINAL block ends the DEFLATE stream; what
		// follows it is ignored and the next message starts a new stream
		// seeded with the window.
		d.synced = false
		return true, nil
	case (errors.Is(err, errEndOfMessage) || err == io.ErrUnexpectedEOF) && d.consumed():
		// The reader asked past the trailer after flushing nothing (the
		// bytes.Reader's end reaches us as io.ErrUnexpectedEOF): complete,
		// but its state is now an error, so re-seed it next time.
		d.synced = false
		return true, nil
	}
	d.synced = false
	return false, fmt.Errorf("wsdeflate: decompress: %w", err)
}

// finish records a complete message in the window, or releases the reader
// when every message starts afresh.
func (d *Decompressor) finish(msg []byte) {
	if d.dir.ContextTakeover {
		d.hist.Write(msg)
		return
	}
	d.Release()
}

// Release returns the live reader to a shared pool, keeping only the window.
// The next message re-seeds a pooled reader from it, which costs a copy of
// the window. Call it when the connection goes idle; a server short of
// memory can also call it after every message.
func (d *Decompressor) Release() {
	if d.fr == nil {
		return
	}
	putReader(d.fr)
	d.fr, d.synced = nil, false
	d.src = source{}
	d.msg.Reset(nil)
	if d.in != nil {
		putInput(d.in)
		d.in = nil
	}
}

// dropLargeInput lets go of an input buffer grown by an unusually large
// message, so a connection does not keep it while idle.
func (d *Decompressor) dropLargeInput() {
	if d.in != nil && cap(*d.in) > maxKeptInput {
		d.msg.Reset(nil) // fr keeps pointing at d.msg, which stays valid
		*d.in = nil
	}
}

// Reader returns a reader of one message whose compressed payload is read
// from r until r returns io.EOF (for example the message's frames, one after
// another). The returned reader returns io.EOF at the end of the message and
// ErrMessageTooBig past the limit; until then d must not be used for
// anything else. A message that is not read to io.EOF leaves the context
// unusable: the connection must be failed.
func (d *Decompressor) Reader(r io.Reader) io.Reader {
	d.src.reset(nil, r)
	d.begin(true)
	d.mr.n, d.mr.err = 0, nil
	return &d.mr
}

type messageReader struct {
	d   *Decompressor
	n   int // bytes returned so far
	err error
}

func (m *messageReader) Read(p []byte) (int, error) {
	if m.err != nil {
		return 0, m.err
	}
	d := m.d
	if len(p) > d.limit+1-m.n {
		p = p[:d.limit+1-m.n]
	}
	n, err := d.fr.Read(p)
	m.n += n
	if m.n > d.limit {
		d.synced = false
		m.err = ErrMessageTooBig
		return 0, m.err
	}
	if d.dir.ContextTakeover {
		d.hist.Write(p[:n])
	}
	done, err := d.step(n, len(p), err)
	switch {
	case err != nil:
		m.err = err
	case done:
		m.err = io.EOF
		if !d.dir.ContextTakeover {
			d.Release()
		}
	}
	return n, m.err
}
