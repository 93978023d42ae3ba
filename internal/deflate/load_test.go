package deflate

import (
	"bytes"
	"testing"
)

// The match finders read src with loadFast64 and loadFast32, which do not
// check bounds (load_unsafe.go). Each body here fills a heap allocation
// exactly: its length is one of the runtime's size classes, or a multiple
// of the 8 KiB page above 32 KiB, so a load past its last byte reads the
// next allocation, and under the race detector (go test -race, as CI runs
// it) the runtime's pointer checks stop the test. The shapes make matches
// run to the last byte, candidates sit at the first and the last positions
// the probes reach, and literals end the body, with one encoder of each
// kind reused across all of them. Without -race the round trip still fails
// on a read that changed what was matched.
func TestMatchFindersStayInTheBody(t *testing.T) {
	sizes := []int{8, 9, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024, 1152, 2048, 2304,
		3072, 4096, 6144, 8192, 16384, 32768, 40960, 65536, 131072}
	shapes := map[string]func(n int) []byte{
		"zeros": func(n int) []byte { return make([]byte, n) },
		"period 5": func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = "abcde"[i%5]
			}
			return b
		},
		// A match that only its last bytes end: the probes' last position
		// finds the first one.
		"repeat at the end": func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(i*7 + i>>3)
			}
			copy(b[n-min(n, 12):], b)
			return b
		},
		"text then random": func(n int) []byte {
			b := make([]byte, n)
			copy(b, bytes.Repeat([]byte("the quick brown fox "), n/20+1))
			for i := n / 2; i < n; i++ {
				b[i] = byte(uint32(i) * 2654435761 >> 13)
			}
			return b
		},
	}
	var z ZstdEncoder
	var w WholeEncoder
	var br BrotliEncoder
	for name, shape := range shapes {
		for _, n := range sizes {
			src := shape(n)
			if got := unzstd(t, z.Append(nil, src)); !bytes.Equal(got, src) {
				t.Fatalf("zstd, %s, %d bytes: decoded differently", name, n)
			}
			if got := inflate(t, w.Append(nil, src)); !bytes.Equal(got, src) {
				t.Fatalf("DEFLATE, %s, %d bytes: decoded differently", name, n)
			}
			if n <= BrotliMaxBody {
				if got := unbrotli(t, br.Append(nil, src)); !bytes.Equal(got, src) {
					t.Fatalf("brotli, %s, %d bytes: decoded differently", name, n)
				}
			}
		}
	}
}
