package wsdeflate

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync/atomic"
	"time"
)

// pingSeq numbers pings so that each pong finds its Ping.
var pingSeq atomic.Uint32

// Ping sends a ping and waits for its pong (RFC 6455 §5.5.2), which a Read
// running in another goroutine receives: without one, Ping waits until ctx
// ends, or until the connection does (an error wrapping ErrClosed). ctx
// alone bounds Ping: waiting behind a frame being written (a large message
// to a slow peer), writing the ping, and waiting for the pong. If ctx ends while Ping waits for the frame being written, or for
// the pong, the connection stays usable; if it ends while the ping itself
// is being written, the connection is closed.
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
	if err := c.wmu.lock(ctx); err != nil {
		return fmt.Errorf("wsdeflate: ping: %w", err)
	}
	err := c.writePing(ctx, seq)
	c.unlockFrame()
	if err != nil {
		return err
	}
	select {
	case <-ch:
		return nil
	case <-c.nc.done:
		// The pong may have come just before the end.
		select {
		case <-ch:
			return nil
		default:
			return ErrClosed
		}
	case <-ctx.Done():
		return fmt.Errorf("wsdeflate: ping: %w", ctx.Err())
	}
}

// writePing sends the ping numbered seq while c.wmu is held.
func (c *Conn) writePing(ctx context.Context, seq uint32) error {
	if c.closeSent.Load() {
		return ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("wsdeflate: ping: %w", err)
	}
	p := binary.BigEndian.AppendUint32(c.ctlBuf[:0], seq)
	return c.writeFrameCtx(ctx, true, opPing, false, p, ownPayload)
}

// queuePong answers a ping for Read (RFC 6455 §5.5.2): the pong goes out
// now if no frame is being written, or else right after that frame, from
// the goroutine that wrote it, so that Read never waits behind a data
// frame. Only the latest ping is answered (§5.5.3 allows it).
func (c *Conn) queuePong(p []byte) error {
	c.pongMu.Lock()
	c.pongLen = copy(c.pongBuf[:], p)
	c.pongMu.Unlock()
	c.pongPending.Store(true)
	if !c.wmu.TryLock() {
		return nil
	}
	return c.unlockFrame()
}

// writePong sends the queued pong while c.wmu is held, within
// controlWriteTimeout, unless our close frame has gone out (RFC 6455
// §5.5.1: nothing follows it).
func (c *Conn) writePong() error {
	if c.closeSent.Load() {
		return nil
	}
	c.pongMu.Lock()
	p := c.ctlBuf[:copy(c.ctlBuf[:], c.pongBuf[:c.pongLen])]
	c.pongMu.Unlock()
	if err := c.writeFrameBy(time.Now().Add(controlWriteTimeout), opPong, p); err != nil {
		return c.writeFailure(context.Background(), err)
	}
	return nil
}
