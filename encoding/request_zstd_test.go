package encoding

import (
	"bytes"
	"fmt"
	"net/http"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/squeezehttp/squeeze/internal/interop"
)

// jsonBody returns about n bytes of a JSON array, repetitive as API
// responses are.
func jsonBody(n int) []byte {
	var b bytes.Buffer
	b.WriteString("[")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `{"id":%d,"name":"item %d","tags":["a","b%d"],"price":%d.%02d},`, i, i*7, i%13, i%1000, i%100)
	}
	b.WriteString("{}]")
	return b.Bytes()
}

// zstdLimitCases posts payload, the zstd encoding of body, under limits
// on both sides of its size: within the limit it must decode to body,
// over it the answer is 413 after exactly the limit.
func zstdLimitCases(t *testing.T, name string, body, payload []byte) {
	t.Helper()
	for _, limit := range []int64{128 << 10, int64(len(body)), 1 << 20, 4 << 20} {
		m := mustNew(t, Config{DecodeRequests: true, MaxRequestSize: limit})
		if limit < int64(len(body)) {
			_, rec, read := allocatedPerRequest(m, "zstd", payload)
			if rec.Code != http.StatusRequestEntityTooLarge || read != limit {
				t.Errorf("%s, limit %d: status %d, handler read %d; want 413 after exactly the limit", name, limit, rec.Code, read)
			}
			continue
		}
		if rec := postEncoded(t, m, echo, "zstd", payload); rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), body) {
			t.Errorf("%s, limit %d: %s", name, limit, describe(rec))
		}
	}
}

// TestZstdStreamingWriterUnderSmallLimit_RFC8878_3_1_1_1_2: klauspost's
// streaming zstd.NewWriter states an 8 MiB window whatever the body; a
// 200 KB JSON body it wrote, at every level, is decoded under limits from
// the body's size up, and is 413 at the limit under a smaller one.
func TestZstdStreamingWriterUnderSmallLimit_RFC8878_3_1_1_1_2(t *testing.T) {
	body := jsonBody(200_000)
	for _, level := range []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault, zstd.SpeedBetterCompression, zstd.SpeedBestCompression} {
		var b bytes.Buffer
		z, err := zstd.NewWriter(&b, zstd.WithEncoderLevel(level))
		if err != nil {
			t.Fatal(err)
		}
		z.Write(body)
		z.Close()
		if w := zstdWindowOf(b.Bytes()[5]); b.Bytes()[4]&0x20 != 0 || w < 1<<20 {
			t.Fatalf("%s: the frame states a %d-byte window (descriptor %08b); the test wants one above the limits", level, w, b.Bytes()[4])
		}
		zstdLimitCases(t, level.String(), body, b.Bytes())
	}
}

// TestZstdCLIFromPipeUnderSmallLimit_RFC8878_3_1_1_1_2: the zstd CLI,
// reading a pipe, does not know the body's size and states the window of
// its level (2 MiB at -3, 8 MiB at -19); a 200 KB JSON body so encoded is
// decoded under limits from the body's size up, and is 413 at the limit
// under a smaller one. So are several frames written one after another.
func TestZstdCLIFromPipeUnderSmallLimit_RFC8878_3_1_1_1_2(t *testing.T) {
	cli := interop.ZstdCLI(t)
	body := jsonBody(200_000)
	encode := func(level string, in []byte) []byte {
		cmd := cli.Command(level, "-c")
		cmd.Stdin = bytes.NewReader(in) // a pipe: the size is not known
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("zstd %s: %v", level, err)
		}
		return out
	}
	for _, level := range []string{"-1", "-3", "-19"} {
		payload := encode(level, body)
		if payload[4]&0x20 != 0 {
			t.Fatalf("zstd %s: a single-segment frame; the test wants a stated window", level)
		}
		t.Logf("zstd %s: %d bytes, window %d", level, len(payload), zstdWindowOf(payload[5]))
		zstdLimitCases(t, "zstd "+level, body, payload)
	}
	half := len(body) / 2
	frames := append(encode("-19", body[:half]), encode("-3", body[half:])...)
	zstdLimitCases(t, "two frames", body, frames)
}

// TestZstdHeadCutsEveryFrame_RFC8878_3_1: the window of every frame in a
// body is cut, whatever comes between and around: skippable frames
// (§3.1.2), dictionary IDs and content sizes of every width, RLE and raw
// blocks, checksums, single-segment frames (left alone), and reads of one
// byte at a time.
func TestZstdHeadCutsEveryFrame_RFC8878_3_1(t *testing.T) {
	const window = 1 << 20
	frame := func(descriptor byte, extra int, blocks ...[]byte) []byte {
		f := []byte{0x28, 0xb5, 0x2f, 0xfd, descriptor}
		if descriptor&0x20 == 0 {
			f = append(f, 14<<3) // 16 MiB
		}
		f = append(f, make([]byte, extra)...)
		for _, b := range blocks {
			f = append(f, b...)
		}
		if descriptor&4 != 0 {
			f = append(f, 1, 2, 3, 4)
		}
		return f
	}
	raw := []byte{5 << 3, 0, 0, 'h', 'e', 'l', 'l', 'o'} // raw block of 5, not last
	rle := []byte{1 | 1<<1 | 9<<3, 0, 0, 'x'}            // last RLE block of 9
	skippable := []byte{0x5a, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 0x28, 0xb5, 0x2f}
	in := bytes.Join([][]byte{
		frame(0x00, 0, raw, rle),             // no FCS, no dictionary
		skippable,                            // its payload looks like a magic number
		frame(0x04|0x01, 1, rle),             // checksum, 1-byte dictionary ID
		frame(0x40|0x02, 2+2, raw, rle),      // 2-byte FCS, 2-byte dictionary ID
		frame(0x20, 1, rle),                  // single segment, 1-byte FCS: no window
		frame(0x20|0x01, 1+1, rle),           // and a 1-byte dictionary ID
		frame(0x80|0x03|0x04, 4+4, rle),      // 4-byte FCS and dictionary ID, checksum
		frame(0xc0, 8, raw, raw, rle),        // 8-byte FCS
		frame(0x00, 0, []byte{3 << 1, 0, 0}), // a reserved block: the rest is opaque
		frame(0x00, 0, rle),
	}, nil)
	for _, step := range []int{1, 3, len(in)} {
		h := zstdHead{r: bytes.NewReader(bytes.Clone(in)), window: window}
		var out []byte
		buf := make([]byte, step)
		for {
			n, err := h.Read(buf)
			out = append(out, buf[:n]...)
			if err != nil {
				break
			}
		}
		var cut []int
		for i := 0; i+5 < len(out); i++ {
			if bytes.HasPrefix(out[i:], []byte{0x28, 0xb5, 0x2f, 0xfd}) && out[i+4]&0x20 == 0 && out[i+5] != in[i+5] {
				cut = append(cut, i)
				if got := zstdWindowOf(out[i+5]); got != window {
					t.Errorf("reads of %d: frame at %d cut to a %d-byte window, want %d", step, i, got, window)
				}
			}
		}
		if len(cut) != 6 {
			t.Errorf("reads of %d: windows cut at %v, want the 6 frames before the reserved block", step, cut)
		}
	}
	if d := zstdDescriptorOf(zstdRequestWindow(1 << 20)); zstdWindowOf(d) != zstdRequestWindow(1<<20) {
		t.Errorf("descriptor %08b states %d, want %d", d, zstdWindowOf(d), zstdRequestWindow(1<<20))
	}
}
