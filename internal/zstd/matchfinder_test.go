package zstd

import (
	"math/rand/v2"
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

// hashBoth is deflate.HashLong and hashShort5 with one multiplication: the
// same hashes, or the finder would look in the wrong slots of the tables
// that a match's positions are indexed in by those two.
func TestHashBothIsBothHashes(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 1 << 16 {
		u := r.Uint64()
		if l, s := hashBoth(u); l != deflate.HashLong(u) || s != hashShort5(u) {
			t.Fatalf("%#x: %d, %d; want %d, %d", u, l, s, deflate.HashLong(u), hashShort5(u))
		}
	}
}
