package benchmarks

import (
	"compress/flate"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/CAFxX/httpcompression"
	hczstd "github.com/CAFxX/httpcompression/contrib/klauspost/zstd"
	"github.com/andybalholm/brotli"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
	"github.com/squeezehttp/squeeze/encoding"
)

// encodingMinSize is every middleware's MinSize, so that all of them compress
// the smallest body of the table (1 KB) and none compresses less.
const encodingMinSize = 1 << 10

// encodingCoding is one content coding of BenchmarkMiddleware, with the same
// codec and level in every implementation that offers it.
type encodingCoding struct {
	name  string         // the Accept-Encoding token
	codec encoding.Codec // squeeze's
	level int            // in squeeze's terms; the peers' equivalents are in peers
	// decode opens what the coding produced, to check it against the body.
	decode func(io.Reader) (io.Reader, error)
	// usual returns the library encoder the way most code uses it: a pooled
	// writer with default options, Reset onto each response.
	usual func() (resetWriter, error)
	peers []encodingPeer
}

// encodingPeer is another project's compression middleware.
type encodingPeer struct {
	name string
	wrap func() (func(http.Handler) http.Handler, error)
	// decode, when set, replaces the coding's: chi's "deflate" is raw
	// DEFLATE, not the zlib format RFC 9110 §8.4.1.2 names.
	decode func(io.Reader) (io.Reader, error)
}

// resetWriter is a streaming encoder that can start over on a new output.
type resetWriter interface {
	io.WriteCloser
	Reset(io.Writer)
}

// encodingCodings are the codings of BenchmarkMiddleware and their level
// mapping: zstd level 3 is klauspost's SpeedDefault (gzhttp's level 2,
// httpcompression's default); brotli quality 4; gzip and deflate level 5.
func encodingCodings() []encodingCoding {
	return []encodingCoding{
		{
			name: "zstd", codec: encoding.Zstd(), level: 3,
			decode: func(r io.Reader) (io.Reader, error) {
				d, err := zstd.NewReader(r)
				if err != nil {
					return nil, err
				}
				return d.IOReadCloser(), nil
			},
			usual: func() (resetWriter, error) { return zstd.NewWriter(nil) },
			peers: []encodingPeer{
				{name: "gzhttp", wrap: gzhttpWrap(true)},
				{name: "httpcompression", wrap: func() (func(http.Handler) http.Handler, error) {
					c, err := hczstd.New(zstd.WithEncoderLevel(zstd.SpeedDefault))
					if err != nil {
						return nil, err
					}
					return httpcompression.Adapter(httpcompression.ZstandardCompressor(c), httpcompression.MinSize(encodingMinSize))
				}},
			},
		},
		{
			name: "br", codec: encoding.Brotli(), level: 4,
			decode: func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
			usual:  func() (resetWriter, error) { return brotli.NewWriterLevel(nil, 4), nil },
			peers: []encodingPeer{
				{name: "httpcompression", wrap: func() (func(http.Handler) http.Handler, error) {
					return httpcompression.Adapter(httpcompression.BrotliCompressionLevel(4), httpcompression.MinSize(encodingMinSize))
				}},
			},
		},
		{
			name: "gzip", codec: encoding.Gzip(), level: 5,
			decode: func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
			usual:  func() (resetWriter, error) { return gzip.NewWriterLevel(nil, 5) },
			peers: []encodingPeer{
				{name: "gzhttp", wrap: gzhttpWrap(false)},
				{name: "httpcompression", wrap: func() (func(http.Handler) http.Handler, error) {
					return httpcompression.Adapter(httpcompression.GzipCompressionLevel(5), httpcompression.MinSize(encodingMinSize))
				}},
				{name: "chi", wrap: func() (func(http.Handler) http.Handler, error) { return middleware.Compress(5), nil }},
			},
		},
		{
			name: "deflate", codec: encoding.Deflate(), level: 5,
			decode: func(r io.Reader) (io.Reader, error) { return zlib.NewReader(r) },
			usual:  func() (resetWriter, error) { return zlib.NewWriterLevel(nil, 5) },
			peers: []encodingPeer{
				{name: "httpcompression", wrap: func() (func(http.Handler) http.Handler, error) {
					return httpcompression.Adapter(httpcompression.DeflateCompressionLevel(5), httpcompression.MinSize(encodingMinSize))
				}},
				{
					name: "chi", wrap: func() (func(http.Handler) http.Handler, error) { return middleware.Compress(5), nil },
					decode: func(r io.Reader) (io.Reader, error) { return flate.NewReader(r), nil },
				},
			},
		},
	}
}

// gzhttpWrap returns a constructor of gzhttp's middleware with the table's
// MinSize and levels, offering zstd only when zstdOn (gzip is always on).
func gzhttpWrap(zstdOn bool) func() (func(http.Handler) http.Handler, error) {
	return func() (func(http.Handler) http.Handler, error) {
		wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(encodingMinSize), gzhttp.CompressionLevel(5),
			gzhttp.EnableZstd(zstdOn), gzhttp.ZstdCompressionLevel(int(zstd.SpeedDefault)))
		if err != nil {
			return nil, err
		}
		return func(h http.Handler) http.Handler { return wrap(h) }, nil
	}
}

// squeezeWrap returns squeeze's middleware offering only c.
func squeezeWrap(c encodingCoding) (func(http.Handler) http.Handler, error) {
	m, err := encoding.New(encoding.Config{
		Codings: []encoding.Coding{{Codec: c.codec, Level: c.level}},
		MinSize: encodingMinSize,
	})
	if err != nil {
		return nil, err
	}
	return m.Handler, nil
}

// bareUsual returns the "bare" implementation: c's library encoder used
// directly the usual way (pooled writer, Reset, Write, Close), the work every
// peer middleware wraps.
func bareUsual(c encodingCoding) (func(w io.Writer, body []byte) error, error) {
	if _, err := c.usual(); err != nil {
		return nil, fmt.Errorf("%s: %w", c.name, err)
	}
	var pool sync.Pool
	open := func(w io.Writer) (resetWriter, error) {
		enc, err := c.usual()
		if err != nil {
			return nil, err
		}
		enc.Reset(w)
		return enc, nil
	}
	return func(w io.Writer, body []byte) error { return encodePooled(&pool, w, body, open) }, nil
}

// bareCodec returns the "codec" implementation: squeeze's codec used
// directly for the work its middleware does with a body written in one call
// without Content-Length: a one-shot AppendEncode up to the buffer size, a
// pooled streaming Writer past it.
func bareCodec(c encodingCoding) (func(w io.Writer, body []byte) error, error) {
	once, ok := c.codec.(encoding.AppendEncoder)
	if !ok {
		return nil, fmt.Errorf("%s: no one-shot path", c.name)
	}
	var out []byte
	var pool sync.Pool
	open := func(w io.Writer) (resetWriter, error) { return c.codec.NewWriter(w, c.level) }
	return func(w io.Writer, body []byte) error {
		if len(body) < encoding.DefaultBufferSize {
			var err error
			if out, err = once.AppendEncode(out[:0], body, c.level); err != nil {
				return err
			}
			_, err = w.Write(out)
			return err
		}
		return encodePooled(&pool, w, body, open)
	}, nil
}

// encodePooled writes body to w through a streaming encoder from pool, or
// one that open makes onto w when the pool is empty, and puts the encoder
// back, Reset(nil), whatever happens.
func encodePooled(pool *sync.Pool, w io.Writer, body []byte, open func(io.Writer) (resetWriter, error)) error {
	enc, _ := pool.Get().(resetWriter)
	if enc == nil {
		var err error
		if enc, err = open(w); err != nil {
			return err
		}
	} else {
		enc.Reset(w)
	}
	defer func() {
		enc.Reset(nil)
		pool.Put(enc)
	}()
	if _, err := enc.Write(body); err != nil {
		return err
	}
	return enc.Close()
}
