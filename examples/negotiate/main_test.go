package main

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"io"
	"net/http/httptest"
	"testing"
)

func TestNegotiateChoosesAVariantByWeight(t *testing.T) {
	doc := bytes.Repeat([]byte("negotiated\n"), 200)
	h := newHandler(doc)
	cases := []struct {
		accept string
		status int
		coding string
	}{
		{"", 200, ""},                           // no field: identity
		{"gzip, deflate", 200, "gzip"},          // a tie goes to the server's order
		{"gzip;q=0.5, deflate", 200, "deflate"}, // the client's weight first
		{"br, zstd", 200, ""},                   // nothing we have: identity
		{"GZIP", 200, "gzip"},                   // codings are case-insensitive
		{"x-gzip", 200, "gzip"},                 // RFC 9110 §8.4.1.3: x-gzip is gzip
		{"br, identity;q=0", 406, ""},           // identity refused too
	}
	for _, c := range cases {
		req := httptest.NewRequest("GET", "/", nil)
		if c.accept != "" {
			req.Header.Set("Accept-Encoding", c.accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != c.status || rec.Header().Get("Content-Encoding") != c.coding {
			t.Errorf("Accept-Encoding %q: status %d, Content-Encoding %q; want %d, %q",
				c.accept, rec.Code, rec.Header().Get("Content-Encoding"), c.status, c.coding)
			continue
		}
		if rec.Header().Get("Vary") != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: Vary %q", c.accept, rec.Header().Get("Vary"))
		}
		if c.status != 200 {
			continue
		}
		var r io.Reader = rec.Body
		switch c.coding {
		case "gzip":
			r, _ = gzip.NewReader(r)
		case "deflate":
			r, _ = zlib.NewReader(r)
		}
		if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, doc) {
			t.Errorf("Accept-Encoding %q: body does not decode to the document (%v)", c.accept, err)
		}
	}
}
