package wsdeflate

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
)

// rawServer answers the opening handshake with the given extra response
// header lines (and the right Sec-WebSocket-Accept unless accept is set),
// then writes frames and hands the connection to after.
func rawServer(t *testing.T, accept string, extra string, frames []byte, after func(net.Conn, *bufio.Reader)) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		nc, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer nc.Close()
		nc.SetDeadline(time.Now().Add(10 * time.Second))
		if accept == "" {
			accept = acceptKey(r.Header.Get("Sec-WebSocket-Key"))
		}
		io.WriteString(nc, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: "+accept+"\r\n"+extra+"\r\n")
		nc.Write(frames)
		if after != nil {
			after(nc, brw.Reader)
		}
	}))
	t.Cleanup(srv.Close)
	return "ws://" + strings.TrimPrefix(srv.URL, "http://")
}

func TestDialFailsOnBadHandshakeResponse(t *testing.T) {
	for _, tc := range []struct {
		name, accept, extra string
		opts                DialOptions
	}{
		{"wrong Sec-WebSocket-Accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "", DialOptions{}},
		{"extension not offered", "", "Sec-WebSocket-Extensions: permessage-deflate\r\n", DialOptions{Compression: Config{Disabled: true}}},
		{"unknown extension", "", "Sec-WebSocket-Extensions: x-webkit-deflate-frame\r\n", DialOptions{}},
		{"window larger than offered", "", "Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=15\r\n",
			DialOptions{Compression: Config{ServerMaxWindowBits: 10}}},
		{"subprotocol not offered", "", "Sec-WebSocket-Protocol: chat\r\n", DialOptions{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := rawServer(t, tc.accept, tc.extra, nil, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if c, _, err := Dial(ctx, url, &tc.opts); err == nil {
				c.Close(StatusNormalClosure, "")
				t.Fatal("Dial accepted the response")
			}
		})
	}
}

func TestDialReportsNon101Status(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusForbidden)
	}))
	defer srv.Close()
	_, resp, err := Dial(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("Dial to a 403: err %v, resp %v; want an error and the 403 response", err, resp)
	}
}

// TestClientFailsOnMaskedServerFrame: RFC 6455 §5.1, a client MUST close
// the connection on a masked frame, and says 1002.
func TestClientFailsOnMaskedServerFrame(t *testing.T) {
	frame := appendHeader(nil, header{fin: true, op: opText, masked: true, key: [4]byte{1, 2, 3, 4}, length: 2})
	frame = append(frame, 'h'^1, 'i'^2)
	got := make(chan StatusCode, 1)
	url := rawServer(t, "", "", frame, func(nc net.Conn, br *bufio.Reader) {
		var buf [maxHeaderSize]byte
		h, err := readHeader(br, &buf)
		if err != nil || h.op != opClose || h.length < 2 {
			got <- 0
			return
		}
		p := make([]byte, h.length)
		io.ReadFull(br, p)
		mask(h.key, 0, p)
		got <- StatusCode(binary.BigEndian.Uint16(p))
	})
	c, _, err := Dial(context.Background(), url, &DialOptions{Compression: Config{Disabled: true}})
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	if _, _, err := c.Read(context.Background()); err == nil {
		t.Fatal("Read accepted a masked frame from the server")
	}
	if code := <-got; code != StatusProtocolError {
		t.Errorf("client closed with %d, want 1002", code)
	}
}

func TestDialWSSOverTLS(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := Accept(w, r, nil)
		if err != nil {
			return
		}
		typ, msg, err := c.Read(r.Context())
		if err == nil {
			c.Write(r.Context(), typ, msg)
		}
		c.Close(StatusNormalClosure, "")
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tlsConfig := srv.Client().Transport.(*http.Transport).TLSClientConfig
	c, _, err := Dial(ctx, "wss"+strings.TrimPrefix(srv.URL, "https"), &DialOptions{TLSConfig: tlsConfig})
	if err != nil {
		t.Fatalf("Dial wss: %v", err)
	}
	msg := jsonMessage(3, 500)
	if err := c.Write(ctx, MessageBinary, msg); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if _, got, err := c.Read(ctx); err != nil || string(got) != string(msg) {
		t.Fatalf("echo over TLS: %v", err)
	}
	if _, _, err := c.Read(ctx); CloseStatus(err) != StatusNormalClosure {
		t.Errorf("after the echo, Read = %v; want the server's 1000 close", err)
	}
}

// TestDialBoundsTheHandshakeResponse: a server that answers 101 and then
// streams header lines without end (or one endless line) must not make Dial
// buffer what it sends until ctx ends: Dial fails once the response passes
// maxHandshakeResponse, with an error naming the limit, having allocated a
// small multiple of it.
func TestDialBoundsTheHandshakeResponse(t *testing.T) {
	for _, tc := range []struct{ name, start, repeat string }{
		{"endless header lines", "HTTP/1.1 101 Switching Protocols\r\n", "X-Filler: " + strings.Repeat("a", 100) + "\r\n"},
		{"one endless line", "HTTP/1.1 101 Switching Protocols\r\nX-Filler: ", strings.Repeat("a", 100)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			goroutinesReturn(t)
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			served := make(chan struct{})
			go func() {
				defer close(served)
				nc, err := ln.Accept()
				if err != nil {
					return
				}
				defer nc.Close()
				nc.SetDeadline(time.Now().Add(20 * time.Second))
				go io.Copy(io.Discard, nc) // the request
				if _, err := io.WriteString(nc, tc.start); err != nil {
					return
				}
				chunk := []byte(strings.Repeat(tc.repeat, 40))
				for {
					if _, err := nc.Write(chunk); err != nil {
						return // Dial gave up and closed the connection
					}
				}
			}()
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			_, _, err = Dial(ctx, "ws://"+ln.Addr().String()+"/", nil)
			runtime.ReadMemStats(&m1)
			if err == nil || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "64 KiB") {
				t.Fatalf("Dial to an endless handshake response: %v; want an error naming the 64 KiB limit", err)
			}
			got := m1.TotalAlloc - m0.TotalAlloc
			t.Logf("Dial allocated %d KiB", got>>10)
			if got > 16*maxHandshakeResponse {
				t.Errorf("Dial allocated %d KiB reading a response it refused at %d KiB", got>>10, maxHandshakeResponse>>10)
			}
			<-served
		})
	}
}
