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
func retainedPerEndpoint(n int, dir Direction, level int, release bool, msgs [][]byte) float64 {
	before := heapInUse()
	eps := make([]endpoint, n)
	var wire, plain []byte
	for i := range eps {
		c, _ := NewCompressor(dir, level)
		eps[i] = endpoint{c, NewDecompressor(dir, 0)}
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

// The bounds the package documentation states for one endpoint (compressor
// and decompressor, context takeover both ways): idle, its windows and a
// few KiB of state; live, the encoder and reader on top.
const (
	endpointStateBound   = 4 << 10
	liveEncoderBound     = 288 << 10  // level 1, wsdeflate's own encoder
	liveFlateWriterBound = 1280 << 10 // levels 2 to 9, klauspost's
	liveReaderBound      = 48 << 10
)

// idleEndpointBound is what an idle endpoint may keep at bits: the window
// it inflates against (at least 512 bytes), the compressor's re-seed
// history (at most 8 KiB) and endpointStateBound.
func idleEndpointBound(bits int) int {
	return 1<<max(bits, minZlibWindowBits) + min(1<<bits, maxReseedHistory) + endpointStateBound
}

// TestEndpointMemoryBounds enforces the per-endpoint bounds of the package
// documentation over 50 endpoints (20 under the race detector) whose
// windows are full: idle (released) at 15, 12 and 9 window bits, and live
// at every level (klauspost's bounded-window encoder below 15 bits).
func TestEndpointMemoryBounds(t *testing.T) {
	msgs := messages(40, 2048) // 80 KB each way: windows full
	n := 50
	if raceEnabled {
		n = 20 // the heap is the same; the race detector makes it slow
	}
	type bound struct {
		bits, level int
		release     bool
		bound       int
	}
	cases := []bound{
		{15, DefaultLevel, true, idleEndpointBound(15)},
		{12, DefaultLevel, true, idleEndpointBound(12)},
		{9, DefaultLevel, true, idleEndpointBound(9)},
		{15, DefaultLevel, false, idleEndpointBound(15) + liveEncoderBound + liveReaderBound},
		{12, 9, false, idleEndpointBound(12) + liveFlateWriterBound + liveReaderBound},
	}
	for level := 2; level <= 9; level++ {
		cases = append(cases, bound{15, level, false, idleEndpointBound(15) + liveFlateWriterBound + liveReaderBound})
	}
	for _, tc := range cases {
		dir := Direction{ContextTakeover: true, MaxWindowBits: tc.bits}
		per := retainedPerEndpoint(n, dir, tc.level, tc.release, msgs)
		state := map[bool]string{true: "idle", false: "live"}[tc.release]
		if per > float64(tc.bound) {
			t.Errorf("%d bits, level %d, %s: %.1f KiB per endpoint, over the documented %.1f KiB", tc.bits, tc.level, state, per/1024, float64(tc.bound)/1024)
		}
		t.Logf("%d bits, level %d, %s: %.1f KiB per endpoint (bound %.1f KiB)", tc.bits, tc.level, state, per/1024, float64(tc.bound)/1024)
	}
}

// BenchmarkMemory reports the heap retained per connection endpoint
// (compressor + decompressor) over 1 000 endpoints, the figures the bounds
// of TestEndpointMemoryBounds are checked against:
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
						per = retainedPerEndpoint(1000, dir, DefaultLevel, release, msgs)
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
// state against re-seeding from the window). The Release doc comments state
// this cost in relative terms; this benchmark measures it.
//
//	go test -run '^$' -bench Release -count 6 ./wsdeflate
func BenchmarkRelease(b *testing.B) {
	msgs := messages(64, 1024)
	for _, mode := range []string{"none", "compressor", "decompressor", "both"} {
		b.Run("release="+mode, func(b *testing.B) {
			c, d := newCompressor(takeover()), NewDecompressor(takeover(), 0)
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
