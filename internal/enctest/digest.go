package enctest

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/squeezehttp/squeeze/internal/corpus"
)

// CorpusDigest hashes what enc makes of every corpus body, each body twice
// through one encoder so that state carried between bodies counts too, as
// hex-coded SHA-256: the golden tests compare it with the digest of the
// output recorded when the encoders were last changed on purpose.
func CorpusDigest(t *testing.T, enc func(dst, src []byte) []byte) string {
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
