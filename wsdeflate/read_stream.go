package wsdeflate

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// Reader waits for the next data message and returns its type and a
// reader of its contents, for messages too large to hold: fragments are
// read, unmasked and inflated as the caller reads, with the read limit and
// UTF-8 validity checked along the way (a failure fails the connection as
// Read does). The message must be read to io.EOF before the next Read or
// Reader; until then the read side is held. ctx bounds the whole message.
func (c *Conn) Reader(ctx context.Context) (MessageType, io.Reader, error) {
	select {
	case c.readLock <- struct{}{}:
	case <-ctx.Done():
		return 0, nil, fmt.Errorf("wsdeflate: reader: %w", ctx.Err())
	}
	if c.readErr != nil {
		<-c.readLock
		return 0, nil, c.readErr
	}
	stop := watchContext(ctx, c.nc.SetReadDeadline)
	h, err := c.nextDataFrame(false)
	if err != nil {
		stop()
		c.readErr = err
		c.idle.end()
		<-c.readLock
		return 0, nil, err
	}
	s := &messageReadStream{c: c, stop: stop, limit: c.readLimit.Load(), text: h.op == opText}
	s.frames = frameStream{s: s, h: h, remaining: h.length}
	s.src = &s.frames
	if h.rsv1 {
		s.inflating = true
		c.dmu.Lock()
		c.decomp.limit = intLimit(s.limit)
		s.src = c.decomp.Reader(&s.frames)
	}
	return MessageType(h.op), s, nil
}

// messageReadStream is the reader Reader returns.
type messageReadStream struct {
	c         *Conn
	stop      func() bool
	limit     int64
	n         int64 // message bytes returned so far
	text      bool
	utf8      utf8Stream
	inflating bool // holds c.dmu
	frames    frameStream
	src       io.Reader
	err       error // final: io.EOF or the connection's error
}

// frameStream is the payload of a message's frames, one after another,
// ending with io.EOF after the final frame.
type frameStream struct {
	s         *messageReadStream
	h         header
	remaining int64
	maskPos   int
	err       error // a frame-level failure, already final
}

func (f *frameStream) Read(p []byte) (int, error) {
	for f.remaining == 0 {
		if f.h.fin {
			return 0, io.EOF
		}
		h, err := f.s.c.nextDataFrame(true)
		if err != nil {
			f.err = err
			return 0, err
		}
		f.h, f.remaining, f.maskPos = h, h.length, 0
	}
	if int64(len(p)) > f.remaining {
		p = p[:f.remaining]
	}
	n, err := f.s.c.br.Read(p)
	f.remaining -= int64(n)
	if f.h.masked {
		f.maskPos = mask(f.h.key, f.maskPos, p[:n])
	}
	if err != nil {
		f.err = f.s.c.readFailure(unexpected(err))
		return n, f.err
	}
	return n, nil
}

func (s *messageReadStream) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.src.Read(p)
	s.n += int64(n)
	c := s.c
	switch {
	case s.frames.err != nil:
		return n, s.end(s.frames.err)
	case errors.Is(err, ErrMessageTooBig) || s.n > s.limit:
		return 0, s.end(c.fail(StatusMessageTooBig, fmt.Errorf("%w of %d bytes", ErrMessageTooBig, s.limit)))
	case err != nil && err != io.EOF:
		return 0, s.end(c.fail(StatusInvalidFramePayload, err))
	}
	// RFC 6455 §8.1: text is UTF-8, checked as it arrives.
	if s.text && (!s.utf8.write(p[:n]) || err == io.EOF && !s.utf8.complete()) {
		return 0, s.end(c.fail(StatusInvalidFramePayload, errFrame("text message is not UTF-8")))
	}
	if err == io.EOF {
		c.idle.touch()
		return n, s.end(io.EOF)
	}
	return n, nil
}

// end finishes the message with err (io.EOF when it was read whole) and
// gives the read side back.
func (s *messageReadStream) end(err error) error {
	s.err = err
	if s.inflating {
		s.c.dmu.Unlock()
	}
	s.stop()
	if err != io.EOF {
		s.c.readErr = err
		s.c.idle.end()
	}
	<-s.c.readLock
	return err
}
