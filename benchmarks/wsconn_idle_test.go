package benchmarks

import (
	"context"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/wsdeflate"
)

// wsIdleConnsDefault keeps CI's single pass (-benchtime 1x) to a few
// seconds and about 0.5 GB for coder/websocket's connections.
const wsIdleConnsDefault = 200

// wsIdleConns is the number of connection pairs BenchmarkWSIdleHeap opens:
// $SQUEEZE_WS_CONNS, or wsIdleConnsDefault.
func wsIdleConns(b *testing.B) int {
	s := os.Getenv("SQUEEZE_WS_CONNS")
	if s == "" {
		return wsIdleConnsDefault
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		b.Fatalf("SQUEEZE_WS_CONNS=%q: want a positive number of connections", s)
	}
	return n
}

// wsHeapInuse returns HeapInuse and StackInuse after two GC cycles (the
// second empties sync.Pool's victim cache, so encoders an idle connection
// gave back are not counted against it).
func wsHeapInuse() (heap, stack uint64) {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse, m.StackInuse
}

// BenchmarkWSIdleHeap reports the heap retained per idle connection pair
// (client and server endpoint, both in this process, over loopback TCP)
// with context takeover in both directions: each pair exchanges one
// compressed 1 KB JSON message each way and then waits past
// wsdeflate.DefaultIdleRelease, when wsdeflate's Conn hands its live
// compressor and decompressor back to the pools and keeps only its
// windows. coder/websocket keeps its encoder and window for the
// connection's life. The number of pairs comes from SQUEEZE_WS_CONNS
// (default 200). The target's 10 000 need 20 000 file descriptors (the
// benchmark raises RLIMIT_NOFILE) and, for coder/websocket, about 25 GB:
// coder is run at as many pairs as half the available memory holds
// (coderPairLimit), which the "pairs" metric reports. Where the hard
// file-descriptor limit is below 20 000 and cannot be raised,
// SQUEEZE_WS_TRANSPORT=pipe runs both libraries over in-memory pipes
// (net.Pipe behind an http.Server) instead of loopback TCP.
//
//	SQUEEZE_WS_CONNS=1000 go test -run '^$' -bench WSIdleHeap -benchtime 1x -count 3 .
//	SQUEEZE_WS_CONNS=10000 go test -run '^$' -bench WSIdleHeap -benchtime 1x .
//	SQUEEZE_WS_CONNS=10000 SQUEEZE_WS_TRANSPORT=pipe go test -run '^$' -bench WSIdleHeap -benchtime 1x .
func BenchmarkWSIdleHeap(b *testing.B) {
	msgs := wsdeflateMessages(16, 1<<10)
	for _, impl := range wsEchoImpls(true) {
		b.Run("impl="+impl.name, func(b *testing.B) {
			n := wsIdleConns(b)
			if impl.name == "coder" {
				if limit := coderPairLimit(); limit > 0 && n > limit {
					b.Logf("coder/websocket: %d pairs would need about %.1f GB; measuring %d", n, float64(n)*coderBytesPerPair/1e9, limit)
					n = limit
				}
			}
			pipe := os.Getenv("SQUEEZE_WS_TRANSPORT") == "pipe"
			if !pipe {
				raiseFileLimit(b, n)
			}
			var heap, stack float64
			for b.Loop() {
				heap, stack = idleHeap(b, impl, n, msgs, pipe)
			}
			b.ReportMetric(heap/1024, "heap-KiB/pair")
			b.ReportMetric(stack/1024, "stack-KiB/pair")
			b.ReportMetric(float64(n), "pairs")
		})
	}
}

// coderBytesPerPair is what a coder/websocket pair with context takeover
// keeps (measured: about 2.4 MiB), rounded up.
const coderBytesPerPair = 2.6 * (1 << 20)

// coderPairLimit is how many coder/websocket pairs fit in half the
// memory Linux reports available (the box is shared), or 0 if unknown.
func coderPairLimit() int {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemAvailable:" {
			kb, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				return 0
			}
			return int(kb * 1024 / 2 / coderBytesPerPair)
		}
	}
	return 0
}

// idleHeap opens n connection pairs to an echo server, exchanges one
// message on each, lets them go idle and returns the heap and goroutine
// stack they hold, per pair.
func idleHeap(b *testing.B, impl wsEchoImpl, n int, msgs [][]byte, pipe bool) (heap, stack float64) {
	ctx := context.Background()
	var url string
	dial := impl.dial
	if pipe {
		var stop func()
		url, dial, stop = servePipe(impl, true)
		defer stop()
	} else {
		srv := httptest.NewServer(impl.serve)
		defer srv.Close()
		url = "ws" + strings.TrimPrefix(srv.URL, "http")
	}

	heap0, stack0 := wsHeapInuse()
	clients := make([]wsEchoClient, 0, n)
	defer func() {
		for _, c := range clients {
			c.close()
		}
	}()
	for i := range n {
		c, resp, err := dial(ctx, url)
		if err != nil {
			b.Fatalf("dial %d: %v", i, err)
		}
		clients = append(clients, c)
		if err := checkDeflateAgreed(resp, true); err != nil {
			b.Fatal(err)
		}
		m := msgs[i%len(msgs)]
		if got, err := c.echo(ctx, m); err != nil || len(got) != len(m) {
			b.Fatalf("echo on connection %d: %d bytes back of %d, %v", i, len(got), len(m), err)
		}
	}
	// Idle: past the release delay of the last pair's both ends.
	time.Sleep(wsdeflate.DefaultIdleRelease + 500*time.Millisecond)
	heap1, stack1 := wsHeapInuse()
	runtime.KeepAlive(clients)
	return (float64(heap1) - float64(heap0)) / float64(n), (float64(stack1) - float64(stack0)) / float64(n)
}
