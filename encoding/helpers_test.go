package encoding

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// decodeBody decodes body from coding with decoders independent of the
// encoders under test where the standard library has one.
func decodeBody(t testing.TB, coding string, body []byte) []byte {
	t.Helper()
	var r io.Reader
	var err error
	switch coding {
	case "":
		return body
	case "gzip":
		r, err = gzip.NewReader(bytes.NewReader(body))
	case "deflate":
		r, err = zlib.NewReader(bytes.NewReader(body)) // RFC 9110 §8.4.1.2: the zlib format
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	case "zstd":
		d, derr := zstd.NewReader(bytes.NewReader(body), zstd.WithDecoderMaxWindow(8<<20))
		if derr != nil {
			t.Fatal(derr)
		}
		defer d.Close()
		r = d
	default:
		t.Fatalf("no decoder for coding %q", coding)
	}
	if err != nil {
		t.Fatalf("%s: %v", coding, err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s body of %d bytes: %v", coding, len(body), err)
	}
	return out
}

// sampleText returns n bytes of compressible, not trivially repetitive text.
func sampleText(n int) []byte {
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	words := []string{"squeeze", "compress", "http", "vary", "etag", "range", "json", "\"id\":", "42,", "{", "}", "\n"}
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(words[rng.IntN(len(words))])
		b.WriteByte(' ')
	}
	return b.Bytes()[:n]
}

// serve runs one request through m wrapping h and returns the recorded
// response; header lines are "Name: value".
func serve(t testing.TB, m *Middleware, h http.HandlerFunc, method string, header ...string) *response {
	t.Helper()
	r := serveRequest(method, header...)
	return record(m.Handler(h), r)
}

// response is a recorded response whose Header is the header as it was sent,
// not the live map that the handler could still change after WriteHeader.
type response struct {
	*httptest.ResponseRecorder
	sent http.Header
}

func (r *response) Header() http.Header { return r.sent }

func record(h http.Handler, r *http.Request) *response {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return &response{rec, rec.Result().Header}
}

func serveRequest(method string, header ...string) *http.Request {
	r := httptest.NewRequest(method, "/", nil)
	for _, line := range header {
		name, value, _ := strings.Cut(line, ": ")
		r.Header.Add(name, value)
	}
	return r
}

func mustNew(t testing.TB, cfg Config) *Middleware {
	t.Helper()
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// writeBody is a handler that writes body with the given content type.
func writeBody(contentType string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.Write(body)
	}
}

func describe(rec *response) string {
	return fmt.Sprintf("status %d, headers %v, %d body bytes", rec.Code, rec.Header(), rec.Body.Len())
}

// builtinCodings are the built-in codecs at their default levels, and each
// with the library encoding every body (LibraryEncoders).
var builtinCodings = []Coding{{Codec: Zstd()}, {Codec: Brotli()}, {Codec: Gzip()}, {Codec: Deflate()},
	{Codec: LibraryEncoders(Zstd())},
	{Codec: LibraryEncoders(Brotli())},
	{Codec: LibraryEncoders(Gzip())},
	{Codec: LibraryEncoders(Deflate())}}
