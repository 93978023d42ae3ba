package deflate

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/squeezehttp/squeeze/internal/corpus"
)

// corpusDigest hashes what enc makes of every corpus body, each body twice
// through one encoder so that state carried between bodies counts too.
func corpusDigest(t *testing.T, enc func(dst, src []byte) []byte) string {
	t.Helper()
	bodies, err := corpus.Bodies()
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	var out []byte
	for range 2 {
		for _, b := range bodies {
			out = enc(out[:0], b.Data)
			h.Write(out)
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestGoldenDigests(t *testing.T) {
	var w WholeEncoder
	var z ZstdEncoder
	var br BrotliEncoder
	s := NewEncoder(windowSize)
	var buf bytes.Buffer
	s.ResetDict(&buf, nil)
	stream := func(dst, src []byte) []byte {
		buf.Reset()
		s.Write(src)
		s.Flush()
		return append(dst, buf.Bytes()...)
	}
	t.Logf("whole  %s", corpusDigest(t, w.Append))
	t.Logf("zstd   %s", corpusDigest(t, z.Append))
	t.Logf("brotli %s", corpusDigest(t, br.Append))
	t.Logf("stream %s", corpusDigest(t, stream))
}
