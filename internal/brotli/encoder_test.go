package brotli

import (
	"bytes"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/squeezehttp/squeeze/internal/deflate"
	"github.com/squeezehttp/squeeze/internal/enctest"
)

func unbrotli(t testing.TB, stream []byte) []byte {
	t.Helper()
	got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(stream)))
	if err != nil {
		t.Fatalf("brotli decoder: %v", err)
	}
	return got
}

// TestBrotliEncoderIsStandardBrotli has andybalholm/brotli's decoder, a
// port of the reference decoder that shares nothing with the encoder, read
// every shape back (RFC 7932), through one reused encoder.
func TestBrotliEncoderIsStandardBrotli(t *testing.T) {
	var e Encoder
	enctest.RoundTripShapes(t, e.Append, unbrotli)
}

// RFC 7932 §5: every insert and copy length a body can have falls in the range of the code
// brInsertCode and brCopyCode give it (base, base + 2^extra).
func TestBrotliLengthCodes(t *testing.T) {
	for n := uint32(0); n <= MaxBody; n += 1 + n>>6 {
		if c := brInsertCode(n); n < brInsBase[c] || n-brInsBase[c] >= 1<<brInsExtra[c] {
			t.Fatalf("insert length %d: code %d covers %d + %d bits", n, c, brInsBase[c], brInsExtra[c])
		}
		if n < 2 {
			continue
		}
		if c := brCopyCode(n); n < brCopyBase[c] || n-brCopyBase[c] >= 1<<brCopyExtra[c] {
			t.Fatalf("copy length %d: code %d covers %d + %d bits", n, c, brCopyBase[c], brCopyExtra[c])
		}
	}
}

// RFC 7932 §4: with NPOSTFIX and NDIRECT 0, distance symbol 16 + k and its
// extra bits decode as the distance they were made from.
func TestBrotliDistanceCodes(t *testing.T) {
	for d := uint32(1); d < 1<<24; d += 1 + d>>5 {
		code, extra, nbits := brDistanceCode(d)
		got, nd := decodeBrotliDistance(code, extra)
		if nbits != nd || extra >= 1<<nd || got != d {
			t.Fatalf("distance %d: symbol %d, %d extra bits of value %d decode as %d", d, code, nbits, extra, got)
		}
	}
}

// decodeBrotliDistance decodes distance symbol code (16 or more) with its
// extra bits as RFC 7932 §4 does for NPOSTFIX and NDIRECT 0, returning the
// distance and the number of extra bits the symbol takes.
func decodeBrotliDistance(code uint8, extra uint32) (d uint32, nbits uint8) {
	k := uint32(code) - 16
	nd := 1 + k>>1
	offset := (2+k&1)<<nd - 4
	return offset + extra + 1, uint8(nd)
}

func FuzzBrotliEncoder(f *testing.F) {
	f.Add([]byte("hello hello hello"), []byte("hello"))
	f.Add(bytes.Repeat([]byte{0}, 70000), []byte{1, 2, 3})
	f.Add(enctest.Shapes()["json"][:3000], enctest.Shapes()["far"][:1000])
	var e Encoder
	f.Fuzz(func(t *testing.T, first, second []byte) {
		for _, body := range [][]byte{first, second} {
			if got := unbrotli(t, e.Append(nil, body)); !bytes.Equal(got, body) {
				t.Fatalf("%d bytes decoded differently", len(body))
			}
		}
	})
}

// BenchmarkBrotliEncoder runs the encoder beside andybalholm/brotli at
// quality 4, reused the usual way (Reset, default window), on the corpus's
// 1 and 4 KiB JSON records and on generated, more repetitive JSON,
// reporting the output size.
func BenchmarkBrotliEncoder(b *testing.B) {
	_, cuts := enctest.CorpusCuts(b)
	for _, body := range []struct {
		name string
		src  []byte
	}{
		{"json-1k", cuts["json-records/orders.json/1024@0"]},
		{"json-4k", cuts["json-records/orders.json/4096@0"]},
		{"generated-1k", enctest.Shapes()["json"][:1<<10]},
		{"generated-4k", enctest.Shapes()["json"][:4<<10]},
	} {
		src := body.src
		b.Run("body="+body.name+"/impl=own", func(b *testing.B) {
			var e Encoder
			var out []byte
			b.ReportAllocs()
			for b.Loop() {
				out = e.Append(out[:0], src)
			}
			b.ReportMetric(float64(len(out)), "bytes")
		})
		b.Run("body="+body.name+"/impl=andybalholm-q4", func(b *testing.B) {
			var buf bytes.Buffer
			w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: 4})
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				w.Reset(&buf)
				w.Write(src)
				w.Close()
			}
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
	}
}

// RFC 7932 Appendix A: the dictionary is 122,784 bytes with CRC-32
// 0x5136cb04, and NDBITS lays its words out to exactly that size (§8).
func TestBrotliDictionaryIsRFC7932(t *testing.T) {
	if n, sum := len(brDictionary), crc32.ChecksumIEEE([]byte(brDictionary)); n != 122784 || sum != 0x5136cb04 {
		t.Fatalf("dictionary of %d bytes with CRC-32 %#08x, want 122784 and 0x5136cb04", n, sum)
	}
	if end := brDict().offset[brMaxWord+1]; end != uint32(len(brDictionary)) {
		t.Fatalf("words end at %d, not at the dictionary's end", end)
	}
}

// RFC 7932 §8: a distance past the bytes produced so far names a dictionary
// word by length, index and transform. A stream referring to every word
// whole, and to words of every length with each OmitLast transform, decodes
// to those words.
func TestBrotliWordReferences(t *testing.T) {
	var e Encoder
	e.resetCommands()
	e.m.Reset(0)
	var want []byte
	x := brDict()
	for l := uint32(brMinWord); l <= brMaxWord; l++ {
		n := uint32(1) << brDictBits[l]
		for i := range n {
			cuts := []uint32{0}
			if i == 0 || i == n-1 {
				cuts = []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
			}
			for _, cut := range cuts {
				if cut >= l {
					continue
				}
				w := brWordRef{l, i, cut}
				e.wordCommand(0, uint32(len(want)), w)
				at := x.offset[l] + l*i
				want = append(want, brDictionary[at:at+l-cut]...)
			}
		}
	}
	e.bw = deflate.BitWriter{}
	got := unbrotli(t, e.finish(make([]byte, len(want))))
	if !bytes.Equal(got, want) {
		t.Fatalf("decoded %d bytes differ from the %d bytes of the words referred to", len(got), len(want))
	}
}

// The encoder sends words of the static dictionary that are not repeated in
// the body as references (RFC 7932 §8), and the decoder reads them back.
func TestBrotliEncoderUsesDictionaryWords(t *testing.T) {
	body := []byte(`{"description":"available","information":"international","management":"development"}`)
	var e Encoder
	out := e.Append(nil, body)
	words := 0
	pos := uint32(0)
	for _, c := range e.cmds {
		pos += c.ins
		if c.dcode != noDistance && c.dcode >= 16 {
			if d, _ := decodeBrotliDistance(c.dcode, c.dextra); d > pos {
				words++
			}
		}
		pos += c.copy - uint32(c.cut)
	}
	if words < 3 {
		t.Errorf("%d dictionary references in %q, want at least 3", words, body)
	}
	if got := unbrotli(t, out); !bytes.Equal(got, body) {
		t.Fatalf("decoded %q, want %q", got, body)
	}
}

// RFC 7932 §9.2: a body that does not compress goes out as one uncompressed
// meta-block, at most 6 bytes longer than the body (WBITS, the meta-block
// header, padding, the empty last meta-block), bodies of one literal-only
// command included, whose single command symbol takes no bits.
func TestBrotliEncoderStoresIncompressibleBodies(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var e Encoder
	for _, n := range []int{2, 10, 100, 1000, 8192, 70000} {
		body := make([]byte, n)
		for i := range body {
			body[i] = byte(rng.Uint32())
		}
		out := e.Append(nil, body)
		if len(out) > n+6 {
			t.Errorf("%d random bytes took %d bytes, more than %d", n, len(out), n+6)
		}
		if got := unbrotli(t, out); !bytes.Equal(got, body) {
			t.Fatalf("%d random bytes decoded differently", n)
		}
	}
}
