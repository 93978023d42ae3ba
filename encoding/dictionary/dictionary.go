package dictionary

import (
	"crypto/sha256"
	"encoding/base64"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Dictionary is a raw compression dictionary (RFC 9842 §2.1.4, type raw):
// the bytes of a response a client kept, usually an earlier version of the
// resource being sent, named by their SHA-256. It is safe for concurrent
// use and immutable.
//
// A Dictionary builds its zstd encoders the first time it is used at each
// of zstd's four speeds, and keeps them, one per CPU encoding with it at
// once: their tables grow with the dictionary and with the level, from
// megabytes at levels 2..5 to a hundred times more at 10..22.
type Dictionary struct {
	raw  []byte
	hash [sha256.Size]byte

	// shared holds, per zstd speed, the encoder that AppendDCZ uses for every
	// body (EncodeAll is safe for concurrent use), made on first use.
	shared [zstd.SpeedBestCompression + 1]func() (*zstd.Encoder, error)
	// streams holds, per zstd speed, the idle encoders of dcz streams.
	streams [zstd.SpeedBestCompression + 1]sync.Pool
}

// New returns the dictionary made of raw, which it keeps: the caller must
// not modify raw afterwards.
func New(raw []byte) *Dictionary { return newDictionary(raw, sha256.Sum256(raw)) }

// newDictionary is New for raw whose SHA-256 the caller has.
func newDictionary(raw []byte, hash [sha256.Size]byte) *Dictionary {
	d := &Dictionary{raw: raw, hash: hash}
	window := dczEncoderWindow(len(raw))
	for speed := zstd.SpeedFastest; speed <= zstd.SpeedBestCompression; speed++ {
		d.shared[speed] = sync.OnceValues(func() (*zstd.Encoder, error) {
			return zstd.NewWriter(nil, zstd.WithEncoderLevel(speed), zstd.WithEncoderCRC(false),
				zstd.WithWindowSize(window), zstd.WithLowerEncoderMem(true),
				zstd.WithEncoderDictRaw(0, d.raw))
		})
	}
	return d
}

// Hash returns the SHA-256 of the dictionary's bytes, which clients name it
// by in Available-Dictionary (RFC 9842 §2.2).
func (d *Dictionary) Hash() [sha256.Size]byte { return d.hash }

// Len returns the dictionary's size in bytes.
func (d *Dictionary) Len() int { return len(d.raw) }

// Bytes returns the dictionary's bytes, which the caller must not modify.
func (d *Dictionary) Bytes() []byte { return d.raw }

// tag is a short form of the hash for ETags: 64 bits, base64url.
func (d *Dictionary) tag() string { return base64.RawURLEncoding.EncodeToString(d.hash[:8]) }

// RFC 9842 §5: a client must decode windows of up to 8 MB or 1.25 times
// the dictionary, whichever is greater, and at most 128 MB; a window above
// that it may reject.
const (
	dczMinWindowLimit = 8 << 20
	dczMaxWindowLimit = 128 << 20
)

// dczWindow returns the window for a dictionary of dictLen bytes: the
// largest power of two (the only sizes klauspost's encoder takes) within
// the limit RFC 9842 §5 sets for it. A new version may grow by the window
// less the dictionary before the dictionary falls out of reach.
func dczWindow(dictLen int) int {
	limit := min(max(dczMinWindowLimit, dictLen+dictLen/4), dczMaxWindowLimit)
	w := dczMinWindowLimit
	for w*2 <= limit {
		w *= 2
	}
	return w
}

// dczEncoderWindow is the window our encoders use with a dictionary of
// dictLen bytes: enough for the dictionary and a new version twice its
// size, within dczWindow. Encoder memory follows the window (klauspost
// allocates its history up front, somewhat more than the window per
// dictionary), while a delta of a new build needs no more than the
// dictionary and the build. A body beyond the window still decodes; only
// its matches into the dictionary stop once the window is past.
func dczEncoderWindow(dictLen int) int {
	w := 64 << 10
	for w < 2*dictLen && w < dczWindow(dictLen) {
		w *= 2
	}
	return min(w, dczWindow(dictLen))
}
