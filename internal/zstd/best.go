package zstd

import (
	"encoding/binary"
	"errors"
)

// BestEncoder compresses a body known whole as small as this package can,
// for files compressed once and served many times (precompressed
// sidecars), where time matters little: one single-segment frame of
// blocks of 128 KiB, with the body's size and a checksum (RFC 8878
// §3.1.1). Its matches come from a binary-tree match finder over the whole
// body (btree.go), chosen by price-based optimal parsing, as zstd's
// btultra2 strategy does (optimal.go): each block is parsed with the
// prices of the sequences and literals the last parse chose, a few times,
// and the smallest coding kept. Its FSE tables are built to the accuracy
// that prices lowest, up to the format's limits (besttables.go).
//
// It keeps 8 bytes of tree per byte of the last body and about 10 MiB of
// hash tables and block buffers (70 MiB after a body of 8 MiB); the
// report's static-bytes part times it beside the C zstd at level 19. A
// BestEncoder is not safe for concurrent use; the zero value is ready to
// use.
type BestEncoder struct {
	blockCoder
	bt      btMatcher
	found   []lzMatch // the matches of the block's positions
	foundAt []uint32  // where each position's matches start in found
	opt     []optNode
	path    []lzMatch
	pathAt  []uint32
	// A block coded, and the smallest coding of it so far.
	out, kept []byte
	// The sequence code counts the next parse starts from.
	counts0 [3][64]uint32
}

const (
	// MaxBestBody is the longest body BestEncoder takes: its frame's
	// window is the body, and RFC 9659 §3 bounds a zstd content coding's
	// window to 8 MB.
	MaxBestBody = 8 << 20
	// bestBlock is the most a block holds (RFC 8878 §3.1.1.2.4).
	bestBlock = 128 << 10
	// bestPasses is how many times each block is parsed: the first with
	// the last block's prices (the predefined distributions for the
	// first), each next with those of the one before.
	bestPasses = 3
)

// ErrBodyTooLarge is returned for a body longer than MaxBestBody.
var ErrBodyTooLarge = errors.New("zstd: body above 8 MiB for the best encoder")

// Append compresses src, of at most MaxBestBody bytes, and appends the
// frame to dst. It calls stop between blocks and gives up with its error
// when that is not nil.
func (e *BestEncoder) Append(dst, src []byte, stop func() error) ([]byte, error) {
	if len(src) > MaxBestBody {
		return dst, ErrBodyTooLarge
	}
	e.bestTables = true
	dst = appendZstdFrameHeader(dst, len(src), true)
	e.rep = zstdStartRep
	e.bt.reset(src)
	var prices optPrices
	e.counts0 = startCounts()
	if len(src) == 0 {
		dst = append(dst, 1, 0, 0) // Last_Block, raw, size 0
	}
	for start := 0; start < len(src); start += bestBlock {
		if stop != nil {
			if err := stop(); err != nil {
				return dst, err
			}
		}
		end := min(start+bestBlock, len(src))
		if b := src[start:end]; isRun(b) {
			// An RLE block: its byte, and the size in the header (RFC
			// 8878 §3.1.1.2.2). Its positions stay out of the tree:
			// later blocks find runs of their own.
			h := zstdBlockRLE<<1 | uint32(len(b))<<3
			if end == len(src) {
				h |= 1 // Last_Block
			}
			dst = append(dst, byte(h), byte(h>>8), byte(h>>16), b[0])
			continue
		}
		e.findMatches(start, end)
		dst = e.appendBestBlock(dst, src, start, end, &prices)
	}
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], uint32(xxhash64(src)))
	return append(dst, sum[:]...), nil
}

// findMatches fills e.found and e.foundAt with the matches of the
// positions of src[start:end], inserting each in the tree.
func (e *BestEncoder) findMatches(start, end int) {
	e.found = e.found[:0]
	e.foundAt = append(e.foundAt[:0], 0)
	skip := 0
	for p := start; p < end; p++ {
		if skip > 0 || p+4 > end {
			skip--
		} else {
			e.found, skip = e.bt.find(p, end, e.found)
		}
		e.foundAt = append(e.foundAt, uint32(len(e.found)))
	}
}

// appendBestBlock parses the block src[start:end] bestPasses times and
// appends the smallest of the codings.
func (e *BestEncoder) appendBestBlock(dst, src []byte, start, end int, prices *optPrices) []byte {
	block := src[start:end]
	last := end == len(src)
	rep := e.rep
	// The first parse's literal prices are the block's bytes, as if all
	// were literals.
	var lits [256]uint32
	for _, c := range block {
		lits[c]++
	}
	prices.setPrices(&lits, &e.counts0)
	first, keptRep := true, rep
	for range bestPasses {
		e.parse(src, start, end, rep, prices)
		e.gatherLiteralsChecked(block)
		e.rep = rep
		e.out = e.appendBlock(e.out[:0], block, last)
		if first || len(e.out) < len(e.kept) {
			first, keptRep = false, e.rep
			e.kept, e.out = e.out, e.kept
		}
		prices.setPrices(&e.freq, &e.counts)
		e.counts0 = e.counts
	}
	e.rep = keptRep
	return append(dst, e.kept...)
}

// gatherLiteralsChecked is gatherLiterals for matches that may end
// anywhere in the block, with checked copies.
func (e *BestEncoder) gatherLiteralsChecked(block []byte) {
	lits, pos := e.lits[:0], 0
	for _, s := range e.seqs {
		lits = append(lits, block[pos:pos+int(s.lits)]...)
		pos += int(s.lits + s.length)
	}
	e.lits = append(lits, block[pos:]...)
}

// isRun reports whether b is one byte repeated.
func isRun(b []byte) bool {
	for _, c := range b {
		if c != b[0] {
			return false
		}
	}
	return true
}
