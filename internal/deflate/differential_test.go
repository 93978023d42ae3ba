package deflate

import (
	"testing"

	"github.com/squeezehttp/squeeze/internal/enctest"
)

// FuzzWholeEncoderAgainstZlib: every stream WholeEncoder writes, with
// either finder, decodes with zlib to the body (RFC 1951).
func FuzzWholeEncoderAgainstZlib(f *testing.F) {
	web := enctest.WebBodies(f)
	d := enctest.Start(f)
	var e WholeEncoder
	f.Fuzz(func(t *testing.T, body []byte, pick, at uint16) {
		for _, level := range finderLevels {
			enctest.Check(t, d, 'd', web, func(b []byte) []byte { return e.Append(nil, b, level) }, body, pick, at, 1<<20)
		}
	})
}
