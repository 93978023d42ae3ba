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
	if got, want := enctest.CorpusDigest(t, e.Append), "1c5d1fe916cb5248ad846a6d03abcd2c9853a7442bd09cd454cafaf8472f8b50"; got != want {
		t.Errorf("corpus digest %s, recorded %s", got, want)
	}
}
