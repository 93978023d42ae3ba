package wsdeflate

import (
	"context"
	"errors"
)

// errDataAfterCloseRead is why a connection fails when a message arrives
// after CloseRead.
var errDataAfterCloseRead = errors.New("data message after CloseRead")

// CloseRead is for connections whose application only writes: it starts a
// goroutine that reads in its place, answering pings and the peer's close
// frame and delivering pongs to Ping. A data message from the peer fails
// the connection with 1008 (policy violation). The returned context is
// cancelled once the read side has ended; cancelling ctx ends it too. Read
// must not be called afterwards.
func (c *Conn) CloseRead(ctx context.Context) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		defer cancel()
		select {
		case c.readLock <- struct{}{}:
		case <-ctx.Done():
			return
		}
		defer func() { <-c.readLock }()
		if c.readErr != nil {
			return
		}
		stop := watchContext(ctx, c.nc.SetReadDeadline)
		defer stop()
		if _, _, err := c.readMessage(); err == nil {
			c.readErr = c.fail(StatusPolicyViolation, errDataAfterCloseRead)
		}
	}()
	return ctx
}
