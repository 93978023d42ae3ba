package encoding

import (
	"bytes"
	"compress/flate"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

// padLengths are the paddings worth trying: the smallest, each side of the
// brotli metadata meta-block's 256 bytes and of the gzip comment's 511,
// and the largest.
var padLengths = []int{1, 2, 3, 7, 8, 9, 100, 257, 258, 259, 260, 511, 512, 513, 516, 519, 4096, maxPad}

// paddingAdds returns the bytes that padding for n adds in coding, as
// Config.Jitter documents, as a range: br's aligning meta-block adds 0 to 2
// bytes more, depending on where the data's bits end.
func paddingAdds(coding string, n int) (lo, hi int) {
	switch coding {
	case "zstd":
		return n + 8, n + 8
	case "br":
		return n, n + 2
	case "gzip":
		if n <= maxGzipComment {
			return n + 1, n + 1
		}
		return n + 14, n + 14
	case "deflate":
		return n + 13, n + 13
	}
	panic("no padding for " + coding)
}

// encodeStream encodes src through a pooled Writer of p, padded for pad
// when pad > 0, as the middleware streams a body.
func encodeStream(t *testing.T, p *encoderPool, src []byte, pad int) []byte {
	t.Helper()
	var out bytes.Buffer
	wr, err := p.get(&out)
	if err != nil {
		t.Fatal(err)
	}
	if pad > 0 {
		if err := p.padder.Pad(wr, &out, pad); err != nil {
			t.Fatalf("%s: Pad(%d): %v", p.name(), pad, err)
		}
	}
	for chunk := range slices.Chunk(src, 1000) {
		if _, err := wr.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if err := wr.Close(); err != nil {
		t.Fatal(err)
	}
	p.put(wr)
	return out.Bytes()
}

// TestJitterPaddingAddsDocumentedBytes checks, for every coding, on the
// one-shot paths (the built-in codecs at their default levels, where the
// own encoders serve 1 KB bodies of gzip, deflate and br, and the
// libraries' through LibraryEncoders) and the
// streaming one, that padding for n adds what Config.Jitter documents
// (so each n gives another length) and decodes to the same body.
func TestJitterPaddingAddsDocumentedBytes(t *testing.T) {
	for _, size := range []int{1 << 10, 20 << 10} {
		src := jsonText(size)
		for _, c := range builtinCodings {
			p, err := newEncoderPool(c.Codec, c.Level)
			if err != nil {
				t.Fatal(err)
			}
			coding := p.name()
			plain, err := p.encode(nil, src)
			if err != nil {
				t.Fatal(err)
			}
			if coding == "br" {
				// Padded br bodies go to andybalholm/brotli, whatever the size.
				if plain, err = brotliBuiltin.appendStream(nil, src, p.level, 0); err != nil {
					t.Fatal(err)
				}
			}
			plainStream := encodeStream(t, p, src, 0)
			for _, n := range padLengths {
				lo, hi := paddingAdds(coding, n)
				padded, err := p.encodePadded(nil, src, n)
				if err != nil {
					t.Fatalf("%s: encodePadded(%d): %v", coding, n, err)
				}
				stream := encodeStream(t, p, src, n)
				for _, out := range []struct {
					path          string
					padded, plain []byte
				}{{"one-shot", padded, plain}, {"streaming", stream, plainStream}} {
					if added := len(out.padded) - len(out.plain); added < lo || added > hi {
						t.Errorf("%s %d B, %s, padding for %d: %d bytes more, want %d to %d", coding, size, out.path, n, added, lo, hi)
					}
					checkDecodes(t, out.path+" padded", coding, out.padded, src)
				}
			}
			// Writers that padded go back to the pools they share with
			// unpadded bodies: none may keep its padding.
			again, err := p.encode(nil, src)
			if coding == "br" {
				again, err = brotliBuiltin.appendStream(nil, src, p.level, 0)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, plain) || !bytes.Equal(encodeStream(t, p, src, 0), plainStream) {
				t.Errorf("%s %d B: an unpadded body after padded ones comes out otherwise", coding, size)
			}
		}
	}
}

// TestZstdSkippableFrameLayout_RFC8878_3_1_2 checks the padding frame byte
// by byte: magic 0x184D2A50 and the content's length, little-endian, then
// the content.
func TestZstdSkippableFrameLayout_RFC8878_3_1_2(t *testing.T) {
	got := appendSkippableFrame([]byte{0xAA}, 5)
	want := []byte{0xAA, 0x50, 0x2A, 0x4D, 0x18, 5, 0, 0, 0, 0, 0, 0, 0, 0}
	if !bytes.Equal(got, want) {
		t.Fatalf("appendSkippableFrame = % x, want % x", got, want)
	}
}

// TestJitterPadsBrotliWithMetadataMetaBlock_RFC7932_9_2 checks the metadata
// meta-blocks bit by bit (ISLAST 0, MNIBBLES code 3, reserved 0,
// MSKIPBYTES, MSKIPLEN-1, fill) and that andybalholm's decoder skips them
// between a stream header aligned by a flush and the data.
func TestJitterPadsBrotliWithMetadataMetaBlock_RFC7932_9_2(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want []byte
	}{
		{1, []byte{0x06}},
		{2, []byte{0x06, 0x06}},
		// MSKIPBYTES 1 and MSKIPLEN-1 = 0: bits 0110 01 00000000 00.
		{3, []byte{0x16, 0x00, 0}},
		// MSKIPLEN-1 = 5: its two low bits end the first byte.
		{8, []byte{0x16 | 1<<6, 5 >> 2, 0, 0, 0, 0, 0, 0}},
	} {
		if got := appendBrotliMetadata(nil, tc.n); !bytes.Equal(got, tc.want) {
			t.Errorf("metadata for %d = % x, want % x", tc.n, got, tc.want)
		}
	}
	for _, n := range padLengths {
		meta := appendBrotliMetadata(nil, n)
		if len(meta) != n {
			t.Fatalf("metadata for %d is %d bytes", n, len(meta))
		}
		var stream bytes.Buffer
		wr := brotli.NewWriterOptions(&stream, brotli.WriterOptions{Quality: 4, LGWin: 22})
		if err := wr.Flush(); err != nil {
			t.Fatal(err)
		}
		stream.Write(meta)
		wr.Write([]byte("after the metadata"))
		wr.Close()
		got, err := io.ReadAll(brotli.NewReader(&stream))
		if err != nil || string(got) != "after the metadata" {
			t.Fatalf("metadata of %d bytes: decoded %q, %v", n, got, err)
		}
	}
}

// TestJitterPadsDeflateWithEmptyBlocks_RFC1951_3_2 decodes each length of
// empty blocks that padding uses, followed by the final block, with the
// standard library's inflater: nothing comes out, and nothing is left over.
func TestJitterPadsDeflateWithEmptyBlocks_RFC1951_3_2(t *testing.T) {
	final := []byte{0x03, 0x00} // an empty final fixed-Huffman block
	for n := 5; n <= 600; n++ {
		if n == 8 {
			continue
		}
		blocks := appendEmptyBlocks(nil, n)
		if len(blocks) != n {
			t.Fatalf("empty blocks for %d are %d bytes", n, len(blocks))
		}
		r := bytes.NewReader(append(blocks, final...))
		got, err := io.ReadAll(flate.NewReader(r))
		if err != nil || len(got) != 0 || r.Len() != 0 {
			t.Fatalf("%d bytes of empty blocks: inflated %d bytes, %d left unread, %v", n, len(got), r.Len(), err)
		}
	}
}

// plainCodec is a user's Codec that knows nothing of padding.
type plainCodec struct{}

func (plainCodec) Name() string                { return "x-plain" }
func (plainCodec) Levels() (min, max, def int) { return 1, 1, 1 }
func (plainCodec) NewWriter(w io.Writer, _ int) (Writer, error) {
	return gzipBuiltin.NewWriter(w, 5)
}

// paddingCodec is a user's Codec that pads through Padder alone, with no
// one-shot path: gzip, renamed, and with comments for padding.
type paddingCodec struct{ plainCodec }

func (paddingCodec) Name() string { return "x-padded" }
func (paddingCodec) Pad(wr Writer, dst io.Writer, n int) error {
	return gzipBuiltin.Pad(wr, dst, n)
}

// TestNewRefusesJitterThatACodecCannotHonour: a Codec without Padder, or a
// Jitter beyond what any codec is asked for, is a configuration error
// naming the cause, never a silent gap in the padding. A user's Padder
// without a one-shot path pads whole bodies through its Writer.
func TestNewRefusesJitterThatACodecCannotHonour(t *testing.T) {
	_, err := New(Config{Jitter: 32, Codings: []Coding{{Codec: Zstd()}, {Codec: plainCodec{}}}})
	if err == nil || !strings.Contains(err.Error(), `"x-plain"`) || !strings.Contains(err.Error(), "Padder") {
		t.Errorf("Jitter with a codec that cannot pad: New returned %v, want an error naming x-plain", err)
	}
	if _, err := New(Config{Codings: []Coding{{Codec: plainCodec{}}}}); err != nil {
		t.Errorf("without Jitter the codec is fine: %v", err)
	}
	if _, err := New(Config{Jitter: maxPad + 1}); err == nil {
		t.Errorf("Jitter %d: New accepted it", maxPad+1)
	}
	m := mustNew(t, Config{Jitter: 100, Codings: []Coding{{Codec: paddingCodec{}}}})
	body := sampleText(4 << 10)
	rec := serve(t, m, writeBody("text/plain", body), "GET", "Accept-Encoding: x-padded")
	out := rec.Body.Bytes()
	if rec.Header().Get("Content-Encoding") != "x-padded" || len(out) < 10 || out[3]&(1<<4) == 0 {
		t.Fatalf("user's padding codec: %s; want a gzip member with a comment", describe(rec))
	}
	if !bytes.Equal(decodeBody(t, "gzip", out), body) {
		t.Fatal("user's padded body does not decode")
	}
}

// TestPadRefusesOutOfRange: codecs report a padding outside 1..maxPad
// rather than write something else.
func TestPadRefusesOutOfRange(t *testing.T) {
	for _, c := range []Codec{Zstd(), Brotli(), Gzip(), Deflate()} {
		for _, n := range []int{0, -1, maxPad + 1} {
			if _, err := c.(AppendPadder).AppendEncodePadded(nil, []byte("x"), 3, n); err == nil {
				t.Errorf("%s: padding %d accepted", c.Name(), n)
			}
			wr, err := c.NewWriter(io.Discard, 3)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.(Padder).Pad(wr, io.Discard, n); err == nil {
				t.Errorf("%s: Pad(%d) accepted", c.Name(), n)
			}
		}
	}
}

// Padding a stream must not send bytes before the headers: the status, the
// coding and the Vary go out first.
func TestJitterOnStreamsKeepsHeadersFirst(t *testing.T) {
	m := mustNew(t, Config{Jitter: 100})
	for _, coding := range []string{"zstd", "gzip"} {
		body := sampleText(300 << 10)
		h := func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("ETag", `"v1"`)
			w.WriteHeader(http.StatusCreated)
			w.Write(body)
		}
		rec := serve(t, m, h, "GET", "Accept-Encoding: "+coding)
		if rec.Code != http.StatusCreated || rec.Header().Get("Content-Encoding") != coding || rec.Header().Get("Vary") != "Accept-Encoding" || rec.Header().Get("Etag") != `"v1-`+coding+`"` {
			t.Fatalf("%s padded stream: %s", coding, describe(rec))
		}
		if !bytes.Equal(decodeBody(t, coding, rec.Body.Bytes()), body) {
			t.Fatalf("%s padded stream does not decode to the body", coding)
		}
	}
}
