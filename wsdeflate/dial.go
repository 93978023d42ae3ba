package wsdeflate

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/squeezehttp/squeeze/internal/httpfield"
)

// DialOptions configures Dial. The zero value (or nil) offers
// permessage-deflate with the zero Config and no subprotocol.
type DialOptions struct {
	// Header holds extra request headers, such as Origin or Authorization.
	Header http.Header

	// Subprotocols are offered in Sec-WebSocket-Protocol, most preferred
	// first.
	Subprotocols []string

	// Compression is the offer made (Config.Offer) and the bound the
	// server's answer is checked against. Compression.Disabled makes no
	// permessage-deflate offer.
	Compression Config

	// TLSConfig is used for wss:// URLs; nil means the zero tls.Config with
	// the URL's host as ServerName.
	TLSConfig *tls.Config

	// CompressionLevel is as in AcceptOptions; other values than 0..9 make
	// Dial fail.
	CompressionLevel int

	// CompressionThreshold is as in AcceptOptions; a negative value makes
	// Dial fail.
	CompressionThreshold int

	// ReadLimit is as in AcceptOptions.
	ReadLimit int64

	// IdleRelease is as in AcceptOptions.
	IdleRelease time.Duration

	// HTTPClient, if set, is tried first: when its Transport speaks
	// HTTP/2 with Extended CONNECT (RFC 8441), as golang.org/x/net/http2's
	// Transport does with a server that enables it, Dial sends the
	// handshake as a CONNECT with :protocol websocket through it, and the
	// Conn runs over that stream, sharing the client's connection with its
	// other requests. When the Transport cannot send one (net/http's
	// Transport refuses the :protocol header; x/net's reports that the
	// server did not enable it), nothing has been sent and Dial goes on
	// over HTTP/1.1 with NetDial and TLSConfig, as without HTTPClient. A
	// client with a Timeout makes Dial fail: the timeout would end the
	// connection, not the handshake, which ctx bounds. x/net's Transport
	// keeps a buffer for each open request body as large as the server's
	// SETTINGS_MAX_FRAME_SIZE, up to 512 KiB (net/http's server allows
	// 1 MiB frames unless http.HTTP2Config.MaxReadFrameSize says less), on
	// top of what the Conn keeps.
	HTTPClient *http.Client

	// NetDial, if set, opens the connection to addr ("host:port") in place
	// of a net.Dialer's TCP connection: for proxies, Unix sockets or
	// in-memory pipes. TLS is still layered on top for wss:// URLs.
	NetDial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// maxHandshakeResponse bounds what Dial reads of the server's handshake
// response (status line and headers, and the body of a refusal), so that a
// server streaming header lines cannot make it buffer them until ctx ends.
// A 101 response is a few hundred bytes; net/http's client allows 10 MB.
const maxHandshakeResponse = 64 << 10

// Dial opens a WebSocket connection to a ws:// or wss:// URL (RFC 6455
// §4.1), or over HTTP/2 (RFC 8441) through DialOptions.HTTPClient. ctx bounds the TCP connect and the handshake. The handshake
// response may be at most 64 KiB (status line and headers); a larger one
// fails Dial with an error saying so. The handshake response is returned
// also on failure when one was read, for its status and headers; its body
// is closed. Options the package cannot honour (see DialOptions) fail Dial
// before it connects, with an error naming the field.
func Dial(ctx context.Context, rawURL string, opts *DialOptions) (*Conn, *http.Response, error) {
	if opts == nil {
		opts = &DialOptions{}
	}
	o, err := checkOptions("DialOptions", opts.Compression, opts.ReadLimit, opts.IdleRelease, opts.CompressionLevel, opts.CompressionThreshold)
	if err != nil {
		return nil, nil, err
	}
	if opts.HTTPClient != nil && opts.HTTPClient.Timeout != 0 {
		return nil, nil, fmt.Errorf("wsdeflate: DialOptions.HTTPClient.Timeout is %v; want 0 (ctx bounds the handshake)", opts.HTTPClient.Timeout)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, nil, fmt.Errorf("wsdeflate: dial: %w", err)
	}
	var secure bool
	switch u.Scheme {
	case "ws", "http":
	case "wss", "https":
		secure = true
	default:
		return nil, nil, fmt.Errorf("wsdeflate: dial: scheme %q is not ws or wss", u.Scheme)
	}
	if opts.HTTPClient != nil {
		c, resp, err := dialStream(ctx, opts.HTTPClient, u, opts, o)
		if err != errNoExtendedConnect {
			return c, resp, err
		}
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), map[bool]string{false: "80", true: "443"}[secure])
	}
	netDial := opts.NetDial
	if netDial == nil {
		netDial = new(net.Dialer).DialContext
	}
	nc, err := netDial(ctx, "tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("wsdeflate: dial: %w", err)
	}
	stop := watchContext(ctx, nc.SetDeadline)
	defer stop()
	if secure {
		cfg := opts.TLSConfig.Clone()
		if cfg == nil {
			cfg = &tls.Config{}
		}
		if cfg.ServerName == "" {
			cfg.ServerName = u.Hostname()
		}
		// RFC 6455 §4.1 speaks HTTP/1.1; never let ALPN pick h2.
		cfg.NextProtos = []string{"http/1.1"}
		tc := tls.Client(nc, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			nc.Close()
			return nil, nil, fmt.Errorf("wsdeflate: dial: tls: %w", err)
		}
		nc = tc
	}
	c, resp, err := handshake(ctx, nc, u, opts, o)
	if err != nil {
		nc.Close()
		return nil, resp, err
	}
	// The handshake's deadline must not outlive it.
	stop()
	nc.SetDeadline(time.Time{})
	return c, resp, nil
}

// handshake sends the opening request over nc and checks the response
// (RFC 6455 §4.1, RFC 7692 §5).
func handshake(ctx context.Context, nc net.Conn, u *url.URL, opts *DialOptions, o connOptions) (*Conn, *http.Response, error) {
	var raw [16]byte
	rand.Read(raw[:])
	key := base64.StdEncoding.EncodeToString(raw[:])
	hu := *u
	hu.Scheme = map[bool]string{false: "http", true: "https"}[u.Scheme == "wss" || u.Scheme == "https"]
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, hu.String(), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("wsdeflate: dial: %w", err)
	}
	for k, v := range opts.Header {
		req.Header[k] = v
	}
	req.Header.Set("Upgrade", "websocket")
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Sec-WebSocket-Key", key)
	req.Header.Set("Sec-WebSocket-Version", "13")
	if len(opts.Subprotocols) > 0 {
		req.Header.Set("Sec-WebSocket-Protocol", strings.Join(opts.Subprotocols, ", "))
	}
	if offer := opts.Compression.Offer(); offer != "" {
		req.Header.Set("Sec-WebSocket-Extensions", offer)
	}
	bw := bufio.NewWriter(nc)
	if err := req.Write(bw); err != nil {
		return nil, nil, fmt.Errorf("wsdeflate: dial: write handshake: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return nil, nil, fmt.Errorf("wsdeflate: dial: write handshake: %w", err)
	}
	limited := &handshakeReader{r: nc, n: maxHandshakeResponse}
	br := bufio.NewReader(limited)
	resp, err := http.ReadResponse(br, req)
	switch {
	case errors.Is(err, errHandshakeTooLarge):
		return nil, nil, fmt.Errorf("wsdeflate: dial: handshake response exceeds %d KiB", maxHandshakeResponse>>10)
	case err != nil:
		return nil, nil, fmt.Errorf("wsdeflate: dial: read handshake: %w", err)
	}
	resp.Body.Close()
	// RFC 6455 §4.1: each of these failures MUST fail the connection.
	switch {
	case resp.StatusCode != http.StatusSwitchingProtocols:
		return nil, resp, fmt.Errorf("wsdeflate: dial: server answered %s", resp.Status)
	case !httpfield.HasToken(resp.Header.Values("Upgrade"), "websocket"):
		return nil, resp, errors.New(`wsdeflate: dial: Upgrade header lacks "websocket"`)
	case !httpfield.HasToken(resp.Header.Values("Connection"), "upgrade"):
		return nil, resp, errors.New(`wsdeflate: dial: Connection header lacks "upgrade"`)
	case resp.Header.Get("Sec-WebSocket-Accept") != acceptKey(key):
		return nil, resp, errors.New("wsdeflate: dial: wrong Sec-WebSocket-Accept")
	}
	sub, params, err := checkAnswer(resp, opts)
	if err != nil {
		return nil, resp, err
	}
	limited.n = -1 // the handshake is over: frames are bounded by the read limit
	bufw := bufio.NewWriterSize(nc, 4<<10)
	return newConn(nc, br, bufw, connConfig{
		connOptions: o,
		client:      true,
		subprotocol: sub,
		params:      params,
	}), resp, nil
}

// checkAnswer checks the subprotocol and extension the server's
// handshake response agreed to against what was offered (RFC 6455 §4.1,
// RFC 7692 §5).
func checkAnswer(resp *http.Response, opts *DialOptions) (sub string, params *Params, err error) {
	sub = resp.Header.Get("Sec-WebSocket-Protocol")
	if sub != "" && !slices.Contains(opts.Subprotocols, sub) {
		return "", nil, fmt.Errorf("wsdeflate: dial: server chose subprotocol %q, which was not offered", sub)
	}
	p, ok, err := ParseResponse(resp.Header.Values("Sec-WebSocket-Extensions"), opts.Compression)
	switch {
	case err != nil:
		return "", nil, fmt.Errorf("wsdeflate: dial: %w", err)
	case ok:
		params = &p
	}
	return sub, params, nil
}

// errHandshakeTooLarge is what handshakeReader returns past its limit.
var errHandshakeTooLarge = errors.New("wsdeflate: handshake response too large")

// handshakeReader reads from r at most n bytes, then fails with
// errHandshakeTooLarge; n < 0 lifts the limit, once the handshake is over,
// so the buffered reader on top of it can go on reading frames.
type handshakeReader struct {
	r io.Reader
	n int64
}

func (h *handshakeReader) Read(p []byte) (int, error) {
	switch {
	case h.n < 0:
		return h.r.Read(p)
	case h.n == 0:
		return 0, errHandshakeTooLarge
	}
	if int64(len(p)) > h.n {
		p = p[:h.n]
	}
	n, err := h.r.Read(p)
	h.n -= int64(n)
	return n, err
}
