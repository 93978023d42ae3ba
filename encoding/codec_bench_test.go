package encoding

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/squeezehttp/squeeze/internal/corpus"
)

// sweepInput is one body of the level sweep.
type sweepInput struct {
	name string
	data []byte
}

// sweepCorpus returns two web assets of the repository corpus (the first
// 24 KiB of the minified jQuery and Bootstrap CSS) and generated JSON
// replies of 1, 4, 16 and 64 KB.
func sweepCorpus(b *testing.B) []sweepInput {
	sources, err := corpus.Sources()
	if err != nil {
		b.Fatal(err)
	}
	var inputs []sweepInput
	for _, s := range sources {
		if s.Name == "jquery.min.js" || s.Name == "bootstrap.min.css" {
			inputs = append(inputs, sweepInput{s.Name, s.Data})
		}
	}
	for _, kb := range []int{1, 4, 16, 64} {
		inputs = append(inputs, sweepInput{fmt.Sprintf("json-%dk.json", kb), jsonText(kb << 10)})
	}
	return inputs
}

// sweepLevels are the levels the sweep visits: each of klauspost zstd's four
// speeds once, and every level of the others.
var sweepLevels = []struct {
	codec  Codec
	levels []int
}{
	{Zstd(), []int{1, 3, 7, 11}},
	{Brotli(), []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
	{Gzip(), []int{1, 2, 3, 4, 5, 6, 7, 8, 9}},
}

// BenchmarkLevelSweep encodes each corpus body whole, as the middleware
// does for a body that fits its buffer, at each level of each codec: MB/s
// of input, the output's size ("out-bytes") and input/output ("ratio").
// deflate is gzip's DEFLATE with other framing, so it is not swept apart.
//
//	go test -run '^$' -bench LevelSweep -benchtime 0.3s -count 3 ./encoding
func BenchmarkLevelSweep(b *testing.B) {
	for _, in := range sweepCorpus(b) {
		for _, sl := range sweepLevels {
			for _, level := range sl.levels {
				p, err := newEncoderPool(sl.codec, level)
				if err != nil {
					b.Fatal(err)
				}
				b.Run(fmt.Sprintf("%s/%s/%d", in.name, p.name(), level), func(b *testing.B) {
					out, err := p.encode(nil, in.data)
					if err != nil {
						b.Fatal(err)
					}
					b.SetBytes(int64(len(in.data)))
					b.ReportAllocs()
					for b.Loop() {
						out, _ = p.encode(out[:0], in.data)
					}
					b.ReportMetric(float64(len(out)), "out-bytes")
					b.ReportMetric(float64(len(in.data))/float64(len(out)), "ratio")
				})
			}
		}
	}
}

// BenchmarkRetainedMemory measures the heap that one pooled streaming
// encoder keeps between responses, at each built-in codec's default level:
// n encoders each stream 1 MB of JSON-like text in 32 KB writes (enough
// to reach their steady size), are Reset(nil) as the pool does, and stay referenced; the
// heap growth over n, after a GC, is reported as "KB/encoder".
//
//	go test -run '^$' -bench RetainedMemory -benchtime 3x ./encoding
func BenchmarkRetainedMemory(b *testing.B) {
	const n = 16
	src := jsonText(1 << 20)
	for _, bc := range builtins {
		b.Run(bc.codec.Name(), func(b *testing.B) {
			_, _, def := bc.codec.Levels()
			var perEncoder float64
			for b.Loop() {
				kept := make([]Writer, n)
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				for i := range kept {
					var sink bytes.Buffer
					wr, err := bc.codec.NewWriter(&sink, def)
					if err != nil {
						b.Fatal(err)
					}
					for chunk := range slices.Chunk(src, 32<<10) {
						if _, err := wr.Write(chunk); err != nil {
							b.Fatal(err)
						}
					}
					if err := wr.Close(); err != nil {
						b.Fatal(err)
					}
					wr.Reset(nil)
					kept[i] = wr
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				perEncoder = float64(after.HeapAlloc-before.HeapAlloc) / n / 1024
				runtime.KeepAlive(kept)
			}
			b.ReportMetric(perEncoder, "KB/encoder")
		})
	}
}

// BenchmarkPoolStreaming measures a streamed response's encoder cost at each
// built-in codec's default level: take a pooled Writer, write 16 KB of JSON
// in four pieces with a Flush after each (as a handler streaming events
// does), Close, and put it back. Steady state allocates nothing.
//
//	go test -run '^$' -bench PoolStreaming ./encoding
func BenchmarkPoolStreaming(b *testing.B) {
	src := jsonText(16 << 10)
	for _, bc := range builtins {
		p, err := newEncoderPool(bc.codec, 0)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(p.name(), func(b *testing.B) {
			var out bytes.Buffer
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				out.Reset()
				wr, err := p.get(&out)
				if err != nil {
					b.Fatal(err)
				}
				for chunk := range slices.Chunk(src, 4<<10) {
					_, _ = wr.Write(chunk)
					_ = wr.Flush()
				}
				_ = wr.Close()
				p.put(wr)
			}
			b.ReportMetric(float64(out.Len()), "out-bytes")
		})
	}
}
