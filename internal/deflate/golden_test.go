package deflate

import (
	"bytes"
	"testing"

	"github.com/squeezehttp/squeeze/internal/enctest"
)

// The encoders' output over the whole corpus is what it was when last
// changed on purpose: a refactoring that changes one byte fails here. A
// change meant to alter the output records the new digests.
func TestOutputMatchesRecordedCorpusDigest(t *testing.T) {
	var w WholeEncoder
	if got, want := enctest.CorpusDigest(t, w.Append), "f4c419949ccf07ee5312f2c3b1a6f423a702488f12fed39ad42c949799276b5b"; got != want {
		t.Errorf("WholeEncoder: corpus digest %s, recorded %s", got, want)
	}
	s := NewEncoder(windowSize)
	var buf bytes.Buffer
	s.ResetDict(&buf, nil)
	stream := func(dst, src []byte) []byte {
		buf.Reset()
		if _, err := s.Write(src); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		return append(dst, buf.Bytes()...)
	}
	if got, want := enctest.CorpusDigest(t, stream), "84c0430e86959e1da029ac01655f19e11ce550ec0a38b39204059e2c0ab98770"; got != want {
		t.Errorf("Encoder: corpus digest %s, recorded %s", got, want)
	}
}
