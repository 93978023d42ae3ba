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
	if got, want := enctest.CorpusDigest(t, e.Append), "b05596a8139ead7d9fe307274af73579a6ddcfd49497a4e634d1b0adf27928a7"; got != want {
		t.Errorf("corpus digest %s, recorded %s", got, want)
	}
}
