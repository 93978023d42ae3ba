package benchmarks

import (
	"bytes"
	stdflate "compress/flate"
	"io"
	"sync"

	"github.com/klauspost/compress/flate"
	"github.com/squeezehttp/squeeze/wsdeflate"
)

// A wsdeflateCodec sends one message through a compressor and the matching
// decompressor, as the two ends of a connection would, and returns the
// decompressed message and the payload size on the wire.
type wsdeflateCodec interface {
	roundTrip(msg []byte) (out []byte, wire int)
}

// oursCodec is wsdeflate: a persistent compressor and decompressor.
type oursCodec struct {
	c          *wsdeflate.Compressor
	d          *wsdeflate.Decompressor
	wire, out  []byte
	releaseMsg bool
}

func newOurs(takeover bool) *oursCodec {
	dir := wsdeflate.Direction{ContextTakeover: takeover, MaxWindowBits: 15}
	return &oursCodec{c: oursCompressor(dir), d: wsdeflate.NewDecompressor(dir, 0)}
}

// oursCompressor is wsdeflate.NewCompressor at DefaultLevel, which cannot
// fail.
func oursCompressor(d wsdeflate.Direction) *wsdeflate.Compressor {
	c, err := wsdeflate.NewCompressor(d, 0)
	if err != nil {
		panic(err)
	}
	return c
}

func (o *oursCodec) roundTrip(msg []byte) ([]byte, int) {
	var err error
	if o.wire, err = o.c.Compress(o.wire[:0], msg); err != nil {
		panic(err)
	}
	if o.out, err = o.d.Decompress(o.out[:0], o.wire); err != nil {
		panic(err)
	}
	if o.releaseMsg {
		o.c.Release()
		o.d.Release()
	}
	return o.out, len(o.wire)
}

var tail = []byte{0x00, 0x00, 0xff, 0xff}

// freshCodec is the "old" way: a new klauspost writer and reader for every
// message, as the published implementation did before its rewrite.
type freshCodec struct{ wire, out bytes.Buffer }

func (f *freshCodec) roundTrip(msg []byte) ([]byte, int) {
	f.wire.Reset()
	fw, _ := flate.NewWriter(&f.wire, wsdeflate.DefaultLevel)
	fw.Write(msg)
	fw.Flush()
	payload := bytes.TrimSuffix(f.wire.Bytes(), tail)
	fr := flate.NewReader(io.MultiReader(bytes.NewReader(payload), bytes.NewReader(tail)))
	f.out.Reset()
	f.out.ReadFrom(io.LimitReader(fr, int64(len(msg)))) // the flush marker never returns io.EOF
	return f.out.Bytes(), len(payload)
}

// coderCodec replicates coder/websocket v1.8.15's compress.go: with context
// takeover a persistent standard library writer at BestSpeed, and for every
// message read a pooled reader re-seeded with the 32 KB sliding window;
// without, a pooled writer and reader per message.
type coderCodec struct {
	takeover bool
	fw       *stdflate.Writer
	window   []byte
	wire     bytes.Buffer
	out      bytes.Buffer
	src      bytes.Reader
	tailR    bytes.Reader
	multi    io.Reader
}

var (
	coderWriterPool sync.Pool
	coderReaderPool sync.Pool
)

func newCoder(takeover bool) *coderCodec {
	c := &coderCodec{takeover: takeover, window: make([]byte, 0, 32768)}
	c.multi = io.MultiReader(&c.src, &c.tailR)
	return c
}

func (c *coderCodec) roundTrip(msg []byte) ([]byte, int) {
	c.wire.Reset()
	fw := c.fw
	if fw == nil {
		fw, _ = coderWriterPool.Get().(*stdflate.Writer)
		if fw == nil {
			fw, _ = stdflate.NewWriter(&c.wire, stdflate.BestSpeed)
		} else {
			fw.Reset(&c.wire)
		}
	}
	fw.Write(msg)
	fw.Flush()
	if c.takeover {
		c.fw = fw
	} else {
		coderWriterPool.Put(fw)
	}
	payload := bytes.TrimSuffix(c.wire.Bytes(), tail)

	c.src.Reset(payload)
	c.tailR.Reset(tail)
	c.multi = io.MultiReader(&c.src, &c.tailR)
	var dict []byte
	if c.takeover {
		dict = c.window
	}
	fr, _ := coderReaderPool.Get().(io.ReadCloser)
	if fr == nil {
		fr = stdflate.NewReaderDict(c.multi, dict)
	} else {
		fr.(stdflate.Resetter).Reset(c.multi, dict)
	}
	c.out.Reset()
	c.out.ReadFrom(io.LimitReader(fr, int64(len(msg))))
	coderReaderPool.Put(fr)
	if c.takeover {
		c.slide(c.out.Bytes())
	}
	return c.out.Bytes(), len(payload)
}

// slide is coder/websocket's slidingWindow.write.
func (c *coderCodec) slide(p []byte) {
	if len(p) >= cap(c.window) {
		c.window = c.window[:cap(c.window)]
		copy(c.window, p[len(p)-cap(c.window):])
		return
	}
	if left := cap(c.window) - len(c.window); left < len(p) {
		need := len(p) - left
		copy(c.window, c.window[need:])
		c.window = c.window[:len(c.window)-need]
	}
	c.window = append(c.window, p...)
}

// gorillaCodec replicates gorilla/websocket v1.5.3's compression.go: no
// context takeover, a pooled standard library writer (level 1) and a pooled
// reader over the payload plus a final empty block, per message.
type gorillaCodec struct {
	wire, out bytes.Buffer
	src       bytes.Reader
	tailR     bytes.Reader
}

var (
	gorillaWriterPool sync.Pool
	gorillaReaderPool = sync.Pool{New: func() any { return stdflate.NewReader(nil) }}
	gorillaTail       = []byte("\x00\x00\xff\xff\x01\x00\x00\xff\xff")
)

func (g *gorillaCodec) roundTrip(msg []byte) ([]byte, int) {
	g.wire.Reset()
	fw, _ := gorillaWriterPool.Get().(*stdflate.Writer)
	if fw == nil {
		fw, _ = stdflate.NewWriter(&g.wire, 1)
	} else {
		fw.Reset(&g.wire)
	}
	fw.Write(msg)
	fw.Flush()
	gorillaWriterPool.Put(fw)
	payload := bytes.TrimSuffix(g.wire.Bytes(), tail)

	g.src.Reset(payload)
	g.tailR.Reset(gorillaTail)
	fr := gorillaReaderPool.Get().(io.ReadCloser)
	fr.(stdflate.Resetter).Reset(io.MultiReader(&g.src, &g.tailR), nil)
	g.out.Reset()
	g.out.ReadFrom(fr)
	gorillaReaderPool.Put(fr)
	return g.out.Bytes(), len(payload)
}
