package deflate

import (
	"github.com/squeezehttp/squeeze/internal/enctest"

	"bytes"
	"compress/flate"
	"io"
	"testing"
)

func inflate(t testing.TB, stream []byte) []byte {
	t.Helper()
	got, err := io.ReadAll(flate.NewReader(bytes.NewReader(stream)))
	if err != nil {
		t.Fatalf("compress/flate: %v", err)
	}
	return got
}

// TestWholeEncoderIsStandardDeflate has Go's compress/flate, which shares
// nothing with the encoder, read every shape back (RFC 1951), through one
// WholeEncoder reused in both orders so that each body follows others of
// other sizes, and appended after existing bytes of dst.
func TestWholeEncoderIsStandardDeflate(t *testing.T) {
	var e WholeEncoder
	for _, level := range finderLevels {
		enctest.RoundTripShapes(t, appendAt(&e, level), inflate)
	}
}

// The encoder picks the smallest block type: stored for random bytes (no
// more than 5 bytes per stored block of overhead), fixed codes for
// very short bodies.
func TestWholeEncoderPicksTheSmallestBlock(t *testing.T) {
	shapes := enctest.Shapes()
	var e WholeEncoder
	random := shapes["random"]
	for _, level := range finderLevels {
		if out := e.Append(nil, random, level); len(out) > len(random)+5*(len(random)/maxStored+1) {
			t.Errorf("level %d, random %d bytes: %d out, want stored blocks", level, len(random), len(out))
		}
		if out := e.Append(nil, nil, level); !bytes.Equal(out, []byte{0x03, 0x00}) {
			t.Errorf("level %d, empty body: % x, want 03 00 (a fixed block with only end-of-block)", level, out)
		}
		if out := e.Append(nil, []byte("abcd"), level); out[0]&7 != 1|1<<1 {
			t.Errorf("level %d, 4 bytes: block header %03b, want a final fixed block", level, out[0]&7)
		}
		if out := e.Append(nil, shapes["json"], level); out[0]&7 != 1|2<<1 {
			t.Errorf("level %d, json: block header %03b, want a final dynamic block", level, out[0]&7)
		}
	}
}

// When the positions stored in the hash table would pass BaseLimit, the
// table is cleared and numbering starts again; bodies on both sides of the
// wrap decode.
func TestWholeEncoderWrapsItsPositions(t *testing.T) {
	body := enctest.Shapes()["json"]
	for _, level := range finderLevels {
		var e WholeEncoder
		e.Append(nil, body, level)
		e.Next = BaseLimit - int32(len(body))/2
		for range 3 {
			if got := inflate(t, e.Append(nil, body, level)); !bytes.Equal(got, body) {
				t.Fatalf("level %d: body after the wrap decoded differently", level)
			}
		}
		if e.Next > int32(3*len(body)+4) {
			t.Errorf("level %d: next = %d: the positions did not start again", level, e.Next)
		}
	}
}

// FuzzWholeEncoder compresses two arbitrary bodies in turn with one encoder,
// then the two together repeated past ChainMax (so that the chained and the
// sparse matchers run), each with both finders, and has compress/flate read
// each back.
func FuzzWholeEncoder(f *testing.F) {
	f.Add([]byte("hello hello hello"), []byte("hello"))
	f.Add(bytes.Repeat([]byte{0}, 70000), []byte{1, 2, 3})
	f.Add(enctest.Shapes()["json"][:3000], enctest.Shapes()["far"][:1000])
	var e WholeEncoder
	f.Fuzz(func(t *testing.T, first, second []byte) {
		both := append(append([]byte(nil), first...), second...)
		long := bytes.Repeat(both, ChainMax/(len(both)+1)+1)
		for _, body := range [][]byte{first, second, long} {
			for _, level := range finderLevels {
				if got := inflate(t, e.Append(nil, body, level)); !bytes.Equal(got, body) {
					t.Fatalf("level %d, %d bytes decoded differently", level, len(body))
				}
			}
		}
	})
}

// Bodies of up to ChainMax bytes are matched with chains, longer ones the
// sparse way: compress/flate reads both back (every shape cut around the
// bound), and on every corpus body the chains' output is at most as large
// as the sparse finder's, give or take 1 %: the claim behind the chains.
func TestWholeEncoderChainedMatching(t *testing.T) {
	var e WholeEncoder
	const level = ChainedLevel
	for name, shape := range enctest.Shapes() {
		for _, n := range []int{9, 100, ChainMax - 1, ChainMax, ChainMax + 1} {
			body := shape[:min(n, len(shape))]
			if got := inflate(t, e.Append(nil, body, level)); !bytes.Equal(got, body) {
				t.Fatalf("%s[:%d]: decoded differently", name, len(body))
			}
		}
	}
	names, cuts := enctest.CorpusCuts(t)
	for _, name := range names {
		src := cuts[name]
		chained := e.Append(nil, src, level)
		e.Reset(len(src))
		e.matchAll(src)
		sparse := e.block(nil, src)
		if got := inflate(t, sparse); !bytes.Equal(got, src) {
			t.Fatalf("%s: matchAll's stream decoded differently", name)
		}
		if float64(len(chained)) > 1.01*float64(len(sparse)) {
			t.Errorf("%s: chained matching %d bytes, more than 1 %% over the sparse finder's %d", name, len(chained), len(sparse))
		}
	}
}

// RFC 1951 §3.2.5: distances reach at most 32 768 bytes back. Random data
// repeated with that period is matched at exactly that distance; repeated a
// byte further apart it cannot be matched at all, and nothing reaches past
// the window.
func TestWholeEncoderDistancesStayInTheWindow(t *testing.T) {
	random := enctest.Shapes()["random"]
	for _, level := range finderLevels {
		for _, period := range []int{windowSize - 1, windowSize, windowSize + 1} {
			body := append(append([]byte(nil), random[:period]...), random[:period]...)
			var e WholeEncoder
			out := e.Append(nil, body, level)
			if got := inflate(t, out); !bytes.Equal(got, body) {
				t.Fatalf("level %d, period %d: decoded differently", level, period)
			}
			checkSeqs(t, "window", &e, body)
			longest := 0
			for _, s := range e.Seqs {
				if s.Length != 0 {
					longest = max(longest, int(s.Dist))
				}
			}
			switch {
			case longest > windowSize:
				t.Errorf("level %d, period %d: a match reaches %d bytes back", level, period, longest)
			case period <= windowSize && longest != period:
				t.Errorf("level %d, period %d: farthest match %d, want the repeat at %d", level, period, longest, period)
			}
		}
	}
}
