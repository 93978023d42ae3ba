package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
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
// coding, who made the bytes (Stats.Origin) and the reason the middleware
// gave in Stats.Skip, as the page's table shows them.
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
		{"HEAD", "zstd"},    // RFC 9110 §9.3.2: what the GET gets, no body sent
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
		got = append(got, r.Coding+"/"+r.Origin+"/"+r.Skip)
	}
	want := []string{"zstd/encoder/", "identity/handler/not accepted", "zstd/encoder/"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("recent responses as coding/origin/reason: %q, want %q", got, want)
	}
}

// TestDemoEventsOutliveWriteTimeout: the server's WriteTimeout counts from
// the request, so a stream that outlives it is cut (the client sees an
// unexpected EOF) unless each event renews the deadline, as serveEvents
// does through http.ResponseController, behind the middleware.
func TestDemoEventsOutliveWriteTimeout(t *testing.T) {
	t.Parallel()
	h, err := newHandler(nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Config.WriteTimeout = time.Second // the stream lasts 4.5 s
	srv.Start()
	defer srv.Close()
	client := &http.Client{Timeout: waitTimeout}
	resp, err := client.Get(srv.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if n := bytes.Count(body, []byte("id: ")); err != nil || n != 10 || !resp.Uncompressed {
		t.Fatalf("%d events of 10 (decoded from gzip: %v), then %v", n, resp.Uncompressed, err)
	}
}

// TestDemoDocListsOnlyServedPaths: every path docs/demo.md lists as one the
// demo serves answers something other than 404 (it listed /static/, which
// precompressed.FileServer, listing no directories, answers with 404).
func TestDemoDocListsOnlyServedPaths(t *testing.T) {
	doc, err := os.ReadFile("../../docs/demo.md")
	if err != nil {
		t.Fatal(err)
	}
	h, err := newHandler(nil)
	if err != nil {
		t.Fatal(err)
	}
	// A cancelled request ends /events after its first event.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var paths []string
	for _, line := range strings.Split(string(doc), "\n") {
		if !strings.HasPrefix(line, "- `/") {
			continue
		}
		item, _, _ := strings.Cut(line, " — ")
		cells := strings.Split(item, "`")
		for i := 1; i < len(cells); i += 2 {
			paths = append(paths, cells[i])
		}
	}
	if len(paths) < 6 {
		t.Fatalf("found only %v in docs/demo.md's list", paths)
	}
	for _, path := range paths {
		r := httptest.NewRequestWithContext(ctx, "GET", path, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code == http.StatusNotFound {
			t.Errorf("docs/demo.md lists %s, which answers 404", path)
		}
	}
}
