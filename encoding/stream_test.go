package encoding

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func getRaw(t *testing.T, url string, header ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range header {
		name, value, _ := strings.Cut(line, ": ")
		req.Header.Set(name, value)
	}
	// The transport must not decode for us: the test reads the wire bytes.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// Server-sent events must reach the client one by one while the handler
// still runs: Flush pushes them through the encoder and the connection.
func TestFlushStreamsServerSentEvents(t *testing.T) {
	next := make(chan struct{})
	h := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 3 {
			fmt.Fprintf(w, "data: event %d\n\n", i)
			w.(http.Flusher).Flush()
			<-next
		}
	}
	srv := httptest.NewServer(mustNew(t, Config{}).Handler(http.HandlerFunc(h)))
	defer srv.Close()
	defer close(next)

	resp := getRaw(t, srv.URL, "Accept-Encoding: gzip")
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("SSE not compressed: %v", resp.Header)
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewReader(zr)
	for i := range 3 {
		done := make(chan string, 1)
		go func() {
			line, _ := lines.ReadString('\n')
			lines.ReadString('\n')
			done <- line
		}()
		select {
		case line := <-done:
			if want := fmt.Sprintf("data: event %d\n", i); line != want {
				t.Fatalf("event %d: got %q, want %q", i, line, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("event %d did not arrive before the handler went on: Flush does not stream", i)
		}
		next <- struct{}{}
	}
}

// http.ResponseController reaches the connection through Unwrap and uses
// FlushError.
func TestResponseControllerWorksThrough(t *testing.T) {
	errs := make(chan error, 2)
	h := func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		errs <- rc.SetWriteDeadline(time.Now().Add(time.Minute))
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("hello"))
		errs <- rc.Flush()
	}
	srv := httptest.NewServer(mustNew(t, Config{}).Handler(http.HandlerFunc(h)))
	defer srv.Close()
	resp := getRaw(t, srv.URL, "Accept-Encoding: zstd")
	io.ReadAll(resp.Body)
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("ResponseController through the middleware: %v", err)
		}
	}
}

// An upgrade (WebSocket) request reaches the handler with the server's own
// ResponseWriter, so the handler can hijack it.
func TestUpgradeRequestIsNotWrapped(t *testing.T) {
	h := func(w http.ResponseWriter, r *http.Request) {
		conn, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("hijack of an upgrade request: %v", err)
			return
		}
		defer conn.Close()
		brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\nhi")
		brw.Flush()
	}
	got := rawExchange(t, h, "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: test\r\nConnection: Upgrade\r\nAccept-Encoding: gzip\r\n\r\n")
	if !bytes.HasPrefix(got, []byte("HTTP/1.1 101")) || !bytes.HasSuffix(got, []byte("hi")) {
		t.Fatalf("upgrade response %q", got)
	}
}

// Hijack passes through while nothing is compressed, and is refused once
// compressed bytes are on their way.
func TestHijackOnlyWhenNotCompressing(t *testing.T) {
	var before, after error
	h := func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/late" {
			w.Header().Set("Content-Type", "text/plain")
			w.Write(sampleText(4096))
			w.(http.Flusher).Flush()
			_, _, after = w.(http.Hijacker).Hijack()
			return
		}
		conn, _, err := w.(http.Hijacker).Hijack()
		before = err
		if err == nil {
			conn.Write([]byte("HTTP/1.1 204 No Content\r\n\r\n"))
			conn.Close()
		}
	}
	srv := httptest.NewServer(mustNew(t, Config{}).Handler(http.HandlerFunc(h)))
	defer srv.Close()
	if resp := getRaw(t, srv.URL, "Accept-Encoding: gzip"); resp.StatusCode != 204 || before != nil {
		t.Fatalf("hijack before any write: status %d, err %v", resp.StatusCode, before)
	}
	resp := getRaw(t, srv.URL+"/late", "Accept-Encoding: gzip")
	io.ReadAll(resp.Body)
	if after == nil {
		t.Fatal("hijack of a response being compressed succeeded")
	}
}

// 1xx interim responses go out at once and do not settle the decision.
func TestInformationalResponsesPassThrough(t *testing.T) {
	h := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", "</app.css>; rel=preload")
		w.WriteHeader(http.StatusEarlyHints)
		w.Header().Set("Content-Type", "text/plain")
		w.Write(sampleText(4096))
	}
	got := rawExchange(t, h, "GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\nConnection: close\r\n\r\n")
	if !bytes.HasPrefix(got, []byte("HTTP/1.1 103 Early Hints\r\n")) || !bytes.Contains(got, []byte("\r\nContent-Encoding: br\r\n")) {
		t.Fatalf("response %.300q; want a 103 first, then the compressed 200", got)
	}
}

// rawExchange serves h through the default middleware on a real connection,
// sends request as written and returns every byte the server sent until it
// closed the connection, so the test sees the wire, interim responses
// included.
func rawExchange(t *testing.T, h http.HandlerFunc, request string) []byte {
	t.Helper()
	srv := httptest.NewServer(mustNew(t, Config{}).Handler(h))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, request)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	got, _ := io.ReadAll(conn)
	return got
}

// net/http ignores h2c upgrades and answers over HTTP/1.1, so curl --http2
// must still get a compressed response.
func TestH2CUpgradeHeaderIsNotATunnel(t *testing.T) {
	rec := serve(t, mustNew(t, Config{}), writeBody("text/html", sampleText(8192)), "GET",
		"Accept-Encoding: gzip", "Connection: Upgrade, HTTP2-Settings", "Upgrade: h2c")
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("%s", describe(rec))
	}
}

// RFC 8441 §4: a WebSocket over HTTP/2 is an Extended CONNECT, answered
// with 200 and then the stream's DATA in both directions. The middleware
// must hand the handler the server's own ResponseWriter, as it does for an
// HTTP/1.1 upgrade: nothing buffered (the 200 must reach the client at the
// handler's first flush), compressed or added (no Content-Encoding, no
// Vary).
func TestRFC8441ExtendedConnectIsNotWrapped(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	var given http.ResponseWriter
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		given = w
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusOK)
		w.Write(sampleText(8192))
	})
	r := httptest.NewRequest(http.MethodConnect, "https://example.com/ws", nil)
	r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/2.0", 2, 0
	r.Header.Set(":protocol", "websocket")
	r.Header.Set("Sec-WebSocket-Version", "13")
	r.Header.Set("Accept-Encoding", "gzip, br, zstd")
	mustNew(t, Config{}).Handler(h).ServeHTTP(rec, r)
	if given != rec {
		t.Errorf("the handler got %T; want the server's own ResponseWriter", given)
	}
	for _, k := range []string{"Content-Encoding", "Vary"} {
		if v := rec.Header().Get(k); v != "" {
			t.Errorf("%s: %q on an Extended CONNECT's response", k, v)
		}
	}
	if !bytes.Equal(rec.Body.Bytes(), sampleText(8192)) {
		t.Errorf("the stream's bytes were changed: %d bytes; want the %d written", rec.Body.Len(), 8192)
	}
}
