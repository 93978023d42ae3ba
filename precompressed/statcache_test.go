package precompressed

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// heapInUse is the live heap after two collections: the first drops what
// sync.Pools held, the second what they kept as victims, so that pooled
// encoders other tests of the binary left behind do not count.
func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// missingNameRequest is a GET for a random missing name of about n bytes
// with a query of n bytes more. Its path is a slice of the whole request
// target, as net/http leaves a path that needs no unescaping.
func missingNameRequest(n int) *http.Request {
	target := "/" + rand.Text() + strings.Repeat("x", n) + "?q=" + strings.Repeat("y", n)
	path, query, _ := strings.Cut(target, "?")
	return &http.Request{Method: "GET", URL: &url.URL{Path: path, RawQuery: query}, RequestURI: target, Header: http.Header{}}
}

// A request names any string it likes: the stat cache's memory must follow
// the bytes of the names it keeps, not their count. Before, 65 536 entries
// were allowed whatever their names, and 2 048 requests for missing names
// of 48 KiB made the server hold 112 MiB.
func TestStatCacheBoundedInBytesAgainstLongMissingNames(t *testing.T) {
	for _, tc := range []struct {
		budget   int64 // Config.StatCacheBytes
		names    int
		nameSize int
	}{
		{1 << 20, 512, 48 << 10}, // names over 1/64 of the budget: none kept
		{1 << 20, 8192, 1 << 10}, // many short ones
		{0, 2048, 48 << 10},      // the report's case, with the default budget
		{64 << 10, 256, 600},     // just under the largest entry kept
	} {
		if tc.budget == 0 && testing.Short() {
			continue
		}
		budget := tc.budget
		if budget == 0 {
			budget = DefaultStatCacheBytes
		}
		h := FileServer(siteFS(t), Config{StatCacheBytes: tc.budget, CheckInterval: time.Hour})
		s := h.(*server)
		do(h, "GET", "/app.js", "Accept-Encoding", "br") // a file being served
		for i := range tc.names {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, missingNameRequest(tc.nameSize))
			if w.Code != http.StatusNotFound {
				t.Fatalf("missing name %d: status %d, want 404", i, w.Code)
			}
			if used := s.resources.bytes(); used > budget {
				t.Fatalf("budget %d, after %d names of %d bytes: the stat cache charges %d bytes", budget, i+1, tc.nameSize, used)
			}
		}
		charged := s.resources.bytes()
		// What the server holds is the heap it keeps alive: the difference
		// between two collections, one before and one after the server is
		// dropped. Taken back to back, it leaves out what other goroutines
		// of the test binary allocate or free while the requests run, which
		// a growth measured over the whole loop would count.
		held := heapInUse()
		runtime.KeepAlive(h) // alive until here, and no further
		retained := held - heapInUse()
		// The cache may hold up to its budget; anything beyond that, and a
		// little slack for the collector's own state, is memory it keeps
		// without counting it.
		if limit := budget + budget/4 + 1<<20; retained > limit {
			t.Errorf("budget %d: after %d missing names of %d bytes the server holds %d bytes of heap, more than %d",
				budget, tc.names, tc.nameSize, retained, limit)
		}
		t.Logf("budget %d, %d names of %d bytes: the server holds %d bytes of heap, the cache charges %d", budget, tc.names, tc.nameSize, retained, charged)
	}
}

// Names asked for once, as a flood of random ones is, are dropped before
// the files that requests keep asking for.
func TestStatCacheKeepsFilesBeingServedThroughAFlood(t *testing.T) {
	c := &countingFS{FS: siteFS(t)}
	h := FileServer(c, Config{StatCacheBytes: 256 << 10, CheckInterval: time.Hour})
	do(h, "GET", "/app.js", "Accept-Encoding", "br")
	for range 64 {
		for range 32 {
			h.ServeHTTP(httptest.NewRecorder(), missingNameRequest(1<<10))
		}
		c.reset()
		if w := do(h, "GET", "/app.js", "Accept-Encoding", "br"); w.Code != 200 {
			t.Fatalf("status %d", w.Code)
		}
		if got := c.reset(); got > 2 {
			t.Fatalf("app.js, requested between floods of missing names, was statted again (%d open/stat calls, want only the open and stat of the file sent)", got)
		}
	}
}

// The budget's documented reckoning: a file with three sidecars is charged
// less than 1 KiB plus four times the length of its name.
func TestStatCacheChargeOfAFileWithThreeSidecars(t *testing.T) {
	s := FileServer(siteFS(t), Config{}).(*server)
	res := s.lookup("app.js")
	if len(res.sidecars) != 3 {
		t.Fatalf("app.js resolved with %d sidecars, want 3", len(res.sidecars))
	}
	got := s.resources.bytes()
	if limit := int64(1<<10 + 4*len("app.js")); got >= limit {
		t.Errorf("app.js with three sidecars charged %d bytes, want less than %d", got, limit)
	}
}

// A name that would take more than 1/64 of the budget is not kept, and
// is still answered.
func TestStatCacheLooksUpHugeNamesEachTime(t *testing.T) {
	fsys := siteFS(t)
	long := strings.Repeat("d", 2000) + ".js"
	fsys[long] = file(jsBody)
	h := FileServer(fsys, Config{StatCacheBytes: 64 << 10, CheckInterval: time.Hour})
	for range 3 {
		if w := do(h, "GET", "/"+long); w.Code != 200 || w.Body.Len() != len(jsBody) {
			t.Fatalf("file with a 2 KB name: status %d, %d bytes", w.Code, w.Body.Len())
		}
	}
	if got := h.(*server).resources.bytes(); got != 0 {
		t.Errorf("a name of more than 1/64 of a 64 KiB budget was kept (%d bytes charged)", got)
	}
}

// Delta names carry a hash each client chooses: their stat results are
// kept in an eighth of the budget, apart from the files', however many
// dictionaries are named.
func TestDeltaStatResultsBoundedInBytes(t *testing.T) {
	const budget = 256 << 10
	fsys := fstest.MapFS{"app.1.js": file(jsBody)}
	h := FileServer(fsys, Config{StatCacheBytes: budget, CheckInterval: time.Hour, Dictionary: &DictionaryConfig{}})
	s := h.(*server)
	for i := range 4096 {
		dictRequest(h, "/app.1.js", []byte(fmt.Sprint("dictionary ", i)))
		if got := s.dict.deltas.bytes(); got > budget/8 {
			t.Fatalf("after %d dictionaries named, delta stat results charge %d bytes, more than %d", i+1, got, budget/8)
		}
	}
	if got := s.resources.bytes(); got == 0 {
		t.Error("app.1.js was pushed out of the stat cache by delta names")
	}
}
