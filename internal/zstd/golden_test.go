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
	if got, want := enctest.CorpusDigest(t, e.Append), "dd40d4988e305903acbf233c37c2a88c416f0c3cb69f0390d1fc59bd531498f8"; got != want {
		t.Errorf("corpus digest %s, recorded %s", got, want)
	}
}
