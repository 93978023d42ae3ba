package deflate

import (
	"testing"

	"github.com/squeezehttp/squeeze/internal/enctest"
)

// matchFinder is e as the match finder tests of enctest see it.
func matchFinder(e *WholeEncoder) enctest.MatchFinder {
	return enctest.MatchFinder{
		Kind: "DEFLATE", Encode: e.Append, Decode: inflate,
		Long: e.Long[:], Short: e.Short[:], Base: &e.Base, Next: &e.Next,
		BaseLimit: BaseLimit, MaxBody: BaseLimit - 1,
	}
}

// The unchecked loads stay in the body: see enctest.StaysInTheBody.
func TestMatchFinderStaysInTheBody(t *testing.T) {
	enctest.StaysInTheBody(t, matchFinder(new(WholeEncoder)))
}

func TestMatchFinderKeepsItsInvariants(t *testing.T) {
	enctest.KeepsItsInvariants(t, matchFinder(new(WholeEncoder)), 40000)
}

// The sizes where the matching changes: the encoding package's 4 and
// 8 KiB, the window and ChainMax.
func TestMatchFinderAtItsBounds(t *testing.T) {
	enctest.AtItsBounds(t, matchFinder(new(WholeEncoder)), 4096, 8192, windowSize, ChainMax)
}
