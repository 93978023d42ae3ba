package zstd

import (
	"testing"

	"github.com/squeezehttp/squeeze/internal/enctest"
)

// FuzzZstdEncoderAgainstLibzstd: every frame Encoder writes decodes
// with libzstd to the body (RFC 8878).
func FuzzZstdEncoderAgainstLibzstd(f *testing.F) {
	web := enctest.WebBodies(f)
	d := enctest.Start(f, "zstandard")
	var e Encoder
	f.Fuzz(func(t *testing.T, body []byte, pick, at uint16) {
		enctest.Check(t, d, 'z', web, func(b []byte) []byte { return e.Append(nil, b) }, body, pick, at, MaxBody)
	})
}

// FuzzBestEncoderAgainstLibzstd: every frame BestEncoder writes decodes
// with libzstd to the body, its checksum checked (RFC 8878).
func FuzzBestEncoderAgainstLibzstd(f *testing.F) {
	web := enctest.WebBodies(f)
	d := enctest.Start(f, "zstandard")
	var e BestEncoder
	f.Fuzz(func(t *testing.T, body []byte, pick, at uint16) {
		enctest.Check(t, d, 'z', web, func(b []byte) []byte { return bestAppend(&e)(nil, b) }, body, pick, at, 1<<20)
	})
}
