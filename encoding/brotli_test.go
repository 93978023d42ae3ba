package encoding

import (
	"bytes"
	"fmt"
	"testing"

	ownbrotli "github.com/squeezehttp/squeeze/internal/brotli"
)

// brotliWindowBits decodes WBITS from the start of a brotli stream
// (RFC 7932 §9.1); 0 means the header is not a valid one.
func brotliWindowBits(stream []byte) int {
	if len(stream) == 0 {
		return 0
	}
	b := uint(stream[0])
	if len(stream) > 1 {
		b |= uint(stream[1]) << 8
	}
	if b&1 == 0 {
		return 16
	}
	if n := (b >> 1) & 7; n != 0 {
		return 17 + int(n)
	}
	switch m := (b >> 4) & 7; m {
	case 0:
		return 17
	case 1:
		return 0 // large-window brotli, not RFC 7932
	default:
		return 8 + int(m)
	}
}

// TestBrotliWindowSizedToBody reads the window each brotli stream declares:
// never above 16 MB (WBITS 24, the format's and browsers' limit), just large
// enough for a body known whole (from quality 5, 128 KB at least for the
// library, whose smaller windows take slower hashers; the own encoder takes
// the smallest), and 1 MB for streams.
func TestBrotliWindowSizedToBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		quality, size int
		want          int
	}{
		{4, 0, 10},
		{4, 1000, 10},
		{4, 1 << 10, 11},
		{4, 20 << 10, 15},
		{4, 100 << 10, 17},
		{5, 1 << 10, 11}, // the own encoder's
		{5, 2 << 10, 17}, // below 17, quality 5+ would use its slower hashers
		{11, 1 << 10, 17},
		{4, 1 << 20, 21},
	}
	for _, tt := range tests {
		p, err := newEncoderPool(Brotli(), tt.quality)
		if err != nil {
			t.Fatal(err)
		}
		out, err := p.encode(nil, jsonText(tt.size))
		if err != nil {
			t.Fatal(err)
		}
		if got := brotliWindowBits(out); got != tt.want {
			t.Errorf("quality %d, %d-byte body: stream declares WBITS %d, want %d", tt.quality, tt.size, got, tt.want)
		}
	}
	p, err := newEncoderPool(Brotli(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var stream bytes.Buffer
	wr, err := p.get(&stream)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wr.Write(jsonText(64 << 10)); err != nil {
		t.Fatal(err)
	}
	if err := wr.Close(); err != nil {
		t.Fatal(err)
	}
	p.put(wr)
	if got := brotliWindowBits(stream.Bytes()); got != brotliStreamWindow {
		t.Errorf("streaming: WBITS %d, want %d", got, brotliStreamWindow)
	}
}

// Bodies known whole of up to ownMaxBody bytes at each quality go to the
// own brotli encoder, the rest to andybalholm/brotli (all of them with
// LibraryEncoders), and every one
// decodes with andybalholm/brotli's reader (a port of the reference
// decoder) to the body on both sides of the bounds (RFC 7932).
func TestOwnBrotliBounds(t *testing.T) {
	t.Parallel()
	for _, quality := range []int{2, 3, 4, 5} {
		bound := ownMaxBody("br", quality)
		for _, n := range []int{0, 1, 100, bound - 1, bound, bound + 1, 8<<10 + 1} {
			if n < 0 {
				continue
			}
			src := jsonText(n)
			for _, c := range []*brotliCodec{brotliBuiltin, brotliLibrary} {
				out, err := c.AppendEncode(nil, src, quality)
				if err != nil {
					t.Fatal(err)
				}
				checkDecodes(t, fmt.Sprintf("quality %d, %d bytes", quality, n), "br", out, src)
				// (Bodies of a few bytes come out the same from both.)
				var e ownbrotli.Encoder
				want := !c.library && n <= bound
				if used := bytes.Equal(out, e.Append(nil, src)); n >= 100 && used != want {
					t.Errorf("library only %v, quality %d, %d bytes: own encoder used %v, want %v", c.library, quality, n, used, want)
				}
			}
		}
	}
}
