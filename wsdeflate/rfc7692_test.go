package wsdeflate

import (
	"bytes"
	"io"
	"testing"
)

// The payloads of RFC 7692 §7.2.3, without the frame headers.
var (
	helloOneBlock = []byte{0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00}
	helloShared   = []byte{0xf2, 0x00, 0x11, 0x00, 0x00}
	helloStored   = []byte{0x00, 0x05, 0x00, 0xfa, 0xff, 0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x00}
	helloBFINAL   = []byte{0xf3, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0x00}
	helloTwoBlock = []byte{0xf2, 0x48, 0x05, 0x00, 0x00, 0x00, 0xff, 0xff, 0xca, 0xc9, 0xc9, 0x07, 0x00}
)

func takeover() Direction   { return Direction{ContextTakeover: true, MaxWindowBits: 15} }
func noTakeover() Direction { return Direction{MaxWindowBits: 15} }

// newCompressor is NewCompressor at DefaultLevel, which cannot fail.
func newCompressor(d Direction) *Compressor {
	c, err := NewCompressor(d, 0)
	if err != nil {
		panic(err)
	}
	return c
}

func mustDecompress(t *testing.T, d *Decompressor, payload []byte, want string) {
	t.Helper()
	got, err := d.Decompress(nil, payload)
	if err != nil {
		t.Fatalf("Decompress(% x): %v", payload, err)
	}
	if string(got) != want {
		t.Fatalf("Decompress(% x) = %q, want %q", payload, got, want)
	}
}

func TestRFC7692Vector_7_2_3_1(t *testing.T) {
	mustDecompress(t, NewDecompressor(takeover(), 0), helloOneBlock, "Hello")
}

func TestRFC7692Vector_7_2_3_2(t *testing.T) {
	// The second "Hello" is a back-reference into the first message.
	d := NewDecompressor(takeover(), 0)
	mustDecompress(t, d, helloOneBlock, "Hello")
	mustDecompress(t, d, helloShared, "Hello")

	// And our compressor shares the window the same way: a repeated message
	// must shrink. (klauspost stores messages under 128 bytes literally, so
	// the message is longer than that.)
	msg := []byte(`{"id":12345,"user":"ada","text":"Hello from the first message","tags":["a","b"],"ts":"2026-12-02T13:20:38Z","seq":1,"room":"general","client":"squeeze-test/1.0"}`)
	c := newCompressor(takeover())
	first, _ := c.Compress(nil, msg)
	second, _ := c.Compress(nil, msg)
	if len(second) >= len(first) {
		t.Errorf("second message is %d bytes, first %d: the window was not shared", len(second), len(first))
	}
}

func TestRFC7692Vector_7_2_3_3(t *testing.T) {
	mustDecompress(t, NewDecompressor(takeover(), 0), helloStored, "Hello")
}

func TestRFC7692Vector_7_2_3_4(t *testing.T) {
	// A BFINAL block ends the stream; with context takeover the window must
	// survive it, so the next message can still refer to "Hello".
	d := NewDecompressor(takeover(), 0)
	mustDecompress(t, d, helloBFINAL, "Hello")
	mustDecompress(t, d, helloShared, "Hello")
}

func TestRFC7692Vector_7_2_3_5(t *testing.T) {
	mustDecompress(t, NewDecompressor(takeover(), 0), helloTwoBlock, "Hello")
}

func TestRFC7692Vector_7_2_3_6(t *testing.T) {
	// A message sent as two fragments, the second one empty: 0x00 after a
	// payload that ended in a sync flush.
	frag1 := []byte{0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0x00, 0x00, 0xff, 0xff}
	frag2 := []byte{0x00}
	d := NewDecompressor(takeover(), 0)
	got, err := io.ReadAll(d.Reader(io.MultiReader(bytes.NewReader(frag1), bytes.NewReader(frag2))))
	if err != nil || string(got) != "Hello" {
		t.Fatalf("fragmented message = %q, %v; want \"Hello\"", got, err)
	}
	mustDecompress(t, d, helloShared, "Hello")
}

func TestCompressStripsSyncFlushTrailer(t *testing.T) {
	for _, dir := range []Direction{takeover(), noTakeover()} {
		c := newCompressor(dir)
		out, err := c.Compress(nil, []byte("Hello"))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.HasSuffix(out, trailer[:]) {
			t.Errorf("takeover=%v: payload % x still ends with 00 00 ff ff", dir.ContextTakeover, out)
		}
		// RFC 7692 §7.2.1: appending the trailer gives a valid stream.
		mustDecompress(t, NewDecompressor(dir, 0), out, "Hello")
	}
}

func TestEmptyMessageCompressesToOneByte(t *testing.T) {
	// RFC 7692 §7.2.3.6: an empty block is 0x00 once the trailer is removed.
	c := newCompressor(takeover())
	d := NewDecompressor(takeover(), 0)
	for i, msg := range []string{"", "Hello", "", "", "Hello"} {
		out, err := c.Compress(nil, []byte(msg))
		if err != nil {
			t.Fatal(err)
		}
		if msg == "" && !bytes.Equal(out, []byte{0x00}) {
			t.Errorf("message %d: empty message compressed to % x, want 00", i, out)
		}
		mustDecompress(t, d, out, msg)
	}
}
