package deflate

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/andybalholm/brotli"
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
	var e BrotliEncoder
	roundTripShapes(t, e.Append, unbrotli)
}

// RFC 7932 §5: every insert and copy length a body can have falls in the range of the code
// brInsertCode and brCopyCode give it (base, base + 2^extra).
func TestBrotliLengthCodes(t *testing.T) {
	for n := uint32(0); n <= BrotliMaxBody; n += 1 + n>>6 {
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
		k := uint32(code) - 16
		nd := 1 + k>>1
		offset := (2+k&1)<<nd - 4
		if uint32(nbits) != nd || extra >= 1<<nd || offset+extra+1 != d {
			t.Fatalf("distance %d: symbol %d, %d extra bits of value %d decode as %d", d, code, nbits, extra, offset+extra+1)
		}
	}
}

func FuzzBrotliEncoder(f *testing.F) {
	f.Add([]byte("hello hello hello"), []byte("hello"))
	f.Add(bytes.Repeat([]byte{0}, 70000), []byte{1, 2, 3})
	f.Add(wholeShapes()["json"][:3000], wholeShapes()["far"][:1000])
	var e BrotliEncoder
	f.Fuzz(func(t *testing.T, first, second []byte) {
		for _, body := range [][]byte{first, second} {
			if got := unbrotli(t, e.Append(nil, body)); !bytes.Equal(got, body) {
				t.Fatalf("%d bytes decoded differently", len(body))
			}
		}
	})
}

// BenchmarkBrotliEncoder runs the encoder beside andybalholm/brotli at
// quality 4, reused the usual way (Reset, a window just large enough), on
// 1 and 4 KB of JSON, reporting the output size.
func BenchmarkBrotliEncoder(b *testing.B) {
	for _, n := range []int{1 << 10, 4 << 10} {
		src := wholeShapes()["json"][:n]
		b.Run(fmt.Sprintf("body=%dk/impl=own", n>>10), func(b *testing.B) {
			var e BrotliEncoder
			var out []byte
			b.ReportAllocs()
			for b.Loop() {
				out = e.Append(out[:0], src)
			}
			b.ReportMetric(float64(len(out)), "bytes")
		})
		b.Run(fmt.Sprintf("body=%dk/impl=andybalholm-q4", n>>10), func(b *testing.B) {
			var buf bytes.Buffer
			w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: 4, LGWin: int(brWindowBits(n))})
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
