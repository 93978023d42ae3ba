package wsdeflate

import (
	"io"
	"sync"

	"github.com/klauspost/compress/flate"
	"github.com/squeezehttp/squeeze/internal/deflate"
)

// Live encoders and decoders are shared between connections through these
// pools: an idle connection keeps only its window (see window.go), so the
// large state of an encoder (at most 288 KiB for ours, 1.25 MiB for a
// klauspost Writer: match history, hash table, tokens) and a klauspost
// Reader (at most 48 KiB) is paid only while a connection is active.

// deflater is a live encoder: wsdeflate's own at level 1, klauspost's
// *flate.Writer above.
type deflater interface {
	io.Writer
	Flush() error
	ResetDict(dst io.Writer, dict []byte)
}

// writerPools[bits-8][level] holds deflater values: *deflate.Encoder at level 1,
// *flate.Writer above. Windows below 15 bits and levels above 1 use
// klauspost's bounded-window encoder, which has one level.
var writerPools [8][10]sync.Pool

func getWriter(bits, level int) deflater {
	if bits < 15 && level > 1 {
		level = 0
	}
	p := &writerPools[bits-8][level]
	if fw, ok := p.Get().(deflater); ok {
		return fw
	}
	if level == 1 {
		// RFC 7692 §7.1.2.1: no back-reference may reach further than 2^bits.
		return deflate.NewEncoder(1 << bits)
	}
	var fw *flate.Writer
	if bits < 15 {
		// RFC 7692 §7.1.2.1: no back-reference may reach further than 2^bits;
		// klauspost's windowed encoder never emits an offset above its size.
		fw, _ = flate.NewWriterWindow(nil, 1<<bits)
	} else {
		fw, _ = flate.NewWriter(nil, level)
	}
	return fw
}

func putWriter(fw deflater, bits, level int) {
	if bits < 15 && level > 1 {
		level = 0
	}
	// Drop the references to the destination and dictionary so a pooled
	// writer keeps no connection reachable.
	fw.ResetDict(nil, nil)
	writerPools[bits-8][level].Put(fw)
}

var readerPool sync.Pool

// idleSource is what pooled readers point at, so they keep no connection
// reachable. It is never read from.
var idleSource source

func getReader() io.ReadCloser {
	if fr, ok := readerPool.Get().(io.ReadCloser); ok {
		return fr
	}
	// A flate.Reader source keeps klauspost from wrapping it in a bufio.Reader
	// that would read ahead past the message.
	return flate.NewReader(&idleSource)
}

func putReader(fr io.ReadCloser) {
	_ = fr.(flate.Resetter).Reset(&idleSource, nil)
	readerPool.Put(fr)
}

// inputPool holds the buffers a Decompressor copies a message's payload and
// trailer into, so released and no-takeover decompressors keep none.
var inputPool = sync.Pool{New: func() any { return new([]byte) }}

func putInput(b *[]byte) {
	if cap(*b) > maxKeptInput {
		*b = nil
	}
	inputPool.Put(b)
}
