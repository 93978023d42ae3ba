package benchmarks

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkMiddleware compares squeeze's encoding middleware with gzhttp,
// httpcompression and chi's Compress, one response per iteration, at the
// same codec and level (see encodingCodings), on JSON replies and two of
// the corpus's web assets. Two baselines do the encoding without a middleware:
// "bare" is the codec's library used the usual way, "codec" is squeeze's
// codec doing what its middleware does for that body. out-B is the body
// sent, ratio the body's size over it.
//
//	go test -run '^$' -bench Middleware -benchtime 0.3s -count 5 . > mw.txt
//	benchstat -col /impl mw.txt
func BenchmarkMiddleware(b *testing.B) {
	bodies := encodingBodies(b)
	for _, c := range encodingCodings() {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Accept-Encoding", c.name)
		impls := encodingImpls(b, c)
		for _, body := range bodies {
			for _, impl := range impls {
				serve := impl.prepare(body, r)
				name := fmt.Sprintf("coding=%s/body=%s/impl=%s", c.name, body.name, impl.name)
				b.Run(name, func(b *testing.B) {
					n := serveLoop(b, serve, impl, c.name, body)
					b.ReportMetric(float64(len(body.data))/float64(n), "ratio")
				})
			}
		}
	}
}

// serveLoop checks serve's output once, then serves one response per
// iteration, reporting allocations, throughput and the bytes sent (out-B),
// which it returns.
func serveLoop(b *testing.B, serve func(*sinkWriter), impl encodingImpl, coding string, body encodingBody) int64 {
	w := &sinkWriter{h: http.Header{}}
	checkEncoded(b, w, serve, impl, coding, body)
	b.ReportAllocs()
	b.SetBytes(int64(len(body.data)))
	for b.Loop() {
		w.reset()
		serve(w)
	}
	b.ReportMetric(float64(w.n), "out-B")
	return w.n
}

// encodingBody is one response body of BenchmarkMiddleware.
type encodingBody struct {
	name        string
	contentType string
	data        []byte
}

// encodingBodies returns generated JSON replies of 1, 4, 20 and 100 KB
// and two web assets of the repository corpus, the minified jQuery and
// Bootstrap CSS (their first 24 KiB).
func encodingBodies(b *testing.B) []encodingBody {
	var bodies []encodingBody
	for _, size := range []int{1 << 10, 4 << 10, 20 << 10, 100 << 10} {
		bodies = append(bodies, encodingBody{fmt.Sprintf("json-%dk", size>>10), "application/json", wsdeflateRepeated(size)})
	}
	for _, a := range []struct{ kind, name, contentType string }{
		{"js-min", "jquery.min.js", "text/javascript; charset=utf-8"},
		{"css-min", "bootstrap.min.css", "text/css; charset=utf-8"},
	} {
		bodies = append(bodies, encodingBody{a.name, a.contentType, corpusSource(b, a.kind, a.name)})
	}
	return bodies
}

// encodingImpl is one column of the table: a middleware or a baseline.
type encodingImpl struct {
	name       string
	middleware bool // whether the output carries a Content-Encoding to check
	decode     func(io.Reader) (io.Reader, error)
	// prepare returns what serves one response of body to r.
	prepare func(body encodingBody, r *http.Request) func(w *sinkWriter)
}

// encodingImpls returns squeeze, the peers offering c, and the two
// baselines, squeeze first so that benchstat compares the others with it.
func encodingImpls(b *testing.B, c encodingCoding) []encodingImpl {
	squeeze, err := squeezeWrap(c)
	if err != nil {
		b.Fatal(err)
	}
	impls := []encodingImpl{middlewareImpl("squeeze", squeeze, c.decode)}
	for _, p := range c.peers {
		wrap, err := p.wrap()
		if err != nil {
			b.Fatalf("%s %s: %v", p.name, c.name, err)
		}
		decode := c.decode
		if p.decode != nil {
			decode = p.decode
		}
		impls = append(impls, middlewareImpl(p.name, wrap, decode))
	}
	for _, base := range []struct {
		name string
		make func(encodingCoding) (func(io.Writer, []byte) error, error)
	}{{"bare", bareUsual}, {"codec", bareCodec}} {
		encode, err := base.make(c)
		if err != nil {
			b.Fatal(err)
		}
		impls = append(impls, encodingImpl{
			name:   base.name,
			decode: c.decode,
			prepare: func(body encodingBody, _ *http.Request) func(w *sinkWriter) {
				return func(w *sinkWriter) {
					if err := encode(w, body.data); err != nil {
						w.err = err
					}
				}
			},
		})
	}
	return impls
}

// middlewareImpl serves each response through wrap around a handler that
// sets the body's Content-Type and writes it in one call, as a JSON API or
// a file handler does.
func middlewareImpl(name string, wrap func(http.Handler) http.Handler, decode func(io.Reader) (io.Reader, error)) encodingImpl {
	return encodingImpl{
		name:       name,
		middleware: true,
		decode:     decode,
		prepare: func(body encodingBody, r *http.Request) func(w *sinkWriter) {
			contentType := []string{body.contentType}
			h := wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header()["Content-Type"] = contentType
				_, _ = w.Write(body.data)
			}))
			return func(w *sinkWriter) { h.ServeHTTP(w, r) }
		},
	}
}

// checkEncoded serves one response, outside the timed loop, and fails b,
// naming the body, unless it decodes to the body (and, from a middleware,
// says its coding).
func checkEncoded(b *testing.B, w *sinkWriter, serve func(*sinkWriter), impl encodingImpl, coding string, body encodingBody) {
	b.Helper()
	w.keep = true
	defer func() { w.keep, w.kept = false, nil }()
	serve(w)
	if w.err != nil {
		b.Fatalf("%s: encoding failed: %v", body.name, w.err)
	}
	if got := w.h.Get("Content-Encoding"); impl.middleware && got != coding {
		b.Fatalf("%s: Content-Encoding = %q, want %q (Content-Type %q)", body.name, got, coding, w.h.Get("Content-Type"))
	}
	rd, err := impl.decode(bytes.NewReader(w.kept))
	if err != nil {
		b.Fatalf("%s: opening the %d-byte %s output: %v", body.name, len(w.kept), coding, err)
	}
	got, err := io.ReadAll(rd)
	if err != nil {
		b.Fatalf("%s: decoding the %d-byte %s output: %v", body.name, len(w.kept), coding, err)
	}
	if !bytes.Equal(got, body.data) {
		b.Fatalf("%s: output decodes to %d bytes that differ from the %d-byte body", body.name, len(got), len(body.data))
	}
}

// sinkWriter is a ResponseWriter that counts the body and drops it (keeps
// it only for checkEncoded), so that the benchmark counts the middleware's
// allocations and not a recorder's.
type sinkWriter struct {
	h      http.Header
	status int
	n      int64
	err    error // a baseline's encoding error

	keep bool
	kept []byte
}

func (w *sinkWriter) Header() http.Header { return w.h }

func (w *sinkWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *sinkWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	if w.keep {
		w.kept = append(w.kept, p...)
	}
	return len(p), nil
}

// reset readies w for the next response, keeping the header map.
func (w *sinkWriter) reset() {
	clear(w.h)
	w.status, w.n = 0, 0
}
