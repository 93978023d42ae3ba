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
	for level, want := range map[int]string{
		PairedMax:    "e03c9ded6b5c845525ee67f4f0a2573fe50728397fd0c7e75498dd8d08bc52f9",
		ChainedLevel: "ba39ad0c979d26a09c23dacc27b1d7ec847d892476a3f69e8891f98ea505f372",
	} {
		if got := enctest.CorpusDigest(t, appendAt(&w, level)); got != want {
			t.Errorf("WholeEncoder at level %d: corpus digest %s, recorded %s", level, got, want)
		}
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
	if got, want := enctest.CorpusDigest(t, stream), "87f51150f8561f52c9854541e5029fd6d1de59f26328355ca2690af0a0f2d782"; got != want {
		t.Errorf("Encoder: corpus digest %s, recorded %s", got, want)
	}
}
