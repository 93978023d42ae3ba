package dictionary

import (
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// dczMagic opens every dcz body (RFC 9842 §5): the header of a zstd
// skippable frame, magic 0x184D2A5E and length 32, both little-endian, so
// that a plain zstd decoder skips the hash that follows.
var dczMagic = [8]byte{0x5e, 0x2a, 0x4d, 0x18, 0x20, 0x00, 0x00, 0x00}

// DCZHeaderLen is the length of the header before a dcz body's zstd frame:
// the 8-byte magic and the dictionary's 32-byte SHA-256 (RFC 9842 §5).
const DCZHeaderLen = 40

// AppendDCZHeader appends the 40-byte header of a dcz body compressed with d.
func AppendDCZHeader(dst []byte, d *Dictionary) []byte {
	dst = append(dst, dczMagic[:]...)
	return append(dst, d.hash[:]...)
}

// AppendDCZ appends to dst src encoded as dcz with d (RFC 9842 §5): the
// header, then one zstd frame that uses d as a raw-content dictionary, at
// zstd level (1..22, 0 for 3). The frame carries no dictionary ID, which
// raw dictionaries do not have, and no checksum, as Zstd's frames.
func AppendDCZ(dst, src []byte, d *Dictionary, level int) ([]byte, error) {
	if level == 0 {
		level = defaultLevel
	}
	if err := checkLevel(level); err != nil {
		return dst, err
	}
	e, err := d.shared[zstd.EncoderLevelFromZstd(level)]()
	if err != nil {
		return dst, fmt.Errorf("dictionary: dcz: %w", err)
	}
	return e.EncodeAll(src, AppendDCZHeader(dst, d)), nil
}

// defaultLevel is the zstd level of dcz when none is given, zstd's own.
const defaultLevel = 3

// checkLevel reports a zstd level outside 1..22 as an error.
func checkLevel(level int) error {
	if level < 1 || level > 22 {
		return fmt.Errorf("dictionary: dcz: zstd level %d outside 1..22", level)
	}
	return nil
}
