package encoding

import (
	"io"
	"testing"
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
	events := sseEvents(200)
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
