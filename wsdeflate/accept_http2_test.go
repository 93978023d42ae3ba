package wsdeflate

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// extendedConnect returns the request net/http's HTTP/2 server hands a
// handler for an Extended CONNECT (RFC 8441 §4): method CONNECT, proto
// HTTP/2.0, :protocol among the headers, and no key, Upgrade or
// Connection.
func extendedConnect(body io.Reader) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "https://example.com/ws", body)
	r.Method = http.MethodConnect // NewRequest would read the target as a proxy's authority
	r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/2.0", 2, 0
	r.Header.Set(":protocol", "websocket")
	r.Header.Set("Sec-WebSocket-Version", "13")
	r.Header.Set("Origin", "https://example.com")
	r.Header.Set("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits")
	return r
}

// TestRFC8441HandshakeRefusals checks the answers to Extended CONNECTs
// that are not WebSocket handshakes Accept can take: each is refused with
// an HTTP status before anything is negotiated, and Accept returns an
// error.
func TestRFC8441HandshakeRefusals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		edit    func(*http.Request)
		opts    *AcceptOptions
		status  int
		version bool // the answer carries Sec-WebSocket-Version: 13
	}{
		{"missing :protocol", func(r *http.Request) { r.Header.Del(":protocol") }, nil, http.StatusBadRequest, false},
		{"unknown :protocol", func(r *http.Request) { r.Header.Set(":protocol", "webtransport") }, nil, http.StatusNotImplemented, false},
		{"wrong version", func(r *http.Request) { r.Header.Set("Sec-WebSocket-Version", "8") }, nil, http.StatusBadRequest, true},
		{"no version", func(r *http.Request) { r.Header.Del("Sec-WebSocket-Version") }, nil, http.StatusBadRequest, true},
		// RFC 6455 §10.2 applies over HTTP/2 as it does over HTTP/1.1.
		{"foreign Origin", func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, nil, http.StatusForbidden, false},
		{"bad options", func(*http.Request) {}, &AcceptOptions{CompressionLevel: 12}, http.StatusInternalServerError, false},
		// A CONNECT over HTTP/1.1 is a proxy request, not a WebSocket.
		{"CONNECT over HTTP/1.1", func(r *http.Request) { r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/1.1", 1, 1 }, nil, http.StatusMethodNotAllowed, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := extendedConnect(nil)
			tc.edit(r)
			w := httptest.NewRecorder()
			c, err := Accept(w, r, tc.opts)
			if err == nil {
				c.Close(StatusNormalClosure, "")
				t.Fatalf("Accept took the request; want %d", tc.status)
			}
			if w.Code != tc.status {
				t.Errorf("answered %d (%v); want %d", w.Code, err, tc.status)
			}
			if got := w.Header().Get("Sec-WebSocket-Version") == "13"; got != tc.version {
				t.Errorf("Sec-WebSocket-Version: 13 in the answer is %v; want %v", got, tc.version)
			}
			if w.Header().Get("Sec-WebSocket-Extensions") != "" {
				t.Errorf("a refusal carries Sec-WebSocket-Extensions %q", w.Header().Get("Sec-WebSocket-Extensions"))
			}
		})
	}
}

// streamWriter is a ResponseWriter with what net/http's HTTP/2 server
// offers a handler through http.ResponseController: Flush and deadlines.
// What is written goes to a pipe, as DATA frames go to the client.
type streamWriter struct {
	header http.Header
	code   int
	out    *io.PipeWriter
	writeD time.Time
}

func (w *streamWriter) Header() http.Header  { return w.header }
func (w *streamWriter) WriteHeader(code int) { w.code = code }
func (w *streamWriter) Write(p []byte) (int, error) {
	if w.code != http.StatusOK {
		return len(p), nil // a refusal's body
	}
	return w.out.Write(p)
}
func (w *streamWriter) FlushError() error { return nil }
func (w *streamWriter) SetReadDeadline(time.Time) error {
	return nil
}
func (w *streamWriter) SetWriteDeadline(t time.Time) error {
	if !t.IsZero() && !t.After(time.Now()) {
		// net/http resets the stream: the client stops taking data.
		w.out.CloseWithError(io.ErrClosedPipe)
	}
	w.writeD = t
	return nil
}

// TestRFC8441AcceptAnswers200WithoutKey checks the answer to an Extended
// CONNECT (RFC 8441 §5): no Sec-WebSocket-Key is needed, the answer is 200
// with the negotiated extension and no Sec-WebSocket-Accept, Upgrade or
// Connection, and frames then travel in the request body and the response.
// When the client ends its side of the stream, Read fails with no close
// status (1006) rather than waiting.
func TestRFC8441AcceptAnswers200WithoutKey(t *testing.T) {
	t.Parallel()
	in, toServer := io.Pipe()
	fromServer, out := io.Pipe()
	r := extendedConnect(in)
	w := &streamWriter{header: http.Header{}, out: out}
	c, err := Accept(w, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w.code != http.StatusOK {
		t.Fatalf("answered %d; want 200", w.code)
	}
	for _, h := range []string{"Sec-WebSocket-Accept", "Upgrade", "Connection"} {
		if v := w.header.Get(h); v != "" {
			t.Errorf("the 200 carries %s: %q", h, v)
		}
	}
	if got := w.header.Get("Sec-WebSocket-Extensions"); !strings.HasPrefix(got, ExtensionName) {
		t.Errorf("Sec-WebSocket-Extensions: %q; want permessage-deflate", got)
	}
	// RFC 6455 §5.7's masked text frame "Hello", uncompressed.
	go toServer.Write([]byte{0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58})
	ctx := context.Background()
	typ, msg, err := c.Read(ctx)
	if err != nil || typ != MessageText || string(msg) != "Hello" {
		t.Fatalf("Read: %v %q %v; want text \"Hello\"", typ, msg, err)
	}
	go c.Write(ctx, MessageText, msg)
	frame := make([]byte, 7)
	if _, err := io.ReadFull(fromServer, frame); err != nil || !bytes.Equal(frame, []byte{0x81, 0x05, 'H', 'e', 'l', 'l', 'o'}) {
		t.Fatalf("echo frame % x (%v); want an unmasked text frame \"Hello\"", frame, err)
	}
	toServer.Close() // the client's END_STREAM
	if _, _, err := c.Read(ctx); err == nil || CloseStatus(err) != -1 {
		t.Fatalf("Read after the stream ended: %v; want an error without a close frame", err)
	}
	go io.Copy(io.Discard, fromServer)
	c.Close(StatusNormalClosure, "") // the connection has failed: no close frame can go out
}
