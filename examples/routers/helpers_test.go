package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// get sends a GET for path to h, with the header fields in pairs.
func get(h http.Handler, path string, fields ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(fields); i += 2 {
		req.Header.Set(fields[i], fields[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// gunzip decodes a gzip body.
func gunzip(t *testing.T, body []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("gzip body: %v", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gzip body: %v", err)
	}
	return string(b)
}

// varies reports whether the response's Vary names Accept-Encoding.
func varies(rec *httptest.ResponseRecorder) bool {
	for _, v := range rec.Header().Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), "Accept-Encoding") {
				return true
			}
		}
	}
	return false
}

// checkRouter checks what every router must show once the middleware is
// in place: each coding negotiated, Vary: Accept-Encoding on compressed
// and identity responses, the strong ETag made per coding (RFC 9110
// §8.8.3.3) and revalidated with a 304, and the router's error responses
// compressed too.
func checkRouter(t *testing.T, h http.Handler) {
	t.Helper()
	for _, coding := range []string{"zstd", "br", "gzip", "deflate"} {
		rec := get(h, itemsPath, "Accept-Encoding", coding)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != coding {
			t.Errorf("%s with Accept-Encoding %s: status %d, Content-Encoding %q; want 200 in %[2]s", itemsPath, coding, rec.Code, rec.Header().Get("Content-Encoding"))
		}
		if !varies(rec) {
			t.Errorf("%s in %s: Vary %q, want Accept-Encoding", itemsPath, coding, rec.Header().Values("Vary"))
		}
		if want := `"items-v1-` + coding + `"`; rec.Header().Get("ETag") != want {
			t.Errorf("%s in %s: ETag %s, want %s", itemsPath, coding, rec.Header().Get("ETag"), want)
		}
		if rec.Body.Len() >= len(itemsJSON)/2 {
			t.Errorf("%s in %s: %d bytes sent for %d", itemsPath, coding, rec.Body.Len(), len(itemsJSON))
		}
	}
	if rec := get(h, itemsPath, "Accept-Encoding", "gzip"); gunzip(t, rec.Body.Bytes()) != itemsJSON {
		t.Errorf("%s in gzip does not decode to the handler's body", itemsPath)
	}

	rec := get(h, itemsPath)
	if rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != itemsJSON {
		t.Errorf("%s without Accept-Encoding: Content-Encoding %q, %d bytes; want the identity body", itemsPath, rec.Header().Get("Content-Encoding"), rec.Body.Len())
	}
	if !varies(rec) || rec.Header().Get("ETag") != itemsETag {
		t.Errorf("%s in identity: Vary %q, ETag %s; want Accept-Encoding and %s", itemsPath, rec.Header().Values("Vary"), rec.Header().Get("ETag"), itemsETag)
	}

	rec = get(h, itemsPath, "Accept-Encoding", "gzip", "If-None-Match", `"items-v1-gzip"`)
	if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
		t.Errorf("If-None-Match with the gzip tag: status %d, %d bytes; want 304 and no body", rec.Code, rec.Body.Len())
	}
	if rec.Header().Get("ETag") != `"items-v1-gzip"` || !varies(rec) {
		t.Errorf("304: ETag %s, Vary %q; want the gzip tag and Accept-Encoding", rec.Header().Get("ETag"), rec.Header().Values("Vary"))
	}

	rec = get(h, missingItemPath, "Accept-Encoding", "gzip")
	if rec.Code != http.StatusNotFound || rec.Header().Get("Content-Encoding") != "gzip" || !varies(rec) {
		t.Fatalf("%s: status %d, Content-Encoding %q, Vary %q; want a gzip 404 with Vary", missingItemPath, rec.Code, rec.Header().Get("Content-Encoding"), rec.Header().Values("Vary"))
	}
	if body := gunzip(t, rec.Body.Bytes()); !strings.Contains(body, notFoundMessage) {
		t.Errorf("%s: the 404's body %.80q does not carry the error", missingItemPath, body)
	}

	// The router's own 404 goes through the middleware too: too small to
	// compress, it goes out as the router wrote it.
	rec = get(h, "/no/such/route", "Accept-Encoding", "gzip")
	if rec.Code != http.StatusNotFound || rec.Body.Len() == 0 || rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("an unrouted path: status %d, %d bytes, Content-Encoding %q; want the router's own 404", rec.Code, rec.Body.Len(), rec.Header().Get("Content-Encoding"))
	}
}
