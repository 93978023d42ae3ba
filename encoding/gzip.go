package encoding

import (
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"io"
	"sync"
	"time"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/squeezehttp/squeeze/internal/deflate"
)

// flateCodec is the shared shape of the built-in gzip and deflate: the same
// DEFLATE encoders in two framings.
type flateCodec struct {
	name      string
	newWriter func(w io.Writer, level int) (Writer, error)
	// frame appends src compressed by e at level in the codec's framing,
	// with a header comment of that many bytes where the framing has one,
	// and blocks bytes of empty DEFLATE blocks before the data when not 0.
	frame func(dst, src []byte, e *deflate.WholeEncoder, level, comment, blocks int) []byte
	// comments says the framing has a header comment (gzip).
	comments bool
	// whole pools, per level, the writers of one-shot encodes.
	whole [flate.BestCompression + 1]sync.Pool
	// library sends every body to klauspost (see LibraryEncoders).
	library bool
}

var (
	gzipBuiltin = &flateCodec{name: "gzip", newWriter: func(w io.Writer, level int) (Writer, error) {
		z, err := gzip.NewWriterLevel(w, level)
		if err != nil {
			return nil, err
		}
		z.ModTime = noTime
		return gzipWriter{z}, nil
	}, frame: gzipFrame, comments: true}
	deflateBuiltin = &flateCodec{name: "deflate", newWriter: func(w io.Writer, level int) (Writer, error) {
		return zlib.NewWriterLevel(w, level)
	}, frame: zlibFrame}
)

// gzipWriter is klauspost's gzip.Writer sending MTIME 0, which RFC 1952
// §2.3.1 defines as "no time stamp": klauspost itself sends the zero
// time.Time as a time in 2042 (the low 32 bits of its negative Unix time).
type gzipWriter struct{ *gzip.Writer }

// noTime is the ModTime for which a gzip.Writer sends MTIME 0.
var noTime = time.Unix(0, 0)

// Reset starts a new member to w, still without a time stamp.
func (z gzipWriter) Reset(w io.Writer) {
	z.Writer.Reset(w)
	z.ModTime = noTime
}

// appendOwn encodes src with a pooled own encoder at level in c's framing,
// with comment and blocks as frame takes them.
func (c *flateCodec) appendOwn(dst, src []byte, level, comment, blocks int) []byte {
	e := wholeEncoders.Get().(*deflate.WholeEncoder)
	defer wholeEncoders.Put(e)
	return c.frame(dst, src, e, level, comment, blocks)
}

// gzipFrame frames as a gzip member (RFC 1952 §2.3) with no name, MTIME 0,
// XFL 0 and OS 255 (unknown), as Gzip's streaming writer does, FCOMMENT
// when comment is not 0, and empty blocks before the data when blocks is
// not 0.
func gzipFrame(dst, src []byte, e *deflate.WholeEncoder, level, comment, blocks int) []byte {
	flags := byte(0)
	if comment != 0 {
		flags = 1 << 4 // FCOMMENT
	}
	dst = append(dst, 0x1f, 0x8b, 8, flags, 0, 0, 0, 0, 0, 255)
	if comment != 0 {
		dst = append(append(dst, padText[:comment]...), 0)
	}
	if blocks != 0 {
		dst = appendEmptyBlocks(dst, blocks)
	}
	dst = e.Append(dst, src, level)
	dst = binary.LittleEndian.AppendUint32(dst, crc32.ChecksumIEEE(src))
	return binary.LittleEndian.AppendUint32(dst, uint32(len(src))) // ISIZE: the length mod 2^32
}

// zlibFrame frames as RFC 1950: CMF 0x78 (DEFLATE, 32 KiB window), FLG
// 0x5e (FLEVEL 1, as zlib writes for levels 2 to 5; no dictionary; FCHECK),
// the Adler-32 last; zlib has no comment, and empty blocks come right after
// the header when blocks is not 0.
func zlibFrame(dst, src []byte, e *deflate.WholeEncoder, level, _, blocks int) []byte {
	dst = append(dst, 0x78, 0x5e)
	if blocks != 0 {
		dst = appendEmptyBlocks(dst, blocks)
	}
	dst = e.Append(dst, src, level)
	return binary.BigEndian.AppendUint32(dst, adler32.Checksum(src))
}

// Gzip returns the gzip codec (RFC 9110 §8.4.1.3, RFC 1952), built on
// github.com/klauspost/compress/gzip. Levels 1 (fastest) to 9 (smallest),
// default 5. A pooled encoder keeps its window and hash tables, about a
// megabyte at level 5 and less at lower levels, whatever the bodies' sizes
// (BenchmarkRetainedMemory measures it).
//
// A response that flushes before it outgrows the buffer, at levels up to
// 5, streams through squeeze's own DEFLATE encoder (NewStreamWriter).
// Small bodies known whole go to squeeze's own DEFLATE encoder at the
// levels and sizes where it keeps the level's promise (see Coding.Level
// and docs/levels.md); every other body, whole or streamed, is klauspost's
// at the level asked for. LibraryEncoders(Gzip()) sends every body to
// klauspost.
func Gzip() Codec { return gzipBuiltin }

// Deflate returns the deflate codec, which RFC 9110 §8.4.1.2 defines as
// the zlib format (RFC 1950) around DEFLATE data, not raw DEFLATE; built on
// github.com/klauspost/compress/zlib. Levels and memory are those of Gzip.
func Deflate() Codec { return deflateBuiltin }

func (c *flateCodec) Name() string { return c.name }

func (*flateCodec) Levels() (min, max, def int) { return flate.BestSpeed, flate.BestCompression, 5 }

func (c *flateCodec) NewWriter(w io.Writer, level int) (Writer, error) {
	if level < flate.BestSpeed || level > flate.BestCompression {
		return nil, fmt.Errorf("encoding: %s: level %d outside 1..9", c.name, level)
	}
	wr, err := c.newWriter(w, level)
	if err != nil {
		return nil, fmt.Errorf("encoding: %s: %w", c.name, err)
	}
	return wr, nil
}

// NewStreamWriter returns, at levels up to the default (5), the Writer of
// a flushed stream: squeeze's own streaming DEFLATE encoder in c's
// framing; a stream through it keeps at most 256 KiB live and 64 KiB
// released, the response included (see Streamer). Higher levels are left
// to NewWriter, and so is every level with LibraryEncoders.
func (c *flateCodec) NewStreamWriter(w io.Writer, level int) (Writer, error) {
	if level < flate.BestSpeed || level > flate.BestCompression {
		return nil, fmt.Errorf("encoding: %s: level %d outside 1..9", c.name, level)
	}
	if level > defaultGzipLevel || c.library {
		return nil, nil
	}
	return newDeflateStream(w, c.comments, level), nil
}

// AppendEncode encodes src as one gzip member (or zlib stream) appended to
// dst, with squeeze's own encoder where the rule of own.go has it serve
// the level and size, else with a klauspost writer pooled for one-shot use
// at that level. src must not overlap dst's spare capacity.
func (c *flateCodec) AppendEncode(dst, src []byte, level int) ([]byte, error) {
	if level < flate.BestSpeed || level > flate.BestCompression {
		return dst, fmt.Errorf("encoding: %s: level %d outside 1..9", c.name, level)
	}
	if !c.library && ownEncodes(level, len(src)) {
		return c.appendOwn(dst, src, level, 0, 0), nil
	}
	return c.appendStream(dst, src, level, 0)
}

// appendStream encodes src whole with a klauspost writer pooled for
// one-shot use at level, padded for pad when pad > 0.
func (c *flateCodec) appendStream(dst, src []byte, level, pad int) ([]byte, error) {
	out, err := encodeWhole(&c.whole[level], dst, src, c, pad, func(w io.Writer) (Writer, error) {
		return c.newWriter(w, level)
	})
	if err != nil {
		return dst, fmt.Errorf("encoding: %s: %w", c.name, err)
	}
	return out, nil
}

// padShape returns how c pads for n (see the list in padding.go): a header
// comment of comment bytes, and, when blocks is not 0, a sync flush (an
// empty stored block, 5 bytes) followed by blocks bytes of empty blocks.
func (c *flateCodec) padShape(n int) (comment, blocks int) {
	switch {
	case !c.comments:
		return 0, n + 8 // 8 more than n: 1 to 4 and 8 are lengths empty blocks cannot make
	case n <= maxGzipComment:
		return n, 0
	}
	return maxGzipComment, n - maxGzipComment + 8
}

// Pad pads the stream wr, a Gzip or Deflate Writer, starts for n: with a
// header comment on gzip up to maxGzipComment, else with empty DEFLATE
// blocks written to dst once a sync flush has sent the header and left the
// stream at a byte boundary between blocks.
func (c *flateCodec) Pad(wr Writer, dst io.Writer, n int) error {
	if err := checkPad(c.name, n); err != nil {
		return err
	}
	comment, blocks := c.padShape(n)
	if comment != 0 {
		z, ok := wr.(gzipWriter)
		if !ok {
			return fmt.Errorf("encoding: gzip: cannot pad a %T", wr)
		}
		z.Comment = padText[:comment]
	}
	if blocks == 0 {
		return nil
	}
	if err := wr.Flush(); err != nil {
		return fmt.Errorf("encoding: %s: %w", c.name, err)
	}
	return writePadding(dst, blocks, appendEmptyBlocks)
}

// AppendEncodePadded is AppendEncode with the padding Pad gives for n.
func (c *flateCodec) AppendEncodePadded(dst, src []byte, level, n int) ([]byte, error) {
	if level < flate.BestSpeed || level > flate.BestCompression {
		return dst, fmt.Errorf("encoding: %s: level %d outside 1..9", c.name, level)
	}
	if err := checkPad(c.name, n); err != nil {
		return dst, err
	}
	if !c.library && ownEncodes(level, len(src)) {
		comment, blocks := c.padShape(n)
		if blocks != 0 {
			blocks += 5 // the empty stored block of the streams' sync flush
		}
		return c.appendOwn(dst, src, level, comment, blocks), nil
	}
	return c.appendStream(dst, src, level, n)
}
