package wsdeflate

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// serverStream is the HTTP/2 stream of an Extended CONNECT (RFC 8441 §5)
// seen as the net.Conn a Conn runs over: frames are read from the request
// body and written to the ResponseWriter, each Write flushed so that it
// leaves as DATA at once, and deadlines go through the
// http.ResponseController. The handler owns the ResponseWriter only until
// it returns, so once the stream is closed (Close, or the request's
// context ending) nothing touches the writer or its controller again.
type serverStream struct {
	body   io.ReadCloser
	w      http.ResponseWriter
	rc     *http.ResponseController
	local  net.Addr
	remote net.Addr
	stop   func() bool // stops watching the request's context

	mu      sync.Mutex
	idle    sync.Cond // signalled when writes drops to 0
	ended   bool      // w and rc are no longer ours
	writes  int       // Writes in progress
	readDL  time.Time // the deadlines last set, so that a frame that
	writeDL time.Time // sets the same one again costs nothing
}

func newServerStream(w http.ResponseWriter, r *http.Request, rc *http.ResponseController) *serverStream {
	s := &serverStream{body: r.Body, w: w, rc: rc, remote: streamAddr(r.RemoteAddr)}
	s.idle.L = &s.mu
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		s.local = a
	} else {
		s.local = streamAddr("")
	}
	// The request's context ends when the stream does: the client reset
	// it, the connection went away, or the handler returned. The handler
	// may be gone, so only the body is touched.
	s.stop = context.AfterFunc(r.Context(), func() {
		s.mu.Lock()
		s.ended = true
		s.mu.Unlock()
		s.body.Close()
	})
	return s
}

// Read reads the client's frames from the request body. The stream's end
// (the client's END_STREAM or RST_STREAM) is an error, as a TCP close is on
// HTTP/1.1.
func (s *serverStream) Read(p []byte) (int, error) { return s.body.Read(p) }

// Write writes p to the response and flushes it.
func (s *serverStream) Write(p []byte) (int, error) {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return 0, net.ErrClosed
	}
	s.writes++
	s.mu.Unlock()
	n, err := s.w.Write(p)
	if err == nil {
		err = s.rc.Flush()
	}
	s.mu.Lock()
	if s.writes--; s.writes == 0 {
		s.idle.Broadcast()
	}
	s.mu.Unlock()
	return n, err
}

// Close ends the stream for the Conn: reads fail, and a write the client
// is not taking is cut short by resetting the stream. It returns once no
// Write is in progress, so the handler may return right after it.
func (s *serverStream) Close() error {
	s.body.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ended && s.writes > 0 {
		// A write deadline in the past resets the stream at once, which
		// is what makes the blocked write return.
		s.rc.SetWriteDeadline(time.Now())
	}
	s.ended = true
	for s.writes > 0 {
		s.idle.Wait()
	}
	s.stop()
	return nil
}

// SetReadDeadline puts t on the stream's reads. Once it passes, the body is
// closed for good (net/http's HTTP/2 server), which is what a Conn does
// after a read deadline anyway.
func (s *serverStream) SetReadDeadline(t time.Time) error {
	return s.setDeadline(t, &s.readDL, s.rc.SetReadDeadline)
}

// SetWriteDeadline puts t on the stream's writes. Once it passes, the
// stream is reset (net/http's HTTP/2 server), which is what a Conn does
// after a write deadline anyway.
func (s *serverStream) SetWriteDeadline(t time.Time) error {
	return s.setDeadline(t, &s.writeDL, s.rc.SetWriteDeadline)
}

// SetDeadline sets both deadlines.
func (s *serverStream) SetDeadline(t time.Time) error {
	if err := s.SetReadDeadline(t); err != nil {
		return err
	}
	return s.SetWriteDeadline(t)
}

func (s *serverStream) setDeadline(t time.Time, last *time.Time, set func(time.Time) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.ended:
		return net.ErrClosed
	case t.Equal(*last):
		// Each call is a message to the HTTP/2 connection's goroutine; a
		// Conn clears the deadline around every frame.
		return nil
	}
	*last = t
	return set(t)
}

// LocalAddr returns the local address of the HTTP/2 connection.
func (s *serverStream) LocalAddr() net.Addr { return s.local }

// RemoteAddr returns the client's address, as the request gives it.
func (s *serverStream) RemoteAddr() net.Addr { return s.remote }

// streamAddr turns Request.RemoteAddr into a net.Addr: a *net.TCPAddr when
// it is an IP and port, as net/http's server sets it.
func streamAddr(s string) net.Addr {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return net.TCPAddrFromAddrPort(ap)
	}
	return textAddr(s)
}

// textAddr is an address known only as text.
type textAddr string

func (a textAddr) Network() string { return "tcp" }
func (a textAddr) String() string  { return string(a) }
