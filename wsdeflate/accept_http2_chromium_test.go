package wsdeflate

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/interop"
)

// chromiumTLSPage opens a wss:// WebSocket to the https origin that served
// it, so that over HTTP/2 with Extended CONNECT the socket rides the page's
// connection. It sends %d messages one at a time, alternating text (with
// characters of one to four UTF-8 bytes) and binary (every byte value),
// of 0 bytes to about 20 KB, and checks that each echo is byte-exact. The
// server closes with code 4000 once it has echoed them all; the page
// writes what its close event saw into the title: "closed 4000 <reason>
// clean N" on success, "failed: ..." otherwise.
const chromiumTLSPage = `<!doctype html><title>start</title>
<script>
const total = %d;
function text(i) {
	const size = (i * 7919) %% (20 * 1024);
	const alphabet = Array.from("abc{}\":,0123 é€😀\n"); // code points, never half a surrogate pair
	const s = [];
	for (let j = 0; j < size; j++) s.push(alphabet[(i + j * 13) %% alphabet.length]);
	return s.join("");
}
function binary(i) {
	const b = new Uint8Array((i * 104729) %% (20 * 1024));
	for (let j = 0; j < b.length; j++) b[j] = (i * 31 + j * (j %% 7)) & 255;
	return b;
}
function same(a, b) {
	if (typeof a === "string") return a === b;
	if (!(b instanceof ArrayBuffer)) return false;
	const x = new Uint8Array(b);
	if (x.length !== a.length) return false;
	for (let j = 0; j < x.length; j++) if (x[j] !== a[j]) return false;
	return true;
}
const ws = new WebSocket("wss://" + location.host + "/ws");
ws.binaryType = "arraybuffer";
let i = 0, sent, failed = false;
function next() {
	sent = i %% 2 === 0 ? text(i) : binary(i);
	ws.send(sent);
}
ws.onopen = next;
ws.onmessage = (e) => {
	if (!same(sent, e.data)) {
		document.title = "failed: echo " + i + " differs";
		failed = true;
		ws.close();
		return;
	}
	i++;
	if (i < total) next();
};
ws.onerror = () => { document.title = "failed: websocket error after " + i + " echoes"; failed = true };
ws.onclose = (e) => {
	if (!failed) document.title = i < total ? "failed: closed " + e.code + " after " + i + " echoes" :
		"closed " + e.code + " " + e.reason + " " + (e.wasClean ? "clean" : "unclean") + " " + i;
};
</script>
<script src="/wait"></script>`

// chromiumStream is what the server saw of one Chromium WebSocket.
type chromiumStream struct {
	proto, method, protocol string
	extensions              string
	echoed                  int
	err                     error
}

// TestRFC8441ChromiumWebSocketOverHTTP2 has headless Chromium load a page
// over TLS from a server with Extended CONNECT on (GODEBUG=http2xconnect=1)
// and echo 1 000 text and binary messages through Accept: the WebSocket
// must ride the page's HTTP/2 connection (the handler sees HTTP/2.0,
// CONNECT and :protocol websocket, RFC 8441 §4–5), negotiate
// permessage-deflate, echo every message byte-exact, and end with a close
// handshake whose code and reason the page sees. The server sits behind
// encoding.Handler, which must pass the CONNECT through untouched.
func TestRFC8441ChromiumWebSocketOverHTTP2(t *testing.T) {
	if !withExtendedConnect(t, true) {
		return
	}
	chromiumOverTLS(t, "HTTP/2.0", http.MethodConnect, "websocket")
}

// TestRFC8441ChromiumFallsBackToHTTP1WhenExtendedConnectIsOff runs the same
// page against the same server in a process without the GODEBUG setting:
// the server does not advertise Extended CONNECT, and Chromium opens its
// WebSocket over HTTP/1.1 instead.
func TestRFC8441ChromiumFallsBackToHTTP1WhenExtendedConnectIsOff(t *testing.T) {
	if !withExtendedConnect(t, false) {
		return
	}
	chromiumOverTLS(t, "HTTP/1.1", http.MethodGet, "")
}

// chromiumOverTLS serves chromiumTLSPage over TLS with HTTP/2 and checks
// that Chromium's WebSocket arrived as proto and method, echoed
// peerMessages messages and closed cleanly.
func chromiumOverTLS(t *testing.T, proto, method, protocol string) {
	browser := interop.Chromium(t)
	if browser == nil {
		return
	}
	const reason = "bye from squeeze"
	streams := make(chan chromiumStream, 16)
	ended := make(chan struct{}, 16)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, chromiumTLSPage, peerMessages)
	})
	// "/ws", not "GET /ws": the method pattern would answer the CONNECT
	// with 405.
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		s := chromiumStream{proto: r.Proto, method: r.Method, protocol: r.Header.Get(":protocol")}
		defer func() { streams <- s; ended <- struct{}{} }()
		c, err := Accept(w, r, nil)
		if err != nil {
			s.err = err
			return
		}
		s.extensions = c.Extensions()
		ctx, cancel := context.WithTimeout(r.Context(), time.Minute)
		defer cancel()
		for s.echoed < peerMessages {
			typ, msg, err := c.Read(ctx)
			if err != nil {
				s.err = fmt.Errorf("read after %d echoes: %w", s.echoed, err)
				return
			}
			if err := c.Write(ctx, typ, msg); err != nil {
				s.err = fmt.Errorf("write after %d echoes: %w", s.echoed, err)
				return
			}
			s.echoed++
		}
		if err := c.Close(4000, reason); err != nil {
			s.err = err
		}
	})
	mux.HandleFunc("GET /wait", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-ended:
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
		w.Header().Set("Content-Type", "text/javascript")
	})
	srv := httptest.NewUnstartedServer(encoding.Handler(mux))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	profile := browser.Profile(t)
	sum := sha256.Sum256(srv.Certificate().RawSubjectPublicKeyInfo)
	profile.Flags = []string{"--ignore-certificate-errors-spki-list=" + base64.StdEncoding.EncodeToString(sum[:])}

	marker := fmt.Sprintf("<title>closed 4000 %s clean %d</title>", reason, peerMessages)
	profile.WaitDOM(t, srv.URL, marker)

	// WaitDOM may have loaded the page more than once; one load must have
	// gone all the way, and every one the way asked for.
	timeout := time.After(10 * time.Second)
	for {
		select {
		case s := <-streams:
			if s.proto != proto || s.method != method || s.protocol != protocol {
				t.Fatalf("Chromium's WebSocket arrived as %s %s with :protocol %q, want %s %s with %q", s.proto, s.method, s.protocol, proto, method, protocol)
			}
			// A load that ended early (the browser gave up on it) leaves
			// a stream that failed part way; every other failure is ours.
			if s.err != nil && (s.extensions == "" || s.echoed == peerMessages) {
				t.Fatalf("server side of Chromium's WebSocket: %v", s.err)
			}
			if !strings.HasPrefix(s.extensions, ExtensionName) {
				t.Fatalf("Chromium's WebSocket negotiated %q, want %s", s.extensions, ExtensionName)
			}
			if s.echoed == peerMessages {
				t.Logf("%s %s, negotiated %q, echoed %d messages each way", s.proto, s.method, s.extensions, s.echoed)
				return
			}
		case <-timeout:
			t.Fatalf("no WebSocket reported %d echoes to the server within 10s of the page's success", peerMessages)
		}
	}
}
