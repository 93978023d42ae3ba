package benchmarks

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/wsdeflate"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// wsTransports are the two ways a WebSocket reaches the same TLS server:
// its own HTTP/1.1 connection (an Upgrade), or an Extended CONNECT stream
// (RFC 8441) on an HTTP/2 connection, dialled through x/net's Transport.
var wsTransports = []string{"http1.1", "h2"}

// wsTLSServer starts wsdeflate's echo handler with context takeover over
// TLS with HTTP/2 on. The server allows 16 KiB frames (RFC 9113's default)
// rather than net/http's 1 MiB: x/net's Transport keeps a buffer as large
// as the server's frames, up to 512 KiB, for each open request body, which
// would otherwise be counted against every HTTP/2 WebSocket.
func wsTLSServer(b *testing.B) *httptest.Server {
	b.Helper()
	if !strings.Contains(os.Getenv("GODEBUG"), "http2xconnect=1") {
		b.Skip("net/http offers Extended CONNECT only when the process starts with GODEBUG=http2xconnect=1")
	}
	srv := httptest.NewUnstartedServer(oursEchoHandler(wsdeflate.Config{}))
	srv.EnableHTTP2 = true
	srv.Config.HTTP2 = &http.HTTP2Config{MaxReadFrameSize: 16 << 10}
	srv.StartTLS()
	return srv
}

// wsDialTLS dials srv's echo handler over transport; over h2 every dial
// shares client's connection.
func wsDialTLS(ctx context.Context, b *testing.B, srv *httptest.Server, transport string, client *http.Client) *wsdeflate.Conn {
	b.Helper()
	tlsConfig := srv.Client().Transport.(*http.Transport).TLSClientConfig
	opts := &wsdeflate.DialOptions{TLSConfig: tlsConfig}
	if transport == "h2" {
		opts.HTTPClient = client
	}
	c, resp, err := wsdeflate.Dial(ctx, "wss"+strings.TrimPrefix(srv.URL, "https"), opts)
	if err != nil {
		b.Fatalf("dial over %s: %v", transport, err)
	}
	if want := map[string]int{"http1.1": 1, "h2": 2}[transport]; resp.ProtoMajor != want {
		b.Fatalf("dialled over %s; want %s", resp.Proto, transport)
	}
	if err := checkDeflateAgreed(resp, true); err != nil {
		b.Fatal(err)
	}
	return c
}

// h2Client returns an HTTP/2 client that can send an Extended CONNECT.
func h2Client(tlsConfig *tls.Config) *http.Client {
	// x/net points at net/http's Transport, which cannot send :protocol
	// (it refuses the header as an invalid field name).
	//lint:ignore SA1019 the only Transport that sends an Extended CONNECT
	return &http.Client{Transport: &http2.Transport{TLSClientConfig: tlsConfig}}
}

// BenchmarkWSEchoHTTP2 compares one echo of a 1 KB JSON message with
// context takeover over a WebSocket on its own HTTP/1.1 TLS connection and
// over an Extended CONNECT stream of an HTTP/2 TLS connection, wsdeflate at
// both ends. Over HTTP/2 each frame also pays the stream's DATA framing,
// flow control and a flush through the server's stream writer.
//
//	GODEBUG=http2xconnect=1 go test -run '^$' -bench WSEchoHTTP2 -benchtime 2000x -count 5 . | benchstat -col /impl -
func BenchmarkWSEchoHTTP2(b *testing.B) {
	msgs := wsdeflateMessages(64, 1<<10)
	for _, transport := range wsTransports {
		b.Run("size=1K/mode=takeover/impl="+transport, func(b *testing.B) {
			srv := wsTLSServer(b)
			defer srv.Close()
			ctx := context.Background()
			c := wsDialTLS(ctx, b, srv, transport, h2Client(srv.Client().Transport.(*http.Transport).TLSClientConfig))
			defer c.Close(wsdeflate.StatusNormalClosure, "")
			b.ReportAllocs()
			i := 0
			cpu0, cpuOK := processCPU()
			for b.Loop() {
				m := msgs[i%len(msgs)]
				i++
				if err := c.Write(ctx, wsdeflate.MessageText, m); err != nil {
					b.Fatal(err)
				}
				_, got, err := c.Read(ctx)
				if err != nil || !bytes.Equal(got, m) {
					b.Fatalf("echo: %d bytes, %v", len(got), err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
			if cpu1, ok := processCPU(); ok && cpuOK {
				b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// BenchmarkEchoFloorHTTP2 is what BenchmarkWSEchoHTTP2's two transports
// cost before any WebSocket work: a handler that echoes what it reads and
// does nothing else, 300 bytes (a 1 KB JSON message compressed) at a time,
// over a hijacked HTTP/1.1 TLS connection and over an HTTP/2 stream, each
// driven by a client of one goroutine that writes and reads the
// connection itself. Over HTTP/2 each read of the request body and each
// flush of the ResponseWriter is a round trip through net/http's
// connection goroutine, which no handler can avoid.
//
//	GODEBUG=http2xconnect=1 go test -run '^$' -bench EchoFloorHTTP2 -benchtime 2000x -count 5 . | benchstat -col /impl -
func BenchmarkEchoFloorHTTP2(b *testing.B) {
	if !strings.Contains(os.Getenv("GODEBUG"), "http2xconnect=1") {
		b.Skip("net/http offers Extended CONNECT only when the process starts with GODEBUG=http2xconnect=1")
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(floorEcho))
	srv.EnableHTTP2 = true
	srv.Config.HTTP2 = &http.HTTP2Config{MaxReadFrameSize: 16 << 10}
	srv.StartTLS()
	defer srv.Close()
	msg := bytes.Repeat([]byte("x"), 300)
	for _, transport := range wsTransports {
		b.Run("size=300B/impl="+transport, func(b *testing.B) {
			echo := floorHTTP1Client
			if transport == "h2" {
				echo = floorHTTP2Client
			}
			roundTrip, closeConn := echo(b, srv)
			defer closeConn()
			cpu0, cpuOK := processCPU()
			for b.Loop() {
				roundTrip(msg)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
			if cpu1, ok := processCPU(); ok && cpuOK {
				b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// floorEcho echoes its request's bytes: on a hijacked connection after a
// 101 over HTTP/1.1, on the stream after a 200 over HTTP/2.
func floorEcho(w http.ResponseWriter, r *http.Request) {
	buf := make([]byte, 4<<10)
	rc := http.NewResponseController(w)
	if r.ProtoMajor == 1 {
		nc, brw, err := rc.Hijack()
		if err != nil {
			return
		}
		defer nc.Close()
		brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n")
		brw.Flush()
		for {
			n, err := brw.Read(buf)
			if err != nil {
				return
			}
			if _, err := nc.Write(buf[:n]); err != nil {
				return
			}
		}
	}
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	w.WriteHeader(http.StatusOK)
	rc.Flush()
	for {
		n, err := r.Body.Read(buf)
		if err != nil {
			return
		}
		w.Write(buf[:n])
		if rc.Flush() != nil {
			return
		}
	}
}

// floorTLS dials srv with TLS offering only proto.
func floorTLS(b *testing.B, srv *httptest.Server, proto string) *tls.Conn {
	b.Helper()
	cfg := srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	cfg.NextProtos = []string{proto}
	c, err := tls.Dial("tcp", strings.TrimPrefix(srv.URL, "https://"), cfg)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// floorHTTP1Client upgrades an HTTP/1.1 connection to floorEcho's echo.
func floorHTTP1Client(b *testing.B, srv *httptest.Server) (roundTrip func([]byte), closeConn func() error) {
	c := floorTLS(b, srv, "http/1.1")
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: echo\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n")
	br := bufio.NewReader(c)
	if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		b.Fatalf("upgrade: %v", err)
	}
	var got []byte
	return func(msg []byte) {
		got = append(got[:0], msg...)
		if _, err := c.Write(msg); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(br, got); err != nil {
			b.Fatal(err)
		}
	}, c.Close
}

// floorHTTP2Client opens an Extended CONNECT stream to floorEcho on an
// HTTP/2 connection it frames itself: windows as large as they go, so
// that it sends only the stream's DATA.
func floorHTTP2Client(b *testing.B, srv *httptest.Server) (roundTrip func([]byte), closeConn func() error) {
	c := floorTLS(b, srv, "h2")
	var out bytes.Buffer
	fr := http2.NewFramer(&out, bufio.NewReader(c))
	send := func() {
		if _, err := c.Write(out.Bytes()); err != nil {
			b.Fatal(err)
		}
		out.Reset()
	}
	out.WriteString(http2.ClientPreface)
	fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1<<31 - 1})
	fr.WriteWindowUpdate(0, 1<<31-1-65535)
	send()
	var block bytes.Buffer
	enc := hpack.NewEncoder(&block)
	for _, f := range [][2]string{{":method", "CONNECT"}, {":protocol", "websocket"}, {":scheme", "https"}, {":path", "/"}, {":authority", strings.TrimPrefix(srv.URL, "https://")}} {
		enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	opened := false
	for answered := false; !answered; {
		f, err := fr.ReadFrame()
		if err != nil {
			b.Fatal(err)
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				fr.WriteSettingsAck()
				if !opened {
					// RFC 8441 §3: the CONNECT waits for the server's
					// SETTINGS_ENABLE_CONNECT_PROTOCOL.
					fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block.Bytes(), EndHeaders: true})
					opened = true
				}
				send()
			}
		case *http2.HeadersFrame:
			answered = true
		}
	}
	return func(msg []byte) {
		fr.WriteData(1, false, msg)
		send()
		for n := 0; n < len(msg); {
			f, err := fr.ReadFrame()
			if err != nil {
				b.Fatal(err)
			}
			switch f := f.(type) {
			case *http2.DataFrame:
				n += len(f.Data())
			case *http2.PingFrame:
				if !f.IsAck() {
					fr.WritePing(true, f.Data)
					send()
				}
			}
		}
	}, c.Close
}

// BenchmarkWSIdleHeapHTTP2 reports the heap kept per idle WebSocket pair
// (both ends in this process) after one 1 KB message each way with context
// takeover, once past wsdeflate.DefaultIdleRelease: over HTTP/1.1 each pair
// has its own TLS connection; over HTTP/2 all are streams of one.
//
//	GODEBUG=http2xconnect=1 go test -run '^$' -bench WSIdleHeapHTTP2 -benchtime 1x -count 3 .
func BenchmarkWSIdleHeapHTTP2(b *testing.B) {
	const pairs = 100
	msgs := wsdeflateMessages(16, 1<<10)
	for _, transport := range wsTransports {
		b.Run("impl="+transport, func(b *testing.B) {
			srv := wsTLSServer(b)
			defer srv.Close()
			ctx := context.Background()
			client := h2Client(srv.Client().Transport.(*http.Transport).TLSClientConfig)
			warm := wsDialTLS(ctx, b, srv, transport, client) // the shared HTTP/2 connection
			defer warm.Close(wsdeflate.StatusNormalClosure, "")
			var heap float64
			for b.Loop() {
				heap0, _ := wsHeapInuse()
				conns := make([]*wsdeflate.Conn, pairs)
				for i := range conns {
					conns[i] = wsDialTLS(ctx, b, srv, transport, client)
					m := msgs[i%len(msgs)]
					if err := conns[i].Write(ctx, wsdeflate.MessageText, m); err != nil {
						b.Fatal(err)
					}
					if _, got, err := conns[i].Read(ctx); err != nil || len(got) != len(m) {
						b.Fatalf("echo: %d bytes, %v", len(got), err)
					}
				}
				time.Sleep(wsdeflate.DefaultIdleRelease + 500*time.Millisecond)
				heap1, _ := wsHeapInuse()
				runtime.KeepAlive(conns)
				heap = (float64(heap1) - float64(heap0)) / pairs
				for _, c := range conns {
					c.Close(wsdeflate.StatusNormalClosure, "")
				}
			}
			b.ReportMetric(heap/1024, "heap-KiB/pair")
		})
	}
}
