package encoding

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/squeezehttp/squeeze/internal/corpus"
)

// countWriter counts the bytes written to it.
type countWriter struct{ n int }

func (c *countWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// BenchmarkSSEStream writes a 200-event stream of server-sent events,
// flushing after each, through each default coding's stream Writer (what a
// flushed response gets) and its library Writer (what it got before, and
// what a download gets), side by side: the bytes on the wire per stream
// and the time.
//
//	go test -run '^$' -bench SSEStream -count 6 ./encoding
func BenchmarkSSEStream(b *testing.B) {
	events := corpus.Events(200)
	for _, c := range DefaultCodings() {
		_, _, level := c.Codec.Levels()
		for _, kind := range []string{"stream", "library"} {
			b.Run(c.Codec.Name()+"/"+kind, func(b *testing.B) {
				newWriter := func(w io.Writer) (Writer, error) { return c.Codec.NewWriter(w, level) }
				if kind == "stream" {
					newWriter = func(w io.Writer) (Writer, error) { return c.Codec.(Streamer).NewStreamWriter(w, level) }
				}
				var out countWriter
				wr, err := newWriter(&out)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					out.n = 0
					wr.Reset(&out)
					for _, e := range events {
						wr.Write(e)
						wr.Flush()
					}
					wr.Close()
				}
				b.ReportMetric(float64(out.n), "B/stream")
			})
		}
	}
}

// discardConn is a flushable ResponseWriter that drops the body.
type discardConn struct{ h http.Header }

func (d discardConn) Header() http.Header         { return d.h }
func (d discardConn) Write(p []byte) (int, error) { return len(p), nil }
func (d discardConn) WriteHeader(int)             {}
func (d discardConn) Flush()                      {}

// BenchmarkStreamedDownload sends a 10 MB body in 32 KB writes through the
// zero Config, each coding in turn: a download, which outgrows the buffer
// without a flush and streams through the library's encoder at the default
// level. Its time is the same before and after the stream encoders, which
// serve only flushed responses:
//
//	go test -run '^$' -bench StreamedDownload -count 6 ./encoding
func BenchmarkStreamedDownload(b *testing.B) {
	body := sampleText(10 << 20)
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for p := body; len(p) > 0; p = p[min(len(p), 32<<10):] {
			w.Write(p[:min(len(p), 32<<10)])
		}
	}))
	for _, coding := range allCodings {
		b.Run(coding, func(b *testing.B) {
			r := httptest.NewRequest("GET", "/", nil)
			r.Header.Set("Accept-Encoding", coding)
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				h.ServeHTTP(discardConn{h: http.Header{}}, r)
			}
		})
	}
}
