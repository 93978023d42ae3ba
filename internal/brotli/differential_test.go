package brotli

import (
	"testing"

	"github.com/squeezehttp/squeeze/internal/enctest"
)

// FuzzBrotliEncoderAgainstCBrotli: every stream Encoder writes
// decodes with the C brotli library to the body (RFC 7932).
func FuzzBrotliEncoderAgainstCBrotli(f *testing.F) {
	web := enctest.WebBodies(f)
	d := enctest.Start(f, "brotli")
	var e Encoder
	f.Fuzz(func(t *testing.T, body []byte, pick, at uint16) {
		enctest.Check(t, d, 'b', web, func(b []byte) []byte { return e.Append(nil, b) }, body, pick, at, MaxBody)
	})
}
