package benchmarks

import (
	"context"
	"net"
	"net/http"
	"sync"

	"github.com/coder/websocket"
	"github.com/squeezehttp/squeeze/wsdeflate"
)

// pipeListener is a net.Listener whose connections are in-memory pipes
// (net.Pipe): one process can then hold 10 000 connection pairs without
// 20 000 file descriptors. Both libraries run over it unchanged, through
// an http.Server on the server side and a custom dialer on the client side.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

// dial is a DialContext that hands the server end of a new pipe to Accept.
func (l *pipeListener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-l.done:
		return nil, net.ErrClosed
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// servePipe serves h on a pipeListener and returns its ws:// URL, a dialer
// for impl's client over it, and a function that stops the server.
func servePipe(impl wsEchoImpl, takeover bool) (url string, dial func(context.Context, string) (wsEchoClient, *http.Response, error), stop func()) {
	l := newPipeListener()
	srv := &http.Server{Handler: impl.serve}
	go srv.Serve(l)
	cfg := wsdeflate.Config{ServerNoContextTakeover: !takeover, ClientNoContextTakeover: !takeover}
	coderMode := websocket.CompressionNoContextTakeover
	if takeover {
		coderMode = websocket.CompressionContextTakeover
	}
	client := &http.Client{Transport: &http.Transport{DialContext: l.dial}}
	switch impl.name {
	case "ours":
		dial = func(ctx context.Context, url string) (wsEchoClient, *http.Response, error) {
			c, resp, err := wsdeflate.Dial(ctx, url, &wsdeflate.DialOptions{Compression: cfg, NetDial: l.dial})
			return oursClient{c}, resp, err
		}
	case "coder":
		dial = func(ctx context.Context, url string) (wsEchoClient, *http.Response, error) {
			c, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{CompressionMode: coderMode, HTTPClient: client})
			return coderClient{c}, resp, err
		}
	default:
		panic("servePipe: no pipe dialer for " + impl.name)
	}
	return "ws://pipe/", dial, func() { srv.Close(); l.Close() }
}
