package encoding

import (
	"encoding/binary"
	"io"
	"strings"
)

// Length-hiding padding against BREACH: a random amount of padding makes a
// response's length stop telling how well a guessed secret compressed.
// Every built-in coding has a place for bytes its decoders skip, and the
// codecs put padding for n (1 to Config.Jitter) there through Padder:
//
//   - zstd: a skippable frame (RFC 8878 §3.1.2) of n bytes before the data
//     frame: n+8 bytes with its header. dcz puts it after its own header.
//   - br: metadata meta-blocks (RFC 7932 §9.2) of n bytes in all, after the
//     stream header. That header is not byte aligned, so the stream first
//     gets an empty metadata meta-block that aligns it (a flush), which
//     adds 0 to 2 bytes more than the unpadded stream, depending on where
//     the data's bits end.
//   - gzip: the header's comment (RFC 1952 §2.3.1, FCOMMENT), n bytes and
//     its NUL: n+1 bytes. Comments stop at maxGzipComment; beyond it, the
//     longest comment and empty DEFLATE blocks as deflate has: n+14 bytes.
//   - deflate (zlib): empty DEFLATE blocks (RFC 1951 §3.2.3) after the zlib
//     header: an empty stored block (what a sync flush writes) and n+8
//     bytes more of empty blocks: n+13 bytes.

// zstdSkippableMagic is the first of the sixteen skippable-frame magic
// numbers 0x184D2A50..0x184D2A5F (RFC 8878 §3.1.2).
const zstdSkippableMagic = 0x184D2A50

// appendSkippableFrame appends a zstd skippable frame holding n zero bytes:
// n+8 bytes with its magic number and length, both little-endian.
func appendSkippableFrame(dst []byte, n int) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, zstdSkippableMagic)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(n))
	return appendZeros(dst, n)
}

// appendBrotliMetadata appends metadata meta-blocks (RFC 7932 §9.2) of
// exactly n bytes in all. They must start at a byte boundary between
// meta-blocks, and end at one. A meta-block is ISLAST 0, MNIBBLES 0 (the
// code 3), a reserved 0 bit, MSKIPBYTES and MSKIPLEN-1 in that many bytes,
// fill to the byte, then MSKIPLEN bytes of metadata: one byte with no
// metadata, two and up to 256 bytes of it with MSKIPBYTES 1.
func appendBrotliMetadata(dst []byte, n int) []byte {
	for n > 0 {
		if n <= 2 {
			dst = append(dst, 0b0110) // MSKIPBYTES 0: no metadata
			n--
			continue
		}
		skip := min(n-2, 256)
		// 6 bits of header, then MSKIPLEN-1 in the 8 bits that follow.
		v := 0b0110 | 1<<4 | uint16(skip-1)<<6
		dst = append(dst, byte(v), byte(v>>8))
		dst = appendZeros(dst, skip)
		n -= 2 + skip
	}
	return dst
}

// emptyBlockRuns maps a length from 5 to 12 bytes to the number of empty
// fixed-Huffman blocks that, followed by an empty stored block, fill it
// from a byte boundary to the next (see appendEmptyBlocks); -1 where none
// does: no run of empty blocks is 1 to 4 or 8 bytes long.
var emptyBlockRuns = [13]int8{-1, -1, -1, -1, -1, 0, 1, 2, -1, 3, 4, 5, 6}

// appendEmptyBlocks appends n bytes of empty, non-final DEFLATE blocks,
// from a byte boundary between blocks to the next; n must be 5 to 7, or 9
// or more. An empty fixed-Huffman block is 10 bits (BFINAL 0, BTYPE 01,
// the end-of-block code 0000000: RFC 1951 §3.2.6), and an empty stored
// block 3 bits, fill to the byte, then LEN 0 and NLEN 0xFFFF (§3.2.4), so
// k fixed blocks and a stored block make (10k+3+7)/8+4 bytes: 5, 6, 7, 9,
// 10, 11 and 12 for k from 0 to 6; longer paddings repeat the 5 bytes of a
// lone stored block.
func appendEmptyBlocks(dst []byte, n int) []byte {
	for n > 0 {
		size := n
		if n > 12 {
			size = 5
			if n-size == 8 {
				size = 6
			}
		}
		k := int(emptyBlockRuns[size])
		var bits uint64
		for i := range k {
			bits |= 0b010 << (10 * i) // BFINAL 0, BTYPE 01 (LSB first); EOB is zeros
		}
		for i := range (10*k + 3 + 7) / 8 { // the stored block's header bits are zeros
			dst = append(dst, byte(bits>>(8*i)))
		}
		dst = append(dst, 0, 0, 0xff, 0xff)
		n -= size
	}
	return dst
}

// appendZeros appends n zero bytes.
func appendZeros(dst []byte, n int) []byte {
	for range n {
		dst = append(dst, 0)
	}
	return dst
}

// writePadding writes to w the n-byte padding that appendPad makes, through
// a pooled buffer.
func writePadding(w io.Writer, n int, appendPad func([]byte, int) []byte) error {
	buf := getBuffer()
	defer putBuffer(buf)
	*buf = appendPad((*buf)[:0], n)
	_, err := w.Write(*buf)
	return err
}

// padText is the padding content of gzip comments: ASCII, so the writer
// stores it without conversion (RFC 1952 comments are ISO 8859-1, NUL
// terminated, so NUL itself is not allowed).
var padText = strings.Repeat(" ", maxGzipComment)

// maxGzipComment caps gzip comments: Go's compress/gzip reader, like other
// small-buffer decoders, rejects header strings of 512 bytes or more with
// their NUL.
const maxGzipComment = 511

// canPad reports whether responses in p's coding can be padded.
func (p *encoderPool) canPad() bool { return p.padder != nil }

// encodePadded is encode with padding for pad, when pad > 0 (see Padder).
func (p *encoderPool) encodePadded(dst, src []byte, pad int) ([]byte, error) {
	switch {
	case pad <= 0:
		return p.encode(dst, src)
	case p.oncePadded != nil:
		return p.oncePadded.AppendEncodePadded(dst, src, p.level, pad)
	}
	return p.encodeStreaming(dst, src, pad)
}
