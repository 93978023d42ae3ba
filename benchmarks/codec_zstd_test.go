package benchmarks

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/squeezehttp/squeeze/encoding"
)

// BenchmarkZstdSmallBody separates what each encoder option is worth for a
// small JSON reply at zstd level 3 (klauspost's SpeedDefault): a streaming
// encoder with default options reused by Reset, EncodeAll with default
// options, EncodeAll with a 128 KB window and lower-memory tables, and
// squeeze's one-shot path (those, without the 4-byte content checksum).
//
//	go test -run '^$' -bench ZstdSmallBody -count 6 . | benchstat -col /impl -
func BenchmarkZstdSmallBody(b *testing.B) {
	encodeAll := func(opts ...zstd.EOption) func(b *testing.B) func([]byte, []byte) []byte {
		return func(b *testing.B) func([]byte, []byte) []byte {
			e, err := zstd.NewWriter(nil, opts...)
			if err != nil {
				b.Fatal(err)
			}
			return func(dst, src []byte) []byte { return e.EncodeAll(src, dst) }
		}
	}
	impls := []struct {
		name string
		make func(b *testing.B) func(dst, src []byte) []byte
	}{
		{"stream-reset", func(b *testing.B) func([]byte, []byte) []byte {
			e, err := zstd.NewWriter(nil)
			if err != nil {
				b.Fatal(err)
			}
			var buf bytes.Buffer
			return func(dst, src []byte) []byte {
				buf.Reset()
				e.Reset(&buf)
				_, _ = e.Write(src)
				_ = e.Close()
				return append(dst, buf.Bytes()...)
			}
		}},
		{"encodeall-default", encodeAll()},
		{"encodeall-128k-lowmem", encodeAll(zstd.WithWindowSize(128<<10), zstd.WithLowerEncoderMem(true))},
		// Cheaper settings at the same nominal level, to weigh against the
		// 3 % size budget: the fastest speed, and no entropy coding of
		// literals and sequences.
		{"encodeall-fastest", encodeAll(zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithWindowSize(128<<10),
			zstd.WithLowerEncoderMem(true), zstd.WithEncoderCRC(false))},
		{"encodeall-noentropy", encodeAll(zstd.WithNoEntropyCompression(true), zstd.WithWindowSize(128<<10),
			zstd.WithLowerEncoderMem(true), zstd.WithEncoderCRC(false))},
		{"squeeze", func(b *testing.B) func([]byte, []byte) []byte {
			enc := encoding.Zstd().(encoding.AppendEncoder)
			return func(dst, src []byte) []byte {
				out, _ := enc.AppendEncode(dst, src, 3)
				return out
			}
		}},
	}
	for _, body := range smallBodies(b) {
		src := body.data
		for _, impl := range impls {
			b.Run(fmt.Sprintf("body=%s/impl=%s", body.name, impl.name), func(b *testing.B) {
				encode := impl.make(b)
				var out []byte
				b.ReportAllocs()
				for b.Loop() {
					out = encode(out[:0], src)
				}
				b.ReportMetric(float64(len(out)), "out-bytes")
			})
		}
	}
}
