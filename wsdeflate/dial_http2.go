package wsdeflate

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// errNoExtendedConnect reports that an HTTPClient cannot carry an Extended
// CONNECT, so that Dial opens an HTTP/1.1 connection instead.
var errNoExtendedConnect = errors.New("wsdeflate: the HTTP client cannot send an Extended CONNECT")

// cannotExtendedConnect reports whether err is a RoundTripper refusing to
// send an Extended CONNECT before anything went out: net/http's Transport
// refuses the :protocol header, and golang.org/x/net/http2's Transport
// answers that the server did not enable it (RFC 8441 §3). Neither has an
// error value to compare with, so their messages are matched.
func cannotExtendedConnect(err error) bool {
	s := err.Error()
	return strings.Contains(s, "invalid header field name") || strings.Contains(s, "extended connect not supported")
}

// dialStream opens a WebSocket as an Extended CONNECT over client
// (RFC 8441 §4–5): the request body is a pipe the Conn writes its frames
// into, and the response body carries the server's. It returns
// errNoExtendedConnect when the client cannot send one.
func dialStream(ctx context.Context, client *http.Client, u *url.URL, opts *DialOptions, o connOptions) (*Conn, *http.Response, error) {
	hu := *u
	hu.Scheme = map[bool]string{false: "http", true: "https"}[u.Scheme == "wss" || u.Scheme == "https"]
	s := &clientStream{local: textAddr(""), remote: textAddr(hu.Host)}
	// The request's context is the stream's life: Dial's ctx bounds only
	// the handshake.
	streamCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	streamCtx = httptrace.WithClientTrace(streamCtx, &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		s.local, s.remote = info.Conn.LocalAddr(), info.Conn.RemoteAddr()
	}})
	pr, pw := io.Pipe()
	req, err := http.NewRequestWithContext(streamCtx, http.MethodConnect, hu.String(), pr)
	if err != nil {
		cancel()
		return nil, nil, fmt.Errorf("wsdeflate: dial: %w", err)
	}
	for k, v := range opts.Header {
		req.Header[k] = v
	}
	req.Header.Set(":protocol", "websocket")
	req.Header.Set("Sec-WebSocket-Version", "13")
	if len(opts.Subprotocols) > 0 {
		req.Header.Set("Sec-WebSocket-Protocol", strings.Join(opts.Subprotocols, ", "))
	}
	if offer := opts.Compression.Offer(); offer != "" {
		req.Header.Set("Sec-WebSocket-Extensions", offer)
	}
	// A redirect would be followed with a GET, whose 200 is no WebSocket:
	// the handshake's answer is the first one, as over HTTP/1.1.
	once := *client
	once.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	stopWatch := context.AfterFunc(ctx, cancel)
	resp, err := once.Do(req)
	if !stopWatch() && err == nil {
		err = ctx.Err() // ctx ended the handshake as it succeeded
	}
	if err != nil {
		cancel()
		pr.Close()
		if resp != nil {
			resp.Body.Close()
		}
		if cannotExtendedConnect(err) {
			return nil, nil, errNoExtendedConnect
		}
		return nil, nil, fmt.Errorf("wsdeflate: dial: %w", err)
	}
	fail := func(err error) (*Conn, *http.Response, error) {
		cancel()
		pr.Close()
		resp.Body.Close()
		return nil, resp, err
	}
	if resp.StatusCode != http.StatusOK {
		return fail(fmt.Errorf("wsdeflate: dial: server answered %s", resp.Status))
	}
	sub, params, err := checkAnswer(resp, opts)
	if err != nil {
		return fail(err)
	}
	s.body, s.pw, s.cancel = resp.Body, pw, cancel
	return newConn(s, bufio.NewReaderSize(s, streamBufferSize), bufio.NewWriterSize(s, streamBufferSize), connConfig{
		connOptions: o,
		client:      true,
		subprotocol: sub,
		params:      params,
	}), resp, nil
}

// clientStream is the client's end of an Extended CONNECT's stream seen as
// the net.Conn a Conn runs over. A deadline that passes ends the stream, as
// it does on the server, which is what a Conn does after a deadline anyway.
type clientStream struct {
	body          io.ReadCloser  // the server's frames
	pw            *io.PipeWriter // ours, read by the HTTP/2 transport
	cancel        context.CancelFunc
	local, remote net.Addr

	mu        sync.Mutex
	readTimer *time.Timer
	writeTmr  *time.Timer
	closeOnce sync.Once
}

func (s *clientStream) Read(p []byte) (int, error)  { return s.body.Read(p) }
func (s *clientStream) Write(p []byte) (int, error) { return s.pw.Write(p) }

// Close ends the stream: our side first (the end of the request body,
// END_STREAM), then the request.
func (s *clientStream) Close() error {
	s.end(nil)
	return nil
}

// end ends the stream, the request body with err (nil: io.EOF). A Write
// blocked in the pipe returns io.ErrClosedPipe.
func (s *clientStream) end(err error) {
	s.closeOnce.Do(func() {
		s.pw.CloseWithError(err)
		s.cancel()
		s.body.Close()
	})
}

func (s *clientStream) SetReadDeadline(t time.Time) error {
	return s.setDeadline(&s.readTimer, t)
}

func (s *clientStream) SetWriteDeadline(t time.Time) error {
	return s.setDeadline(&s.writeTmr, t)
}

func (s *clientStream) SetDeadline(t time.Time) error {
	s.SetReadDeadline(t)
	return s.SetWriteDeadline(t)
}

func (s *clientStream) setDeadline(timer **time.Timer, t time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if *timer != nil {
		(*timer).Stop()
	}
	if t.IsZero() {
		return nil
	}
	d := time.Until(t)
	if *timer == nil {
		*timer = time.AfterFunc(d, func() { s.end(os.ErrDeadlineExceeded) })
	} else {
		(*timer).Reset(d)
	}
	return nil
}

func (s *clientStream) LocalAddr() net.Addr  { return s.local }
func (s *clientStream) RemoteAddr() net.Addr { return s.remote }
