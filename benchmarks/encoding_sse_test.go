package benchmarks

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/corpus"
)

// sseConn is the ResponseWriter of one open stream: it counts what it is
// sent and can be flushed.
type sseConn struct {
	h http.Header
	n int
}

func (c *sseConn) Header() http.Header         { return c.h }
func (c *sseConn) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }
func (c *sseConn) WriteHeader(int)             {}
func (c *sseConn) Flush()                      {}

// openSSE opens n streams through h for a client accepting coding, each
// sending events flushed one by one, waits pause, and returns the heap per
// open stream and the bytes the first stream had put on the wire once its
// handler had flushed every event (none for a middleware that holds
// flushed events back).
func openSSE(h func(http.Handler) http.Handler, coding string, n, events int, pause time.Duration) (perStream float64, wire int) {
	hold := make(chan struct{})
	var sent, done sync.WaitGroup
	handler := h(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range corpus.Events(events) {
			w.Write(e)
			w.(http.Flusher).Flush()
		}
		sent.Done()
		<-hold
	}))
	conns := make([]*sseConn, n)
	runtime.GC()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	sent.Add(n)
	done.Add(n)
	for i := range conns {
		conns[i] = &sseConn{h: http.Header{}}
		r := httptest.NewRequest("GET", "/events", nil)
		r.Header.Set("Accept-Encoding", coding)
		go func() {
			defer done.Done()
			handler.ServeHTTP(conns[i], r)
		}()
	}
	sent.Wait()
	wire = conns[0].n
	time.Sleep(pause)
	runtime.GC()
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	close(hold)
	done.Wait()
	return float64(after.HeapAlloc-before.HeapAlloc) / float64(n), wire
}

// libraryCodec hides a codec's Streamer: a flushed stream through it takes
// the library's streaming encoder at the level, as every stream did before
// squeeze had stream encoders.
type libraryCodec struct{ encoding.Codec }

// sseStreamCounts are the numbers of open streams measured; the peers and
// the library encoders stop at 1000, where they already hold one to three
// GB (10 000 would need up to 26).
var sseStreamCounts = []int{1, 100, 1000, 10000}

// BenchmarkSSEOpenStreams holds open server-sent event streams through the
// zero Config (impl=squeeze), through the same middleware with the library's
// streaming encoders (impl=squeeze-library, what streams got before), and
// through the peers at the same coding and level, and reports the heap per
// open stream after five events, idle (after a pause longer than
// encoding.DefaultIdleRelease) and active (no pause), the bytes on the
// wire once the five events were flushed (0: held back, not streamed), and
// the bytes on the wire of one 200-event stream:
//
//	go test -run '^$' -bench SSEOpenStreams -benchtime 1x .
func BenchmarkSSEOpenStreams(b *testing.B) {
	for _, c := range encodingCodings() {
		impls := []encodingPeer{
			{name: "squeeze", wrap: func() (func(http.Handler) http.Handler, error) { return encoding.Handler, nil }},
			{name: "squeeze-library", wrap: func() (func(http.Handler) http.Handler, error) {
				mw, err := encoding.New(encoding.Config{Codings: []encoding.Coding{{Codec: libraryCodec{c.codec}, Level: c.level}}})
				if err != nil {
					return nil, err
				}
				return mw.Handler, nil
			}},
		}
		for _, p := range append(impls, c.peers...) {
			wrap, err := p.wrap()
			if err != nil {
				b.Fatal(err)
			}
			for _, n := range sseStreamCounts {
				if n > 1000 && p.name != "squeeze" {
					continue
				}
				b.Run(fmt.Sprintf("%s/streams=%d/impl=%s", c.name, n, p.name), func(b *testing.B) {
					var idle, active float64
					var sent, wire int
					for b.Loop() {
						active, sent = openSSE(wrap, c.name, n, 5, 0)
						idle, _ = openSSE(wrap, c.name, n, 5, encoding.DefaultIdleRelease+500*time.Millisecond)
						_, wire = openSSE(wrap, c.name, 1, 200, 0)
					}
					b.ReportMetric(idle/1024, "KiB/idle-stream")
					b.ReportMetric(active/1024, "KiB/active-stream")
					b.ReportMetric(float64(sent), "B-sent/5-events")
					b.ReportMetric(float64(wire), "B/200-events")
				})
			}
		}
	}
}
