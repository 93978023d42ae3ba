package encoding

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// TestPaddingDecodesToSameBody checks that padded output, one-shot and
// streaming, is longer by exactly the padding and its fixed overhead and
// decodes to the same body; codings without a padding form come out
// unpadded.
func TestPaddingDecodesToSameBody(t *testing.T) {
	src := jsonText(2 << 10)
	overhead := map[string]int{"zstd": 8, "gzip": 1} // skippable-frame header; comment's NUL
	for _, bc := range builtins {
		for _, pad := range []int{1, 37, 2000} {
			p, err := newEncoderPool(bc.codec, 0)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := p.encode(nil, src)
			if err != nil {
				t.Fatal(err)
			}
			padded, err := p.encodePadded(nil, src, pad)
			if err != nil {
				t.Fatalf("%s: encodePadded: %v", p.name(), err)
			}
			var stream bytes.Buffer
			// A stream is padded the way the middleware does it: the zstd
			// skippable frame first, the gzip comment in the header.
			stream.Write(appendPadding(nil, p.name(), pad))
			wr, err := p.get(&stream)
			if err != nil {
				t.Fatal(err)
			}
			setGzipComment(wr, pad)
			if _, err := wr.Write(src); err != nil {
				t.Fatal(err)
			}
			if err := wr.Close(); err != nil {
				t.Fatal(err)
			}
			p.put(wr)
			want := len(plain)
			switch p.name() {
			case "zstd":
				want += pad + overhead["zstd"]
			case "gzip":
				want += min(pad, maxGzipComment) + overhead["gzip"]
			}
			if len(padded) != want {
				t.Errorf("%s pad %d: one-shot output is %d bytes, want %d", p.name(), pad, len(padded), want)
			}
			checkDecodes(t, "padded one-shot", p.name(), padded, src)
			checkDecodes(t, "padded streaming", p.name(), stream.Bytes(), src)
		}
	}
}

// TestCanPad lists which codings have a padding form.
func TestCanPad(t *testing.T) {
	for codec, want := range map[Codec]bool{Zstd(): true, Gzip(): true, Brotli(): false, Deflate(): false} {
		p, err := newEncoderPool(codec, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.canPad(); got != want {
			t.Errorf("%s: canPad() = %t, want %t", p.name(), got, want)
		}
	}
}

// TestZstdSkippableFrameLayout checks the padding frame byte by byte
// against RFC 8878 §3.1.2: magic, little-endian size, then the content.
func TestZstdSkippableFrameLayout(t *testing.T) {
	got := appendPadding([]byte{0xAA}, "zstd", 5)
	want := []byte{0xAA, 0x50, 0x2A, 0x4D, 0x18, 5, 0, 0, 0, 0, 0, 0, 0, 0}
	if !bytes.Equal(got, want) {
		t.Fatalf("appendPadding = % x, want % x", got, want)
	}
	if binary.LittleEndian.Uint32(got[1:]) != zstdSkippableMagic {
		t.Fatalf("magic is not 0x184D2A50")
	}
	for _, coding := range []string{"gzip", "br", "deflate"} {
		if out := appendPadding([]byte{1}, coding, 5); len(out) != 1 {
			t.Errorf("appendPadding(%s) appended %d bytes to a coding that cannot skip them", coding, len(out)-1)
		}
	}
}
