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
)

// sseEvent returns the i-th server-sent event of a chat-like stream, about
// 100 bytes of JSON that varies from one event to the next.
func sseEvent(i int) []byte {
	users := []string{"alice", "bob", "carol", "dave", "erin"}
	words := []string{"deploy", "finished", "the", "build", "is", "green", "review", "please", "merged", "tests", "failing", "on", "main"}
	text := ""
	for j := range 3 + i%5 {
		text += words[(i*7+j*3)%len(words)] + " "
	}
	return fmt.Appendf(nil, "id: %d\nevent: message\ndata: {\"user\":%q,\"text\":%q,\"ts\":%d}\n\n",
		1000+i, users[i%len(users)], text, 1733350000000+int64(i)*1337)
}

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
// open stream and the bytes the first stream put on the wire.
func openSSE(h func(http.Handler) http.Handler, coding string, n, events int, pause time.Duration) (perStream float64, wire int) {
	hold := make(chan struct{})
	var sent, done sync.WaitGroup
	handler := h(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range events {
			w.Write(sseEvent(i))
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
	time.Sleep(pause)
	runtime.GC()
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	close(hold)
	done.Wait()
	return float64(after.HeapAlloc-before.HeapAlloc) / float64(n), conns[0].n
}

// BenchmarkSSEOpenStreams holds open server-sent event streams through the
// zero Config and through the peers at the same coding and level, and
// reports the heap per open stream after five events, idle (after a pause
// longer than encoding.DefaultIdleRelease) and active (no pause), and the
// bytes on the wire of a 200-event stream:
//
//	go test -run '^$' -bench SSEOpenStreams -benchtime 1x .
func BenchmarkSSEOpenStreams(b *testing.B) {
	for _, c := range encodingCodings() {
		wrappers := []encodingPeer{{name: "squeeze", wrap: func() (func(http.Handler) http.Handler, error) {
			return encoding.Handler, nil
		}}}
		for _, p := range append(wrappers, c.peers...) {
			if p.name == "chi" {
				continue
			}
			wrap, err := p.wrap()
			if err != nil {
				b.Fatal(err)
			}
			for _, n := range []int{1000} {
				b.Run(fmt.Sprintf("%s/%s/streams=%d", c.name, p.name, n), func(b *testing.B) {
					var idle, active float64
					var wire int
					for b.Loop() {
						active, _ = openSSE(wrap, c.name, n, 5, 0)
						idle, _ = openSSE(wrap, c.name, n, 5, encoding.DefaultIdleRelease+500*time.Millisecond)
						_, wire = openSSE(wrap, c.name, 1, 200, 0)
					}
					b.ReportMetric(idle/1024, "KiB/idle-stream")
					b.ReportMetric(active/1024, "KiB/active-stream")
					b.ReportMetric(float64(wire), "B/200-events")
				})
			}
		}
	}
}
