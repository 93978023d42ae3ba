package dictionary

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
	"github.com/squeezehttp/squeeze/encoding"
)

// codec is the dcz coding with one dictionary, as an encoding.Codec, so
// that the middleware pads and one-shots it as any other coding. Its
// default level is the Server's.
type codec struct {
	d     *Dictionary
	level int
}

func (codec) Name() string { return "dcz" }

func (c codec) Levels() (min, max, def int) { return 1, 22, c.level }

// NewWriter returns a streaming dcz encoder: the header goes out with the
// first bytes, then a zstd stream with the dictionary and a window within
// RFC 9842 §5's limit for it. Its zstd encoder comes from the dictionary's
// pool, and goes back there at Reset(nil).
func (c codec) NewWriter(w io.Writer, level int) (encoding.Writer, error) {
	if err := checkLevel(level); err != nil {
		return nil, err
	}
	dw := &dczWriter{d: c.d, speed: zstd.EncoderLevelFromZstd(level), header: [DCZHeaderLen]byte(AppendDCZHeader(nil, c.d))}
	if err := dw.take(); err != nil {
		return nil, err
	}
	dw.Reset(w)
	return dw, nil
}

func (c codec) AppendEncode(dst, src []byte, level int) ([]byte, error) {
	return AppendDCZ(dst, src, c.d, level)
}

// Pad writes the dcz header, then a zstd skippable frame of n bytes (n+8
// with its header) before the frame wr will write, as encoding.Zstd's Pad
// does.
func (codec) Pad(wr encoding.Writer, dst io.Writer, n int) error {
	if err := checkPad(n); err != nil {
		return err
	}
	dw, ok := wr.(*dczWriter)
	if !ok {
		return fmt.Errorf("dictionary: dcz: cannot pad a %T", wr)
	}
	if err := dw.start(); err != nil {
		return err
	}
	_, err := dst.Write(appendSkippableFrame(nil, n))
	return err
}

// AppendEncodePadded is AppendEncode with a skippable frame of n bytes
// between the header and the frame.
func (c codec) AppendEncodePadded(dst, src []byte, level, n int) ([]byte, error) {
	if err := checkLevel(level); err != nil {
		return dst, err
	}
	if err := checkPad(n); err != nil {
		return dst, err
	}
	e, err := c.d.shared[zstd.EncoderLevelFromZstd(level)]()
	if err != nil {
		return dst, fmt.Errorf("dictionary: dcz: %w", err)
	}
	return e.EncodeAll(src, appendSkippableFrame(AppendDCZHeader(dst, c.d), n)), nil
}

// maxPad is the largest padding encoding.Padder is asked for.
const maxPad = 64 << 10

func checkPad(n int) error {
	if n < 1 || n > maxPad {
		return fmt.Errorf("dictionary: dcz: padding %d outside 1..%d", n, maxPad)
	}
	return nil
}

// appendSkippableFrame appends a zstd skippable frame (RFC 8878 §3.1.2,
// magic 0x184D2A50) holding n zero bytes: n+8 bytes in all.
func appendSkippableFrame(dst []byte, n int) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, 0x184D2A50)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(n))
	return append(dst, make([]byte, n)...)
}

// dczWriter is a zstd stream encoder that writes the dcz header before the
// frame.
type dczWriter struct {
	d       *Dictionary
	speed   zstd.EncoderLevel
	enc     *zstd.Encoder // nil after Reset(nil): back in d.streams
	header  [DCZHeaderLen]byte
	dst     io.Writer
	started bool
}

// take gives w an encoder from the dictionary's pool, or a new one.
func (w *dczWriter) take() error {
	if e, ok := w.d.streams[w.speed].Get().(*zstd.Encoder); ok {
		w.enc = e
		return nil
	}
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(w.speed),
		zstd.WithWindowSize(dczEncoderWindow(w.d.Len())), zstd.WithEncoderConcurrency(1),
		zstd.WithLowerEncoderMem(true), zstd.WithEncoderCRC(false), zstd.WithEncoderDictRaw(0, w.d.raw))
	if err != nil {
		return fmt.Errorf("dictionary: dcz: %w", err)
	}
	w.enc = e
	return nil
}

// start writes the header, once per stream.
func (w *dczWriter) start() error {
	if w.enc == nil {
		return errReleased
	}
	if w.started {
		return nil
	}
	w.started = true
	_, err := w.dst.Write(w.header[:])
	return err
}

// errReleased is what a dczWriter used after Reset(nil) returns.
var errReleased = errors.New("dictionary: dcz: write to a writer reset to nil")

func (w *dczWriter) Write(p []byte) (int, error) {
	if err := w.start(); err != nil {
		return 0, err
	}
	return w.enc.Write(p)
}

func (w *dczWriter) Flush() error {
	if err := w.start(); err != nil {
		return err
	}
	return w.enc.Flush()
}

func (w *dczWriter) Close() error {
	if err := w.start(); err != nil {
		return err
	}
	return w.enc.Close()
}

// Reset starts a new stream to dst. Reset(nil) drops the destination and
// gives the zstd encoder back to the dictionary, whose encoders a stream
// shares with the others at its speed: the middleware makes the writer per
// response, since dictionaries come and go.
func (w *dczWriter) Reset(dst io.Writer) {
	w.dst, w.started = dst, false
	if dst == nil {
		if w.enc != nil {
			w.enc.Reset(nil)
			w.d.streams[w.speed].Put(w.enc)
			w.enc = nil
		}
		return
	}
	if w.enc == nil {
		if err := w.take(); err != nil {
			return // start reports errReleased
		}
	}
	w.enc.Reset(dst)
}
