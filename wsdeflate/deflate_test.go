package wsdeflate

import (
	"bytes"
	stdflate "compress/flate"
	"io"
	"math/rand/v2"
	"testing"
)

// encoderShapes are inputs that reach each of the encoder's paths: stored,
// fixed and dynamic blocks, matches up to 258 bytes, several blocks per
// message, messages longer than the window.
func encoderShapes() map[string][]byte {
	r := rand.New(rand.NewPCG(7, 7))
	random := make([]byte, 70<<10)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	var runs []byte
	for len(runs) < 50<<10 {
		runs = append(runs, bytes.Repeat([]byte{byte(r.IntN(4))}, r.IntN(600)+1)...)
	}
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	return map[string][]byte{
		"empty":      {},
		"one byte":   {'x'},
		"random":     random,
		"zeros":      make([]byte, 200<<10),
		"runs":       runs,
		"every byte": bytes.Repeat(all, 3),
		"json":       jsonMessage(3, 40<<10),
		"text":       bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog. "), 900),
	}
}

// TestEncoderOutputIsStandardDeflate checks every window size, whole and
// streamed: Go's compress/flate, which shares nothing with our encoder,
// reads the messages back as one stream, and no back-reference reaches
// further than the window (RFC 7692 §7.1.2.1).
func TestEncoderOutputIsStandardDeflate(t *testing.T) {
	t.Parallel()
	for name, data := range encoderShapes() {
		t.Run(name, func(t *testing.T) { encodeShape(t, name, data) })
	}
}

func encodeShape(t *testing.T, name string, data []byte) {
	for bits := 8; bits <= 15; bits++ {
		c := newCompressor(Direction{ContextTakeover: true, MaxWindowBits: bits})
		var stream bytes.Buffer
		msgs := [][]byte{data, data, jsonMessage(uint64(bits), 900), data[:len(data)/3]}
		for i, m := range msgs {
			var payload []byte
			if i%2 == 0 {
				payload, _ = c.Compress(nil, m)
			} else {
				var buf bytes.Buffer
				w := c.Writer(&buf)
				for chunk := range slicesChunk(m, 1000+i) {
					w.Write(chunk)
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				payload = buf.Bytes()
			}
			if d := distances(t, payload); len(d) > 0 && maxInt(d) > 1<<bits {
				t.Fatalf("%s, bits=%d: message %d refers %d bytes back, window is %d", name, bits, i, maxInt(d), 1<<bits)
			}
			stream.Write(payload)
			stream.Write(trailer[:])
		}
		r := stdflate.NewReader(&stream)
		for i, m := range msgs {
			got := make([]byte, len(m))
			if _, err := io.ReadFull(r, got); err != nil || !bytes.Equal(got, m) {
				t.Fatalf("%s, bits=%d: compress/flate could not read message %d (%d bytes) back: %v", name, bits, i, len(m), err)
			}
		}
	}
}

// FuzzEncoder compresses arbitrary messages, with the window and the write
// sizes chosen by the fuzzer, and has Go's compress/flate read them back.
func FuzzEncoder(f *testing.F) {
	f.Add([]byte("hello hello hello"), []byte("hello"), uint8(15), uint16(3))
	f.Add(jsonMessage(1, 2000), jsonMessage(2, 700), uint8(9), uint16(100))
	f.Add(bytes.Repeat([]byte{0}, 70000), []byte{1, 2, 3}, uint8(8), uint16(0))
	f.Fuzz(func(t *testing.T, first, second []byte, bits uint8, step uint16) {
		c := newCompressor(Direction{ContextTakeover: true, MaxWindowBits: 8 + int(bits%8)})
		var stream bytes.Buffer
		for _, m := range [][]byte{first, second} {
			w := c.Writer(&stream)
			for chunk := range slicesChunk(m, int(step)+1) {
				w.Write(chunk)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			stream.Write(trailer[:])
		}
		r := stdflate.NewReader(&stream)
		for i, m := range [][]byte{first, second} {
			got := make([]byte, len(m))
			if _, err := io.ReadFull(r, got); err != nil || !bytes.Equal(got, m) {
				t.Fatalf("compress/flate could not read message %d (%d bytes) back: %v", i, len(m), err)
			}
		}
	})
}
