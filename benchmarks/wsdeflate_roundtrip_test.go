package benchmarks

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
)

// BenchmarkWSDeflateRoundTrip replicates the published permessage-deflate
// table: one op is a compress + decompress round trip of one JSON message,
// output checked against input, for every size, with context takeover and
// without, side by side with the "old" per-message setup, coder/websocket's
// approach and gorilla/websocket's. "varied" messages differ from one to the
// next (real traffic); "repeated" sends the same message (the published
// table's case). wire-B/msg is the compressed payload size.
//
//	go test -run '^$' -bench WSDeflateRoundTrip -count 6 . | tee rt.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col /impl rt.txt
func BenchmarkWSDeflateRoundTrip(b *testing.B) {
	for _, size := range wsdeflateSizes {
		varied := wsdeflateMessages(64, size)
		repeated := [][]byte{wsdeflateRepeated(size)}
		for _, data := range []struct {
			name string
			msgs [][]byte
		}{{"varied", varied}, {"repeated", repeated}} {
			for _, takeover := range []bool{true, false} {
				mode := map[bool]string{true: "takeover", false: "notakeover"}[takeover]
				impls := []struct {
					name  string
					codec func() wsdeflateCodec
				}{
					{"ours", func() wsdeflateCodec { return newOurs(takeover) }},
					{"fresh", func() wsdeflateCodec { return new(freshCodec) }},
					{"coder", func() wsdeflateCodec { return newCoder(takeover) }},
				}
				if takeover {
					// The lowest-memory way to run ours: encoders go back to
					// the pools after every message, so an active connection
					// keeps no more than an idle one.
					impls = append(impls, struct {
						name  string
						codec func() wsdeflateCodec
					}{"ours-release", func() wsdeflateCodec { o := newOurs(true); o.releaseMsg = true; return o }})
				} else {
					impls = append(impls, struct {
						name  string
						codec func() wsdeflateCodec
					}{"gorilla", func() wsdeflateCodec { return new(gorillaCodec) }})
				}
				for _, impl := range impls {
					name := fmt.Sprintf("size=%dK/msgs=%s/mode=%s/impl=%s", size>>10, data.name, mode, impl.name)
					b.Run(name, func(b *testing.B) {
						benchRoundTrip(b, impl.codec(), data.msgs)
					})
				}
			}
		}
	}
}

// benchRoundTrip also reports cpu-ns/op, the CPU time of the benchmark's
// own thread per round trip (see threadCPU): on a shared, loaded machine
// it is the steadier figure to compare.
func benchRoundTrip(b *testing.B, c wsdeflateCodec, msgs [][]byte) {
	for _, m := range msgs { // warm up: pools, windows
		c.roundTrip(m)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(msgs[0])))
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0, cpuOK := threadCPU()
	wire, n := 0, 0
	for b.Loop() {
		m := msgs[n%len(msgs)]
		out, w := c.roundTrip(m)
		if !bytes.Equal(out, m) {
			b.Fatalf("message %d: round trip changed the message (%d bytes in, %d out)", n, len(m), len(out))
		}
		wire += w
		n++
	}
	if cpu1, ok := threadCPU(); ok && cpuOK && n > 0 {
		b.ReportMetric(float64(cpu1-cpu0)/float64(n), "cpu-ns/op")
	}
	b.ReportMetric(float64(wire)/float64(n), "wire-B/msg")
}
