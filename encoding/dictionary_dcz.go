package encoding

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// dczMagic opens every dcz body (RFC 9842 §5): the header of a zstd
// skippable frame, magic 0x184D2A5E and length 32, both little-endian, so
// that a plain zstd decoder skips the hash that follows.
var dczMagic = [8]byte{0x5e, 0x2a, 0x4d, 0x18, 0x20, 0x00, 0x00, 0x00}

// DCZHeaderLen is the length of the header before a dcz body's zstd frame:
// the 8-byte magic and the dictionary's 32-byte SHA-256 (RFC 9842 §5).
const DCZHeaderLen = len(dczMagic) + sha256.Size

// RFC 9842 §5: a client must decode windows of up to 8 MB or 1.25 times
// the dictionary, whichever is greater, and at most 128 MB; a window above
// that it may reject.
const (
	dczMinWindowLimit = 8 << 20
	dczMaxWindowLimit = 128 << 20
)

// dczWindow returns the window for a dictionary of dictLen bytes: the
// largest power of two (the only sizes klauspost's encoder takes) within
// the limit RFC 9842 §5 sets for it. A new version may grow by the window
// less the dictionary before the dictionary falls out of reach.
func dczWindow(dictLen int) int {
	limit := min(max(dczMinWindowLimit, dictLen+dictLen/4), dczMaxWindowLimit)
	w := dczMinWindowLimit
	for w*2 <= limit {
		w *= 2
	}
	return w
}

// dczEncoderWindow is the window our encoders use with a dictionary of
// dictLen bytes: enough for the dictionary and a new version twice its
// size, within dczWindow. Encoder memory follows the window (klauspost
// allocates its history up front: 12.5 MB per dictionary with an 8 MB
// window, measured), while a delta of a new build needs no more than the
// dictionary and the build. A body beyond the window still decodes; only
// its matches into the dictionary stop once the window is past.
func dczEncoderWindow(dictLen int) int {
	w := 64 << 10
	for w < 2*dictLen && w < dczWindow(dictLen) {
		w *= 2
	}
	return min(w, dczWindow(dictLen))
}

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
		level = defaultZstdLevel
	}
	if err := checkZstdLevel(level); err != nil {
		return dst, err
	}
	e, err := d.shared[zstd.EncoderLevelFromZstd(level)]()
	if err != nil {
		return dst, fmt.Errorf("encoding: dcz: %w", err)
	}
	return e.EncodeAll(src, AppendDCZHeader(dst, d)), nil
}

// ErrDCZHeader is returned by DecodeDCZ for a body whose header is not a dcz
// header or names another dictionary.
var ErrDCZHeader = errors.New("encoding: dcz: header does not name the dictionary")

// DecodeDCZ decodes a whole dcz body compressed with d, refusing one that
// decodes to more than maxSize bytes or needs a window beyond what RFC 9842
// §5 lets it use. It is for tests and tools; a server only encodes.
func DecodeDCZ(body []byte, d *Dictionary, maxSize int) ([]byte, error) {
	if len(body) < DCZHeaderLen || [8]byte(body[:8]) != dczMagic || [sha256.Size]byte(body[8:DCZHeaderLen]) != d.hash {
		return nil, ErrDCZHeader
	}
	limit := min(max(dczMinWindowLimit, d.Len()+d.Len()/4), dczMaxWindowLimit)
	dec, err := zstd.NewReader(nil, zstd.WithDecoderDictRaw(0, d.raw), zstd.WithDecoderConcurrency(1),
		// klauspost applies the memory bound to the window too.
		zstd.WithDecoderMaxWindow(uint64(limit)), zstd.WithDecoderMaxMemory(uint64(max(maxSize, limit))))
	if err != nil {
		return nil, fmt.Errorf("encoding: dcz: %w", err)
	}
	defer dec.Close()
	out, err := dec.DecodeAll(body[DCZHeaderLen:], nil)
	if err != nil {
		return nil, fmt.Errorf("encoding: dcz: %w", err)
	}
	if len(out) > maxSize {
		return nil, fmt.Errorf("encoding: dcz: body decodes to more than %d bytes", maxSize)
	}
	return out, nil
}

// dczCodec is the dcz coding with one dictionary, as a Codec so that the
// middleware pools its streaming encoders like any other coding's.
type dczCodec struct{ d *Dictionary }

func (dczCodec) Name() string { return "dcz" }

func (dczCodec) Levels() (min, max, def int) { return 1, 22, defaultZstdLevel }

// NewWriter returns a streaming dcz encoder: the header goes out with the
// first bytes, then a zstd stream with the dictionary and a window within
// RFC 9842 §5's limit for it.
func (c dczCodec) NewWriter(w io.Writer, level int) (Writer, error) {
	if err := checkZstdLevel(level); err != nil {
		return nil, err
	}
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)),
		zstd.WithWindowSize(dczEncoderWindow(c.d.Len())), zstd.WithEncoderConcurrency(1),
		zstd.WithLowerEncoderMem(true), zstd.WithEncoderCRC(false), zstd.WithEncoderDictRaw(0, c.d.raw))
	if err != nil {
		return nil, fmt.Errorf("encoding: dcz: %w", err)
	}
	dw := &dczWriter{enc: e, header: [DCZHeaderLen]byte(AppendDCZHeader(nil, c.d))}
	dw.Reset(w)
	return dw, nil
}

func (c dczCodec) AppendEncode(dst, src []byte, level int) ([]byte, error) {
	return AppendDCZ(dst, src, c.d, level)
}

// Pad writes the dcz header, then a zstd skippable frame of n bytes (n+8
// with its header) before the frame wr will write, as Zstd's Pad does.
func (dczCodec) Pad(wr Writer, dst io.Writer, n int) error {
	if err := checkPad("dcz", n); err != nil {
		return err
	}
	dw, ok := wr.(*dczWriter)
	if !ok {
		return fmt.Errorf("encoding: dcz: cannot pad a %T", wr)
	}
	if err := dw.start(); err != nil {
		return err
	}
	return writePadding(dst, n, appendSkippableFrame)
}

// AppendEncodePadded is AppendEncode with a skippable frame of n bytes
// between the header and the frame.
func (c dczCodec) AppendEncodePadded(dst, src []byte, level, n int) ([]byte, error) {
	if err := checkZstdLevel(level); err != nil {
		return dst, err
	}
	if err := checkPad("dcz", n); err != nil {
		return dst, err
	}
	e, err := c.d.shared[zstd.EncoderLevelFromZstd(level)]()
	if err != nil {
		return dst, fmt.Errorf("encoding: dcz: %w", err)
	}
	return e.EncodeAll(src, appendSkippableFrame(AppendDCZHeader(dst, c.d), n)), nil
}

// dczWriter is a zstd stream encoder that writes the dcz header before the
// frame.
type dczWriter struct {
	enc     *zstd.Encoder
	header  [DCZHeaderLen]byte
	dst     io.Writer
	started bool
}

// start writes the header, once per stream.
func (w *dczWriter) start() error {
	if w.started {
		return nil
	}
	w.started = true
	_, err := w.dst.Write(w.header[:])
	return err
}

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

// Reset starts a new stream to dst; Reset(nil) drops the destination.
func (w *dczWriter) Reset(dst io.Writer) {
	w.dst, w.started = dst, false
	w.enc.Reset(dst)
}
