package encoding

import (
	"encoding/binary"
	"strings"
)

// Length-hiding padding against BREACH: a random amount of padding makes a
// response's length stop telling how well a guessed secret compressed. Only
// the codings with a place for ignored bytes can be padded:
//
//   - zstd: a skippable frame (RFC 8878 §3.1.2) before the data frame, which
//     decoders step over; any zstd codec can be padded this way.
//   - gzip: the header's comment field (RFC 1952 §2.3.1, FCOMMENT), which
//     decoders ignore; only through the built-in Gzip, whose writer exposes
//     the header, and at most 511 bytes of it (maxGzipComment).
//   - br: the format has metadata meta-blocks (RFC 7932 §9.2) that decoders
//     skip, but they must be emitted by the encoder inside its bit stream
//     (the stream header is not byte aligned), and andybalholm/brotli does
//     not expose that: unpadded.
//   - deflate (zlib): RFC 1950 has no field for ignored bytes: unpadded.

// zstdSkippableMagic is the first of the sixteen skippable-frame magic
// numbers 0x184D2A50..0x184D2A5F (RFC 8878 §3.1.2).
const zstdSkippableMagic = 0x184D2A50

// padText is the padding content of gzip comments: ASCII, so the writer
// stores it without conversion (RFC 1952 comments are ISO 8859-1, NUL
// terminated, so NUL itself is not allowed).
var padText = strings.Repeat(" ", maxGzipComment)

// maxGzipComment caps gzip padding: Go's compress/gzip reader, like other
// small-buffer decoders, rejects header strings of 512 bytes or more with
// their NUL.
const maxGzipComment = 511

// canPad reports whether responses in p's coding can be padded.
func (p *encoderPool) canPad() bool {
	return p.codec == Gzip() || p.coding == "zstd"
}

// appendPadding appends n bytes of padding that decoders of coding skip and
// returns the extended dst, or dst unchanged when coding has no padding
// that can stand before its data (only zstd has one). A zstd skippable frame
// has an 8-byte header, so the padding is 8+n bytes long.
func appendPadding(dst []byte, coding string, n int) []byte {
	if coding != "zstd" || n < 0 || uint64(n) > 1<<32-1 {
		return dst
	}
	dst = binary.LittleEndian.AppendUint32(dst, zstdSkippableMagic)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(n))
	for range n {
		dst = append(dst, 0)
	}
	return dst
}

// encodePadded is encode with pad bytes of padding where the coding allows
// it (see canPad): a zstd skippable frame before the frame, a gzip comment
// of pad bytes (at most maxGzipComment). Other codings are encoded unpadded.
func (p *encoderPool) encodePadded(dst, src []byte, pad int) ([]byte, error) {
	switch {
	case pad <= 0 || !p.canPad():
		return p.encode(dst, src)
	case p.coding == "zstd":
		return p.encode(appendPadding(dst, "zstd", pad), src)
	case p.codec == gzipOwn && ownEncodes(p.level, len(src)):
		return gzipBuiltin.appendOwn(dst, src, padText[:min(pad, maxGzipComment)]), nil
	default:
		return p.encodeStreaming(dst, src, pad)
	}
}

// setGzipComment gives a gzip stream that has not started a comment of n
// bytes, at most maxGzipComment; it does nothing to other Writers.
func setGzipComment(wr Writer, n int) {
	if z, ok := wr.(gzipWriter); ok && n > 0 {
		z.Comment = padText[:min(n, maxGzipComment)]
	}
}
