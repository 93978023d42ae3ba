package wsdeflate

import (
	"bytes"
	stdflate "compress/flate"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/klauspost/compress/flate"
)

// jsonMessage returns a JSON chat/market-data message of about size bytes
// whose values differ from seed to seed, as real traffic does.
func jsonMessage(seed uint64, size int) []byte {
	r := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	b.WriteString(`{"type":"update","events":[`)
	for i := 0; b.Len() < size-2; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"symbol":"%c%c%c","price":%.2f,"qty":%d,"user":"user%d","ok":%t}`,
			r.IntN(1e6), 'A'+r.IntN(26), 'A'+r.IntN(26), 'A'+r.IntN(26),
			r.Float64()*1000, r.IntN(500), r.IntN(100), r.IntN(2) == 0)
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// roundTrip sends msgs through one compressor and one decompressor, checking
// every message comes out as it went in, and returns the wire bytes.
func roundTrip(t *testing.T, c *Compressor, d *Decompressor, msgs [][]byte) int {
	t.Helper()
	var wire []byte
	var plain []byte
	total := 0
	for i, m := range msgs {
		var err error
		wire, err = c.Compress(wire[:0], m)
		if err != nil {
			t.Fatalf("message %d: Compress: %v", i, err)
		}
		total += len(wire)
		plain, err = d.Decompress(plain[:0], wire)
		if err != nil {
			t.Fatalf("message %d (%d bytes): Decompress: %v", i, len(m), err)
		}
		if !bytes.Equal(plain, m) {
			t.Fatalf("message %d: round trip changed the message (%d bytes in, %d out)", i, len(m), len(plain))
		}
	}
	return total
}

func messages(n, size int) [][]byte {
	msgs := make([][]byte, n)
	for i := range msgs {
		msgs[i] = jsonMessage(uint64(i), size)
	}
	return msgs
}

func TestRoundTripEveryWindowAndTakeover(t *testing.T) {
	t.Parallel()
	msgs := messages(60, 1500)
	msgs = append(msgs, jsonMessage(99, 100_000), []byte{}, jsonMessage(100, 40), jsonMessage(101, 70_000))
	for bits := 8; bits <= 15; bits++ {
		for _, ct := range []bool{true, false} {
			dir := Direction{ContextTakeover: ct, MaxWindowBits: bits}
			t.Run(fmt.Sprintf("bits=%d/takeover=%v", bits, ct), func(t *testing.T) {
				roundTrip(t, newCompressor(dir), NewDecompressor(dir, 0), msgs)
			})
		}
	}
}

func TestContextTakeoverShrinksRepeatedTraffic(t *testing.T) {
	msgs := messages(50, 1024)
	with := roundTrip(t, newCompressor(takeover()), NewDecompressor(takeover(), 0), msgs)
	without := roundTrip(t, newCompressor(noTakeover()), NewDecompressor(noTakeover(), 0), msgs)
	if with >= without {
		t.Errorf("wire bytes with context takeover %d, without %d: takeover should win on similar messages", with, without)
	}
}

func TestReleaseKeepsContext(t *testing.T) {
	// Releasing after every message, after some, or never must give the same
	// plaintext: the window alone carries the context.
	msgs := messages(40, 2000)
	for _, tc := range []struct{ bits, every int }{{15, 1}, {15, 3}, {15, 1000}, {9, 1}, {12, 3}} {
		dir, every := Direction{ContextTakeover: true, MaxWindowBits: tc.bits}, tc.every
		c, d := newCompressor(dir), NewDecompressor(dir, 0)
		var wire, plain []byte
		for i, m := range msgs {
			wire, _ = c.Compress(wire[:0], m)
			var err error
			plain, err = d.Decompress(plain[:0], wire)
			if err != nil || !bytes.Equal(plain, m) {
				t.Fatalf("bits %d, release every %d: message %d did not round-trip: %v", tc.bits, every, i, err)
			}
			if i%every == 0 {
				c.Release()
				d.Release()
			}
		}
	}
}

func TestDecompressorReadsStandardLibraryPeer(t *testing.T) {
	// A peer using Go's standard flate writer with Flush per message, as
	// coder/websocket and gorilla/websocket do.
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, 1)
	d := NewDecompressor(takeover(), 0)
	for i, m := range messages(30, 3000) {
		buf.Reset()
		fw.Write(m)
		fw.Flush()
		wire := bytes.TrimSuffix(buf.Bytes(), trailer[:])
		got, err := d.Decompress(nil, wire)
		if err != nil || !bytes.Equal(got, m) {
			t.Fatalf("message %d did not round-trip: %v", i, err)
		}
	}
}

func TestWindowBitsBoundBackReferences(t *testing.T) {
	// RFC 7692 §7.1.2.1: with N window bits no distance may exceed 2^N.
	// A message repeating a block just beyond the window can only be
	// compressed by reaching too far; a bounded compressor must not.
	for bits := 8; bits <= 14; bits++ {
		block := jsonMessage(uint64(bits), 1<<bits)[:1<<bits]
		msg := append(append(block[:len(block):len(block)], bytes.Repeat([]byte{'x'}, 64)...), block...)
		// Control: unbounded, the compressor does reach back that far, so
		// the check below can fail.
		wide, _ := newCompressor(takeover()).Compress(nil, msg)
		if d := distances(t, wide); len(d) == 0 || maxInt(d) <= 1<<bits {
			t.Fatalf("bits=%d: the 15-bit compressor never reached past %d bytes; the test proves nothing", bits, 1<<bits)
		}
		out, _ := newCompressor(Direction{ContextTakeover: true, MaxWindowBits: bits}).Compress(nil, msg)
		for _, dist := range distances(t, out) {
			if dist > 1<<bits {
				t.Fatalf("bits=%d: back-reference distance %d exceeds the %d-byte window", bits, dist, 1<<bits)
			}
		}
	}
}

func TestMessageTooBigStopsInflating(t *testing.T) {
	// A bomb: 10 MB of zeros compresses to about 10 KB.
	c := newCompressor(noTakeover())
	bomb, _ := c.Compress(nil, make([]byte, 10<<20))
	for _, dir := range []Direction{takeover(), noTakeover()} {
		d := NewDecompressor(dir, 64<<10)
		got, err := d.Decompress(nil, bomb)
		if !errors.Is(err, ErrMessageTooBig) {
			t.Fatalf("takeover=%v: Decompress of a 10 MB bomb = %v, want ErrMessageTooBig", dir.ContextTakeover, err)
		}
		if len(got) != 0 || cap(got) > 64<<10+1 {
			t.Errorf("takeover=%v: buffer grew to %d bytes, want at most limit+1", dir.ContextTakeover, cap(got))
		}
		_, err = io.Copy(io.Discard, d.Reader(bytes.NewReader(bomb)))
		if !errors.Is(err, ErrMessageTooBig) {
			t.Errorf("takeover=%v: streaming read of a bomb = %v, want ErrMessageTooBig", dir.ContextTakeover, err)
		}
	}
}

func TestMessageAtLimitIsAccepted(t *testing.T) {
	msg := jsonMessage(1, 5000)
	out, _ := newCompressor(noTakeover()).Compress(nil, msg)
	if _, err := NewDecompressor(noTakeover(), len(msg)).Decompress(nil, out); err != nil {
		t.Errorf("message of exactly the limit: %v", err)
	}
	if _, err := NewDecompressor(noTakeover(), len(msg)-1).Decompress(nil, out); !errors.Is(err, ErrMessageTooBig) {
		t.Errorf("message one byte over the limit: %v, want ErrMessageTooBig", err)
	}
}

func TestCorruptPayloadIsAnError(t *testing.T) {
	d := NewDecompressor(takeover(), 0)
	if _, err := d.Decompress(nil, []byte{0xff, 0xff, 0xff}); err == nil {
		t.Error("Decompress of an invalid block type returned no error")
	}
}

// oneByteReader hands out its data a byte at a time, like frames arriving.
type oneByteReader struct{ b []byte }

func (r *oneByteReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	p[0], r.b = r.b[0], r.b[1:]
	return 1, nil
}

func TestStreamingMatchesWholeMessages(t *testing.T) {
	msgs := messages(20, 3000)
	msgs = append(msgs, jsonMessage(77, 200_000), nil)
	for _, dir := range []Direction{takeover(), noTakeover(), {ContextTakeover: true, MaxWindowBits: 10}} {
		c, d := newCompressor(dir), NewDecompressor(dir, 0)
		for i, m := range msgs {
			var wire bytes.Buffer
			w := c.Writer(&wire)
			for chunk := range slicesChunk(m, 700) {
				if _, err := w.Write(chunk); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if bytes.HasSuffix(wire.Bytes(), trailer[:]) {
				t.Fatalf("message %d: streamed payload ends with the trailer", i)
			}
			got, err := io.ReadAll(d.Reader(&oneByteReader{wire.Bytes()}))
			if err != nil || !bytes.Equal(got, m) {
				t.Fatalf("%+v message %d: streamed round trip failed: %v (%d of %d bytes)", dir, i, err, len(got), len(m))
			}
		}
	}
}

func slicesChunk(b []byte, n int) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for len(b) > 0 {
			k := min(n, len(b))
			if !yield(b[:k]) {
				return
			}
			b = b[k:]
		}
	}
}

func TestSteadyStateAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items on purpose under the race detector")
	}
	msgs := messages(8, 1024)
	for _, dir := range []Direction{takeover(), noTakeover()} {
		c, d := newCompressor(dir), NewDecompressor(dir, 0)
		wire, plain := make([]byte, 0, 4096), make([]byte, 0, 4096)
		i := 0
		step := func() {
			m := msgs[i%len(msgs)]
			i++
			wire, _ = c.Compress(wire[:0], m)
			plain, _ = d.Decompress(plain[:0], wire)
		}
		for range 20 {
			step() // warm the pools
		}
		if n := testing.AllocsPerRun(200, step); n > 0 {
			t.Errorf("takeover=%v: %.1f allocations per message round trip, want 0", dir.ContextTakeover, n)
		}
	}
}

func maxInt(s []int) int {
	m := 0
	for _, v := range s {
		m = max(m, v)
	}
	return m
}

func TestStandardLibraryReadsOurStream(t *testing.T) {
	// Peers inflate with zlib or Go's compress/flate: our messages, each
	// with its trailer put back (RFC 7692 §7.2.2), must form one standard
	// DEFLATE stream that a single reader decodes message after message.
	for _, bits := range []int{8, 11, 15} {
		dir := Direction{ContextTakeover: true, MaxWindowBits: bits}
		c := newCompressor(dir)
		msgs := messages(30, 1500)
		var stream bytes.Buffer
		for _, m := range msgs {
			payload, err := c.Compress(nil, m)
			if err != nil {
				t.Fatal(err)
			}
			stream.Write(payload)
			stream.Write(trailer[:])
		}
		r := stdflate.NewReader(&stream)
		for i, m := range msgs {
			got := make([]byte, len(m))
			if _, err := io.ReadFull(r, got); err != nil || !bytes.Equal(got, m) {
				t.Fatalf("bits=%d: compress/flate could not read message %d back: %v", bits, i, err)
			}
		}
	}
}
