package encoding

import (
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// RFC 9659 §3: a zstd content coding must not need a window above 8 MB, the
// most that a recipient is required to support.
const zstdMaxWindow = 8 << 20

// zstdStreamWindow is the window of streaming encoders. Their memory
// follows it (klauspost allocates the history up front): a pooled encoder
// keeps 2.8 MB with 1 MB, 3.8 MB with 2 MB, 10 MB with 8 MB
// (BenchmarkRetainedMemory). Streams are the bodies too long to buffer, for
// which matches more than 1 MB back are rare.
const zstdStreamWindow = 1 << 20

// zstdSmallBody is the largest body the one-shot path encodes with the
// small-window encoder: up to here a larger window finds nothing more (the
// whole body fits), and the smaller one is cheaper to start: 9 % at 1 KB
// (BenchmarkZstdSmallBody in the benchmarks module), same bytes.
const zstdSmallBody = 128 << 10

// zstdCodec is the built-in zstd: klauspost/compress/zstd.
type zstdCodec struct {
	// oneShot holds, per speed and per size class, a zstd.Encoder shared by
	// every one-shot encode (EncodeAll is safe for concurrent use), made on
	// first use.
	oneShot [zstd.SpeedBestCompression + 1][2]func() (*zstd.Encoder, error)
}

var zstdBuiltin = sync.OnceValue(func() *zstdCodec {
	c := new(zstdCodec)
	for speed := zstd.SpeedFastest; speed <= zstd.SpeedBestCompression; speed++ {
		c.oneShot[speed][0] = sync.OnceValues(func() (*zstd.Encoder, error) {
			return zstd.NewWriter(nil, zstd.WithEncoderLevel(speed), zstd.WithEncoderCRC(false),
				zstd.WithWindowSize(zstdSmallBody), zstd.WithLowerEncoderMem(true))
		})
		c.oneShot[speed][1] = sync.OnceValues(func() (*zstd.Encoder, error) {
			return zstd.NewWriter(nil, zstd.WithEncoderLevel(speed), zstd.WithEncoderCRC(false),
				zstd.WithWindowSize(zstdMaxWindow), zstd.WithLowerEncoderMem(true))
		})
	}
	return c
})

// Zstd returns the zstd codec (RFC 8878, token "zstd"), built on
// github.com/klauspost/compress/zstd. Its levels are zstd's familiar 1..22,
// mapped onto the library's four speeds as zstd.EncoderLevelFromZstd does:
// 1 fastest, 2..5 default, 6..9 better, 10..22 best; the default is 3.
//
// Whatever the level, no frame needs a window above 8 MB (RFC 9659 §3):
// streams use a 1 MB window, and a pooled streaming encoder keeps about
// 2.8 MB at level 3 (measured with BenchmarkRetainedMemory). Bodies known
// whole are encoded with EncodeAll on encoders shared by all responses (a
// 128 KB window with klauspost's lower-memory tables up to 128 KB, 8 MB above),
// into a single-segment frame that needs no window beyond the body; they
// keep no memory per response.
//
// Frames carry no content checksum (RFC 8878 §3.1.1, optional): the
// transport already protects the bytes, and each response is 4 bytes
// shorter (575 instead of 579 for a 1 KB JSON reply).
func Zstd() Codec { return zstdBuiltin() }

func (*zstdCodec) Name() string { return "zstd" }

func (*zstdCodec) Levels() (min, max, def int) { return 1, 22, 3 }

func (*zstdCodec) NewWriter(w io.Writer, level int) (Writer, error) {
	if err := checkZstdLevel(level); err != nil {
		return nil, err
	}
	// One goroutine per response is the handler's: concurrency 1 keeps the
	// encoder synchronous, with no goroutines of its own.
	e, err := zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)),
		zstd.WithWindowSize(zstdStreamWindow), zstd.WithEncoderConcurrency(1),
		zstd.WithLowerEncoderMem(true), zstd.WithEncoderCRC(false))
	if err != nil {
		return nil, fmt.Errorf("encoding: zstd: %w", err)
	}
	return e, nil
}

// AppendEncode encodes src as one zstd frame appended to dst, with an
// encoder shared by all callers.
func (c *zstdCodec) AppendEncode(dst, src []byte, level int) ([]byte, error) {
	if err := checkZstdLevel(level); err != nil {
		return dst, err
	}
	size := 0
	if len(src) > zstdSmallBody {
		size = 1
	}
	e, err := c.oneShot[zstd.EncoderLevelFromZstd(level)][size]()
	if err != nil {
		return dst, fmt.Errorf("encoding: zstd: %w", err)
	}
	return e.EncodeAll(src, dst), nil
}

func checkZstdLevel(level int) error {
	if level < 1 || level > 22 {
		return fmt.Errorf("encoding: zstd: level %d outside 1..22", level)
	}
	return nil
}
