package benchmarks

import (
	"testing"

	"github.com/squeezehttp/squeeze/internal/corpus"
)

// corpusSource returns one whole source of the repository corpus
// (testdata/corpus/kind/name), so that no benchmark reads a file outside
// the repository or skips on a fresh clone.
func corpusSource(tb testing.TB, kind, name string) []byte {
	tb.Helper()
	sources, err := corpus.Sources()
	if err != nil {
		tb.Fatal(err)
	}
	for _, s := range sources {
		if s.Kind == kind && s.Name == name {
			return s.Data
		}
	}
	tb.Fatalf("the corpus has no %s/%s", kind, name)
	return nil
}
