package encoding

import (
	"fmt"
	"io"
	"sync"
)

// encoderPool holds the idle streaming encoders of one (codec, level), the
// middleware's only per-response encoder state: one sync.Pool per pair, so
// a pooled encoder never needs reconfiguring.
type encoderPool struct {
	codec  Codec
	level  int
	coding string
	once   AppendEncoder // codec's one-shot path, nil when it has none
	// padder and oncePadded are the codec's padding, streaming and one-shot,
	// nil when it has none.
	padder     Padder
	oncePadded AppendPadder
	pool       sync.Pool // of Writer
	// streamer is the codec's encoder for flushed streams, nil when it has
	// none at this level; streams holds its idle Writers.
	streamer Streamer
	streams  sync.Pool
}

// newEncoderPool returns the pool of c at level, 0 meaning c's default; a
// level outside c.Levels is an error.
func newEncoderPool(c Codec, level int) (*encoderPool, error) {
	level, err := checkLevel(c, level)
	if err != nil {
		return nil, err
	}
	p := &encoderPool{codec: c, level: level, coding: c.Name()}
	p.once, _ = c.(AppendEncoder)
	p.padder, _ = c.(Padder)
	if st, ok := c.(Streamer); ok {
		// Whether the codec streams flushed responses at this level is
		// known now, and so is an error in its stream Writer: the first
		// one goes to the pool.
		wr, err := st.NewStreamWriter(io.Discard, level)
		if err != nil {
			return nil, fmt.Errorf("encoding: %s stream writer: %w", p.coding, err)
		}
		if wr != nil {
			p.streamer = st
			p.putStream(wr)
		}
	}
	if p.once != nil && p.padder != nil {
		p.oncePadded, _ = c.(AppendPadder)
	}
	return p, nil
}

// name returns the content-coding token.
func (p *encoderPool) name() string { return p.coding }

// get returns an encoder writing a new stream to w.
func (p *encoderPool) get(w io.Writer) (Writer, error) {
	if wr, ok := p.pool.Get().(Writer); ok {
		wr.Reset(w)
		return wr, nil
	}
	wr, err := p.codec.NewWriter(w, p.level)
	if err != nil {
		return nil, fmt.Errorf("encoding: new %s writer: %w", p.coding, err)
	}
	return wr, nil
}

// getStream returns a Writer for a flushed stream to w, the codec's stream
// Writer when it has one for the level, nil otherwise.
func (p *encoderPool) getStream(w io.Writer) Writer {
	if p.streamer == nil {
		return nil
	}
	if wr, ok := p.streams.Get().(Writer); ok {
		wr.Reset(w)
		return wr
	}
	wr, err := p.streamer.NewStreamWriter(w, p.level)
	if err != nil || wr == nil {
		return nil
	}
	return wr
}

// putStream returns a Writer from getStream to its pool, as put does.
func (p *encoderPool) putStream(wr Writer) {
	wr.Reset(nil)
	p.streams.Put(wr)
}

// put returns wr to the pool, first dropping its reference to the stream's
// destination so that no ResponseWriter stays reachable from the pool.
func (p *encoderPool) put(wr Writer) {
	wr.Reset(nil)
	p.pool.Put(wr)
}

// encode appends the encoding of the whole body src to dst, through the
// codec's one-shot path when it has one.
func (p *encoderPool) encode(dst, src []byte) ([]byte, error) {
	if p.once != nil {
		return p.once.AppendEncode(dst, src, p.level)
	}
	return p.encodeStreaming(dst, src, 0)
}

// encodeStreaming encodes src with a pooled Writer, padded for pad when
// pad > 0.
func (p *encoderPool) encodeStreaming(dst, src []byte, pad int) ([]byte, error) {
	out, err := encodeWhole(&p.pool, dst, src, p.padder, pad, func(w io.Writer) (Writer, error) {
		return p.codec.NewWriter(w, p.level)
	})
	if err != nil {
		return dst, fmt.Errorf("encoding: %s: %w", p.coding, err)
	}
	return out, nil
}
