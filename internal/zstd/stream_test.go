package zstd

import (
	"bytes"
	"testing"

	"github.com/squeezehttp/squeeze/internal/enctest"
)

// pieceSizes are the lengths of the writes streamEncode makes, cycled:
// single bytes, events, and writes that fill and overrun a block.
var pieceSizes = []int{1, 100, 7, 3000, 40000, 250}

// streamEncode encodes body as a stream of writes of pieceSizes, each
// flushed; after every third, the stream moves to the other of two
// encoders, continued from the first's history (8 KiB) and offsets, as a
// stream released while idle is.
func streamEncode(encs *[2]*StreamEncoder, dst, body []byte) []byte {
	e := encs[0]
	e.Reset(nil, StartRep())
	dst = e.Header(dst)
	for i := 0; len(body) > 0; i++ {
		n := min(len(body), pieceSizes[i%len(pieceSizes)])
		dst = e.Flush(e.Write(dst, body[:n]))
		body = body[n:]
		if i%3 == 2 {
			next := encs[(i/3+1)%2]
			next.Reset(bytes.Clone(e.History(8<<10)), e.State())
			e = next
		}
	}
	return e.Close(dst)
}

func newStreamEncoders() *[2]*StreamEncoder {
	return &[2]*StreamEncoder{NewStreamEncoder(), NewStreamEncoder()}
}

// RFC 8878 §3.1.1.2: a frame of many blocks, each ended by a flush, decodes
// to the stream's bytes, also where another encoder continued it from the
// history and last offsets (§3.1.1.5: they carry over between blocks).
func TestStreamEncoderRoundTrip(t *testing.T) {
	encs := newStreamEncoders()
	enctest.RoundTripShapes(t, func(dst, src []byte) []byte { return streamEncode(encs, dst, src) }, unzstd)
	_, cuts := enctest.CorpusCuts(t)
	for name, body := range cuts {
		if got := unzstd(t, streamEncode(encs, nil, body)); !bytes.Equal(got, body) {
			t.Fatalf("%s: decoded %d bytes that differ from the %d written", name, len(got), len(body))
		}
	}
}

// A stream flushed with nothing written and closed at once is an empty
// frame; a flush with nothing pending adds nothing.
func TestStreamEncoderEmptyAndIdleFlush(t *testing.T) {
	e := NewStreamEncoder()
	e.Reset(nil, StartRep())
	out := e.Close(e.Flush(e.Header(nil)))
	if got := unzstd(t, out); len(got) != 0 {
		t.Fatalf("empty stream decoded to %d bytes", len(got))
	}
	e.Reset(nil, StartRep())
	out = e.Flush(e.Write(e.Header(nil), []byte("data: one\n\n")))
	if again := e.Flush(nil); len(again) != 0 {
		t.Fatalf("a flush with nothing pending wrote %d bytes", len(again))
	}
	if got := unzstd(t, e.Close(out)); string(got) != "data: one\n\n" {
		t.Fatalf("decoded %q", got)
	}
}

// FuzzZstdStreamEncoderAgainstLibzstd: every stream StreamEncoder writes,
// flushed piece by piece and continued by another encoder, decodes with
// libzstd to the body.
func FuzzZstdStreamEncoderAgainstLibzstd(f *testing.F) {
	web := enctest.WebBodies(f)
	d := enctest.Start(f, "zstandard")
	encs := newStreamEncoders()
	f.Fuzz(func(t *testing.T, body []byte, pick, at uint16) {
		enctest.Check(t, d, 'z', web, func(b []byte) []byte { return streamEncode(encs, nil, b) }, body, pick, at, 1<<20)
	})
}
