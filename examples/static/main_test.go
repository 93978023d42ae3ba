package main

import (
	"bytes"
	"net/http/httptest"
	"testing"
)

func TestStaticServesTheGeneratedSidecar(t *testing.T) {
	h, err := newHandler()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path, accept, coding, sidecar string
	}{
		{"/", "zstd", "zstd", "site/index.html.zst"},
		{"/style.css", "br", "br", "site/style.css.br"},
		{"/style.css", "gzip", "gzip", "site/style.css.gz"},
		{"/style.css", "", "", "site/style.css"},
	}
	for _, c := range cases {
		req := httptest.NewRequest("GET", c.path, nil)
		req.Header.Set("Accept-Encoding", c.accept)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if got := rec.Header().Get("Content-Encoding"); rec.Code != 200 || got != c.coding {
			t.Errorf("%s with Accept-Encoding %q: status %d, Content-Encoding %q, want %q", c.path, c.accept, rec.Code, got, c.coding)
			continue
		}
		// The bytes sent are the committed file, not a fresh compression.
		want, err := site.ReadFile(c.sidecar)
		if err != nil {
			t.Fatalf("%s: %v (run go generate)", c.sidecar, err)
		}
		if !bytes.Equal(rec.Body.Bytes(), want) {
			t.Errorf("%s as %q: body is not %s", c.path, c.coding, c.sidecar)
		}
		if rec.Header().Get("Vary") != "Accept-Encoding" || rec.Header().Get("ETag") == "" {
			t.Errorf("%s as %q: Vary %q, ETag %q", c.path, c.coding, rec.Header().Get("Vary"), rec.Header().Get("ETag"))
		}
	}
}
