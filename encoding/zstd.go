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
// with 1 MB keeps a few megabytes, with RFC 9659's 8 MB several times as
// much (BenchmarkRetainedMemory). Streams are the bodies too long to buffer, for
// which matches more than 1 MB back are rare.
const zstdStreamWindow = 1 << 20

// zstdSmallBody is the largest body the one-shot path encodes with the
// small-window encoder: up to here a larger window finds nothing more (the
// whole body fits), and the smaller one is cheaper to start on small
// bodies and makes the same bytes (BenchmarkZstdSmallBody in the benchmarks
// module measures it).
const zstdSmallBody = 128 << 10

// zstdCodec is the built-in zstd: klauspost/compress/zstd.
type zstdCodec struct {
	// oneShot holds, per speed and per size class, a zstd.Encoder shared by
	// every one-shot encode (EncodeAll is safe for concurrent use), made on
	// first use.
	oneShot [zstd.SpeedBestCompression + 1][2]func() (*zstd.Encoder, error)
	// wholeStreams holds, per speed and size class, idle streaming encoders
	// for whole bodies above zstdEncodeAllMax, with the one-shot options.
	wholeStreams [zstd.SpeedBestCompression + 1][2]sync.Pool
	// library sends every body to klauspost (see LibraryEncoders).
	library bool
}

// zstdEncodeAllMax is the largest body encoded with EncodeAll. Above it a
// pooled streaming encoder told the content size makes the same bytes in
// less time on larger real assets (BenchmarkMiddleware in the benchmarks
// module, against gzhttp, which streams), while below it EncodeAll is as
// fast and keeps no encoder per response.
const zstdEncodeAllMax = 16 << 10

var zstdBuiltin = sync.OnceValue(func() *zstdCodec { return newZstdCodec(false) })

func newZstdCodec(library bool) *zstdCodec {
	c := &zstdCodec{library: library}
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
}

// Zstd returns the zstd codec (RFC 8878, token "zstd"), built on
// github.com/klauspost/compress/zstd; small bodies known whole go to
// squeeze's own encoder at the levels and sizes where it keeps the level's
// promise (see Coding.Level and docs/levels.md), and LibraryEncoders(Zstd())
// sends every body to klauspost. Its levels are
// zstd's familiar 1..22, mapped onto the library's four speeds as
// zstd.EncoderLevelFromZstd does: 1..2 fastest, 3..5 default, 6..9 better,
// 10..22 best; the default is 3.
//
// Whatever the level, no frame needs a window above 8 MB (RFC 9659 §3):
// a response that flushes before it outgrows the buffer, at levels up to
// 3, streams through squeeze's own encoder with a 32 KiB window
// (NewStreamWriter); other streams use a 1 MB window, and a pooled
// streaming encoder keeps its
// window and match tables (BenchmarkRetainedMemory measures them). Bodies known
// whole are encoded into a single-segment frame that needs no window
// beyond the body. Bodies of up to 16 KB go to EncodeAll on encoders shared by all
// responses, which keep no memory per response; above that a pooled
// streaming encoder told the content size. Both use a 128 KB window with
// klauspost's lower-memory tables up to 128 KB, 8 MB above.
//
// Where klauspost encodes a whole body, it does so at the speed the level
// maps to, with klauspost's default options for that speed: its cheaper
// settings (no entropy coding, for one) make the output more than 3 %
// larger on some content. The measurements behind that choice are in the
// benchmarks module (BenchmarkZstdSmallBody).
//
// Frames carry no content checksum (RFC 8878 §3.1.1, optional): the
// transport already protects the bytes, and each response is 4 bytes
// shorter.
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

// NewStreamWriter returns, at levels up to the default (3), the Writer of
// a flushed stream: squeeze's own streaming encoder, one frame with a
// 32 KiB window; a stream through it keeps at most 256 KiB live and
// 64 KiB released, the response included (see Streamer). Higher levels
// are left to NewWriter, and so is every level with LibraryEncoders.
func (c *zstdCodec) NewStreamWriter(w io.Writer, level int) (Writer, error) {
	if err := checkZstdLevel(level); err != nil {
		return nil, err
	}
	if level > defaultZstdLevel || c.library {
		return nil, nil
	}
	return newZstdStream(w), nil
}

// AppendEncode encodes src as one zstd frame appended to dst, with
// squeeze's own encoder where the rule of own.go has it serve the level
// and size, else with a klauspost encoder shared by all callers.
func (c *zstdCodec) AppendEncode(dst, src []byte, level int) ([]byte, error) {
	if err := checkZstdLevel(level); err != nil {
		return dst, err
	}
	size := 0
	if len(src) > zstdSmallBody {
		size = 1
	}
	speed := zstd.EncoderLevelFromZstd(level)
	if !c.library && ownZstd(level, len(src)) {
		return appendOwnZstd(dst, src), nil
	}
	if len(src) > zstdEncodeAllMax {
		return c.appendStream(dst, src, speed, size)
	}
	e, err := c.oneShot[speed][size]()
	if err != nil {
		return dst, fmt.Errorf("encoding: zstd: %w", err)
	}
	return e.EncodeAll(src, dst), nil
}

// appendStream encodes a whole body with a pooled streaming encoder. The
// content size goes in the frame header, so the frame is single-segment and
// needs no window beyond the body, as EncodeAll's are.
func (c *zstdCodec) appendStream(dst, src []byte, speed zstd.EncoderLevel, size int) ([]byte, error) {
	pool := &c.wholeStreams[speed][size]
	e, _ := pool.Get().(*zstd.Encoder)
	if e == nil {
		window := zstdSmallBody
		if size == 1 {
			window = zstdMaxWindow
		}
		var err error
		e, err = zstd.NewWriter(nil, zstd.WithEncoderLevel(speed), zstd.WithEncoderCRC(false),
			zstd.WithWindowSize(window), zstd.WithLowerEncoderMem(true), zstd.WithEncoderConcurrency(1))
		if err != nil {
			return dst, fmt.Errorf("encoding: zstd: %w", err)
		}
	}
	sink := sinkPool.Get().(*sliceWriter)
	sink.b = dst
	e.ResetContentSize(sink, int64(len(src)))
	_, err := e.Write(src)
	if err == nil {
		err = e.Close()
	}
	dst, sink.b = sink.b, nil
	sinkPool.Put(sink)
	e.Reset(nil)
	pool.Put(e)
	if err != nil {
		return dst, fmt.Errorf("encoding: zstd: %w", err)
	}
	return dst, nil
}

// Pad writes to dst, before the frame wr will write, a skippable frame of
// n bytes (n+8 with its header), which decoders step over (RFC 8878
// §3.1.2).
func (*zstdCodec) Pad(_ Writer, dst io.Writer, n int) error {
	if err := checkPad("zstd", n); err != nil {
		return err
	}
	return writePadding(dst, n, appendSkippableFrame)
}

// AppendEncodePadded is AppendEncode after a skippable frame of n bytes.
func (c *zstdCodec) AppendEncodePadded(dst, src []byte, level, n int) ([]byte, error) {
	if err := checkZstdLevel(level); err != nil {
		return dst, err
	}
	if err := checkPad("zstd", n); err != nil {
		return dst, err
	}
	out, err := c.AppendEncode(appendSkippableFrame(dst, n), src, level)
	if err != nil {
		return dst, err
	}
	return out, nil
}

func checkZstdLevel(level int) error {
	if level < 1 || level > 22 {
		return fmt.Errorf("encoding: zstd: level %d outside 1..22", level)
	}
	return nil
}
