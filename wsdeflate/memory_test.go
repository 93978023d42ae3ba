package wsdeflate

import (
	"fmt"
	"runtime"
	"testing"
)

// endpoint is what one side of a connection holds: a compressor for what it
// sends and a decompressor for what it receives.
type endpoint struct {
	c *Compressor
	d *Decompressor
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC() // a second cycle empties sync.Pool's victim cache
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// retainedPerEndpoint opens n endpoints, exchanges msgs through each (the
// endpoint compresses and then decompresses its own output, which exercises
// both directions' state) and reports the heap each keeps, idle (released)
// or active (holding its live encoder and decoder).
func retainedPerEndpoint(n int, dir Direction, release bool, msgs [][]byte) float64 {
	before := heapInUse()
	eps := make([]endpoint, n)
	var wire, plain []byte
	for i := range eps {
		eps[i] = endpoint{NewCompressor(dir), NewDecompressor(dir, 0)}
		for _, m := range msgs {
			wire, _ = eps[i].c.Compress(wire[:0], m)
			plain, _ = eps[i].d.Decompress(plain[:0], wire)
		}
		if release {
			eps[i].c.Release()
			eps[i].d.Release()
		}
	}
	after := heapInUse()
	runtime.KeepAlive(eps)
	return float64(after-before) / float64(n)
}

// BenchmarkMemory reports the heap retained per connection endpoint
// (compressor + decompressor) over 1 000 endpoints, the figures quoted in
// the Compressor and Decompressor docs:
//
//	go test -run '^$' -bench Memory -benchtime 1x ./wsdeflate
func BenchmarkMemory(b *testing.B) {
	msgs := messages(40, 2048) // 80 KB each way: windows full
	for _, bits := range []int{15, 12, 9} {
		for _, ct := range []bool{true, false} {
			for _, release := range []bool{true, false} {
				dir := Direction{ContextTakeover: ct, MaxWindowBits: bits}
				state := map[bool]string{true: "idle", false: "active"}[release]
				b.Run(fmt.Sprintf("bits=%d/takeover=%v/%s", bits, ct, state), func(b *testing.B) {
					var per float64
					for b.Loop() {
						per = retainedPerEndpoint(1000, dir, release, msgs)
					}
					b.ReportMetric(per/1024, "KiB/endpoint")
				})
			}
		}
	}
}

// BenchmarkRelease measures what releasing costs an active connection: a
// 1 KB JSON round trip with context takeover, releasing nothing, the
// compressor, the decompressor or both after every message (persistent
// state against re-seeding from the window). The Release doc comments quote
// these figures.
//
//	go test -run '^$' -bench Release -count 6 ./wsdeflate
func BenchmarkRelease(b *testing.B) {
	msgs := messages(64, 1024)
	for _, mode := range []string{"none", "compressor", "decompressor", "both"} {
		b.Run("release="+mode, func(b *testing.B) {
			c, d := NewCompressor(takeover()), NewDecompressor(takeover(), 0)
			var wire, out []byte
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				wire, _ = c.Compress(wire[:0], msgs[n%len(msgs)])
				out, _ = d.Decompress(out[:0], wire)
				n++
				if mode == "compressor" || mode == "both" {
					c.Release()
				}
				if mode == "decompressor" || mode == "both" {
					d.Release()
				}
			}
		})
	}
}
