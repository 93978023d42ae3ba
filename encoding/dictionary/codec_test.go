package dictionary

import (
	"bytes"
	"encoding/binary"
	"slices"
	"testing"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/dcztest"
)

// TestJitterPadsDCZAfterItsHeader_RFC9842_5: a dcz body, one-shot or
// streamed, gets its skippable frame between the dcz header and the zstd
// frame, n+8 bytes, and still decodes with the dictionary.
func TestJitterPadsDCZAfterItsHeader_RFC9842_5(t *testing.T) {
	dict := New(versionedScript(1, 32<<10))
	src := versionedScript(2, 30<<10)
	c := codec{d: dict, level: defaultLevel}
	plain, err := c.AppendEncode(nil, src, defaultLevel)
	if err != nil {
		t.Fatal(err)
	}
	plainStream := encodeStream(t, c, src, 0)
	for _, n := range []int{1, 300, maxPad} {
		padded, err := c.AppendEncodePadded(nil, src, defaultLevel, n)
		if err != nil {
			t.Fatal(err)
		}
		for path, out := range map[string][2][]byte{"one-shot": {padded, plain}, "streaming": {encodeStream(t, c, src, n), plainStream}} {
			if added := len(out[0]) - len(out[1]); added != n+8 {
				t.Errorf("dcz %s, padding for %d: %d bytes more, want %d", path, n, added, n+8)
			}
			if magic := binary.LittleEndian.Uint32(out[0][DCZHeaderLen:]); magic != 0x184D2A50 {
				t.Errorf("dcz %s: %#x after the header, want a skippable frame", path, magic)
			}
			got, err := dcztest.Decode(out[0], dict.Bytes(), len(src))
			if err != nil || !bytes.Equal(got, src) {
				t.Errorf("dcz %s, padding for %d: decoded %d bytes, %v", path, n, len(got), err)
			}
		}
	}
}

// encodeStream encodes src through a streaming writer of c, padded for pad
// when pad > 0, as the middleware does, and releases the writer.
func encodeStream(t *testing.T, c codec, src []byte, pad int) []byte {
	t.Helper()
	var out bytes.Buffer
	wr, err := c.NewWriter(&out, c.level)
	if err != nil {
		t.Fatal(err)
	}
	if pad > 0 {
		if err := c.Pad(wr, &out, pad); err != nil {
			t.Fatalf("Pad(%d): %v", pad, err)
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
	wr.Reset(nil)
	return out.Bytes()
}

var _ interface {
	encoding.Codec
	encoding.AppendEncoder
	encoding.Padder
	encoding.AppendPadder
} = codec{}
