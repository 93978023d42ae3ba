package precompressed

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"

	"github.com/squeezehttp/squeeze/internal/corpus"
)

// A response sent from memory, a held sidecar or a copy in the fallback
// cache, allocates nothing in the file server once the file is known: the
// per-response work is the header values it keeps ready and the bytes.
func TestResponseFromMemoryAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	src := corpus.Site(1)["js/book.js"]
	sidecars := FileServer(fstest.MapFS{"book.js": file(src), "book.js.br": file(compress(t, "br", src))}, Config{}).(*server)
	fallback := FileServer(fstest.MapFS{"book.js": file(src)}, Config{}).(*server)
	warmUp(t, fallback, "/book.js", "Accept-Encoding", "br")
	for name, h := range map[string]*server{"sidecar": sidecars, "fallback": fallback} {
		r := httptest.NewRequest("GET", "/book.js", nil)
		r.Header.Set("Accept-Encoding", "br")
		w := &discard{h: http.Header{}}
		h.ServeHTTP(w, r)
		if got := w.h.Get("Content-Encoding"); got != "br" {
			t.Fatalf("%s: Content-Encoding %q, want br", name, got)
		}
		if n := testing.AllocsPerRun(100, func() {
			clear(w.h)
			h.ServeHTTP(w, r)
		}); n != 0 {
			t.Errorf("%s: %v allocations per response, want 0", name, n)
		}
	}
}
