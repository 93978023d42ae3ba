package deflate

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/squeezehttp/squeeze/internal/enctest"
)

// checkSeqs fails t unless e.Seqs describe src as DEFLATE steps (RFC 1951
// §3.2.5): lengths 3 to 258, distances 1 to 32768 and no farther back than
// the body goes, matches that repeat what is there, Length 0 only last,
// and together the whole body.
func checkSeqs(t *testing.T, what string, e *WholeEncoder, src []byte) {
	t.Helper()
	pos := 0
	for i, s := range e.Seqs {
		pos += int(s.Lits)
		if pos > len(src) {
			t.Fatalf("%s: sequence %d's literals run past the body", what, i)
		}
		if s.Length == 0 {
			if i != len(e.Seqs)-1 {
				t.Fatalf("%s: sequence %d of %d has no match but is not the last", what, i, len(e.Seqs))
			}
			continue
		}
		if s.Length < 3 || s.Length > maxMatch || s.Dist < 1 || s.Dist > windowSize || int(s.Dist) > pos {
			t.Fatalf("%s: sequence %d %+v at %d is no DEFLATE match", what, i, s, pos)
		}
		end := pos + int(s.Length)
		if end > len(src) {
			t.Fatalf("%s: sequence %d's match runs past the body", what, i)
		}
		for k := pos; k < end; k++ {
			if src[k] != src[k-int(s.Dist)] {
				t.Fatalf("%s: sequence %d %+v at %d does not repeat byte %d", what, i, s, pos, k)
			}
		}
		pos = end
	}
	if pos != len(src) {
		t.Fatalf("%s: the sequences cover %d of %d bytes", what, pos, len(src))
	}
}

// seqBodies are bodies of random shapes and sizes, and of small alphabets
// with short periods (many 4-byte matches, few 7-byte ones).
func seqBodies(r *rand.Rand) [][]byte {
	var bodies [][]byte
	for _, s := range enctest.Shapes() {
		bodies = append(bodies, s[:min(len(s), 70000)])
	}
	for range 300 {
		n := r.IntN(5000)
		if r.IntN(5) == 0 {
			n = r.IntN(100000)
		}
		bodies = append(bodies, enctest.MatchShape(r, n))
	}
	for range 200 {
		b := make([]byte, r.IntN(3000))
		k := 1 + r.IntN(4)
		for i := range b {
			if i > 8 && r.IntN(3) != 0 {
				b[i] = b[i-1-r.IntN(8)]
			} else {
				b[i] = byte(r.IntN(k))
			}
		}
		bodies = append(bodies, b)
	}
	return bodies
}

// RFC 1951 §3.2.5: every sequence either finder emits, through one encoder
// they share, is a valid DEFLATE step of the body.
func TestSequencesAreDeflateSteps(t *testing.T) {
	var e WholeEncoder
	for _, body := range seqBodies(rand.New(rand.NewPCG(31, 31))) {
		for _, level := range []int{1, PairedMax, ChainedLevel} {
			e.Reset(len(body))
			e.Match(body, level)
			checkSeqs(t, fmt.Sprintf("level %d, %d bytes", level, len(body)), &e, body)
		}
	}
}

// costs counts the block exactly: the stream is its count of bits rounded
// up to bytes, which writeSeqs relies on to stop its 8-byte stores at the
// stream's end.
func TestCostsCountTheBlockExactly(t *testing.T) {
	var e WholeEncoder
	for _, body := range seqBodies(rand.New(rand.NewPCG(7, 31))) {
		for _, level := range finderLevels {
			out := e.Append(nil, body, level)
			dynamic, fixed := e.costs()
			stored := (len(body)/maxStored+1)*(3+7+32) + 8*len(body)
			var want int
			switch {
			case dynamic <= fixed && dynamic <= stored:
				want = (dynamic + 7) / 8
			case fixed <= stored:
				want = (fixed + 7) / 8
			default:
				continue
			}
			if len(out) != want {
				t.Fatalf("level %d, %d bytes: %d out, the costs say %d (dynamic %d bits, fixed %d)", level, len(body), len(out), want, dynamic, fixed)
			}
		}
	}
}

// Append appends as append does: the capacity of dst past the stream it
// returns keeps its bytes, so a caller may encode into part of a larger
// buffer.
func TestWholeEncoderLeavesSpareCapacityAlone(t *testing.T) {
	var e WholeEncoder
	for _, body := range seqBodies(rand.New(rand.NewPCG(3, 31)))[:120] {
		for _, level := range finderLevels {
			want := e.Append(nil, body, level)
			buf := bytes.Repeat([]byte{0xaa}, len(want)+64)
			out := e.Append(buf[:0], body, level)
			for i, c := range buf[len(out):] {
				if c != 0xaa {
					t.Fatalf("level %d, %d bytes: Append wrote %#x %d bytes past the %d it returned", level, len(body), c, i, len(out))
				}
			}
		}
	}
}

// A sequence without a match need not be the last for writeSeqs: runs of
// two literals of 9-bit codes, each its own sequence, do not overflow the
// bit buffer.
func TestWriteSeqsTakesLiteralRunsWithoutMatches(t *testing.T) {
	src := bytes.Repeat([]byte{0xff}, 8) // 9-bit codes in a fixed block
	for _, seqs := range [][]Seq{
		{{Lits: 8}},
		{{Lits: 2}, {Lits: 2}, {Lits: 2}, {Lits: 2}},
	} {
		var w BitWriter
		w.blockHeader(true, fixedBlock)
		writeSeqs(&w, src, seqs, fixedCode, fixedDist, 8*9+7)
		w.Align()
		if got := inflate(t, w.Buf); !bytes.Equal(got, src) {
			t.Errorf("%+v: decoded % x, want % x", seqs, got, src)
		}
	}
}
