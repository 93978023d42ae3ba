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
	if got, want := enctest.CorpusDigest(t, e.Append), "c19a0d83949739ca9e9576d485a06f870ef78d4da37694b2a9f36d77502a8c09"; got != want {
		t.Errorf("corpus digest %s, recorded %s", got, want)
	}
}
