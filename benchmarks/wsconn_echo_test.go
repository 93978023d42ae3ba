package benchmarks

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"
	gorilla "github.com/gorilla/websocket"
	"github.com/squeezehttp/squeeze/wsdeflate"
)

// wsEchoClient is the client end of one connection to an echo server.
type wsEchoClient interface {
	// echo writes msg as a text message and returns the message read back.
	echo(ctx context.Context, msg []byte) ([]byte, error)
	close()
}

// wsEchoImpl is one WebSocket library set up for one compression mode:
// an echo handler and a client that dials it with the same policy.
type wsEchoImpl struct {
	name  string
	serve http.HandlerFunc
	dial  func(ctx context.Context, url string) (wsEchoClient, *http.Response, error)
}

// wsEchoImpls returns the libraries that support the mode: gorilla has no
// context takeover, so it appears only without it.
func wsEchoImpls(takeover bool) []wsEchoImpl {
	cfg := wsdeflate.Config{ServerNoContextTakeover: !takeover, ClientNoContextTakeover: !takeover}
	coderMode := websocket.CompressionNoContextTakeover
	if takeover {
		coderMode = websocket.CompressionContextTakeover
	}
	impls := []wsEchoImpl{
		{"ours", oursEchoHandler(cfg), func(ctx context.Context, url string) (wsEchoClient, *http.Response, error) {
			c, resp, err := wsdeflate.Dial(ctx, url, &wsdeflate.DialOptions{Compression: cfg})
			return oursClient{c}, resp, err
		}},
		{"coder", coderEchoHandler(coderMode), func(ctx context.Context, url string) (wsEchoClient, *http.Response, error) {
			c, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{CompressionMode: coderMode})
			return coderClient{c}, resp, err
		}},
	}
	if !takeover {
		impls = append(impls, wsEchoImpl{"gorilla", gorillaEchoHandler, func(_ context.Context, url string) (wsEchoClient, *http.Response, error) {
			d := gorilla.Dialer{EnableCompression: true}
			c, resp, err := d.Dial(url, nil)
			return gorillaClient{c}, resp, err
		}})
	}
	return impls
}

// BenchmarkWSEcho measures an end-to-end echo over loopback TCP: one op is
// one varied JSON message written by the client, echoed by the server and
// read back, both ends compressing with permessage-deflate. It compares
// wsdeflate's Conn with coder/websocket and gorilla/websocket. cpu-ns/op
// is the whole process's CPU time per echo (both ends, GC and the kernel's
// share), steadier than msgs/s on a loaded machine.
//
//	go test -run '^$' -bench WSEcho -benchtime 2000x -count 5 . | benchstat -col /impl -
func BenchmarkWSEcho(b *testing.B) {
	for _, size := range []int{1 << 10, 16 << 10} {
		msgs := wsdeflateMessages(64, size)
		for _, takeover := range []bool{true, false} {
			mode := map[bool]string{true: "takeover", false: "notakeover"}[takeover]
			for _, impl := range wsEchoImpls(takeover) {
				name := fmt.Sprintf("size=%dK/mode=%s/impl=%s", size>>10, mode, impl.name)
				b.Run(name, func(b *testing.B) { benchEcho(b, impl, takeover, msgs) })
			}
		}
	}
}

func benchEcho(b *testing.B, impl wsEchoImpl, takeover bool, msgs [][]byte) {
	ctx := context.Background()
	srv := httptest.NewServer(impl.serve)
	defer srv.Close()
	c, resp, err := impl.dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"))
	if err != nil {
		b.Fatalf("dial: %v", err)
	}
	defer c.close()
	if err := checkDeflateAgreed(resp, takeover); err != nil {
		b.Fatal(err)
	}
	var n int64
	b.ReportAllocs()
	i := 0
	cpu0, cpuOK := processCPU()
	for b.Loop() {
		m := msgs[i%len(msgs)]
		i++
		got, err := c.echo(ctx, m)
		if err != nil {
			b.Fatalf("echo: %v", err)
		}
		if !bytes.Equal(got, m) {
			b.Fatalf("echo returned %d bytes that differ from the %d sent", len(got), len(m))
		}
		n += int64(len(m))
	}
	b.SetBytes(n / int64(b.N))
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	if cpu1, ok := processCPU(); ok && cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
}

// checkDeflateAgreed fails a benchmark whose handshake did not agree on
// permessage-deflate in the intended mode, so no row silently measures
// uncompressed traffic.
func checkDeflateAgreed(resp *http.Response, takeover bool) error {
	ext := resp.Header.Get("Sec-WebSocket-Extensions")
	if !strings.Contains(ext, "permessage-deflate") {
		return fmt.Errorf("handshake agreed no permessage-deflate: Sec-WebSocket-Extensions %q", ext)
	}
	noTakeover := strings.Contains(ext, "server_no_context_takeover") && strings.Contains(ext, "client_no_context_takeover")
	if noTakeover == takeover {
		return fmt.Errorf("handshake agreed %q, want context takeover %t", ext, takeover)
	}
	return nil
}

func oursEchoHandler(cfg wsdeflate.Config) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := wsdeflate.Accept(w, r, &wsdeflate.AcceptOptions{Compression: cfg})
		if err != nil {
			return
		}
		defer c.Close(wsdeflate.StatusNormalClosure, "")
		ctx := context.Background()
		for {
			typ, p, err := c.Read(ctx)
			if err != nil {
				return
			}
			if err := c.Write(ctx, typ, p); err != nil {
				return
			}
		}
	}
}

func coderEchoHandler(mode websocket.CompressionMode) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: mode})
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := context.Background()
		for {
			typ, p, err := c.Read(ctx)
			if err != nil {
				return
			}
			if err := c.Write(ctx, typ, p); err != nil {
				return
			}
		}
	}
}

func gorillaEchoHandler(w http.ResponseWriter, r *http.Request) {
	u := gorilla.Upgrader{EnableCompression: true}
	c, err := u.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer c.Close()
	for {
		typ, p, err := c.ReadMessage()
		if err != nil {
			return
		}
		if err := c.WriteMessage(typ, p); err != nil {
			return
		}
	}
}

type oursClient struct{ c *wsdeflate.Conn }

func (o oursClient) echo(ctx context.Context, msg []byte) ([]byte, error) {
	if err := o.c.Write(ctx, wsdeflate.MessageText, msg); err != nil {
		return nil, err
	}
	_, p, err := o.c.Read(ctx)
	return p, err
}

func (o oursClient) close() { o.c.Close(wsdeflate.StatusNormalClosure, "") }

type coderClient struct{ c *websocket.Conn }

func (o coderClient) echo(ctx context.Context, msg []byte) ([]byte, error) {
	if err := o.c.Write(ctx, websocket.MessageText, msg); err != nil {
		return nil, err
	}
	_, p, err := o.c.Read(ctx)
	return p, err
}

func (o coderClient) close() { o.c.Close(websocket.StatusNormalClosure, "") }

type gorillaClient struct{ c *gorilla.Conn }

func (o gorillaClient) echo(_ context.Context, msg []byte) ([]byte, error) {
	if err := o.c.WriteMessage(gorilla.TextMessage, msg); err != nil {
		return nil, err
	}
	_, p, err := o.c.ReadMessage()
	return p, err
}

func (o gorillaClient) close() { o.c.Close() }
