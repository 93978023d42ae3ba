package precompressed

import (
	"bytes"
	"fmt"
	"testing"
	"testing/fstest"
)

// A decoded response for a missing original is made once and kept in the
// fallback cache: later requests open no file, and, the length being
// known, get Content-Length, Range and a strong ETag, the one the original
// itself would have.
func TestDecodedResponseIsCached(t *testing.T) {
	full := siteFS(t)
	originalTag := do(FileServer(full, Config{}), "GET", "/app.js").Header().Get("ETag")
	fsys := siteFS(t)
	delete(fsys, "app.js")
	c := &countingFS{FS: fsys}
	h := FileServer(c, Config{})
	w := do(h, "GET", "/app.js")
	if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), jsBody) {
		t.Fatalf("first request: status %d, %d bytes; want 200 and the decoded original", w.Code, w.Body.Len())
	}
	if got := w.Header().Get("ETag"); got != originalTag {
		t.Errorf("decoded ETag %s, want %s, the original's", got, originalTag)
	}
	if got := w.Header().Get("Content-Length"); got != fmt.Sprint(len(jsBody)) {
		t.Errorf("Content-Length %q, want %d", got, len(jsBody))
	}
	c.reset()
	w = do(h, "GET", "/app.js", "Range", "bytes=0-9")
	if w.Code != 206 || !bytes.Equal(w.Body.Bytes(), jsBody[:10]) {
		t.Errorf("Range on the cached decoded body: status %d, %q; want 206 and the first 10 bytes", w.Code, w.Body.String())
	}
	if n := c.reset(); n != 0 {
		t.Errorf("second request made %d file-system calls, want 0: decoded again instead of from the cache", n)
	}
	if w := do(h, "GET", "/app.js", "If-None-Match", originalTag); w.Code != 304 || w.Header().Get("Vary") != "Accept-Encoding" {
		t.Errorf("If-None-Match: status %d, Vary %q; want 304 with Vary", w.Code, w.Header().Get("Vary"))
	}
}

func TestDecodedResponseTooLargeForCacheIsStreamed(t *testing.T) {
	fsys := fstest.MapFS{"app.js.gz": file(jsSidecar(t, "gzip"))}
	// Entries may take a quarter of the budget: 1000 bytes, less than jsBody.
	h := FileServer(fsys, Config{FallbackCacheBytes: 4000})
	w := do(h, "GET", "/app.js")
	if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), jsBody) || w.Header().Get("ETag")[:2] != "W/" {
		t.Errorf("status %d, %d bytes, ETag %s; want 200, the decoded original, and the weak tag of a streamed body", w.Code, w.Body.Len(), w.Header().Get("ETag"))
	}
}

func TestCorruptSidecarFoundBeforeHeadersAnswers500(t *testing.T) {
	gz := jsSidecar(t, "gzip")
	h := FileServer(fstest.MapFS{"app.js.gz": file(gz[:len(gz)-8])}, Config{})
	if w := do(h, "GET", "/app.js"); w.Code != 500 {
		t.Errorf("corrupt sidecar decoded into the cache: status %d, want 500", w.Code)
	}
}
