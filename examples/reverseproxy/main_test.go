package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
)

var page = strings.Repeat("<p>proxied and compressed</p>\n", 200)

// backend serves /plain as is, /gzip compressed by itself when asked, and
// /no-transform with that directive.
func backend() *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/plain", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, page)
	})
	mux.HandleFunc("/gzip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Vary", "Accept-Encoding")
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			io.WriteString(w, page)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		io.WriteString(zw, page)
		zw.Close()
	})
	mux.HandleFunc("/no-transform", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Cache-Control", "no-transform")
		io.WriteString(w, page)
	})
	return httptest.NewServer(mux)
}

func TestReverseProxyCompressesOnlyWhatTheBackendLeftAlone(t *testing.T) {
	be := backend()
	defer be.Close()
	u, _ := url.Parse(be.URL)
	proxy := httptest.NewServer(newHandler(u))
	defer proxy.Close()

	cases := []struct {
		path, accept, want string
	}{
		{"/plain", "zstd", "zstd"},          // compressed by the middleware
		{"/gzip", "gzip, zstd", "gzip"},     // the backend's own coding passes through
		{"/no-transform", "zstd, gzip", ""}, // RFC 9110 §7.7: not ours to change
		{"/gzip", "identity", ""},           // nothing to do either side
	}
	for _, c := range cases {
		req, _ := http.NewRequest("GET", proxy.URL+c.path, nil)
		req.Header.Set("Accept-Encoding", c.accept)
		resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if got := resp.Header.Get("Content-Encoding"); got != c.want {
			t.Errorf("%s with Accept-Encoding %q: Content-Encoding %q, want %q", c.path, c.accept, got, c.want)
			continue
		}
		switch c.want {
		case "":
			if string(body) != page {
				t.Errorf("%s: identity body changed (%d bytes)", c.path, len(body))
			}
		case "gzip":
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatalf("%s: %v (compressed twice?)", c.path, err)
			}
			if plain, _ := io.ReadAll(zr); string(plain) != page {
				t.Errorf("%s: the backend's gzip body did not decode to the page", c.path)
			}
		default:
			if len(body) >= len(page) {
				t.Errorf("%s: %d bytes sent for %d", c.path, len(body), len(page))
			}
		}
		// A no-transform response is the same for every client: no Vary.
		wantVary := []string{"Accept-Encoding"}
		if c.path == "/no-transform" {
			wantVary = nil
		}
		if v := resp.Header.Values("Vary"); !slices.Equal(v, wantVary) {
			t.Errorf("%s: Vary %q, want %q", c.path, v, wantVary)
		}
	}
}
