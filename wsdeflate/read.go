package wsdeflate

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"unicode/utf8"
)

// compressedSlack is how far a compressed message may exceed the read
// limit before it is refused unread: deflate's stored blocks add 5 bytes
// per 64 KiB, so an honest message stays well within it.
const compressedSlack = 1 << 10

// Read reads the next data message and returns its type and contents,
// decompressed and, for text, validated as UTF-8. The returned slice is the
// caller's. Pings are answered and pongs delivered to Ping while Read
// waits. When the peer closes, Read answers the close frame and returns a
// CloseError; after any error the connection is unusable and every later
// Read returns the same error; a message over the read limit fails with
// an error wrapping ErrMessageTooBig (and 1009 to the peer). ctx bounds this call: its deadline becomes
// the read deadline, and cancelling it fails the connection.
func (c *Conn) Read(ctx context.Context) (MessageType, []byte, error) {
	select {
	case c.readLock <- struct{}{}:
	case <-ctx.Done():
		return 0, nil, fmt.Errorf("wsdeflate: read: %w", ctx.Err())
	}
	defer func() { <-c.readLock }()
	if c.readErr != nil {
		return 0, nil, c.readErr
	}
	// The connection's own watch, not watchContext: a message costs no
	// allocation for it.
	c.rwatch.start(ctx)
	typ, msg, err := c.readMessage()
	c.rwatch.end()
	return typ, msg, err
}

// readMessage reads frames until a whole data message has arrived,
// handling control frames in between (RFC 6455 §5.4: they may be
// interleaved with a fragmented message), and returns a copy of it. Any
// error is stored in c.readErr.
func (c *Conn) readMessage() (MessageType, []byte, error) {
	typ, msg, err := c.readFrames()
	if err != nil {
		c.readErr = err
		c.idle.end()
	}
	return typ, msg, err
}

func (c *Conn) readFrames() (MessageType, []byte, error) {
	first, err := c.nextDataFrame(false)
	if err != nil {
		return 0, nil, err
	}
	// From the first frame of a message until its copy is made, the
	// message buffers are in use: the idle release waits for them.
	c.dmu.Lock()
	defer c.dmu.Unlock()
	limit := c.readLimit.Load()
	typ, compressed := first.op, first.rsv1
	// The payload may exceed the limit by compressedSlack when compressed
	// (never past what an int can count): the limit applies once inflated.
	bound := min(limit, maxIntValue)
	if compressed {
		bound = min(addSize(limit, compressedSlack), maxIntValue)
	}
	c.rbuf = c.rbuf[:0]
	for h := first; ; {
		// Compared by subtraction: h.length comes from the peer, up to
		// 2^63-1, and a sum could wrap.
		if h.length > bound-int64(len(c.rbuf)) {
			return 0, nil, c.fail(StatusMessageTooBig, fmt.Errorf("%w of %d bytes", ErrMessageTooBig, limit))
		}
		start := len(c.rbuf)
		if c.rbuf, err = appendPayload(c.rbuf, c.br, h.length); err != nil {
			return 0, nil, c.readFailure(unexpected(err))
		}
		if h.masked {
			mask(h.key, 0, c.rbuf[start:])
		}
		if h.fin {
			break
		}
		if h, err = c.nextDataFrame(true); err != nil {
			return 0, nil, err
		}
	}
	msg := c.rbuf
	if compressed {
		if msg, err = c.inflate(limit); err != nil {
			return 0, nil, err
		}
	}
	// RFC 6455 §8.1: a text message, decompressed and reassembled, MUST be
	// UTF-8.
	if typ == opText && !utf8.Valid(msg) {
		return 0, nil, c.fail(StatusInvalidFramePayload, errFrame("text message is not UTF-8"))
	}
	c.idle.touch()
	return MessageType(typ), append([]byte(nil), msg...), nil
}

// minPayloadGrowth is the least a payload buffer grows by when it is full.
const minPayloadGrowth = 4 << 10

// appendPayload appends the next n bytes from r to b. The buffer grows as
// the bytes arrive, to at most twice what has arrived (and at least
// minPayloadGrowth), never to the length a frame header announced: a
// header claiming megabytes that never come costs no more than any other.
func appendPayload(b []byte, r io.Reader, n int64) ([]byte, error) {
	for n > 0 {
		if len(b) == cap(b) {
			b = slices.Grow(b, int(min(n, int64(max(len(b), minPayloadGrowth)))))
		}
		room := b[len(b):cap(b)]
		if int64(len(room)) > n {
			room = room[:n]
		}
		k, err := io.ReadFull(r, room)
		b = b[:len(b)+k]
		n -= int64(k)
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

// nextDataFrame reads frames until the header of a data frame, handling
// the control frames before it (RFC 6455 §5.4: they may come between a
// message's fragments) and checking it against the connection's state:
// inMessage says a fragmented message is in progress.
func (c *Conn) nextDataFrame(inMessage bool) (header, error) {
	for {
		h, err := readHeader(c.br, &c.hbuf)
		if err != nil {
			return h, c.readFailure(err)
		}
		// RFC 6455 §5.1: a server MUST fail on an unmasked frame, a client on
		// a masked one.
		if h.masked == c.client {
			if c.client {
				return h, c.fail(StatusProtocolError, errFrame("masked frame from the server"))
			}
			return h, c.fail(StatusProtocolError, errFrame("unmasked frame from the client"))
		}
		// RFC 7692 §6: RSV1 marks the first frame of a compressed data
		// message, and only when permessage-deflate was negotiated.
		if h.rsv1 && (!c.compressed || h.op.isControl() || h.op == opContinuation) {
			return h, c.fail(StatusProtocolError, errFrame(fmt.Sprintf("RSV1 set on a frame with opcode %#x", byte(h.op))))
		}
		if h.op.isControl() {
			if err := c.control(h); err != nil {
				return h, err
			}
			continue
		}
		// RFC 6455 §5.4: a message is one data frame and then continuations.
		switch {
		case h.op == opContinuation && !inMessage:
			return h, c.fail(StatusProtocolError, errFrame("continuation frame without a message to continue"))
		case h.op != opContinuation && inMessage:
			return h, c.fail(StatusProtocolError, errFrame("new data frame inside a fragmented message"))
		}
		return h, nil
	}
}

// inflate decompresses the message in c.rbuf into c.mbuf; c.dmu is held.
func (c *Conn) inflate(limit int64) ([]byte, error) {
	c.decomp.limit = intLimit(limit)
	msg, err := c.decomp.Decompress(c.mbuf[:0], c.rbuf)
	if msg != nil {
		c.mbuf = msg
	}
	switch {
	case errors.Is(err, ErrMessageTooBig):
		// RFC 7692 §8.1 / RFC 6455 §7.4.1: a decompression bomb is too big.
		return nil, c.fail(StatusMessageTooBig, err)
	case err != nil:
		return nil, c.fail(StatusInvalidFramePayload, err)
	}
	return msg, nil
}

// readFailure turns a read error into the connection's final error: a
// malformed frame fails the connection with 1002, anything else (the peer
// vanished, a deadline) just closes it.
func (c *Conn) readFailure(err error) error {
	var fe errFrame
	if errors.As(err, &fe) {
		return c.fail(StatusProtocolError, err)
	}
	c.nc.Close()
	if c.closeSent.Load() && errors.Is(err, io.EOF) {
		return ErrClosed
	}
	return fmt.Errorf("wsdeflate: read: %w", err)
}

// control handles one control frame (RFC 6455 §5.5).
func (c *Conn) control(h header) error {
	var buf [maxControlPayload]byte
	p := buf[:h.length]
	if _, err := io.ReadFull(c.br, p); err != nil {
		return c.readFailure(unexpected(err))
	}
	if h.masked {
		mask(h.key, 0, p)
	}
	switch h.op {
	case opPing:
		// RFC 6455 §5.5.2: answer with a pong carrying the same payload,
		// unless our close frame has gone out.
		if err := c.queuePong(p); err != nil {
			return c.readFailure(err)
		}
	case opPong:
		if len(p) == 4 {
			c.pingMu.Lock()
			if ch, ok := c.pings[binary.BigEndian.Uint32(p)]; ok {
				close(ch)
				delete(c.pings, binary.BigEndian.Uint32(p))
			}
			c.pingMu.Unlock()
		}
	case opClose:
		ce, code, err := parseClose(p)
		if err != nil {
			return c.fail(code, err)
		}
		// RFC 6455 §5.5.1: echo the status code back, then close the TCP
		// connection (§7.1.1: the server closes first; a client that sent
		// close already has nothing more to wait for).
		echo := ce.Code
		if echo == StatusNoStatusRcvd {
			echo = StatusNormalClosure
		}
		c.writeClose(echo, "")
		close(c.closeReceived)
		c.nc.Close()
		return ce
	}
	return nil
}
