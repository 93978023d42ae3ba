package benchmarks

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/squeezehttp/squeeze/encoding"
)

// gzipFraming stands in for a gzip member's header and trailer (RFC 1952
// §2.3: 10 bytes before the data, 8 after) beside raw DEFLATE output.
var gzipFraming [18]byte

// BenchmarkGzipSmallBody weighs the cheaper settings klauspost/compress
// offers for a small body against gzip level 5 used the usual way (one
// writer reused with Reset): lower levels, the stateless encoder
// (flate.StatelessDeflate, which keeps no tables between calls) and
// Huffman-only coding, beside squeeze's one-shot path. "out-bytes" puts
// the price in size of each speed-up on the same line; the size budget
// is 3 % over level 5.
//
//	go test -run '^$' -bench GzipSmallBody -count 6 . | benchstat -col /impl -
func BenchmarkGzipSmallBody(b *testing.B) {
	level := func(l int) func(b *testing.B) func(*bytes.Buffer, []byte) {
		return func(b *testing.B) func(*bytes.Buffer, []byte) {
			w, err := gzip.NewWriterLevel(nil, l)
			if err != nil {
				b.Fatal(err)
			}
			return func(dst *bytes.Buffer, src []byte) {
				w.Reset(dst)
				_, _ = w.Write(src)
				_ = w.Close()
			}
		}
	}
	impls := []struct {
		name string
		make func(b *testing.B) func(*bytes.Buffer, []byte)
	}{
		{"l5-usual", level(5)},
		{"l4", level(4)},
		{"l3", level(3)},
		{"l1", level(1)},
		{"huffman-only", level(gzip.HuffmanOnly)},
		// The DEFLATE data alone; a gzip member adds 18 bytes of framing,
		// which out-bytes includes.
		{"stateless", func(*testing.B) func(*bytes.Buffer, []byte) {
			return func(dst *bytes.Buffer, src []byte) {
				_ = flate.StatelessDeflate(dst, src, true, nil)
				dst.Write(gzipFraming[:])
			}
		}},
		{"l5-squeeze", func(*testing.B) func(*bytes.Buffer, []byte) {
			enc := encoding.Gzip().(encoding.AppendEncoder)
			var out []byte
			return func(dst *bytes.Buffer, src []byte) {
				out, _ = enc.AppendEncode(out[:0], src, 5)
				dst.Write(out)
			}
		}},
	}
	for _, body := range smallBodies(b) {
		for _, impl := range impls {
			b.Run(fmt.Sprintf("body=%s/impl=%s", body.name, impl.name), func(b *testing.B) {
				encode := impl.make(b)
				var out bytes.Buffer
				b.ReportAllocs()
				for b.Loop() {
					out.Reset()
					encode(&out, body.data)
				}
				b.ReportMetric(float64(out.Len()), "out-bytes")
			})
		}
	}
}
