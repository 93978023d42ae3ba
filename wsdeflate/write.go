package wsdeflate

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// controlWriteTimeout bounds the write of a frame that no caller's context
// covers: a pong, and the close frame Read sends to echo the peer's or to
// fail the connection. A peer that has not taken a control frame in this
// long has stopped reading.
const controlWriteTimeout = 5 * time.Second

// Write sends p as one message of type typ, compressed when
// permessage-deflate was negotiated and p is at least the connection's
// CompressionThreshold long. Any number of goroutines may Write at once;
// each message goes out whole.
//
// ctx bounds this call, waiting for other writers included, and nothing
// after it: its deadline is on the socket only while this message's frame
// is written, so the pongs, pings and close frame that follow carry their
// own. If ctx ends while Write waits for other writers, Write returns ctx's
// error and the connection stays usable. A failure once the message is
// under way (ctx ending, the peer vanishing, Close cutting short a frame
// the peer does not take) closes the connection, and the error wraps its
// cause: ctx's error, or ErrClosed when Close cut the frame.
func (c *Conn) Write(ctx context.Context, typ MessageType, p []byte) error {
	if typ != MessageText && typ != MessageBinary {
		return fmt.Errorf("wsdeflate: write: unknown message type %d", typ)
	}
	if err := c.msgMu.lock(ctx); err != nil {
		return fmt.Errorf("wsdeflate: write: %w", err)
	}
	defer c.msgMu.Unlock()
	// The frame lock is taken before compressing: a Write that gives up
	// waiting for it must not leave the compressor's context ahead of
	// what the peer received.
	if err := c.wmu.lock(ctx); err != nil {
		return fmt.Errorf("wsdeflate: write: %w", err)
	}
	defer c.unlockFrame()
	if c.closeSent.Load() {
		return ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("wsdeflate: write: %w", err)
	}
	payload, buf, rsv1 := p, callerPayload, false
	if c.comp != nil && len(p) >= c.threshold {
		// The payload goes after room for the frame's header.
		out, err := c.comp.Compress(append(c.wbuf[:0], frameHeadroom[:]...), p)
		if err != nil {
			return c.writeFailure(ctx, err)
		}
		// RFC 7692 §6: RSV1 on the (only) frame of a compressed message.
		c.wbuf, payload, buf, rsv1 = out, out[maxHeaderSize:], framedPayload, true
	}
	if err := c.writeFrameCtx(ctx, true, opcode(typ), rsv1, payload, buf); err != nil {
		c.wbuf = nil // the connection is over: keep no large message
		return err
	}
	c.idle.touch()
	return nil
}

// writeDataFrame writes one fragment of a streamed message, waiting for the
// frame lock until ctx ends. The message is under way, so giving up fails
// the connection; after the close frame nothing more goes out (RFC 6455
// §5.5.1) and the stream gets ErrClosed.
func (c *Conn) writeDataFrame(ctx context.Context, fin bool, op opcode, rsv1 bool, payload []byte) error {
	if err := c.wmu.lock(ctx); err != nil {
		return c.writeFailure(ctx, err)
	}
	defer c.unlockFrame()
	if c.closeSent.Load() {
		return ErrClosed
	}
	return c.writeFrameCtx(ctx, fin, op, rsv1, payload, ownPayload)
}

// writeFrameCtx writes one frame while c.wmu is held, with ctx's deadline
// on the socket for exactly as long as that takes; a failure ends the
// connection.
func (c *Conn) writeFrameCtx(ctx context.Context, fin bool, op opcode, rsv1 bool, payload []byte, buf payloadBuf) error {
	c.wwatch.start(ctx)
	err := c.writeFragment(fin, op, rsv1, payload, buf)
	c.wwatch.end()
	if err != nil {
		return c.writeFailure(ctx, err)
	}
	return nil
}

// writeFrameBy writes one final control frame from c.ctlBuf while c.wmu is
// held, with deadline on the socket until it is written.
func (c *Conn) writeFrameBy(deadline time.Time, op opcode, payload []byte) error {
	c.nc.SetWriteDeadline(deadline)
	err := c.writeFragment(true, op, false, payload, ownPayload)
	c.nc.SetWriteDeadline(time.Time{})
	return err
}

// writeFailure ends the write side after an error: what the peer received
// is unknown, so nothing more may follow. The error says why: Close cut
// the frame short, ctx (Background for frames no caller's context covers)
// ended, or the socket failed.
func (c *Conn) writeFailure(ctx context.Context, err error) error {
	c.closeSent.Store(true)
	c.nc.Close()
	c.idle.end()
	switch {
	case c.closedByClose.Load():
		return errInterruptedByClose
	case ctx.Err() != nil && !errors.Is(err, ctx.Err()):
		return fmt.Errorf("wsdeflate: write: %w: %w", ctx.Err(), err)
	}
	return fmt.Errorf("wsdeflate: write: %w", err)
}

// unlockFrame releases c.wmu, first sending the pong Read queued while it
// was held (queuePong), and returns that pong's error.
func (c *Conn) unlockFrame() error {
	var err error
	for {
		if c.pongPending.Swap(false) {
			err = c.writePong()
		}
		c.wmu.Unlock()
		// A ping queued after the check above, while the lock was still
		// held, found TryLock failing: answering it is ours to do.
		if !c.pongPending.Load() || !c.wmu.TryLock() {
			return err
		}
	}
}

// payloadBuf says where a frame's payload lives, which decides what
// writeFragment may do with it.
type payloadBuf int

const (
	// callerPayload is the caller's: a client masks a copy of it.
	callerPayload payloadBuf = iota
	// ownPayload is a buffer of the connection's own, masked in place.
	ownPayload
	// framedPayload is c.wbuf[maxHeaderSize:]: masked in place, with room
	// for the frame's header before it.
	framedPayload
)

// frameHeadroom is the room c.wbuf keeps before a payload for its frame's
// header.
var frameHeadroom [maxHeaderSize]byte

// writeFragment writes one frame of a message and flushes it; c.wmu must
// be held, and c.msgMu too unless buf is ownPayload.
//
// A frame in c.wbuf goes to the socket in one write, however large: its
// header is put in the room before its payload, and bw passes a write
// larger than its free space straight through. Over HTTP/2 every write to
// the stream is a round trip through the connection's goroutine, and over
// HTTP/1.1 a TLS record and a system call, so a header and payload written
// apart would cost two.
func (c *Conn) writeFragment(fin bool, op opcode, rsv1 bool, payload []byte, buf payloadBuf) error {
	h := header{fin: fin, rsv1: rsv1, op: op, length: int64(len(payload))}
	if c.client {
		// RFC 6455 §5.3: a fresh, unpredictable key for every frame.
		h.masked = true
		binary.LittleEndian.PutUint32(h.key[:], rand.Uint32())
		if buf == callerPayload {
			c.wbuf = append(append(c.wbuf[:0], frameHeadroom[:]...), payload...)
			payload, buf = c.wbuf[maxHeaderSize:], framedPayload
		}
		mask(h.key, 0, payload)
	}
	c.hdrBuf = appendHeader(c.hdrBuf[:0], h)
	if buf == framedPayload {
		start := maxHeaderSize - len(c.hdrBuf)
		copy(c.wbuf[start:], c.hdrBuf)
		if _, err := c.bw.Write(c.wbuf[start : maxHeaderSize+len(payload)]); err != nil {
			return err
		}
		return c.bw.Flush()
	}
	if _, err := c.bw.Write(c.hdrBuf); err != nil {
		return err
	}
	if _, err := c.bw.Write(payload); err != nil {
		return err
	}
	return c.bw.Flush()
}
