package encoding

import (
	"bytes"
	stdgzip "compress/gzip"
	stdzlib "compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// builtins are the codecs under test, each with levels worth covering.
var builtins = []struct {
	codec  Codec
	levels []int
}{
	{Zstd(), []int{1, 3, 7, 22}},
	{Brotli(), []int{1, 4, 6, 11}},
	{Gzip(), []int{1, 5, 9}},
	{Deflate(), []int{1, 5, 9}},
}

// decodeWith decodes b in coding with a decoder that shares no code with
// the encoders: the standard library for gzip and deflate, and the other
// half of each codec library for zstd and br.
func decodeWith(coding string, b []byte) ([]byte, error) {
	var r io.Reader
	switch coding {
	case "gzip":
		zr, err := stdgzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		zr.Multistream(false)
		r = zr
	case "deflate":
		zr, err := stdzlib.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		r = zr
	case "zstd":
		zr, err := zstd.NewReader(bytes.NewReader(b), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(zstdMaxWindow))
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		r = zr
	case "br":
		r = brotli.NewReader(bytes.NewReader(b))
	default:
		return nil, fmt.Errorf("no decoder for %q", coding)
	}
	return io.ReadAll(r)
}

// jsonText returns n bytes of JSON-like text, as compressible as API replies.
func jsonText(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"}
	var b bytes.Buffer
	b.WriteByte('[')
	for b.Len() < n {
		fmt.Fprintf(&b, `{"id":%d,"name":%q,"score":%.3f,"active":%t},`,
			rng.IntN(100000), names[rng.IntN(len(names))], rng.Float64()*100, rng.IntN(2) == 0)
	}
	return b.Bytes()[:n]
}

// randomBytes returns n incompressible bytes.
func randomBytes(n int) []byte {
	rng := rand.New(rand.NewPCG(3, 4))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

type body struct {
	name string
	data []byte
}

func testBodies(large bool) []body {
	bodies := []body{
		{"0B", nil},
		{"1B", []byte("x")},
		{"1KB-text", jsonText(1 << 10)},
		{"1KB-random", randomBytes(1 << 10)},
	}
	if large {
		bodies = append(bodies,
			body{"100KB-text", jsonText(100 << 10)},
			body{"100KB-random", randomBytes(100 << 10)},
			body{"1MB-text", jsonText(1 << 20)},
			body{"1MB-random", randomBytes(1 << 20)},
		)
	}
	return bodies
}

// TestRoundTripIndependentDecoders encodes every body with every built-in
// codec at several levels, one-shot and streaming, and decodes the result
// with an independent decoder.
func TestRoundTripIndependentDecoders(t *testing.T) {
	t.Parallel()
	for _, bc := range builtins {
		for _, level := range bc.levels {
			p, err := newEncoderPool(bc.codec, level)
			if err != nil {
				t.Fatalf("newEncoderPool(%s, %d): %v", bc.codec.Name(), level, err)
			}
			// The slowest levels on megabytes would dominate the suite
			// without covering anything the faster levels do not.
			_, hi, def := bc.codec.Levels()
			large := level == def || (level != hi && !testing.Short())
			for _, b := range testBodies(large) {
				t.Run(fmt.Sprintf("%s/%d/%s", p.name(), level, b.name), func(t *testing.T) {
					oneShot, err := p.encode([]byte("prefix"), b.data)
					if err != nil {
						t.Fatalf("encode: %v", err)
					}
					if !bytes.HasPrefix(oneShot, []byte("prefix")) {
						t.Fatalf("encode did not append to dst")
					}
					checkDecodes(t, "one-shot", p.name(), oneShot[len("prefix"):], b.data)

					var stream bytes.Buffer
					wr, err := p.get(&stream)
					if err != nil {
						t.Fatalf("get: %v", err)
					}
					for chunk := range slices.Chunk(b.data, 32<<10) {
						if _, err := wr.Write(chunk); err != nil {
							t.Fatalf("Write: %v", err)
						}
					}
					if err := wr.Close(); err != nil {
						t.Fatalf("Close: %v", err)
					}
					p.put(wr)
					checkDecodes(t, "streaming", p.name(), stream.Bytes(), b.data)
				})
			}
		}
	}
}

// Bodies known whole of up to ownMaxBody bytes at each level go to
// squeeze's own DEFLATE encoder, the rest (and all of them with
// LibraryEncoders) to klauspost: on both sides of each bound
// the output is a valid gzip member (RFC 1952: the standard library's
// reader checks CRC-32 and ISIZE) or zlib stream (RFC 1950: FCHECK and
// Adler-32), and the own encoder is the one used exactly inside the bounds.
func TestOwnDeflateBounds(t *testing.T) {
	t.Parallel()
	for _, c := range []*flateCodec{gzipBuiltin, deflateBuiltin, gzipLibrary, deflateLibrary} {
		for level := 1; level <= 9; level++ {
			bound := ownMaxBody(c.name, level)
			for _, n := range []int{0, 1, 100, bound - 1, bound, bound + 1, 4 << 10, 8<<10 + 1} {
				if n < 0 {
					continue
				}
				src := jsonText(n)
				out, err := c.AppendEncode(nil, src, level)
				if err != nil {
					t.Fatal(err)
				}
				checkDecodes(t, fmt.Sprintf("level %d, %d bytes", level, n), c.Name(), out, src)
				// (An empty body comes out the same from both.)
				own := c.appendOwn(nil, src, level, 0, 0)
				want := !c.library && n <= bound
				if used := bytes.Equal(out, own); n > 0 && used != want {
					t.Errorf("%s (library only %v) level %d, %d bytes: own encoder used %v, want %v", c.Name(), c.library, level, n, used, want)
				}
			}
		}
	}
}

// RFC 1952 §2.3.1: MTIME 0 means no time stamp. klauspost's gzip.Writer
// sends the zero time.Time as a date in 2042; the middleware's gzip, one
// shot, padded and streaming, new writers and reused ones, sends 0 and no
// name.
func TestGzipCarriesNoTimeStamp(t *testing.T) {
	body := jsonText(1000)
	for _, level := range []int{1, 5, 9} {
		p, err := newEncoderPool(Gzip(), level)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 { // a new writer, then the same one from the pool
			var stream bytes.Buffer
			wr, err := p.get(&stream)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = wr.Write(body)
			if err := wr.Close(); err != nil {
				t.Fatal(err)
			}
			p.put(wr)
			oneShot, err := p.encode(nil, body)
			if err != nil {
				t.Fatal(err)
			}
			padded, err := p.encodePadded(nil, body, 20)
			if err != nil {
				t.Fatal(err)
			}
			for path, out := range map[string][]byte{"streaming": stream.Bytes(), "one-shot": oneShot, "padded": padded} {
				zr, err := stdgzip.NewReader(bytes.NewReader(out))
				if err != nil {
					t.Fatal(err)
				}
				if mtime := binary.LittleEndian.Uint32(out[4:8]); mtime != 0 || zr.Header.Name != "" {
					t.Errorf("level %d, %s, writer %d: MTIME %d, name %q; want 0 and none", level, path, i, mtime, zr.Header.Name)
				}
			}
		}
	}
}

func checkDecodes(t *testing.T, path, coding string, encoded, want []byte) {
	t.Helper()
	got, err := decodeWith(coding, encoded)
	if err != nil {
		t.Fatalf("%s: %s output (%d bytes) does not decode: %v", path, coding, len(encoded), err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: %s output decodes to %d bytes that differ from the %d written", path, coding, len(got), len(want))
	}
}

// TestFlushMakesWrittenBytesDecodable writes a stream in pieces with Flush
// between them, as Server-Sent Events do, and checks after each Flush that
// everything written so far decodes from what came out, before Close.
func TestFlushMakesWrittenBytesDecodable(t *testing.T) {
	events := [][]byte{[]byte("data: one\n\n"), jsonText(3000), []byte("data: three\n\n"), randomBytes(70 << 10)}
	for _, bc := range builtins {
		t.Run(bc.codec.Name(), func(t *testing.T) {
			p, err := newEncoderPool(bc.codec, 0)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			wr, err := p.get(&out)
			if err != nil {
				t.Fatal(err)
			}
			defer p.put(wr)
			var written []byte
			for i, ev := range events {
				if _, err := wr.Write(ev); err != nil {
					t.Fatalf("Write event %d: %v", i, err)
				}
				if err := wr.Flush(); err != nil {
					t.Fatalf("Flush after event %d: %v", i, err)
				}
				written = append(written, ev...)
				got, err := decodePrefix(p.name(), out.Bytes(), len(written))
				if err != nil {
					t.Fatalf("after Flush of event %d, the %d bytes out do not decode to the %d written: %v", i, out.Len(), len(written), err)
				}
				if !bytes.Equal(got, written) {
					t.Fatalf("after Flush of event %d, the output decodes to different bytes", i)
				}
			}
		})
	}
}

// decodePrefix decodes the first n bytes of an unfinished stream.
func decodePrefix(coding string, b []byte, n int) ([]byte, error) {
	var r io.Reader
	var err error
	switch coding {
	case "gzip":
		r, err = stdgzip.NewReader(bytes.NewReader(b))
	case "deflate":
		r, err = stdzlib.NewReader(bytes.NewReader(b))
	case "zstd":
		var zr *zstd.Decoder
		zr, err = zstd.NewReader(bytes.NewReader(b), zstd.WithDecoderConcurrency(1))
		if err == nil {
			defer zr.Close()
		}
		r = zr
	case "br":
		r = brotli.NewReader(bytes.NewReader(b))
	}
	if err != nil {
		return nil, err
	}
	got := make([]byte, n)
	_, err = io.ReadFull(r, got)
	return got, err
}

// TestLevelValidation checks that levels outside a codec's range are
// rejected when the pool is made, and that 0 selects the default.
func TestLevelValidation(t *testing.T) {
	tests := []struct {
		codec   Codec
		level   int
		wantErr bool
		want    int
	}{
		{Zstd(), 0, false, 3},
		{Zstd(), 22, false, 22},
		{Zstd(), 23, true, 0},
		{Zstd(), -1, true, 0},
		{Brotli(), 0, false, 4},
		{Brotli(), 11, false, 11},
		{Brotli(), 12, true, 0},
		{Gzip(), 0, false, 5},
		{Gzip(), 9, false, 9},
		{Gzip(), 10, true, 0},
		{Gzip(), -1, true, 0},
		{Deflate(), 0, false, 5},
		{Deflate(), 10, true, 0},
	}
	for _, tt := range tests {
		p, err := newEncoderPool(tt.codec, tt.level)
		switch {
		case tt.wantErr && err == nil:
			t.Errorf("newEncoderPool(%s, %d) accepted a level outside %s's range", tt.codec.Name(), tt.level, tt.codec.Name())
		case !tt.wantErr && err != nil:
			t.Errorf("newEncoderPool(%s, %d): %v", tt.codec.Name(), tt.level, err)
		case !tt.wantErr && p.level != tt.want:
			t.Errorf("newEncoderPool(%s, %d) uses level %d, want %d", tt.codec.Name(), tt.level, p.level, tt.want)
		}
	}
}

// TestCodecNames checks the content-coding tokens, which must be lower case
// (RFC 9110 §8.4.1).
func TestCodecNames(t *testing.T) {
	for codec, want := range map[Codec]string{Zstd(): "zstd", Brotli(): "br", Gzip(): "gzip", Deflate(): "deflate"} {
		if got := codec.Name(); got != want {
			t.Errorf("Name() = %q, want %q", got, want)
		}
	}
}

// TestCodecsRejectLevelsOutsideTheirRange checks that the built-in codecs'
// own entry points, which a caller may use without a pool, refuse levels
// outside Levels instead of misbehaving.
func TestCodecsRejectLevelsOutsideTheirRange(t *testing.T) {
	for _, bc := range builtins {
		_, hi, _ := bc.codec.Levels()
		for _, level := range []int{-1, hi + 1} {
			if _, err := bc.codec.NewWriter(io.Discard, level); err == nil {
				t.Errorf("%s: NewWriter accepted level %d, above %d or negative", bc.codec.Name(), level, hi)
			}
			if _, err := bc.codec.(AppendEncoder).AppendEncode(nil, []byte("x"), level); err == nil {
				t.Errorf("%s: AppendEncode accepted level %d, above %d or negative", bc.codec.Name(), level, hi)
			}
		}
	}
}

// AppendEncode appends as append does: the capacity of dst past the slice
// it returns keeps its bytes, so a caller may encode into part of a larger
// buffer. Every built-in codec, at every level, own encoders and library.
func TestAppendEncodeLeavesSpareCapacityAlone(t *testing.T) {
	var bodies [][]byte
	for i := range 40 {
		bodies = append(bodies, jsonText(100+i*97))
	}
	for _, c := range []Codec{Gzip(), Deflate(), Zstd(), Brotli()} {
		enc := c.(AppendEncoder)
		lo, hi, _ := c.Levels()
		for level := lo; level <= hi; level++ {
			for _, body := range bodies {
				if level > 9 && len(body) > 1000 {
					continue // br 10 and 11 are slow
				}
				want, err := enc.AppendEncode(nil, body, level)
				if err != nil {
					t.Fatal(err)
				}
				buf := bytes.Repeat([]byte{0xaa}, len(want)+64)
				out, err := enc.AppendEncode(buf[:0], body, level)
				if err != nil {
					t.Fatal(err)
				}
				for i, b := range buf[len(out):] {
					if b != 0xaa {
						t.Fatalf("%s level %d, %d bytes: AppendEncode wrote %#x %d bytes past the %d it returned", c.Name(), level, len(body), b, i, len(out))
					}
				}
			}
		}
	}
}
