package precompressed

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"runtime"
	"strconv"
	"testing"
	"testing/fstest"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/contentcache"
)

// sharedCache returns an encoding.Cache of budget bytes.
func sharedCache(t testing.TB, budget int64) *encoding.Cache {
	t.Helper()
	c, err := encoding.NewCache(budget)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// One mechanism: a file compressed on the fly and a handler that writes
// the same bytes behind the middleware share one entry of a shared Cache,
// and get the same bytes from it, whichever came first.
func TestFileAndEqualHandlerOutputShareOneEntry(t *testing.T) {
	for _, first := range []string{"file", "handler"} {
		c := sharedCache(t, 1<<20)
		fsrv := FileServer(fstest.MapFS{"app.js": file(jsBody)}, Config{Cache: c})
		var st encoding.Stats
		handler := cachedHandler(t, c, "text/javascript; charset=utf-8", jsBody, &st)
		var fromFile, fromHandler *bytes.Buffer
		fileGet := func() { fromFile = do(fsrv, "GET", "/app.js", "Accept-Encoding", "br").Body }
		if first == "file" {
			fileGet()
		}
		// The middleware looks a body up from the second time it sees it.
		do(handler, "GET", "/app.js", "Accept-Encoding", "br")
		if first == "handler" {
			fileGet()
		}
		fromHandler = do(handler, "GET", "/app.js", "Accept-Encoding", "br").Body
		if !bytes.Equal(fromFile.Bytes(), fromHandler.Bytes()) || !bytes.Equal(decode(t, "br", fromFile.Bytes()), jsBody) {
			t.Fatalf("%s first: the file (%d bytes) and the handler (%d bytes) got different br bodies", first, fromFile.Len(), fromHandler.Len())
		}
		if st.Cache != encoding.CacheHit {
			t.Errorf("%s first: the handler's Stats.Cache is %d, want a hit on the file's entry", first, st.Cache)
		}
		if n := contentcacheLen(c); n != 1 {
			t.Errorf("%s first: the shared cache holds %d entries, want 1", first, n)
		}
	}
}

// Config.Cache with its own budget: FallbackCacheBytes would be a second,
// ignored budget, and a Cache not made by NewCache has none.
func TestSharedCacheMisconfigurationPanicsWhenBuilt(t *testing.T) {
	for name, cfg := range map[string]Config{
		"FallbackCacheBytes too": {Cache: sharedCache(t, 1<<20), FallbackCacheBytes: 1 << 20},
		"zero Cache":             {Cache: new(encoding.Cache)},
	} {
		func() {
			defer func() {
				if msg := fmt.Sprint(recover()); msg == "<nil>" || msg[:len("precompressed: ")] != "precompressed: " {
					t.Errorf("%s: FileServer panicked with %q, want a precompressed: error", name, msg)
				}
			}()
			FileServer(fstest.MapFS{}, cfg)
		}()
	}
}

// The cached fallback writes the bytes it holds, once, instead of copying
// them through a buffer of up to 32 KiB made for each response (what
// http.ServeContent does with a bytes.Reader): a response allocates
// nothing in proportion to the body. Range still works on those bytes.
func TestCachedFallbackSendsHeldBytesWithoutCopy(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var src []byte
	for len(src) < 256<<10 {
		src = strconv.AppendUint(src, rng.Uint64()%1e12, 16)
		src = append(src, '\n')
	}
	h := FileServer(fstest.MapFS{"data.txt": file(src)}, Config{})
	first := do(h, "GET", "/data.txt", "Accept-Encoding", "gzip")
	body := first.Body.Bytes()
	if first.Header().Get("Content-Encoding") != "gzip" || len(body) < 64<<10 {
		t.Fatalf("setup: %d %q, %d bytes; want a gzip body above 64 KiB", first.Code, first.Header().Get("Content-Encoding"), len(body))
	}
	part := do(h, "GET", "/data.txt", "Accept-Encoding", "gzip", "Range", "bytes=40000-40009")
	if part.Code != http.StatusPartialContent || !bytes.Equal(part.Body.Bytes(), body[40000:40010]) {
		t.Errorf("Range on the cached body: %d %q; want 206 and its bytes 40000-40009", part.Code, part.Body.Bytes())
	}
	if raceEnabled {
		return // allocation counts mean nothing under the race detector
	}
	w := &discardWriter{h: http.Header{}}
	r, _ := http.NewRequest("GET", "/data.txt", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	// Past DefaultFallbackRecompressAfter, and the recompression done:
	// what is measured is the steady state, counting included.
	for range DefaultFallbackRecompressAfter {
		h.ServeHTTP(w, r)
	}
	waitRecompressorIdle(t, h.(*server))
	w.writes = 0
	h.ServeHTTP(w, r)
	const n = 100
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		clear(w.h)
		h.ServeHTTP(w, r)
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 8<<10 {
		t.Errorf("a cached response of %d bytes allocates %d bytes; want at most 8 KiB", len(body), per)
	}
	if w.writes != n+1 {
		t.Errorf("%d Writes for %d responses, want one each", w.writes, n+1)
	}
}

// discardWriter is a ResponseWriter that counts Writes and keeps nothing.
type discardWriter struct {
	h      http.Header
	writes int
}

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) WriteHeader(int)             {}
func (d *discardWriter) Write(p []byte) (int, error) { d.writes++; return len(p), nil }

// Background recompression runs one file at a time: a burst of misses
// queues (up to a bound) instead of starting a goroutine each, and the
// worker goes away when the queue is empty.
func TestRecompressionRunsOneAtATime(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := range 200 {
		fsys[fmt.Sprintf("f%d.txt", i)] = file(bytes.Repeat([]byte("line "+strconv.Itoa(i)+" of text\n"), 200))
	}
	base := runtime.NumGoroutine()
	h := FileServer(fsys, Config{FallbackRecompressAfter: 1, Fallback: []encoding.Codec{encoding.Brotli()}}).(*server)
	for name := range fsys {
		do(h, "GET", "/"+name, "Accept-Encoding", "br")
	}
	if extra := runtime.NumGoroutine() - base; extra > 1 {
		t.Errorf("%d goroutines after 200 misses, want at most 1 recompressing", extra)
	}
	h.recompressor.mu.Lock()
	queued := len(h.recompressor.queue)
	h.recompressor.mu.Unlock()
	if queued > maxRecompressQueue {
		t.Errorf("%d recompressions queued, over the bound of %d", queued, maxRecompressQueue)
	}
	waitRecompressorIdle(t, h) // leave no brotli 11 running under the tests that follow
}

func contentcacheLen(c *encoding.Cache) int { return contentcache.Hook(c).Len() }

// A file that compresses no smaller is sent as it is, and the shared cache
// keeps that answer: a middleware handler writing the same bytes then sends
// them as they are too, and its Stats claim no hit and no coding.
func TestSharedEntryOfIncompressibleFileSendsIdentityWithoutHit(t *testing.T) {
	blob := make([]byte, 4<<10)
	rand.NewChaCha8([32]byte{1}).Read(blob)
	c := sharedCache(t, 1<<20)
	fsrv := FileServer(fstest.MapFS{"blob.txt": file(blob)}, Config{Cache: c})
	if rec := do(fsrv, "GET", "/blob.txt", "Accept-Encoding", "br"); rec.Header().Get("Content-Encoding") != "" || !bytes.Equal(rec.Body.Bytes(), blob) {
		t.Fatalf("file: Content-Encoding %q, %d bytes; want the file as it is", rec.Header().Get("Content-Encoding"), rec.Body.Len())
	}
	var st encoding.Stats
	handler := cachedHandler(t, c, "text/plain; charset=utf-8", blob, &st)
	do(handler, "GET", "/", "Accept-Encoding", "br") // first sighting: not looked up
	rec := do(handler, "GET", "/", "Accept-Encoding", "br")
	if rec.Header().Get("Content-Encoding") != "" || !bytes.Equal(rec.Body.Bytes(), blob) {
		t.Fatalf("handler: Content-Encoding %q, %d bytes; want the body as it is", rec.Header().Get("Content-Encoding"), rec.Body.Len())
	}
	if st.Cache != encoding.CacheNotLookedUp || st.Coding != "" {
		t.Errorf("handler: Stats.Cache %v, Coding %q; want no cache result and no coding for a body sent as it is", st.Cache, st.Coding)
	}
}
