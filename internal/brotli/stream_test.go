package brotli

import (
	"bytes"
	"testing"

	"github.com/squeezehttp/squeeze/internal/enctest"
)

// streamEncode is enctest.StreamEncode with this package's encoders.
func streamEncode(encs *[2]*StreamEncoder, dst, body []byte) []byte {
	return enctest.StreamEncode(*encs, StartDistances(), dst, body)
}

func newStreamEncoders() *[2]*StreamEncoder {
	return &[2]*StreamEncoder{NewStreamEncoder(), NewStreamEncoder()}
}

// RFC 7932 §9: a stream of meta-blocks, each flush ending on a byte
// boundary with an empty metadata meta-block, decodes to the stream's
// bytes, also where another encoder continued it from the history and the
// last distances (§4: they carry over between meta-blocks).
func TestStreamEncoderRoundTrip(t *testing.T) {
	encs := newStreamEncoders()
	enctest.RoundTripShapes(t, func(dst, src []byte) []byte { return streamEncode(encs, dst, src) }, unbrotli)
	_, cuts := enctest.CorpusCuts(t)
	for name, body := range cuts {
		if got := unbrotli(t, streamEncode(encs, nil, body)); !bytes.Equal(got, body) {
			t.Fatalf("%s: decoded %d bytes that differ from the %d written", name, len(got), len(body))
		}
	}
}

// A stream flushed with nothing written and closed at once is an empty
// stream; a flush after a flush adds only an aligning metadata meta-block.
func TestStreamEncoderEmptyAndIdleFlush(t *testing.T) {
	e := NewStreamEncoder()
	e.Reset(nil, StartDistances())
	out := e.Close(e.Flush(e.Header(nil)))
	if got := unbrotli(t, out); len(got) != 0 {
		t.Fatalf("empty stream decoded to %d bytes", len(got))
	}
	e.Reset(nil, StartDistances())
	out = e.Flush(e.Write(e.Header(nil), []byte("data: one\n\n")))
	if got := unbrotli(t, e.Close(out)); string(got) != "data: one\n\n" {
		t.Fatalf("decoded %q", got)
	}
}

// FuzzBrotliStreamEncoderAgainstCBrotli: every stream StreamEncoder
// writes, flushed piece by piece and continued by another encoder, decodes
// with the C brotli library to the body.
func FuzzBrotliStreamEncoderAgainstCBrotli(f *testing.F) {
	web := enctest.WebBodies(f)
	d := enctest.Start(f, "brotli")
	encs := newStreamEncoders()
	f.Fuzz(func(t *testing.T, body []byte, pick, at uint16) {
		enctest.Check(t, d, 'b', web, func(b []byte) []byte { return streamEncode(encs, nil, b) }, body, pick, at, 1<<20)
	})
}
