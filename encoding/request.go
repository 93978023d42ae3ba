package encoding

import (
	"errors"
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
	read    int64     // decoded bytes read, at most limit+1
	limit   int64
	tripped bool // the limit was passed: the response becomes 413
	err     error
	head    brotliHead // the start of a br body, its window cut to the limit
	zhead   zstdHead   // a zstd body, each frame's window cut to the limit
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
	body = &decodedBody{raw: r.Body, coding: coding, limit: s.maxRequestSize}
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
			return 0, b.tooLarge(b.err)
		}
	}
	// Ask for one byte past the limit at most, to see the overflow; room+1
	// cannot overflow, since room < len(p) there.
	if room := b.limit - b.read; int64(len(p)) > room {
		p = p[:room+1]
	}
	n, err := b.dec.Read(p)
	b.read += int64(n)
	if b.read > b.limit {
		// One byte past the limit was read: the body is too large.
		b.tripped = true
		b.err = &http.MaxBytesError{Limit: b.limit}
		return n - 1, b.err
	}
	if err != nil && err != io.EOF {
		err = b.tooLarge(fmt.Errorf("encoding: decoding %s request body: %w", b.coding, err))
		b.err = err
	}
	return n, err
}

// tooLarge turns err into the *http.MaxBytesError of a body that would
// decode past the limit when it says so: a zstd frame whose window, or
// content size, is larger than the limit needs. Other errors it returns
// as they are.
func (b *decodedBody) tooLarge(err error) error {
	if errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		b.tripped = true
		return &http.MaxBytesError{Limit: b.limit}
	}
	return err
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
		z, _ := zlibReaders.Get().(io.ReadCloser)
		if z == nil {
			z, err = zlib.NewReader(b.raw)
		} else {
			err = z.(zlib.Resetter).Reset(b.raw, nil)
		}
		if err == nil {
			b.dec, b.release = z, func() {
				z.(zlib.Resetter).Reset(eofReader{}, nil) // drops b.raw; the error is expected
				zlibReaders.Put(z)
			}
		}
	case "br":
		// The ring buffer follows the window the stream header asks for:
		// the head cuts it to what the limit needs before the decoder
		// reads it.
		b.head = brotliHead{r: b.raw, lgwin: max(18, brotliWindowFor(int(min(b.limit, brotliMaxBody)+1), 0))}
		br, _ := brotliReaders.Get().(*brotli.Reader)
		if br == nil {
			br = brotli.NewReader(&b.head)
		} else if err = br.Reset(&b.head); err != nil {
			return fmt.Errorf("encoding: br request body: %w", err)
		}
		b.dec, b.release = br, func() { br.Reset(eofReader{}); brotliReaders.Put(br) }
	case "zstd":
		// RFC 9659 caps a zstd coding's window at 8 MiB, and a body of at
		// most limit bytes needs no window beyond zstdRequestWindow: the
		// head cuts every frame's to it before the decoder reads it.
		// A single-segment frame, which states its content size instead,
		// is refused when that is larger (the body is too).
		// The decoder checks a frame's window against the bound of each
		// stream, but also against a copy of the bound it had at its first
		// stream: that one is RFC 9659's, for pooled decoders to serve
		// every limit.
		window := zstdRequestWindow(b.limit)
		b.zhead = zstdHead{r: b.raw, window: window}
		d, _ := zstdReaders.Get().(*zstd.Decoder)
		if d == nil {
			if d, err = zstd.NewReader(eofReader{}, zstd.WithDecoderConcurrency(1),
				zstd.WithDecoderMaxWindow(zstdMaxWindow), zstd.WithDecoderLowmem(true)); err != nil {
				return fmt.Errorf("encoding: zstd decoder: %w", err)
			}
		}
		if err = d.ResetWithOptions(&b.zhead, zstd.WithDecoderMaxWindow(window)); err == nil {
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
	zlibReaders   sync.Pool // of zlib's io.ReadCloser, a zlib.Resetter
	brotliReaders sync.Pool // of *brotli.Reader
	zstdReaders   sync.Pool // of *zstd.Decoder
)

// zstdWindowFor returns the largest zstd window a request body limited to
// limit bytes is decoded with: the smallest Window_Size a frame header can
// state (RFC 8878 §3.1.1.1.2: 2^(10+Exponent) plus Mantissa eighths of it)
// that holds limit bytes, within 1 KiB and RFC 9659's 8 MiB.
func zstdWindowFor(limit int64) uint64 {
	return zstdWindowOf(zstdDescriptorOf(uint64(min(max(limit, 0), zstdMaxWindow))))
}

// brotliMaxBody is the most bytes a brotli window holds: 2^24 less 16
// (RFC 7932 §9.1).
const brotliMaxBody = 1<<brotliMaxWindow - 16

// brotliHead passes a br body through with its window, WBITS in the stream
// header (RFC 7932 §9.1), cut to lgwin when larger: the decoder's ring
// buffer follows WBITS, the sender's choice, and only the first limit+1
// bytes are ever read. That changes nothing in them: a back-reference
// reaches at most min(window, bytes decoded so far) back (RFC 7932 §4:
// a distance beyond it is a static-dictionary reference), and up to
// 2^lgwin-16 bytes both windows are larger than what is decoded. Only the
// 4-bit WBITS of 18 to 24 are cut, so the header keeps its length; they
// are cut to 18 at least (256 KiB), the 7- and 1-bit ones being smaller.
type brotliHead struct {
	r     io.Reader
	lgwin int  // the largest window let through, at least 18
	done  bool // the first byte went through
}

func (h *brotliHead) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if n > 0 && !h.done {
		h.done = true
		// WBITS: bit 0 set and bits 1-3 n != 0 mean a window of 17+n.
		if first := p[0]; first&1 == 1 && first>>1&7 != 0 {
			if lgwin := 17 + int(first>>1&7); lgwin > h.lgwin {
				p[0] = first&^0b1110 | byte(h.lgwin-17)<<1
			}
		}
	}
	return n, err
}

// eofReader is an empty stream without state, safe to share.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
