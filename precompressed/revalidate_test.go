package precompressed

import (
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
)

// readingFS counts, per name, the Open and Read calls made on a file
// system: what serving a file's bytes costs, as against knowing its
// stat results.
type readingFS struct {
	fs.FS
	mu    sync.Mutex
	reads map[string]int
}

func (c *readingFS) note(name string) {
	c.mu.Lock()
	c.reads[name]++
	c.mu.Unlock()
}

func (c *readingFS) take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.reads
	c.reads = map[string]int{}
	return n
}

func (c *readingFS) Open(name string) (fs.File, error) {
	c.note(name)
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return &readingFile{File: f, c: c, name: name}, nil
}

// Stat is not a read: the stat cache's check goes through it uncounted.
func (c *readingFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

type readingFile struct {
	fs.File
	c    *readingFS
	name string
}

func (f *readingFile) Read(p []byte) (int, error) {
	f.c.note(f.name)
	return f.File.Read(p)
}

func (f *readingFile) Seek(off int64, whence int) (int64, error) {
	return f.File.(io.Seeker).Seek(off, whence)
}

// Revalidating a file behind encoding.Handler, with the tag the 200 gave,
// is answered from the stat cache and the known hash alone: no Open or
// Read of any file, in every ETag mode of the middleware, with its
// conditionals on or off, for a sidecar and for a file compressed on the
// fly; and the 304 carries the 200's ETag, Vary and Cache-Control
// (RFC 9110 §15.4.5).
func TestRevalidationBehindTheMiddlewareReadsNoFile(t *testing.T) {
	js := []byte(strings.Repeat("function hello(name) { return 'hello, ' + name; }\n", 200))
	fsys := fstest.MapFS{
		"app.js":    file(js),
		"app.js.br": file(compress(t, "br", js)),
		"data.js":   file(js), // no sidecar: the fallback cache
	}
	for _, mode := range []encoding.ETagMode{encoding.ETagSuffix, encoding.ETagWeaken, encoding.ETagKeep} {
		for _, disable := range []bool{false, true} {
			for _, target := range []string{"/app.js", "/data.js"} {
				name := fmt.Sprintf("ETagMode %d, DisableConditional %v, %s", mode, disable, target)
				c := &readingFS{FS: fsys, reads: map[string]int{}}
				m, err := encoding.New(encoding.Config{ETag: mode, DisableConditional: disable})
				if err != nil {
					t.Fatal(err)
				}
				// Without the background recompression, which reads the
				// fallback's file by design once it has been asked for a
				// few times, whenever its worker gets to it: the reads
				// counted here are the revalidations' own.
				files := FileServer(c, Config{CheckInterval: time.Hour, FallbackRecompressAfter: -1})
				h := m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Cache-Control", "max-age=60")
					files.ServeHTTP(w, r)
				}))
				first := do(h, "GET", target, "Accept-Encoding", "br")
				tag := first.Header().Get("Etag")
				if first.Code != http.StatusOK || first.Header().Get("Content-Encoding") != "br" || !strings.HasSuffix(tag, `-br"`) {
					t.Fatalf("%s: first GET %d, header %v", name, first.Code, first.Header())
				}
				c.take()
				for _, inm := range [][]string{{tag}, {`"old", ` + tag}, {`"old"`, tag}} {
					headers := []string{"Accept-Encoding", "br"}
					for _, line := range inm {
						headers = append(headers, "If-None-Match", line)
					}
					rec := do(h, "GET", target, headers...)
					if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
						t.Errorf("%s, If-None-Match %q: %d with %d body bytes; want 304", name, inm, rec.Code, rec.Body.Len())
					}
					if reads := c.take(); len(reads) > 0 {
						t.Errorf("%s, If-None-Match %q: opened or read %v; the stat cache and the hash know enough", name, inm, reads)
					}
					for _, field := range []string{"Etag", "Vary", "Cache-Control"} {
						if got, want := rec.Header().Values(field), first.Header().Values(field); strings.Join(got, ",") != strings.Join(want, ",") {
							t.Errorf("%s, If-None-Match %q: 304 %s %q, the 200's %q", name, inm, field, got, want)
						}
					}
				}
			}
		}
	}
}
