package wsdeflate

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"time"
	"unicode/utf8"
)

// StatusCode is a close frame's status code (RFC 6455 §7.4): 16 bits on
// the wire, an int here so that CloseStatus can report -1 for no close
// frame, as coder/websocket's does.
type StatusCode int

// Status codes of RFC 6455 §7.4.1 and the IANA registry (§11.7).
const (
	StatusNormalClosure   StatusCode = 1000
	StatusGoingAway       StatusCode = 1001
	StatusProtocolError   StatusCode = 1002
	StatusUnsupportedData StatusCode = 1003
	// StatusNoStatusRcvd is reported for a close frame without a code; it is
	// never sent (RFC 6455 §7.4.1).
	StatusNoStatusRcvd StatusCode = 1005
	// StatusAbnormalClosure is reported when the connection ended without a
	// close frame; it is never sent.
	StatusAbnormalClosure       StatusCode = 1006
	StatusInvalidFramePayload   StatusCode = 1007
	StatusPolicyViolation       StatusCode = 1008
	StatusMessageTooBig         StatusCode = 1009
	StatusMandatoryExtension    StatusCode = 1010
	StatusInternalError         StatusCode = 1011
	StatusServiceRestart        StatusCode = 1012
	StatusTryAgainLater         StatusCode = 1013
	StatusBadGateway            StatusCode = 1014
	statusTLSHandshake          StatusCode = 1015
	maxCloseReason                         = maxControlPayload - 2
	statusApplicationRangeStart StatusCode = 3000
	statusPrivateRangeEnd       StatusCode = 4999
)

// validWireCode reports whether code may appear in a close frame
// (RFC 6455 §7.4.1, §7.4.2): the defined codes other than 1004 (reserved),
// 1005, 1006 and 1015 (never sent), plus the registered 1012–1014, and the
// 3000–4999 ranges for libraries and applications.
func validWireCode(code StatusCode) bool {
	switch {
	case code >= 1000 && code <= 1003, code >= 1007 && code <= 1014:
		return true
	case code >= statusApplicationRangeStart && code <= statusPrivateRangeEnd:
		return true
	}
	return false
}

// CloseError is the close frame the peer sent: Read returns it, as a
// value, once the close handshake started by the peer has been answered.
// Both errors.As forms find it: a CloseError target (coder/websocket's
// idiom) and a *CloseError one.
type CloseError struct {
	// Code is the peer's status code; StatusNoStatusRcvd when it sent none.
	Code StatusCode
	// Reason is the peer's UTF-8 reason, possibly empty.
	Reason string
}

func (e CloseError) Error() string {
	return fmt.Sprintf("wsdeflate: peer closed the connection: %d %q", e.Code, e.Reason)
}

// As lets errors.As fill a **CloseError target from a CloseError value and
// a *CloseError target from a *CloseError, so that either form of the
// idiom works whichever form is in the chain.
func (e CloseError) As(target any) bool {
	switch t := target.(type) {
	case *CloseError:
		*t = e
		return true
	case **CloseError:
		*t = &e
		return true
	}
	return false
}

// CloseStatus returns the code of the peer's close frame carried by err, or
// -1 when err holds no CloseError (no close frame was received).
func CloseStatus(err error) StatusCode {
	var ce CloseError
	if errors.As(err, &ce) {
		return ce.Code
	}
	return -1
}

// ErrClosed reports use of a connection after its close handshake started
// or after it failed. A Write, Writer or Ping whose frame Close cut short
// returns an error wrapping it.
var ErrClosed = errors.New("wsdeflate: connection closed")

// closeHandshakeTimeout is Close's bound: waiting for a frame being written,
// sending the close frame and receiving the peer's all fit within it.
const closeHandshakeTimeout = 5 * time.Second

// errInterruptedByClose is what a Write, Writer or Ping returns when Close
// closed the socket under the frame it was writing.
var errInterruptedByClose = fmt.Errorf("%w: Close ended a frame the peer had not taken within %v", ErrClosed, closeHandshakeTimeout)

// parseClose decodes a close frame's payload (RFC 6455 §5.5.1). A payload of
// one byte, an invalid code, or a reason that is not UTF-8 is a failure,
// with the status code to fail the connection with.
func parseClose(p []byte) (CloseError, StatusCode, error) {
	switch {
	case len(p) == 0:
		return CloseError{Code: StatusNoStatusRcvd}, 0, nil
	case len(p) == 1:
		return CloseError{}, StatusProtocolError, errFrame("close frame with a 1-byte payload")
	}
	code := StatusCode(binary.BigEndian.Uint16(p))
	if !validWireCode(code) {
		return CloseError{}, StatusProtocolError, errFrame(fmt.Sprintf("close frame with invalid code %d", code))
	}
	// RFC 6455 §5.5.1: the reason is UTF-8.
	if !utf8.Valid(p[2:]) {
		return CloseError{}, StatusInvalidFramePayload, errFrame("close reason is not UTF-8")
	}
	return CloseError{Code: code, Reason: string(p[2:])}, 0, nil
}

// appendClose appends a close frame payload for code and reason.
func appendClose(b []byte, code StatusCode, reason string) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(code))
	return append(b, reason...)
}

// Close runs the close handshake with code and reason (RFC 6455 §7.1.2) and
// closes the underlying connection. It returns within 5 seconds whatever
// the peer does: that bound covers waiting for a frame being written to
// finish (the close frame cannot go inside one), sending the close frame,
// and waiting for the peer's. If another goroutine is in Read, that Read
// receives the peer's close frame and returns a CloseError; otherwise Close
// reads and discards messages until the close frame arrives. A peer that
// does not answer in time is not an error. A frame still being written when
// the 5 seconds end (its peer has stopped reading) is cut short: Close
// closes the connection without sending its close frame and says so in its
// error, and the Write, Writer or Ping writing that frame returns an error
// wrapping ErrClosed. A code that may not be sent (1005, 1006, 1015, or
// unassigned) or a reason longer than 123 bytes is an error and sends
// nothing.
func (c *Conn) Close(code StatusCode, reason string) error {
	if !validWireCode(code) {
		return fmt.Errorf("wsdeflate: status code %d may not be sent", code)
	}
	if len(reason) > maxCloseReason {
		return fmt.Errorf("wsdeflate: close reason of %d bytes exceeds %d", len(reason), maxCloseReason)
	}
	if !utf8.ValidString(reason) {
		return errors.New("wsdeflate: close reason is not UTF-8")
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.closeTimeout)
	defer cancel()
	err := c.sendClose(ctx, code, reason)
	if err == nil {
		c.awaitPeerClose(ctx)
	}
	c.closedByClose.Store(true)
	cerr := c.nc.Close()
	c.idle.end()
	switch {
	case err != nil:
		return err
	// Receiving the peer's close frame may have closed the socket already.
	case cerr != nil && !errors.Is(cerr, net.ErrClosed):
		return fmt.Errorf("wsdeflate: close: %w", cerr)
	}
	return nil
}

// awaitPeerClose waits, until ctx ends, for the peer's close frame: the Read
// in progress receives it, or, when none is, it reads and discards
// messages until it comes.
func (c *Conn) awaitPeerClose(ctx context.Context) {
	select {
	case c.readLock <- struct{}{}:
		dl, _ := ctx.Deadline()
		c.nc.SetReadDeadline(dl)
		for c.readErr == nil {
			c.readMessage()
		}
		<-c.readLock
	case <-c.closeReceived:
	case <-ctx.Done():
	}
}

// sendClose sends one close frame, at most once per connection, waiting
// for the frame being written and writing its own until ctx ends.
func (c *Conn) sendClose(ctx context.Context, code StatusCode, reason string) error {
	if err := c.wmu.lock(ctx); err != nil {
		return fmt.Errorf("wsdeflate: close: no close frame sent: the frame being written did not finish in time: %w", err)
	}
	defer c.unlockFrame()
	if c.closeSent.Swap(true) {
		return nil
	}
	dl, _ := ctx.Deadline()
	if err := c.writeFrameBy(dl, opClose, appendClose(c.ctlBuf[:0], code, reason)); err != nil {
		return fmt.Errorf("wsdeflate: close: %w", err)
	}
	return nil
}

// writeClose sends the close frame Read sends, the echo of the peer's or
// the one that fails the connection, within controlWriteTimeout.
func (c *Conn) writeClose(code StatusCode, reason string) error {
	ctx, cancel := context.WithTimeout(context.Background(), controlWriteTimeout)
	defer cancel()
	return c.sendClose(ctx, code, reason)
}

// fail fails the connection (RFC 6455 §7.1.7): it sends a close frame with
// code, unless one was sent already, closes the TCP connection, and
// returns the error every later Read returns.
func (c *Conn) fail(code StatusCode, err error) error {
	c.writeClose(code, "")
	c.nc.Close()
	return fmt.Errorf("wsdeflate: connection failed with %d: %w", code, err)
}
