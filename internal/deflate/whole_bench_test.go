package deflate

import (
	"fmt"
	"testing"

	"github.com/squeezehttp/squeeze/internal/corpus"
)

// BenchmarkWholeEncoder encodes the corpus's cuts of each size class in
// turn at the levels the own gzip encoder serves, and reports the mean
// bytes out (out-B): the encoder alone, without the middleware around it.
func BenchmarkWholeEncoder(b *testing.B) {
	bodies, err := corpus.Bodies()
	if err != nil {
		b.Fatal(err)
	}
	for _, level := range []int{5, 6} {
		for _, size := range []int{1 << 10, 4 << 10} {
			var set [][]byte
			for _, body := range bodies {
				if len(body.Data) == size {
					set = append(set, body.Data)
				}
			}
			b.Run(fmt.Sprintf("level=%d/size=%d", level, size), func(b *testing.B) {
				var e WholeEncoder
				dst := make([]byte, 0, 2*size)
				out := 0
				for _, src := range set {
					out += len(e.Append(dst[:0], src, level))
				}
				b.SetBytes(int64(size))
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					dst = e.Append(dst[:0], set[i], level)
					if i++; i == len(set) {
						i = 0
					}
				}
				b.ReportMetric(float64(out)/float64(len(set)), "out-B")
			})
		}
	}
}

// BenchmarkTableMake builds a block's codes and header (Table.make) from
// the counts the level-5 finder takes of the corpus's cuts of each size
// class, in turn: the part of a small body's encoding that does not grow
// with its length.
func BenchmarkTableMake(b *testing.B) {
	bodies, err := corpus.Bodies()
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{1 << 10, 4 << 10} {
		var stats []BlockStats
		var e WholeEncoder
		for _, body := range bodies {
			if len(body.Data) == size {
				e.Reset(size)
				e.Match(body.Data, 5)
				stats = append(stats, e.Stats)
			}
		}
		b.Run(fmt.Sprintf("size=%d", size), func(b *testing.B) {
			t, hb := NewTable(), &HuffBuilder{}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				t.make(hb, stats[i].Lit[:], stats[i].dist[:])
				if i++; i == len(stats) {
					i = 0
				}
			}
		})
	}
}
