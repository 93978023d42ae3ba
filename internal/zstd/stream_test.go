package zstd

import (
	"bytes"
	"testing"

	"github.com/squeezehttp/squeeze/internal/enctest"
)

// streamEncode is enctest.StreamEncode with this package's encoders.
func streamEncode(encs *[2]*StreamEncoder, dst, body []byte) []byte {
	return enctest.StreamEncode(*encs, StartRep(), dst, body)
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
