package encoding

import (
	"bytes"
	"net/http"
	"testing"
	"time"
)

// serveContent is a handler with its own ETag and conditional logic.
func serveContent(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, "app.js", time.Unix(1e9, 0), bytes.NewReader(body))
	}
}

// RFC 9110 §8.8.3.3: a strong ETag differs per content coding; the suffix is
// removed from If-None-Match so the handler's own 304 logic still works.
func TestETagSuffixedAndConditionalRequestStillWorks(t *testing.T) {
	m := mustNew(t, Config{})
	h := serveContent(sampleText(8192))
	first := serve(t, m, h, "GET", "Accept-Encoding: br")
	if got := first.Header().Get("ETag"); got != `"v1-br"` {
		t.Fatalf("compressed response ETag %q, want \"v1-br\"", got)
	}
	again := serve(t, m, h, "GET", "Accept-Encoding: br", `If-None-Match: "v1-br"`)
	if again.Code != http.StatusNotModified {
		t.Fatalf("If-None-Match with the compressed ETag: %s; want 304", describe(again))
	}
	if got := again.Header().Get("ETag"); got != `"v1-br"` {
		t.Errorf("304 ETag %q, want the one the client holds, \"v1-br\"", got)
	}
	if got := again.Header().Get("Vary"); got != "Accept-Encoding" {
		t.Errorf("304 Vary %q; RFC 9110 §15.4.5 wants what the 200 had", got)
	}
	identity := serve(t, m, h, "GET", `If-None-Match: "v1"`)
	if identity.Code != http.StatusNotModified || identity.Header().Get("ETag") != `"v1"` {
		t.Errorf("identity revalidation: %s", describe(identity))
	}
}

// A tag of another coding names another representation: no 304 for it.
func TestETagOfAnotherCodingDoesNotMatch(t *testing.T) {
	m := mustNew(t, Config{})
	rec := serve(t, m, serveContent(sampleText(8192)), "GET", "Accept-Encoding: br", `If-None-Match: "v1-gzip"`)
	if rec.Code != http.StatusOK || rec.Header().Get("ETag") != `"v1-br"` {
		t.Fatalf("If-None-Match of the gzip variant, negotiating br: %s; want a 200 in br", describe(rec))
	}
}

// RFC 9110 §13.1.1: If-Match uses the strong comparison, against the
// representation the client would get.
func TestIfMatchWithSuffixedETag(t *testing.T) {
	m := mustNew(t, Config{})
	h := serveContent(sampleText(8192))
	if rec := serve(t, m, h, "GET", "Accept-Encoding: zstd", `If-Match: "v1-zstd"`); rec.Code != http.StatusOK {
		t.Fatalf("If-Match of the zstd variant: %s; want 200", describe(rec))
	}
	if rec := serve(t, m, h, "GET", "Accept-Encoding: zstd", `If-Match: "v2-zstd"`); rec.Code != http.StatusPreconditionFailed {
		t.Fatalf("If-Match of another version: %s; want 412", describe(rec))
	}
}

// RFC 9110 §13.1.5: a client holding part of the compressed representation
// cannot be given a range of the identity bytes: it gets the whole body.
func TestIfRangeOfCompressedRepresentationGetsWholeBody(t *testing.T) {
	body := sampleText(8192)
	rec := serve(t, mustNew(t, Config{}), serveContent(body), "GET", "Accept-Encoding: gzip", "Range: bytes=100-199", `If-Range: "v1-gzip"`)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("If-Range with the gzip ETag: %s; want the whole body, compressed", describe(rec))
	}
	if !bytes.Equal(decodeBody(t, "gzip", rec.Body.Bytes()), body) {
		t.Fatal("whole body differs")
	}
}

func TestETagModes(t *testing.T) {
	for _, c := range []struct {
		mode       ETagMode
		etag, want string
	}{
		{ETagSuffix, `"v1"`, `"v1-gzip"`},
		{ETagSuffix, `W/"v1"`, `W/"v1"`},
		{ETagWeaken, `"v1"`, `W/"v1"`},
		{ETagWeaken, `W/"v1"`, `W/"v1"`},
		{ETagKeep, `"v1"`, `"v1"`},
	} {
		h := func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("ETag", c.etag)
			w.Header().Set("Content-Type", "text/css")
			w.Write(sampleText(4096))
		}
		rec := serve(t, mustNew(t, Config{ETag: c.mode}), h, "GET", "Accept-Encoding: gzip")
		if got := rec.Header().Get("ETag"); got != c.want {
			t.Errorf("mode %d, ETag %s: got %s, want %s", c.mode, c.etag, got, c.want)
		}
	}
}
