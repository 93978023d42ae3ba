package precompressed

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestSidecarChosenByAcceptEncoding(t *testing.T) {
	fsys := siteFS(t)
	h := FileServer(fsys, Config{})
	tests := []struct {
		accept string
		want   string // Content-Encoding, "" for identity
	}{
		{"", ""},
		{"gzip", "gzip"},
		{"x-gzip", "gzip"},
		{"br", "br"},
		{"zstd", "zstd"},
		{"gzip, br, zstd", "zstd"}, // equal weights: the server's order
		{"gzip;q=1, br;q=0.9, zstd;q=0.8", "gzip"},
		{"br;q=0, *", "zstd"},
		{"*;q=0, gzip;q=0.1", "gzip"},
		{"identity", ""},
		{"deflate", ""},
	}
	for _, tt := range tests {
		var w = do(h, "GET", "/app.js")
		if tt.accept != "" {
			w = do(h, "GET", "/app.js", "Accept-Encoding", tt.accept)
		}
		if got := w.Header().Get("Content-Encoding"); got != tt.want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", tt.accept, got, tt.want)
			continue
		}
		want := fsys["app.js"].Data
		for _, sc := range DefaultSidecars() {
			if sc.Coding == tt.want {
				want = fsys["app.js"+sc.Ext].Data
			}
		}
		if w.Code != 200 || w.Body.String() != string(want) {
			t.Errorf("Accept-Encoding %q: status %d, %d body bytes, want 200 and the %d bytes of the variant", tt.accept, w.Code, w.Body.Len(), len(want))
		}
		if got := w.Header().Get("Content-Type"); got != "text/javascript; charset=utf-8" {
			t.Errorf("Accept-Encoding %q: Content-Type %q, want the original's", tt.accept, got)
		}
		if got := w.Header().Get("Content-Length"); got != strconv.Itoa(len(want)) {
			t.Errorf("Accept-Encoding %q: Content-Length %q, want %d", tt.accept, got, len(want))
		}
		if got := w.Header().Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: Vary %q, want Accept-Encoding", tt.accept, got)
		}
	}
}

func TestConfiguredSidecarOrderBreaksTies(t *testing.T) {
	h := FileServer(siteFS(t), Config{Sidecars: []Sidecar{{"gzip", ".gz"}, {"br", ".br"}}})
	if got := do(h, "GET", "/app.js", "Accept-Encoding", "zstd, br, gzip").Header().Get("Content-Encoding"); got != "gzip" {
		t.Errorf("Content-Encoding %q, want gzip, first in the configured order (zstd is not configured)", got)
	}
}

func TestETagIsContentHashTaggedWithCoding(t *testing.T) {
	fsys := siteFS(t)
	// Two sidecars of equal size and date but different bytes: mtime+size
	// tags would collide.
	fsys["a.txt"] = file([]byte("aaaa"))
	fsys["a.txt.gz"] = file([]byte("gz-1"))
	fsys["b.txt"] = file([]byte("aaaa"))
	fsys["b.txt.gz"] = file([]byte("gz-2"))
	h := FileServer(fsys, Config{})
	seen := map[string]string{}
	for _, req := range []struct{ path, accept string }{
		{"/app.js", ""}, {"/app.js", "gzip"}, {"/app.js", "br"}, {"/app.js", "zstd"},
		{"/a.txt", "gzip"}, {"/b.txt", "gzip"},
	} {
		w := do(h, "GET", req.path, "Accept-Encoding", req.accept)
		tag := w.Header().Get("ETag")
		if !strings.HasPrefix(tag, `"`) || !strings.HasSuffix(tag, `"`) {
			t.Fatalf("%s %q: ETag %q is not a strong tag", req.path, req.accept, tag)
		}
		if coding := w.Header().Get("Content-Encoding"); coding != "" && !strings.HasSuffix(tag, "-"+coding+`"`) {
			t.Errorf("%s %q: ETag %q is not tagged with its coding %s", req.path, req.accept, tag, coding)
		}
		if prev, ok := seen[tag]; ok {
			t.Errorf("%s %q: ETag %q already used by %s", req.path, req.accept, tag, prev)
		}
		seen[tag] = req.path + " " + req.accept
	}
	// Stable across servers (and so across machines and restarts): the
	// same bytes give the same tag.
	again := FileServer(siteFS(t), Config{})
	a := do(h, "GET", "/app.js", "Accept-Encoding", "br").Header().Get("ETag")
	b := do(again, "GET", "/app.js", "Accept-Encoding", "br").Header().Get("ETag")
	if a != b {
		t.Errorf("same bytes, different ETags %q and %q from two servers", a, b)
	}
}

func TestLastModifiedIsThatOfTheFileSent(t *testing.T) {
	fsys := siteFS(t)
	later := t0.Add(time.Hour)
	fsys["app.js.br"].ModTime = later
	h := FileServer(fsys, Config{})
	for accept, want := range map[string]time.Time{"br": later, "gzip": t0, "": t0} {
		got := do(h, "GET", "/app.js", "Accept-Encoding", accept).Header().Get("Last-Modified")
		if got != want.Format(http.TimeFormat) {
			t.Errorf("Accept-Encoding %q: Last-Modified %q, want %q", accept, got, want.Format(http.TimeFormat))
		}
	}
}

func TestConditionalRequestsPerVariant(t *testing.T) {
	h := FileServer(siteFS(t), Config{})
	brTag := do(h, "GET", "/app.js", "Accept-Encoding", "br").Header().Get("ETag")
	idTag := do(h, "GET", "/app.js").Header().Get("ETag")
	lastMod := t0.Format(http.TimeFormat)
	tests := []struct {
		name     string
		headers  []string
		want     int
		encoding string
	}{
		{"If-None-Match of the variant", []string{"Accept-Encoding", "br", "If-None-Match", brTag}, 304, ""},
		{"If-None-Match weak form", []string{"Accept-Encoding", "br", "If-None-Match", "W/" + brTag}, 304, ""},
		{"If-None-Match of another variant", []string{"Accept-Encoding", "br", "If-None-Match", idTag}, 200, "br"},
		{"If-None-Match on identity", []string{"If-None-Match", idTag}, 304, ""},
		{"If-Match of the variant", []string{"Accept-Encoding", "br", "If-Match", brTag}, 200, "br"},
		{"If-Match of another variant", []string{"Accept-Encoding", "br", "If-Match", idTag}, 412, ""},
		{"If-Match weak never matches", []string{"Accept-Encoding", "br", "If-Match", "W/" + brTag}, 412, ""},
		{"If-Modified-Since", []string{"Accept-Encoding", "br", "If-Modified-Since", lastMod}, 304, ""},
	}
	for _, tt := range tests {
		w := do(h, "GET", "/app.js", tt.headers...)
		if w.Code != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, w.Code, tt.want)
		}
		if got := w.Header().Get("Content-Encoding"); got != tt.encoding {
			t.Errorf("%s: Content-Encoding %q, want %q", tt.name, got, tt.encoding)
		}
		if w.Code == 304 {
			// RFC 9110 §15.4.5: a 304 carries the ETag and Vary a 200 would.
			if w.Header().Get("ETag") == "" || w.Header().Get("Vary") != "Accept-Encoding" {
				t.Errorf("%s: 304 with ETag %q and Vary %q, want both", tt.name, w.Header().Get("ETag"), w.Header().Get("Vary"))
			}
		}
	}
}

func TestRangeIsOnEncodedBytes(t *testing.T) {
	fsys := siteFS(t)
	h := FileServer(fsys, Config{})
	br := fsys["app.js.br"].Data
	tag := do(h, "GET", "/app.js", "Accept-Encoding", "br").Header().Get("ETag")
	tests := []struct {
		name    string
		headers []string
		want    int
		body    []byte
	}{
		{"Range", []string{"Range", "bytes=0-9"}, 206, br[:10]},
		{"suffix Range", []string{"Range", "bytes=-5"}, 206, br[len(br)-5:]},
		{"If-Range with the variant's tag", []string{"Range", "bytes=0-9", "If-Range", tag}, 206, br[:10]},
		{"If-Range with another tag", []string{"Range", "bytes=0-9", "If-Range", `"other"`}, 200, br},
		{"unsatisfiable Range", []string{"Range", "bytes=100000-"}, 416, nil},
	}
	for _, tt := range tests {
		w := do(h, "GET", "/app.js", append([]string{"Accept-Encoding", "br"}, tt.headers...)...)
		if w.Code != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, w.Code, tt.want)
			continue
		}
		if tt.body != nil && w.Body.String() != string(tt.body) {
			t.Errorf("%s: body %q, want %q", tt.name, w.Body.Bytes(), tt.body)
		}
		if tt.want == 206 && w.Header().Get("Content-Encoding") != "br" {
			t.Errorf("%s: 206 without Content-Encoding: br", tt.name)
		}
		if tt.want == 416 && w.Header().Get("Content-Encoding") != "" {
			t.Errorf("%s: 416 error body labelled Content-Encoding %q", tt.name, w.Header().Get("Content-Encoding"))
		}
	}
}

func TestHeadSendsContentLengthOfTheVariant(t *testing.T) {
	fsys := siteFS(t)
	h := FileServer(fsys, Config{})
	for _, sc := range DefaultSidecars() {
		w := do(h, "HEAD", "/app.js", "Accept-Encoding", sc.Coding)
		if w.Body.Len() != 0 {
			t.Errorf("HEAD %s: %d body bytes", sc.Coding, w.Body.Len())
		}
		if got, want := w.Header().Get("Content-Length"), strconv.Itoa(len(fsys["app.js"+sc.Ext].Data)); got != want {
			t.Errorf("HEAD %s: Content-Length %q, want %s", sc.Coding, got, want)
		}
		if w.Header().Get("Content-Encoding") != sc.Coding {
			t.Errorf("HEAD %s: Content-Encoding %q", sc.Coding, w.Header().Get("Content-Encoding"))
		}
	}
}

func TestOnlyGetAndHeadAllowed(t *testing.T) {
	h := FileServer(siteFS(t), Config{})
	for _, m := range []string{"POST", "PUT", "DELETE", "OPTIONS", "PATCH"} {
		w := do(h, m, "/app.js")
		if w.Code != 405 || w.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: status %d, Allow %q; want 405 and GET, HEAD", m, w.Code, w.Header().Get("Allow"))
		}
	}
}

func TestStaleSidecarIgnored(t *testing.T) {
	fsys := siteFS(t)
	fsys["app.js"].ModTime = t0.Add(time.Minute) // rebuilt after its sidecars
	fsys["app.js.gz"].ModTime = t0.Add(time.Minute)
	h := FileServer(fsys, Config{})
	if got := do(h, "GET", "/app.js", "Accept-Encoding", "br, zstd").Header().Get("Content-Encoding"); got != "" {
		t.Errorf("stale br and zstd sidecars: Content-Encoding %q, want identity", got)
	}
	if got := do(h, "GET", "/app.js", "Accept-Encoding", "br, gzip").Header().Get("Content-Encoding"); got != "gzip" {
		t.Errorf("fresh gzip sidecar: Content-Encoding %q, want gzip", got)
	}
	stale := FileServer(fsys, Config{ServeStale: true})
	if got := do(stale, "GET", "/app.js", "Accept-Encoding", "br").Header().Get("Content-Encoding"); got != "br" {
		t.Errorf("ServeStale: Content-Encoding %q, want br", got)
	}
}

func TestMissingOriginalServedFromSidecar(t *testing.T) {
	fsys := siteFS(t)
	delete(fsys, "app.js")
	h := FileServer(fsys, Config{})
	w := do(h, "GET", "/app.js", "Accept-Encoding", "br")
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "br" || w.Body.String() != string(fsys["app.js.br"].Data) {
		t.Fatalf("client accepting br: status %d, Content-Encoding %q; want 200 and the br sidecar", w.Code, w.Header().Get("Content-Encoding"))
	}
	w = do(h, "GET", "/app.js", "Range", "bytes=0-9")
	if w.Code != 200 || w.Body.String() != string(jsBody) {
		t.Fatalf("client accepting nothing: status %d, %d bytes; want 200 and the decoded original (no Range)", w.Code, w.Body.Len())
	}
	if w.Header().Get("Content-Encoding") != "" || w.Header().Get("Accept-Ranges") != "" {
		t.Errorf("decoded response has Content-Encoding %q, Accept-Ranges %q; want neither", w.Header().Get("Content-Encoding"), w.Header().Get("Accept-Ranges"))
	}
	if w.Header().Get("Content-Type") != "text/javascript; charset=utf-8" || w.Header().Get("Vary") != "Accept-Encoding" {
		t.Errorf("decoded response: Content-Type %q, Vary %q", w.Header().Get("Content-Type"), w.Header().Get("Vary"))
	}
	tag := w.Header().Get("ETag")
	if !strings.HasPrefix(tag, `W/"`) {
		t.Fatalf("decoded response ETag %q, want a weak tag", tag)
	}
	if w := do(h, "GET", "/app.js", "If-None-Match", tag); w.Code != 304 || w.Header().Get("Vary") == "" {
		t.Errorf("If-None-Match of the decoded tag: status %d, Vary %q; want 304 with Vary", w.Code, w.Header().Get("Vary"))
	}
	if w := do(h, "GET", "/app.js", "If-Match", tag); w.Code != 412 {
		t.Errorf("If-Match of a weak tag: status %d, want 412 (strong comparison)", w.Code)
	}
	if w := do(h, "HEAD", "/app.js"); w.Code != 200 || w.Body.Len() != 0 {
		t.Errorf("HEAD of decoded: status %d, %d body bytes", w.Code, w.Body.Len())
	}
}

func TestDirectSidecarRequestIsTheArchive(t *testing.T) {
	fsys := siteFS(t)
	h := FileServer(fsys, Config{})
	for _, tt := range []struct{ path, ctype string }{
		{"/app.js.gz", "application/gzip"},
		{"/app.js.zst", "application/zstd"},
		{"/app.js.br", "application/octet-stream"},
	} {
		w := do(h, "GET", tt.path, "Accept-Encoding", "gzip, br, zstd")
		if w.Code != 200 || w.Header().Get("Content-Type") != tt.ctype || w.Header().Get("Content-Encoding") != "" {
			t.Errorf("%s: status %d, Content-Type %q, Content-Encoding %q; want 200, %s, none",
				tt.path, w.Code, w.Header().Get("Content-Type"), w.Header().Get("Content-Encoding"), tt.ctype)
		}
		if w.Body.String() != string(fsys[tt.path[1:]].Data) {
			t.Errorf("%s: body is not the file's bytes", tt.path)
		}
		if hidden := do(FileServer(fsys, Config{HideSidecars: true}), "GET", tt.path); hidden.Code != 404 {
			t.Errorf("%s with HideSidecars: status %d, want 404", tt.path, hidden.Code)
		}
	}
}

func TestHideRulesApplyToSidecars(t *testing.T) {
	fsys := siteFS(t)
	hideBr := FileServer(fsys, Config{Hide: func(name string) bool { return strings.HasSuffix(name, ".br") }})
	if got := do(hideBr, "GET", "/app.js", "Accept-Encoding", "br").Header().Get("Content-Encoding"); got != "" {
		t.Errorf("hidden br sidecar was served (Content-Encoding %q)", got)
	}
	h := FileServer(fsys, Config{})
	for _, p := range []string{"/.env", "/.env.gz", "/.env.br"} {
		for _, accept := range []string{"", "gzip, br, zstd"} {
			if w := do(h, "GET", p, "Accept-Encoding", accept); w.Code != 404 {
				t.Errorf("dotfile %s (Accept-Encoding %q): status %d, want 404", p, accept, w.Code)
			}
		}
	}
	if w := do(FileServer(fsys, Config{ServeDotfiles: true}), "GET", "/.env"); w.Code != 200 {
		t.Errorf("ServeDotfiles: /.env status %d, want 200", w.Code)
	}
	if w := do(FileServer(fsys, Config{Hide: func(name string) bool { return name == "app.js" }}), "GET", "/app.js"); w.Code != 404 {
		t.Errorf("Hide(app.js): status %d, want 404", w.Code)
	}
}

func TestDirectoryIndexAndCanonicalRedirects(t *testing.T) {
	fsys := siteFS(t)
	fsys["only/index.html.br"] = file(compress(t, "br", []byte("<!doctype html><title>only br</title>")))
	fsys["empty/x.txt"] = file([]byte("x"))
	h := FileServer(fsys, Config{})
	tests := []struct {
		target   string
		want     int
		location string
		body     string
	}{
		{"/", 200, "", "<!doctype html><title>home</title>"},
		{"/docs/", 200, "", "<!doctype html><title>docs</title>"},
		{"/docs", 301, "docs/", ""},
		{"/docs?q=1&r=2", 301, "docs/?q=1&r=2", ""},
		{"/docs/index.html?q=1", 301, "./?q=1", ""},
		{"/index.html", 301, "./", ""},
		{"/app.js/", 301, "../app.js", ""},
		{"/only/", 200, "", "<!doctype html><title>only br</title>"},
		{"/empty/", 404, "", ""},
		{"/missing/", 404, "", ""},
	}
	for _, tt := range tests {
		w := do(h, "GET", tt.target)
		if w.Code != tt.want || w.Header().Get("Location") != tt.location {
			t.Errorf("%s: status %d, Location %q; want %d, %q", tt.target, w.Code, w.Header().Get("Location"), tt.want, tt.location)
			continue
		}
		if tt.body != "" && w.Body.String() != tt.body {
			t.Errorf("%s: body %q, want %q", tt.target, w.Body.String(), tt.body)
		}
	}
	if w := do(h, "GET", "/only/", "Accept-Encoding", "br"); w.Header().Get("Content-Encoding") != "br" || w.Header().Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("index only as br: Content-Encoding %q, Content-Type %q", w.Header().Get("Content-Encoding"), w.Header().Get("Content-Type"))
	}
}

func TestTraversalRejected(t *testing.T) {
	h := FileServer(siteFS(t), Config{})
	for _, p := range []string{"/../app.js", "/docs/../../app.js", "/docs/..", "/a\\..\\app.js", "/app.js\x00"} {
		r := httptest.NewRequest("GET", "/", nil)
		r.URL.Path = p // as a server would decode %2e%2e, %5c and %00
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 400 && w.Code != 404 {
			t.Errorf("path %q: status %d, want 400 or 404", p, w.Code)
		}
	}
}

func TestTypeSniffedWhenExtensionSaysNothing(t *testing.T) {
	fsys := siteFS(t)
	fsys["LICENSE"] = file([]byte("Permission is hereby granted, free of charge"))
	fsys["README"] = file(nil)
	fsys["README.gz"] = file(compress(t, "gzip", []byte("<!DOCTYPE html><p>hi")))
	h := FileServer(fsys, Config{})
	delete(fsys, "README")
	for p, want := range map[string]string{"/LICENSE": "text/plain; charset=utf-8", "/README": "text/html; charset=utf-8"} {
		if got := do(h, "GET", p).Header().Get("Content-Type"); got != want {
			t.Errorf("%s: Content-Type %q, want %q", p, got, want)
		}
	}
}

// A sidecar that turns out corrupt halfway through decoding cannot change
// the status already sent; the response must be cut off, so that the
// client does not take a truncated body for the whole.
func TestCorruptSidecarDecodeAbortsResponse(t *testing.T) {
	gz := compress(t, "gzip", jsBody)
	corrupt := append([]byte{}, gz[:len(gz)-8]...) // drop the CRC and length
	srv := httptest.NewServer(FileServer(fstest.MapFS{"app.js.gz": file(corrupt)}, Config{}))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/app.js", nil)
	req.Header.Set("Accept-Encoding", "identity")
	// The abort may come before the headers leave the server's buffer
	// (the connection closes) or after (the chunked body is cut short).
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err == nil {
		t.Errorf("a body decoded from a corrupt sidecar arrived as if whole; want the response cut off")
	}
}
