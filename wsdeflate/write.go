package wsdeflate

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
)

// Write sends p as one message of type typ, compressed when
// permessage-deflate was negotiated and p is at least 128 bytes. Any number
// of goroutines may Write at once; each message goes out whole. ctx bounds
// this call: its deadline becomes the write deadline, and cancelling it
// interrupts the write. A failed write leaves the connection unusable.
func (c *Conn) Write(ctx context.Context, typ MessageType, p []byte) error {
	if typ != MessageText && typ != MessageBinary {
		return fmt.Errorf("wsdeflate: write: unknown message type %d", typ)
	}
	c.msgMu.Lock()
	defer c.msgMu.Unlock()
	if c.closeSent.Load() {
		return ErrClosed
	}
	stop := watchContext(ctx, c.nc.SetWriteDeadline)
	defer stop()
	payload, owned, rsv1 := p, false, false
	if c.comp != nil && len(p) >= c.threshold {
		out, err := c.comp.Compress(c.wbuf[:0], p)
		if err != nil {
			return c.writeFailure(err)
		}
		// RFC 7692 §6: RSV1 on the (only) frame of a compressed message.
		c.wbuf, payload, owned, rsv1 = out, out, true, true
	}
	if err := c.writeDataFrame(true, opcode(typ), rsv1, payload, owned); err != nil {
		return err
	}
	c.idle.touch()
	return nil
}

// writeDataFrame writes one frame of a data message under c.wmu, unless
// the close frame has gone out (RFC 6455 §5.5.1: no data after it).
func (c *Conn) writeDataFrame(fin bool, op opcode, rsv1 bool, payload []byte, owned bool) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closeSent.Load() {
		return ErrClosed
	}
	if err := c.writeFragment(fin, op, rsv1, payload, owned); err != nil {
		return c.writeFailure(err)
	}
	return nil
}

// writeFailure ends the write side after an error: what the peer received
// is unknown, so nothing more may follow.
func (c *Conn) writeFailure(err error) error {
	c.closeSent.Store(true)
	c.nc.Close()
	c.idle.end()
	return fmt.Errorf("wsdeflate: write: %w", err)
}

// writeControl sends a ping or pong with payload p (at most 125 bytes).
func (c *Conn) writeControl(op opcode, p []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closeSent.Load() {
		return ErrClosed
	}
	buf := c.ctlBuf[:len(p)]
	copy(buf, p)
	if err := c.writeFrame(op, false, buf, true); err != nil {
		return c.writeFailure(err)
	}
	return nil
}

// writeFrame writes one final frame and flushes it; c.wmu must be held,
// and c.msgMu too when owned is false (it masks a copy in c.wbuf).
// owned says payload is the connection's own buffer, which a client may
// mask in place; otherwise it masks a copy.
func (c *Conn) writeFrame(op opcode, rsv1 bool, payload []byte, owned bool) error {
	return c.writeFragment(true, op, rsv1, payload, owned)
}

// writeFragment is writeFrame for any frame of a message.
func (c *Conn) writeFragment(fin bool, op opcode, rsv1 bool, payload []byte, owned bool) error {
	h := header{fin: fin, rsv1: rsv1, op: op, length: int64(len(payload))}
	if c.client {
		// RFC 6455 §5.3: a fresh, unpredictable key for every frame.
		h.masked = true
		binary.LittleEndian.PutUint32(h.key[:], rand.Uint32())
		if !owned {
			c.wbuf = append(c.wbuf[:0], payload...)
			payload = c.wbuf
		}
		mask(h.key, 0, payload)
	}
	c.hdrBuf = appendHeader(c.hdrBuf[:0], h)
	if _, err := c.bw.Write(c.hdrBuf); err != nil {
		return err
	}
	if _, err := c.bw.Write(payload); err != nil {
		return err
	}
	return c.bw.Flush()
}

// pingSeq numbers pings so that each pong finds its Ping.
var pingSeq atomic.Uint32

// Ping sends a ping and waits for its pong (RFC 6455 §5.5.2), which a Read
// running in another goroutine receives: without one, Ping waits until ctx
// ends.
func (c *Conn) Ping(ctx context.Context) error {
	seq := pingSeq.Add(1)
	ch := make(chan struct{})
	c.pingMu.Lock()
	c.pings[seq] = ch
	c.pingMu.Unlock()
	defer func() {
		c.pingMu.Lock()
		delete(c.pings, seq)
		c.pingMu.Unlock()
	}()
	var p [4]byte
	binary.BigEndian.PutUint32(p[:], seq)
	if err := c.writeControl(opPing, p[:]); err != nil {
		return err
	}
	select {
	case <-ch:
		return nil
	case <-c.closeReceived:
		return ErrClosed
	case <-ctx.Done():
		return fmt.Errorf("wsdeflate: ping: %w", ctx.Err())
	}
}
