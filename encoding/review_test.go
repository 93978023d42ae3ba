package encoding

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Padding a stream must not send bytes before the headers: the status, the
// coding and the Vary go out first.
func TestJitterOnStreamsKeepsHeadersFirst(t *testing.T) {
	m := mustNew(t, Config{Jitter: 100})
	for _, coding := range []string{"zstd", "gzip"} {
		body := sampleText(300 << 10)
		h := func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("ETag", `"v1"`)
			w.WriteHeader(http.StatusCreated)
			w.Write(body)
		}
		rec := serve(t, m, h, "GET", "Accept-Encoding: "+coding)
		if rec.Code != http.StatusCreated || rec.Header().Get("Content-Encoding") != coding || rec.Header().Get("Vary") != "Accept-Encoding" || rec.Header().Get("Etag") != `"v1-`+coding+`"` {
			t.Fatalf("%s padded stream: %s", coding, describe(rec))
		}
		if !bytes.Equal(decodeBody(t, coding, rec.Body.Bytes()), body) {
			t.Fatalf("%s padded stream does not decode to the body", coding)
		}
	}
}

// A handler that tags its variants per coding itself (as precompressed does)
// must still see its own tag in If-None-Match and If-Match.
func TestHandlerTaggingPerCodingStillRevalidates(t *testing.T) {
	h := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		w.Header().Set("Content-Encoding", "br")
		w.Header().Set("ETag", `"sum-br"`)
		http.ServeContent(w, r, "", time.Unix(1e9, 0), strings.NewReader("pre-encoded bytes"))
	}
	m := mustNew(t, Config{})
	if rec := serve(t, m, h, "GET", "Accept-Encoding: br", `If-None-Match: "sum-br"`); rec.Code != http.StatusNotModified || rec.Header().Get("Etag") != `"sum-br"` {
		t.Errorf("If-None-Match with the handler's own tag: %s; want 304 with that tag", describe(rec))
	}
	if rec := serve(t, m, h, "GET", "Accept-Encoding: br", `If-Match: "sum-br"`); rec.Code != http.StatusOK {
		t.Errorf("If-Match with the handler's own tag: %s; want 200", describe(rec))
	}
}

// Trailers need chunked framing: a whole body with declared trailers goes
// out without Content-Length.
func TestTrailersSurviveCompression(t *testing.T) {
	h := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Trailer", "X-Sum")
		w.Header().Set("Content-Type", "text/plain")
		w.Write(sampleText(4096))
		w.Header().Set("X-Sum", "abc")
	}
	rec := serve(t, mustNew(t, Config{}), h, "GET", "Accept-Encoding: gzip")
	if rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Content-Length") != "" {
		t.Fatalf("%s; want gzip without Content-Length", describe(rec))
	}
	if got := rec.Result().Trailer.Get("X-Sum"); got != "abc" {
		t.Fatalf("trailer X-Sum = %q, want abc", got)
	}
}

// RFC 9110 §15.4.5: a 304 carries the Vary the 200 had, and in ETagWeaken
// mode the weak tag the client holds.
func TestNotModifiedRepeatsVaryAndWeakTag(t *testing.T) {
	body := sampleText(8192)
	rec := serve(t, mustNew(t, Config{ETag: ETagKeep}), serveContent(body), "GET", "Accept-Encoding: gzip", `If-None-Match: "v1"`)
	if rec.Code != http.StatusNotModified || rec.Header().Get("Vary") != "Accept-Encoding" {
		t.Errorf("ETagKeep 304: %s; want Vary", describe(rec))
	}
	m := mustNew(t, Config{ETag: ETagWeaken})
	first := serve(t, m, serveContent(body), "GET", "Accept-Encoding: gzip")
	again := serve(t, m, serveContent(body), "GET", "Accept-Encoding: gzip", "If-None-Match: "+first.Header().Get("Etag"))
	if first.Header().Get("Etag") != `W/"v1"` || again.Code != http.StatusNotModified || again.Header().Get("Etag") != `W/"v1"` {
		t.Errorf("ETagWeaken: 200 %q, then %s", first.Header().Get("Etag"), describe(again))
	}
}

// A goroutine the handler left behind must not write into another request's
// response.
func TestWriteAfterReturnFailsAndLeaksNothing(t *testing.T) {
	m := mustNew(t, Config{})
	var leaked http.ResponseWriter
	serve(t, m, func(w http.ResponseWriter, r *http.Request) { leaked = w; io.WriteString(w, "one") }, "GET")
	next := serve(t, m, func(w http.ResponseWriter, r *http.Request) {
		if _, err := leaked.Write([]byte("LEAK")); err == nil {
			t.Error("a write after the handler returned succeeded")
		}
		io.WriteString(w, "two")
	}, "GET")
	if next.Body.String() != "two" {
		t.Fatalf("second response body %q", next.Body.String())
	}
}

// net/http ignores h2c upgrades and answers over HTTP/1.1, so curl --http2
// must still get a compressed response.
func TestH2CUpgradeHeaderIsNotATunnel(t *testing.T) {
	rec := serve(t, mustNew(t, Config{}), writeBody("text/html", sampleText(8192)), "GET",
		"Accept-Encoding: gzip", "Connection: Upgrade, HTTP2-Settings", "Upgrade: h2c")
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("%s", describe(rec))
	}
}

// A HEAD handler that only sets headers gets what GET would.
func TestHEADWithoutWriteMatchesGET(t *testing.T) {
	h := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", "8192")
		if r.Method == http.MethodGet {
			w.Write(sampleText(8192))
		}
	}
	m := mustNew(t, Config{})
	get := serve(t, m, h, "GET", "Accept-Encoding: gzip")
	head := serve(t, m, h, "HEAD", "Accept-Encoding: gzip")
	for _, name := range []string{"Content-Encoding", "Vary"} {
		if get.Header().Get(name) != head.Header().Get(name) || head.Header().Get(name) == "" {
			t.Errorf("%s: GET %q, HEAD %q", name, get.Header().Get(name), head.Header().Get(name))
		}
	}
}

// A body of exactly BufferSize bytes is still whole: it gets Content-Length.
func TestBodyOfExactlyBufferSizeIsWhole(t *testing.T) {
	rec := serve(t, mustNew(t, Config{BufferSize: 8192}), writeBody("text/plain", sampleText(8192)), "GET", "Accept-Encoding: zstd")
	if rec.Header().Get("Content-Length") == "" {
		t.Fatalf("%s", describe(rec))
	}
}
