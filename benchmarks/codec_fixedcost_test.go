package benchmarks

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/squeezehttp/squeeze/encoding"
)

// BenchmarkCodecFixedCost compares, for small JSON replies known whole, the
// one-shot path of squeeze's codecs with each library used the usual way
// (one writer reused with Reset, default options), at the same level. The
// difference is the per-response setup squeeze avoids; "out-bytes" shows
// what it costs in size.
//
//	go test -run '^$' -bench CodecFixedCost -count 6 . | benchstat -col /impl -
func BenchmarkCodecFixedCost(b *testing.B) {
	type usual func(dst *bytes.Buffer, src []byte)
	for _, size := range []int{1 << 10, 4 << 10} {
		src := wsdeflateRepeated(size)
		cases := []struct {
			codec encoding.Codec
			level int
			usual func(b *testing.B) usual
		}{
			{encoding.Zstd(), 3, func(b *testing.B) usual {
				// Level 3 is zstd's default, klauspost's SpeedDefault.
				e, err := zstd.NewWriter(nil)
				if err != nil {
					b.Fatal(err)
				}
				return func(dst *bytes.Buffer, src []byte) {
					e.Reset(dst)
					_, _ = e.Write(src)
					_ = e.Close()
				}
			}},
			{encoding.Brotli(), 4, func(b *testing.B) usual {
				w := brotli.NewWriterLevel(nil, 4)
				return func(dst *bytes.Buffer, src []byte) {
					w.Reset(dst)
					_, _ = w.Write(src)
					_ = w.Close()
				}
			}},
			{encoding.Gzip(), 5, func(b *testing.B) usual {
				w, err := gzip.NewWriterLevel(nil, 5)
				if err != nil {
					b.Fatal(err)
				}
				return func(dst *bytes.Buffer, src []byte) {
					w.Reset(dst)
					_, _ = w.Write(src)
					_ = w.Close()
				}
			}},
		}
		for _, c := range cases {
			name := fmt.Sprintf("body=json-%dk/coding=%s", size>>10, c.codec.Name())
			b.Run(name+"/impl=squeeze", func(b *testing.B) {
				enc := c.codec.(encoding.AppendEncoder)
				out, err := enc.AppendEncode(nil, src, c.level)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					out, _ = enc.AppendEncode(out[:0], src, c.level)
				}
				b.ReportMetric(float64(len(out)), "out-bytes")
			})
			b.Run(name+"/impl=usual", func(b *testing.B) {
				encode := c.usual(b)
				var out bytes.Buffer
				b.ReportAllocs()
				for b.Loop() {
					out.Reset()
					encode(&out, src)
				}
				b.ReportMetric(float64(out.Len()), "out-bytes")
			})
		}
	}
}
