package encoding_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/precompressed"
)

// precompressed.FileServer tags each variant per coding itself ("sum-br"),
// in the very form of the middleware's suffix. Behind the middleware its
// conditional requests must still work: If-None-Match (the handler sees
// "sum" and sends the 200; the middleware finds the client's tag on it and
// answers 304), If-Match and If-Range on the encoded bytes (RFC 9110 §13.1).
func TestPrecompressedBehindTheMiddleware(t *testing.T) {
	js := []byte(strings.Repeat("function hello(name) { return 'hello, ' + name; }\n", 200))
	var br bytes.Buffer
	bw := brotli.NewWriterLevel(&br, 5)
	bw.Write(js)
	bw.Close()
	modified := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	fsys := fstest.MapFS{
		"app.js":    {Data: js, ModTime: modified},
		"app.js.br": {Data: br.Bytes(), ModTime: modified},
	}
	m, err := encoding.New(encoding.Config{})
	if err != nil {
		t.Fatal(err)
	}
	h := m.Handler(precompressed.FileServer(fsys, precompressed.Config{}))
	get := func(method string, header ...string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, "/app.js", nil)
		for _, line := range header {
			name, value, _ := strings.Cut(line, ": ")
			r.Header.Add(name, value)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec
	}

	first := get("GET", "Accept-Encoding: br")
	brTag := first.Header().Get("Etag")
	if first.Code != http.StatusOK || first.Header().Get("Content-Encoding") != "br" || !strings.HasSuffix(brTag, `-br"`) || !bytes.Equal(first.Body.Bytes(), br.Bytes()) {
		t.Fatalf("first GET: status %d, header %v", first.Code, first.Header())
	}
	identityTag := get("GET").Header().Get("Etag")

	for _, c := range []struct {
		name   string
		method string
		header []string
		want   int
		body   []byte
	}{
		{"If-None-Match", "GET", []string{"If-None-Match: " + brTag}, http.StatusNotModified, nil},
		{"If-None-Match, several", "GET", []string{`If-None-Match: "old", ` + brTag}, http.StatusNotModified, nil},
		{"If-None-Match, HEAD", "HEAD", []string{"If-None-Match: " + brTag}, http.StatusNotModified, nil},
		{"If-None-Match of identity", "GET", []string{"If-None-Match: " + identityTag}, http.StatusOK, br.Bytes()},
		{"If-Match", "GET", []string{"If-Match: " + brTag}, http.StatusOK, br.Bytes()},
		{"If-Match, another", "GET", []string{`If-Match: "old-br"`}, http.StatusPreconditionFailed, nil},
		{"If-Range", "GET", []string{"If-Range: " + brTag, "Range: bytes=0-9"}, http.StatusPartialContent, br.Bytes()[:10]},
		{"If-Range of identity", "GET", []string{"If-Range: " + identityTag, "Range: bytes=0-9"}, http.StatusOK, br.Bytes()},
	} {
		rec := get(c.method, append(c.header, "Accept-Encoding: br")...)
		if rec.Code != c.want || !bytes.Equal(rec.Body.Bytes(), c.body) {
			t.Errorf("%s: status %d, %d body bytes, header %v; want %d", c.name, rec.Code, rec.Body.Len(), rec.Header(), c.want)
			continue
		}
		if rec.Code == http.StatusNotModified && rec.Header().Get("Etag") != brTag {
			t.Errorf("%s: 304 with ETag %s, want %s", c.name, rec.Header().Get("Etag"), brTag)
		}
	}
	// The br tag never validates another representation.
	if rec := get("GET", "Accept-Encoding: gzip", "If-None-Match: "+brTag); rec.Code != http.StatusOK {
		t.Errorf("br tag, gzip client: status %d, header %v", rec.Code, rec.Header())
	}
	if rec := get("GET", "If-None-Match: "+brTag); rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), js) {
		t.Errorf("br tag, identity client: status %d, header %v", rec.Code, rec.Header())
	}
	// deflate has no sidecar and no fallback: the middleware compresses the
	// identity file and suffixes its tag, which then revalidates too.
	deflated := get("GET", "Accept-Encoding: deflate")
	tag := deflated.Header().Get("Etag")
	if deflated.Header().Get("Content-Encoding") != "deflate" || tag != strings.TrimSuffix(identityTag, `"`)+`-deflate"` {
		t.Fatalf("deflate: header %v", deflated.Header())
	}
	if rec := get("GET", "Accept-Encoding: deflate", "If-None-Match: "+tag); rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != tag {
		t.Errorf("deflate revalidation: status %d, header %v", rec.Code, rec.Header())
	}
}

// TestStatsOfPreEncodedResponses: a dashboard built on OnResponse counts
// what went out compressed, whoever compressed it. Through the middleware,
// a precompressed sidecar is reported with its coding and its bytes, from
// the handler; a fallback file from a Cache shared with the middleware
// with the cache's result; a body the middleware compressed, or sent from
// its Cache, as such.
func TestStatsOfPreEncodedResponses(t *testing.T) {
	js := []byte(strings.Repeat("function hello(name) { return 'hello, ' + name; }\n", 200))
	css := []byte(strings.Repeat("body { margin: 0 auto; padding: 1em; color: #333; }\n", 200))
	var br bytes.Buffer
	bw := brotli.NewWriterLevel(&br, 5)
	bw.Write(js)
	bw.Close()
	fsys := fstest.MapFS{
		"app.js":    {Data: js, ModTime: time.Unix(1e9, 0)},
		"app.js.br": {Data: br.Bytes(), ModTime: time.Unix(1e9, 0)},
		"site.css":  {Data: css, ModTime: time.Unix(1e9, 0)},
	}
	cache, err := encoding.NewCache(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	var got encoding.Stats
	m, err := encoding.New(encoding.Config{Cache: cache, OnResponse: func(r *http.Request, s encoding.Stats) { got = s }})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/static/", http.StripPrefix("/static", precompressed.FileServer(fsys, precompressed.Config{Cache: cache})))
	mux.HandleFunc("/api", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		w.Write(css)
	})
	h := m.Handler(mux)
	get := func(path, ae string) (*httptest.ResponseRecorder, encoding.Stats) {
		r := httptest.NewRequest("GET", path, nil)
		r.Header.Set("Accept-Encoding", ae)
		rec := httptest.NewRecorder()
		got = encoding.Stats{}
		h.ServeHTTP(rec, r)
		return rec, got
	}
	for _, c := range []struct {
		name, path, ae string
		coding         string
		origin         encoding.Origin
		cache          encoding.CacheResult
		skip           encoding.Skip
	}{
		{"br sidecar", "/static/app.js", "br", "br", encoding.OriginHandler, encoding.CacheNotLookedUp, encoding.SkipEncoded},
		{"identity file", "/static/app.js", "", "", encoding.OriginHandler, encoding.CacheNotLookedUp, encoding.SkipNotAccepted},
		{"fallback, made", "/static/site.css", "zstd", "zstd", encoding.OriginHandler, encoding.CacheMiss, encoding.SkipEncoded},
		{"fallback, from the cache", "/static/site.css", "zstd", "zstd", encoding.OriginHandler, encoding.CacheHit, encoding.SkipEncoded},
		{"handler's equal body, seen first", "/api", "gzip", "gzip", encoding.OriginEncoder, encoding.CacheMiss, encoding.SkipNone},
		{"handler's equal body, kept", "/api", "gzip", "gzip", encoding.OriginEncoder, encoding.CacheMiss, encoding.SkipNone},
		{"handler's equal body, from the cache", "/api", "gzip", "gzip", encoding.OriginCache, encoding.CacheHit, encoding.SkipNone},
		{"handler's body shares the file's entry", "/api", "zstd", "zstd", encoding.OriginCache, encoding.CacheHit, encoding.SkipNone},
	} {
		rec, s := get(c.path, c.ae)
		if rec.Header().Get("Content-Encoding") != c.coding {
			t.Fatalf("%s: sent with Content-Encoding %q, want %q", c.name, rec.Header().Get("Content-Encoding"), c.coding)
		}
		if s.Coding != c.coding || s.Origin != c.origin || s.Cache != c.cache || s.Skip != c.skip || s.BytesOut != int64(rec.Body.Len()) {
			t.Errorf("%s: Stats %+v, %d bytes sent; want coding %q, origin %v, cache %q, skip %q, BytesOut the bytes sent",
				c.name, s, rec.Body.Len(), c.coding, c.origin, c.cache, c.skip)
		}
	}
}
