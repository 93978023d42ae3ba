package benchmarks

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/squeezehttp/squeeze/wsdeflate"
)

const wsdeflateIdleConns = 1000

// wsdeflateHeap returns the live heap after two GC cycles (the second
// empties sync.Pool's victim cache, so pooled encoders are not counted
// against idle connections).
func wsdeflateHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkWSDeflateIdleMemory reports the heap retained per idle connection
// (client and server endpoint together, KiB/conn) for 1 000 connections
// that each exchanged 8 varied 1 KB JSON messages each way:
// coder/websocket's real connections over loopback with and without
// compression, against wsdeflate's codec (compressor + decompressor on each
// side, released when idle) at 15 and 12 window bits.
//
//	go test -run '^$' -bench WSDeflateIdleMemory -benchtime 1x -count 3 .
func BenchmarkWSDeflateIdleMemory(b *testing.B) {
	msgs := wsdeflateMessages(8, 1<<10)
	for _, mode := range []struct {
		name string
		mode websocket.CompressionMode
	}{
		{"coder-takeover", websocket.CompressionContextTakeover},
		{"coder-notakeover", websocket.CompressionNoContextTakeover},
		{"coder-disabled", websocket.CompressionDisabled},
	} {
		b.Run("impl="+mode.name, func(b *testing.B) {
			var per float64
			for b.Loop() {
				per = coderIdleHeap(b, mode.mode, msgs)
			}
			b.ReportMetric(per/1024, "KiB/conn")
		})
	}
	for _, bits := range []int{15, 12} {
		for _, takeover := range []bool{true, false} {
			name := map[bool]string{true: "takeover", false: "notakeover"}[takeover]
			b.Run("impl=ours-"+name+"-bits="+strconv.Itoa(bits), func(b *testing.B) {
				p := wsdeflate.Params{ServerMaxWindowBits: bits, ClientMaxWindowBits: bits,
					ServerNoContextTakeover: !takeover, ClientNoContextTakeover: !takeover}
				var per float64
				for b.Loop() {
					per = oursIdleHeap(p, msgs)
				}
				b.ReportMetric(per/1024, "KiB/conn")
			})
		}
	}
}

// wsdeflateEndpoint is one side of a connection: what it compresses and
// what it decompresses.
type wsdeflateEndpoint struct {
	c *wsdeflate.Compressor
	d *wsdeflate.Decompressor
}

func oursIdleHeap(p wsdeflate.Params, msgs [][]byte) float64 {
	before := wsdeflateHeap()
	type conn struct{ server, client wsdeflateEndpoint }
	conns := make([]conn, wsdeflateIdleConns)
	var wire, out []byte
	for i := range conns {
		c := &conns[i]
		c.server = wsdeflateEndpoint{oursCompressor(p.Server()), wsdeflate.NewDecompressor(p.Client(), 0)}
		c.client = wsdeflateEndpoint{oursCompressor(p.Client()), wsdeflate.NewDecompressor(p.Server(), 0)}
		for _, m := range msgs {
			wire, _ = c.client.c.Compress(wire[:0], m)
			out, _ = c.server.d.Decompress(out[:0], wire)
			wire, _ = c.server.c.Compress(wire[:0], out)
			out, _ = c.client.d.Decompress(out[:0], wire)
		}
		// Idle: the connection hands its live encoders back to the pools.
		for _, e := range []wsdeflateEndpoint{c.server, c.client} {
			e.c.Release()
			e.d.Release()
		}
	}
	after := wsdeflateHeap()
	runtime.KeepAlive(conns)
	return float64(after-before) / wsdeflateIdleConns
}

func coderIdleHeap(b *testing.B, mode websocket.CompressionMode, msgs [][]byte) float64 {
	ctx := context.Background()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: mode})
		if err != nil {
			return
		}
		defer c.CloseNow()
		for {
			typ, p, err := c.Read(r.Context())
			if err != nil {
				return
			}
			if err := c.Write(r.Context(), typ, p); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	url := "ws" + strings.TrimPrefix(srv.URL, "http")

	before := wsdeflateHeap()
	conns := make([]*websocket.Conn, wsdeflateIdleConns)
	for i := range conns {
		c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{CompressionMode: mode})
		if err != nil {
			b.Fatalf("dial %d: %v", i, err)
		}
		conns[i] = c
		for _, m := range msgs {
			if err := c.Write(ctx, websocket.MessageText, m); err != nil {
				b.Fatal(err)
			}
			if _, p, err := c.Read(ctx); err != nil || len(p) != len(m) {
				b.Fatalf("echo: %v", err)
			}
		}
	}
	after := wsdeflateHeap()
	for _, c := range conns {
		c.CloseNow()
	}
	return float64(after-before) / wsdeflateIdleConns
}
