package main

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/squeezehttp/squeeze/internal/interop"
)

// get serves one request through the app with the header lines given.
func get(t *testing.T, h http.Handler, url string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// The page links the dictionary (RFC 9842 §3), which is served with
// Use-As-Dictionary for /api/*; a call to the API that names it gets dcz,
// which decodes with it to the JSON and is smaller than br.
func TestAPIResponsesComeAsDCZWithTheRouteDictionary(t *testing.T) {
	h, route, err := newApp()
	if err != nil {
		t.Fatal(err)
	}
	g, ok := route.Announced()
	if !ok {
		t.Fatal("the fixtures' dictionary was not announced")
	}
	if link := get(t, h, "http://localhost/").Header().Get("Link"); link != `</dictionaries/api>; rel="compression-dictionary"` {
		t.Fatalf("page Link %q", link)
	}
	d := get(t, h, "http://localhost/dictionaries/api")
	if d.Code != 200 || d.Header().Get("Use-As-Dictionary") == "" {
		t.Fatalf("dictionary: status %d, Use-As-Dictionary %q", d.Code, d.Header().Get("Use-As-Dictionary"))
	}
	dict := d.Body.Bytes()
	want := ordersPage(7)
	dcz := get(t, h, "http://localhost/api/orders?page=7", "Accept-Encoding", "br, zstd, dcz",
		"Available-Dictionary", ":"+base64.StdEncoding.EncodeToString(g.Hash[:])+":")
	if dcz.Header().Get("Content-Encoding") != "dcz" {
		t.Fatalf("Content-Encoding %q, want dcz", dcz.Header().Get("Content-Encoding"))
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderDicts(), zstd.WithDecoderDictRaw(0, dict))
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	if got, err := dec.DecodeAll(dcz.Body.Bytes(), nil); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("dcz decoded to %d bytes, %v; want the page's %d", len(got), err, len(want))
	}
	br := get(t, h, "http://localhost/api/orders?page=7", "Accept-Encoding", "br")
	t.Logf("page 7: %d bytes, br %d, dcz %d", len(want), br.Body.Len(), dcz.Body.Len())
	if dcz.Body.Len()*13 > br.Body.Len()*10 {
		t.Errorf("dcz %d bytes, not 1.3× smaller than br's %d", dcz.Body.Len(), br.Body.Len())
	}
}

// Headless Chromium fetches the dictionary the page links, then calls the
// API with Available-Dictionary and decodes the dcz responses to the JSON
// the page reads; Resource Timing shows their size on the wire.
func TestChromiumGetsAPIResponsesAsDCZ(t *testing.T) {
	browser := interop.Chromium(t)
	h, _, err := newApp()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	fetched := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/dictionaries/api" {
			mu.Lock()
			fetched = true
			mu.Unlock()
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	// The profile keeps the dictionary from one load of the page to the
	// next, as a browser does.
	dom := browser.Profile(t).WaitDOM(t, srv.URL+"/", "dcz page=")
	mu.Lock()
	defer mu.Unlock()
	if !fetched {
		t.Error("Chromium never fetched the dictionary, yet got dcz")
	}
	m := regexp.MustCompile(`dcz page=(\d+) transfer=\d+ encoded=(\d+) decoded=(\d+)`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("no dcz line with its sizes in the page:\n%s", dom)
	}
	n, _ := strconv.Atoi(m[1])
	encoded, _ := strconv.Atoi(m[2])
	decoded, _ := strconv.Atoi(m[3])
	if want := len(ordersPage(n)); decoded != want {
		t.Errorf("page %d: Chromium decoded %d bytes, want %d", n, decoded, want)
	}
	t.Logf("page %d: %d bytes as dcz for %d decoded", n, encoded, decoded)
	if encoded == 0 || encoded*3 > decoded {
		t.Errorf("page %d: %d bytes on the wire for %d: the dictionary saved little", n, encoded, decoded)
	}
}
