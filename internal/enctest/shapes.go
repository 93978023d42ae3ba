package enctest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/squeezehttp/squeeze/internal/corpus"
)

// Shapes reach each path of the encoders (deflate.WholeEncoder's first): stored (also past one
// stored block's 65535 bytes), fixed and dynamic blocks, matches up to 258
// bytes, repeats farther back than the 32 KiB window, and text; and the
// adversarial ones: all one byte (zeros), incompressible (random), two
// bytes alternating, 64 KiB of one 3-byte pattern.
func Shapes() map[string][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 150<<10)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	var runs []byte
	for len(runs) < 50<<10 {
		runs = append(runs, bytes.Repeat([]byte{byte(r.IntN(4))}, r.IntN(600)+1)...)
	}
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	// A 40 000-byte random block repeated: its copies lie beyond the window.
	far := bytes.Repeat(random[:40000], 3)
	var json bytes.Buffer
	for i := 0; json.Len() < 20<<10; i++ {
		fmt.Fprintf(&json, `{"id":%d,"name":"item-%d","tags":["a","b%d"],"price":%d.%02d},`, i, i*7, i%13, i*31%997, i%100)
	}
	// The adversarial shapes of every level's test: two bytes alternating,
	// and one 3-byte pattern repeated over 64 KiB (a match at distance 3
	// that never ends).
	alternating := bytes.Repeat([]byte("ab"), 32<<10)
	pattern := bytes.Repeat([]byte("xyz"), 64<<10/3+1)[:64<<10]
	return map[string][]byte{
		"alternating":    alternating,
		"3-byte pattern": pattern,
		"empty":          {},
		"one byte":       {'x'},
		"four bytes":     []byte("abcd"),
		"random":         random,
		"zeros":          make([]byte, 200<<10),
		"runs":           runs,
		"every byte":     bytes.Repeat(all, 3),
		"far":            far,
		"json":           json.Bytes(),
		"text":           bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog. "), 900),
	}
}

// RoundTripShapes encodes every shape with encode, twice over so that each
// body follows others of other sizes, appended after existing bytes of dst,
// and checks that decode gives it back.
func RoundTripShapes(t *testing.T, encode func(dst, src []byte) []byte, decode func(testing.TB, []byte) []byte) {
	t.Helper()
	shapes := Shapes()
	for round := range 2 {
		for name, body := range shapes {
			prefix := []byte("keep")
			out := encode(prefix, body)
			if !bytes.Equal(out[:4], prefix) {
				t.Fatalf("%s: Append overwrote dst", name)
			}
			if got := decode(t, out[4:]); !bytes.Equal(got, body) {
				t.Fatalf("round %d, %s (%d bytes): decoded %d bytes that differ", round, name, len(body), len(got))
			}
		}
	}
}

// SizeClasses are the heap's size classes up to 32 KiB, and page multiples
// above: a body of one of these lengths fills its allocation.
var SizeClasses = []int{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256,
	288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536,
	1792, 2048, 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192,
	9472, 9728, 10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576,
	27264, 28672, 32768, 40960, 49152, 65536, 73728, 131072}

// MatchShape returns n bytes (an allocation of exactly n) of one of nine
// shapes that stress match finding: zeros, few symbols, a period with
// mutations, copies near and far, a head repeated at the very end, random,
// zeros with a short random tail, word salad, an 8-byte unit repeated.
func MatchShape(r *rand.Rand, n int) []byte {
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

// CheckMatchTables fails t unless every entry of the hash tables of a
// deflate.WholeEncoder (its Long, Short and Pairs; Base and Next) that belongs to
// the body of n bytes just matched is a position with 8 bytes after it (at
// most n-8), and none is at or above the next body's base: the invariants
// that keep LoadFast64 and LoadFast32 in bounds.
func CheckMatchTables(t *testing.T, what string, tables [][]int32, base, next int32, n int) {
	t.Helper()
	last := base + int32(n) - 8
	for _, table := range tables {
		for _, v := range table {
			if v >= base && v > last || v >= next {
				t.Fatalf("%s, %d bytes: a table holds %d, past the body (base %d, next %d)", what, n, v, base, next)
			}
		}
	}
}

// SlotShapes fill a body of any length: zeros, a period, a match that only
// its last bytes end (the probes' last position finds the first one), and
// text then random bytes.
var SlotShapes = map[string]func(n int) []byte{
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

// CorpusCuts returns the repository corpus's 1 and 4 KiB cuts of every
// kind of web body (internal/corpus), by name.
func CorpusCuts(tb testing.TB) (names []string, cuts map[string][]byte) {
	bodies, err := corpus.Bodies()
	if err != nil {
		tb.Fatal(err)
	}
	cuts = map[string][]byte{}
	for _, b := range bodies {
		if n := len(b.Data); n == 1<<10 || n == 4<<10 {
			names = append(names, b.Name())
			cuts[b.Name()] = b.Data
		}
	}
	return names, cuts
}
