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
	if got, want := enctest.CorpusDigest(t, e.Append), "9c6156e9df7a9d04499782dfba6643553f35d448fd495322bdca76ed84aef0f0"; got != want {
		t.Errorf("corpus digest %s, recorded %s", got, want)
	}
}
