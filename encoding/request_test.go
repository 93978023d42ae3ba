package encoding

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// encodeRequest encodes body in coding with encoders independent of the
// decoders under test where the standard library has one.
func encodeRequest(t testing.TB, coding string, body []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip", "x-gzip":
		w = gzip.NewWriter(&b)
	case "deflate":
		w = zlib.NewWriter(&b)
	case "br":
		w = brotli.NewWriter(&b)
	case "zstd":
		z, err := zstd.NewWriter(&b)
		if err != nil {
			t.Fatal(err)
		}
		w = z
	default:
		t.Fatalf("no encoder for %q", coding)
	}
	w.Write(body)
	w.Close()
	return b.Bytes()
}

// echo answers with the request body it read, or the standard answer to a
// body that is too large, or 400 for any other read error.
func echo(w http.ResponseWriter, r *http.Request) {
	got, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		http.Error(w, "too large", http.StatusRequestEntityTooLarge)
	case err != nil:
		http.Error(w, err.Error(), http.StatusBadRequest)
	default:
		w.Header().Set("X-Content-Encoding-Seen", r.Header.Get("Content-Encoding"))
		w.Write(got)
	}
}

func postEncoded(t testing.TB, m *Middleware, h http.HandlerFunc, coding string, payload []byte) *response {
	t.Helper()
	r := httptest.NewRequest("POST", "/", bytes.NewReader(payload))
	r.Header.Set("Content-Encoding", coding)
	return record(m.Handler(h), r)
}

func TestRequestBodiesAreDecoded(t *testing.T) {
	m := mustNew(t, Config{DecodeRequests: true})
	body := sampleText(50 << 10)
	for _, coding := range []string{"zstd", "br", "gzip", "x-gzip", "deflate"} {
		rec := postEncoded(t, m, echo, coding, encodeRequest(t, coding, body))
		if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), body) {
			t.Errorf("%s request body: %s", coding, describe(rec))
		}
		if seen := rec.Header().Get("X-Content-Encoding-Seen"); seen != "" {
			t.Errorf("%s: handler still saw Content-Encoding %q", coding, seen)
		}
	}
}

// A decompression bomb: a few KB that inflate far past the limit get 413,
// and reading stops at the limit.
func TestRequestBodyLimitIsOnDecodedBytes(t *testing.T) {
	const limit = 256 << 10
	m := mustNew(t, Config{DecodeRequests: true, MaxRequestSize: limit})
	bomb := make([]byte, 8<<20)
	for _, coding := range []string{"zstd", "br", "gzip", "deflate"} {
		payload := encodeRequest(t, coding, bomb)
		if coding == "zstd" {
			// A window within what the limit needs: a larger one is refused
			// before any byte (TestZstdWindowBeyondTheLimitIs413BeforeAllocating_RFC8878_3_1_1_1_2).
			payload = zerosIn(t, coding, len(bomb), limit, 0)
		}
		var read int64
		counting := func(w http.ResponseWriter, r *http.Request) {
			read, _ = io.Copy(io.Discard, r.Body)
			w.WriteHeader(http.StatusBadRequest) // a handler that does not look at the error
		}
		rec := postEncoded(t, m, counting, coding, payload)
		if rec.Code != http.StatusRequestEntityTooLarge {
			t.Errorf("%s bomb of %d bytes: %s; want 413", coding, len(payload), describe(rec))
		}
		if read != limit {
			t.Errorf("%s bomb: handler read %d bytes, want exactly the limit %d", coding, read, limit)
		}
		if rec := postEncoded(t, m, echo, coding, payload); rec.Code != http.StatusRequestEntityTooLarge {
			t.Errorf("%s bomb, standard handler: %s", coding, describe(rec))
		}
	}
	exact := make([]byte, limit)
	if rec := postEncoded(t, m, echo, "gzip", encodeRequest(t, "gzip", exact)); rec.Code != 200 || rec.Body.Len() != limit {
		t.Errorf("a body of exactly the limit: %s", describe(rec))
	}
}

// RFC 9110 §15.5.16 and §12.5.3: 415 with the codings that are accepted.
func TestUnsupportedRequestCodingGets415(t *testing.T) {
	m := mustNew(t, Config{DecodeRequests: true})
	for _, coding := range []string{"compress", "gzip, br", "snappy"} {
		rec := postEncoded(t, m, echo, coding, []byte("x"))
		if rec.Code != http.StatusUnsupportedMediaType || rec.Header().Get("Accept-Encoding") != requestCodings {
			t.Errorf("Content-Encoding %q: %s", coding, describe(rec))
		}
	}
	if rec := postEncoded(t, m, echo, "identity", []byte("plain")); rec.Code != 200 || rec.Body.String() != "plain" {
		t.Errorf("identity request body: %s", describe(rec))
	}
}

func TestCorruptRequestBodyIsAReadError(t *testing.T) {
	m := mustNew(t, Config{DecodeRequests: true})
	for _, coding := range []string{"zstd", "br", "gzip", "deflate"} {
		if rec := postEncoded(t, m, echo, coding, []byte("definitely not compressed data")); rec.Code != http.StatusBadRequest {
			t.Errorf("%s garbage: %s; want the handler's 400 for a read error", coding, describe(rec))
		}
	}
}

func TestRequestBodiesUntouchedByDefault(t *testing.T) {
	payload := encodeRequest(t, "gzip", []byte("hello"))
	rec := postEncoded(t, mustNew(t, Config{}), echo, "gzip", payload)
	if !bytes.Equal(rec.Body.Bytes(), payload) || rec.Header().Get("X-Content-Encoding-Seen") != "gzip" {
		t.Fatalf("without DecodeRequests the handler must see the encoded body: %s", describe(rec))
	}
}

// FuzzRequestBody feeds arbitrary bytes as an encoded request body: never a
// panic, never more than the limit read.
func FuzzRequestBody(f *testing.F) {
	for _, coding := range []string{"zstd", "br", "gzip", "deflate"} {
		f.Add(coding, encodeRequest(f, coding, sampleText(3000)))
		f.Add(coding, encodeRequest(f, coding, make([]byte, 100<<10)))
	}
	const limit = 64 << 10
	m := mustNew(f, Config{DecodeRequests: true, MaxRequestSize: limit})
	f.Fuzz(func(t *testing.T, coding string, payload []byte) {
		var read int64
		h := func(w http.ResponseWriter, r *http.Request) { read, _ = io.Copy(io.Discard, r.Body) }
		postEncoded(t, m, h, coding, payload)
		if read > limit {
			t.Fatalf("%s: read %d decoded bytes past the %d limit", coding, read, limit)
		}
	})
}
