package brotli

import (
	"testing"

	"github.com/squeezehttp/squeeze/internal/enctest"
)

// The encoder's output over the whole corpus is what it was when last
// changed on purpose: a refactoring that changes one byte fails here. A
// change meant to alter the output records the new digest.
func TestOutputMatchesRecordedCorpusDigest(t *testing.T) {
	var e Encoder
	if got, want := enctest.CorpusDigest(t, e.Append), "8d0fe7c3c87c4dadcbb3548b76550bd91a64066aca1e72a15c2ee6158f22b39c"; got != want {
		t.Errorf("corpus digest %s, recorded %s", got, want)
	}
}
