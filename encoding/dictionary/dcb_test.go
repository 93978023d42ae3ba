package dictionary

import (
	"bytes"
	"crypto/sha256"
	"io"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/andybalholm/brotli/matchfinder"
)

// The property dcb rests on: every match the primed match finder emits,
// replayed over the dictionary followed by the body (as a brotli decoder
// with that raw dictionary resolves distances beyond the bytes decoded so
// far), rebuilds the body, and no distance exceeds the window.
func TestDCBMatchesReachIntoDictionaryAsBrotliResolvesThem(t *testing.T) {
	v1, v2 := versionedScript(1, 150<<10), versionedScript(2, 150<<10)
	p := &primedMatchFinder{mf: &matchfinder.M4{MaxDistance: dcbMaxDistance, MinLength: 4, HashLen: 5, ChainLength: 16, DistanceBitCost: 66}, dict: v1}
	out := bytes.Clone(v1) // what a decoder can reach: dictionary, then output
	intoDict := 0
	for start := 0; start < len(v2); start += 1 << 16 {
		block := v2[start:min(start+1<<16, len(v2))]
		pos := 0
		for _, m := range p.FindMatches(nil, block) {
			out = append(out, block[pos:pos+m.Unmatched]...)
			pos += m.Unmatched
			if m.Length == 0 {
				continue
			}
			if m.Distance > dcbMaxDistance || m.Distance > len(out) {
				t.Fatalf("distance %d beyond the window or the dictionary", m.Distance)
			}
			if m.Distance > len(out)-len(v1) {
				intoDict++
			}
			from := len(out) - m.Distance
			for i := range m.Length { // byte by byte: a copy may overlap itself
				out = append(out, out[from+i])
			}
			pos += m.Length
		}
	}
	if !bytes.Equal(out[len(v1):], v2) {
		t.Fatal("replaying the matches over dictionary+body does not rebuild the body")
	}
	if intoDict == 0 {
		t.Fatal("no match reached into the dictionary")
	}
}

func TestDCBFramingPerRFC9842Section4(t *testing.T) {
	d := New([]byte("dictionary"))
	body := AppendDCB([]byte("x"), []byte("hello, hello"), d)
	sum := sha256.Sum256([]byte("dictionary"))
	if !bytes.Equal(body[1:5], []byte{0xff, 0x44, 0x43, 0x42}) || !bytes.Equal(body[5:37], sum[:]) {
		t.Fatalf("header % x, want ff 44 43 42 and the SHA-256", body[1:37])
	}
	// With an empty dictionary nothing can reach into one: the stream is
	// plain brotli, which any decoder reads.
	empty := New(nil)
	src := versionedScript(2, 100<<10)
	plain := AppendDCB(nil, src, empty)
	got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(plain[DCBHeaderLen:])))
	if err != nil || !bytes.Equal(got, src) {
		t.Fatalf("dcb stream with an empty dictionary decodes to %d bytes, %v; want %d", len(got), err, len(src))
	}
}

// The header lengths, written as numbers for go doc, are the magic and
// the SHA-256 they stand for.
func TestHeaderLenIsMagicAndHash_RFC9842(t *testing.T) {
	if DCBHeaderLen != len(dcbMagic)+sha256.Size || DCZHeaderLen != len(dczMagic)+sha256.Size {
		t.Errorf("DCBHeaderLen %d, DCZHeaderLen %d; want %d and %d", DCBHeaderLen, DCZHeaderLen, len(dcbMagic)+sha256.Size, len(dczMagic)+sha256.Size)
	}
}
