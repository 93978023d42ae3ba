package encoding

import (
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
)

// gzipCodec is the built-in gzip: klauspost/compress/gzip.
type gzipCodec struct{}

// Gzip returns the gzip codec (RFC 9110 §8.4.1.3, RFC 1952), built on
// github.com/klauspost/compress/gzip. Levels 1 (fastest) to 9 (smallest),
// default 5. A pooled encoder keeps about ? KB at level 5
// (measured with BenchmarkRetainedMemory), whatever the bodies' sizes.
func Gzip() Codec { return gzipCodec{} }

func (gzipCodec) Name() string { return "gzip" }

func (gzipCodec) Levels() (min, max, def int) { return 1, 9, 5 }

func (gzipCodec) NewWriter(w io.Writer, level int) (Writer, error) {
	z, err := gzip.NewWriterLevel(w, level)
	if err != nil {
		return nil, fmt.Errorf("encoding: gzip: %w", err)
	}
	return z, nil
}

// deflateCodec is the built-in deflate: klauspost/compress/zlib.
type deflateCodec struct{}

// Deflate returns the deflate codec, which RFC 9110 §8.4.1.2 defines as
// the zlib format (RFC 1950) around DEFLATE data, not raw DEFLATE; built on
// github.com/klauspost/compress/zlib. Levels 1 to 9, default 5. A pooled
// encoder keeps about ? KB at level 5 (BenchmarkRetainedMemory).
func Deflate() Codec { return deflateCodec{} }

func (deflateCodec) Name() string { return "deflate" }

func (deflateCodec) Levels() (min, max, def int) { return 1, 9, 5 }

func (deflateCodec) NewWriter(w io.Writer, level int) (Writer, error) {
	z, err := zlib.NewWriterLevel(w, level)
	if err != nil {
		return nil, fmt.Errorf("encoding: deflate: %w", err)
	}
	return z, nil
}
