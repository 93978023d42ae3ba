package encoding

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
)

// flateCodec is the shared shape of the built-in gzip and deflate: the same
// DEFLATE encoder (klauspost/compress/flate) in two framings.
type flateCodec struct {
	name      string
	newWriter func(w io.Writer, level int) (Writer, error)
	// whole pools, per level, the writers of one-shot encodes.
	whole [flate.BestCompression + 1]sync.Pool
}

var (
	gzipBuiltin = &flateCodec{name: "gzip", newWriter: func(w io.Writer, level int) (Writer, error) {
		z, err := gzip.NewWriterLevel(w, level)
		if err != nil {
			return nil, err
		}
		z.ModTime = noTime
		return gzipWriter{z}, nil
	}}
	deflateBuiltin = &flateCodec{name: "deflate", newWriter: func(w io.Writer, level int) (Writer, error) {
		return zlib.NewWriterLevel(w, level)
	}}
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

// Gzip returns the gzip codec (RFC 9110 §8.4.1.3, RFC 1952), built on
// github.com/klauspost/compress/gzip. Levels 1 (fastest) to 9 (smallest),
// default 5. A pooled encoder keeps about 1050 KB at level 5 (790 KB at 1,
// 920 KB at 4, 1120 KB at 9), whatever the bodies' sizes (measured with
// BenchmarkRetainedMemory).
//
// Bodies known whole go through the same encoder at the level asked for.
// What else klauspost/compress offers saves little at 1 KB for what it
// costs in size (BenchmarkGzipSmallBody in the benchmarks module;
// instructions per 1 KB JSON reply counted under callgrind, level 5 against
// each; sizes on the first 1 KB and 4 KB of JSON and of minified CSS):
//
//   - level 4: 1.06x fewer instructions, +0.2..0.9 % at 1 KB, +2.6..3.9 %
//     at 4 KB;
//   - level 3: 1.17x fewer, +1.7..4.5 % at 1 KB, +4..7 % at 4 KB;
//   - the stateless encoder (flate.StatelessDeflate): 1.28x fewer,
//     +4.7..7.4 % at 1 KB, +10..12 % at 4 KB;
//   - Huffman-only: 1.8x fewer, +24..36 %.
//
// At 1 KB most of level 5's time is building the block's Huffman codes,
// which every DEFLATE block needs, not setup.
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

// AppendEncode encodes src as one gzip member (or zlib stream) appended to
// dst, with a writer pooled for one-shot use at that level.
func (c *flateCodec) AppendEncode(dst, src []byte, level int) ([]byte, error) {
	if level < flate.BestSpeed || level > flate.BestCompression {
		return dst, fmt.Errorf("encoding: %s: level %d outside 1..9", c.name, level)
	}
	out, err := encodeWhole(&c.whole[level], dst, src, 0, func(w io.Writer) (Writer, error) {
		return c.newWriter(w, level)
	})
	if err != nil {
		return dst, fmt.Errorf("encoding: %s: %w", c.name, err)
	}
	return out, nil
}
