package zstd

import (
	"testing"

	"github.com/squeezehttp/squeeze/internal/deflate"
	"github.com/squeezehttp/squeeze/internal/enctest"
)

// matchFinder is e as the match finder tests of enctest see it.
func matchFinder(e *Encoder) enctest.MatchFinder {
	return enctest.MatchFinder{
		Kind: "zstd", Encode: e.Append, Decode: unzstd,
		Tables: func() [][]int32 { return [][]int32{e.m.LongTable()[:], e.m.Short[:]} }, Base: &e.m.Base, Next: &e.m.Next,
		BaseLimit: deflate.BaseLimit, MaxBody: MaxBody,
	}
}

// The unchecked loads stay in the body: see enctest.StaysInTheBody.
func TestMatchFinderStaysInTheBody(t *testing.T) {
	enctest.StaysInTheBody(t, matchFinder(new(Encoder)))
}

func TestMatchFinderKeepsItsInvariants(t *testing.T) {
	enctest.KeepsItsInvariants(t, matchFinder(new(Encoder)), MaxBody)
}

// The sizes where the matching changes: lightMax, the encoding
// package's 4 KiB, the DEFLATE window, zstdMaxMatch and MaxBody.
func TestMatchFinderAtItsBounds(t *testing.T) {
	enctest.AtItsBounds(t, matchFinder(new(Encoder)), lightMax, 4096, 32768, zstdMaxMatch, zstdMaxMatch+8, MaxBody)
}
