package encoding

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
)

// requestCodings is what DecodeRequests accepts, as a 415's Accept-Encoding
// says (RFC 9110 §12.5.3).
const requestCodings = "zstd, br, gzip, deflate"

// decodedBody replaces a request body sent with a Content-Encoding: it
// decodes lazily, so that a bad header shows as a Read error the handler
// sees, and stops with *http.MaxBytesError past the limit.
type decodedBody struct {
	raw     io.ReadCloser
	coding  string
	dec     io.Reader // nil until the first Read
	release func()    // returns dec to its pool
	left    int64     // decoded bytes still allowed, plus one to detect the overflow
	limit   int64
	tripped bool // the limit was passed: the response becomes 413
	err     error
}

// decodeRequest swaps r's body for a decoding one when it has a coding we
// know, or answers 415 for one we do not; done says the response was sent.
func (s *settings) decodeRequest(w http.ResponseWriter, r *http.Request) (_ *http.Request, body *decodedBody, done bool) {
	values := r.Header["Content-Encoding"]
	if len(values) == 0 || r.Body == nil || r.Body == http.NoBody {
		return r, nil, false
	}
	coding := strings.ToLower(strings.TrimSpace(strings.Join(values, ",")))
	switch coding {
	case "identity":
		return r, nil, false
	case "x-gzip":
		coding = "gzip"
	case "zstd", "br", "gzip", "deflate":
	default:
		// RFC 9110 §15.5.16: 415 for a content coding not accepted, with
		// Accept-Encoding listing those that are (§12.5.3). Several codings
		// in a row land here too.
		w.Header().Set("Accept-Encoding", requestCodings)
		http.Error(w, "415 unsupported content coding of the request body", http.StatusUnsupportedMediaType)
		return r, nil, true
	}
	body = &decodedBody{raw: r.Body, coding: coding, left: s.maxRequestSize + 1, limit: s.maxRequestSize}
	r2 := new(http.Request)
	*r2 = *r
	r2.Header = r.Header.Clone()
	delete(r2.Header, "Content-Encoding")
	delete(r2.Header, "Content-Length") // describes the encoded bytes
	r2.ContentLength = -1
	r2.Body = body
	return r2, body, false
}

func (b *decodedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.dec == nil {
		if b.err = b.open(); b.err != nil {
			return 0, b.err
		}
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.dec.Read(p)
	b.left -= int64(n)
	if b.left == 0 {
		// One byte past the limit was read: the body is too large.
		b.tripped = true
		b.err = &http.MaxBytesError{Limit: b.limit}
		return n - 1, b.err
	}
	if err != nil && err != io.EOF {
		err = fmt.Errorf("encoding: decoding %s request body: %w", b.coding, err)
		b.err = err
	}
	return n, err
}

func (b *decodedBody) open() error {
	var err error
	switch b.coding {
	case "gzip":
		z, _ := gzipReaders.Get().(*gzip.Reader)
		if z == nil {
			z = new(gzip.Reader)
		}
		if err = z.Reset(b.raw); err == nil {
			b.dec, b.release = z, func() {
				z.Reset(eofReader{}) // drops b.raw; the error is expected
				gzipReaders.Put(z)
			}
		}
	case "deflate":
		var z io.ReadCloser
		if z, err = zlib.NewReader(b.raw); err == nil {
			b.dec, b.release = z, func() { z.Close() }
		}
	case "br":
		br, _ := brotliReaders.Get().(*brotli.Reader)
		if br == nil {
			br = brotli.NewReader(b.raw)
		} else if err = br.Reset(b.raw); err != nil {
			return fmt.Errorf("encoding: br request body: %w", err)
		}
		b.dec, b.release = br, func() { br.Reset(eofReader{}); brotliReaders.Put(br) }
	case "zstd":
		d, _ := zstdReaders.Get().(*zstd.Decoder)
		if d == nil {
			// RFC 9659: a zstd coding needs no window above 8 MB; a peer
			// asking for more is refused rather than served the memory.
			if d, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(8<<20), zstd.WithDecoderLowmem(true)); err != nil {
				return fmt.Errorf("encoding: zstd decoder: %w", err)
			}
		}
		if err = d.Reset(b.raw); err == nil {
			b.dec, b.release = d, func() { d.Reset(nil); zstdReaders.Put(d) }
		}
	}
	if err != nil {
		return fmt.Errorf("encoding: %s request body: %w", b.coding, err)
	}
	return nil
}

// Close closes the encoded body and returns the decoder to its pool.
func (b *decodedBody) Close() error {
	if b.release != nil {
		b.release()
		b.release = nil
	}
	if b.err == nil {
		b.err = http.ErrBodyReadAfterClose
	}
	return b.raw.Close()
}

// Decoders are pooled, and reset to read nothing before they go back, so
// that no request body stays reachable from a pool.
var (
	gzipReaders   sync.Pool // of *gzip.Reader
	brotliReaders sync.Pool // of *brotli.Reader
	zstdReaders   sync.Pool // of *zstd.Decoder
)

// eofReader is an empty stream without state, safe to share.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
