package zstd

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/squeezehttp/squeeze/internal/deflate"
	"github.com/squeezehttp/squeeze/internal/enctest"
)

// The match finders read src with LoadFast64 and LoadFast32, which do not
// check bounds (internal/deflate's load_unsafe.go). Each body here fills its heap slot
// exactly: its length is one of the runtime's size classes, or a multiple
// of the 8 KiB page above 32 KiB, so a load past its last byte crosses the
// slot's end, and under the race detector (go test -race, as CI runs it)
// the runtime's pointer checks stop the test when that lands in another
// allocation (not in unallocated memory past a large one). The shapes make
// matches run to the last byte, candidates sit at the first and the last
// positions the probes reach, and literals end the body, with one encoder
// of each kind reused across all of them. A round trip fails only on a read
// that changed what was matched, so the next two tests check the
// invariants themselves, in the tables, on many more bodies.
func TestMatchFinderStaysInTheBody(t *testing.T) {
	var e Encoder
	for name, shape := range enctest.SlotShapes {
		for _, n := range enctest.SizeClasses {
			if n > MaxBody {
				continue
			}
			src := shape(n)
			if got := unzstd(t, e.Append(nil, src)); !bytes.Equal(got, src) {
				t.Fatalf("zstd, %s, %d bytes: decoded differently", name, n)
			}
		}
	}
}

// TestMatchFinderKeepsItsInvariants runs 300 bodies of random shapes and
// sizes (short, size classes, up to 128 KiB) through one encoder, now and
// then moving the next base to just below the limit so that the tables
// wrap, and after each body checks the tables (enctest.CheckMatchTables)
// and the round trip.
func TestMatchFinderKeepsItsInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(0, 7))
	size := func(most int) int {
		switch r.IntN(4) {
		case 0:
			return r.IntN(20)
		case 1:
			return min(most, enctest.SizeClasses[r.IntN(len(enctest.SizeClasses))])
		case 2:
			return min(most, r.IntN(5000))
		}
		return r.IntN(most + 1)
	}
	var e Encoder
	m := &e.m
	for range 300 {
		if r.IntN(50) == 0 {
			// Raised only: bases must grow, or stale entries would look
			// like positions of the next body.
			m.Next = max(m.Next, int32(deflate.BaseLimit-r.IntN(200000)))
		}
		src := enctest.MatchShape(r, size(MaxBody))
		if got := unzstd(t, e.Append(nil, src)); !bytes.Equal(got, src) {
			t.Fatalf("zstd, %d bytes: decoded differently", len(src))
		}
		if len(src) > 0 { // an empty body may leave the tables alone
			enctest.CheckMatchTables(t, "zstd", m.Long[:], m.Short[:], m.Base, m.Next, len(src))
		}
	}
}

// TestMatchFinderAtItsBounds encodes bodies within 10 bytes of each size
// where the matching changes: deflate.LightMax, the encoding package's 4 KiB, the DEFLATE window, zstdMaxMatch and MaxBody.
func TestMatchFinderAtItsBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 1))
	var e Encoder
	m := &e.m
	for range 10 {
		for _, c := range []int{deflate.LightMax, 4096, 32768, zstdMaxMatch, zstdMaxMatch + 8, MaxBody} {
			for n := c - 10; n <= min(c+10, MaxBody); n++ {
				src := enctest.MatchShape(r, n)
				if got := unzstd(t, e.Append(nil, src)); !bytes.Equal(got, src) {
					t.Fatalf("zstd, %d bytes: decoded differently", n)
				}
				enctest.CheckMatchTables(t, "zstd", m.Long[:], m.Short[:], m.Base, m.Next, n)
			}
		}
	}
}
