package zstd

import (
	"testing"

	"github.com/squeezehttp/squeeze/internal/enctest"
)

// The encoder's output over the whole corpus is what it was when last
// changed on purpose: a refactoring that changes one byte fails here. A
// change meant to alter the output records the new digest.
func TestOutputMatchesRecordedCorpusDigest(t *testing.T) {
	var e Encoder
	if got, want := enctest.CorpusDigest(t, e.Append), "6a5538cd9da310293aaee71ef4eedf2736825e4c437d4366a909daf73923d41f"; got != want {
		t.Errorf("corpus digest %s, recorded %s", got, want)
	}
}
