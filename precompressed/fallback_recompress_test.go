package precompressed

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/corpus"
)

// bestLevel encodes src with codec at its highest level, as the background
// recompression does.
func bestLevel(t *testing.T, codec encoding.Codec, src []byte) []byte {
	t.Helper()
	_, best, _ := codec.Levels()
	out, err := codec.(encoding.AppendEncoder).AppendEncode(nil, src, best)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// warmUp sends the requests after which a file is recompressed and waits
// for the recompression to finish.
func warmUp(t testing.TB, h *server, target string, headers ...string) {
	t.Helper()
	for range DefaultFallbackRecompressAfter + 1 {
		do(h, "GET", target, headers...)
	}
	waitRecompressorIdle(t, h)
}

// A zero Config recompresses a file sent from the fallback cache a few
// times at the best level of every coding the client weighs highest, and
// then sends the smallest of them: a Chromium-like client first gets zstd
// at its default level, the first in the Fallback order, and after the
// warm-up brotli at quality 11, the smallest on a text file.
func TestFallbackServesSmallestBestLevelAfterWarmUp(t *testing.T) {
	src := corpus.Site(1)["js/book.js"]
	h := FileServer(fstest.MapFS{"book.js": file(src)}, Config{}).(*server)
	first := do(h, "GET", "/book.js", "Accept-Encoding", chromiumAccept)
	if got := first.Header().Get("Content-Encoding"); got != "zstd" {
		t.Fatalf("first response: Content-Encoding %q, want zstd, the first fallback coding", got)
	}
	warmUp(t, h, "/book.js", "Accept-Encoding", chromiumAccept)

	best := map[string][]byte{}
	smallest := ""
	for _, codec := range h.fallback {
		best[codec.Name()] = bestLevel(t, codec, src)
		if smallest == "" || len(best[codec.Name()]) < len(best[smallest]) {
			smallest = codec.Name()
		}
	}
	w := do(h, "GET", "/book.js", "Accept-Encoding", chromiumAccept)
	got := w.Header().Get("Content-Encoding")
	if got != smallest || !bytes.Equal(w.Body.Bytes(), best[smallest]) {
		t.Fatalf("after the warm-up: %s, %d bytes; want the smallest best-level encoding, %s, %d bytes (first response %d bytes of zstd)",
			got, w.Body.Len(), smallest, len(best[smallest]), first.Body.Len())
	}
	if w.Header().Get("ETag") == first.Header().Get("ETag") || !bytes.Equal(decode(t, got, w.Body.Bytes()), src) {
		t.Errorf("after the warm-up: ETag %s (first %s), or the body does not decode to the file", w.Header().Get("ETag"), first.Header().Get("ETag"))
	}
	// Every coding was recompressed: a client taking only one gets its
	// best-level bytes too.
	for coding, b := range best {
		if w := do(h, "GET", "/book.js", "Accept-Encoding", coding); !bytes.Equal(w.Body.Bytes(), b) {
			t.Errorf("Accept-Encoding %s after the warm-up: %d bytes, want the %d of the best level", coding, w.Body.Len(), len(b))
		}
	}
	// The client's weights still come first.
	if got := do(h, "GET", "/book.js", "Accept-Encoding", "zstd, br;q=0.5").Header().Get("Content-Encoding"); got != "zstd" {
		t.Errorf(`"zstd, br;q=0.5" after the warm-up: Content-Encoding %q, want zstd`, got)
	}
}

// Only the codings clients weigh highest are recompressed: a client that
// takes gzip alone costs gzip 9, not brotli 11 as well.
func TestFallbackRecompressesOnlyCodingsAskedFor(t *testing.T) {
	src := corpus.Site(1)["js/book.js"]
	h := FileServer(fstest.MapFS{"book.js": file(src)}, Config{}).(*server)
	warmUp(t, h, "/book.js", "Accept-Encoding", "gzip, br;q=0.5")
	st := h.fallbackState(h.lookup("book.js").original)
	if got, want := st.done.Load(), uint32(1)<<slices.Index(h.fallbackNames, "gzip"); got != want {
		t.Errorf("recompressed codings %03b, want only gzip's bit %03b", got, want)
	}
	if w := do(h, "GET", "/book.js", "Accept-Encoding", "gzip"); !bytes.Equal(w.Body.Bytes(), bestLevel(t, encoding.Gzip(), src)) {
		t.Errorf("gzip after the warm-up: %d bytes, not gzip 9's", w.Body.Len())
	}
}

// A negative FallbackRecompressAfter keeps the default-level bytes and
// the Fallback order however often a file is sent.
func TestFallbackRecompressAfterNegativeNeverRecompresses(t *testing.T) {
	src := corpus.Site(1)["js/book.js"]
	h := FileServer(fstest.MapFS{"book.js": file(src)}, Config{FallbackRecompressAfter: -1}).(*server)
	first := do(h, "GET", "/book.js", "Accept-Encoding", chromiumAccept)
	warmUp(t, h, "/book.js", "Accept-Encoding", chromiumAccept)
	w := do(h, "GET", "/book.js", "Accept-Encoding", chromiumAccept)
	if w.Header().Get("Content-Encoding") != "zstd" || !bytes.Equal(w.Body.Bytes(), first.Body.Bytes()) {
		t.Errorf("with recompression off: %s, %d bytes; want the first response's zstd, %d bytes", w.Header().Get("Content-Encoding"), w.Body.Len(), first.Body.Len())
	}
}

// With PreferOrder the Fallback order keeps breaking ties after the
// recompression, which still makes each coding's bytes the best level's.
func TestFallbackPreferOrderKeepsOrderAfterRecompression(t *testing.T) {
	src := corpus.Site(1)["js/book.js"]
	h := FileServer(fstest.MapFS{"book.js": file(src)}, Config{PreferOrder: true}).(*server)
	warmUp(t, h, "/book.js", "Accept-Encoding", chromiumAccept)
	w := do(h, "GET", "/book.js", "Accept-Encoding", chromiumAccept)
	if w.Header().Get("Content-Encoding") != "zstd" || !bytes.Equal(w.Body.Bytes(), bestLevel(t, encoding.Zstd(), src)) {
		t.Errorf("PreferOrder after the warm-up: %s, %d bytes; want zstd at its best level", w.Header().Get("Content-Encoding"), w.Body.Len())
	}
}

// A recompressed entry the cache evicted comes back at the default level
// when next sent, and is recompressed again: it no longer counts as done.
func TestFallbackRecompressesAgainAfterEviction(t *testing.T) {
	src := corpus.Site(1)["js/book.js"]
	fsys := fstest.MapFS{"book.js": file(src)}
	r := rand.New(rand.NewPCG(7, 7))
	for i := range 100 {
		var b []byte
		for len(b) < 4<<10 {
			b = fmt.Appendf(b, "filler %d, line %d: %x\n", i, len(b), r.Uint32())
		}
		fsys[fmt.Sprintf("filler%d.txt", i)] = file(b)
	}
	h := FileServer(fsys, Config{FallbackCacheBytes: 64 << 10, Fallback: []encoding.Codec{encoding.Gzip()}}).(*server)
	warmUp(t, h, "/book.js", "Accept-Encoding", "gzip")
	st := h.fallbackState(h.lookup("book.js").original)
	if st.done.Load() != 1 {
		t.Fatalf("setup: gzip not recompressed (done %b)", st.done.Load())
	}
	for i := range 100 {
		do(h, "GET", fmt.Sprintf("/filler%d.txt", i), "Accept-Encoding", "gzip")
	}
	waitRecompressorIdle(t, h)
	if w := do(h, "GET", "/book.js", "Accept-Encoding", "gzip"); bytes.Equal(w.Body.Bytes(), bestLevel(t, encoding.Gzip(), src)) {
		t.Fatal("setup: the fillers did not evict the recompressed entry")
	}
	warmUp(t, h, "/book.js", "Accept-Encoding", "gzip")
	if w := do(h, "GET", "/book.js", "Accept-Encoding", "gzip"); !bytes.Equal(w.Body.Bytes(), bestLevel(t, encoding.Gzip(), src)) {
		t.Errorf("after eviction and a new warm-up: %d bytes, not gzip 9's", w.Body.Len())
	}
}

// The codings asked for are learnt from every Accept-Encoding a file's
// responses see, though a value seen before is not parsed again: a client
// weighing zstd and br alike after one that asked for br alone has both
// recompressed.
func TestFallbackLearnsEachAcceptEncodingAskedFor(t *testing.T) {
	src := corpus.Site(1)["js/book.js"]
	h := FileServer(fstest.MapFS{"book.js": file(src)}, Config{}).(*server)
	warmUp(t, h, "/book.js", "Accept-Encoding", "br")
	st := h.fallbackState(h.lookup("book.js").original)
	bit := func(coding string) uint32 { return 1 << slices.Index(h.fallbackNames, coding) }
	if got := st.asked.Load(); got != bit("br") {
		t.Fatalf("asked codings %03b after br alone, want br's %03b", got, bit("br"))
	}
	warmUp(t, h, "/book.js", "Accept-Encoding", "zstd, br")
	if got, want := st.asked.Load(), bit("br")|bit("zstd"); got != want {
		t.Errorf("asked codings %03b after \"zstd, br\", want %03b", got, want)
	}
	if got, want := st.done.Load(), bit("br")|bit("zstd"); got != want {
		t.Errorf("recompressed codings %03b, want br and zstd %03b", got, want)
	}
}
