package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// waitTimeout bounds a test's wait for the network. It is reached only when
// something is wrong, so it is generous: on a loaded machine a peer such as
// Python can take seconds to start, and a context that has run out fails
// even a read whose message already arrived.
const waitTimeout = time.Minute

func TestDemoServesEachRouteCompressed(t *testing.T) {
	h, err := newHandler(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, path := range []string{"/api/items", "/static/app.js"} {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", "zstd")
		resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "zstd" {
			t.Errorf("%s: status %d, Content-Encoding %q", path, resp.StatusCode, resp.Header.Get("Content-Encoding"))
		}
		// The committed sidecar is what goes out; a stale one (go generate
		// not run after an edit) fails the manifest check and is not served.
		if path == "/static/app.js" {
			if want, _ := staticFiles.ReadFile("static/app.js.zst"); !bytes.Equal(body, want) {
				t.Errorf("%s: body is not static/app.js.zst: run go generate ./examples/server", path)
			}
		}
	}
	// Go's client asks for gzip and decodes it: the SSE stream arrives as events.
	resp, err := http.Get(srv.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	resp.Body.Close()
	if err != nil || line != "id: 0\n" || !resp.Uncompressed {
		t.Fatalf("first event line %q (err %v, decoded from gzip: %v)", line, err, resp.Uncompressed)
	}
	resp, err = http.Get(srv.URL + "/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var stats statsReply
	if err := json.NewDecoder(resp.Body).Decode(&stats); err != nil || stats.Codings["zstd"].Responses != 1 {
		t.Fatalf("stats %v, err %v: want the zstd response counted", stats, err)
	}
}

// TestDemoStatsSayWhyNotCompressed: /stats lists, per recent response, the
// reason the middleware gave in Stats.Skip, as the page's table shows it.
func TestDemoStatsSayWhyNotCompressed(t *testing.T) {
	h, err := newHandler(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, tc := range []struct{ method, accept string }{
		{"GET", "zstd"},     // compressed: no reason
		{"GET", "identity"}, // RFC 9110 §12.5.3: nothing better than identity
		{"HEAD", "zstd"},    // RFC 9110 §9.3.2: no body to compress
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+"/api/items", nil)
		req.Header.Set("Accept-Encoding", tc.accept)
		resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	s := stats(t, srv)
	var got []string
	for _, r := range s.Recent {
		got = append(got, r.Coding+"/"+r.Skip)
	}
	want := []string{"zstd/", "identity/not accepted", "identity/HEAD"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("recent responses as coding/reason: %q, want %q", got, want)
	}
}
