package wsdeflate

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// echoServer starts an httptest server that accepts with opts and echoes
// every message until the client closes.
func echoServer(t testing.TB, opts *AcceptOptions) (url string, negotiated chan string) {
	t.Helper()
	return wsServer(t, opts, func(ctx context.Context, c *Conn) error {
		typ, msg, err := c.Read(ctx)
		if err != nil {
			return err
		}
		return c.Write(ctx, typ, msg)
	})
}

// dialForTest dials url with the default options and a 10-second context,
// both ended when the test is.
func dialForTest(t testing.TB, url string) (*Conn, context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	c, _, err := Dial(ctx, url, nil)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	return c, ctx
}

// wsServer starts an httptest server that accepts with opts, reports the
// negotiated extensions, and calls serve until it fails (the client closed).
// It returns the ws:// URL.
func wsServer(t testing.TB, opts *AcceptOptions, serve func(context.Context, *Conn) error) (url string, negotiated chan string) {
	t.Helper()
	negotiated = make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := Accept(w, r, opts)
		if err != nil {
			return
		}
		negotiated <- c.Extensions()
		for serve(context.Background(), c) == nil {
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http"), negotiated
}

func TestEchoOverLoopback(t *testing.T) {
	cases := []struct {
		name       string
		server     AcceptOptions
		client     DialOptions
		wantExt    string
		compressed bool
	}{
		{"uncompressed", AcceptOptions{Compression: Config{Disabled: true}}, DialOptions{}, "", false},
		{"client declines", AcceptOptions{}, DialOptions{Compression: Config{Disabled: true}}, "", false},
		{"takeover", AcceptOptions{}, DialOptions{}, "permessage-deflate", true},
		{"no takeover", AcceptOptions{Compression: Config{ServerNoContextTakeover: true, ClientNoContextTakeover: true}}, DialOptions{},
			"permessage-deflate; server_no_context_takeover; client_no_context_takeover", true},
		{"window bits 9", AcceptOptions{Compression: Config{ServerMaxWindowBits: 9, ClientMaxWindowBits: 9}}, DialOptions{},
			"permessage-deflate; server_max_window_bits=9; client_max_window_bits=9", true},
		{"client asks 10 and 12", AcceptOptions{}, DialOptions{Compression: Config{ServerMaxWindowBits: 10, ClientMaxWindowBits: 12}},
			"permessage-deflate; server_max_window_bits=10; client_max_window_bits=12", true},
		{"idle release every millisecond", AcceptOptions{IdleRelease: time.Millisecond}, DialOptions{IdleRelease: time.Millisecond}, "permessage-deflate", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url, negotiated := echoServer(t, &tc.server)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c, resp, err := Dial(ctx, url, &tc.client)
			if err != nil {
				t.Fatalf("Dial: %v", err)
			}
			if got := resp.Header.Get("Sec-WebSocket-Extensions"); got != tc.wantExt {
				t.Errorf("server sent Sec-WebSocket-Extensions %q, want %q", got, tc.wantExt)
			}
			if got := <-negotiated; got != tc.wantExt {
				t.Errorf("server's Extensions() = %q, want %q", got, tc.wantExt)
			}
			if got := c.Extensions(); got != tc.wantExt {
				t.Errorf("client's Extensions() = %q, want %q", got, tc.wantExt)
			}
			for i := range 70 {
				size := []int{0, 5, 127, 128, 1000, 16 << 10, 70000}[i%7]
				typ := MessageText
				msg := jsonMessage(uint64(i), size)
				if i%5 == 0 {
					typ = MessageBinary
				}
				if i%11 == 0 {
					time.Sleep(2 * time.Millisecond) // let the idle release fire
				}
				if err := c.Write(ctx, typ, msg); err != nil {
					t.Fatalf("Write %d: %v", i, err)
				}
				gotTyp, got, err := c.Read(ctx)
				if err != nil {
					t.Fatalf("Read %d: %v", i, err)
				}
				if gotTyp != typ || !bytes.Equal(got, msg) {
					t.Fatalf("message %d: echoed type %d, %d bytes; sent type %d, %d bytes", i, gotTyp, len(got), typ, len(msg))
				}
			}
			if err := c.Close(StatusNormalClosure, "done"); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
	}
}

func TestConcurrentWritersKeepMessagesWhole(t *testing.T) {
	url, _ := echoServer(t, nil)
	c, ctx := dialForTest(t, url)
	defer c.Close(StatusNormalClosure, "")
	const writers, each = 4, 50
	errs := make(chan error, writers)
	for w := range writers {
		go func() {
			for i := range each {
				if err := c.Write(ctx, MessageText, jsonMessage(uint64(w*each+i), 300)); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	seen := map[string]bool{}
	for range writers * each {
		_, msg, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		seen[string(msg)] = true
	}
	for range writers {
		if err := <-errs; err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	for i := range writers * each {
		if !seen[string(jsonMessage(uint64(i), 300))] {
			t.Fatalf("message %d was not echoed intact", i)
		}
	}
}

func TestPingGetsPong(t *testing.T) {
	url, _ := echoServer(t, nil)
	c, ctx := dialForTest(t, url)
	readDone := make(chan error, 1)
	go func() {
		_, _, err := c.Read(ctx)
		readDone <- err
	}()
	for i := range 3 {
		if err := c.Ping(ctx); err != nil {
			t.Fatalf("Ping %d: %v", i, err)
		}
	}
	if err := c.Close(StatusNormalClosure, ""); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := <-readDone; CloseStatus(err) != StatusNormalClosure {
		t.Errorf("Read during Close returned %v, want the server's 1000 close", err)
	}
}

func TestReadHonoursContextDeadline(t *testing.T) {
	url, _ := echoServer(t, nil)
	c, _, err := Dial(context.Background(), url, nil)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer c.Close(StatusNormalClosure, "")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err = c.Read(ctx)
	if err == nil {
		t.Fatal("Read with nothing to read returned no error")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Read took %v to notice a 50ms deadline", d)
	}
}

// upgradeRequest is a valid RFC 6455 §4.1 opening handshake for Accept,
// for tests to spoil one field at a time.
func upgradeRequest() *http.Request {
	r := httptest.NewRequest(http.MethodGet, "http://example.com/ws", nil)
	r.Header.Set("Upgrade", "websocket")
	r.Header.Set("Connection", "keep-alive, Upgrade")
	r.Header.Set("Sec-WebSocket-Version", "13")
	r.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
	return r
}

func TestAcceptRefusesBadHandshakes(t *testing.T) {
	good := upgradeRequest
	cases := []struct {
		name   string
		edit   func(*http.Request)
		opts   AcceptOptions
		status int
	}{
		{"POST", func(r *http.Request) { r.Method = http.MethodPost }, AcceptOptions{}, http.StatusMethodNotAllowed},
		{"no Upgrade", func(r *http.Request) { r.Header.Del("Upgrade") }, AcceptOptions{}, http.StatusUpgradeRequired},
		{"no Connection upgrade", func(r *http.Request) { r.Header.Set("Connection", "keep-alive") }, AcceptOptions{}, http.StatusUpgradeRequired},
		{"version 8", func(r *http.Request) { r.Header.Set("Sec-WebSocket-Version", "8") }, AcceptOptions{}, http.StatusUpgradeRequired},
		{"short key", func(r *http.Request) { r.Header.Set("Sec-WebSocket-Key", "c2hvcnQ=") }, AcceptOptions{}, http.StatusBadRequest},
		{"foreign origin", func(r *http.Request) { r.Header.Set("Origin", "https://evil.test") }, AcceptOptions{}, http.StatusForbidden},
		{"origin not in patterns", func(r *http.Request) { r.Header.Set("Origin", "https://evil.test") },
			AcceptOptions{OriginPatterns: []string{"*.example.org"}}, http.StatusForbidden},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := good()
			tc.edit(r)
			w := httptest.NewRecorder()
			if _, err := Accept(w, r, &tc.opts); err == nil {
				t.Fatal("Accept succeeded")
			}
			if w.Code != tc.status {
				t.Errorf("status %d, want %d", w.Code, tc.status)
			}
		})
	}
}

func TestOriginPatternsAllowListedHosts(t *testing.T) {
	for _, tc := range []struct {
		origin, host string
		patterns     []string
		ok           bool
	}{
		{"", "a.test", nil, true},
		{"http://a.test", "a.test", nil, true},
		{"http://A.test", "a.test", nil, true},
		{"http://b.test", "a.test", nil, false},
		{"https://app.b.test", "a.test", []string{"*.b.test"}, true},
		{"https://b.test:8443", "a.test", []string{"b.test"}, false},
		{"https://b.test:8443", "a.test", []string{"b.test:*"}, true},
	} {
		r := httptest.NewRequest(http.MethodGet, "http://"+tc.host+"/", nil)
		if tc.origin != "" {
			r.Header.Set("Origin", tc.origin)
		}
		if err := checkOrigin(r, tc.patterns); (err == nil) != tc.ok {
			t.Errorf("Origin %q to %q with %q: error %v, want allowed=%t", tc.origin, tc.host, tc.patterns, err, tc.ok)
		}
	}
}

func TestAcceptKeyMatchesRFC6455Example(t *testing.T) {
	// RFC 6455 §1.3.
	if got := acceptKey("dGhlIHNhbXBsZSBub25jZQ=="); got != "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" {
		t.Errorf("acceptKey = %q", got)
	}
}

func TestSubprotocolIsServersFirstChoiceAmongOffered(t *testing.T) {
	url, _ := echoServer(t, &AcceptOptions{Subprotocols: []string{"v2.json", "v1.json"}})
	c, _, err := Dial(context.Background(), url, &DialOptions{Subprotocols: []string{"v1.json", "v2.json"}})
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer c.Close(StatusNormalClosure, "")
	if got := c.Subprotocol(); got != "v2.json" {
		t.Errorf("Subprotocol() = %q, want v2.json", got)
	}
}

func TestWriteAfterCloseFails(t *testing.T) {
	url, _ := echoServer(t, nil)
	c, _, err := Dial(context.Background(), url, nil)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	if err := c.Close(StatusNormalClosure, ""); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := c.Write(context.Background(), MessageText, []byte("late")); !errors.Is(err, ErrClosed) {
		t.Errorf("Write after Close = %v, want ErrClosed", err)
	}
}
