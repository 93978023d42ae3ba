// Package enctest holds what the tests of squeeze's own encoders
// (internal/deflate, internal/zstd, internal/brotli) share: bodies shaped to
// reach each path, the round trip, the match tables' invariants, the corpus
// digest the golden tests compare, and decoding with C libraries that share
// no code with the encoders or with Go, for their differential fuzz
// targets: libzstd (Python's zstandard), the C brotli library (Python's
// brotli) and zlib (Python's zlib). Seeded with every corpus body, the
// targets run as ordinary tests (the seeds) and, in CI, for a fixed number
// of executions (-fuzztime Nx).
package enctest

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"testing"

	"github.com/squeezehttp/squeeze/internal/corpus"
	"github.com/squeezehttp/squeeze/internal/interop"
)

// script reads requests of a kind byte ('z' zstd, 'b' brotli, 'd'
// raw DEFLATE) and a little-endian uint32 length, and answers each with a
// status byte (0 decoded, 1 error), a length and the decoded bytes or the
// error. A stream with bytes after its end is an error.
const script = `
import struct, sys
inp, out = sys.stdin.buffer, sys.stdout.buffer
def zstd(data):
    import zstandard
    obj = zstandard.ZstdDecompressor().decompressobj()
    r = obj.decompress(data)
    if not obj.eof or obj.unused_data:
        raise ValueError("zstd: frame incomplete or followed by %d bytes" % len(obj.unused_data))
    return r
def br(data):
    import brotli
    return brotli.decompress(data)
def raw(data):
    import zlib
    obj = zlib.decompressobj(-15)
    r = obj.decompress(data)
    if not obj.eof or obj.unused_data:
        raise ValueError("zlib: stream incomplete or followed by %d bytes" % len(obj.unused_data))
    return r
decoders = {b"z": zstd, b"b": br, b"d": raw}
while True:
    h = inp.read(5)
    if len(h) < 5:
        break
    data = inp.read(struct.unpack("<I", h[1:])[0])
    try:
        r, status = decoders[h[:1]](data), b"\x00"
    except Exception as e:
        r, status = repr(e).encode(), b"\x01"
    out.write(status + struct.pack("<I", len(r)) + r)
    out.flush()
`

// Decoder is one Python process running script.
type Decoder struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Reader
	cmd *exec.Cmd
}

// Start starts the decoders in a Python that imports modules, or
// ends tb as a missing peer does; tb's cleanup stops it.
func Start(tb testing.TB, modules ...string) *Decoder {
	py := interop.Python(tb, modules...)
	if py == nil {
		return nil
	}
	cmd := exec.Command(py.Path, "-c", script)
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		in.Close() // the script ends at EOF
		cmd.Wait()
	})
	return &Decoder{in: in, out: bufio.NewReader(out), cmd: cmd}
}

// Decode has the C library of kind decode stream.
func (d *Decoder) Decode(kind byte, stream []byte) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	req := binary.LittleEndian.AppendUint32([]byte{kind}, uint32(len(stream)))
	if _, err := d.in.Write(append(req, stream...)); err != nil {
		return nil, err
	}
	var h [5]byte
	if _, err := io.ReadFull(d.out, h[:]); err != nil {
		return nil, fmt.Errorf("decoder process: %w", err)
	}
	r := make([]byte, binary.LittleEndian.Uint32(h[1:]))
	if _, err := io.ReadFull(d.out, r); err != nil {
		return nil, fmt.Errorf("decoder process: %w", err)
	}
	if h[0] != 0 {
		return nil, fmt.Errorf("%s", r)
	}
	return r, nil
}

// WebBodies seeds f with every corpus body and returns the bodies, which
// the targets splice their input into: web-shaped bodies with arbitrary
// bytes inside.
func WebBodies(f *testing.F) [][]byte {
	bodies, err := corpus.Bodies()
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for i, b := range bodies {
		out = append(out, b.Data)
		f.Add(b.Data, uint16(i), uint16(len(b.Data)/2))
	}
	f.Add([]byte{}, uint16(0), uint16(0))
	f.Add(bytes.Repeat([]byte{0}, 5000), uint16(7), uint16(100))
	return out
}

// Check checks that encode's output of body, and of the web body
// pick with body spliced in at at, decodes with the C library of kind to
// the same bytes.
func Check(t *testing.T, d *Decoder, kind byte, web [][]byte, encode func([]byte) []byte, body []byte, pick, at uint16, max int) {
	host := web[int(pick)%len(web)]
	cut := int(at) % (len(host) + 1)
	spliced := append(append(append([]byte(nil), host[:cut]...), body...), host[cut:]...)
	for _, b := range [][]byte{body, spliced} {
		b = b[:min(len(b), max)]
		got, err := d.Decode(kind, encode(b))
		if err != nil {
			t.Fatalf("%d bytes: the C decoder failed: %v", len(b), err)
		}
		if !bytes.Equal(got, b) {
			t.Fatalf("%d bytes: the C decoder gave %d other bytes", len(b), len(got))
		}
	}
}
