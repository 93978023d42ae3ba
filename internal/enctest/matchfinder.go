package enctest

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// MatchFinder is one encoder whose match finder uses a deflate.WholeEncoder's
// hash tables, as the match finder tests see it.
type MatchFinder struct {
	Kind   string // for messages: "DEFLATE", "zstd", "brotli"
	Encode func(dst, src []byte) []byte
	Decode func(testing.TB, []byte) []byte
	// Tables returns the hash tables (Long, Short, and the paired
	// finder's, flattened, once allocated), read after each body; Base
	// and Next are the WholeEncoder's fields.
	Tables     func() [][]int32
	Base, Next *int32
	BaseLimit  int // where the tables' positions wrap
	MaxBody    int // the longest body the encoder takes
}

func (m MatchFinder) roundTrip(t *testing.T, what string, src []byte) {
	t.Helper()
	if got := m.Decode(t, m.Encode(nil, src)); !bytes.Equal(got, src) {
		t.Fatalf("%s, %s, %d bytes: decoded differently", m.Kind, what, len(src))
	}
}

func (m MatchFinder) checkTables(t *testing.T, n int) {
	t.Helper()
	CheckMatchTables(t, m.Kind, m.Tables(), *m.Base, *m.Next, n)
}

// StaysInTheBody encodes every SlotShapes shape at every size class up to
// m.MaxBody through one encoder and checks the round trip. The match
// finders read src with deflate.LoadFast64 and LoadFast32, which do not
// check bounds (internal/deflate's load_unsafe.go). Each body here fills
// its heap slot exactly: its length is one of the runtime's size classes,
// or a multiple of the 8 KiB page above 32 KiB, so a load past its last
// byte crosses the slot's end, and under the race detector (go test -race,
// as CI runs it) the runtime's pointer checks stop the test when that lands
// in another allocation (not in unallocated memory past a large one). The
// shapes make matches run to the last byte, candidates sit at the first and
// the last positions the probes reach, and literals end the body. A round
// trip fails only on a read that changed what was matched, so
// KeepsItsInvariants and AtItsBounds check the invariants themselves, in
// the tables, on many more bodies.
func StaysInTheBody(t *testing.T, m MatchFinder) {
	for name, shape := range SlotShapes {
		for _, n := range SizeClasses {
			if n <= m.MaxBody {
				m.roundTrip(t, name, shape(n))
			}
		}
	}
}

// KeepsItsInvariants runs 300 bodies of random shapes and sizes (short,
// size classes, up to most bytes) through the encoder, now and then moving
// the next base to just below the limit so that the tables wrap, and after
// each body checks the tables (CheckMatchTables) and the round trip.
func KeepsItsInvariants(t *testing.T, m MatchFinder, most int) {
	r := rand.New(rand.NewPCG(0, 7))
	size := func() int {
		switch r.IntN(4) {
		case 0:
			return r.IntN(20)
		case 1:
			return min(most, SizeClasses[r.IntN(len(SizeClasses))])
		case 2:
			return min(most, r.IntN(5000))
		}
		return r.IntN(most + 1)
	}
	for range 300 {
		if r.IntN(50) == 0 {
			// Raised only: bases must grow, or stale entries would look
			// like positions of the next body.
			*m.Next = max(*m.Next, int32(m.BaseLimit-r.IntN(200000)))
		}
		src := MatchShape(r, size())
		m.roundTrip(t, "random shape", src)
		if len(src) > 0 { // an empty body may leave the tables alone
			m.checkTables(t, len(src))
		}
	}
}

// AtItsBounds encodes bodies within 10 bytes of each size of bounds, where
// the matching changes, up to m.MaxBody, and checks the round trip and the
// tables.
func AtItsBounds(t *testing.T, m MatchFinder, bounds ...int) {
	r := rand.New(rand.NewPCG(77, 1))
	for range 10 {
		for _, c := range bounds {
			for n := c - 10; n <= min(c+10, m.MaxBody); n++ {
				m.roundTrip(t, "random shape", MatchShape(r, n))
				m.checkTables(t, n)
			}
		}
	}
}
