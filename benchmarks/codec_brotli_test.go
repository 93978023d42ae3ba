package benchmarks

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/andybalholm/brotli/matchfinder"
	"github.com/squeezehttp/squeeze/encoding"
)

// BenchmarkBrotliSmallBody weighs the ways andybalholm/brotli offers to
// encode a small JSON reply against quality 4 used the usual way (one
// writer reused with Reset, default 4 MB window): squeeze's one-shot path
// (same quality, window sized to the body), lower qualities, and the
// package's newer matchfinder encoders. Each reports "out-bytes", so the
// price in size of every speed-up is on the same line.
//
//	go test -run '^$' -bench BrotliSmallBody -count 6 . | benchstat -col /impl -
func BenchmarkBrotliSmallBody(b *testing.B) {
	newClassic := func(quality int) func() func(*bytes.Buffer, []byte) {
		return func() func(*bytes.Buffer, []byte) {
			w := brotli.NewWriterLevel(nil, quality)
			return func(dst *bytes.Buffer, src []byte) {
				w.Reset(dst)
				_, _ = w.Write(src)
				_ = w.Close()
			}
		}
	}
	newMatchfinder := func(mf matchfinder.MatchFinder) func() func(*bytes.Buffer, []byte) {
		return func() func(*bytes.Buffer, []byte) {
			w := &matchfinder.Writer{MatchFinder: mf, Encoder: &brotli.Encoder{}, BlockSize: 1 << 16}
			return func(dst *bytes.Buffer, src []byte) {
				w.Reset(dst)
				_, _ = w.Write(src)
				_ = w.Close()
			}
		}
	}
	impls := []struct {
		name string
		make func() func(*bytes.Buffer, []byte)
	}{
		{"q4-usual", newClassic(4)},
		{"q4-squeeze", func() func(*bytes.Buffer, []byte) {
			enc := encoding.Brotli().(encoding.AppendEncoder)
			var out []byte
			return func(dst *bytes.Buffer, src []byte) {
				out, _ = enc.AppendEncode(out[:0], src, 4)
				dst.Write(out)
			}
		}},
		{"q3", newClassic(3)},
		{"q2", newClassic(2)},
		{"v2-level4", func() func(*bytes.Buffer, []byte) {
			w := brotli.NewWriterV2(nil, 4)
			return func(dst *bytes.Buffer, src []byte) {
				w.Reset(dst)
				_, _ = w.Write(src)
				_ = w.Close()
			}
		}},
		{"m4-chain32", newMatchfinder(&matchfinder.M4{MaxDistance: 1 << 16, MinLength: 4, HashLen: 5, TableBits: 14, ChainLength: 32, DistanceBitCost: 66})},
	}
	for _, size := range []int{1 << 10, 4 << 10} {
		src := wsdeflateRepeated(size)
		for _, impl := range impls {
			b.Run(fmt.Sprintf("body=json-%dk/impl=%s", size>>10, impl.name), func(b *testing.B) {
				encode := impl.make()
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
