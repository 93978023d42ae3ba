package encoding

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestZstdWindowAtMost8MB reads the frame header of what every zstd level
// produces, one-shot and streaming, for a body larger than 8 MB, and checks
// that no frame asks the client for a window above 8 MB (RFC 9659 §3).
func TestZstdWindowAtMost8MB(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("encodes 9 MB per level")
	}
	src := jsonText(9 << 20)
	for _, level := range []int{1, 3, 7, 22} {
		p, err := newEncoderPool(Zstd(), level)
		if err != nil {
			t.Fatal(err)
		}
		oneShot, err := p.encode(nil, src)
		if err != nil {
			t.Fatal(err)
		}
		var stream bytes.Buffer
		wr, err := p.get(&stream)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := wr.Write(src); err != nil {
			t.Fatal(err)
		}
		if err := wr.Close(); err != nil {
			t.Fatal(err)
		}
		p.put(wr)
		for path, frame := range map[string][]byte{"one-shot": oneShot, "streaming": stream.Bytes()} {
			var h zstd.Header
			if err := h.Decode(frame); err != nil {
				t.Fatalf("level %d %s: frame header: %v", level, path, err)
			}
			window := h.WindowSize
			if h.SingleSegment {
				window = h.FrameContentSize
			}
			if window > zstdMaxWindow {
				t.Errorf("level %d %s: frame needs a %d-byte window, above RFC 9659's 8 MB", level, path, window)
			}
		}
	}
}

// TestZstdSmallBodyIsSingleSegment checks that a small body known whole is
// one single-segment frame: the client needs a window no larger than it.
func TestZstdSmallBodyIsSingleSegment(t *testing.T) {
	p, err := newEncoderPool(Zstd(), 0)
	if err != nil {
		t.Fatal(err)
	}
	src := jsonText(4 << 10)
	out, err := p.encode(nil, src)
	if err != nil {
		t.Fatal(err)
	}
	var h zstd.Header
	if err := h.Decode(out); err != nil {
		t.Fatal(err)
	}
	if !h.SingleSegment || h.FrameContentSize != uint64(len(src)) {
		t.Fatalf("4 KB body: single segment %t, content size %d; want a single segment of %d bytes", h.SingleSegment, h.FrameContentSize, len(src))
	}
}
