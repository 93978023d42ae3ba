package deflate

import (
	"fmt"
	"testing"

	"github.com/squeezehttp/squeeze/internal/enctest"
)

// finderLevels are a level of each finder: the paired one's (PairedMax)
// and the chained one's.
var finderLevels = []int{PairedMax, ChainedLevel}

// appendAt is e.Append at level, as the tests' encode functions take it.
func appendAt(e *WholeEncoder, level int) func(dst, src []byte) []byte {
	return func(dst, src []byte) []byte { return e.Append(dst, src, level) }
}

// matchFinder is e at level as the match finder tests of enctest see it.
func matchFinder(e *WholeEncoder, level int) enctest.MatchFinder {
	return enctest.MatchFinder{
		Kind: fmt.Sprintf("DEFLATE level %d", level), Encode: appendAt(e, level), Decode: inflate,
		Tables: func() [][]int32 {
			tables := [][]int32{e.Short[:]}
			if e.Long != nil {
				tables = append(tables, e.Long[:])
			}
			if e.Pairs != nil {
				pairs := make([]int32, 0, 2*len(e.Pairs))
				for _, p := range e.Pairs {
					pairs = append(pairs, p[0], p[1])
				}
				tables = append(tables, pairs)
			}
			return tables
		},
		Base: &e.Base, Next: &e.Next,
		BaseLimit: BaseLimit, MaxBody: BaseLimit - 1,
	}
}

// The unchecked loads stay in the body: see enctest.StaysInTheBody.
func TestMatchFinderStaysInTheBody(t *testing.T) {
	for _, level := range finderLevels {
		enctest.StaysInTheBody(t, matchFinder(new(WholeEncoder), level))
	}
}

func TestMatchFinderKeepsItsInvariants(t *testing.T) {
	for _, level := range finderLevels {
		enctest.KeepsItsInvariants(t, matchFinder(new(WholeEncoder), level), 40000)
	}
}

// The sizes where the matching changes: the encoding package's 4 and
// 8 KiB, the window and ChainMax.
func TestMatchFinderAtItsBounds(t *testing.T) {
	for _, level := range finderLevels {
		enctest.AtItsBounds(t, matchFinder(new(WholeEncoder), level), 4096, 8192, windowSize, ChainMax)
	}
}

// One encoder serving both finders in turn keeps the tables' invariants:
// each finder's tables hold only positions of bodies before, below the
// base, whatever the other did.
func TestMatchFindersShareAnEncoder(t *testing.T) {
	e := new(WholeEncoder)
	m := matchFinder(e, PairedMax)
	level := 0
	m.Encode = func(dst, src []byte) []byte {
		level++
		return e.Append(dst, src, finderLevels[level%2])
	}
	enctest.KeepsItsInvariants(t, m, 40000)
}
