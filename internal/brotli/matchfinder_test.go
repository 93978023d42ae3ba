package brotli

import (
	"testing"

	"github.com/squeezehttp/squeeze/internal/deflate"
	"github.com/squeezehttp/squeeze/internal/enctest"
)

// matchFinder is e as the match finder tests of enctest see it.
func matchFinder(e *Encoder) enctest.MatchFinder {
	return enctest.MatchFinder{
		Kind: "brotli", Encode: e.Append, Decode: unbrotli,
		Tables: func() [][]int32 { return [][]int32{e.m.LongTable()[:], e.m.Short[:]} }, Base: &e.m.Base, Next: &e.m.Next,
		BaseLimit: deflate.BaseLimit, MaxBody: MaxBody,
	}
}

// The unchecked loads stay in the body: see enctest.StaysInTheBody.
func TestMatchFinderStaysInTheBody(t *testing.T) {
	enctest.StaysInTheBody(t, matchFinder(new(Encoder)))
}

func TestMatchFinderKeepsItsInvariants(t *testing.T) {
	enctest.KeepsItsInvariants(t, matchFinder(new(Encoder)), 20000)
}

// The sizes where the matching changes: the encoding package's 4 and
// 8 KiB, the DEFLATE window and deflate.ChainMax.
func TestMatchFinderAtItsBounds(t *testing.T) {
	enctest.AtItsBounds(t, matchFinder(new(Encoder)), 4096, 8192, 32768, deflate.ChainMax)
}
