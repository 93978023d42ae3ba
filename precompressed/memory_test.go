package precompressed

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// A file served from memory gets the response, status, every header and
// body, that the same file read from disk gets, for every kind of request
// http.ServeContent answers: plain, HEAD, Range, conditional, each coding,
// identity, a type sniffed, a file without a modification time and one
// compressed on the fly.
func TestHeldFileIsByteIdenticalToFileOnDisk(t *testing.T) {
	fsys := siteFS(t)
	fsys["notime.js"] = &fstest.MapFile{Data: jsBody}
	fsys["notime.js.br"] = &fstest.MapFile{Data: compress(t, "br", jsBody)}
	fsys["data.json"] = file([]byte(strings.Repeat(`{"key":"value","n":12345},`, 200)))
	fsys["blob"] = file(bytes.Repeat([]byte("<html>"), 100))
	// The background recompression would change the fallback's bytes in
	// each server at its own moment.
	disk := FileServer(fsys, Config{FileCacheBytes: -1, FallbackRecompressAfter: -1})
	memory := FileServer(fsys, Config{FallbackRecompressAfter: -1})
	since := t0.Format(http.TimeFormat)
	for _, target := range []string{"/app.js", "/", "/logo.png", "/notime.js", "/data.json", "/blob", "/app.js.gz"} {
		for _, ae := range []string{"", "br", "zstd", "gzip", "gzip;q=0.5, br"} {
			tag := do(disk, "GET", target, "Accept-Encoding", ae).Header().Get("Etag")
			// A plain GET, written directly, is the 200 http.ServeContent
			// sends to a request it must evaluate: the fallback's too.
			plain := do(memory, "GET", target, "Accept-Encoding", ae)
			viaServeContent := do(disk, "GET", target, "Accept-Encoding", ae, "If-None-Match", `"other"`)
			if fmt.Sprint(plain.Header()) != fmt.Sprint(viaServeContent.Header()) || !bytes.Equal(plain.Body.Bytes(), viaServeContent.Body.Bytes()) {
				t.Errorf("GET %s, Accept-Encoding %q: plain\n%v\nthrough ServeContent\n%v", target, ae, plain.Header(), viaServeContent.Header())
			}
			for _, req := range [][]string{
				{"GET"}, {"HEAD"},
				{"GET", "Range", "bytes=0-9"},
				{"GET", "Range", "bytes=5-"},
				{"GET", "If-None-Match", tag},
				{"GET", "If-None-Match", `"other"`},
				{"GET", "If-Match", tag},
				{"GET", "If-Match", `"other"`},
				{"GET", "If-Range", tag, "Range", "bytes=0-3"},
				{"GET", "If-Modified-Since", since},
				{"HEAD", "If-None-Match", tag},
			} {
				headers := append([]string{"Accept-Encoding", ae}, req[1:]...)
				name := fmt.Sprintf("%s %s, Accept-Encoding %q, %q", req[0], target, ae, req[1:])
				want := do(disk, req[0], target, headers...)
				for round := range 2 { // reading the file, then from memory
					got := do(memory, req[0], target, headers...)
					if got.Code != want.Code || !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
						t.Errorf("%s, round %d: %d with %d bytes from memory, %d with %d from disk", name, round, got.Code, got.Body.Len(), want.Code, want.Body.Len())
					}
					if g, w := fmt.Sprint(got.Header()), fmt.Sprint(want.Header()); g != w {
						t.Errorf("%s, round %d: header from memory\n%s\nfrom disk\n%s", name, round, g, w)
					}
				}
			}
		}
	}
}

// A held file is served without opening it, and a sidecar changed on disk
// is served new once the stat check interval has passed: the same check
// that guards the file's stat results.
func TestHeldFileChangedOnDiskIsServedNewAfterTheInterval(t *testing.T) {
	fsys := siteFS(t)
	c := &countingFS{FS: fsys}
	const interval = 20 * time.Millisecond
	h := FileServer(c, Config{CheckInterval: interval})
	first := do(h, "GET", "/app.js", "Accept-Encoding", "br")
	c.reset()
	if again := do(h, "GET", "/app.js", "Accept-Encoding", "br"); !bytes.Equal(again.Body.Bytes(), first.Body.Bytes()) {
		t.Fatalf("second GET: %d bytes, want the %d of the first", again.Body.Len(), first.Body.Len())
	}
	if n := c.reset(); n > 0 {
		// Within the interval unless the machine stalled; then only stats.
		t.Logf("%d open/stat calls on the second GET", n)
	}
	edited := []byte(strings.Repeat("const edited = true;\n", 100))
	fsys["app.js"] = &fstest.MapFile{Data: edited, ModTime: t0.Add(time.Minute)}
	fsys["app.js.br"] = &fstest.MapFile{Data: compress(t, "br", edited), ModTime: t0.Add(time.Minute)}
	time.Sleep(2 * interval)
	w := do(h, "GET", "/app.js", "Accept-Encoding", "br")
	if !bytes.Equal(w.Body.Bytes(), fsys["app.js.br"].Data) || w.Header().Get("Etag") == first.Header().Get("Etag") {
		t.Errorf("after the interval: %d bytes, ETag %s; want the new sidecar under a new tag", w.Body.Len(), w.Header().Get("Etag"))
	}
	if w.Header().Get("Content-Length") != fmt.Sprint(len(fsys["app.js.br"].Data)) {
		t.Errorf("after the interval: Content-Length %s for a sidecar of %d bytes", w.Header().Get("Content-Length"), len(fsys["app.js.br"].Data))
	}
}

// A held file costs no Open, Read or Stat while its stat results are fresh.
func TestHeldFileIsServedWithoutOpeningIt(t *testing.T) {
	c := &countingFS{FS: siteFS(t)}
	h := FileServer(c, Config{CheckInterval: time.Hour})
	for _, ae := range []string{"br", "zstd", ""} {
		do(h, "GET", "/app.js", "Accept-Encoding", ae)
		c.reset()
		do(h, "GET", "/app.js", "Accept-Encoding", ae)
		do(h, "HEAD", "/app.js", "Accept-Encoding", ae)
		if n := c.reset(); n != 0 {
			t.Errorf("Accept-Encoding %q: %d open/stat calls for a held file; want none", ae, n)
		}
	}
}

// The files held in memory never take more than Config.FileCacheBytes, and
// a file above 1/64 of it is not held but opened for each response.
func TestFileCacheStaysWithinItsBudget(t *testing.T) {
	const budget = 1 << 20
	fsys := fstest.MapFS{}
	for i := range 300 {
		fsys[fmt.Sprintf("f%03d.bin", i)] = file(bytes.Repeat([]byte{byte(i)}, 10<<10))
	}
	fsys["large.bin"] = file(make([]byte, budget/32))
	c := &countingFS{FS: fsys}
	s := FileServer(c, Config{FileCacheBytes: budget, CheckInterval: time.Hour}).(*server)
	for name := range fsys {
		if w := do(s, "GET", "/"+name); w.Code != http.StatusOK || w.Body.Len() != len(fsys[name].Data) {
			t.Fatalf("%s: %d with %d bytes", name, w.Code, w.Body.Len())
		}
		if used := s.files.bytes(); used > budget {
			t.Fatalf("after %s: %d bytes held, over the budget of %d", name, used, budget)
		}
	}
	if s.files.bytes() < budget/2 {
		t.Errorf("%d bytes held of a budget of %d; the cache holds next to nothing", s.files.bytes(), budget)
	}
	c.reset()
	do(s, "GET", "/large.bin")
	if c.reset() == 0 {
		t.Errorf("a file of 1/32 of the budget was not opened; it must not be held")
	}
}
