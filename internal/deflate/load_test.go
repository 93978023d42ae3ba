package deflate

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// The match finders read src with LoadFast64 and LoadFast32, which do not
// check bounds (load_unsafe.go). Each body here fills its heap slot
// exactly: its length is one of the runtime's size classes, or a multiple
// of the 8 KiB page above 32 KiB, so a load past its last byte crosses the
// slot's end, and under the race detector (go test -race, as CI runs it)
// the runtime's pointer checks stop the test when that lands in another
// allocation (not in unallocated memory past a large one). The shapes make
// matches run to the last byte, candidates sit at the first and the last
// positions the probes reach, and literals end the body, with one encoder
// of each kind reused across all of them. A round trip fails only on a read
// that changed what was matched, so the next two tests check the
// invariants themselves, in the tables, on many more bodies.
func TestMatchFindersStayInTheBody(t *testing.T) {
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
		for _, n := range sizeClasses {
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

// sizeClasses are the heap's size classes up to 32 KiB, and page multiples
// above: a body of one of these lengths fills its allocation.
var sizeClasses = []int{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256,
	288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536,
	1792, 2048, 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192,
	9472, 9728, 10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576,
	27264, 28672, 32768, 40960, 49152, 65536, 73728, 131072}

// matchShape returns n bytes (an allocation of exactly n) of one of nine
// shapes that stress match finding: zeros, few symbols, a period with
// mutations, copies near and far, a head repeated at the very end, random,
// zeros with a short random tail, word salad, an 8-byte unit repeated.
func matchShape(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	switch r.IntN(9) {
	case 0:
	case 1:
		k := 1 + r.IntN(4)
		for i := range b {
			b[i] = byte(r.IntN(k))
		}
	case 2:
		pat := make([]byte, 1+r.IntN(80))
		for i := range pat {
			pat[i] = byte(r.IntN(256))
		}
		mut := r.IntN(200)
		for i := range b {
			b[i] = pat[i%len(pat)]
			if mut > 0 && r.IntN(1000) < mut {
				b[i] = byte(r.IntN(256))
			}
		}
	case 3:
		for i := 0; i < n; {
			if i > 8 && r.IntN(3) != 0 {
				d := 1 + r.IntN(min(i, 1+r.IntN(70000)))
				for l := 3 + r.IntN(1+r.IntN(70000)); l > 0 && i < n; l-- {
					b[i] = b[i-d]
					i++
				}
			} else {
				for l := 1 + r.IntN(20); l > 0 && i < n; l-- {
					b[i] = byte(r.IntN(256))
					i++
				}
			}
		}
	case 4:
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		k := min(n, 8+r.IntN(40))
		copy(b[n-k:], b)
	case 5:
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
	case 6:
		for i := n - min(n, r.IntN(10)); i < n; i++ {
			b[i] = byte(1 + r.IntN(255))
		}
	case 7:
		words := []string{"the ", "quick ", "brown ", "fox ", `{"id":`, `"name":`, "null,", "0123456789"}
		for i := 0; i < n; {
			i += copy(b[i:], words[r.IntN(len(words))])
		}
	case 8:
		u := r.Uint64()
		for i := range b {
			b[i] = byte(u >> (8 * (i % 8)))
		}
		if n > 0 {
			b[n-1] ^= 0xff
		}
	}
	return b
}

// checkMatchTables fails t unless every entry of m's tables that belongs to
// the body of n bytes just matched is a position with 8 bytes after it (at
// most n-8), and none is at or above the next body's base: the invariants
// that keep LoadFast64 and LoadFast32 in bounds.
func checkMatchTables(t *testing.T, what string, m *WholeEncoder, n int) {
	t.Helper()
	last := m.Base + int32(n) - 8
	for _, table := range [][]int32{m.Long[:], m.Short[:]} {
		for _, v := range table {
			if v >= m.Base && v > last || v >= m.next {
				t.Fatalf("%s, %d bytes: a table holds %d, past the body (base %d, next %d)", what, n, v, m.Base, m.next)
			}
		}
	}
}

// TestMatchFindersKeepTheirInvariants runs 300 bodies of random shapes and
// sizes (short, size classes, up to 128 KiB) through one zstd, one DEFLATE
// and one brotli encoder, now and then moving the next base to just below
// the limit so that the tables wrap, and after each body checks the tables
// (checkMatchTables) and the round trip.
func TestMatchFindersKeepTheirInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(0, 7))
	size := func(most int) int {
		switch r.IntN(4) {
		case 0:
			return r.IntN(20)
		case 1:
			return min(most, sizeClasses[r.IntN(len(sizeClasses))])
		case 2:
			return min(most, r.IntN(5000))
		}
		return r.IntN(most + 1)
	}
	var z ZstdEncoder
	var w WholeEncoder
	var br BrotliEncoder
	for range 300 {
		if r.IntN(50) == 0 {
			// Raised only: bases must grow, or stale entries would look
			// like positions of the next body.
			for _, m := range []*WholeEncoder{&z.m, &w, &br.m} {
				m.next = max(m.next, int32(baseLimit-r.IntN(200000)))
			}
		}
		src := matchShape(r, size(ZstdMaxBody))
		if got := unzstd(t, z.Append(nil, src)); !bytes.Equal(got, src) {
			t.Fatalf("zstd, %d bytes: decoded differently", len(src))
		}
		checkMatchTables(t, "zstd", &z.m, len(src))
		src = matchShape(r, size(40000))
		if got := inflate(t, w.Append(nil, src)); !bytes.Equal(got, src) {
			t.Fatalf("DEFLATE, %d bytes: decoded differently", len(src))
		}
		checkMatchTables(t, "DEFLATE", &w, len(src))
		src = matchShape(r, size(20000))
		if got := unbrotli(t, br.Append(nil, src)); !bytes.Equal(got, src) {
			t.Fatalf("brotli, %d bytes: decoded differently", len(src))
		}
		if len(src) > 0 { // an empty body leaves the tables alone
			checkMatchTables(t, "brotli", &br.m, len(src))
		}
	}
}

// TestMatchFindersAtTheirBounds encodes bodies within 10 bytes of each size
// where the matching changes: LightMax, the encoding package's 4 KiB, the DEFLATE
// window, zstdMaxMatch and ZstdMaxBody.
func TestMatchFindersAtTheirBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 1))
	var z ZstdEncoder
	var w WholeEncoder
	var br BrotliEncoder
	for range 10 {
		for _, c := range []int{LightMax, 4096, windowSize, zstdMaxMatch, zstdMaxMatch + 8, ZstdMaxBody} {
			for n := c - 10; n <= min(c+10, ZstdMaxBody); n++ {
				src := matchShape(r, n)
				if got := unzstd(t, z.Append(nil, src)); !bytes.Equal(got, src) {
					t.Fatalf("zstd, %d bytes: decoded differently", n)
				}
				checkMatchTables(t, "zstd", &z.m, n)
				if n <= 40000 {
					if got := inflate(t, w.Append(nil, src)); !bytes.Equal(got, src) {
						t.Fatalf("DEFLATE, %d bytes: decoded differently", n)
					}
					checkMatchTables(t, "DEFLATE", &w, n)
					if got := unbrotli(t, br.Append(nil, src)); !bytes.Equal(got, src) {
						t.Fatalf("brotli, %d bytes: decoded differently", n)
					}
				}
			}
		}
	}
}
