package main

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/klauspost/compress/zstd"
)

func TestConfigPublishesMetricsThroughExpvar(t *testing.T) {
	h, err := newHandler()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		accept, want string
	}{
		{"zstd, br, gzip", "zstd"}, // ties go to the server's order
		{"br;q=1, zstd;q=0.5", "br"},
		{"deflate", ""}, // not configured: identity
	}
	for _, c := range cases {
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("Accept-Encoding", c.accept)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if got := rec.Header().Get("Content-Encoding"); got != c.want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", c.accept, got, c.want)
		}
	}

	req := httptest.NewRequest("GET", "/debug/vars", nil)
	req.Header.Set("Accept-Encoding", "zstd")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Header().Get("Content-Encoding") != "zstd" {
		t.Fatalf("/debug/vars: Content-Encoding %q, want zstd (it is JSON)", rec.Header().Get("Content-Encoding"))
	}
	zr, err := zstd.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var vars struct {
		Squeeze map[string]int64 `json:"squeeze"`
	}
	if err := json.NewDecoder(zr).Decode(&vars); err != nil {
		t.Fatalf("/debug/vars: %v", err)
	}
	m := vars.Squeeze
	if m["zstd.responses"] != 1 || m["br.responses"] != 1 || m["identity.responses"] != 1 {
		t.Errorf("responses per coding %v, want one each for zstd, br and identity", m)
	}
	if m["origin.encoder.responses"] != 2 || m["origin.handler.responses"] != 1 {
		t.Errorf("responses per origin %v, want two from the encoder and one from the handler", m)
	}
	if m["zstd.bytes_out"] <= 0 || m["zstd.bytes_out"] >= m["zstd.bytes_in"] {
		t.Errorf("zstd bytes in %d, out %d: want out smaller and above zero", m["zstd.bytes_in"], m["zstd.bytes_out"])
	}
}
