package wsdeflate

import (
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/squeezehttp/squeeze/internal/httpfield"
)

// AcceptOptions configures Accept. The zero value (or nil) accepts
// same-origin clients, no subprotocol, and permessage-deflate with the
// zero Config.
type AcceptOptions struct {
	// Subprotocols lists the subprotocols the server speaks, most preferred
	// first; the first one the client also offers is chosen (RFC 6455
	// §4.2.2). None is chosen when they share none.
	Subprotocols []string

	// OriginPatterns lists the hosts, other than the request's own, whose
	// pages may connect, as path.Match patterns against the Origin's host
	// (with its port, if any), such as "example.com" or "*.example.com".
	// Browsers send Origin and let any page open a WebSocket to any
	// server, so the check is on by default (RFC 6455 §10.2).
	OriginPatterns []string

	// InsecureSkipOriginCheck accepts every Origin.
	InsecureSkipOriginCheck bool

	// Compression is the server's permessage-deflate policy; see Config
	// for the memory each field saves. Compression.Disabled declines
	// permessage-deflate.
	Compression Config

	// CompressionLevel is the level of the compressor for what this end
	// sends; see DefaultLevel and NewCompressor. 0 means DefaultLevel
	// (1, wsdeflate's own encoder: the fastest, with a live state of at
	// most 288 KiB). 2 to 9 are klauspost's encoders: output a little
	// smaller for a few times level 1's CPU per message at levels 2 to 6,
	// and an order of magnitude more at 9, with a live state of at most
	// 1.25 MiB. The live state is held only while messages flow (see
	// IdleRelease); an idle connection keeps the same window at every
	// level. Other values make Accept fail.
	CompressionLevel int

	// CompressionThreshold is the size below which Write sends a message
	// uncompressed (RFC 7692 lets a sender leave any message uncompressed);
	// Writer streams are always compressed. 0 means
	// DefaultCompressionThreshold; 1 compresses every message but an empty
	// one. Raising it trades bandwidth for the CPU of compressing short
	// messages; it costs no memory. A negative value makes Accept fail.
	CompressionThreshold int

	// ReadLimit is the largest message Read accepts, after decompression;
	// 0 means DefaultReadLimit, and a negative value or math.MaxInt64 no
	// limit beyond memory (see Conn.SetReadLimit). Buffers grow with the
	// bytes that arrive, not with the size a frame announces.
	ReadLimit int64

	// IdleRelease is how long the connection may go without a message
	// before it gives its live encoder and decoder back to the pools and
	// drops its message buffers, keeping only its windows (see "Memory per
	// connection" in the package documentation); 0 means
	// DefaultIdleRelease. A negative value keeps the encoder and decoder for
	// the connection's life; the message buffers are still dropped after
	// DefaultIdleRelease.
	IdleRelease time.Duration
}

// websocketGUID is the key suffix of RFC 6455 §1.3.
const websocketGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

// acceptKey computes Sec-WebSocket-Accept for key (RFC 6455 §4.2.2).
func acceptKey(key string) string {
	h := sha1.Sum([]byte(key + websocketGUID))
	return base64.StdEncoding.EncodeToString(h[:])
}

// Accept completes the server side of the opening handshake and returns the
// connection: an HTTP/1.1 Upgrade (RFC 6455 §4.2), after which it takes
// over the TCP connection, or an HTTP/2 Extended CONNECT (RFC 8441 §4–5),
// answered with 200, after which the Conn runs over the request's stream.
// On a request that is not a valid WebSocket handshake it writes an HTTP
// error response and returns an error. Options the package cannot honour
// (see AcceptOptions) fail Accept with an error naming the field, answered
// with 500 before anything is negotiated.
//
// Over HTTP/2 the stream ends when the handler returns: the handler must
// keep the Conn's users running until it is done with the Conn, and call
// Close (or see Read fail) before returning; after Close no Write reaches
// the ResponseWriter. See "WebSockets over HTTP/2" in the package
// documentation for turning Extended CONNECT on in net/http.
func Accept(w http.ResponseWriter, r *http.Request, opts *AcceptOptions) (*Conn, error) {
	if opts == nil {
		opts = &AcceptOptions{}
	}
	o, err := checkOptions("AcceptOptions", opts.Compression, opts.ReadLimit, opts.IdleRelease, opts.CompressionLevel, opts.CompressionThreshold)
	if err != nil {
		http.Error(w, "wsdeflate: invalid server configuration", http.StatusInternalServerError)
		return nil, err
	}
	// RFC 8441 §5: CONNECT over HTTP/2 with :protocol websocket.
	extended := r.Method == http.MethodConnect && r.ProtoMajor == 2
	var key string
	var status int
	if extended {
		status, err = checkExtendedConnect(r)
	} else {
		key, status, err = checkUpgrade(r)
	}
	if err != nil {
		if status == http.StatusUpgradeRequired || extended && r.Header.Get("Sec-WebSocket-Version") != "13" {
			w.Header().Set("Sec-WebSocket-Version", "13")
		}
		http.Error(w, err.Error(), status)
		return nil, err
	}
	if !opts.InsecureSkipOriginCheck {
		if err := checkOrigin(r, opts.OriginPatterns); err != nil {
			http.Error(w, err.Error(), http.StatusForbidden)
			return nil, err
		}
	}
	subprotocol := chooseSubprotocol(r.Header.Values("Sec-WebSocket-Protocol"), opts.Subprotocols)
	var params *Params
	var ext string
	if resp, p, ok := Negotiate(r.Header.Values("Sec-WebSocket-Extensions"), opts.Compression); ok {
		params, ext = &p, resp
	}
	cfg := connConfig{connOptions: o, subprotocol: subprotocol, params: params}
	if extended {
		return acceptStream(w, r, ext, cfg)
	}
	nc, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, "wsdeflate: cannot take over the connection", http.StatusInternalServerError)
		return nil, fmt.Errorf("wsdeflate: hijack: %w", err)
	}
	// The handshake response goes out by hand: after Hijack the
	// ResponseWriter is no longer ours. Headers the handler set are kept.
	h := w.Header().Clone()
	h.Set("Upgrade", "websocket")
	h.Set("Connection", "Upgrade")
	h.Set("Sec-WebSocket-Accept", acceptKey(key))
	if subprotocol != "" {
		h.Set("Sec-WebSocket-Protocol", subprotocol)
	}
	if ext != "" {
		h.Set("Sec-WebSocket-Extensions", ext)
	}
	nc.SetDeadline(time.Time{})
	brw.WriteString("HTTP/1.1 101 Switching Protocols\r\n")
	h.Write(brw)
	brw.WriteString("\r\n")
	if err := brw.Flush(); err != nil {
		nc.Close()
		return nil, fmt.Errorf("wsdeflate: write handshake: %w", err)
	}
	return newConn(nc, brw.Reader, brw.Writer, cfg), nil
}

// checkUpgrade validates the client's handshake (RFC 6455 §4.2.1) and
// returns its key, or the HTTP status to refuse it with.
func checkUpgrade(r *http.Request) (key string, status int, err error) {
	switch {
	case r.Method != http.MethodGet:
		return "", http.StatusMethodNotAllowed, errors.New("wsdeflate: handshake method is not GET")
	case !r.ProtoAtLeast(1, 1) || r.ProtoMajor != 1:
		return "", http.StatusHTTPVersionNotSupported, errors.New("wsdeflate: handshake is not HTTP/1.1")
	case !httpfield.HasToken(r.Header.Values("Connection"), "upgrade"):
		return "", http.StatusUpgradeRequired, errors.New(`wsdeflate: Connection header lacks "upgrade"`)
	case !httpfield.HasToken(r.Header.Values("Upgrade"), "websocket"):
		return "", http.StatusUpgradeRequired, errors.New(`wsdeflate: Upgrade header lacks "websocket"`)
	case r.Header.Get("Sec-WebSocket-Version") != "13":
		// RFC 6455 §4.4: answer with the versions we speak.
		return "", http.StatusUpgradeRequired, fmt.Errorf("wsdeflate: unsupported Sec-WebSocket-Version %q", r.Header.Get("Sec-WebSocket-Version"))
	}
	key = strings.TrimSpace(r.Header.Get("Sec-WebSocket-Key"))
	// RFC 6455 §4.2.1: the key is 16 random bytes, base64-encoded.
	if raw, err := base64.StdEncoding.DecodeString(key); err != nil || len(raw) != 16 {
		return "", http.StatusBadRequest, fmt.Errorf("wsdeflate: bad Sec-WebSocket-Key %q", key)
	}
	return key, 0, nil
}

// checkOrigin accepts a request without Origin (not from a browser), from
// the request's own host, or from a host matching one of patterns.
func checkOrigin(r *http.Request, patterns []string) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return fmt.Errorf("wsdeflate: bad Origin %q", origin)
	}
	if strings.EqualFold(u.Host, r.Host) {
		return nil
	}
	host := strings.ToLower(u.Host)
	for _, p := range patterns {
		if ok, _ := path.Match(strings.ToLower(p), host); ok {
			return nil
		}
	}
	return fmt.Errorf("wsdeflate: Origin %q is not allowed", origin)
}

// chooseSubprotocol picks the first of ours that the client offered.
func chooseSubprotocol(offered []string, ours []string) string {
	for _, p := range ours {
		for _, v := range offered {
			for t := range strings.SplitSeq(v, ",") {
				if strings.TrimSpace(t) == p {
					return p
				}
			}
		}
	}
	return ""
}
