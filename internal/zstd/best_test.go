package zstd

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/squeezehttp/squeeze/internal/corpus"
	"github.com/squeezehttp/squeeze/internal/enctest"
)

// bestAppend is BestEncoder.Append as the shared tests take an encoder.
func bestAppend(e *BestEncoder) func(dst, src []byte) []byte {
	return func(dst, src []byte) []byte {
		out, err := e.Append(dst, src, nil)
		if err != nil {
			panic(err)
		}
		return out
	}
}

// unzstdBest decodes a frame of BestEncoder's, whose window is the body,
// up to MaxBestBody, with klauspost's decoder, which checks the checksum.
func unzstdBest(tb testing.TB, frame []byte) []byte {
	tb.Helper()
	return unzstdWindow(tb, frame, MaxBestBody)
}

// bestShapes adds to enctest's shapes bodies of many blocks: the first
// two and a half blocks of the corpus's sources one after the other
// (matches across blocks, last offsets carried over), and a mix of runs,
// text and noise. Larger bodies would test nothing more and take long
// under the race detector.
func bestShapes(tb testing.TB) map[string][]byte {
	shapes := enctest.Shapes()
	sources, err := corpus.Sources()
	if err != nil {
		tb.Fatal(err)
	}
	var all []byte
	for _, s := range sources {
		all = append(all, s.Data...)
	}
	shapes["corpus sources"] = all[:min(len(all), 2*bestBlock+bestBlock/2)]
	r := rand.New(rand.NewPCG(3, 4))
	var mix []byte
	for len(mix) < 400<<10 {
		switch r.IntN(3) {
		case 0:
			mix = append(mix, bytes.Repeat([]byte{byte(r.Uint32())}, r.IntN(200<<10))...)
		case 1:
			at := r.IntN(len(all) - 70000) // all, not its cut
			mix = append(mix, all[at:at+r.IntN(70000)]...)
		default:
			for range r.IntN(50 << 10) {
				mix = append(mix, byte(r.Uint32()))
			}
		}
	}
	shapes["mix"] = mix
	return shapes
}

// RFC 8878 §3.1.1: every frame BestEncoder writes, of one block or many,
// decodes to the body, its checksum included, also from an encoder that
// wrote other bodies before.
func TestBestEncoderRoundTrip(t *testing.T) {
	var e BestEncoder
	for name, body := range bestShapes(t) {
		out := bestAppend(&e)([]byte("keep"), body)
		if string(out[:4]) != "keep" {
			t.Fatalf("%s: Append overwrote dst", name)
		}
		if got := unzstdBest(t, out[4:]); !bytes.Equal(got, body) {
			t.Fatalf("%s (%d bytes): decoded %d bytes that differ", name, len(body), len(got))
		}
	}
}

// A frame depends on its body alone, not on the bodies the encoder took
// before: Generate's sidecars are the same whichever worker makes them.
func TestBestEncoderOutputDependsOnTheBodyAlone(t *testing.T) {
	shapes := bestShapes(t)
	var used BestEncoder
	for _, name := range []string{"corpus sources", "json", "far", "runs"} {
		var fresh BestEncoder
		want := bestAppend(&fresh)(nil, shapes[name])
		if got := bestAppend(&used)(nil, shapes[name]); !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes from an encoder used before, %d other bytes from a new one", name, len(got), len(want))
		}
	}
}

// The frames decode with libzstd, the C library, too: its decoder shares no
// code with this package's encoders or klauspost's decoder.
func TestBestEncoderDecodedByLibzstd(t *testing.T) {
	d := enctest.Start(t, "zstandard")
	var e BestEncoder
	for name, body := range bestShapes(t) {
		got, err := d.Decode('z', bestAppend(&e)(nil, body))
		if err != nil {
			t.Fatalf("%s (%d bytes): libzstd: %v", name, len(body), err)
		}
		if !bytes.Equal(got, body) {
			t.Fatalf("%s (%d bytes): libzstd decoded %d other bytes", name, len(body), len(got))
		}
	}
}

// RFC 9659 §3: the frame's window is the body, so a body above 8 MiB is
// refused; and an error from stop ends the frame between blocks.
func TestBestEncoderRefusesWhatItCannotFinish(t *testing.T) {
	var e BestEncoder
	if _, err := e.Append(nil, make([]byte, MaxBestBody+1), nil); !errors.Is(err, ErrBodyTooLarge) {
		t.Errorf("body of MaxBestBody+1 bytes: error %v, want ErrBodyTooLarge", err)
	}
	stopped := errors.New("stopped")
	blocks := 0
	_, err := e.Append(nil, make([]byte, 3*bestBlock), func() error {
		if blocks++; blocks == 2 {
			return stopped
		}
		return nil
	})
	if !errors.Is(err, stopped) || blocks != 2 {
		t.Errorf("stop failing at the second block: error %v after %d calls", err, blocks)
	}
}

// XXH64 of the specification's reference values: a frame's checksum is its
// low 32 bits (RFC 8878 §3.1.1).
func TestXXHash64ReferenceValues(t *testing.T) {
	for in, want := range map[string]uint64{"": 0xef46db3751d8e999, "abc": 0x44bc2cf5ad770999} {
		if got := xxhash64([]byte(in)); got != want {
			t.Errorf("XXH64(%q) = %#x, want %#x", in, got, want)
		}
	}
}

// BestEncoder's output over the whole corpus is what it was when last
// changed on purpose (see TestOutputMatchesRecordedCorpusDigest).
func TestBestOutputMatchesRecordedCorpusDigest(t *testing.T) {
	var e BestEncoder
	if got, want := enctest.CorpusDigest(t, bestAppend(&e)), "d09b43b43e6d33d63018c49222172704800c14fad8982f803bffc09954fbd052"; got != want {
		t.Errorf("corpus digest %s, recorded %s", got, want)
	}
}
