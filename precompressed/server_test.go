package precompressed

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
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
		{"gzip, br, zstd", "br"}, // equal weights: the smallest sidecar, br on this text
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

func TestPreferOrderGivesTiesToConfiguredOrder(t *testing.T) {
	h := FileServer(siteFS(t), Config{PreferOrder: true, Sidecars: []Sidecar{{"gzip", ".gz"}, {"br", ".br"}}})
	if got := do(h, "GET", "/app.js", "Accept-Encoding", "zstd, br, gzip").Header().Get("Content-Encoding"); got != "gzip" {
		t.Errorf("Content-Encoding %q, want gzip, first in the configured order (zstd is not configured), though br is smaller", got)
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

// brotli -k, like the other C tools, gives the sidecar the original's
// modification time in whole seconds: on a file system that keeps finer
// times the sidecar reads as a fraction of a second older than the
// original it was made from, and is served. One older than the original's
// second is still stale.
func TestSidecarWithTheOriginalsTimeInWholeSecondsIsServed(t *testing.T) {
	fsys := siteFS(t)
	fsys["app.js"].ModTime = t0.Add(844 * time.Millisecond)
	h := FileServer(fsys, Config{})
	if got := do(h, "GET", "/app.js", "Accept-Encoding", "br").Header().Get("Content-Encoding"); got != "br" {
		t.Errorf("sidecar with the original's time in whole seconds: Content-Encoding %q, want br", got)
	}
	fsys["app.js.br"].ModTime = t0.Add(-time.Millisecond)
	h = FileServer(fsys, Config{})
	if got := do(h, "GET", "/app.js", "Accept-Encoding", "br").Header().Get("Content-Encoding"); got == "br" {
		t.Error("sidecar from before the original's second: served as br, want it taken as stale")
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
