package encoding

import (
	"fmt"
	"net/http"
	"testing"
)

// discardWriter is a ResponseWriter that keeps nothing, so that the
// benchmark counts the middleware's allocations and not a recorder's.
type discardWriter struct {
	h http.Header
	n int64
}

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) WriteHeader(int)             {}
func (d *discardWriter) Write(p []byte) (int, error) { d.n += int64(len(p)); return len(p), nil }

// BenchmarkMiddleware measures one response through the middleware per
// coding and body size: time, allocations and bytes sent.
func BenchmarkMiddleware(b *testing.B) {
	m := mustNew(b, Config{})
	for _, size := range []int{1 << 10, 4 << 10, 20 << 10, 100 << 10} {
		body := sampleText(size)
		h := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = contentTypeJSON
			w.Write(body)
		}))
		for _, coding := range allCodings {
			b.Run(fmt.Sprintf("%s/%dK", coding, size>>10), func(b *testing.B) {
				r := serveRequest("GET", "Accept-Encoding: "+coding)
				w := &discardWriter{h: http.Header{}}
				b.ReportAllocs()
				b.SetBytes(int64(size))
				for b.Loop() {
					clear(w.h)
					w.n = 0
					h.ServeHTTP(w, r)
				}
				b.ReportMetric(float64(w.n), "out-B")
			})
		}
	}
}

var contentTypeJSON = []string{"application/json"}
