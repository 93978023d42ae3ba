package precompressed

import (
	"bytes"
	"io/fs"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
)

// Two bodies of one size: a page everyone is served, and what someone who
// can rewrite one file would like them to get instead.
var (
	publicBody = []byte(strings.Repeat("public page body, the same for everyone......\n", 40))
	otherBody  = []byte(strings.Repeat("OTHER CONTENT <script>evil()</script>........\n", 40))
)

// cachedHandler is a middleware sharing c in front of a handler that writes
// body as text; each response's Stats go to st when it is not nil.
func cachedHandler(t *testing.T, c *encoding.Cache, ctype string, body []byte, st *encoding.Stats) http.Handler {
	t.Helper()
	cfg := encoding.Config{Cache: c}
	if st != nil {
		cfg.OnResponse = func(_ *http.Request, s encoding.Stats) { *st = s }
	}
	mw, err := encoding.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.Write(body)
	}))
}

// middlewareServes checks that a middleware sharing c sends publicBody,
// gzip-encoded, for a handler that writes it: the second request looks the
// body up in c.
func middlewareServes(t *testing.T, c *encoding.Cache) {
	t.Helper()
	h := cachedHandler(t, c, "text/plain", publicBody, nil)
	do(h, "GET", "/", "Accept-Encoding", "gzip") // first sighting: not looked up
	rec := do(h, "GET", "/", "Accept-Encoding", "gzip")
	if got := decode(t, "gzip", rec.Body.Bytes()); !bytes.Equal(got, publicBody) {
		t.Fatalf("the handler wrote the public page; the client decoded %d bytes starting %q", len(got), got[:min(len(got), 40)])
	}
}

// TestSharedCacheNeverKeysNewContentUnderOldHash: a file rewritten at the
// same size within CheckInterval, after its hash was taken, must not be
// compressed into the entry of its old content: the entry answers for that
// content to every handler sharing the cache.
func TestSharedCacheNeverKeysNewContentUnderOldHash(t *testing.T) {
	c := sharedCache(t, 1<<20)
	fsys := fstest.MapFS{"up/a.txt": &fstest.MapFile{Data: publicBody, ModTime: t0}}
	srv := FileServer(fsys, Config{Cache: c, CheckInterval: time.Hour})
	if got := do(srv, "GET", "/up/a.txt").Body.Bytes(); !bytes.Equal(got, publicBody) {
		t.Fatal("identity body differs")
	}
	fsys["up/a.txt"] = &fstest.MapFile{Data: otherBody, ModTime: t0} // same size, same time
	rec := do(srv, "GET", "/up/a.txt", "Accept-Encoding", "gzip")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d after the rewrite, want 200", rec.Code)
	}
	if got := decode(t, rec.Header().Get("Content-Encoding"), rec.Body.Bytes()); !bytes.Equal(got, otherBody) {
		t.Errorf("the rewritten file was served as %d bytes starting %q, want its new content", len(got), got[:min(len(got), 40)])
	}
	middlewareServes(t, c)
}

// gatedFS serves one file whose content the test swaps; an Open from the
// recompressor's goroutine waits until the test releases it.
type gatedFS struct {
	mu      sync.Mutex
	data    []byte
	reached chan struct{}
	release chan struct{}
	once    sync.Once
}

func (g *gatedFS) Open(name string) (fs.File, error) {
	buf := make([]byte, 1<<16)
	if strings.Contains(string(buf[:runtime.Stack(buf, false)]), "(*recompressor).run") {
		g.once.Do(func() { close(g.reached) })
		<-g.release
	}
	g.mu.Lock()
	d := g.data
	g.mu.Unlock()
	return fstest.MapFS{"a.txt": &fstest.MapFile{Data: d, ModTime: t0}}.Open(name)
}

// TestRecompressionNeverReplacesWithOtherContent: the background
// recompression reads the file again; if it was rewritten meanwhile (same
// size, and far more compressible, so a replacement would be smaller), the
// entry keyed by the old content keeps its bytes.
func TestRecompressionNeverReplacesWithOtherContent(t *testing.T) {
	g := &gatedFS{data: publicBody, reached: make(chan struct{}), release: make(chan struct{})}
	c := sharedCache(t, 1<<20)
	srv := FileServer(g, Config{Cache: c, FallbackRecompressAfter: 1})
	do(srv, "GET", "/a.txt", "Accept-Encoding", "gzip") // fills the entry, queues its recompression
	select {
	case <-g.reached:
	case <-time.After(10 * time.Second):
		t.Fatal("the recompressor never read the file again")
	}
	g.mu.Lock()
	g.data = bytes.Repeat([]byte("A"), len(publicBody))
	g.mu.Unlock()
	close(g.release)
	waitRecompressorIdle(t, srv.(*server))
	middlewareServes(t, c)
}

// waitRecompressorIdle waits until s's recompressor has no work left.
func waitRecompressorIdle(t testing.TB, s *server) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		s.recompressor.mu.Lock()
		idle := !s.recompressor.running
		s.recompressor.mu.Unlock()
		if idle {
			return
		}
	}
	t.Fatal("the recompressor did not finish")
}
