package wsdeflate

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// streamFrameSize is how much a streamed message buffers before it sends a
// fragment: large enough that frame headers cost nothing, small enough to
// keep memory per writer low.
const streamFrameSize = 16 << 10

// Writer returns a writer for one message of type typ whose size need not
// be known: what is written goes out in fragments of about 16 KiB
// (RFC 6455 §5.4), compressed as one stream when permessage-deflate was
// negotiated, and Close sends the last fragment. Until Close, other Writes
// wait; pongs, pings and the close frame may go out between fragments.
//
// ctx bounds the whole message, as it bounds Write: waiting for other
// writers, and each fragment while it is written (its deadline is on the
// socket then, and only then). If it ends while Writer waits, Writer
// returns its error and the connection stays usable; once the message has
// started, any failure closes the connection, and the writer's errors wrap
// the cause (ErrClosed when Close ended a fragment the peer did not take).
func (c *Conn) Writer(ctx context.Context, typ MessageType) (io.WriteCloser, error) {
	if typ != MessageText && typ != MessageBinary {
		return nil, fmt.Errorf("wsdeflate: writer: unknown message type %d", typ)
	}
	if err := c.msgMu.lock(ctx); err != nil {
		return nil, fmt.Errorf("wsdeflate: writer: %w", err)
	}
	if c.closeSent.Load() {
		c.msgMu.Unlock()
		return nil, ErrClosed
	}
	if err := ctx.Err(); err != nil {
		c.msgMu.Unlock()
		return nil, fmt.Errorf("wsdeflate: writer: %w", err)
	}
	w := &messageStream{c: c, ctx: ctx, op: opcode(typ), rsv1: c.comp != nil}
	w.frames.s = w
	if c.comp != nil {
		w.deflate = c.comp.Writer(&w.frames)
	}
	return w, nil
}

// messageStream is the writer Writer returns.
type messageStream struct {
	c       *Conn
	ctx     context.Context // the message's, applied to each fragment
	op      opcode          // of the next fragment: the message's, then continuation
	rsv1    bool            // RFC 7692 §6: only the first fragment carries RSV1
	buf     []byte          // payload of the next fragment
	frames  fragmentSink
	deflate io.WriteCloser // nil without compression
	err     error
	done    bool
}

// fragmentSink collects payload bytes (compressed or not) into fragments.
type fragmentSink struct{ s *messageStream }

func (f *fragmentSink) Write(p []byte) (int, error) {
	s := f.s
	n := len(p)
	for len(p) > 0 {
		k := min(len(p), streamFrameSize-len(s.buf))
		s.buf = append(s.buf, p[:k]...)
		p = p[k:]
		if len(s.buf) == streamFrameSize {
			if err := s.flush(false); err != nil {
				return 0, err
			}
		}
	}
	return n, nil
}

// flush sends the buffered payload as one fragment.
func (s *messageStream) flush(fin bool) error {
	err := s.c.writeDataFrame(s.ctx, fin, s.op, s.rsv1, s.buf)
	s.op, s.rsv1, s.buf = opContinuation, false, s.buf[:0]
	return err
}

// errStreamDone reports use of a message writer after Close.
var errStreamDone = errors.New("wsdeflate: message writer already closed")

func (s *messageStream) Write(p []byte) (int, error) {
	switch {
	case s.done:
		return 0, errStreamDone
	case s.err != nil:
		return 0, s.err
	}
	var n int
	if s.deflate != nil {
		n, s.err = s.deflate.Write(p)
	} else {
		n, s.err = s.frames.Write(p)
	}
	// Errors come from writeDataFrame, which has already ended the write
	// side if they were I/O errors.
	return n, s.err
}

// Close ends the message and releases the connection's write side.
func (s *messageStream) Close() error {
	if s.done {
		return errStreamDone
	}
	s.done = true
	defer s.c.msgMu.Unlock()
	if s.err != nil {
		return s.err
	}
	if s.deflate != nil {
		if err := s.deflate.Close(); err != nil {
			return err
		}
	}
	if err := s.flush(true); err != nil {
		return err
	}
	s.c.idle.touch()
	return nil
}
