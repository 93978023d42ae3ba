package dictionary

import (
	"bytes"

	"github.com/andybalholm/brotli"
	"github.com/andybalholm/brotli/matchfinder"
)

// dcbMagic opens every dcb body (RFC 9842 §4), before the dictionary's
// SHA-256.
var dcbMagic = [4]byte{0xff, 0x44, 0x43, 0x42}

// DCBHeaderLen is the length of the header before a dcb body's brotli
// stream: the 4-byte magic and the dictionary's 32-byte SHA-256.
const DCBHeaderLen = 36

// dcbMaxDistance is how far back a dcb match may reach: the 16 MB window
// of andybalholm/brotli's matchfinder encoder (its stream header says
// WBITS 24, within RFC 9842 §4's 16 MB) less brotli's 16 reserved bytes.
//
// A raw dictionary stands just before the stream for a brotli decoder: a
// distance beyond the bytes decoded so far, but within the window, reaches
// into the end of the dictionary (brotli's compound dictionary). So a match
// finder that has seen the dictionary as history before the body finds
// exactly the distances a decoder with that dictionary resolves, as long as
// no distance exceeds the window, which this bound ensures.
const dcbMaxDistance = 1<<24 - 16

// AppendDCB appends to dst src encoded as dcb with d (RFC 9842 §4): the
// header, then a brotli stream whose matches reach into d. It uses
// andybalholm/brotli's matchfinder encoder, the one whose match finding can
// be given the dictionary first; its output is brotli's "V2" quality,
// between brotli's levels 5 and 9 for text. Bodies are one-shot: the
// encoder and its history are made per call, about 9 bytes of tables per
// byte of dictionary and body.
func AppendDCB(dst, src []byte, d *Dictionary) []byte {
	dst = append(dst, dcbMagic[:]...)
	dst = append(dst, d.hash[:]...)
	sink := bytes.NewBuffer(dst) // appends after dst's bytes
	w := &matchfinder.Writer{
		Dest: sink,
		MatchFinder: &primedMatchFinder{
			mf:   &matchfinder.M4{MaxDistance: dcbMaxDistance, MinLength: 4, HashLen: 5, ChainLength: 16, DistanceBitCost: 66},
			dict: d.raw,
		},
		Encoder:   &brotli.Encoder{},
		BlockSize: 1 << 16,
	}
	// bytes.Buffer never fails, and neither does the encoder on bytes.
	_, _ = w.Write(src)
	_ = w.Close()
	return sink.Bytes()
}

// primedMatchFinder is a match finder that has seen the dictionary before
// the stream: it feeds the dictionary through once and drops those matches,
// so that the stream's matches may reach back into it.
type primedMatchFinder struct {
	mf      matchfinder.MatchFinder
	dict    []byte
	primed  bool
	scratch []matchfinder.Match
}

func (p *primedMatchFinder) FindMatches(dst []matchfinder.Match, src []byte) []matchfinder.Match {
	if !p.primed {
		p.primed = true
		p.scratch = p.mf.FindMatches(p.scratch[:0], p.dict)
	}
	return p.mf.FindMatches(dst, src)
}

func (p *primedMatchFinder) Reset() {
	p.mf.Reset()
	p.primed = false
}
