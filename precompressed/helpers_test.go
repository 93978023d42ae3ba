package precompressed

import (
	"bytes"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/squeezehttp/squeeze/internal/corpus"
)

// t0 is the modification time of test originals; sidecars get t0 too
// unless a test makes them stale.
var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// jsBody is a compressible original, long enough for every coding to win.
var jsBody = []byte(strings.Repeat("function hello(name) { return 'hello, ' + name; }\n", 40))

// compress encodes b with coding at the reference implementation's best
// level, as a build step that writes sidecars would.
func compress(t testing.TB, coding string, b []byte) []byte {
	t.Helper()
	best := map[string]int{"gzip": gzip.BestCompression, "br": brotli.BestCompression, "zstd": int(zstd.SpeedBestCompression)}
	return compressAt(t, coding, best[coding], b)
}

// compressAt encodes b with coding at a level of the reference library,
// so that a test can lay out sidecars of chosen relative sizes, as builds
// with different tools or settings leave them.
func compressAt(t testing.TB, coding string, level int, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w, _ = gzip.NewWriterLevel(&buf, level)
	case "br":
		w = brotli.NewWriterLevel(&buf, level)
	case "zstd":
		zw, err := zstd.NewWriter(&buf, zstd.WithEncoderLevel(zstd.EncoderLevel(level)))
		if err != nil {
			t.Fatal(err)
		}
		w = zw
	default:
		t.Fatalf("no encoder for %q", coding)
	}
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// recordCodings serves h on 127.0.0.1 for the test's duration and
// returns its URL and a function that tells the Content-Encoding the last
// response to a path went out with.
func recordCodings(t *testing.T, h http.Handler) (url string, sent func(path string) string) {
	t.Helper()
	var mu sync.Mutex
	codings := map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		mu.Lock()
		codings[r.URL.Path] = w.Header().Get("Content-Encoding")
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func(path string) string {
		mu.Lock()
		defer mu.Unlock()
		return codings[path]
	}
}

var (
	jsSidecarsMu sync.Mutex
	jsSidecars   = map[string][]byte{}
)

// jsSidecar returns jsBody compressed with coding, made once per test
// binary: brotli at quality 11 under the race detector is slow.
func jsSidecar(t testing.TB, coding string) []byte {
	jsSidecarsMu.Lock()
	defer jsSidecarsMu.Unlock()
	if b, ok := jsSidecars[coding]; ok {
		return bytes.Clone(b)
	}
	b := compress(t, coding, jsBody)
	jsSidecars[coding] = b
	return bytes.Clone(b)
}

// decode is the inverse of compress.
func decode(t testing.TB, coding string, b []byte) []byte {
	t.Helper()
	dec, err := newDecoder(coding, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	out, err := io.ReadAll(dec)
	if err != nil {
		t.Fatalf("decoding %s: %v", coding, err)
	}
	return out
}

// file is a MapFS entry dated t0.
func file(b []byte) *fstest.MapFile { return &fstest.MapFile{Data: b, ModTime: t0} }

// siteFS is a tree with app.js and all three sidecars, an index, a
// directory, and a few files for the hide rules.
func siteFS(t testing.TB) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{
		"app.js":          file(jsBody),
		"index.html":      file([]byte("<!doctype html><title>home</title>")),
		"docs/index.html": file([]byte("<!doctype html><title>docs</title>")),
		".env":            file([]byte("SECRET=1")),
		"logo.png":        file([]byte("\x89PNG\r\n\x1a\n not really")),
	}
	for _, sc := range DefaultSidecars() {
		fsys["app.js"+sc.Ext] = file(jsSidecar(t, sc.Coding))
		fsys[".env"+sc.Ext] = file(compress(t, sc.Coding, []byte("SECRET=1")))
	}
	return fsys
}

// do sends one request through h; headers are name, value pairs.
func do(h http.Handler, method, target string, headers ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Add(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// countingFS counts the Open and Stat calls made on a file system, both
// directly and through the files it opened.
type countingFS struct {
	fs.FS
	mu    sync.Mutex
	calls int
}

func (c *countingFS) count() {
	c.mu.Lock()
	c.calls++
	c.mu.Unlock()
}

func (c *countingFS) reset() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.calls
	c.calls = 0
	return n
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.count()
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return &countingFile{File: f, c: c}, nil
}

type countingFile struct {
	fs.File
	c *countingFS
}

func (f *countingFile) Stat() (fs.FileInfo, error) {
	f.c.count()
	return f.File.Stat()
}

func (f *countingFile) Seek(off int64, whence int) (int64, error) {
	return f.File.(io.Seeker).Seek(off, whence)
}

func (f *countingFile) ReadDir(n int) ([]fs.DirEntry, error) {
	return f.File.(fs.ReadDirFile).ReadDir(n)
}

// staticTree is corpus.StaticTree, the site-like tree of the measurements.
func staticTree(tb testing.TB) map[string][]byte {
	tb.Helper()
	tree, err := corpus.StaticTree()
	if err != nil {
		tb.Fatal(err)
	}
	return tree
}
