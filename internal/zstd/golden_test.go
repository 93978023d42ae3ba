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
	if got, want := enctest.CorpusDigest(t, e.Append), "b64863f7e7fb7bdab36965de6bf88a6c86eb383e898d78d4c4468b11c7ee32df"; got != want {
		t.Errorf("corpus digest %s, recorded %s", got, want)
	}
}
