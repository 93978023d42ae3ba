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
	if got, want := enctest.CorpusDigest(t, e.Append), "2d62f016813fb2cb8bd903926d2b4900a9c9b231a4cbfb6e98d81a4f25269408"; got != want {
		t.Errorf("corpus digest %s, recorded %s", got, want)
	}
}
