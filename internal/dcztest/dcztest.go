// Package dcztest decodes dcz bodies (RFC 9842 §5) for the tests of the
// packages that make them: a server only encodes.
package dcztest

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// magic opens every dcz body: a zstd skippable frame header, magic
// 0x184D2A5E and length 32, both little-endian.
var magic = []byte{0x5e, 0x2a, 0x4d, 0x18, 0x20, 0x00, 0x00, 0x00}

// headerLen is the magic and the dictionary's SHA-256.
const headerLen = 8 + sha256.Size

// ErrHeader is returned by Decode for a body whose header is not a dcz
// header or names another dictionary.
var ErrHeader = errors.New("dcztest: header does not name the dictionary")

// RFC 9842 §5: a client must decode windows of up to 8 MB or 1.25 times
// the dictionary, whichever is greater, and at most 128 MB.
const (
	minWindowLimit = 8 << 20
	maxWindowLimit = 128 << 20
)

// Decode decodes a whole dcz body compressed with the raw dictionary dict,
// refusing one that decodes to more than maxSize bytes or needs a window
// beyond what RFC 9842 §5 lets it use.
func Decode(body, dict []byte, maxSize int) ([]byte, error) {
	hash := sha256.Sum256(dict)
	if len(body) < headerLen || !bytes.Equal(body[:8], magic) || !bytes.Equal(body[8:headerLen], hash[:]) {
		return nil, ErrHeader
	}
	limit := min(max(minWindowLimit, len(dict)+len(dict)/4), maxWindowLimit)
	dec, err := zstd.NewReader(nil, zstd.WithDecoderDictRaw(0, dict), zstd.WithDecoderConcurrency(1),
		// klauspost applies the memory bound to the window too.
		zstd.WithDecoderMaxWindow(uint64(limit)), zstd.WithDecoderMaxMemory(uint64(max(maxSize, limit))))
	if err != nil {
		return nil, fmt.Errorf("dcztest: %w", err)
	}
	defer dec.Close()
	out, err := dec.DecodeAll(body[headerLen:], nil)
	if err != nil {
		return nil, fmt.Errorf("dcztest: %w", err)
	}
	if len(out) > maxSize {
		return nil, fmt.Errorf("dcztest: body decodes to more than %d bytes", maxSize)
	}
	return out, nil
}
