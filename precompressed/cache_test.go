package precompressed

import (
	"net/http"
	"testing"
	"testing/fstest"
	"time"
)

// After the first request, serving a sidecar costs one open and one stat of
// the file sent, what http.FileServerFS spends on the plain file.
func TestSteadyStateCostsNoMoreCallsThanFileServer(t *testing.T) {
	plain := &countingFS{FS: siteFS(t)}
	ours := &countingFS{FS: siteFS(t)}
	std := http.FileServerFS(plain)
	h := FileServer(ours, Config{CheckInterval: time.Hour})
	for _, accept := range []string{"", "br", "gzip", "zstd"} {
		do(h, "GET", "/app.js", "Accept-Encoding", accept) // warm the caches
	}
	do(std, "GET", "/app.js")
	plain.reset()
	ours.reset()
	do(std, "GET", "/app.js")
	want := plain.reset()
	for _, accept := range []string{"", "br", "gzip", "zstd"} {
		w := do(h, "GET", "/app.js", "Accept-Encoding", accept)
		if w.Code != 200 {
			t.Fatalf("Accept-Encoding %q: status %d", accept, w.Code)
		}
		if got := ours.reset(); got > want {
			t.Errorf("Accept-Encoding %q: %d open/stat calls, http.FileServerFS makes %d", accept, got, want)
		}
	}
}

func TestNotFoundIsCachedToo(t *testing.T) {
	c := &countingFS{FS: siteFS(t)}
	h := FileServer(c, Config{CheckInterval: time.Hour})
	do(h, "GET", "/missing.js", "Accept-Encoding", "br")
	c.reset()
	if w := do(h, "GET", "/missing.js", "Accept-Encoding", "br"); w.Code != 404 {
		t.Fatalf("status %d, want 404", w.Code)
	}
	if got := c.reset(); got != 0 {
		t.Errorf("second request for a missing file made %d open/stat calls, want 0", got)
	}
}

func TestChangesSeenAfterCheckInterval(t *testing.T) {
	fsys := siteFS(t)
	h := FileServer(fsys, Config{CheckInterval: 20 * time.Millisecond})
	if got := do(h, "GET", "/new.js", "Accept-Encoding", "br"); got.Code != 404 {
		t.Fatalf("before: status %d, want 404", got.Code)
	}
	fsys["new.js"] = file(jsBody)
	fsys["new.js.br"] = file(compress(t, "br", jsBody))
	time.Sleep(40 * time.Millisecond)
	if w := do(h, "GET", "/new.js", "Accept-Encoding", "br"); w.Code != 200 || w.Header().Get("Content-Encoding") != "br" {
		t.Errorf("after the interval: status %d, Content-Encoding %q; want the new br sidecar", w.Code, w.Header().Get("Content-Encoding"))
	}
}

func TestChangedFileIsRehashed(t *testing.T) {
	fsys := siteFS(t)
	h := FileServer(fsys, Config{CheckInterval: -1})
	before := do(h, "GET", "/app.js").Header().Get("ETag")
	fsys["app.js"] = &fstest.MapFile{Data: []byte("changed"), ModTime: t0.Add(time.Second)}
	w := do(h, "GET", "/app.js")
	if w.Body.String() != "changed" || w.Header().Get("ETag") == before {
		t.Errorf("after a change: body %q, ETag %q (was %q); want the new bytes under a new tag", w.Body.String(), w.Header().Get("ETag"), before)
	}
}

// A tree whose files have no modification time (embed.FS) cannot change,
// so it is statted once.
func TestZeroModTimeTreeIsStattedOnce(t *testing.T) {
	fsys := fstest.MapFS{"app.js": {Data: jsBody}, "app.js.br": {Data: compress(t, "br", jsBody)}}
	c := &countingFS{FS: fsys}
	h := FileServer(c, Config{CheckInterval: time.Nanosecond})
	do(h, "GET", "/app.js", "Accept-Encoding", "br")
	c.reset()
	time.Sleep(time.Millisecond)
	w := do(h, "GET", "/app.js", "Accept-Encoding", "br")
	if w.Header().Get("Last-Modified") != "" {
		t.Errorf("Last-Modified %q for a file without a modification time", w.Header().Get("Last-Modified"))
	}
	if got := c.reset(); got > 2 {
		t.Errorf("%d open/stat calls past the interval, want only the open and stat of the file sent", got)
	}
}

// A file edited after its stat was cached is noticed by the fstat made on
// open, and the request gets the new file instead of an error. (A file
// held in memory is not opened: it is checked every CheckInterval, see
// TestHeldFileChangedOnDiskIsServedNewAfterTheInterval.)
func TestFileChangedSinceStatIsServedFresh(t *testing.T) {
	fsys := siteFS(t)
	h := FileServer(fsys, Config{CheckInterval: time.Hour, FileCacheBytes: -1})
	do(h, "GET", "/app.js")
	fsys["app.js"] = &fstest.MapFile{Data: []byte("edited"), ModTime: t0.Add(time.Second)}
	if w := do(h, "GET", "/app.js"); w.Code != 200 || w.Body.String() != "edited" {
		t.Errorf("status %d, body %q; want 200 and the edited file", w.Code, w.Body.String())
	}
	delete(fsys, "app.js")
	if w := do(h, "GET", "/app.js"); w.Code != 200 || w.Header().Get("ETag") == "" || w.Body.String() != string(jsBody) {
		t.Errorf("original removed: status %d, %d bytes; want the original decoded from a sidecar", w.Code, w.Body.Len())
	}
}
