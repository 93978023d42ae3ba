package zstd

import (
	"github.com/squeezehttp/squeeze/internal/deflate"
)

// Encoder compresses one body known whole into a zstd frame (RFC 8878) of a
// single block. It is made for small HTTP responses, where a general-purpose
// zstd encoder spends most of its time on the block's entropy tables. Its
// matches come from deflate.WholeEncoder's hash tables, found straight into
// sequences the way zstd's double-fast strategy finds them (match.go); its
// literals are Huffman-coded, the code's weights described with an FSE table
// built for them or a static one, whichever is smaller (or directly); its
// sequences are coded with the predefined FSE tables (§3.1.1.3.2.2), which
// cost nothing to describe or build, or from 32 sequences up with tables
// built for the body where the estimate says they pay. Offsets that repeat one of the last three are sent as
// repeat codes (§3.1.1.5).
//
// The frame is single-segment, with the body's size and no checksum: a
// decoder needs no window beyond the body.
//
// An Encoder is not safe for concurrent use; the zero value is ready to use. It
// keeps fixed-size tables (deflate.WholeEncoder's hash tables and its own
// counts and tables) and buffers that grow with the bodies.
type Encoder struct {
	m deflate.WholeEncoder // its hash tables, reused across bodies
	blockCoder
}

// blockCoder codes one block's matches and literals (RFC 8878
// §3.1.1.3): what the whole-body Encoder and the StreamEncoder share.
type blockCoder struct {
	seqs    []lzSeq     // the block's matches
	codes   []seqCode   // and as the bit stream takes them
	lits    []byte      // the block's literals, in order
	freq    [256]uint32 // their counts
	lens    [256]uint8  // the literal code's lengths
	huff    [256]uint32 // per literal its code, and its length << 16
	weights [256]byte   // the literal code's weights (the last one implied)
	hb      deflate.HuffBuilder
	// The sequences' code counts and the tables built for them, by kind.
	counts [3][64]uint32
	norm   [3][64]int16
	tables [3]fseEncoder
	// weightsTable is the literal code weights' table when one is built
	// for them.
	weightsTable fseEncoder
	// rep holds the last three offsets as the decoder keeps them, across
	// the blocks of a frame (RFC 8878 §3.1.1.5).
	rep [3]uint32
	// bestTables has the sequence tables built to the accuracy that prices
	// lowest (appendBestSequenceTables), for BestEncoder.
	bestTables bool
}

// zstdStartRep is the last offsets a frame starts with (RFC 8878 §3.1.1.5).
var zstdStartRep = [3]uint32{1, 4, 8}

const (
	// MaxBody is the longest body a Encoder takes: the most one
	// block holds (RFC 8878 §3.1.1.2.4).
	MaxBody = 128 << 10
	// zstdMaxDirect is the largest literal that direct weights describe
	// (RFC 8878 §4.2.1.1).
	zstdMaxDirect = 128
	// zstdMaxHuffBits is the longest literal code (RFC 8878 §4.2.1).
	zstdMaxHuffBits = 11
	// zstdMinHuff is the fewest literals worth a Huffman code: below it the
	// code's description outweighs what it saves.
	zstdMinHuff = 32
	// zstdMaxMatch bounds a match's length: code 51's reach (RFC 8878
	// §3.1.1.3.2.1.1), far above DEFLATE's 258, which long runs need (a
	// run of zeros takes far fewer matches than at 258 bytes each).
	zstdMaxMatch = 65536
)

// Append compresses src, of at most MaxBody bytes, and appends the
// zstd frame to dst. src must not overlap dst's spare capacity.
func (e *Encoder) Append(dst, src []byte) []byte {
	if len(src) > MaxBody {
		panic("deflate: Encoder body above 128 KiB")
	}
	dst = appendZstdFrameHeader(dst, len(src), false)
	e.match(src)
	e.gatherLiterals(src)
	e.rep = zstdStartRep
	return e.appendBlock(dst, src, true)
}

// appendBlock appends the block of src, whose matches are in e.seqs and
// literals in e.lits, the
// frame's last when last: its header once its size is known, a raw block
// when coding does not make it smaller (RFC 8878 §3.1.1.2), which leaves
// the decoder's last offsets as they were.
func (e *blockCoder) appendBlock(dst, src []byte, last bool) []byte {
	rep := e.rep
	start := len(dst)
	dst = append(dst, 0, 0, 0)
	dst = e.appendLiterals(dst)
	dst = e.appendSequences(dst)
	size, kind := len(dst)-start-3, zstdBlockCompressed
	if size >= len(src) {
		dst = append(dst[:start+3], src...)
		size, kind = len(src), zstdBlockRaw
		e.rep = rep
	}
	h := kind<<1 | uint32(size)<<3
	if last {
		h |= 1 // Last_Block
	}
	dst[start], dst[start+1], dst[start+2] = byte(h), byte(h>>8), byte(h>>16)
	return dst
}

// Block types (RFC 8878 §3.1.1.2.2).
const (
	zstdBlockRaw        uint32 = 0
	zstdBlockRLE        uint32 = 1
	zstdBlockCompressed uint32 = 2
)

// appendZstdFrameHeader appends the magic number and a single-segment frame
// header for a body of n bytes, with no dictionary, and with the flag of a
// Content_Checksum after the last block when checksum (RFC 8878 §3.1.1.1).
func appendZstdFrameHeader(dst []byte, n int, checksum bool) []byte {
	dst = append(dst, 0x28, 0xb5, 0x2f, 0xfd)
	fhd := byte(1 << 5) // Single_Segment_Flag
	if checksum {
		fhd |= 1 << 2
	}
	switch {
	case n < 256:
		return append(dst, fhd, byte(n))
	case n < 256+65536:
		n -= 256 // a 2-byte Frame_Content_Size is offset by 256
		return append(dst, 1<<6|fhd, byte(n), byte(n>>8))
	default:
		return append(dst, 2<<6|fhd, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
	}
}
